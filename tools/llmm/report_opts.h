/* report_opts.h: the options `llmm report` and `llmm demo` share (getopt_long). */
#ifndef LLMM_CLI_REPORT_OPTS_H
#define LLMM_CLI_REPORT_OPTS_H

#include <getopt.h>

#include "report.h"

enum {
    OPT_JSON = 1000,
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
    OPT_LAST_REPORT_OPTION
};

#define LLMM_CLI_REPORT_LONGOPTS                                                             \
    {"json", no_argument, NULL, OPT_JSON}, {"exact", no_argument, NULL, OPT_EXACT},          \
        {"format", required_argument, NULL, OPT_FORMAT},                                     \
        {"slo", required_argument, NULL, OPT_SLO},                                           \
        {"duration", required_argument, NULL, OPT_DURATION},                                 \
        {"scenario", required_argument, NULL, OPT_SCENARIO},                                 \
        {"metric", required_argument, NULL, OPT_METRIC},                                     \
        {"watch", required_argument, NULL, OPT_WATCH},                                       \
        {"lookback", required_argument, NULL, OPT_LOOKBACK},                                 \
        {"collapse-window", required_argument, NULL, OPT_COLLAPSE_WINDOW},                   \
        {"spike-interval", required_argument, NULL, OPT_SPIKE_INTERVAL},                     \
        {"spike-warmup", required_argument, NULL, OPT_SPIKE_WARMUP},                         \
        {"slo-quantile", required_argument, NULL, OPT_SLO_QUANTILE},                         \
        {"event", required_argument, NULL, OPT_EVENT},                                       \
        {"save-sketch", required_argument, NULL, OPT_SAVE_SKETCH},                           \
        {"svg", required_argument, NULL, OPT_SVG}

/* Apply one report option; LLMM_CLI_EUSAGE with a message on a bad value. */
int llmm_cli_report_option(llmm_cli_report *r, int opt, const char *arg, llmm_cli_error *err);

#endif /* LLMM_CLI_REPORT_OPTS_H */
