/* spikes.c: latency spikes over time, through llmm_spike (doc/spec.md §6), and their
 * attribution to events through llmm_event_log.
 *
 * The watched metric (timeline.c) is replayed in time order into a spike detector with the
 * library's defaults (60 slots of 1 s, P99 and 1.2 x P99.9 baselines, warm-up 1000 samples),
 * on the report's merged time line. The section shows the totals per level, the spike rate
 * (classified samples above the P99 in force on arrival / classified samples) and the same per
 * time interval. When the inputs carry events, every spike is attributed to the nearest event
 * in the look-back interval before it (llmm_event_log_lookback()), or to none.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "common/array.h"

/* Smallest "round" interval giving at most 12 rows. */
static double pick_interval(double span)
{
    static const double steps[] = {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600,
                                   7200, 21600, 43200, 86400};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (span / steps[i] <= 12.0)
            return steps[i];
    }
    return ceil(span / 12.0 / 86400.0) * 86400.0;
}

static int make_log(const llmm_cli_trace *t, llmm_event_log **out)
{
    llmm_event_log *log;
    uint32_t cap = t->nev > LLMM_EVENT_LOG_CAPACITY_MAX ? LLMM_EVENT_LOG_CAPACITY_MAX
                                                         : (uint32_t)t->nev;
    *out = NULL;
    if (t->nev == 0)
        return LLMM_CLI_OK;
    if (llmm_event_log_new(NULL, cap, &log) != LLMM_OK)
        return LLMM_CLI_ENOMEM;
    for (size_t i = 0; i < t->nev; i++) {
        if (llmm_event_log_add(log, llmm_cli_ns(t->ev[i].t), t->ev[i].type, t->ev[i].value) !=
            LLMM_OK) {
            llmm_event_log_free(log);
            return LLMM_CLI_EPARSE;
        }
    }
    *out = log;
    return LLMM_CLI_OK;
}

/* Attribute a spike at t to the nearest event within the look-back before it, or to none. */
static int attribute(llmm_cli_spikes *sp, const llmm_event_log *log, double t)
{
    llmm_event buf[16], *ev = buf;
    size_t len = 0;
    llmm_status st;
    if (!log)
        return LLMM_CLI_OK;
    st = llmm_event_log_lookback(log, llmm_cli_ns(t), llmm_cli_ns(sp->lookback), buf,
                                 sizeof buf / sizeof buf[0], &len);
    if (st == LLMM_E_BUFFER) {
        ev = malloc(len * sizeof *ev);
        if (!ev)
            return LLMM_CLI_ENOMEM;
        st = llmm_event_log_lookback(log, llmm_cli_ns(t), llmm_cli_ns(sp->lookback), ev, len,
                                     &len);
    }
    if (st == LLMM_OK && len == 0) {
        sp->without_event++;
    } else if (st == LLMM_OK) { /* nearest first */
        size_t k = 0;
        sp->with_event++;
        while (k < sp->ncause && sp->cause_type[k] != ev[0].type)
            k++;
        if (k < sizeof sp->cause_type / sizeof sp->cause_type[0]) {
            sp->cause_type[k] = ev[0].type;
            sp->cause_count[k]++;
            if (k == sp->ncause)
                sp->ncause++;
        }
    }
    if (ev != buf)
        free(ev);
    return st == LLMM_OK ? LLMM_CLI_OK : LLMM_CLI_EPARSE;
}

