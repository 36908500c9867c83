/* TLB miss rate over a time window against a threshold (doc/spec.md §8 presets or custom). */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "llmmetrics/resource.h"
#include "window/rate_monitor.h"

struct llmm_tlb_monitor {
    llmm_ctx *ctx;
    llmm__rate_monitor mon;
    double max_miss_rate;
};

llmm_status llmm_tlb_monitor_new_custom(llmm_ctx *ctx, double max_miss_rate, uint64_t window_ns,
                                        llmm_tlb_monitor **out)
{
    llmm_tlb_monitor *m;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!llmm__is_finite(max_miss_rate) || window_ns == 0)
        return LLMM_E_INVALID;
    if (max_miss_rate < 0.0 || max_miss_rate > 1.0)
        return LLMM_E_RANGE;
    m = llmm__calloc(ctx, 1, sizeof *m);
    if (!m)
        return LLMM_E_NOMEM;
    st = llmm__rate_monitor_init(&m->mon, ctx, window_ns);
    if (st != LLMM_OK) {
        llmm__free(ctx, m, sizeof *m);
        return st;
    }
    m->ctx = ctx;
    m->max_miss_rate = max_miss_rate;
    *out = m;
    return LLMM_OK;
}

llmm_status llmm_tlb_monitor_new(llmm_ctx *ctx, llmm_tlb_workload workload, llmm_tlb_monitor **out)
{
    double rate;
    uint64_t window_ns;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (llmm_tlb_preset(workload, &rate, &window_ns) != LLMM_OK)
        return LLMM_E_INVALID;
    return llmm_tlb_monitor_new_custom(ctx, rate, window_ns, out);
}

void llmm_tlb_monitor_free(llmm_tlb_monitor *m)
{
    if (!m)
        return;
    llmm__rate_monitor_fini(&m->mon);
    llmm__free(m->ctx, m, sizeof *m);
}

llmm_status llmm_tlb_monitor_add(llmm_tlb_monitor *m, uint64_t now_ns, uint64_t misses,
                                 uint64_t accesses)
{
    if (!m)
        return LLMM_E_INVALID;
    return llmm__rate_monitor_add(&m->mon, now_ns, misses, accesses);
}

llmm_status llmm_tlb_monitor_read(llmm_tlb_monitor *m, uint64_t now_ns, llmm_tlb_reading *r)
{
    llmm_tlb_reading o;
    uint64_t misses, accesses;
    double rate;
    llmm_status st;

    if (!m || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_tlb_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    st = llmm__rate_monitor_read(&m->mon, now_ns, &misses, &accesses, &rate);
    if (st != LLMM_OK)
        return st;
    LLMM__SIZED_DEFAULTS(llmm_tlb_reading, &o);
    o.alert = rate > m->max_miss_rate;
    o.misses = misses;
    o.accesses = accesses;
    o.window_ns = m->mon.window_ns;
    o.miss_rate = rate;
    o.max_miss_rate = m->max_miss_rate;
    LLMM__SIZED_PUT(llmm_tlb_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_tlb_monitor_reset(llmm_tlb_monitor *m)
{
    if (!m)
        return LLMM_E_INVALID;
    llmm__rate_monitor_reset(&m->mon);
    return LLMM_OK;
}
