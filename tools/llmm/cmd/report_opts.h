/* report_opts.h: what `llmm demo` takes from `llmm report`: its options (report_opts.c) and
 * its run (report.c). */
#ifndef LLMM_CLI_REPORT_OPTS_H
#define LLMM_CLI_REPORT_OPTS_H

#include "analysis/report.h"
#include "cmd/command.h"

/* The options of `llmm report` (command.h's spec), in the order of their ids below. */
#define LLMM_CLI_REPORT_OPTIONS                                                                \
    "json exact format= slo= duration= scenario= metric= watch= lookback= collapse-window= "   \
    "spike-interval= spike-warmup= slo-quantile= event= save-sketch= svg= host-signals= "      \
    "host-threshold="

enum {
    OPT_JSON = LLMM_CLI_OPT,
    OPT_EXACT,
    OPT_FORMAT,
    OPT_SLO,
    OPT_DURATION,
    OPT_SCENARIO,
    OPT_METRIC,
    OPT_WATCH,
    OPT_LOOKBACK,
    OPT_COLLAPSE_WINDOW,
    OPT_SPIKE_INTERVAL,
    OPT_SPIKE_WARMUP,
    OPT_SLO_QUANTILE,
    OPT_EVENT,
    OPT_SAVE_SKETCH,
    OPT_SVG,
    OPT_HOST_SIGNALS,
    OPT_HOST_THRESHOLD,
    OPT_REPORT_END /* the first id after the report's options */
};

/* Apply one report option; LLMM_CLI_EUSAGE with a message on a bad value. */
int llmm_cli_report_option(llmm_cli_report *r, int opt, const char *arg, llmm_cli_error *err);

/* Build the report on files, write it to out (text or JSON) and write its files (--svg,
 * --save-sketch). Returns the exit status: 0 ok, 1 input or computation error (message on
 * stderr). */
int llmm_cli_report_run(llmm_cli_report *r, char **files, size_t nfiles, FILE *out);

#endif /* LLMM_CLI_REPORT_OPTS_H */
