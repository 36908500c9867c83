/* report.h: the outputs of a report (analysis/report.h): text (report_text.c), JSON
 * (report_json.c), both with the tools' own figures (report_tools.c), the SVG charts of --svg (report_svg.c) and the sketch files of
 * --save-sketch (report_sketches.c). Files written are named on r->files_out (NULL: stderr). */
#ifndef LLMM_CLI_RENDER_REPORT_H
#define LLMM_CLI_RENDER_REPORT_H

#include <stdio.h>

#include "analysis/report.h"
#include "common/jsonw.h"

void llmm_cli_report_text(const llmm_cli_report *r, FILE *out);
/* report_tools.c: the tools' own figures and definitions, as text; the runs of input `input`
 * and a tool's definitions, as JSON members. */
void llmm_cli_report_tools_text(const llmm_cli_report *r, FILE *out);
void llmm_cli_report_runs_json(llmm_cli_jw *w, const llmm_cli_report *r, size_t input);
void llmm_cli_report_tool_json(llmm_cli_jw *w, const llmm_cli_tool *t);
/* "requests": {total, completed, failed} and "error_rate" of a summary (report_json.c). */
void llmm_cli_counts_json(llmm_cli_jw *w, const llmm_cli_summary *s);
int llmm_cli_report_json(const llmm_cli_report *r, FILE *out);
int llmm_cli_report_svg(const llmm_cli_report *r, llmm_cli_error *err);
int llmm_cli_report_save_sketches(const llmm_cli_report *r, llmm_cli_error *err);

#endif /* LLMM_CLI_RENDER_REPORT_H */
