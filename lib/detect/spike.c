/* Latency-spike detection (doc/spec.md §6): classification against P99 / P99.9 baselines of a
 * sliding window, baselines maintained incrementally when slots close, spike rate. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "spike_internal.h"

llmm_status llmm__spike_parts_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                                  llmm_window **win, llmm__spike_slot **counts)
{
    llmm_status st;
    *win = NULL;
    *counts = llmm__calloc(ctx, slots, sizeof **counts);
    if (!*counts)
        return LLMM_E_NOMEM;
    st = llmm_window_new(ctx, slot_ns, slots, scale, win);
    if (st != LLMM_OK) {
        llmm__free(ctx, *counts, (size_t)slots * sizeof **counts);
        *counts = NULL;
    }
    return st;
}

void llmm__spike_parts_free(llmm_ctx *ctx, uint32_t slots, llmm_window *win,
                            llmm__spike_slot *counts)
{
    llmm_window_free(win);
    if (counts)
        llmm__free(ctx, counts, (size_t)slots * sizeof *counts);
}

void llmm__spike_clear(llmm_spike *d)
{
    llmm_window_reset(d->win);
    memset(d->counts, 0, (size_t)d->win->clk.slots * sizeof *d->counts);
    memset(&d->base, 0, sizeof d->base);
    d->base_slot = 0;
    d->started = 0;
    d->total_samples = 0;
    d->total_classified = 0;
    d->total_level1 = 0;
    d->total_level2 = 0;
}

llmm_status llmm_spike_new(llmm_ctx *ctx, llmm_spike **out)
{
    llmm_spike *d;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    d = llmm__calloc(ctx, 1, sizeof *d);
    if (!d)
        return LLMM_E_NOMEM;
    d->ctx = ctx;
    llmm__option_defaults(&llmm__spike_options, d);
    st = llmm__spike_parts_new(ctx, LLMM_WINDOW_SLOT_NS_DEFAULT, LLMM_WINDOW_SLOTS_DEFAULT,
                               d->scale, &d->win, &d->counts);
    if (st != LLMM_OK) {
        llmm__free(ctx, d, sizeof *d);
        return st;
    }
    *out = d;
    return LLMM_OK;
}

void llmm_spike_free(llmm_spike *d)
{
    if (!d)
        return;
    llmm__spike_parts_free(d->ctx, d->win->clk.slots, d->win, d->counts);
    llmm__free(d->ctx, d, sizeof *d);
}

/* The thresholds in force during slot k, computed without committing them. */
static llmm_status spike_rebase(llmm_spike *d, uint64_t k, llmm__spike_base *nb)
{
    const llmm_sketch *acc;
    double q[2], v[2];
    llmm_status st = llmm__window_closed(d->win, k, &acc);
    if (st != LLMM_OK)
        return st;
    nb->count = llmm_sketch_count(acc);
    nb->base = 0;
    nb->severe = 0;
    if (nb->count == 0)
        return LLMM_OK;
    q[0] = d->q_base;
    q[1] = d->q_severe;
    st = llmm_sketch_quantiles(acc, q, 2, v);
    if (st != LLMM_OK)
        return st;
    nb->base = v[0];
    nb->severe = v[1];
    return LLMM_OK;
}

/* ---- observe and queries ----------------------------------------------------------------- */

