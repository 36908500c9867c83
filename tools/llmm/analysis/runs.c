/* runs.c: the runs of the inputs and their figures (runs.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/runs.h"
#include "common/array.h"

int llmm_cli_runs_add(llmm_cli_runs *rs, size_t input, uint64_t index, const llmm_cli_run *run)
{
    llmm_cli_run_rec *r;
    if (llmm_cli_grow(&rs->v, &rs->cap, rs->n + 1, sizeof *rs->v, 8) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    r = &rs->v[rs->n];
    memset(r, 0, sizeof *r);
    if (run->nfig) {
        r->fig = malloc(run->nfig * sizeof *r->fig);
        if (!r->fig)
            return LLMM_CLI_ENOMEM;
        memcpy(r->fig, run->fig, run->nfig * sizeof *r->fig);
        r->nfig = run->nfig;
    }
    r->input = input;
    r->index = index;
    snprintf(r->label, sizeof r->label, "%s", run->label ? run->label : "");
    snprintf(r->model, sizeof r->model, "%s", run->model ? run->model : "");
    r->duration_s = run->duration_s;
    r->concurrency = run->concurrency;
    r->request_rate = run->request_rate;
    r->completed = run->completed;
    r->failed = run->failed;
    r->stats_only = run->stats_only;
    r->sampled = run->sampled;
    rs->n++;
    return LLMM_CLI_OK;
}

void llmm_cli_runs_free(llmm_cli_runs *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        free(rs->v[i].fig);
    free(rs->v);
    memset(rs, 0, sizeof *rs);
}

const llmm_cli_figure *llmm_cli_figure_find(const llmm_cli_figure *figs, size_t n, int metric,
                                            int stat, double q)
{
    for (size_t i = 0; i < n; i++) {
        const llmm_cli_figure *f = &figs[i];
        if (f->metric != metric || isnan(f->si))
            continue;
        if (f->stat == stat && (stat != LLMM_CLI_ST_QUANTILE || fabs(f->q - q) < 1e-9))
            return f;
        if (stat == LLMM_CLI_ST_QUANTILE && f->stat == LLMM_CLI_ST_MEDIAN && fabs(q - 0.5) < 1e-9)
            return f;
    }
    return NULL;
}

double llmm_cli_figure_si(const llmm_cli_figure *figs, size_t n, int metric, int stat, double q)
{
    const llmm_cli_figure *f = llmm_cli_figure_find(figs, n, metric, stat, q);
    return f ? f->si : NAN;
}

const char *llmm_cli_figure_relation(const llmm_cli_tool *tool, const llmm_cli_figure *f)
{
    if (!tool || f->metric < 0 || f->metric > LLMM_CLI_FM_GOODPUT)
        return NULL;
    return tool->relation[f->metric];
}

void llmm_cli_figure_stat_name(const llmm_cli_figure *f, char *buf, size_t cap)
{
    static const char *const names[] = {"value", "mean", "median", "std", "min", "max",
                                        "quantile", "count"};
    if (f->stat == LLMM_CLI_ST_QUANTILE)
        snprintf(buf, cap, "p%g", 100.0 * f->q);
    else
        snprintf(buf, cap, "%s", f->stat >= 0 && f->stat <= LLMM_CLI_ST_COUNT_OF ? names[f->stat] : "?");
}

const char *llmm_cli_figure_metric_name(int metric)
{
    static const char *const names[LLMM_CLI_FM_COUNT] = {
        "TTFT", "TPOT", "ITL", "E2E", "request rate", "output token rate", "total token rate",
        "goodput", "completed", "failed", "duration", "output tokens", "input tokens", "other"};
    return metric >= 0 && metric < LLMM_CLI_FM_COUNT ? names[metric] : "other";
}

const char *llmm_cli_figure_metric_key(int metric)
{
    static const char *const keys[LLMM_CLI_FM_COUNT] = {
        "ttft_s", "tpot_s", "itl_s", "e2e_s", "req_per_s", "tok_per_s", "total_tok_per_s",
        "goodput_req_per_s", "completed", "failed", "duration_s", "output_tokens",
        "input_tokens", "other"};
    return metric >= 0 && metric < LLMM_CLI_FM_COUNT ? keys[metric] : "other";
}
