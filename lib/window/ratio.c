/* events / total over a time ring: two counters per slot on the shared slot arithmetic. */
#include <string.h>

#include "core/internal.h"
#include "ring.h"

typedef struct ratio_slot {
    uint64_t slot; /* which slot the counters belong to */
    uint64_t events;
    uint64_t total;
} ratio_slot;

struct llmm_ratio_window {
    llmm_ctx *ctx;
    llmm__clock clk;
    ratio_slot *ring;
};

llmm_status llmm_ratio_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots,
                                  llmm_ratio_window **out)
{
    llmm_ratio_window *rw;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    st = llmm__clock_geometry(&slot_ns, &slots);
    if (st != LLMM_OK)
        return st;
    rw = llmm__calloc(ctx, 1, sizeof *rw);
    if (!rw)
        return LLMM_E_NOMEM;
    rw->ring = llmm__calloc(ctx, slots, sizeof *rw->ring);
    if (!rw->ring) {
        llmm__free(ctx, rw, sizeof *rw);
        return LLMM_E_NOMEM;
    }
    rw->ctx = ctx;
    llmm__clock_init(&rw->clk, slot_ns, slots);
    *out = rw;
    return LLMM_OK;
}

void llmm_ratio_window_free(llmm_ratio_window *rw)
{
    if (!rw)
        return;
    llmm__free(rw->ctx, rw->ring, (size_t)rw->clk.slots * sizeof *rw->ring);
    llmm__free(rw->ctx, rw, sizeof *rw);
}

llmm_status llmm_ratio_window_add(llmm_ratio_window *rw, uint64_t now_ns, uint64_t events,
                                  uint64_t total)
{
    uint64_t slot, have_e = 0, have_t = 0;
    uint32_t e;
    ratio_slot *r;

    if (!rw || events > total || now_ns < rw->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&rw->clk, now_ns, &slot, &e);
    r = &rw->ring[e];
    if (r->slot == slot) {
        have_e = r->events;
        have_t = r->total;
    }
    /* events ≤ total holds for both terms, so checking the totals covers the events too. */
    if (total > UINT64_MAX - have_t)
        return LLMM_E_RANGE;
    r->slot = slot;
    r->events = have_e + events;
    r->total = have_t + total;
    llmm__clock_commit(&rw->clk, now_ns, slot, e);
    return LLMM_OK;
}

llmm_status llmm_ratio_window_counts(llmm_ratio_window *rw, uint64_t now_ns, uint64_t span_ns,
                                     uint64_t *events, uint64_t *total)
{
    uint64_t cur, se = 0, stot = 0;
    uint32_t n, e, i;
    llmm_status st;

    if (!rw)
        return LLMM_E_INVALID;
    st = llmm__clock_span(&rw->clk, span_ns, &n);
    if (st != LLMM_OK)
        return st;
    if (now_ns < rw->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&rw->clk, now_ns, &cur, &e);
    for (i = 0; i < rw->clk.slots; i++) {
        const ratio_slot *r = &rw->ring[i];
        if (!llmm__slot_in_span(r->slot, cur, n))
            continue;
        if (r->total > UINT64_MAX - stot)
            return LLMM_E_RANGE;
        se += r->events;
        stot += r->total;
    }
    llmm__clock_commit(&rw->clk, now_ns, cur, e);
    if (events)
        *events = se;
    if (total)
        *total = stot;
    return LLMM_OK;
}

llmm_status llmm_ratio_window_ratio(llmm_ratio_window *rw, uint64_t now_ns, uint64_t span_ns,
                                    double *ratio)
{
    uint64_t ev, tot;
    llmm_status st;
    llmm__clock saved;

    if (!rw || !ratio)
        return LLMM_E_INVALID;
    saved = rw->clk;
    st = llmm_ratio_window_counts(rw, now_ns, span_ns, &ev, &tot);
    if (st != LLMM_OK)
        return st;
    if (tot == 0) {
        rw->clk = saved; /* an error changes nothing, the clock included */
        return LLMM_E_EMPTY;
    }
    *ratio = (double)ev / (double)tot;
    return LLMM_OK;
}

llmm_status llmm_ratio_window_reset(llmm_ratio_window *rw)
{
    if (!rw)
        return LLMM_E_INVALID;
    memset(rw->ring, 0, (size_t)rw->clk.slots * sizeof *rw->ring);
    llmm__clock_init(&rw->clk, rw->clk.slot_ns, rw->clk.slots);
    return LLMM_OK;
}
