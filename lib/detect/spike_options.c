/* Options of the spike detector: its table, and the window geometry, which is rebuilt when a
 * geometry option changes and may only change before the first time stamp. */
#include "core/internal.h"
#include "core/options.h"
#include "spike_internal.h"

/* Replace the window, counts and accumulator with ones of a new geometry. All or nothing. */
static llmm_status spike_regeometry(llmm_spike *d, uint64_t slot_ns, uint64_t slots, int32_t scale)
{
    llmm_window *win;
    llmm__spike_slot *counts;
    llmm_status st;

    st = llmm__spike_parts_new(d->ctx, slot_ns, (uint32_t)slots, scale, &win, &counts);
    if (st != LLMM_OK)
        return st;
    llmm__spike_parts_free(d->ctx, d->win->clk.slots, d->win, d->counts);
    d->win = win;
    d->counts = counts;
    d->scale = scale;
    llmm__spike_clear(d);
    return LLMM_OK;
}

/* The geometry options (the hooked ones): rebuild the window with one value changed. */
static llmm_status spike_apply(void *obj, const llmm__option *o, llmm__optval v)
{
    llmm_spike *d = obj;
    uint64_t slot_ns = d->win->clk.slot_ns, slots = d->win->clk.slots;
    int32_t scale = d->scale;

    if (o->key == LLMM_SPIKE_SLOT_NS)
        slot_ns = v.u;
    else if (o->key == LLMM_SPIKE_SLOTS)
        slots = v.u;
    else
        scale = (int32_t)v.u;
    return spike_regeometry(d, slot_ns, slots, scale);
}

/* Slot length and slot count live in the window. */
static llmm__optval spike_load(const void *obj, const llmm__option *o)
{
    const llmm_spike *d = obj;
    llmm__optval v;
    v.u = o->key == LLMM_SPIKE_SLOT_NS ? d->win->clk.slot_ns : d->win->clk.slots;
    return v;
}

/* Slot length × slots must fit in 64 bits. */
static llmm_status spike_cross(const void *obj, const llmm__option *o, llmm__optval v)
{
    const llmm_spike *d = obj;
    uint64_t slot_ns = d->win->clk.slot_ns, slots = d->win->clk.slots;

    if (o->key == LLMM_SPIKE_SLOT_NS)
        slot_ns = v.u;
    else
        slots = v.u;
    return slot_ns > UINT64_MAX / slots ? LLMM_E_RANGE : LLMM_OK;
}

static int spike_started(const void *obj)
{
    return ((const llmm_spike *)obj)->started;
}

#define GEOMETRY (LLMM__OPT_FIXED | LLMM__OPT_HOOKED)

static const llmm__option spike_opts[] = {
    LLMM__OPTION_F64(llmm_spike, LLMM_SPIKE_BASE_QUANTILE, "base_quantile", LLMM__OPT_OPEN, 0.0,
                     1.0, 0.99, q_base),
    LLMM__OPTION_F64(llmm_spike, LLMM_SPIKE_SEVERE_QUANTILE, "severe_quantile", LLMM__OPT_OPEN, 0.0,
                     1.0, 0.999, q_severe),
    LLMM__OPTION_F64(llmm_spike, LLMM_SPIKE_SEVERE_FACTOR, "severe_factor", 0, 1.0, 100.0, 1.2,
                     factor),
    LLMM__OPTION_U64(llmm_spike, LLMM_SPIKE_WARMUP, "warmup", 0, 1, UINT32_MAX, 1000, warmup),
    LLMM__OPTION_U64_HOOKED(LLMM_SPIKE_SLOT_NS, "slot_ns", GEOMETRY | LLMM__OPT_CROSS, 1,
                            UINT64_MAX, LLMM_WINDOW_SLOT_NS_DEFAULT),
    LLMM__OPTION_U64_HOOKED(LLMM_SPIKE_SLOTS, "slots", GEOMETRY | LLMM__OPT_CROSS, 2,
                            LLMM_WINDOW_SLOTS_MAX, LLMM_WINDOW_SLOTS_DEFAULT),
    LLMM__OPTION_U64(llmm_spike, LLMM_SPIKE_SCALE, "scale", GEOMETRY, LLMM_SCALE_MIN,
                     LLMM_SCALE_MAX, LLMM_SCALE_DEFAULT, scale),
};

const llmm__option_kind llmm__spike_options = {
    LLMM__KIND_OF(spike_opts), 0, spike_started, spike_cross, spike_apply, spike_load,
};

LLMM__OPTION_CALLS_F64(llmm_spike, llmm_spike_option, &llmm__spike_options)
LLMM__OPTION_CALLS_U64(llmm_spike, llmm_spike_option, &llmm__spike_options)
