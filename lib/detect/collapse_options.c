/* Options of the collapse detector: typed setters and getters with documented bounds. The
 * baseline length W reallocates the ring and may only change while no latency is held. */
#include "collapse_internal.h"
#include "core/internal.h"

#define COLLAPSE_K_MAX 1000.0

llmm_status llmm_collapse_set_f64(llmm_collapse *c, llmm_collapse_option key, double value)
{
    if (!c)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_COLLAPSE_K:
        if (!(value > 0.0 && value <= COLLAPSE_K_MAX))
            return LLMM_E_RANGE;
        c->k = value;
        return LLMM_OK;
    case LLMM_COLLAPSE_SIGMA_FLOOR:
        if (!(value >= 0.0 && value <= 1.0))
            return LLMM_E_RANGE;
        c->floor = value;
        return LLMM_OK;
    case LLMM_COLLAPSE_TPS_DROP:
        if (!(value > 0.0 && value < 1.0))
            return LLMM_E_RANGE;
        c->tps_drop = value;
        return LLMM_OK;
    case LLMM_COLLAPSE_MEMBW_BELOW:
        if (!(value > 0.0 && value <= 1.0))
            return LLMM_E_RANGE;
        c->membw_below = value;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

llmm_status llmm_collapse_get_f64(const llmm_collapse *c, llmm_collapse_option key,
                                  double *value)
{
    if (!c || !value)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_COLLAPSE_K:
        *value = c->k;
        return LLMM_OK;
    case LLMM_COLLAPSE_SIGMA_FLOOR:
        *value = c->floor;
        return LLMM_OK;
    case LLMM_COLLAPSE_TPS_DROP:
        *value = c->tps_drop;
        return LLMM_OK;
    case LLMM_COLLAPSE_MEMBW_BELOW:
        *value = c->membw_below;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

/* Replace the ring by one of w entries. All or nothing. */
static llmm_status collapse_resize(llmm_collapse *c, uint64_t w)
{
    double *ring;

    if (w < 2 || w > LLMM_COLLAPSE_WINDOW_MAX)
        return LLMM_E_RANGE;
    if (w == c->window)
        return LLMM_OK;
    if (c->count != 0)
        return LLMM_E_STATE;
    ring = llmm__calloc(c->ctx, (size_t)w, sizeof *ring);
    if (!ring)
        return LLMM_E_NOMEM;
    llmm__free(c->ctx, c->ring, (size_t)c->window * sizeof *c->ring);
    c->ring = ring;
    c->window = (uint32_t)w;
    c->head = 0;
    return LLMM_OK;
}

llmm_status llmm_collapse_set_u64(llmm_collapse *c, llmm_collapse_option key, uint64_t value)
{
    if (!c)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_COLLAPSE_WINDOW:
        return collapse_resize(c, value);
    case LLMM_COLLAPSE_SWITCH_NS:
        c->switch_ns = value;
        return LLMM_OK;
    case LLMM_COLLAPSE_REQUIRE_SWITCH:
        if (value > 1)
            return LLMM_E_RANGE;
        c->require_switch = (int32_t)value;
        return LLMM_OK;
    case LLMM_COLLAPSE_CONFIRM_NS:
        c->confirm_ns = value;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}

llmm_status llmm_collapse_get_u64(const llmm_collapse *c, llmm_collapse_option key,
                                  uint64_t *value)
{
    if (!c || !value)
        return LLMM_E_INVALID;
    switch (key) {
    case LLMM_COLLAPSE_WINDOW:
        *value = c->window;
        return LLMM_OK;
    case LLMM_COLLAPSE_SWITCH_NS:
        *value = c->switch_ns;
        return LLMM_OK;
    case LLMM_COLLAPSE_REQUIRE_SWITCH:
        *value = (uint64_t)c->require_switch;
        return LLMM_OK;
    case LLMM_COLLAPSE_CONFIRM_NS:
        *value = c->confirm_ns;
        return LLMM_OK;
    default:
        return LLMM_E_UNKNOWN_OPTION;
    }
}
