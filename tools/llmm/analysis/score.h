/* score.h: the four-layer score section (score.c): `--scenario` and `--metric`. */
#ifndef LLMM_CLI_SCORE_H
#define LLMM_CLI_SCORE_H

#include <stddef.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#include "common/error.h"

#define LLMM_CLI_SCORE_MAX_METRICS 64

typedef struct llmm_cli_score_metric {
    llmm_layer layer;
    char name[96];
    int from_trace;  /* the value comes from the report (NAME is a trace metric) */
    int is_default;  /* added by the report, not by --metric */
    double value, target, worst;
    llmm_direction dir;
    double score;    /* NaN until evaluated */
} llmm_cli_score_metric;

typedef struct llmm_cli_score {
    int enabled;     /* --scenario given */
    llmm_scenario scenario;
    const char *scenario_name;
    llmm_cli_score_metric metrics[LLMM_CLI_SCORE_MAX_METRICS];
    size_t n;
    /* result */
    int evaluated;
    llmm_status status;
    llmm_score_result result;
} llmm_cli_score;

/* --scenario NAME and --metric LAYER:NAME=VALUE:TARGET:WORST[:lower]. */
int llmm_cli_score_scenario(llmm_cli_score *sc, const char *name, llmm_cli_error *err);
int llmm_cli_score_metric_option(llmm_cli_score *sc, const char *arg, llmm_cli_error *err);
const char *llmm_cli_layer_name(llmm_layer l);
/* Trace metric names a --metric may use with the value '-' (from the report). */
void llmm_cli_score_trace_names(FILE *f);

#endif /* LLMM_CLI_SCORE_H */