/* Keep a spike for the chart (up to LLMM_CLI_SPIKE_PTS_MAX). */
static int keep_point(llmm_cli_spikes *sp, const llmm_cli_obs *o, llmm_spike_level level)
{
    if (sp->npts == LLMM_CLI_SPIKE_PTS_MAX)
        return LLMM_CLI_OK;
    if (llmm_cli_grow(&sp->pts, &sp->cappts, sp->npts + 1, sizeof *sp->pts, 256) !=
        LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    sp->pts[sp->npts].t = o->t;
    sp->pts[sp->npts].v = o->v;
    sp->pts[sp->npts].level = level == LLMM_SPIKE_LEVEL2 ? 2 : 1;
    sp->npts++;
    return LLMM_CLI_OK;
}

/* One observation into the detector and its row. */
static int observe(llmm_cli_spikes *sp, llmm_spike *d, const llmm_event_log *log,
                   const llmm_cli_obs *o, size_t *row, llmm_cli_error *err)
{
    llmm_spike_level level;
    llmm_cli_spike_row *r;
    llmm_spike_stats now;
    llmm_status st = llmm_spike_observe(d, llmm_cli_ns(o->t), o->v, &level);
    if (st != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "spike detector: %s", llmm_strerror(st));
    while (*row + 1 < sp->nrows && o->t >= sp->rows[*row].t1)
        (*row)++;
    r = &sp->rows[*row];
    r->samples++;
    if (o->v > r->max || isnan(r->max))
        r->max = o->v;
    llmm_spike_stats_init(&now);
    if (llmm_spike_get_stats(d, llmm_cli_ns(o->t), &now) == LLMM_OK && now.ready) {
        r->classified++;
        r->base_threshold = now.base_threshold;
    }
    if (level == LLMM_SPIKE_LEVEL1)
        r->level1++;
    else if (level == LLMM_SPIKE_LEVEL2)
        r->level2++;
    if (level != LLMM_SPIKE_NONE && keep_point(sp, o, level) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    if (level != LLMM_SPIKE_NONE && attribute(sp, log, o->t) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "spike attribution: out of memory");
    return LLMM_CLI_OK;
}

/* The whole time line, in order. */
static int observe_all(llmm_cli_spikes *sp, llmm_spike *d, const llmm_event_log *log,
                       const llmm_cli_timeline *tl, llmm_cli_error *err)
{
    llmm_cli_tl_iter it;
    llmm_cli_obs o;
    size_t row = 0;
    int rc = llmm_cli_timeline_begin(tl, &it, err), got;
    while (rc == LLMM_CLI_OK && (got = llmm_cli_timeline_next(&it, &o, err)) != 0)
        rc = got < 0 ? LLMM_CLI_EIO : observe(sp, d, log, &o, &row, err);
    llmm_cli_timeline_end(&it);
    return rc;
}

static void read_settings(llmm_cli_spikes *sp, llmm_spike *d)
{
    llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, &sp->warmup_used);
    llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &sp->slots);
    llmm_spike_get_u64(d, LLMM_SPIKE_SLOT_NS, &sp->slot_ns);
    llmm_spike_get_f64(d, LLMM_SPIKE_BASE_QUANTILE, &sp->base_q);
    llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, &sp->severe_q);
    llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, &sp->factor);
}

static int make_rows(llmm_cli_spikes *sp, double span, llmm_cli_error *err)
{
    double step = sp->interval > 0 ? sp->interval : pick_interval(span);
    sp->interval_used = step;
    sp->nrows = (size_t)floor(span / step) + 1;
    if (sp->nrows > 100000)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--spike-interval %g s gives more than 100000 rows", step);
    sp->rows = calloc(sp->nrows, sizeof *sp->rows);
    if (!sp->rows)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t k = 0; k < sp->nrows; k++) {
        sp->rows[k].t0 = (double)k * step;
        sp->rows[k].t1 = (double)(k + 1) * step;
        sp->rows[k].max = NAN;
        sp->rows[k].base_threshold = NAN;
    }
    return LLMM_CLI_OK;
}

int llmm_cli_spikes_eval(llmm_cli_report *rep, llmm_cli_error *err)
{
    llmm_cli_spikes *sp = &rep->spikes;
    llmm_spike *d = NULL;
    llmm_event_log *log = NULL;
    llmm_spike_stats st;
    const llmm_cli_timeline *tl = &rep->trace.tl;
    int rc;
    sp->metric = rep->watch;
    sp->lookback = isnan(rep->lookback) ? 2.0 : rep->lookback;
    if ((sp->why_not = llmm_cli_trace_why_no_timeline(&rep->trace)) != NULL)
        return LLMM_CLI_OK;
    rc = make_rows(sp, tl->last_t, err);
    if (rc == LLMM_CLI_OK && llmm_spike_new(NULL, &d) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    if (rc == LLMM_CLI_OK && sp->warmup > 0 &&
        llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, sp->warmup) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--spike-warmup: out of range");
    if (rc == LLMM_CLI_OK && (rc = make_log(&rep->trace, &log)) != LLMM_CLI_OK)
        rc = llmm_cli_fail(err, rc, "event log: cannot hold the events");
    if (rc == LLMM_CLI_OK)
        rc = observe_all(sp, d, log, tl, err);
    llmm_spike_stats_init(&st);
    if (rc == LLMM_CLI_OK && llmm_spike_get_stats(d, llmm_cli_ns(tl->last_t), &st) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "spike detector: no statistics");
    if (rc == LLMM_CLI_OK) {
        sp->available = 1;
        sp->attributed = log != NULL;
        sp->samples = st.total_samples;
        sp->classified = st.total_classified;
        sp->level1 = st.total_level1;
        sp->level2 = st.total_level2;
        sp->rate = st.total_classified
                       ? (double)(st.total_level1 + st.total_level2) / (double)st.total_classified
                       : NAN;
        read_settings(sp, d);
    }
    llmm_event_log_free(log);
    llmm_spike_free(d);
    return rc;
}

void llmm_cli_spikes_free(llmm_cli_spikes *sp)
{
    free(sp->rows);
    sp->rows = NULL;
    free(sp->pts);
    sp->pts = NULL;
    sp->npts = sp->cappts = 0;
    sp->nrows = 0;
}
