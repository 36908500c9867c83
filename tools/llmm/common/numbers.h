/* numbers.h: decimal numbers, sorting, exact percentiles, sketch error bounds. */
#ifndef LLMM_CLI_NUMBERS_H
#define LLMM_CLI_NUMBERS_H

#include <stddef.h>
#include <stdint.h>

/* A JSON-grammar decimal (s, len, no NUL needed) to the correctly rounded double, as strtod;
 * LLMM_CLI_EPARSE if it is not one number, not finite, or a number other than 0 too small to
 * be anything but 0 (1e-400: refused rather than read as 0; subnormals are kept). */
int llmm_cli_number(const char *s, size_t len, double *out);
/* 1 when llmm_cli_number refused s because it rounds to 0 (for the readers' messages). */
int llmm_cli_number_underflows(const char *s, size_t len);
/* m * 10^e10 (negated when neg), correctly rounded, when a fast exact method applies (m at
 * most 19 digits; Clinger's path, then a 128-bit product): 1 and *out; 0 otherwise (ask
 * strtod). */
int llmm_cli_decimal(uint64_t m, long e10, int neg, double *out);
/* Sort ascending (doubles, no NaN). */
void llmm_cli_sort(double *v, size_t n);
/* numpy.percentile(v, p) with the default 'linear' method, v sorted, n > 0, p in [0, 100]. */
double llmm_cli_linear_percentile(const double *sorted, size_t n, double p);
/* Nearest-rank quantile (doc/spec.md §5): rank max(1, ceil(q·n)), q·n within 1e-9 of an integer
 * counts as that integer; v sorted, n > 0. */
double llmm_cli_nearest_rank(const double *sorted, size_t n, double q);
/* 1 when v (not negative) can be a token count: a whole number at most 9e15, below 2^53 where
 * every whole double is exact, so that it converts to int64_t without loss. */
int llmm_cli_token_count_ok(double v);
/* The guaranteed relative error of a sketch scale, (b - 1) / (b + 1), b = 2^(2^-scale). */
double llmm_cli_rel_error(int32_t scale);

#endif /* LLMM_CLI_NUMBERS_H */
