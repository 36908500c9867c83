/* summary.c: the numbers the report derives from the accumulated trace (trace.h): counts,
 * throughput, percentiles of every metric, goodput. */
#include <math.h>
#include <string.h>

#include "analysis/trace.h"
#include "common/numbers.h"

static int summarize_metric(llmm_cli_trace *t, int m, llmm_cli_msum *s)
{
    const llmm_sketch *sk = t->sk[m];
    for (int k = 0; k < LLMM_CLI_NQ; k++)
        s->q[k] = s->lin[k] = NAN;
    s->mean = s->min = s->max = NAN;
    s->count = llmm_sketch_count(sk);
    s->has_exact = t->exact;
    if (s->count == 0)
        return LLMM_CLI_OK;
    if (llmm_sketch_mean(sk, &s->mean) != LLMM_OK || llmm_sketch_min(sk, &s->min) != LLMM_OK ||
        llmm_sketch_max(sk, &s->max) != LLMM_OK ||
        llmm_sketch_quantiles(sk, llmm_cli_q, LLMM_CLI_NQ, s->q) != LLMM_OK)
        return LLMM_CLI_EPARSE;
    if (t->exact) {
        llmm_cli_vec *v = &t->ex[m];
        llmm_cli_sort(v->v, v->n);
        for (int k = 0; k < LLMM_CLI_NQ; k++)
            s->lin[k] = llmm_cli_linear_percentile(v->v, v->n, llmm_cli_q[k] * 100.0);
    }
    return LLMM_CLI_OK;
}

int llmm_cli_trace_summarize(llmm_cli_trace *t, double duration_override, llmm_cli_summary *s,
                             llmm_cli_error *err)
{
    memset(s, 0, sizeof *s);
    s->completed = t->completed;
    s->failed = t->failed;
    s->failed_unknown = t->failed_unknown > 0;
    s->one_response = t->one_response;
    s->sampled_runs = t->runs_sampled;
    s->sample_records = t->sample_records;
    s->kinds = t->kinds;
    s->total = t->completed + t->failed;
    s->error_rate = s->total && !t->so_counts_unknown ? (double)s->failed / (double)s->total : NAN;
    s->out_tokens = t->out_tokens;
    s->in_tokens = t->in_tokens;
    s->out_unknown = t->out_unknown;
    s->in_unknown = t->in_unknown;
    s->scale = LLMM_SCALE_DEFAULT;
    s->rel_error = llmm_cli_rel_error(s->scale);
    if (!isnan(duration_override)) {
        s->duration_s = duration_override;
        s->duration_source = "--duration";
    } else if (t->runs_unknown == 0 && t->runs + t->runs_stats_only > 0) {
        s->duration_s = t->duration_sum;
        int all_from = t->duration_from && t->runs_duration_from == t->runs_stated &&
                       t->runs_stats_only == 0 && t->runs_spanned == 0;
        s->duration_source =
            (t->duration_from && t->runs + t->runs_stats_only == 1) || all_from ? t->duration_from
            : t->runs_spanned == 0 ? "the benchmark's own 'duration'"
            : t->runs_stated == 0  ? "first send to last completion"
                                   : "'duration' where stated, else send-to-completion span";
    } else {
        s->duration_s = NAN;
        s->duration_source = "unknown (no start times or duration; pass --duration)";
    }
    s->req_per_s = s->tok_per_s = s->total_tok_per_s = NAN;
    if (s->duration_s > 0) {
        s->req_per_s = (double)s->completed / s->duration_s;
        if (s->out_unknown == 0)
            s->tok_per_s = (double)s->out_tokens / s->duration_s;
        if (s->out_unknown == 0 && s->in_unknown == 0)
            s->total_tok_per_s = (double)(s->out_tokens + s->in_tokens) / s->duration_s;
    }
    s->tokens_from = t->tokens_from;
    if (isnan(s->duration_s) && t->runs == 0 && t->runs_stats_only == 1 &&
        !isnan(t->so_req_rate)) { /* one run stating its rates but no duration */
        s->req_per_s = t->so_req_rate;
        s->tok_per_s = t->so_tok_rate;
        s->rates_stated = 1;
    }
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        if (summarize_metric(t, m, &s->m[m]) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "cannot summarise %s",
                                 llmm_cli_metric_label[m]);
    }
    if (t->goodput && (t->goodput_unjudged || t->runs_stats_only || t->runs_sampled)) {
        s->has_goodput = 1;
        s->good_unjudged = t->goodput_unjudged;
        s->good_stats_only = t->runs_stats_only;
        s->good_sampled = t->runs_sampled; /* a sample's good requests are not the run's */
        s->good_fraction = s->good_per_s = NAN;
    } else if (t->goodput) {
        llmm_goodput_result g;
        int known = s->duration_s > 0 && s->duration_s < 1.8e10;
        uint64_t ns = known ? (uint64_t)llround(s->duration_s * 1e9) : 1000000000u;
        llmm_status st;
        llmm_goodput_result_init(&g);
        s->has_goodput = 1;
        s->good_fraction = s->good_per_s = NAN;
        st = llmm_goodput_read(t->goodput, ns ? ns : 1, &g);
        if (st == LLMM_OK) {
            s->good = g.good;
            s->good_fraction = g.fraction;
            s->good_per_s = known ? g.rate_per_s : NAN;
        } else if (st != LLMM_E_EMPTY) {
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "goodput: %s", llmm_strerror(st));
        }
    }
    return LLMM_CLI_OK;
}

