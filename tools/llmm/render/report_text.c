/* report_text.c: the human-readable report (report.h). */
#include <math.h>
#include <string.h>

#include "common/events.h"
#include "render/report.h"
#include "render/text.h"

static void heading(FILE *o, const char *title)
{
    fprintf(o, "\n%s\n", title);
}

/* A latency in milliseconds in a 10-character column; "-" when not measured. */
static void ms_cell(FILE *o, double seconds)
{
    if (isnan(seconds))
        fprintf(o, " %10s", "-");
    else
        fprintf(o, " %10.3f", seconds * 1e3);
}

static void rate(FILE *o, double v, const char *unit)
{
    char b[48];
    fprintf(o, "%s %s", llmm_cli_rate3(v, b, sizeof b), unit);
}

static void input_line(const llmm_cli_input *in, FILE *o)
{
    const llmm_cli_input_info *f = &in->info;
    fprintf(o, "  %s  [%s] %llu %s", in->path, llmm_cli_format_name(in->fmt),
            (unsigned long long)f->requests,
            f->stats_only_runs ? "per-request records" : "requests");
    if (f->runs > 1)
        fprintf(o, " in %llu runs", (unsigned long long)f->runs);
    if (f->stats_only_runs)
        fprintf(o, " (%llu run%s with statistics only)", (unsigned long long)f->stats_only_runs,
                f->stats_only_runs == 1 ? "" : "s");
    if (f->requests)
        fprintf(o, "%s%s", f->has_start_times ? ", start times" : ", no start times",
                f->has_itls ? ", ITLs" : "");
    if (f->e2e_from_itls + f->e2e_from_latencies > 0) {
        if (f->e2e_from_itls == 0)
            fputs("; E2E from 'latencies'", o);
        else if (f->e2e_from_latencies == 0)
            fputs("; E2E = TTFT + sum(ITL) (no 'latencies')", o);
        else
            fprintf(o, "; E2E from 'latencies' (%llu) or TTFT + sum(ITL) (%llu)",
                    (unsigned long long)f->e2e_from_latencies, (unsigned long long)f->e2e_from_itls);
    }
    if (f->replayed)
        fputs("; second pass dropped ITLs of failed requests", o);
    if (f->not_delivered)
        fprintf(o, "; %llu listed requests left out (cancelled, or outside the measured window)",
                (unsigned long long)f->not_delivered);
    fputc('\n', o);
    if (f->layout[0])
        fprintf(o, "      %s%s%s\n", f->tool ? f->tool->name : "", f->tool ? ": " : "", f->layout);
}

static void inputs(const llmm_cli_report *r, FILE *o)
{
    fprintf(o, "llmm report: %zu input%s, %llu requests (libllmmetrics %s)\n", r->ninputs,
            r->ninputs == 1 ? "" : "s", (unsigned long long)r->sum.total, llmm_version_string());
    for (size_t i = 0; i < r->ninputs; i++)
        input_line(&r->inputs[i], o);
}

