/* report_json.c: `llmm report --json`, one top-level object (report.h). Times are seconds; a
 * number that could not be measured is null. */
#include <math.h>

#include "common/events.h"
#include "common/jsonw.h"
#include "render/report.h"

/* Open the object of a detector section: its metric and whether it could run; when it could
 * not, the reason closes the object and the caller writes nothing more (returns 0). */
static int open_section(llmm_cli_jw *w, const char *name, int metric, int available,
                        const char *why_not)
{
    llmm_cli_jw_key_map(w, name);
    llmm_cli_jw_kv_str(w, "metric", llmm_cli_metric_key[metric]);
    llmm_cli_jw_kv_bool(w, "available", available);
    if (!available) {
        llmm_cli_jw_kv_str(w, "reason", why_not ? why_not : "no data");
        llmm_cli_jw_map_end(w);
    }
    return available;
}

static void inputs(llmm_cli_jw *w, const llmm_cli_report *r)
{
    llmm_cli_jw_key_arr(w, "inputs");
    for (size_t i = 0; i < r->ninputs; i++) {
        const llmm_cli_input *in = &r->inputs[i];
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv_str(w, "path", in->path);
        llmm_cli_jw_kv_str(w, "format", llmm_cli_format_name(in->fmt));
        llmm_cli_jw_kv_u64(w, "requests", in->info.requests);
        llmm_cli_jw_kv_u64(w, "runs", in->info.runs);
        llmm_cli_jw_kv_u64(w, "statistics_only_runs", in->info.stats_only_runs);
        llmm_cli_jw_kv_str(w, "layout", in->info.layout);
        llmm_cli_jw_kv_bool(w, "start_times", in->info.has_start_times);
        llmm_cli_jw_kv_bool(w, "ttfts", in->info.has_ttft);
        llmm_cli_jw_kv_bool(w, "itls", in->info.has_itls);
        llmm_cli_jw_kv_u64(w, "e2e_from_latencies", in->info.e2e_from_latencies);
        llmm_cli_jw_kv_u64(w, "e2e_from_ttft_plus_itls", in->info.e2e_from_itls);
        llmm_cli_jw_kv_u64(w, "left_out", in->info.not_delivered);
        llmm_cli_jw_kv_bool(w, "second_pass", in->info.replayed);
        llmm_cli_report_tool_json(w, in->info.tool);
        llmm_cli_report_runs_json(w, r, i);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
}

void llmm_cli_counts_json(llmm_cli_jw *w, const llmm_cli_summary *s)
{
    llmm_cli_jw_key_map(w, "requests");
    if (s->failed_unknown) { /* a run states no failures: null total and failed */
        llmm_cli_jw_kv(w, "total", NAN);
        llmm_cli_jw_kv_u64(w, "completed", s->completed);
        llmm_cli_jw_kv(w, "failed", NAN);
    } else {
        llmm_cli_jw_kv_u64(w, "total", s->total);
        llmm_cli_jw_kv_u64(w, "completed", s->completed);
        llmm_cli_jw_kv_u64(w, "failed", s->failed);
    }
    if (s->sampled_runs) { /* percentiles over a sample of the requests */
        llmm_cli_jw_kv_u64(w, "sampled_runs", s->sampled_runs);
        llmm_cli_jw_kv_u64(w, "percentile_sample", s->sample_records);
    }
    if (s->kinds.nkinds) { /* where the inputs name the kinds of failure */
        llmm_cli_jw_key_map(w, "failures_by_reason");
        for (size_t i = 0; i < s->kinds.nkinds; i++)
            llmm_cli_jw_kv_u64(w, s->kinds.name[i], s->kinds.n[i]);
        if (s->kinds.other)
            llmm_cli_jw_kv_u64(w, "(other kinds)", s->kinds.other);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_map_end(w);
    llmm_cli_jw_kv(w, "error_rate", s->error_rate);
}

static void basics(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_summary *s = &r->sum;
    llmm_cli_counts_json(w, s);
    llmm_cli_jw_key_map(w, "throughput");
    LLMM_CLI_JW_NUMS(w, {"req_per_s", s->req_per_s}, {"tok_per_s", s->tok_per_s},
                     {"total_tok_per_s", s->total_tok_per_s});
    llmm_cli_jw_kv_bool(w, "rates_from_tool", s->rates_stated);
    if (s->tokens_from)
        llmm_cli_jw_kv_str(w, "tokens_from", s->tokens_from);
    llmm_cli_jw_kv_u64(w, "output_tokens", s->out_tokens);
    llmm_cli_jw_kv_u64(w, "input_tokens", s->in_tokens);
    llmm_cli_jw_kv(w, "duration_s", s->duration_s);
    llmm_cli_jw_kv_str(w, "duration_source", s->duration_source);
    llmm_cli_jw_map_end(w);
}

/* "p50": v[0], "p90": v[1], ... */
static void quantiles(llmm_cli_jw *w, const double *v)
{
    for (int k = 0; k < LLMM_CLI_NQ; k++)
        llmm_cli_jw_kv(w, llmm_cli_q_key[k], v[k]);
}

static void metrics(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_summary *s = &r->sum;
    llmm_cli_jw_kv_str(w, "percentile_rule",
                       "nearest-rank: rank = max(1, ceil(q*n)), from llmm sketches");
    llmm_cli_jw_kv(w, "relative_error", s->rel_error);
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        const llmm_cli_msum *ms = &s->m[m];
        llmm_cli_jw_key_map(w, llmm_cli_metric_key[m]);
        llmm_cli_jw_kv_u64(w, "count", ms->count);
        LLMM_CLI_JW_NUMS(w, {"mean", ms->mean}, {"min", ms->min}, {"max", ms->max});
        quantiles(w, ms->q);
        if (m == LLMM_CLI_M_TPOT && s->one_response) /* not streamed: undefined, never 0 */
            llmm_cli_jw_kv_u64(w, "undefined_not_streamed", s->one_response);
        if (ms->has_exact) {
            llmm_cli_jw_key_map(w, "numpy_linear");
            quantiles(w, ms->lin);
            llmm_cli_jw_map_end(w);
        }
        llmm_cli_jw_map_end(w);
    }
}

static void goodput(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_summary *s = &r->sum;
    static const char *const names[3] = {"ttft_s", "tpot_s", "e2e_s"};
    if (!s->has_goodput)
        return;
    llmm_cli_jw_key_map(w, "goodput");
    llmm_cli_jw_key_map(w, "slo");
    for (int i = 0; i < 3; i++)
        if (!isnan(r->slo[i]))
            llmm_cli_jw_kv(w, names[i], r->slo[i]);
    llmm_cli_jw_map_end(w);
    llmm_cli_jw_kv_u64(w, "good_requests", s->good);
    llmm_cli_jw_kv_u64(w, "unjudged_requests", s->good_unjudged);
    llmm_cli_jw_kv_u64(w, "statistics_only_runs", s->good_stats_only);
    llmm_cli_jw_kv_u64(w, "sampled_runs", s->good_sampled);
    LLMM_CLI_JW_NUMS(w, {"fraction", s->good_fraction}, {"req_per_s", s->good_per_s});
    llmm_cli_jw_map_end(w);
}

static void events(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_trace *t = &r->trace;
    llmm_cli_jw_key_arr(w, "events");
    for (size_t i = 0; i < t->nev; i++) {
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv(w, "t_s", t->ev[i].t);
        llmm_cli_jw_kv_str(w, "type", llmm_cli_event_name(t->ev[i].type));
        llmm_cli_jw_kv(w, "value", t->ev[i].value);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
}

/* --host-signals: per signal the threshold used and the events made. */
static void host_signals(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_host *h = &r->host;
    if (!h->path)
        return;
    llmm_cli_jw_key_map(w, "host_signals");
    llmm_cli_jw_kv_str(w, "file", h->path);
    llmm_cli_jw_kv_u64(w, "samples", h->samples);
    llmm_cli_jw_kv_u64(w, "unknown_keys", h->unknown);
    llmm_cli_jw_key_map(w, "signals");
    for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
        const char *name = llmm_host_signal_name((llmm_host_signal)sig);
        if (!name)
            break;
        llmm_cli_jw_key_map(w, name);
        llmm_cli_jw_kv_str(w, "event", llmm_cli_event_name(llmm_host_signal_event(
                                           (llmm_host_signal)sig)));
        llmm_cli_jw_kv(w, "threshold", h->threshold[sig - 1]);
        llmm_cli_jw_kv_u64(w, "events", h->events[sig - 1]);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_map_end(w);
    if (h->bpf_lines) {
        llmm_cli_jw_key_map(w, "kernel_events");
        llmm_cli_jw_kv_u64(w, "lines", h->bpf_lines);
        llmm_cli_jw_kv_u64(w, LLMM_EVENT_ATTR_TCP_RETRANSMIT, h->kevents[0]);
        llmm_cli_jw_kv_u64(w, LLMM_EVENT_ATTR_MAJOR_FAULT, h->kevents[1]);
        llmm_cli_jw_kv_u64(w, LLMM_EVENT_ATTR_SCHED_JITTER, h->kevents[2]);
        llmm_cli_jw_kv_u64(w, "not_listed", h->bpf_lost);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_map_end(w);
}

static void slo_verdict(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_slo *v = &r->slo_verdict;
    if (!v->enabled)
        return;
    llmm_cli_jw_key_map(w, "slo");
    llmm_cli_jw_kv(w, "quantile", v->quantile);
    llmm_cli_jw_key_arr(w, "checks");
    for (size_t i = 0; i < v->nchecks; i++) {
        const llmm_cli_slo_check *c = &v->checks[i];
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv_str(w, "metric", llmm_cli_metric_key[c->metric]);
        LLMM_CLI_JW_NUMS(w, {"bound", c->bound}, {"latency", c->latency});
        llmm_cli_jw_kv_bool(w, "latency_ok", c->latency_ok);
        llmm_cli_jw_kv_bool(w, "judged", c->judged);
        if (c->figure[0]) {
            llmm_cli_jw_kv_str(w, "tool_figure", c->figure);
            llmm_cli_jw_kv_str(w, "tool_rule", c->rule ? c->rule : "");
        }
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
    LLMM_CLI_JW_NUMS(w, {"error_rate", v->error_rate}, {"err_max", v->err_max});
    llmm_cli_jw_kv_bool(w, "errors_ok", v->errors_ok);
    llmm_cli_jw_kv_bool(w, "errors_judged", v->errors_judged);
    if (v->errors_why)
        llmm_cli_jw_kv_str(w, "errors_not_judged", v->errors_why);
    llmm_cli_jw_kv_bool(w, "satisfied", v->satisfied && !v->unjudged);
    llmm_cli_jw_kv_str(w, "verdict",
                       !v->satisfied ? "violated"
                       : v->unjudged ? "not judged"
                                     : "met");
    llmm_cli_jw_map_end(w);
}

static void spike_detector(llmm_cli_jw *w, const llmm_cli_spikes *sp)
{
    llmm_cli_jw_key_map(w, "detector");
    llmm_cli_jw_kv(w, "slot_s", (double)sp->slot_ns / 1e9);
    llmm_cli_jw_kv_u64(w, "slots", sp->slots);
    llmm_cli_jw_kv_u64(w, "warmup", sp->warmup_used);
    LLMM_CLI_JW_NUMS(w, {"base_quantile", sp->base_q}, {"severe_quantile", sp->severe_q},
                     {"severe_factor", sp->factor});
    llmm_cli_jw_map_end(w);
}

static void spike_attribution(llmm_cli_jw *w, const llmm_cli_spikes *sp)
{
    if (!sp->attributed)
        return;
    llmm_cli_jw_key_map(w, "attribution");
    llmm_cli_jw_kv(w, "lookback_s", sp->lookback);
    llmm_cli_jw_kv_u64(w, "with_event", sp->with_event);
    llmm_cli_jw_kv_u64(w, "without_event", sp->without_event);
    llmm_cli_jw_key_map(w, "by_type");
    for (size_t k = 0; k < sp->ncause; k++)
        llmm_cli_jw_kv_u64(w, llmm_cli_event_name(sp->cause_type[k]), sp->cause_count[k]);
    llmm_cli_jw_map_end(w);
    llmm_cli_jw_map_end(w);
}

/* "samples", "classified", "level1", "level2": the totals and every row share them. */
static void spike_counts(llmm_cli_jw *w, uint64_t samples, uint64_t classified, uint64_t l1,
                         uint64_t l2)
{
    llmm_cli_jw_kv_u64(w, "samples", samples);
    llmm_cli_jw_kv_u64(w, "classified", classified);
    llmm_cli_jw_kv_u64(w, "level1", l1);
    llmm_cli_jw_kv_u64(w, "level2", l2);
}

static void spikes(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_spikes *sp = &r->spikes;
    if (!open_section(w, "spikes", sp->metric, sp->available, sp->why_not))
        return;
    spike_counts(w, sp->samples, sp->classified, sp->level1, sp->level2);
    llmm_cli_jw_kv(w, "rate", sp->rate);
    spike_detector(w, sp);
    spike_attribution(w, sp);
    llmm_cli_jw_kv(w, "interval_s", sp->interval_used);
    llmm_cli_jw_key_arr(w, "intervals");
    for (size_t i = 0; i < sp->nrows; i++) {
        const llmm_cli_spike_row *row = &sp->rows[i];
        llmm_cli_jw_map(w);
        LLMM_CLI_JW_NUMS(w, {"start_s", row->t0}, {"end_s", row->t1});
        spike_counts(w, row->samples, row->classified, row->level1, row->level2);
        LLMM_CLI_JW_NUMS(w, {"base_threshold_s", row->base_threshold}, {"max_s", row->max});
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_map_end(w);
}

static void collapse(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_collapse *c = &r->collapse;
    if (!open_section(w, "collapse", c->metric, c->available, c->why_not))
        return;
    llmm_cli_jw_kv(w, "window_after_switch_s", c->window);
    llmm_cli_jw_kv_u64(w, "baseline_latencies", c->w);
    LLMM_CLI_JW_NUMS(w, {"k", c->k}, {"sigma_floor", c->floor});
    llmm_cli_jw_kv_u64(w, "samples", c->samples);
    llmm_cli_jw_kv_u64(w, "collapsed", c->collapsed);
    llmm_cli_jw_key_arr(w, "switches");
    for (size_t i = 0; i < c->nsw; i++) {
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv(w, "t_s", c->sw[i].t);
        llmm_cli_jw_kv_u64(w, "latencies", c->sw[i].latencies);
        llmm_cli_jw_kv_u64(w, "flagged", c->sw[i].flagged);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_key_arr(w, "flagged");
    for (size_t i = 0; i < c->nflags; i++) {
        const llmm_cli_collapse_flag *f = &c->flags[i];
        LLMM_CLI_JW_NUM_MAP(w, NULL, {"t_s", f->t}, {"value_s", f->v},
                            {"threshold_s", f->threshold}, {"baseline_mean_s", f->mean});
    }
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_map_end(w);
}

static void layer_array(llmm_cli_jw *w, const char *k, const double *v)
{
    llmm_cli_jw_key_map(w, k);
    for (int l = 0; l < LLMM_LAYER_COUNT; l++)
        llmm_cli_jw_kv(w, llmm_cli_layer_name((llmm_layer)l), v[l]);
    llmm_cli_jw_map_end(w);
}

static void scorecard(llmm_cli_jw *w, const llmm_cli_report *r)
{
    const llmm_cli_score *sc = &r->score;
    if (!sc->enabled || !sc->evaluated)
        return;
    llmm_cli_jw_key_map(w, "scorecard");
    llmm_cli_jw_kv_str(w, "scenario", sc->scenario_name);
    llmm_cli_jw_kv(w, "overall", sc->status == LLMM_OK ? sc->result.overall : NAN);
    llmm_cli_jw_kv_bool(w, "renormalized", sc->result.renormalized);
    layer_array(w, "layer_weight", sc->result.layer_weight);
    layer_array(w, "layer_score", sc->result.layer_score);
    layer_array(w, "layer_contribution", sc->result.layer_contribution);
    llmm_cli_jw_key_arr(w, "metrics");
    for (size_t i = 0; i < sc->n; i++) {
        const llmm_cli_score_metric *m = &sc->metrics[i];
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv_str(w, "layer", llmm_cli_layer_name(m->layer));
        llmm_cli_jw_kv_str(w, "name", m->name);
        LLMM_CLI_JW_NUMS(w, {"value", m->value}, {"target", m->target}, {"worst", m->worst});
        llmm_cli_jw_kv_bool(w, "lower_is_better", m->dir == LLMM_LOWER_IS_BETTER);
        llmm_cli_jw_kv(w, "score", m->score);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_map_end(w);
}

/* The report's members after "llmm_version", in order. */
static void (*const parts[])(llmm_cli_jw *w, const llmm_cli_report *r) = {
    inputs, basics, metrics, goodput, slo_verdict, events, host_signals, spikes, collapse, scorecard,
};

int llmm_cli_report_json(const llmm_cli_report *r, FILE *out)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv_str(&w, "llmm_version", llmm_version_string());
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        parts[i](&w, r);
    llmm_cli_jw_map_end(&w);
    /* a failed write to out is the caller's to report, with its check of the stream */
    return llmm_cli_jw_finish(&w, out) == 0 || ferror(out) ? LLMM_CLI_OK : LLMM_CLI_EIO;
}
