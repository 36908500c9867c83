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
    "second, each run against the run with the shortest mean input (its baseline) among the "
    "runs of the same model and the same stated concurrency and request rate, for runs whose "
    "mean input is at least 5 % longer";
const char *const llmm_cli_cmp_def_runs =
    "one column per run: a file of one run, each document of a vLLM --append-result or SGLang "
    "JSONL file, each GuideLLM benchmark, each genai-perf experiment; figures are ours (nearest "
    "rank from sketches) unless marked '*', the tool's own figure of a run that holds "
    "statistics only (its counts, failures and duration as the file states them); '-' where "
    "neither we nor the tool have the figure";

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

/* Where a run holds statistics only: the tool's percentiles that are the comparison's, and
 * its rates where its counts and duration give none. */
static void from_figures(llmm_cli_cmp_run *r, const llmm_cli_run *run)
{
    for (size_t i = 0; i < run->nfig; i++) {
        const llmm_cli_figure *f = &run->fig[i];
        double q = f->stat == LLMM_CLI_ST_MEDIAN ? 0.5 : f->q;
        if (f->stat == LLMM_CLI_ST_MEAN && f->metric == LLMM_CLI_FM_IN_TOKENS)
            r->in_mean = f->si; /* the tool's mean length beats a total rounded from it */
        else if (f->stat == LLMM_CLI_ST_MEAN && f->metric == LLMM_CLI_FM_OUT_TOKENS)
            r->out_mean = f->si;
        if (f->metric == LLMM_CLI_FM_REQ_RATE && isnan(r->sum.req_per_s))
            r->sum.req_per_s = f->si;
        else if (f->metric == LLMM_CLI_FM_OUT_TOK_RATE && isnan(r->sum.tok_per_s))
            r->sum.tok_per_s = f->si;
        if (f->stat != LLMM_CLI_ST_MEDIAN && f->stat != LLMM_CLI_ST_QUANTILE)
            continue;
        for (int m = 0; m < LLMM_CLI_CMP_NM; m++)
            for (int k = 0; k < LLMM_CLI_CMP_NQ; k++)
                if (f->metric == llmm_cli_cmp_metric[m] && fabs(q - llmm_cli_cmp_q[k]) < 1e-9) {
                    r->lat[m][k] = f->si;
                    r->from_tool[m][k] = 1;
                }
    }
    r->rates_from_tool = 1;
    r->completed_stated = run->completed >= 0;
    r->failed_from_tool = run->failed >= 0;
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
    snprintf(r->model, sizeof r->model, "%s", run->model ? run->model : "");
    r->baseline = SIZE_MAX;
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
    if (run->stats_only)
        from_figures(r, run);
    return LLMM_CLI_OK;
}

/* Are runs a and b of one model and one configuration (stated load)? */
static int alike(const llmm_cli_cmp_run *a, const llmm_cli_cmp_run *b)
{
    int conc = (isnan(a->concurrency) && isnan(b->concurrency)) || a->concurrency == b->concurrency;
    int rate =
        (isnan(a->request_rate) && isnan(b->request_rate)) || a->request_rate == b->request_rate;
    return strcmp(a->model, b->model) == 0 && conc && rate;
}

/* Each run's decay against the run with the shortest mean input among the runs like it. */
static void decay(llmm_cli_compare *c)
{
    int longer_unlike = 0;
    for (size_t i = 0; i < c->n; i++) {
        llmm_cli_cmp_run *r = &c->runs[i];
        size_t base = SIZE_MAX;
        double d;
        if (isnan(r->in_mean) || !(r->sum.tok_per_s > 0)) {
            r->decay_why = "no mean input length or output token rate";
            continue;
        }
        for (size_t k = 0; k < c->n; k++) {
            const llmm_cli_cmp_run *b = &c->runs[k];
            if (isnan(b->in_mean) || !(b->sum.tok_per_s > 0))
                continue;
            if (!alike(r, b)) {
                longer_unlike |= r->in_mean >= 1.05 * b->in_mean;
                continue;
            }
            if (base == SIZE_MAX || b->in_mean < c->runs[base].in_mean)
                base = k;
        }
        if (base == i || r->in_mean < 1.05 * c->runs[base].in_mean) {
            r->decay_why = base == i ? "the shortest input of its model and load: a baseline"
                                     : "no run of its model and load with a 5 % shorter input";
            continue;
        }
        if (llmm_seqlen_decay(c->runs[base].sum.tok_per_s, r->sum.tok_per_s, &d) == LLMM_OK) {
            r->decay = d;
            r->baseline = base;
            c->has_decay = 1;
        }
    }
    c->has_decay |= longer_unlike;
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