static void requests(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_summary *s = &r->sum;
    heading(o, "Requests");
    if (r->trace.runs_stats_only)
        fprintf(o,
                "  %llu run%s hold%s statistics only: %s counts, failures, tokens and duration\n"
                "  are the file's own fields; %s percentiles are the tool's, shown with its rule\n"
                "  under what the tools reported, never in our tables\n",
                (unsigned long long)r->trace.runs_stats_only,
                r->trace.runs_stats_only == 1 ? "" : "s", r->trace.runs_stats_only == 1 ? "s" : "",
                r->trace.runs_stats_only == 1 ? "its" : "their",
                r->trace.runs_stats_only == 1 ? "its" : "their");
    if (s->failed_unknown) /* some run states no failures: no count to show */
        fprintf(o, "  %llu completed, failures not stated", (unsigned long long)s->completed);
    else
        fprintf(o, "  %llu total, %llu completed, %llu failed", (unsigned long long)s->total,
                (unsigned long long)s->completed, (unsigned long long)s->failed);
    if (s->failed_unknown)
        fputs(" (error rate n/a)\n", o);
    else if (isnan(s->error_rate))
        fputs(" (error rate n/a)\n", o);
    else
        fprintf(o, " (error rate %.3f %%)\n", 100.0 * s->error_rate);
    for (size_t i = 0; i < s->kinds.nkinds; i++) /* where the inputs name the kinds */
        fprintf(o, "%s%s %llu", i ? ", " : "  failures by reason: ", s->kinds.name[i],
                (unsigned long long)s->kinds.n[i]);
    if (s->kinds.other)
        fprintf(o, ", %llu of other kinds", (unsigned long long)s->kinds.other);
    if (s->kinds.nkinds)
        fputc('\n', o);
    if (s->sampled_runs)
        fprintf(o,
                "  %llu run%s list%s only a sample of %s requests (%llu listed): the counts,\n"
                "  tokens and throughput are the run%s own totals; the latency percentiles\n"
                "  are over the sample\n",
                (unsigned long long)s->sampled_runs, s->sampled_runs == 1 ? "" : "s",
                s->sampled_runs == 1 ? "s" : "", s->sampled_runs == 1 ? "its" : "their",
                (unsigned long long)s->sample_records, s->sampled_runs == 1 ? "'s" : "s'");
    heading(o, "Throughput");
    fputs("  ", o);
    rate(o, s->req_per_s, "req/s, ");
    rate(o, s->tok_per_s, "output tok/s, ");
    rate(o, s->total_tok_per_s, "total tok/s\n");
    if (s->rates_stated)
        fputs("  (the rates are the tool's own, as the file states them: it states no "
              "duration)\n",
              o);
    fprintf(o, "  %llu output and %llu input tokens", (unsigned long long)s->out_tokens,
            (unsigned long long)s->in_tokens);
    if (s->tokens_from)
        fprintf(o, " (%s)", s->tokens_from);
    if (s->out_unknown)
        fprintf(o, " (%llu completed requests without a token count)",
                (unsigned long long)s->out_unknown);
    if (isnan(s->duration_s))
        fprintf(o, "; duration %s\n", s->duration_source);
    else
        fprintf(o, " over %.3f s (%s)\n", s->duration_s, s->duration_source);
}

static void table(const llmm_cli_summary *s, int exact, FILE *o)
{
    fprintf(o, "  %-5s %9s", "ms", "count");
    if (!exact)
        fprintf(o, " %10s %10s", "mean", "min");
    for (int k = 0; k < LLMM_CLI_NQ; k++)
        fprintf(o, " %10s", llmm_cli_q_label[k]);
    if (!exact)
        fprintf(o, " %10s", "max");
    fputc('\n', o);
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        const llmm_cli_msum *ms = &s->m[m];
        fprintf(o, "  %-5s %9llu", llmm_cli_metric_label[m], (unsigned long long)ms->count);
        if (!exact) {
            ms_cell(o, ms->mean);
            ms_cell(o, ms->min);
        }
        for (int k = 0; k < LLMM_CLI_NQ; k++)
            ms_cell(o, exact ? ms->lin[k] : ms->q[k]);
        if (!exact)
            ms_cell(o, ms->max);
        fputc('\n', o);
    }
}

