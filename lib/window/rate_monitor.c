/* An (events, total) ratio over a fixed window: the geometry and the call order that keep
 * every failure free of side effects. */
#include "rate_monitor.h"

llmm_status llmm__rate_monitor_init(llmm__rate_monitor *m, llmm_ctx *ctx, uint64_t window_ns)
{
    const uint64_t n = LLMM__RATE_MONITOR_SLOTS;
    uint64_t slot_ns, slots;
    m->rw = NULL;
    /* n slots of ceil(window / n) ns, fewer when that already covers the window (1 ns slots
     * for a window shorter than n ns). The ring, slot_ns * slots <= window_ns + n - 1, fits
     * in 64 bits unless the window is within n - 1 ns of 2^64. */
    if (window_ns > UINT64_MAX - (n - 1))
        return LLMM_E_RANGE;
    slot_ns = window_ns / n + (window_ns % n != 0);
    slots = window_ns / slot_ns + (window_ns % slot_ns != 0);
    m->window_ns = window_ns;
    m->total = 0;
    return llmm_ratio_window_new(ctx, slot_ns, (uint32_t)slots, &m->rw);
}

void llmm__rate_monitor_fini(llmm__rate_monitor *m)
{
    llmm_ratio_window_free(m->rw);
    m->rw = NULL;
}

llmm_status llmm__rate_monitor_add(llmm__rate_monitor *m, uint64_t now_ns, uint64_t events,
                                   uint64_t total)
{
    llmm_status st;
    if (events > total)
        return LLMM_E_INVALID;
    if (total > UINT64_MAX - m->total)
        return LLMM_E_RANGE;
    st = llmm_ratio_window_add(m->rw, now_ns, events, total); /* checks the time */
    if (st == LLMM_OK)
        m->total += total;
    return st;
}

llmm_status llmm__rate_monitor_read(llmm__rate_monitor *m, uint64_t now_ns, uint64_t *events,
                                    uint64_t *total, double *ratio)
{
    /* The ratio call fails (time, empty window) without moving the ring's clock; the counts
     * over the same span then cannot fail, every sum being bounded by m->total. */
    llmm_status st = llmm_ratio_window_ratio(m->rw, now_ns, m->window_ns, ratio);
    if (st != LLMM_OK)
        return st;
    return llmm_ratio_window_counts(m->rw, now_ns, m->window_ns, events, total);
}

void llmm__rate_monitor_reset(llmm__rate_monitor *m)
{
    llmm_ratio_window_reset(m->rw);
    m->total = 0;
}
