/* Internal pieces of the fit module: a streaming least-squares accumulator (blocked Householder
 * QR of [R; new rows]) and double-double helpers. Nothing here allocates. */
#ifndef LLMM_FIT_INTERNAL_H
#define LLMM_FIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "llmmetrics/fit.h"

/* Columns of the accumulator: unknowns plus one right-hand side. */
#define LLMM__QR_MAXCOL (LLMM_POLY_MAX_DEGREE + 2)
/* Rows folded into R at a time. 64 keeps the block (column-major) in L1 for small problems
 * while making the per-block overhead (one square root per column) negligible. */
#define LLMM__QR_BLOCK 64

/* Least-squares accumulator for min ||A u - b||: rows [a_0 … a_{p-1} | b] are appended to the
 * block; when the block is full it is folded into the (p+1)×(p+1) upper triangle r by
 * Householder reflections, so the whole problem never needs to be stored. At the end r[p][p]
 * is ± the residual norm. */
typedef struct llmm__qr {
    uint32_t ncol; /* p + 1 */
    uint32_t fill; /* rows waiting in blk */
    double r[LLMM__QR_MAXCOL][LLMM__QR_MAXCOL];
    double blk[LLMM__QR_MAXCOL][LLMM__QR_BLOCK]; /* blk[column][row] */
} llmm__qr;

/* Start an accumulator for p = ncol - 1 unknowns (1 <= p <= LLMM__QR_MAXCOL - 1). */
void llmm__qr_init(llmm__qr *q, uint32_t ncol);
/* Fold the waiting rows into r. */
void llmm__qr_fold(llmm__qr *q);
/* Append one row of ncol values (unknowns first, right-hand side last). */
void llmm__qr_add(llmm__qr *q, const double *row);
/* Fold what is waiting, then solve the first p rows of r for u (back substitution).
 * Returns 0 if a diagonal entry is exactly 0. */
int llmm__qr_solve(llmm__qr *q, double *u);
/* Column-equilibrated rank and 1-norm condition number of the leading p×p triangle, using
 * tolerance tol on the relative diagonal (|r_kk| / ||column k||). */
void llmm__qr_rank(const llmm__qr *q, double tol, uint32_t *rank, double *cond);

/* ---- double-double (unevaluated sum hi + lo) ------------------------------------------ */
typedef struct llmm__dd {
    double hi, lo;
} llmm__dd;

/* hi + lo = a + b exactly (Knuth's TwoSum). */
static inline llmm__dd llmm__two_sum(double a, double b)
{
    llmm__dd r;
    double bb;
    r.hi = a + b;
    bb = r.hi - a;
    r.lo = (a - (r.hi - bb)) + (b - bb);
    return r;
}

/* Veltkamp's split: a = hi + lo with each half fitting in 26 bits, so products of halves are
 * exact. (Overflows only for |a| near DBL_MAX, far outside what the callers pass.) */
static inline void llmm__split(double a, double *hi, double *lo)
{
    double t = 134217729.0 * a; /* 2^27 + 1 */
    *hi = t - (t - a);
    *lo = a - *hi;
}

/* hi + lo = a * b exactly (Dekker's product). Plain arithmetic rather than fma(): a libm call
 * per product would double the cost of polyfit's refinement pass on machines where fma() is
 * not inlined. */
static inline llmm__dd llmm__two_prod(double a, double b)
{
    llmm__dd r;
    double ah, al, bh, bl;
    r.hi = a * b;
    llmm__split(a, &ah, &al);
    llmm__split(b, &bh, &bl);
    r.lo = ((ah * bh - r.hi) + ah * bl + al * bh) + al * bl;
    return r;
}
/* (a.hi + a.lo) + (b.hi + b.lo), about 106-bit accurate. */
llmm__dd llmm__dd_add(llmm__dd a, llmm__dd b);
/* (a.hi + a.lo) * b. */
llmm__dd llmm__dd_mul_d(llmm__dd a, double b);

/* Shared by knee.c and usl.c: all n values finite. */
int llmm__all_finite(const double *v, size_t n);

#endif
