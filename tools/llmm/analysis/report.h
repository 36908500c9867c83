/* report.h: the model of one `llmm report` run: its options, inputs, trace and summary, and
 * one section per analysis; built by report.c and the section files (slo.c, spikes.c,
 * collapse.c, score.c), written by the renderers (render/report.h).
 *
 * Adding a section: a header and a file in this folder (its struct and its eval function), a
 * member of llmm_cli_report, an entry in report.c's sections[], and its text and JSON
 * renderings (render/report_text.c, render/report_json.c).
 */
#ifndef LLMM_CLI_REPORT_H
#define LLMM_CLI_REPORT_H

#include <stdio.h>

#include "analysis/collapse.h"
#include "analysis/hostsig.h"
#include "analysis/score.h"
#include "analysis/slo.h"
#include "analysis/spikes.h"
#include "analysis/timeline.h"
#include "analysis/trace.h"
#include "input/input.h"

/* ---- the report --------------------------------------------------------------------------- */

typedef struct llmm_cli_input {
    const char *path;
    llmm_cli_format fmt;
    llmm_cli_input_info info;
} llmm_cli_input;

typedef struct llmm_cli_report {
    /* options */
    int json, exact;
    llmm_cli_format fmt;
    double slo[3];        /* ttft, tpot, e2e in seconds; NaN = not given */
    double err_max;       /* SLO error-rate bound; NaN = not given */
    double slo_quantile;  /* quantile the SLO verdict checks; NaN = 0.95 */
    const char *slo_text; /* --slo as given */
    const char *save_sketch_dir; /* --save-sketch DIR */
    const char *svg_dir;         /* --svg DIR */
    FILE *files_out;             /* where "wrote FILE" lines go (NULL: stderr) */
    double duration_override;
    int watch;            /* metric of the time-ordered sections, LLMM_CLI_M_TTFT by default */
    double lookback;      /* spike attribution look-back, seconds; NaN = 2 s */
    double collapse_window; /* seconds after a switch; NaN = 2 s */
    llmm_cli_event cli_events[64]; /* --event, on the merged time line */
    size_t ncli_events;
    llmm_cli_host host; /* --host-signals, --host-threshold, and what the file held */
    llmm_cli_score score;
    llmm_cli_spikes spikes;
    llmm_cli_slo slo_verdict;
    llmm_cli_collapse collapse;
    /* results */
    llmm_cli_input *inputs;
    size_t ninputs;
    llmm_cli_trace trace;
    llmm_cli_summary sum;
} llmm_cli_report;

void llmm_cli_report_init(llmm_cli_report *r);
void llmm_cli_report_free(llmm_cli_report *r);
/* Read the files into the trace, summarise it and evaluate every section. */
int llmm_cli_report_build(llmm_cli_report *r, char **files, size_t nfiles, llmm_cli_error *err);

/* The sections, in the order report.c's sections[] runs them after the summary. */
int llmm_cli_slo_eval(llmm_cli_report *r, llmm_cli_error *err);      /* the SLO verdict */
int llmm_cli_spikes_eval(llmm_cli_report *r, llmm_cli_error *err);   /* spikes over time */
int llmm_cli_collapse_eval(llmm_cli_report *r, llmm_cli_error *err); /* around switches */
int llmm_cli_score_eval(llmm_cli_report *r, llmm_cli_error *err);    /* with --scenario */

#endif /* LLMM_CLI_REPORT_H */
