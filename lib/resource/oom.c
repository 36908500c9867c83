/* OOM precursors: page-walk latency from cycles, TLB miss-rate presets. */
#include "core/internal.h"
#include "llmmetrics/resource.h"

llmm_status llmm_tlb_preset(llmm_tlb_workload workload, double *max_miss_rate, uint64_t *window_ns)
{
    if (!max_miss_rate || !window_ns)
        return LLMM_E_INVALID;
    switch (workload) {
    case LLMM_TLB_OLTP_DATABASE:
        *max_miss_rate = 0.125;
        *window_ns = UINT64_C(1000000000);
        return LLMM_OK;
    case LLMM_TLB_JAVA_MICROSERVICE:
        *max_miss_rate = 0.082;
        *window_ns = UINT64_C(500000000);
        return LLMM_OK;
    default:
        return LLMM_E_INVALID;
    }
}

llmm_status llmm_page_walk_ns(double cycles, double cpu_hz, double *ns)
{
    double v;
    if (!ns || !llmm__is_finite(cycles) || cycles < 0.0 || !llmm__is_finite(cpu_hz) ||
        !(cpu_hz > 0.0))
        return LLMM_E_INVALID;
    v = cycles / cpu_hz * 1e9;
    if (!llmm__is_finite(v))
        return LLMM_E_INVALID; /* e.g. 1e300 cycles at 1e-300 Hz */
    *ns = v;
    return LLMM_OK;
}
