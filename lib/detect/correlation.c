/* Correlation of paired series: Pearson's r and Spearman's ρ (Pearson of fractional ranks,
 * ties averaged). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"
#include "llmmetrics/detect.h"

/* Two powers of two whose product maps max |v| into [0.5, 1). Applied one after the other,
 * each product is exact and no intermediate leaves the double range, even for subnormal or
 * near-overflow data; the correlation does not change under scaling. */
static void pow2_scale(const double *v, size_t n, double *s1, double *s2)
{
    double m = 0.0;
    size_t i;
    int e, h;

    for (i = 0; i < n; i++) {
        double a = fabs(v[i]);
        if (a > m)
            m = a;
    }
    (void)frexp(m, &e);
    h = -e / 2;
    *s1 = ldexp(1.0, h);
    *s2 = ldexp(1.0, -e - h);
}

static int all_equal(const double *v, size_t n)
{
    size_t i;
    for (i = 1; i < n; i++)
        if (v[i] != v[0])
            return 0;
    return 1;
}

/* Mean of the scaled values, with one correction pass (the second pass adds the rounding
 * error of the first back in). */
static double scaled_mean(const double *v, size_t n, double s1, double s2)
{
    double m = 0.0, c = 0.0;
    size_t i;
    for (i = 0; i < n; i++)
        m += v[i] * s1 * s2;
    m /= (double)n;
    for (i = 0; i < n; i++)
        c += v[i] * s1 * s2 - m;
    return m + c / (double)n;
}

static llmm_status pearson(const double *x, const double *y, size_t n, double *r)
{
    double xs1, xs2, ys1, ys2, mx, my, sxx = 0.0, syy = 0.0, sxy = 0.0, v;
    size_t i;

    pow2_scale(x, n, &xs1, &xs2);
    pow2_scale(y, n, &ys1, &ys2);
    mx = scaled_mean(x, n, xs1, xs2);
    my = scaled_mean(y, n, ys1, ys2);
    for (i = 0; i < n; i++) {
        double dx = x[i] * xs1 * xs2 - mx;
        double dy = y[i] * ys1 * ys2 - my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    if (!(sxx > 0.0) || !(syy > 0.0))
        return LLMM_E_RANGE;
    /* One square root of the product when it is a normal number: then identical series give
     * exactly 1, since sqrt(fl(a·a)) = a. Scaled deviations are at most 2, so the product
     * cannot overflow; it can only underflow for spreads near the subnormal range. */
    v = sxx * syy;
    v = v >= DBL_MIN ? sxy / sqrt(v) : sxy / (sqrt(sxx) * sqrt(syy));
    *r = v > 1.0 ? 1.0 : (v < -1.0 ? -1.0 : v);
    return LLMM_OK;
}

typedef struct rank_pair {
    double v;
    size_t i;
} rank_pair;

static int rank_cmp(const void *a, const void *b)
{
    const rank_pair *p = a, *q = b;
    if (p->v != q->v)
        return p->v < q->v ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* Fractional ranks (1-based; a run of ties shares the mean of the ranks it spans). */
static void fractional_ranks(const double *v, size_t n, rank_pair *tmp, double *rank)
{
    size_t a, b, j;

    for (j = 0; j < n; j++) {
        tmp[j].v = v[j];
        tmp[j].i = j;
    }
    qsort(tmp, n, sizeof *tmp, rank_cmp);
    for (a = 0; a < n; a = b) {
        double mean_rank;
        for (b = a + 1; b < n && tmp[b].v == tmp[a].v; b++)
            ;
        /* ranks a+1 … b: their mean is (a + 1 + b) / 2 */
        mean_rank = ((double)a + 1.0 + (double)b) * 0.5;
        for (j = a; j < b; j++)
            rank[tmp[j].i] = mean_rank;
    }
}

static llmm_status spearman(llmm_ctx *ctx, const double *x, const double *y, size_t n, double *r)
{
    size_t pairs_bytes, rank_bytes, bytes;
    unsigned char *scratch;
    rank_pair *tmp;
    double *rx, *ry;
    llmm_status st;

    if (!llmm__mul_size(n, sizeof *tmp, &pairs_bytes) ||
        !llmm__mul_size(n, 2 * sizeof *rx, &rank_bytes) || pairs_bytes > SIZE_MAX - rank_bytes)
        return LLMM_E_NOMEM;
    bytes = pairs_bytes + rank_bytes;
    scratch = llmm__alloc(ctx, bytes);
    if (!scratch)
        return LLMM_E_NOMEM;
    tmp = (rank_pair *)(void *)scratch;
    rx = (double *)(void *)(scratch + pairs_bytes);
    ry = rx + n;
    fractional_ranks(x, n, tmp, rx);
    fractional_ranks(y, n, tmp, ry);
    st = pearson(rx, ry, n, r);
    llmm__free(ctx, scratch, bytes);
    return st;
}

llmm_status llmm_correlation(llmm_ctx *ctx, const double *x, const double *y, size_t n,
                             llmm_correlation_method method, double *r)
{
    size_t i;

    if (!x || !y || !r ||
        (method != LLMM_CORRELATION_PEARSON && method != LLMM_CORRELATION_SPEARMAN))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++)
        if (!llmm__is_finite(x[i]) || !llmm__is_finite(y[i]))
            return LLMM_E_INVALID;
    if (n < 2)
        return LLMM_E_EMPTY;
    if (all_equal(x, n) || all_equal(y, n))
        return LLMM_E_RANGE;
    return method == LLMM_CORRELATION_PEARSON ? pearson(x, y, n, r) : spearman(ctx, x, y, n, r);
}
