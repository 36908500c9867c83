/* The confirmation matrix of a weight switch (doc/spec.md §7): besides the latency rule, a TPS
 * drop matched against the switch's time stamp and low memory-bandwidth utilisation, each
 * kept and reported on its own. */
#include <string.h>

#include "collapse_internal.h"
#include "core/abi.h"
#include "core/internal.h"

/* A reading at now_ns is matched to the latest switch when it comes at most confirm_ns after. */
static int confirm_matched(const llmm_collapse *c, uint64_t now_ns)
{
    return c->sw.marked && now_ns - c->sw.at_ns <= c->confirm_ns;
}

llmm_status llmm_collapse_observe_tps(llmm_collapse *c, uint64_t now_ns, double tps)
{
    llmm_status st;

    if (!c || now_ns < c->last_ns)
        return LLMM_E_INVALID;
    st = llmm__detect_value_check(tps);
    if (st != LLMM_OK)
        return st;
    if (confirm_matched(c, now_ns)) {
        if (!c->sw.has_after || tps < c->sw.tps_after)
            c->sw.tps_after = tps;
        c->sw.has_after = 1;
    }
    c->tps_last = tps;
    c->has_tps = 1;
    c->last_ns = now_ns;
    return LLMM_OK;
}

llmm_status llmm_collapse_observe_membw(llmm_collapse *c, uint64_t now_ns, double utilisation)
{
    if (!c || now_ns < c->last_ns || !(utilisation >= 0.0 && utilisation <= 1.0))
        return LLMM_E_INVALID;
    if (confirm_matched(c, now_ns)) {
        if (!c->sw.has_membw || utilisation < c->sw.membw)
            c->sw.membw = utilisation;
        c->sw.has_membw = 1;
    }
    c->last_ns = now_ns;
    return LLMM_OK;
}

llmm_status llmm_collapse_switch_report(const llmm_collapse *c, llmm_collapse_report *r)
{
    const llmm__switch *sw;
    llmm_collapse_report o;
    uint64_t reach;

    if (!c || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_collapse_report, r) != LLMM_OK)
        return LLMM_E_ABI;
    sw = &c->sw;
    if (!sw->marked)
        return LLMM_E_EMPTY;
    LLMM__SIZED_DEFAULTS(llmm_collapse_report, &o);
    o.switch_ns = sw->at_ns;
    o.latencies = sw->latencies;
    o.flagged = sw->flagged;
    o.latency_confirmed = sw->flagged > 0;
    if (sw->has_before)
        o.tps_before = sw->tps_before;
    if (sw->has_after)
        o.tps_after = sw->tps_after;
    o.tps_known = sw->has_before && sw->has_after && sw->tps_before > 0.0;
    if (o.tps_known) {
        o.tps_drop = 1.0 - sw->tps_after / sw->tps_before;
        o.tps_confirmed = o.tps_drop > c->tps_drop;
    }
    o.membw_known = sw->has_membw;
    if (o.membw_known) {
        o.membw = sw->membw;
        o.membw_confirmed = sw->membw < c->membw_below;
    }
    o.signals = o.latency_confirmed + o.tps_confirmed + o.membw_confirmed;
    reach = c->switch_ns > c->confirm_ns ? c->switch_ns : c->confirm_ns;
    o.open = c->last_ns - sw->at_ns <= reach;
    LLMM__SIZED_PUT(llmm_collapse_report, r, &o);
    return LLMM_OK;
}
