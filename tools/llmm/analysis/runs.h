/* runs.h: what each run of the inputs stated about itself (record.h's llmm_cli_run), kept for
 * the report's table of the tools' own figures, `llmm compare` and `llmm knee` (runs.c), and
 * the figure of ours each of the tool's figures stands next to. */
#ifndef LLMM_CLI_RUNS_H
#define LLMM_CLI_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "input/record.h"

typedef struct llmm_cli_run_rec {
    size_t input;      /* index of the input it came from */
    uint64_t index;    /* its place in that input, from 0 */
    char label[96];    /* "" when the run states none */
    char model[96];    /* "" when the run states none */
    double duration_s, concurrency, request_rate;
    int64_t completed, failed; /* the tool's own counts, -1 unknown */
    int stats_only;
    int sampled; /* its records are a sample of its requests */
    llmm_cli_figure *fig;
    size_t nfig;
} llmm_cli_run_rec;

typedef struct llmm_cli_runs {
    llmm_cli_run_rec *v;
    size_t n, cap;
} llmm_cli_runs;

/* Keep a copy of *run (its figures too) as the next run of input `input`. */
int llmm_cli_runs_add(llmm_cli_runs *rs, size_t input, uint64_t index, const llmm_cli_run *run);
void llmm_cli_runs_free(llmm_cli_runs *rs);

/* The first of figs that measures metric with statistic stat (and quantile q for
 * LLMM_CLI_ST_QUANTILE, a median matching 0.5) and has a value, NULL when there is none. */
const llmm_cli_figure *llmm_cli_figure_find(const llmm_cli_figure *figs, size_t n, int metric,
                                            int stat, double q);
/* Its value in SI units, NaN when there is none. */
double llmm_cli_figure_si(const llmm_cli_figure *figs, size_t n, int metric, int stat, double q);

/* The tool's relation text for a figure's metric, or NULL. */
const char *llmm_cli_figure_relation(const llmm_cli_tool *tool, const llmm_cli_figure *f);
/* "mean", "median", "std", "min", "max", "p99.9", "value", "count": a figure's statistic. */
void llmm_cli_figure_stat_name(const llmm_cli_figure *f, char *buf, size_t cap);
/* "TTFT", ..., "request rate", ..., "other": a figure's metric. */
const char *llmm_cli_figure_metric_name(int metric);
/* The JSON key of the same: "ttft_s", ..., "req_per_s", ... */
const char *llmm_cli_figure_metric_key(int metric);

#endif /* LLMM_CLI_RUNS_H */
