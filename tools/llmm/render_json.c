/* render_json.c: `llmm report --json`, one top-level object written with YAJL's generator.
 * Times are seconds; a number that could not be measured is null. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "report.h"

typedef struct jw {
    yajl_gen g;
    int bad;
} jw;

static void check(jw *w, yajl_gen_status st)
{
    if (st != yajl_gen_status_ok)
        w->bad = 1;
}

static void str(jw *w, const char *s)
{
    yajl_gen_status st = yajl_gen_string(w->g, (const unsigned char *)s, strlen(s));
    if (st == yajl_gen_invalid_string) { /* not UTF-8 (a file name): write it as ASCII */
        size_t n = strlen(s);
        char *a = malloc(n + 1);
        if (!a) {
            w->bad = 1;
            return;
        }
        for (size_t i = 0; i < n; i++)
            a[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
        a[n] = '\0';
        st = yajl_gen_string(w->g, (const unsigned char *)a, n);
        free(a);
    }
    check(w, st);
}

static void key(jw *w, const char *k)
{
    str(w, k);
}

/* The shortest decimal that reads back as the same double. */
static void num(jw *w, double v)
{
    char buf[40];
    if (!isfinite(v)) {
        check(w, yajl_gen_null(w->g));
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    check(w, yajl_gen_number(w->g, buf, strlen(buf)));
}

static void u64(jw *w, uint64_t v)
{
    check(w, yajl_gen_integer(w->g, v > (uint64_t)INT64_MAX ? INT64_MAX : (long long)v));
}

static void open_map(jw *w)
{
    check(w, yajl_gen_map_open(w->g));
}

static void close_map(jw *w)
{
    check(w, yajl_gen_map_close(w->g));
}

static void inputs(jw *w, const llmm_cli_report *r)
{
    key(w, "inputs");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < r->ninputs; i++) {
        const llmm_cli_input *in = &r->inputs[i];
        open_map(w);
        key(w, "path");
        str(w, in->path);
        key(w, "format");
        str(w, llmm_cli_format_name(in->fmt));
        key(w, "requests");
        u64(w, in->info.requests);
        key(w, "runs");
        u64(w, in->info.runs);
        key(w, "start_times");
        check(w, yajl_gen_bool(w->g, in->info.has_start_times));
        key(w, "itls");
        check(w, yajl_gen_bool(w->g, in->info.has_itls));
        if (in->fmt == LLMM_CLI_FORMAT_VLLM) {
            key(w, "e2e_from_latencies");
            u64(w, in->info.e2e_from_latencies);
            key(w, "e2e_from_ttft_plus_itls");
            u64(w, in->info.e2e_from_itls);
            key(w, "second_pass");
            check(w, yajl_gen_bool(w->g, in->info.replayed));
        }
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
}

static void basics(jw *w, const llmm_cli_summary *s)
{
    key(w, "requests");
    open_map(w);
    key(w, "total");
    u64(w, s->total);
    key(w, "completed");
    u64(w, s->completed);
    key(w, "failed");
    u64(w, s->failed);
    close_map(w);
    key(w, "error_rate");
    num(w, s->error_rate);
    key(w, "throughput");
    open_map(w);
    key(w, "req_per_s");
    num(w, s->req_per_s);
    key(w, "tok_per_s");
    num(w, s->tok_per_s);
    key(w, "total_tok_per_s");
    num(w, s->total_tok_per_s);
    key(w, "output_tokens");
    u64(w, s->out_tokens);
    key(w, "input_tokens");
    u64(w, s->in_tokens);
    key(w, "duration_s");
    num(w, s->duration_s);
    key(w, "duration_source");
    str(w, s->duration_source);
    close_map(w);
}

static void metrics(jw *w, const llmm_cli_summary *s)
{
    key(w, "percentile_rule");
    str(w, "nearest-rank: rank = max(1, ceil(q*n)), from llmm sketches");
    key(w, "relative_error");
    num(w, s->rel_error);
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        const llmm_cli_msum *ms = &s->m[m];
        key(w, llmm_cli_metric_key[m]);
        open_map(w);
        key(w, "count");
        u64(w, ms->count);
        key(w, "mean");
        num(w, ms->mean);
        key(w, "min");
        num(w, ms->min);
        key(w, "max");
        num(w, ms->max);
        for (int k = 0; k < LLMM_CLI_NQ; k++) {
            key(w, llmm_cli_q_key[k]);
            num(w, ms->q[k]);
        }
        if (ms->has_exact) {
            key(w, "numpy_linear");
            open_map(w);
            for (int k = 0; k < LLMM_CLI_NQ; k++) {
                key(w, llmm_cli_q_key[k]);
                num(w, ms->lin[k]);
            }
            close_map(w);
        }
        close_map(w);
    }
}

