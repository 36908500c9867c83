/* Streaming least squares by blocked Householder QR, and double-double helpers.
 *
 * Why streaming: llmm_polyfit has no context to allocate from, and a problem of n rows needs
 * only the (p+1)×(p+1) triangle of [A | b] to be solved. Rows are gathered in a block of
 * LLMM__QR_BLOCK and then [R; block] is reduced to a new R by one Householder reflection per
 * column. Because R is already triangular, the reflection for column k touches only row k of R
 * and the block, which keeps the cost at about 2·p² flops per data row — the same as a dense
 * Householder QR of the whole matrix, with the same backward stability. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "fit_internal.h"

void llmm__qr_init(llmm__qr *q, uint32_t ncol)
{
    uint32_t i;
    q->ncol = ncol;
    q->fill = 0;
    for (i = 0; i < ncol; i++)
        memset(q->r[i], 0, sizeof(double) * ncol);
}

void llmm__qr_add(llmm__qr *q, const double *row)
{
    uint32_t j;
    for (j = 0; j < q->ncol; j++)
        q->blk[j][q->fill] = row[j];
    if (++q->fill == LLMM__QR_BLOCK)
        llmm__qr_fold(q);
}

/* Four partial sums: independent chains keep the FP adders busy (the compiler may not
 * reassociate a single sum). */
static double dot(const double *a, const double *b, uint32_t m)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    uint32_t i = 0;
    for (; i + 3 < m; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < m; i++)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

void llmm__qr_fold(llmm__qr *q)
{
    const uint32_t m = q->fill, nc = q->ncol;
    uint32_t k, j, i;

    if (m == 0)
        return;
    for (k = 0; k < nc; k++) {
        double *u = q->blk[k];
        double alpha = q->r[k][k], ss = dot(u, u, m), s, beta, v0, tau, inv;
        if (ss == 0.0)
            continue; /* column already reduced: the reflection would be the identity */
        s = sqrt(alpha * alpha + ss);
        beta = alpha > 0.0 ? -s : s;
        v0 = alpha - beta; /* |alpha| + s: no cancellation */
        tau = -v0 / beta;  /* = (beta - alpha) / beta, in [1, 2] */
        inv = 1.0 / v0;
        for (i = 0; i < m; i++)
            u[i] *= inv; /* Householder vector (1, u) */
        for (j = k + 1; j < nc; j++) {
            double *c = q->blk[j];
            double w = tau * (q->r[k][j] + dot(u, c, m));
            q->r[k][j] -= w;
            for (i = 0; i < m; i++)
                c[i] -= w * u[i];
        }
        q->r[k][k] = beta;
    }
    q->fill = 0;
}

int llmm__qr_solve(llmm__qr *q, double *u)
{
    const uint32_t p = q->ncol - 1;
    uint32_t k;
    llmm__qr_fold(q);
    for (k = p; k-- > 0;) {
        double s = q->r[k][p];
        uint32_t j;
        if (q->r[k][k] == 0.0)
            return 0;
        for (j = k + 1; j < p; j++)
            s -= q->r[k][j] * u[j];
        u[k] = s / q->r[k][k];
    }
    return 1;
}

void llmm__qr_rank(const llmm__qr *q, double tol, uint32_t *rank, double *cond)
{
    const uint32_t p = q->ncol - 1;
    double t[LLMM__QR_MAXCOL][LLMM__QR_MAXCOL]; /* column-equilibrated triangle */
    double inv[LLMM__QR_MAXCOL][LLMM__QR_MAXCOL];
    double norm_t = 0.0, norm_inv = 0.0;
    uint32_t i, j, k, r = 0;

    for (j = 0; j < p; j++) {
        double cn = 0.0, colsum = 0.0;
        for (i = 0; i <= j; i++)
            cn += q->r[i][j] * q->r[i][j];
        cn = sqrt(cn);
        for (i = 0; i <= j; i++) {
            t[i][j] = cn > 0.0 ? q->r[i][j] / cn : 0.0;
            colsum += fabs(t[i][j]);
        }
        if (fabs(t[j][j]) > tol)
            r++;
        if (colsum > norm_t)
            norm_t = colsum;
    }
    *rank = r;
    if (r < p) {
        *cond = INFINITY;
        return;
    }
    /* Inverse of the upper triangle, column by column (p <= 17: the cubic cost is nothing). */
    for (j = 0; j < p; j++) {
        double colsum = 0.0;
        for (k = j + 1; k-- > 0;) {
            double s = k == j ? 1.0 : 0.0;
            for (i = k + 1; i <= j; i++)
                s -= t[k][i] * inv[i][j];
            inv[k][j] = s / t[k][k];
            colsum += fabs(inv[k][j]);
        }
        if (colsum > norm_inv)
            norm_inv = colsum;
    }
    *cond = norm_t * norm_inv;
}

llmm__dd llmm__dd_add(llmm__dd a, llmm__dd b)
{
    llmm__dd s = llmm__two_sum(a.hi, b.hi);
    llmm__dd t = llmm__two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = llmm__two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return llmm__two_sum(s.hi, s.lo);
}

llmm__dd llmm__dd_mul_d(llmm__dd a, double b)
{
    llmm__dd p = llmm__two_prod(a.hi, b);
    p.lo += a.lo * b;
    return llmm__two_sum(p.hi, p.lo);
}

int llmm__all_finite(const double *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!llmm__is_finite(v[i]))
            return 0;
    return 1;
}
