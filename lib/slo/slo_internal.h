/* Internal helpers of the slo module. */
#ifndef LLMM_SLO_INTERNAL_H
#define LLMM_SLO_INTERNAL_H

#include "llmmetrics/slo.h"

/* Whether the bounds of a check are acceptable: q in [0, 1], latency_max finite and >= 0,
 * err_max in [0, 1] (all false for NaN). */
int llmm__slo_bounds_ok(double q, double latency_max, double err_max);

/* Fill r from a sketch of successes and an error count; the bounds must have passed
 * llmm__slo_bounds_ok() and r its size check. LLMM_E_RANGE when successes + errors overflows
 * (r untouched); never fails otherwise. */
llmm_status llmm__slo_fill(const llmm_sketch *ok, uint64_t errors, double q, double latency_max,
                           double err_max, llmm_slo_result *r);

#endif
