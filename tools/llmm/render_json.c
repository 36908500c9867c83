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

/* "k": value pairs */
static void kv_num(jw *w, const char *k, double v)
{
    key(w, k);
    num(w, v);
}

static void kv_u64(jw *w, const char *k, uint64_t v)
{
    key(w, k);
    u64(w, v);
}

static void kv_str(jw *w, const char *k, const char *v)
{
    key(w, k);
    str(w, v);
}

static void kv_bool(jw *w, const char *k, int v)
{
    key(w, k);
    check(w, yajl_gen_bool(w->g, v));
}

/* Open the object of a detector section: its metric and whether it could run; when it could
 * not, the reason closes the object and the caller writes nothing more (returns 0). */
static int open_section(jw *w, const char *name, int metric, int available, const char *why_not)
{
    key(w, name);
    open_map(w);
    kv_str(w, "metric", llmm_cli_metric_key[metric]);
    kv_bool(w, "available", available);
    if (!available) {
        kv_str(w, "reason", why_not ? why_not : "no data");
        close_map(w);
    }
    return available;
}

static void inputs(jw *w, const llmm_cli_report *r)
{
    key(w, "inputs");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < r->ninputs; i++) {
        const llmm_cli_input *in = &r->inputs[i];
        open_map(w);
        kv_str(w, "path", in->path);
        kv_str(w, "format", llmm_cli_format_name(in->fmt));
        kv_u64(w, "requests", in->info.requests);
        kv_u64(w, "runs", in->info.runs);
        kv_bool(w, "start_times", in->info.has_start_times);
        kv_bool(w, "itls", in->info.has_itls);
        if (in->fmt == LLMM_CLI_FORMAT_VLLM) {
            kv_u64(w, "e2e_from_latencies", in->info.e2e_from_latencies);
            kv_u64(w, "e2e_from_ttft_plus_itls", in->info.e2e_from_itls);
            kv_bool(w, "second_pass", in->info.replayed);
        }
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
}

static void basics(jw *w, const llmm_cli_summary *s)
{
    key(w, "requests");
    open_map(w);
    kv_u64(w, "total", s->total);
    kv_u64(w, "completed", s->completed);
    kv_u64(w, "failed", s->failed);
    close_map(w);
    kv_num(w, "error_rate", s->error_rate);
    key(w, "throughput");
    open_map(w);
    kv_num(w, "req_per_s", s->req_per_s);
    kv_num(w, "tok_per_s", s->tok_per_s);
    kv_num(w, "total_tok_per_s", s->total_tok_per_s);
    kv_u64(w, "output_tokens", s->out_tokens);
    kv_u64(w, "input_tokens", s->in_tokens);
    kv_num(w, "duration_s", s->duration_s);
    kv_str(w, "duration_source", s->duration_source);
    close_map(w);
}

static void metrics(jw *w, const llmm_cli_summary *s)
{
    kv_str(w, "percentile_rule", "nearest-rank: rank = max(1, ceil(q*n)), from llmm sketches");
    kv_num(w, "relative_error", s->rel_error);
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        const llmm_cli_msum *ms = &s->m[m];
        key(w, llmm_cli_metric_key[m]);
        open_map(w);
        kv_u64(w, "count", ms->count);
        kv_num(w, "mean", ms->mean);
        kv_num(w, "min", ms->min);
        kv_num(w, "max", ms->max);
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
    kv_u64(w, "good_requests", s->good);
    kv_num(w, "fraction", s->good_fraction);
    kv_num(w, "req_per_s", s->good_per_s);
    close_map(w);
}

static void events(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_trace *t = &r->trace;
    key(w, "events");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < t->nev; i++) {
        open_map(w);
        kv_num(w, "t_s", t->ev[i].t);
        kv_str(w, "type", llmm_cli_event_name(t->ev[i].type));
        kv_num(w, "value", t->ev[i].value);
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
    kv_num(w, "quantile", v->quantile);
    key(w, "checks");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < v->nchecks; i++) {
        const llmm_cli_slo_check *c = &v->checks[i];
        open_map(w);
        kv_str(w, "metric", llmm_cli_metric_key[c->metric]);
        kv_num(w, "bound", c->bound);
        kv_num(w, "latency", c->latency);
        kv_bool(w, "latency_ok", c->latency_ok);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    kv_num(w, "error_rate", v->error_rate);
    kv_num(w, "err_max", v->err_max);
    kv_bool(w, "errors_ok", v->errors_ok);
    kv_bool(w, "satisfied", v->satisfied);
    close_map(w);
}

