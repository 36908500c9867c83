/* results.h: what `llmm bench` writes of a level (results.c): the vLLM-shaped result file,
 * the sketch files, the 50 ms series, the sweep row, and its summary lines. Needs no libcurl. */
#ifndef LLMM_BENCH_RESULTS_H
#define LLMM_BENCH_RESULTS_H

#include <stdio.h>

#include "bench/client.h"

/* What the result file says besides the records. */
typedef struct llmm_bench_meta {
    const char *backend;  /* "openai" or "openai-chat" */
    const char *model;
    const char *label;    /* NULL: none */
} llmm_bench_meta;

/* The level's name in file names and lines: "c8" (closed loop) or "r2.5" (open loop). */
void llmm_bench_level_name(const llmm_bench_level *lv, char *buf, size_t cap);
/* Successful completions per second in the measured window: closed loop, by Little's law
 * (concurrency × success share / mean time of the window's requests); open loop, counted. */
double llmm_bench_window_qps(const llmm_bench_result *r);

/* The requests of one phase (LLMM_BENCH_WINDOW, ...): sent, succeeded, their input and output
 * tokens, failures by reason. */
typedef struct llmm_bench_counts {
    uint64_t sent, done, in, out;
    uint64_t failed[LLMM_BENCH_NREASONS];
} llmm_bench_counts;
void llmm_bench_count(const llmm_bench_result *r, int phase, llmm_bench_counts *c);

/* DIR/result-NAME.json (results_vllm.c): one vLLM result document (`vllm bench serve
 * --save-result --save-detailed` keys) of the measured window, and llmm's extension under
 * the key "llmm" (doc/bench.md): per-request lists aligned with vLLM's, the warm-up and
 * cool-down requests with the same keys. path receives its name. */
int llmm_bench_write_vllm(const char *dir, const llmm_bench_result *r, const llmm_bench_meta *m,
                          char *path, size_t cap, llmm_cli_error *err);
/* The same document to f: LLMM_CLI_OK, ENOMEM or EIO (the fuzz target's entry). */
int llmm_bench_write_vllm_to(FILE *f, const llmm_bench_result *r, const llmm_bench_meta *m);
/* DIR/NAME-ttft.llmm, -itl, -e2e (and -ttft-intended, -e2e-intended in open loop). */
int llmm_bench_write_sketches(const char *dir, const llmm_bench_result *r, llmm_cli_error *err);
/* DIR/series-NAME.csv: t_s,in_flight,completed every 50 ms. */
int llmm_bench_write_series(const char *dir, const llmm_bench_result *r, llmm_cli_error *err);
/* qsort's comparison of two doubles. */
int llmm_bench_cmp_double(const void *a, const void *b);
/* numpy.percentile's linear interpolation at q of sorted v[0..n), n > 0. */
double llmm_bench_linear(const double *v, size_t n, double q);
/* v written with fmt into buf, or an en dash when v is not finite (no NaN a person sees). */
const char *llmm_bench_num(char *buf, size_t cap, const char *fmt, double v);
/* The level's summary: counts, failures by reason, the window's QPS, latency quantiles (both
 * views in open loop), where the token counts came from. */
void llmm_bench_print_level(FILE *f, const llmm_bench_result *r);

#endif /* LLMM_BENCH_RESULTS_H */
