/* section_spikes.c: latency spikes over time, through llmm_spike (SPEC §6).
 *
 * The requests with a send time are replayed in the order their metric became known (TTFT at
 * send + TTFT; TPOT and E2E at send + E2E) into a spike detector with the library's defaults
 * (60 slots of 1 s, P99 and 1.2 x P99.9 baselines, warm-up 1000 samples), on the report's
 * merged time line. The section shows the totals per level, the spike rate (classified samples
 * above the P99 in force on arrival / classified samples) and the same per time interval.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct obs {
    double t, v;
} obs;

static int cmp_obs(const void *pa, const void *pb)
{
    const obs *a = pa, *b = pb;
    return (a->t > b->t) - (a->t < b->t);
}

int llmm_cli_spike_metric_option(llmm_cli_spikes *sp, const char *arg, llmm_cli_error *err)
{
    if (strcmp(arg, "ttft") == 0)
        sp->metric = LLMM_CLI_M_TTFT;
    else if (strcmp(arg, "tpot") == 0)
        sp->metric = LLMM_CLI_M_TPOT;
    else if (strcmp(arg, "e2e") == 0)
        sp->metric = LLMM_CLI_M_E2E;
    else
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--spike-metric: '%s' is not ttft, tpot or e2e",
                             arg);
    sp->metric_set = 1;
    return LLMM_CLI_OK;
}

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

static uint64_t to_ns(double t)
{
    return t <= 0 ? 0 : (uint64_t)llround(t * 1e9);
}

static int observe_all(llmm_cli_spikes *sp, llmm_spike *d, const obs *o, size_t n,
                       llmm_cli_error *err)
{
    size_t row = 0;
    for (size_t i = 0; i < n; i++) {
        llmm_spike_level level;
        llmm_cli_spike_row *r;
        llmm_status st = llmm_spike_observe(d, to_ns(o[i].t), o[i].v, &level);
        llmm_spike_stats before;
        if (st != LLMM_OK)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "spike detector: %s", llmm_strerror(st));
        while (row + 1 < sp->nrows && o[i].t >= sp->rows[row].t1)
            row++;
        r = &sp->rows[row];
        r->samples++;
        if (o[i].v > r->max || isnan(r->max))
            r->max = o[i].v;
        llmm_spike_stats_init(&before);
        if (llmm_spike_get_stats(d, to_ns(o[i].t), &before) == LLMM_OK && before.ready) {
            r->classified++;
            r->base_threshold = before.base_threshold;
        }
        if (level == LLMM_SPIKE_LEVEL1)
            r->level1++;
        else if (level == LLMM_SPIKE_LEVEL2)
            r->level2++;
    }
    return LLMM_CLI_OK;
}

int llmm_cli_spikes_eval(llmm_cli_report *rep, llmm_cli_error *err)
{
    llmm_cli_spikes *sp = &rep->spikes;
    const llmm_cli_trace *t = &rep->trace;
    llmm_spike *d = NULL;
    llmm_spike_stats st;
    obs *o;
    size_t n = 0;
    double span, step;
    int rc = LLMM_CLI_OK;
    if (t->npts == 0) {
        sp->why_not = "the inputs carry no request start times";
        return LLMM_CLI_OK;
    }
    o = malloc(t->npts * sizeof *o);
    if (!o)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->npts; i++) {
        const llmm_cli_point *p = &t->pts[i];
        double v = sp->metric == LLMM_CLI_M_TTFT ? p->ttft
                   : sp->metric == LLMM_CLI_M_TPOT ? p->tpot
                                                   : p->e2e;
        double when = p->t + (sp->metric == LLMM_CLI_M_TTFT ? p->ttft : p->e2e);
        if (isnan(v))
            continue;
        o[n].t = when < 0 ? 0 : when;
        o[n].v = v;
        n++;
    }
    if (n == 0) {
        free(o);
        sp->why_not = "no request has this metric";
        return LLMM_CLI_OK;
    }
    qsort(o, n, sizeof *o, cmp_obs);
    span = o[n - 1].t;
    step = sp->interval > 0 ? sp->interval : pick_interval(span);
    sp->interval_used = step;
    sp->nrows = (size_t)floor(span / step) + 1;
    if (sp->nrows > 100000) {
        free(o);
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--spike-interval %g s gives more than 100000 rows", step);
    }
    sp->rows = calloc(sp->nrows, sizeof *sp->rows);
    if (!sp->rows) {
        free(o);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < sp->nrows; k++) {
        sp->rows[k].t0 = (double)k * step;
        sp->rows[k].t1 = (double)(k + 1) * step;
        sp->rows[k].max = NAN;
        sp->rows[k].base_threshold = NAN;
    }
    if (llmm_spike_new(NULL, &d) != LLMM_OK) {
        free(o);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    if (sp->warmup > 0 && llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, sp->warmup) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--spike-warmup: out of range");
    if (rc == LLMM_CLI_OK)
        rc = observe_all(sp, d, o, n, err);
    llmm_spike_stats_init(&st);
    if (rc == LLMM_CLI_OK && llmm_spike_get_stats(d, to_ns(o[n - 1].t), &st) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "spike detector: no statistics");
    if (rc == LLMM_CLI_OK) {
        sp->available = 1;
        sp->samples = st.total_samples;
        sp->classified = st.total_classified;
        sp->level1 = st.total_level1;
        sp->level2 = st.total_level2;
        sp->rate = st.total_classified
                       ? (double)(st.total_level1 + st.total_level2) / (double)st.total_classified
                       : NAN;
        llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, &sp->warmup_used);
        llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &sp->slots);
        llmm_spike_get_u64(d, LLMM_SPIKE_SLOT_NS, &sp->slot_ns);
        llmm_spike_get_f64(d, LLMM_SPIKE_BASE_QUANTILE, &sp->base_q);
        llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, &sp->severe_q);
        llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, &sp->factor);
    }
    llmm_spike_free(d);
    free(o);
    return rc;
}

void llmm_cli_spikes_free(llmm_cli_spikes *sp)
{
    free(sp->rows);
    sp->rows = NULL;
    sp->nrows = 0;
}
