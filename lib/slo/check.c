/* The online SLO check (doc/spec.md §2): a latency quantile of the successes and the error rate of
 * all requests, each against its bound. */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "slo_internal.h"

int llmm__slo_bounds_ok(double q, double latency_max, double err_max)
{
    return q >= 0.0 && q <= 1.0 && llmm__is_finite(latency_max) && latency_max >= 0.0 &&
           err_max >= 0.0 && err_max <= 1.0;
}

llmm_status llmm__slo_fill(const llmm_sketch *ok, uint64_t errors, double q, double latency_max,
                           double err_max, llmm_slo_result *r)
{
    llmm_slo_result o;
    uint64_t successes = llmm_sketch_count(ok);
    double latency = INFINITY, rate = 0.0;

    if (errors > UINT64_MAX - successes)
        return LLMM_E_RANGE;
    /* The sketch is not empty and q is in range, so the quantile cannot fail. */
    if (successes > 0 && llmm_sketch_quantile(ok, q, &latency) != LLMM_OK)
        return LLMM_E_INVALID;
    if (successes + errors > 0)
        rate = (double)errors / (double)(successes + errors);
    LLMM__SIZED_DEFAULTS(llmm_slo_result, &o);
    o.successes = successes;
    o.errors = errors;
    o.quantile = q;
    o.latency = latency;
    o.error_rate = rate;
    o.latency_ok = successes > 0 && latency <= latency_max;
    o.errors_ok = rate <= err_max;
    o.satisfied = o.latency_ok && o.errors_ok;
    LLMM__SIZED_PUT(llmm_slo_result, r, &o);
    return LLMM_OK;
}

llmm_status llmm_slo_check_quantile(const llmm_sketch *ok_latencies, uint64_t errors, double q,
                                    double latency_max, double err_max, llmm_slo_result *r)
{
    if (!ok_latencies || !r || !llmm__slo_bounds_ok(q, latency_max, err_max))
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_slo_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    return llmm__slo_fill(ok_latencies, errors, q, latency_max, err_max, r);
}

llmm_status llmm_slo_check(const llmm_sketch *ok_latencies, uint64_t errors, double p95_max,
                           double err_max, llmm_slo_result *r)
{
    return llmm_slo_check_quantile(ok_latencies, errors, 0.95, p95_max, err_max, r);
}