static void goodput(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_summary *s = &r->sum;
    static const char *const names[3] = {"ttft_s", "tpot_s", "e2e_s"};
    if (!s->has_goodput)
        return;
    key(w, "goodput");
    open_map(w);
    key(w, "slo");
    open_map(w);
    for (int i = 0; i < 3; i++) {
        if (!isnan(r->slo[i])) {
            key(w, names[i]);
            num(w, r->slo[i]);
        }
    }
    close_map(w);
    key(w, "good_requests");
    u64(w, s->good);
    key(w, "fraction");
    num(w, s->good_fraction);
    key(w, "req_per_s");
    num(w, s->good_per_s);
    close_map(w);
}

static void events(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_trace *t = &r->trace;
    key(w, "events");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < t->nev; i++) {
        open_map(w);
        key(w, "t_s");
        num(w, t->ev[i].t);
        key(w, "type");
        str(w, llmm_cli_event_name(t->ev[i].type));
        key(w, "value");
        num(w, t->ev[i].value);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
}

static void slo_verdict(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_slo *v = &r->slo_verdict;
    if (!v->enabled)
        return;
    key(w, "slo");
    open_map(w);
    key(w, "quantile");
    num(w, v->quantile);
    key(w, "checks");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < v->nchecks; i++) {
        const llmm_cli_slo_check *c = &v->checks[i];
        open_map(w);
        key(w, "metric");
        str(w, llmm_cli_metric_key[c->metric]);
        key(w, "bound");
        num(w, c->bound);
        key(w, "latency");
        num(w, c->latency);
        key(w, "latency_ok");
        check(w, yajl_gen_bool(w->g, c->latency_ok));
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    key(w, "error_rate");
    num(w, v->error_rate);
    key(w, "err_max");
    num(w, v->err_max);
    key(w, "errors_ok");
    check(w, yajl_gen_bool(w->g, v->errors_ok));
    key(w, "satisfied");
    check(w, yajl_gen_bool(w->g, v->satisfied));
    close_map(w);
}

static void spikes(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_spikes *sp = &r->spikes;
    key(w, "spikes");
    open_map(w);
    key(w, "metric");
    str(w, llmm_cli_metric_key[sp->metric]);
    key(w, "available");
    check(w, yajl_gen_bool(w->g, sp->available));
    if (!sp->available) {
        key(w, "reason");
        str(w, sp->why_not ? sp->why_not : "no data");
        close_map(w);
        return;
    }
    key(w, "samples");
    u64(w, sp->samples);
    key(w, "classified");
    u64(w, sp->classified);
    key(w, "level1");
    u64(w, sp->level1);
    key(w, "level2");
    u64(w, sp->level2);
    key(w, "rate");
    num(w, sp->rate);
    key(w, "detector");
    open_map(w);
    key(w, "slot_s");
    num(w, (double)sp->slot_ns / 1e9);
    key(w, "slots");
    u64(w, sp->slots);
    key(w, "warmup");
    u64(w, sp->warmup_used);
    key(w, "base_quantile");
    num(w, sp->base_q);
    key(w, "severe_quantile");
    num(w, sp->severe_q);
    key(w, "severe_factor");
    num(w, sp->factor);
    close_map(w);
    if (sp->attributed) {
        key(w, "attribution");
        open_map(w);
        key(w, "lookback_s");
        num(w, sp->lookback);
        key(w, "with_event");
        u64(w, sp->with_event);
        key(w, "without_event");
        u64(w, sp->without_event);
        key(w, "by_type");
        open_map(w);
        for (size_t k = 0; k < sp->ncause; k++) {
            key(w, llmm_cli_event_name(sp->cause_type[k]));
            u64(w, sp->cause_count[k]);
        }
        close_map(w);
        close_map(w);
    }
    key(w, "interval_s");
    num(w, sp->interval_used);
    key(w, "intervals");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < sp->nrows; i++) {
        const llmm_cli_spike_row *row = &sp->rows[i];
        open_map(w);
        key(w, "start_s");
        num(w, row->t0);
        key(w, "end_s");
        num(w, row->t1);
        key(w, "samples");
        u64(w, row->samples);
        key(w, "classified");
        u64(w, row->classified);
        key(w, "level1");
        u64(w, row->level1);
        key(w, "level2");
        u64(w, row->level2);
        key(w, "base_threshold_s");
        num(w, row->base_threshold);
        key(w, "max_s");
        num(w, row->max);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    close_map(w);
}

