/* slo.c: the SLO verdict of doc/spec.md §2 through llmm_slo_check_quantile().
 *
 * For each latency SLO given with --slo (ttft, tpot, e2e): the P95 (or --slo-quantile) of the
 * successful requests' values must be at most the bound, and the error rate (failed / all
 * requests) at most `err` (default 0.01, the seed's value). The verdict is met when every check
 * is. With only `err` given, the error rate alone decides. (The TPOT sketch holds only requests
 * with more than one output token, so the error rate is taken from the TTFT or E2E check, or
 * computed the same way when TPOT is the only latency SLO.)
 */
#include <math.h>

#include "analysis/report.h"

int llmm_cli_slo_eval(llmm_cli_report *r, llmm_cli_error *err)
{
    static const int metric[3] = {LLMM_CLI_M_TTFT, LLMM_CLI_M_TPOT, LLMM_CLI_M_E2E};
    llmm_cli_slo *v = &r->slo_verdict;
    int any = !isnan(r->err_max);
    for (int i = 0; i < 3; i++)
        any |= !isnan(r->slo[i]);
    if (!any)
        return LLMM_CLI_OK;
    v->enabled = 1;
    v->quantile = isnan(r->slo_quantile) ? 0.95 : r->slo_quantile;
    v->err_max = isnan(r->err_max) ? 0.01 : r->err_max;
    v->error_rate = r->sum.total ? (double)r->sum.failed / (double)r->sum.total : 0.0;
    v->errors_ok = v->error_rate <= v->err_max;
    v->satisfied = 1;
    for (int i = 0; i < 3; i++) {
        llmm_cli_slo_check *c = &v->checks[v->nchecks];
        llmm_slo_result res;
        llmm_status st;
        if (isnan(r->slo[i]))
            continue;
        llmm_slo_result_init(&res);
        st = llmm_slo_check_quantile(r->trace.sk[metric[i]], r->sum.failed, v->quantile,
                                     r->slo[i], v->err_max, &res);
        if (st != LLMM_OK)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "SLO check: %s", llmm_strerror(st));
        c->metric = metric[i];
        c->bound = r->slo[i];
        c->latency = res.latency;
        c->latency_ok = res.latency_ok;
        if (metric[i] != LLMM_CLI_M_TPOT) { /* its successes are all completed requests */
            v->errors_ok = res.errors_ok;
            v->error_rate = res.error_rate;
        }
        v->satisfied &= res.latency_ok;
        v->nchecks++;
    }
    v->satisfied &= v->errors_ok;
    return LLMM_CLI_OK;
}
