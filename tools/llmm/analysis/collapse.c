/* collapse.c: throughput collapses around weight (precision) switches, through
 * llmm_collapse (doc/spec.md §7).
 *
 * The watched metric (timeline.c) and the inputs' model.weight_switch events are replayed
 * together in time order into a collapse detector with the library's defaults (W = 8 previous
 * latencies, k = 2.5, σ floored at 1 % of the mean, a switch required) except the matching
 * interval: a latency counts for a switch when it becomes known at most --collapse-window
 * (default 2 s) after it. A request trace sees a switch only through the requests that complete
 * after it, while the library's 10 ms default is meant for per-batch engine latencies. The
 * section lists each switch with the latencies matched to it and those flagged, and the first
 * flagged samples with the threshold they crossed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"

/* The latest switch's counts, read before the next one replaces it. */
static void switch_done(llmm_cli_collapse *c, const llmm_collapse *d)
{
    llmm_collapse_report rep;
    llmm_cli_collapse_switch *s;
    llmm_collapse_report_init(&rep);
    if (llmm_collapse_switch_report(d, &rep) != LLMM_OK || c->nsw == 0)
        return; /* no switch marked yet */
    s = &c->sw[c->nsw - 1];
    s->latencies = rep.latencies;
    s->flagged = rep.flagged;
}

/* A weight switch (other events are not the detector's). */
static int mark(llmm_cli_collapse *c, llmm_collapse *d, const llmm_cli_event *ev,
                llmm_cli_error *err)
{
    llmm_status st;
    if (ev->type != LLMM_EVENT_WEIGHT_SWITCH)
        return LLMM_CLI_OK;
    switch_done(c, d);
    st = llmm_collapse_mark_switch(d, llmm_cli_ns(ev->t));
    if (st != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "collapse detector: %s", llmm_strerror(st));
    c->sw[c->nsw].t = ev->t;
    c->nsw++;
    return LLMM_CLI_OK;
}

/* A latency. */
static int observe(llmm_cli_collapse *c, llmm_collapse *d, const llmm_cli_obs *o,
                   llmm_cli_error *err)
{
    llmm_collapse_verdict v;
    llmm_status st;
    llmm_collapse_verdict_init(&v);
    st = llmm_collapse_observe_ex(d, llmm_cli_ns(o->t), o->v, &v);
    if (st != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "collapse detector: %s", llmm_strerror(st));
    if (v.collapsed && c->nflags < LLMM_CLI_COLLAPSE_LIST) {
        llmm_cli_collapse_flag *f = &c->flags[c->nflags++];
        f->t = o->t;
        f->v = o->v;
        f->threshold = v.threshold;
        f->mean = v.mean;
    }
    return LLMM_CLI_OK;
}

/* The latencies and the events together in time order (a switch comes before a latency of
 * the same instant). */
static int replay(llmm_cli_collapse *c, llmm_collapse *d, const llmm_cli_trace *t,
                  llmm_cli_error *err)
{
    llmm_cli_tl_iter it;
    llmm_cli_obs o;
    size_t e = 0;
    int rc = llmm_cli_timeline_begin(&t->tl, &it, err), got = 0;
    if (rc == LLMM_CLI_OK)
        got = llmm_cli_timeline_next(&it, &o, err);
    while (rc == LLMM_CLI_OK && got >= 0 && (got || e < t->nev)) {
        if (e < t->nev && (!got || t->ev[e].t <= o.t)) {
            rc = mark(c, d, &t->ev[e++], err);
        } else {
            rc = observe(c, d, &o, err);
            got = llmm_cli_timeline_next(&it, &o, err);
        }
    }
    llmm_cli_timeline_end(&it);
    if (rc == LLMM_CLI_OK && got < 0)
        rc = LLMM_CLI_EIO;
    if (rc == LLMM_CLI_OK)
        switch_done(c, d);
    return rc;
}

void llmm_cli_collapse_free(llmm_cli_collapse *c)
{
    free(c->sw);
    c->sw = NULL;
    c->nsw = 0;
}

int llmm_cli_collapse_eval(llmm_cli_report *rep, llmm_cli_error *err)
{
    llmm_cli_collapse *c = &rep->collapse;
    const llmm_cli_trace *t = &rep->trace;
    llmm_collapse *d = NULL;
    size_t nswitch = 0;
    int rc = LLMM_CLI_OK;
    c->metric = rep->watch;
    c->window = isnan(rep->collapse_window) ? 2.0 : rep->collapse_window;
    for (size_t i = 0; i < t->nev; i++)
        nswitch += t->ev[i].type == LLMM_EVENT_WEIGHT_SWITCH;
    if (nswitch == 0) {
        c->why_not = "no weight switch in the inputs (vLLM \"llmm_events\" or "
                     "--event model.weight_switch@SECONDS)";
        return LLMM_CLI_OK;
    }
    if ((c->why_not = llmm_cli_trace_why_no_timeline(t)) != NULL)
        return LLMM_CLI_OK;
    c->sw = calloc(nswitch, sizeof *c->sw);
    if (!c->sw || llmm_collapse_new(NULL, &d) != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    if (llmm_collapse_set_u64(d, LLMM_COLLAPSE_SWITCH_NS, llmm_cli_ns(c->window)) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--collapse-window: out of range");
    if (rc == LLMM_CLI_OK)
        rc = replay(c, d, t, err);
    if (rc == LLMM_CLI_OK) {
        c->available = 1;
        llmm_collapse_counts(d, &c->samples, &c->collapsed, &c->switches);
        llmm_collapse_get_u64(d, LLMM_COLLAPSE_WINDOW, &c->w);
        llmm_collapse_get_f64(d, LLMM_COLLAPSE_K, &c->k);
        llmm_collapse_get_f64(d, LLMM_COLLAPSE_SIGMA_FLOOR, &c->floor);
    }
    llmm_collapse_free(d);
    return rc;
}
