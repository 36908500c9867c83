/* The SLO check over a time window: successful latencies in a window of sketches, every
 * request in an (errors, requests) ratio window on the same slots.
 *
 * Both rings have their own clock. This object keeps a third, the only one that decides
 * whether a time stamp is acceptable, and orders the inner calls so that a call either
 * changes nothing or completes: the one inner call that can fail for lack of memory comes
 * first, and everything that could make a later inner call fail (time, span, counter
 * overflow) is checked up front. The inner clocks therefore never run ahead of ours. */
#include "core/abi.h"
#include "core/internal.h"
#include "slo_internal.h"

struct llmm_slo_window {
    llmm_ctx *ctx;
    llmm_window *lat;       /* latencies of the successes */
    llmm_ratio_window *req; /* (errors, requests) */
    llmm_sketch *scratch;   /* merge of the latencies of a span */
    uint64_t slot_ns;
    uint32_t slots;
    uint64_t last_ns;  /* the latest accepted (0 before any: accepts everything) */
    uint64_t requests; /* since creation or reset: bounds every sum of the ratio ring */
};

llmm_status llmm_slo_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                                llmm_slo_window **out)
{
    llmm_slo_window *w;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    w = llmm__calloc(ctx, 1, sizeof *w);
    if (!w)
        return LLMM_E_NOMEM;
    w->ctx = ctx;
    st = llmm_window_new(ctx, slot_ns, slots, scale, &w->lat);
    if (st == LLMM_OK)
        st = llmm_ratio_window_new(ctx, slot_ns, slots, &w->req);
    if (st == LLMM_OK)
        st = llmm_sketch_new(ctx, scale, &w->scratch);
    if (st == LLMM_OK)
        st = llmm_window_geometry(w->lat, &w->slot_ns, &w->slots);
    if (st != LLMM_OK) {
        llmm_slo_window_free(w);
        return st;
    }
    *out = w;
    return LLMM_OK;
}

void llmm_slo_window_free(llmm_slo_window *w)
{
    if (!w)
        return;
    llmm_sketch_free(w->scratch);
    llmm_ratio_window_free(w->req);
    llmm_window_free(w->lat);
    llmm__free(w->ctx, w, sizeof *w);
}

llmm_status llmm_slo_window_add(llmm_slo_window *w, uint64_t now_ns, double latency)
{
    llmm_status st;

    if (!w || !llmm__is_finite(latency) || latency < 0.0 || now_ns < w->last_ns)
        return LLMM_E_INVALID;
    if (w->requests == UINT64_MAX)
        return LLMM_E_RANGE;
    st = llmm_window_add(w->lat, now_ns, latency);
    if (st != LLMM_OK)
        return st; /* nothing changed in the window */
    /* Cannot fail: time checked, and no slot can hold more than w->requests. */
    st = llmm_ratio_window_add(w->req, now_ns, 0, 1);
    if (st != LLMM_OK)
        return st;
    w->requests++;
    w->last_ns = now_ns;
    return LLMM_OK;
}

llmm_status llmm_slo_window_add_errors(llmm_slo_window *w, uint64_t now_ns, uint64_t errors)
{
    llmm_status st;

    if (!w || now_ns < w->last_ns)
        return LLMM_E_INVALID;
    if (errors > UINT64_MAX - w->requests)
        return LLMM_E_RANGE;
    st = llmm_ratio_window_add(w->req, now_ns, errors, errors);
    if (st != LLMM_OK)
        return st;
    w->requests += errors;
    w->last_ns = now_ns;
    return LLMM_OK;
}

llmm_status llmm_slo_window_check(llmm_slo_window *w, uint64_t now_ns, uint64_t span_ns, double q,
                                  double latency_max, double err_max, llmm_slo_result *r)
{
    uint64_t errors = 0, requests = 0;
    llmm_status st;

    if (!w || !r || !llmm__slo_bounds_ok(q, latency_max, err_max) || span_ns == 0 ||
        now_ns < w->last_ns)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_slo_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    if (span_ns / w->slot_ns + (span_ns % w->slot_ns != 0) > w->slots)
        return LLMM_E_RANGE;
    st = llmm_window_snapshot(w->lat, now_ns, span_ns, w->scratch);
    if (st != LLMM_OK)
        return st; /* only LLMM_E_NOMEM can get here; nothing changed */
    /* Cannot fail: span, time checked; sums bounded by w->requests. */
    st = llmm_ratio_window_counts(w->req, now_ns, span_ns, &errors, &requests);
    if (st != LLMM_OK)
        return st;
    w->last_ns = now_ns;
    /* requests = successes + errors by construction, so the sum cannot overflow either. */
    return llmm__slo_fill(w->scratch, errors, q, latency_max, err_max, r);
}

llmm_status llmm_slo_window_reset(llmm_slo_window *w)
{
    if (!w)
        return LLMM_E_INVALID;
    llmm_window_reset(w->lat);
    llmm_ratio_window_reset(w->req);
    llmm_sketch_reset(w->scratch);
    w->last_ns = 0;
    w->requests = 0;
    return LLMM_OK;
}
