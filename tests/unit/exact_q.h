/* exact_q.h: the exact reference that sketch quantiles are tested and measured against, in one
 * place: the unit tests (helpers.h) and the benchmarks (bench/bench_common.h) include it. It
 * needs libc and libm only (no cmocka), so that the benchmarks can include it. */
#ifndef LLMM_TEST_EXACT_Q_H
#define LLMM_TEST_EXACT_Q_H

#include <math.h>
#include <stddef.h>

/* qsort's comparison of doubles, ascending. */
static inline int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Exact nearest-rank quantile of sorted values (doc/spec.md §5): rank max(1, ceil(q n)), q n
 * within 1e-9 of an integer counting as that integer. */
static inline double exact_q(const double *sorted, size_t n, double q)
{
    double qn = q * (double)n, r = nearbyint(qn);
    size_t rank;
    if (fabs(qn - r) > 1e-9)
        r = ceil(qn);
    rank = r < 1 ? 1 : (size_t)r;
    return sorted[(rank > n ? n : rank) - 1];
}

#endif /* LLMM_TEST_EXACT_Q_H */