static void latency(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_summary *s = &r->sum;
    if (r->sum.sampled_runs)
        fprintf(o,
                "\nLatency percentiles (milliseconds, over a sample of %llu listed "
                "requests)\n",
                (unsigned long long)r->sum.sample_records);
    else
        heading(o, "Latency percentiles (milliseconds)");
    table(s, 0, o);
    fprintf(o,
            "  Percentile rule: nearest rank, rank = max(1, ceil(q*n)), read from llmm sketches\n"
            "  (scale %d, relative error <= %.3f %%); count, mean, min and max are exact.\n",
            (int)s->scale, 100.0 * s->rel_error);
    fputs("  Definitions (ours, vLLM's): TTFT = time to first token; ITL = every gap between\n"
          "  streamed chunks; E2E = the request's client-measured latency to its last token, or\n"
          "  TTFT + sum(ITL) where a file has no per-request latency; TPOT = (E2E - TTFT) /\n"
          "  (output tokens - 1), over requests with more than one output token. Failed requests\n"
          "  are left out. How each tool's own figures relate: below.\n",
          o);
    if (s->m[LLMM_CLI_M_TTFT].count == 0 && s->m[LLMM_CLI_M_E2E].count > 0) {
        fputs("  TTFT, TPOT, ITL: the inputs hold end-to-end latencies only, no per-token\n"
              "  latencies (a pooling run, or a vLLM file saved without --save-detailed).\n",
              o);
    } else if (s->m[LLMM_CLI_M_ITL].count == 0 && s->m[LLMM_CLI_M_E2E].count > 0) {
        int any = 0;
        for (size_t i = 0; i < r->ninputs; i++)
            any |= r->inputs[i].info.has_itls;
        fputs(s->one_response ? "  ITL: not streamed (every token in one response): no gap "
                                "to measure.\n"
              : any           ? "  ITL: no successful request streamed more than one chunk.\n"
                    : "  ITL: the inputs carry no per-token times (CSV, JSONL without \"itls\",\n"
                      "  GuideLLM, LLMPerf).\n",
              o);
    }
    if (s->one_response)
        fprintf(o,
                "  TPOT: %llu request%s received every token in one response (not streamed):\n"
                "  no time between tokens was measured, so TPOT is undefined for %s (\"-\"),\n"
                "  never 0.\n",
                (unsigned long long)s->one_response, s->one_response == 1 ? "" : "s",
                s->one_response == 1 ? "it" : "them");
    if (r->exact) {
        heading(o, "Exact percentiles (milliseconds), numpy 'linear' interpolation (--exact)");
        table(s, 1, o);
        fputs("  As numpy.percentile(values, p) with its default method: position (n-1)*p/100,\n"
              "  interpolated between the two nearest values; the numbers vLLM's benchmark "
              "prints.\n",
              o);
    }
}

static void goodput(const llmm_cli_report *r, FILE *o)
{
    static const char *const names[3] = {"TTFT", "TPOT", "E2E"};
    const llmm_cli_summary *s = &r->sum;
    int first = 1;
    if (!s->has_goodput)
        return;
    heading(o, "Goodput");
    fputs("  SLOs:", o);
    for (int i = 0; i < 3; i++) {
        if (isnan(r->slo[i]))
            continue;
        fprintf(o, "%s %s <= %.3f ms", first ? "" : ",", names[i], r->slo[i] * 1e3);
        first = 0;
    }
    if (s->good_stats_only) {
        fprintf(o, "\n  not computed: %llu run%s hold%s statistics only, no request to judge\n",
                (unsigned long long)s->good_stats_only, s->good_stats_only == 1 ? "" : "s",
                s->good_stats_only == 1 ? "s" : "");
        return;
    }
    if (s->good_sampled) {
        fprintf(o, "\n  not computed: %llu run%s list%s only a sample of %s requests\n",
                (unsigned long long)s->good_sampled, s->good_sampled == 1 ? "" : "s",
                s->good_sampled == 1 ? "s" : "", s->good_sampled == 1 ? "its" : "their");
        return;
    }
    if (s->good_unjudged) {
        fprintf(o, "\n  not computed: %llu completed requests have no TTFT to judge against the "
                   "TTFT or TPOT limit\n",
                (unsigned long long)s->good_unjudged);
        return;
    }
    fprintf(o, "\n  %llu of %llu requests met every SLO: goodput fraction %.3f %%",
            (unsigned long long)s->good, (unsigned long long)s->total,
            isnan(s->good_fraction) ? NAN : 100.0 * s->good_fraction);
    fputs(", rate ", o);
    rate(o, s->good_per_s, "good req/s\n");
    fputs("  vLLM's definition: a completed request is good when it meets every given SLO\n"
          "  (TPOT counts as 0 for requests with one output token); the fraction is over all\n"
          "  requests, failed ones included; the rate is good requests per second of benchmark.\n",
          o);
}