static void spikes(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_spikes *sp = &r->spikes;
    if (!open_section(w, "spikes", sp->metric, sp->available, sp->why_not))
        return;
    kv_u64(w, "samples", sp->samples);
    kv_u64(w, "classified", sp->classified);
    kv_u64(w, "level1", sp->level1);
    kv_u64(w, "level2", sp->level2);
    kv_num(w, "rate", sp->rate);
    key(w, "detector");
    open_map(w);
    kv_num(w, "slot_s", (double)sp->slot_ns / 1e9);
    kv_u64(w, "slots", sp->slots);
    kv_u64(w, "warmup", sp->warmup_used);
    kv_num(w, "base_quantile", sp->base_q);
    kv_num(w, "severe_quantile", sp->severe_q);
    kv_num(w, "severe_factor", sp->factor);
    close_map(w);
    if (sp->attributed) {
        key(w, "attribution");
        open_map(w);
        kv_num(w, "lookback_s", sp->lookback);
        kv_u64(w, "with_event", sp->with_event);
        kv_u64(w, "without_event", sp->without_event);
        key(w, "by_type");
        open_map(w);
        for (size_t k = 0; k < sp->ncause; k++) {
            key(w, llmm_cli_event_name(sp->cause_type[k]));
            u64(w, sp->cause_count[k]);
        }
        close_map(w);
        close_map(w);
    }
    kv_num(w, "interval_s", sp->interval_used);
    key(w, "intervals");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < sp->nrows; i++) {
        const llmm_cli_spike_row *row = &sp->rows[i];
        open_map(w);
        kv_num(w, "start_s", row->t0);
        kv_num(w, "end_s", row->t1);
        kv_u64(w, "samples", row->samples);
        kv_u64(w, "classified", row->classified);
        kv_u64(w, "level1", row->level1);
        kv_u64(w, "level2", row->level2);
        kv_num(w, "base_threshold_s", row->base_threshold);
        kv_num(w, "max_s", row->max);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    close_map(w);
}

static void collapse(jw *w, const llmm_cli_report *r)
{
    const llmm_cli_collapse *c = &r->collapse;
    if (!open_section(w, "collapse", c->metric, c->available, c->why_not))
        return;
    kv_num(w, "window_after_switch_s", c->window);
    kv_u64(w, "baseline_latencies", c->w);
    kv_num(w, "k", c->k);
    kv_num(w, "sigma_floor", c->floor);
    kv_u64(w, "samples", c->samples);
    kv_u64(w, "collapsed", c->collapsed);
    key(w, "switches");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < c->nsw; i++) {
        open_map(w);
        kv_num(w, "t_s", c->sw[i].t);
        kv_u64(w, "latencies", c->sw[i].latencies);
        kv_u64(w, "flagged", c->sw[i].flagged);
        close_map(w);
    }
    check(w, yajl_gen_array_close(w->g));
    key(w, "flagged");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < c->nflags; i++) {
        open_map(w);
        kv_num(w, "t_s", c->flags[i].t);
        kv_num(w, "value_s", c->flags[i].v);
        kv_num(w, "threshold_s", c->flags[i].threshold);
        kv_num(w, "baseline_mean_s", c->flags[i].mean);
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
    kv_str(w, "scenario", sc->scenario_name);
    kv_num(w, "overall", sc->status == LLMM_OK ? sc->result.overall : NAN);
    kv_bool(w, "renormalized", sc->result.renormalized);
    layer_array(w, "layer_weight", sc->result.layer_weight);
    layer_array(w, "layer_score", sc->result.layer_score);
    layer_array(w, "layer_contribution", sc->result.layer_contribution);
    key(w, "metrics");
    check(w, yajl_gen_array_open(w->g));
    for (size_t i = 0; i < sc->n; i++) {
        const llmm_cli_score_metric *m = &sc->metrics[i];
        open_map(w);
        kv_str(w, "layer", llmm_cli_layer_name(m->layer));
        kv_str(w, "name", m->name);
        kv_num(w, "value", m->value);
        kv_num(w, "target", m->target);
        kv_num(w, "worst", m->worst);
        kv_bool(w, "lower_is_better", m->dir == LLMM_LOWER_IS_BETTER);
        kv_num(w, "score", m->score);
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
