/* bounds.h: quantiles a sketch can only answer with a bound of its range. A value below the
 * range is counted in the underflow, one above in the overflow, and a quantile whose rank
 * falls there comes back as range_lo or range_hi (doc/format.md 3.5): not a measured value.
 * The tool says so where it prints such a quantile (`llmm quantiles`, `llmm report`). */
#ifndef LLMM_CLI_BOUNDS_H
#define LLMM_CLI_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include <llmmetrics/llmmetrics.h>

/* The nearest rank of quantile q among n values (doc/spec.md §5): max(1, ceil(q·n)), q·n
 * within 1e-9 of an integer counting as that integer, at most n; n > 0. */
uint64_t llmm_cli_rank(uint64_t n, double q);

/* -1 when s answers quantile q with its range's lower bound (the rank lies in the underflow),
 * 1 with its upper bound (the overflow), 0 otherwise (ranks 1 and n are the exact min and
 * max, never a bound). */
int llmm_cli_quantile_at_bound(const llmm_sketch *s, double q);

/* When any of the quantiles q[0..n) of s is answered by a range bound, one warning line per
 * side on stderr: "PREFIX: warning: WHAT: P99.9, P99.99 lie above the sketch's range
 * (HI UNIT): reported as that bound (N values above it)". label[i] names q[i]. Returns how
 * many quantiles were. */
size_t llmm_cli_warn_bounds(const char *prefix, const char *what, const char *unit,
                            const llmm_sketch *s, const double *q, const char *const *label,
                            size_t n);

#endif /* LLMM_CLI_BOUNDS_H */