static void events(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_trace *t = &r->trace;
    if (t->nev == 0 && t->events_dropped == 0)
        return;
    heading(o, "Events (seconds after the first request was sent)");
    for (size_t i = 0; i < t->nev && i < 20; i++)
        fprintf(o, "  %10.3f s  %s (value %g)\n", t->ev[i].t,
                llmm_cli_event_name(t->ev[i].type), t->ev[i].value);
    if (t->nev > 20)
        fprintf(o, "  ... and %zu more\n", t->nev - 20);
    if (t->events_dropped)
        fprintf(o, "  %llu events of runs without start times could not be placed\n",
                (unsigned long long)t->events_dropped);
}

/* --host-signals: per signal the threshold used and the events made. */
static void host_signals(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_host *h = &r->host;
    if (!h->path)
        return;
    heading(o, "Host signals");
    fprintf(o, "  %s: %llu samples; an event per rate above its threshold, at the start of its\n"
               "  interval (the frequency: a drop by more than its share since the sample before)\n",
            h->path, (unsigned long long)h->samples);
    fprintf(o, "  %-16s %12s %8s  %s\n", "signal", "threshold", "events", "event type");
    for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
        const char *name = llmm_host_signal_name((llmm_host_signal)sig);
        if (!name)
            break;
        fprintf(o, "  %-16s %12g %8llu  %s\n", name, h->threshold[sig - 1],
                (unsigned long long)h->events[sig - 1],
                llmm_cli_event_name(llmm_host_signal_event((llmm_host_signal)sig)));
    }
    if (h->bpf_lines)
        fprintf(o, "  kernel events (llmm host --bpf, %llu lines), placed at their own times and\n"
                   "  standing for the rates above of the signals they explain:\n"
                   "  %llu %s, %llu %s, %llu %s; %llu not listed by the collector\n",
                (unsigned long long)h->bpf_lines, (unsigned long long)h->kevents[0],
                LLMM_EVENT_ATTR_TCP_RETRANSMIT, (unsigned long long)h->kevents[1],
                LLMM_EVENT_ATTR_MAJOR_FAULT, (unsigned long long)h->kevents[2],
                LLMM_EVENT_ATTR_SCHED_JITTER, (unsigned long long)h->bpf_lost);
    if (h->unknown)
        fprintf(o, "  %llu keys this version does not know were skipped (the first: '%s')\n",
                (unsigned long long)h->unknown, h->first_unknown);
}

static void slo_verdict(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_slo *v = &r->slo_verdict;
    char q[32];
    if (!v->enabled)
        return;
    snprintf(q, sizeof q, "P%g", 100.0 * v->quantile);
    heading(o, "SLO verdict");
    for (size_t i = 0; i < v->nchecks; i++) {
        const llmm_cli_slo_check *c = &v->checks[i];
        fprintf(o, "  %-4s %-7s <= %10.3f ms: ", llmm_cli_metric_label[c->metric], q,
                c->bound * 1e3);
        if (!c->judged)
            fputs("not judged (statistics only or a sample, without this quantile)\n", o);
        else if (isinf(c->latency))
            fputs("no successful request", o);
        else
            fprintf(o, "%10.3f ms", c->latency * 1e3);
        if (c->judged)
            fprintf(o, "  %s\n", c->latency_ok ? "met" : "VIOLATED");
        if (c->figure[0])
            fprintf(o, "       the tool's own %s, from a run with statistics only or a sample:\n"
                       "       %s\n",
                    c->figure, c->rule ? c->rule : "the tool's rule");
    }
    if (v->errors_judged)
        fprintf(o, "  error rate <= %.3f %%: %.3f %%  %s\n", 100.0 * v->err_max,
                100.0 * v->error_rate, v->errors_ok ? "met" : "VIOLATED");
    else
        fprintf(o, "  error rate <= %.3f %%: not judged (%s)\n", 100.0 * v->err_max,
                v->errors_why ? v->errors_why : "a run states no request counts");
    fprintf(o, "  verdict: %s\n",
            !v->satisfied ? "SLO VIOLATED"
            : v->unjudged ? "not judged (nothing violated, but not every "
                            "check could be made)"
                          : "SLO met");
    if (v->by_us)
        fprintf(o,
                "  llmm_slo_check: the %s (nearest rank, from the sketch) of successful "
                "requests\n  against each bound%s.\n",
                q, v->by_tool ? "; the checks marked as the tool's own: its stated figure" : "");
    else if (v->by_tool)
        fprintf(o,
                "  judged on the tool's own stated %s (its rule, above), not on our "
                "sketches.\n",
                q);
    if (v->errors_judged)
        fputs("  error rate: failed requests / all requests against the error bound.\n", o);
}

