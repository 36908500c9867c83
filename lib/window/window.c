/* A ring of per-slot sketches on the caller's clock. See window.h for the slot and span rules. */
#include <string.h>

#include "core/internal.h"
#include "window_internal.h"

static void window_destroy(llmm_window *w)
{
    uint32_t i;
    if (w->ring) {
        for (i = 0; i < w->clk.slots; i++)
            llmm_sketch_free(w->ring[i]);
        llmm__free(w->ctx, w->ring, (size_t)w->clk.slots * sizeof *w->ring);
    }
    if (w->ids)
        llmm__free(w->ctx, w->ids, (size_t)w->clk.slots * sizeof *w->ids);
    llmm_sketch_free(w->spare);
    llmm_sketch_free(w->scratch);
    llmm_sketch_free(w->acc);
    llmm__free(w->ctx, w, sizeof *w);
}

llmm_status llmm_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                            llmm_window **out)
{
    llmm_window *w;
    llmm_status st;
    uint32_t i;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_INVALID;
    st = llmm__clock_geometry(&slot_ns, &slots);
    if (st != LLMM_OK)
        return st;
    w = llmm__calloc(ctx, 1, sizeof *w);
    if (!w)
        return LLMM_E_NOMEM;
    w->ctx = ctx;
    llmm__clock_init(&w->clk, slot_ns, slots);
    w->scale = scale;
    w->acc_valid = 1;
    w->ring = llmm__calloc(ctx, slots, sizeof *w->ring);
    w->ids = llmm__calloc(ctx, slots, sizeof *w->ids);
    if (!w->ring || !w->ids) {
        window_destroy(w);
        return LLMM_E_NOMEM;
    }
    st = llmm_sketch_new(ctx, scale, &w->spare);
    if (st == LLMM_OK)
        st = llmm_sketch_new(ctx, scale, &w->scratch);
    if (st == LLMM_OK)
        st = llmm_sketch_new(ctx, scale, &w->acc);
    for (i = 0; i < slots && st == LLMM_OK; i++)
        st = llmm_sketch_new(ctx, scale, &w->ring[i]);
    if (st != LLMM_OK) {
        window_destroy(w);
        return st;
    }
    *out = w;
    return LLMM_OK;
}

void llmm_window_free(llmm_window *w)
{
    if (w)
        window_destroy(w);
}

llmm_status llmm_window_geometry(const llmm_window *w, uint64_t *slot_ns, uint32_t *slots)
{
    if (!w)
        return LLMM_E_INVALID;
    if (slot_ns)
        *slot_ns = w->clk.slot_ns;
    if (slots)
        *slots = w->clk.slots;
    return LLMM_OK;
}

llmm_status llmm__window_put(llmm_window *w, uint64_t now, uint64_t slot, uint32_t entry,
                             const double *v, size_t n)
{
    llmm_sketch *s;
    llmm_status st;

    if (w->ids[entry] == slot) {
        s = w->ring[entry];
        st = n == 1 ? llmm_sketch_add(s, v[0]) : llmm_sketch_add_many(s, v, n);
        if (st != LLMM_OK)
            return st;
    } else {
        /* The entry holds an expired slot. Fill the empty spare first, so that a failure
         * leaves the expired slot in place (an earlier time stamp may still see it). */
        s = w->spare;
        st = n == 1 ? llmm_sketch_add(s, v[0]) : llmm_sketch_add_many(s, v, n);
        if (st != LLMM_OK)
            return st;
        llmm__window_forget(w, entry);
        w->spare = w->ring[entry];
        w->ring[entry] = s;
        w->ids[entry] = slot;
        llmm_sketch_reset(w->spare);
    }
    if (slot < w->acc_slot)
        w->acc_valid = 0; /* acc may cover this slot: it is stale now */
    llmm__clock_commit(&w->clk, now, slot, entry);
    return LLMM_OK;
}

static llmm_status window_put_checked(llmm_window *w, uint64_t now, const double *v, size_t n)
{
    uint64_t slot;
    uint32_t entry;
    if (now < w->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&w->clk, now, &slot, &entry);
    return llmm__window_put(w, now, slot, entry, v, n);
}

llmm_status llmm_window_add(llmm_window *w, uint64_t now_ns, double v)
{
    if (!w || !llmm__is_finite(v) || v < 0)
        return LLMM_E_INVALID;
    return window_put_checked(w, now_ns, &v, 1);
}

llmm_status llmm_window_add_many(llmm_window *w, uint64_t now_ns, const double *v, size_t n)
{
    size_t i;
    if (!w || (!v && n))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++)
        if (!llmm__is_finite(v[i]) || v[i] < 0)
            return LLMM_E_INVALID;
    if (n == 0) {
        /* Nothing to record; still a time stamp to accept or refuse. */
        uint64_t slot;
        uint32_t entry;
        if (now_ns < w->clk.last_ns)
            return LLMM_E_INVALID;
        llmm__clock_locate(&w->clk, now_ns, &slot, &entry);
        llmm__clock_commit(&w->clk, now_ns, slot, entry);
        return LLMM_OK;
    }
    return window_put_checked(w, now_ns, v, n);
}

