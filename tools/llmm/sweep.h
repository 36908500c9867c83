/* sweep.h: a load sweep (concurrency, QPS[, P99]) for `llmm knee`: reading the CSV (sweep.c),
 * the estimators side by side (knee_eval.c), the synthetic sweep of the demo (sweep.c). */
#ifndef LLMM_CLI_SWEEP_H
#define LLMM_CLI_SWEEP_H

#include "cli.h"

typedef struct llmm_cli_sweep {
    double *conc, *qps, *p99_ms; /* one point per distinct concurrency, increasing; p99_ms NULL
                                    without the column */
    size_t n;                    /* distinct concurrencies */
    size_t rows;                 /* data rows read */
    int has_p99;
} llmm_cli_sweep;

/* CSV `concurrency,qps[,p99_ms]`, header line optional, '#' comments and blank lines
 * skipped. Rows of equal concurrency are averaged (QPS and P99 alike). `name` labels errors. */
int llmm_cli_sweep_parse(const char *buf, size_t len, const char *name, llmm_cli_sweep *s,
                         llmm_cli_error *err);
/* The same from a file ("-" for stdin). */
int llmm_cli_sweep_read(const char *path, llmm_cli_sweep *s, llmm_cli_error *err);
void llmm_cli_sweep_free(llmm_cli_sweep *s);

/* Write a synthetic, seeded sweep as CSV (the demo's): a USL-shaped server (λ = 9 QPS,
 * σ = 0.02, κ = 0.0004) measured at 4 … 160 concurrent requests in steps of 4, three noisy
 * repeats per step, with a P99 column growing as queueing sets in. */
int llmm_cli_sweep_generate(FILE *out, uint64_t seed);

/* Every estimator on one sweep. */
typedef struct llmm_cli_knee_eval {
    llmm_knee_options opt;
    llmm_status st_inflection, st_collapse, st_kneedle, st_usl; /* per call */
    llmm_knee inflection, collapse, kneedle;
    llmm_usl usl;
    /* the cubic of the inflection estimator (for plots), on the trimmed points */
    int has_cubic;
    double cubic[4];
    size_t trim_lo, trim_hi;    /* retained points [trim_lo, trim_hi) */
    /* SLO-constrained capacity, --slo-ms */
    double slo_ms;              /* NaN: not asked */
    double slo_usl_n;           /* largest N with USL latency N/X(N) <= SLO; NaN: no model */
    double slo_usl_x;           /* X at that N (NaN when N is 0 or infinite) */
    double slo_measured_n;      /* largest measured N whose P99 and all below meet it; 0 when
                                   none does; NaN without the P99 column */
    double slo_measured_qps;
} llmm_cli_knee_eval;

/* opt: NULL for the defaults; slo_ms NaN for none. */
int llmm_cli_knee_run(const llmm_cli_sweep *s, const llmm_knee_options *opt, double slo_ms,
                      llmm_cli_knee_eval *k, llmm_cli_error *err);
void llmm_cli_knee_print(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                         FILE *out);
int llmm_cli_knee_json(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                       FILE *out);
/* qps_vs_concurrency.svg in dir; the path written goes to path. */
int llmm_cli_knee_svg(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *dir,
                      char *path, size_t cap, llmm_cli_error *err);
const char *llmm_cli_quality_name(llmm_knee_quality q);

#endif /* LLMM_CLI_SWEEP_H */