static void attribution(const llmm_cli_spikes *sp, FILE *o)
{
    if (!sp->attributed)
        return;
    fprintf(o, "  Causes (the nearest event at most %g s before each spike): ", sp->lookback);
    for (size_t k = 0; k < sp->ncause; k++)
        fprintf(o, "%s %llu, ", llmm_cli_event_name(sp->cause_type[k]),
                (unsigned long long)sp->cause_count[k]);
    fprintf(o, "no event %llu\n", (unsigned long long)sp->without_event);
}

/* The heading of a detector section, "WHAT (METRIC)", and when it could not run, why (returns
 * 0: the caller writes nothing more). */
static int detector_heading(FILE *o, const char *what, int metric, int available,
                            const char *why_not)
{
    fprintf(o, "\n%s (%s)\n", what, llmm_cli_metric_label[metric]);
    if (!available)
        fprintf(o, "  not computed: %s\n", why_not ? why_not : "no data");
    return available;
}

static void spikes(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_spikes *sp = &r->spikes;
    if (!detector_heading(o, "Latency spikes", sp->metric, sp->available, sp->why_not))
        return;
    fprintf(o,
            "  llmm_spike: baselines P%g and %g x P%g of a sliding window of %llu x %g s,\n"
            "  classifying once %llu samples are in the window; each request counts when its\n"
            "  %s is known, on the runs' merged time line.\n",
            100.0 * sp->base_q, sp->factor, 100.0 * sp->severe_q, (unsigned long long)sp->slots,
            (double)sp->slot_ns / 1e9, (unsigned long long)sp->warmup_used,
            sp->metric == LLMM_CLI_M_TTFT ? "first token" : "last token");
    fprintf(o, "  %llu samples, %llu classified: level 1 %llu, level 2 (severe) %llu; ",
            (unsigned long long)sp->samples, (unsigned long long)sp->classified,
            (unsigned long long)sp->level1, (unsigned long long)sp->level2);
    if (isnan(sp->rate))
        fputs("spike rate n/a (still warming up at the end)\n", o);
    else
        fprintf(o, "spike rate %.3f %%\n", 100.0 * sp->rate);
    attribution(sp, o);
    fprintf(o, "  %15s %8s %10s %8s %8s %8s %12s %10s\n", "time (s)", "samples", "classified",
            "level 1", "level 2", "rate", "P99 (ms)", "max (ms)");
    for (size_t i = 0; i < sp->nrows; i++) {
        const llmm_cli_spike_row *row = &sp->rows[i];
        char span[32], rate_s[16], thr[16];
        snprintf(span, sizeof span, "%g - %g", row->t0, row->t1);
        if (row->classified)
            snprintf(rate_s, sizeof rate_s, "%.2f%%",
                     100.0 * (double)(row->level1 + row->level2) / (double)row->classified);
        else
            snprintf(rate_s, sizeof rate_s, "-");
        if (isnan(row->base_threshold))
            snprintf(thr, sizeof thr, "-");
        else
            snprintf(thr, sizeof thr, "%.3f", row->base_threshold * 1e3);
        fprintf(o, "  %15s %8llu %10llu %8llu %8llu %8s %12s", span,
                (unsigned long long)row->samples, (unsigned long long)row->classified,
                (unsigned long long)row->level1, (unsigned long long)row->level2, rate_s, thr);
        ms_cell(o, row->max);
        fputc('\n', o);
    }
}

