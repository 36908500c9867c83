/* compare.c: every run of the inputs on its own, side by side (compare.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/perrun.h"
#include "common/array.h"

const int llmm_cli_cmp_metric[LLMM_CLI_CMP_NM] = {LLMM_CLI_M_TTFT, LLMM_CLI_M_TPOT,
                                                  LLMM_CLI_M_E2E};
const double llmm_cli_cmp_q[LLMM_CLI_CMP_NQ] = {0.5, 0.99, 0.999};
const char *const llmm_cli_cmp_q_label[LLMM_CLI_CMP_NQ] = {"P50", "P99", "P99.9"};
const char *const llmm_cli_cmp_q_key[LLMM_CLI_CMP_NQ] = {"p50", "p99", "p99_9"};

const char *const llmm_cli_cmp_def_decay =
    "sequence-length decay (doc/spec.md section 3) = 1 - T_long / T_short, T = output tokens per "
    "second, each run against the run with the shortest mean input (the baseline), for runs "
    "whose mean input is at least 5 % longer";
const char *const llmm_cli_cmp_def_runs =
    "one column per run: a file of one run, each document of a vLLM --append-result or SGLang "
    "JSONL file, each GuideLLM benchmark, each genai-perf experiment; figures are ours (nearest "
    "rank from sketches) unless marked '*', the tool's own figure of a run that holds "
    "statistics only";

void llmm_cli_compare_init(llmm_cli_compare *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++)
        c->slo[i] = NAN;
}

void llmm_cli_compare_free(llmm_cli_compare *c)
{
    free(c->runs);
    c->runs = NULL;
    c->n = c->cap = 0;
}

/* Where a run holds statistics only: the tool's figures that say the same as ours. */
static void from_figures(llmm_cli_cmp_run *r, const llmm_cli_run *run)
{
    for (size_t i = 0; i < run->nfig; i++) {
        const llmm_cli_figure *f = &run->fig[i];
        double q = f->stat == LLMM_CLI_ST_MEDIAN ? 0.5 : f->q;
        if (f->metric == LLMM_CLI_FM_REQ_RATE) {
            r->sum.req_per_s = f->si;
            r->rates_from_tool = 1;
        } else if (f->metric == LLMM_CLI_FM_OUT_TOK_RATE) {
            r->sum.tok_per_s = f->si;
            r->rates_from_tool = 1;
        } else if (f->metric == LLMM_CLI_FM_COMPLETED && f->si >= 0 && f->si < 9e15) {
            r->sum.completed = (uint64_t)f->si;
            r->rates_from_tool = 1;
        } else if (f->metric == LLMM_CLI_FM_FAILED && f->si >= 0 && f->si < 9e15) {
            r->sum.failed = (uint64_t)f->si;
            r->failed_from_tool = 1;
        }
        if (f->stat != LLMM_CLI_ST_MEDIAN && f->stat != LLMM_CLI_ST_QUANTILE)
            continue;
        for (int m = 0; m < LLMM_CLI_CMP_NM; m++)
            for (int k = 0; k < LLMM_CLI_CMP_NQ; k++)
                if (f->metric == llmm_cli_cmp_metric[m] && fabs(q - llmm_cli_cmp_q[k]) < 1e-9) {
                    r->lat[m][k] = f->si;
                    r->from_tool[m][k] = 1;
                }
    }
}

static int on_run(void *user, const llmm_cli_run_src *src, const llmm_cli_run *run,
                  const llmm_cli_trace *t, const llmm_cli_summary *s, llmm_cli_error *err)
{
    llmm_cli_compare *c = user;
    llmm_cli_cmp_run *r;
    if (llmm_cli_grow(&c->runs, &c->cap, c->n + 1, sizeof *c->runs, 8) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    r = &c->runs[c->n++];
    memset(r, 0, sizeof *r);
    r->path = src->path;
    r->fmt = src->fmt;
    r->index = src->index;
    snprintf(r->label, sizeof r->label, "%s", run->label ? run->label : "");
    r->stats_only = run->stats_only;
    r->concurrency = run->concurrency;
    r->request_rate = run->request_rate;
    r->sum = *s;
    r->decay = NAN;
    r->in_mean = s->completed && !s->in_unknown ? (double)s->in_tokens / (double)s->completed
                                                : NAN;
    r->out_mean = s->completed && !s->out_unknown ? (double)s->out_tokens / (double)s->completed
                                                  : NAN;
    for (int m = 0; m < LLMM_CLI_CMP_NM; m++) {
        for (int k = 0; k < LLMM_CLI_CMP_NQ; k++) {
            double v = NAN;
            const llmm_sketch *sk = t->sk[llmm_cli_cmp_metric[m]];
            if (llmm_sketch_count(sk) > 0 && llmm_sketch_quantile(sk, llmm_cli_cmp_q[k], &v) != LLMM_OK)
                v = NAN;
            r->lat[m][k] = v;
        }
    }
    if (run->stats_only) {
        from_figures(r, run);
        r->sum.total = r->sum.completed + r->sum.failed;
        r->sum.error_rate = r->failed_from_tool && r->sum.total
                                ? (double)r->sum.failed / (double)r->sum.total
                                : NAN;
    }
    return LLMM_CLI_OK;
}

/* Each run's decay against the run with the shortest mean input. */
static void decay(llmm_cli_compare *c)
{
    size_t base = SIZE_MAX;
    for (size_t i = 0; i < c->n; i++) {
        const llmm_cli_cmp_run *r = &c->runs[i];
        if (isnan(r->in_mean) || !(r->sum.tok_per_s > 0))
            continue;
        if (base == SIZE_MAX || r->in_mean < c->runs[base].in_mean)
            base = i;
    }
    if (base == SIZE_MAX)
        return;
    for (size_t i = 0; i < c->n; i++) {
        llmm_cli_cmp_run *r = &c->runs[i];
        double d;
        if (i == base || isnan(r->in_mean) || !(r->sum.tok_per_s > 0) ||
            r->in_mean < 1.05 * c->runs[base].in_mean)
            continue;
        if (llmm_seqlen_decay(c->runs[base].sum.tok_per_s, r->sum.tok_per_s, &d) == LLMM_OK) {
            r->decay = d;
            c->has_decay = 1;
            c->baseline = base;
        }
    }
}

int llmm_cli_compare_build(llmm_cli_compare *c, char **files, size_t nfiles, llmm_cli_error *err)
{
    const llmm_cli_tool **tools = calloc(nfiles, sizeof *tools);
    int rc;
    if (!tools)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    rc = llmm_cli_per_run(files, nfiles, c->fmt, c->slo, on_run, c, tools, err);
    for (size_t i = 0; rc == LLMM_CLI_OK && i < c->n; i++) {
        llmm_cli_cmp_run *r = &c->runs[i];
        for (size_t f = 0; f < nfiles; f++)
            if (files[f] == r->path)
                r->tool = tools[f];
        for (size_t k = 0; k < c->n; k++)
            if (c->runs[k].path == r->path)
                r->of++;
    }
    free(tools);
    if (rc == LLMM_CLI_OK && c->n == 0)
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "no run in the inputs");
    if (rc == LLMM_CLI_OK)
        decay(c);
    return rc;
}