static void collapse(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_collapse *c = &r->collapse;
    key(w, "collapse");
    open_map(w);
    key(w, "metric");
    str(w, llmm_cli_metric_key[c->metric]);
    key(w, "available");
    check(w, yajl_gen_bool(w->g, c->available));
    if (!c->available) {
        key(w, "reason");
        str(w, c->why_not ? c->why_not : "no data");
        close_map(w);
        return;
    }
    key(w, "window_after_switch_s");
    num(w, c->window);
    key(w, "baseline_latencies");
    u64(w, c->w);
    key(w, "k");
    num(w, c->k);
    key(w, "sigma_floor");
    num(w, c->floor);
    key(w, "samples");
    u64(w, c->samples);
    key(w, "collapsed");
    u64(w, c->collapsed);
    key(w, "switches");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < c->nsw; i++) {
        open_map(w);
        key(w, "t_s");
        num(w, c->sw[i].t);
        key(w, "latencies");
        u64(w, c->sw[i].latencies);
        key(w, "flagged");
        u64(w, c->sw[i].flagged);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    key(w, "flagged");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < c->nflags; i++) {
        open_map(w);
        key(w, "t_s");
        num(w, c->flags[i].t);
        key(w, "value_s");
        num(w, c->flags[i].v);
        key(w, "threshold_s");
        num(w, c->flags[i].threshold);
        key(w, "baseline_mean_s");
        num(w, c->flags[i].mean);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    close_map(w);
}

static void layer_array(jw *w, const char *k, const double *v)
{
    key(w, k);
    open_map(w);
    for (int l = 0; l < LLMM_LAYER_COUNT; l++) {
        key(w, llmm_cli_layer_name((llmm_layer)l));
        num(w, v[l]);
    }
    close_map(w);
}

static void scorecard(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_score *sc = &r->score;
    if (!sc->enabled || !sc->evaluated)
        return;
    key(w, "scorecard");
    open_map(w);
    key(w, "scenario");
    str(w, sc->scenario_name);
    key(w, "overall");
    num(w, sc->status == LLMM_OK ? sc->result.overall : NAN);
    key(w, "renormalized");
    check(w, yajl_gen_bool(w->g, sc->result.renormalized));
    layer_array(w, "layer_weight", sc->result.layer_weight);
    layer_array(w, "layer_score", sc->result.layer_score);
    layer_array(w, "layer_contribution", sc->result.layer_contribution);
    key(w, "metrics");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < sc->n; i++) {
        const llmm_cli_score_metric *m = &sc->metrics[i];
        open_map(w);
        key(w, "layer");
        str(w, llmm_cli_layer_name(m->layer));
        key(w, "name");
        str(w, m->name);
        key(w, "value");
        num(w, m->value);
        key(w, "target");
        num(w, m->target);
        key(w, "worst");
        num(w, m->worst);
        key(w, "lower_is_better");
        check(w, yajl_gen_bool(w->g, m->dir == LLMM_LOWER_IS_BETTER));
        key(w, "score");
        num(w, m->score);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    close_map(w);
}

int llmm_cli_render_json(const llmm_cli_report *r, FILE *out)
{
    jw w = {NULL, 0};
    const unsigned char *buf;
    size_t len;
    w.g = yajl_gen_alloc(NULL);
    if (!w.g)
        return LLMM_CLI_ENOMEM;
    yajl_gen_config(w.g, yajl_gen_beautify, 1);
    yajl_gen_config(w.g, yajl_gen_indent_string, "  ");
    yajl_gen_config(w.g, yajl_gen_validate_utf8, 1);
    open_map(&w);
    key(&w, "llmm_version");
    str(&w, llmm_version_string());
    inputs(&w, r);
    basics(&w, &r->sum);
    metrics(&w, &r->sum);
    goodput(&w, r);
    slo_verdict(&w, r);
    events(&w, r);
    spikes(&w, r);
    collapse(&w, r);
    scorecard(&w, r);
    close_map(&w);
    if (!w.bad && yajl_gen_get_buf(w.g, &buf, &len) == yajl_gen_status_ok)
        fwrite(buf, 1, len, out);
    else
        w.bad = 1;
    yajl_gen_free(w.g);
    return w.bad ? LLMM_CLI_EIO : LLMM_CLI_OK;
}
