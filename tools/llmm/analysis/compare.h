/* compare.h: `llmm compare`'s model: every run of the inputs summarised on its own (compare.c),
 * side by side: throughput, TTFT / TPOT / E2E at P50, P99 and P99.9, goodput, error rate, and
 * the sequence-length decay between runs that differ in input length. Written by
 * render/compare_*.c. */
#ifndef LLMM_CLI_COMPARE_H
#define LLMM_CLI_COMPARE_H

#include "analysis/trace.h"
#include "input/input.h"

/* The latencies and quantiles the comparison shows. */
#define LLMM_CLI_CMP_NM 3 /* TTFT, TPOT, E2E */
#define LLMM_CLI_CMP_NQ 3 /* P50, P99, P99.9 */
extern const int llmm_cli_cmp_metric[LLMM_CLI_CMP_NM]; /* LLMM_CLI_M_* */
extern const double llmm_cli_cmp_q[LLMM_CLI_CMP_NQ];
extern const char *const llmm_cli_cmp_q_label[LLMM_CLI_CMP_NQ]; /* "P99.9" */
extern const char *const llmm_cli_cmp_q_key[LLMM_CLI_CMP_NQ];   /* "p99_9" */

typedef struct llmm_cli_cmp_run {
    const char *path;      /* the input it came from */
    llmm_cli_format fmt;
    const llmm_cli_tool *tool;
    uint64_t index;        /* its place in the input, from 0 */
    uint64_t of;           /* runs of that input */
    char label[96];
    char model[96];        /* "" when the run names none */
    int stats_only;        /* no samples: the figures below are the tool's own */
    int completed_stated;  /* statistics only: the tool states its completed requests */
    double concurrency, request_rate; /* stated, NaN when not */
    llmm_cli_summary sum;  /* ours (counts, rates, goodput) */
    double lat[LLMM_CLI_CMP_NM][LLMM_CLI_CMP_NQ]; /* seconds; NaN: not measured */
    int from_tool[LLMM_CLI_CMP_NM][LLMM_CLI_CMP_NQ]; /* the tool's own figure */
    int rates_from_tool;   /* req/s, tok/s and counts are the tool's own figures */
    int failed_from_tool;  /* the tool states its failures */
    double in_mean, out_mean; /* tokens per completed request; NaN unknown */
    double decay;          /* sequence-length decay against the baseline run; NaN: none */
    size_t baseline;       /* that run (SIZE_MAX: none) */
    const char *decay_why; /* why there is no decay, NULL when there is one (static) */
} llmm_cli_cmp_run;

typedef struct llmm_cli_compare {
    /* options */
    llmm_cli_format fmt;
    double slo[3];   /* goodput limits (ttft, tpot, e2e), NaN: none */
    /* results */
    llmm_cli_cmp_run *runs;
    size_t n, cap;
    int has_decay; /* some run has a decay, or has none only for want of a like run */
} llmm_cli_compare;

void llmm_cli_compare_init(llmm_cli_compare *c);
void llmm_cli_compare_free(llmm_cli_compare *c);
/* Read the files, one summary per run, then the decay. */
int llmm_cli_compare_build(llmm_cli_compare *c, char **files, size_t nfiles, llmm_cli_error *err);

/* Definitions the outputs print. */
extern const char *const llmm_cli_cmp_def_decay;
extern const char *const llmm_cli_cmp_def_runs;

#endif /* LLMM_CLI_COMPARE_H */
