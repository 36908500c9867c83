/* sweep_build.h: a load sweep for `llmm knee` made from result files (sweep_build.c) rather
 * than read from a CSV table:
 *   - from several runs of one sweep (vLLM runs at --max-concurrency 1 ... 256, the levels of
 *     a GuideLLM sweep): one row per run, its concurrency (as stated,
 *     else the mean number in flight by Little's law), its throughput (completed requests per
 *     second) and the P99 of a latency;
 *   - from one run with send times, the in-run series of doc/spec.md section 4: every 50 ms
 *     the requests in flight and the completions per second over the last window, the first
 *     and last 10 % of the samples dropped. */
#ifndef LLMM_CLI_SWEEP_BUILD_H
#define LLMM_CLI_SWEEP_BUILD_H

#include "input/input.h"
#include "input/sweep.h"

/* How the sweep is built. */
typedef struct llmm_cli_sweep_opts {
    llmm_cli_format fmt; /* of every file (AUTO: detected) */
    int latency;         /* LLMM_CLI_M_* whose P99 goes in the p99_ms column */
    int latency_given;   /* 1: --latency chose it; 0: another may stand in where every run
                            lacks its P99 (statistics-only vLLM files hold no E2E) */
    int series;          /* 1: the in-run series even with several runs (their requests on
                            one time line); 0: the series only for a single run */
    double step_s;       /* series: sampling step (0.05 s) */
    double window_s;     /* series: completions counted over this window (1 s) */
    double trim;         /* series: share of the samples dropped at each end (0.1) */
} llmm_cli_sweep_opts;

void llmm_cli_sweep_opts_init(llmm_cli_sweep_opts *o);

/* The sweep of the runs of files (or their series); s->source says which. */
int llmm_cli_sweep_build(char **files, size_t nfiles, const llmm_cli_sweep_opts *o,
                         llmm_cli_sweep *s, llmm_cli_error *err);

#endif /* LLMM_CLI_SWEEP_BUILD_H */