llmm_status llmm_spike_observe(llmm_spike *d, uint64_t now_ns, double latency,
                               llmm_spike_level *level)
{
    llmm_spike_level lv = LLMM_SPIKE_NONE;
    llmm__spike_base nb;
    llmm__spike_slot *c;
    uint64_t k;
    uint32_t e;
    llmm_status st;
    int classified;

    if (!d || !llmm__is_finite(latency) || latency < 0 || now_ns < d->win->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&d->win->clk, now_ns, &k, &e);
    if (k != d->base_slot) {
        st = spike_rebase(d, k, &nb);
        if (st == LLMM_OK)
            st = llmm__window_put(d->win, now_ns, k, e, &latency, 1);
        if (st != LLMM_OK)
            return st;
        d->base = nb;
        d->base_slot = k;
    } else {
        st = llmm__window_put(d->win, now_ns, k, e, &latency, 1);
        if (st != LLMM_OK)
            return st;
    }
    classified = d->base.count >= d->warmup;
    if (classified && latency > d->base.base)
        lv = latency > d->factor * d->base.severe ? LLMM_SPIKE_LEVEL2 : LLMM_SPIKE_LEVEL1;

    c = &d->counts[e];
    if (c->slot != k) {
        memset(c, 0, sizeof *c);
        c->slot = k;
    }
    c->samples++;
    d->total_samples++;
    if (classified) {
        c->classified++;
        d->total_classified++;
        if (lv == LLMM_SPIKE_LEVEL1) {
            c->level1++;
            d->total_level1++;
        } else if (lv == LLMM_SPIKE_LEVEL2) {
            c->level2++;
            d->total_level2++;
        }
    }
    d->started = 1;
    if (level)
        *level = lv;
    return LLMM_OK;
}

/* Sum the counts of the window ending at slot k. */
static void window_counts(const llmm_spike *d, uint64_t k, llmm__spike_slot *sum)
{
    uint32_t i, n = d->win->clk.slots;
    memset(sum, 0, sizeof *sum);
    for (i = 0; i < n; i++) {
        const llmm__spike_slot *c = &d->counts[i];
        if (!llmm__slot_in_span(c->slot, k, n))
            continue;
        sum->samples += c->samples;
        sum->classified += c->classified;
        sum->level1 += c->level1;
        sum->level2 += c->level2;
    }
}

llmm_status llmm_spike_rate(llmm_spike *d, uint64_t now_ns, double *rate)
{
    llmm__spike_slot sum;
    uint64_t k;
    uint32_t e;

    if (!d || !rate || now_ns < d->win->clk.last_ns)
        return LLMM_E_INVALID;
    llmm__clock_locate(&d->win->clk, now_ns, &k, &e);
    window_counts(d, k, &sum);
    if (sum.classified == 0)
        return LLMM_E_EMPTY;
    *rate = (double)(sum.level1 + sum.level2) / (double)sum.classified;
    llmm__clock_commit(&d->win->clk, now_ns, k, e);
    d->started = 1;
    return LLMM_OK;
}

llmm_status llmm_spike_get_stats(llmm_spike *d, uint64_t now_ns, llmm_spike_stats *s)
{
    llmm__spike_slot sum;
    llmm__spike_base nb;
    llmm_spike_stats o;
    uint64_t k;
    uint32_t e;
    llmm_status st;

    if (!d || !s || now_ns < d->win->clk.last_ns)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_spike_stats, s) != LLMM_OK)
        return LLMM_E_ABI;
    llmm__clock_locate(&d->win->clk, now_ns, &k, &e);
    if (k != d->base_slot) {
        st = spike_rebase(d, k, &nb);
        if (st != LLMM_OK)
            return st;
        d->base = nb;
        d->base_slot = k;
    }
    llmm__clock_commit(&d->win->clk, now_ns, k, e);
    d->started = 1;
    window_counts(d, k, &sum);
    LLMM__SIZED_DEFAULTS(llmm_spike_stats, &o);
    o.ready = d->base.count >= d->warmup;
    o.base_threshold = d->base.base;
    o.severe_threshold = d->base.severe;
    o.baseline_samples = d->base.count;
    o.window_samples = sum.samples;
    o.window_classified = sum.classified;
    o.window_level1 = sum.level1;
    o.window_level2 = sum.level2;
    o.total_samples = d->total_samples;
    o.total_classified = d->total_classified;
    o.total_level1 = d->total_level1;
    o.total_level2 = d->total_level2;
    LLMM__SIZED_PUT(llmm_spike_stats, s, &o);
    return LLMM_OK;
}

llmm_status llmm_spike_reset(llmm_spike *d)
{
    if (!d)
        return LLMM_E_INVALID;
    llmm__spike_clear(d);
    return LLMM_OK;
}
