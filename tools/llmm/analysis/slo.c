/* slo.c: the SLO verdict of doc/spec.md §2 through llmm_slo_check_quantile().
 *
 * For each latency SLO given with --slo (ttft, tpot, e2e): the P95 (or --slo-quantile) of the
 * successful requests' values must be at most the bound, and the error rate (failed / all
 * requests) at most `err` (default 0.01, the seed's value). The verdict is met when every check
 * is. With only `err` given, the error rate alone decides. (The TPOT sketch holds only requests
 * with more than one output token, so the error rate is taken from the TTFT or E2E check, or
 * computed the same way when TPOT is the only latency SLO.)
 *
 * A run that holds statistics only has no sample to check: its quantile is judged only when
 * it is the only run of the report and states that very quantile (vLLM's p99 with
 * --slo-quantile 0.99), against the tool's own figure, labelled with the tool's rule; else the
 * check is "not judged", never met. Its error rate comes from its stated counts. A run that
 * lists only a sample of its requests (GuideLLM) is judged the same way: the sample's
 * quantile is not the run's.
 */
#include <math.h>
#include <stdio.h>

#include "analysis/report.h"

/* The quantile q of metric m as the only run's tool states it, or NaN. */
static double stated_quantile(const llmm_cli_report *r, int m, double q, llmm_cli_slo_check *c)
{
    const llmm_cli_runs *rs = &r->trace.run_list;
    const llmm_cli_figure *f;
    if (rs->n != 1 || !(rs->v[0].stats_only || rs->v[0].sampled))
        return NAN;
    f = llmm_cli_figure_find(rs->v[0].fig, rs->v[0].nfig, m, LLMM_CLI_ST_QUANTILE, q);
    if (f && f->si >= 0) {
        snprintf(c->figure, sizeof c->figure, "%s", f->name);
        for (size_t k = 0; k < r->ninputs; k++)
            if (r->inputs[k].info.tool)
                c->rule = r->inputs[k].info.tool->percentiles;
        return f->si;
    }
    return NAN;
}

/* A latency check of a report whose metric has no sample. */
static void check_stated(const llmm_cli_report *r, const llmm_cli_slo *v, llmm_cli_slo_check *c)
{
    double x = stated_quantile(r, c->metric, v->quantile, c);
    c->judged = !isnan(x);
    c->latency = x;
    c->latency_ok = c->judged && x <= c->bound;
}

int llmm_cli_slo_eval(llmm_cli_report *r, llmm_cli_error *err)
{
    static const int metric[3] = {LLMM_CLI_M_TTFT, LLMM_CLI_M_TPOT, LLMM_CLI_M_E2E};
    llmm_cli_slo *v = &r->slo_verdict;
    int any = !isnan(r->err_max), stats_only = r->trace.runs_stats_only > 0;
    for (int i = 0; i < 3; i++)
        any |= !isnan(r->slo[i]);
    if (!any)
        return LLMM_CLI_OK;
    v->enabled = 1;
    v->quantile = isnan(r->slo_quantile) ? 0.95 : r->slo_quantile;
    v->err_max = isnan(r->err_max) ? 0.01 : r->err_max;
    v->error_rate = r->sum.total ? (double)r->sum.failed / (double)r->sum.total : 0.0;
    v->errors_judged = !isnan(r->sum.error_rate) || r->sum.total == 0;
    if (!v->errors_judged) {
        v->error_rate = NAN;
        v->errors_why =
            r->sum.failed_unknown ? "failures not stated" : "a run states no request counts";
    }
    v->errors_ok = v->errors_judged && v->error_rate <= v->err_max;
    v->satisfied = 1;
    for (int i = 0; i < 3; i++) {
        llmm_cli_slo_check *c = &v->checks[v->nchecks];
        llmm_slo_result res;
        llmm_status st;
        if (isnan(r->slo[i]))
            continue;
        c->metric = metric[i];
        c->bound = r->slo[i];
        c->figure[0] = '\0';
        c->rule = NULL;
        v->nchecks++;
        /* a run listing a sample: the tool's own quantile over all its requests, if stated */
        if ((stats_only && llmm_sketch_count(r->trace.sk[metric[i]]) == 0) ||
            r->sum.sampled_runs) {
            check_stated(r, v, c);
            v->by_tool += c->judged;
            v->unjudged += !c->judged;
            v->satisfied &= !c->judged || c->latency_ok;
            continue;
        }
        llmm_slo_result_init(&res);
        st = llmm_slo_check_quantile(r->trace.sk[metric[i]], r->sum.failed, v->quantile,
                                     r->slo[i], v->err_max, &res);
        if (st != LLMM_OK)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "SLO check: %s", llmm_strerror(st));
        c->judged = 1;
        v->by_us++;
        c->latency = res.latency;
        c->latency_ok = res.latency_ok;
        /* its successes are all completed requests (not so with runs of statistics only) */
        if (metric[i] != LLMM_CLI_M_TPOT && !stats_only && !r->sum.sampled_runs) {
            v->errors_ok = res.errors_ok;
            v->error_rate = res.error_rate;
        }
        v->satisfied &= res.latency_ok;
    }
    v->unjudged += !v->errors_judged;
    v->satisfied &= v->errors_ok || !v->errors_judged;
    return LLMM_CLI_OK;
}
