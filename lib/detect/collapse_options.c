/* Options of the collapse detector: its table. The baseline length W reallocates the ring and
 * may only change while no latency is held. */
#include "collapse_internal.h"
#include "core/internal.h"
#include "core/options.h"

#define MS_NS UINT64_C(1000000)

/* Replace the ring by one of W entries (the only hooked option). All or nothing. */
static llmm_status collapse_apply(void *obj, const llmm__option *o, llmm__optval v)
{
    llmm_collapse *c = obj;
    void *ring = c->ring;
    llmm_status st =
        llmm__option_resize_ring(c->ctx, &ring, &c->window, &c->head, sizeof *c->ring, v.u);
    (void)o;
    c->ring = ring;
    return st;
}

static int collapse_started(const void *obj)
{
    return ((const llmm_collapse *)obj)->count != 0;
}

static const llmm__option collapse_opts[] = {
    LLMM__OPTION_U64(llmm_collapse, LLMM_COLLAPSE_WINDOW, "window",
                     LLMM__OPT_FIXED | LLMM__OPT_HOOKED, 2, LLMM_COLLAPSE_WINDOW_MAX,
                     LLMM_COLLAPSE_WINDOW_DEFAULT, window),
    LLMM__OPTION_F64(llmm_collapse, LLMM_COLLAPSE_K, "k", LLMM__OPT_MIN_OPEN, 0.0, 1000.0, 2.5, k),
    LLMM__OPTION_F64(llmm_collapse, LLMM_COLLAPSE_SIGMA_FLOOR, "sigma_floor", 0, 0.0, 1.0, 0.01,
                     floor),
    LLMM__OPTION_U64(llmm_collapse, LLMM_COLLAPSE_SWITCH_NS, "switch_ns", 0, 0, UINT64_MAX,
                     10 * MS_NS, switch_ns),
    LLMM__OPTION_U64(llmm_collapse, LLMM_COLLAPSE_REQUIRE_SWITCH, "require_switch", 0, 0, 1, 1,
                     require_switch),
    LLMM__OPTION_F64(llmm_collapse, LLMM_COLLAPSE_TPS_DROP, "tps_drop", LLMM__OPT_OPEN, 0.0, 1.0,
                     0.65, tps_drop),
    LLMM__OPTION_F64(llmm_collapse, LLMM_COLLAPSE_MEMBW_BELOW, "membw_below", LLMM__OPT_MIN_OPEN,
                     0.0, 1.0, 0.30, membw_below),
    LLMM__OPTION_U64(llmm_collapse, LLMM_COLLAPSE_CONFIRM_NS, "confirm_ns", 0, 0, UINT64_MAX,
                     10 * MS_NS, confirm_ns),
};

const llmm__option_kind llmm__collapse_options = {
    LLMM__KIND_OF(collapse_opts),
    LLMM__KIND_SAME_VALUE_OK,
    collapse_started,
    NULL,
    collapse_apply,
    NULL,
};

LLMM__OPTION_CALLS_F64(llmm_collapse, llmm_collapse_option, &llmm__collapse_options)
LLMM__OPTION_CALLS_U64(llmm_collapse, llmm_collapse_option, &llmm__collapse_options)
