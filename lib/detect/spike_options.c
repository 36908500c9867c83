/* Options of the spike detector: typed setters and getters with documented bounds, and the
 * window geometry, which can only change before the first time stamp. */
#include "core/internal.h"
#include "spike_internal.h"

#define SPIKE_FACTOR_MIN 1.0
#define SPIKE_FACTOR_MAX 100.0
#define SPIKE_WARMUP_MAX 4294967295u

static int open_probability(double v)
{
    return v > 0.0 && v < 1.0;
}

llmm_status llmm_spike_set_f64(llmm_spike *d, llmm_spike_option key, double value)
{
    if (!d)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_SPIKE_BASE_QUANTILE:
        if (!open_probability(value))
            return LLMM_E_RANGE;
        d->q_base = value;
        return LLMM_OK;
    case LLMM_SPIKE_SEVERE_QUANTILE:
        if (!open_probability(value))
            return LLMM_E_RANGE;
        d->q_severe = value;
        return LLMM_OK;
    case LLMM_SPIKE_SEVERE_FACTOR:
        if (!(value >= SPIKE_FACTOR_MIN && value <= SPIKE_FACTOR_MAX))
            return LLMM_E_RANGE;
        d->factor = value;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

llmm_status llmm_spike_get_f64(const llmm_spike *d, llmm_spike_option key, double *value)
{
    if (!d || !value)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_SPIKE_BASE_QUANTILE:
        *value = d->q_base;
        return LLMM_OK;
    case LLMM_SPIKE_SEVERE_QUANTILE:
        *value = d->q_severe;
        return LLMM_OK;
    case LLMM_SPIKE_SEVERE_FACTOR:
        *value = d->factor;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

/* Replace the window, counts and accumulator with ones of a new geometry. All or nothing. */
static llmm_status spike_regeometry(llmm_spike *d, uint64_t slot_ns, uint64_t slots,
                                    int32_t scale)
{
    llmm_window *win;
    llmm__spike_slot *counts;
    llmm_status st;

    if (slots < 2 || slots > LLMM_WINDOW_SLOTS_MAX || slot_ns == 0 ||
        slot_ns > UINT64_MAX / slots || scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_RANGE;
    if (d->started)
        return LLMM_E_STATE;
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

llmm_status llmm_spike_set_u64(llmm_spike *d, llmm_spike_option key, uint64_t value)
{
    if (!d)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_SPIKE_WARMUP:
        if (value < 1 || value > SPIKE_WARMUP_MAX)
            return LLMM_E_RANGE;
        d->warmup = value;
        return LLMM_OK;
    case LLMM_SPIKE_SLOT_NS:
        return spike_regeometry(d, value, d->win->clk.slots, d->scale);
    case LLMM_SPIKE_SLOTS:
        return spike_regeometry(d, d->win->clk.slot_ns, value, d->scale);
    case LLMM_SPIKE_SCALE:
        if (value > (uint64_t)LLMM_SCALE_MAX)
            return LLMM_E_RANGE;
        return spike_regeometry(d, d->win->clk.slot_ns, d->win->clk.slots, (int32_t)value);
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

llmm_status llmm_spike_get_u64(const llmm_spike *d, llmm_spike_option key, uint64_t *value)
{
    if (!d || !value)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_SPIKE_WARMUP:
        *value = d->warmup;
        return LLMM_OK;
    case LLMM_SPIKE_SLOT_NS:
        *value = d->win->clk.slot_ns;
        return LLMM_OK;
    case LLMM_SPIKE_SLOTS:
        *value = d->win->clk.slots;
        return LLMM_OK;
    case LLMM_SPIKE_SCALE:
        *value = (uint64_t)d->scale;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}