double llmm_cli_unit_per_si(const char *unit)
{
    if (unit && strcmp(unit, "req/min") == 0)
        return 60.0;
    return unit && strcmp(unit, "ms") == 0 ? 1e3 : 1.0;
}

/* A latency statistic of ours. */
static double latency_stat(const llmm_cli_trace *t, const llmm_cli_msum *m, const llmm_cli_figure *f)
{
    double v = NAN;
    if (m->count == 0)
        return NAN;
    switch (f->stat) {
    case LLMM_CLI_ST_MEAN:
        return m->mean;
    case LLMM_CLI_ST_MIN:
        return m->min;
    case LLMM_CLI_ST_MAX:
        return m->max;
    case LLMM_CLI_ST_COUNT_OF:
        return (double)m->count;
    case LLMM_CLI_ST_MEDIAN:
    case LLMM_CLI_ST_QUANTILE:
        if (t->exact && t->ex[f->metric].n > 0) /* --exact: numpy's linear, sorted above */
            return llmm_cli_linear_percentile(t->ex[f->metric].v, t->ex[f->metric].n,
                                              100.0 * (f->stat == LLMM_CLI_ST_MEDIAN ? 0.5 : f->q));
        if (llmm_sketch_quantile(t->sk[f->metric], f->stat == LLMM_CLI_ST_MEDIAN ? 0.5 : f->q,
                                 &v) != LLMM_OK)
            return NAN;
        return v;
    default:
        return NAN;
    }
}

double llmm_cli_figure_ours(const llmm_cli_trace *t, const llmm_cli_summary *s,
                            const llmm_cli_figure *f)
{
    switch (f->metric) {
    case LLMM_CLI_FM_TTFT:
    case LLMM_CLI_FM_TPOT:
    case LLMM_CLI_FM_ITL:
    case LLMM_CLI_FM_E2E:
        return latency_stat(t, &s->m[f->metric], f);
    case LLMM_CLI_FM_REQ_RATE:
        return s->req_per_s;
    case LLMM_CLI_FM_OUT_TOK_RATE:
        return s->tok_per_s;
    case LLMM_CLI_FM_TOTAL_TOK_RATE:
        return s->total_tok_per_s;
    case LLMM_CLI_FM_GOODPUT:
        return s->has_goodput ? s->good_per_s : NAN;
    case LLMM_CLI_FM_COMPLETED:
        return (double)s->completed;
    case LLMM_CLI_FM_FAILED:
        return (double)s->failed;
    case LLMM_CLI_FM_DURATION:
        return s->duration_s;
    case LLMM_CLI_FM_OUT_TOKENS:
        return s->out_unknown ? NAN : (double)s->out_tokens;
    case LLMM_CLI_FM_IN_TOKENS:
        return s->in_unknown ? NAN : (double)s->in_tokens;
    default:
        return NAN;
    }
}