/* Common prologue of the queries: arguments, the span and the clock, without changing them. */
static llmm_status window_query_begin(const llmm_window *w, uint64_t now, uint64_t span_ns,
                                      uint32_t *n, uint64_t *slot, uint32_t *entry)
{
    llmm_status st;
    if (!w)
        return LLMM_E_INVALID;
    st = llmm__clock_span(&w->clk, span_ns, n);
    if (st != LLMM_OK)
        return st;
    if (now < w->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&w->clk, now, slot, entry);
    return LLMM_OK;
}

/* Merge the n slots ending at slot `cur` (entry `e`) into the scratch sketch. The whole ring
 * is the running merge of the closed slots plus the current slot: two merges instead of
 * `slots`. */
static llmm_status window_merge(llmm_window *w, uint64_t cur, uint32_t e, uint32_t n)
{
    const llmm_sketch *closed;
    llmm_status st;
    uint32_t i;
    llmm_sketch_reset(w->scratch);
    if (n == w->clk.slots && n > 1) {
        st = llmm__window_closed(w, cur, &closed);
        if (st == LLMM_OK && llmm_sketch_count(closed) > 0)
            st = llmm_sketch_merge(w->scratch, closed);
        if (st == LLMM_OK && w->ids[e] == cur && llmm_sketch_count(w->ring[e]) > 0)
            st = llmm_sketch_merge(w->scratch, w->ring[e]);
        return st;
    }
    for (i = 0; i < n && i <= cur; i++) {
        if (w->ids[e] == cur - i && llmm_sketch_count(w->ring[e]) > 0) {
            st = llmm_sketch_merge(w->scratch, w->ring[e]);
            if (st != LLMM_OK)
                return st;
        }
        e = e == 0 ? w->clk.slots - 1 : e - 1;
    }
    return LLMM_OK;
}

llmm_status llmm_window_count(llmm_window *w, uint64_t now_ns, uint64_t span_ns, uint64_t *count)
{
    uint64_t cur, total = 0;
    uint32_t n, e, i;
    llmm_status st;

    if (!count)
        return LLMM_E_INVALID;
    st = window_query_begin(w, now_ns, span_ns, &n, &cur, &e);
    if (st != LLMM_OK)
        return st;
    for (i = 0; i < w->clk.slots; i++)
        if (llmm__slot_in_span(w->ids[i], cur, n))
            total += llmm_sketch_count(w->ring[i]);
    llmm__clock_commit(&w->clk, now_ns, cur, e);
    *count = total;
    return LLMM_OK;
}

static int probability_ok(double q)
{
    return q >= 0.0 && q <= 1.0;
}

llmm_status llmm_window_quantiles(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                  const double *q, size_t n, double *out)
{
    uint64_t cur;
    uint32_t slots, e;
    llmm_status st;
    size_t i;

    if (!q || !out)
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++)
        if (!probability_ok(q[i]))
            return LLMM_E_INVALID;
    st = window_query_begin(w, now_ns, span_ns, &slots, &cur, &e);
    if (st != LLMM_OK)
        return st;
    st = window_merge(w, cur, e, slots);
    if (st != LLMM_OK)
        return st;
    if (llmm_sketch_count(w->scratch) == 0)
        return LLMM_E_EMPTY;
    st = llmm_sketch_quantiles(w->scratch, q, n, out);
    if (st != LLMM_OK)
        return st;
    llmm__clock_commit(&w->clk, now_ns, cur, e);
    return LLMM_OK;
}

llmm_status llmm_window_quantile(llmm_window *w, uint64_t now_ns, uint64_t span_ns, double q,
                                 double *out)
{
    return llmm_window_quantiles(w, now_ns, span_ns, &q, 1, out);
}

llmm_status llmm_window_snapshot(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                 llmm_sketch *into)
{
    uint64_t cur;
    uint32_t n, e;
    llmm_status st;

    if (!into)
        return LLMM_E_INVALID;
    st = window_query_begin(w, now_ns, span_ns, &n, &cur, &e);
    if (st != LLMM_OK)
        return st;
    st = window_merge(w, cur, e, n);
    if (st != LLMM_OK)
        return st;
    st = llmm_sketch_copy(into, w->scratch);
    if (st != LLMM_OK)
        return st;
    llmm__clock_commit(&w->clk, now_ns, cur, e);
    return LLMM_OK;
}

llmm_status llmm_window_reset(llmm_window *w)
{
    uint32_t i;
    if (!w)
        return LLMM_E_INVALID;
    for (i = 0; i < w->clk.slots; i++)
        llmm_sketch_reset(w->ring[i]);
    memset(w->ids, 0, (size_t)w->clk.slots * sizeof *w->ids);
    llmm_sketch_reset(w->acc);
    w->acc_slot = 0;
    w->acc_valid = 1;
    llmm__clock_init(&w->clk, w->clk.slot_ns, w->clk.slots);
    return LLMM_OK;
}