static void collapse(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_collapse *c = &r->collapse;
    if (!detector_heading(o, "Collapses around weight switches", c->metric, c->available,
                          c->why_not))
        return;
    fprintf(o,
            "  llmm_collapse: a latency is flagged when it exceeds mean + %g sigma of the %llu\n"
            "  before it (sigma >= %g x mean) and becomes known at most %g s after a switch.\n",
            c->k, (unsigned long long)c->w, c->floor, c->window);
    fprintf(o, "  samples %llu, weight switches %llu, flagged %llu\n",
            (unsigned long long)c->samples, (unsigned long long)c->switches,
            (unsigned long long)c->collapsed);
    for (size_t i = 0; i < c->nsw; i++)
        fprintf(o, "  switch at %10.3f s: %llu latencies in the next %g s, %llu flagged%s\n",
                c->sw[i].t, (unsigned long long)c->sw[i].latencies, c->window,
                (unsigned long long)c->sw[i].flagged, c->sw[i].flagged ? ": COLLAPSE" : "");
    if (c->nflags) {
        fprintf(o, "  %12s %12s %14s %14s\n", "time (s)", "value (ms)", "threshold (ms)",
                "baseline (ms)");
        for (size_t i = 0; i < c->nflags; i++)
            fprintf(o, "  %12.3f %12.3f %14.3f %14.3f\n", c->flags[i].t, c->flags[i].v * 1e3,
                    c->flags[i].threshold * 1e3, c->flags[i].mean * 1e3);
        if (c->collapsed > c->nflags)
            fprintf(o, "  ... and %llu more\n", (unsigned long long)(c->collapsed - c->nflags));
    }
}

static void scorecard(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_score *sc = &r->score;
    const llmm_score_result *res = &sc->result;
    if (!sc->enabled || !sc->evaluated)
        return;
    heading(o, "Four-layer score");
    fprintf(o, "  scenario %s: weights", sc->scenario_name);
    for (int l = 0; l < LLMM_LAYER_COUNT; l++)
        fprintf(o, " %s %.2f", llmm_cli_layer_name((llmm_layer)l), res->layer_weight[l]);
    fputc('\n', o);
    for (int l = 0; l < LLMM_LAYER_COUNT; l++) {
        fprintf(o, "  %-12s ", llmm_cli_layer_name((llmm_layer)l));
        if (!res->layer_present[l]) {
            fputs("missing (no observed metric)\n", o);
        } else {
            fprintf(o, "score %.3f, effective weight %.3f, contribution %.3f\n",
                    res->layer_score[l], res->layer_effective_weight[l],
                    res->layer_contribution[l]);
        }
        for (size_t i = 0; i < sc->n; i++) {
            const llmm_cli_score_metric *m = &sc->metrics[i];
            if ((int)m->layer != l)
                continue;
            fprintf(o, "    %-22s ", m->name);
            if (isnan(m->value))
                fputs("not measured", o);
            else
                fprintf(o, "%.6g", m->value);
            fprintf(o, " (target %.6g, worst %.6g, %s is better%s)", m->target, m->worst,
                    m->dir == LLMM_LOWER_IS_BETTER ? "lower" : "higher",
                    m->is_default ? ", default" : m->from_trace ? ", from the trace" : "");
            if (!isnan(m->score))
                fprintf(o, " -> %.3f", m->score);
            fputc('\n', o);
        }
    }
    if (sc->status == LLMM_OK) {
        fprintf(o, "  overall %.3f", res->overall);
        if (res->renormalized)
            fprintf(o, " (renormalised over the %u present layers)",
                    (unsigned)(LLMM_LAYER_COUNT - res->layers_missing));
        fputc('\n', o);
    } else {
        fprintf(o, "  overall: not computed (%s)\n",
                sc->status == LLMM_E_EMPTY ? "no metric could be scored" : llmm_strerror(sc->status));
    }
    fputs("  Each metric scores clamp((value - worst) / (target - worst), 0, 1); a layer is the\n"
          "  mean of its metrics; add the layers a trace cannot measure with --metric.\n",
          o);
}

/* The report's parts, in the order they print. */
static void (*const parts[])(const llmm_cli_report *r, FILE *o) = {
    inputs, requests, latency, llmm_cli_report_tools_text, goodput, slo_verdict, events,
    host_signals, spikes, collapse, scorecard,
};

void llmm_cli_report_text(const llmm_cli_report *r, FILE *o)
{
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        parts[i](r, o);
}
