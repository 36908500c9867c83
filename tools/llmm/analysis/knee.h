/* knee.h: every knee estimator and the USL fit on one load sweep, side by side, with the
 * SLO-constrained capacity (knee.c): the analysis of `llmm knee` and of the demo's sweep. */
#ifndef LLMM_CLI_KNEE_H
#define LLMM_CLI_KNEE_H

#include <llmmetrics/llmmetrics.h>

#include "input/sweep.h"

typedef struct llmm_cli_knee_eval {
    llmm_knee_options opt;
    llmm_status st_inflection, st_collapse, st_kneedle, st_usl; /* per call */
    llmm_knee inflection, collapse, kneedle;
    llmm_usl usl;
    /* the cubic of the inflection estimator (for plots), on the trimmed points */
    int has_cubic;
    double cubic[4];
    size_t trim_lo, trim_hi; /* retained points [trim_lo, trim_hi) */
    /* SLO-constrained capacity, --slo-ms */
    double slo_ms;           /* NaN: not asked */
    double slo_usl_n;        /* largest N with USL latency N/X(N) <= SLO; NaN: no model */
    double slo_usl_x;        /* X at that N (NaN when N is 0 or infinite) */
    double slo_measured_n;   /* largest measured N whose P99 and all below meet it; 0 when
                                none does; NaN without the P99 column */
    double slo_measured_qps;
    /* what the output says the library's grade cannot: per estimator (LLMM_CLI_KE_*) the
     * fewest points it takes with these options, and where its knee lies against the
     * measured levels (llmm_cli_knee_where) */
    size_t need[4];
    const char *where[4];
} llmm_cli_knee_eval;

enum { LLMM_CLI_KE_INFLECTION = 0, LLMM_CLI_KE_COLLAPSE, LLMM_CLI_KE_KNEEDLE, LLMM_CLI_KE_USL };

/* Where n lies against the sweep's levels: "measured" (one of them), "interpolated" (between
 * two, a level never run), "extrapolated" (outside them). */
const char *llmm_cli_knee_where(const llmm_cli_sweep *s, double n);
/* "needs >= K points (has N)" when an estimator refused a sweep for want of points, else
 * NULL; buf holds it. */
const char *llmm_cli_knee_short(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, int e,
                                llmm_status st, char *buf, size_t cap);

/* opt: NULL for the defaults; slo_ms NaN for none. */
int llmm_cli_knee_run(const llmm_cli_sweep *s, const llmm_knee_options *opt, double slo_ms,
                      llmm_cli_knee_eval *k, llmm_cli_error *err);
const char *llmm_cli_quality_name(llmm_knee_quality q);

/* The methods' definitions, as the text and JSON outputs state them. */
extern const char *const llmm_cli_knee_def_inflection;
extern const char *const llmm_cli_knee_def_collapse;
extern const char *const llmm_cli_knee_def_kneedle;
extern const char *const llmm_cli_knee_def_usl;
extern const char *const llmm_cli_knee_def_slo;
extern const char *const llmm_cli_knee_def_where;

#endif /* LLMM_CLI_KNEE_H */
