/* report.h: the outputs of a report (analysis/report.h): text (report_text.c), JSON
 * (report_json.c), the SVG charts of --svg (report_svg.c) and the sketch files of
 * --save-sketch (report_sketches.c). Files written are named on r->files_out (NULL: stderr). */
#ifndef LLMM_CLI_RENDER_REPORT_H
#define LLMM_CLI_RENDER_REPORT_H

#include <stdio.h>

#include "analysis/report.h"

void llmm_cli_report_text(const llmm_cli_report *r, FILE *out);
int llmm_cli_report_json(const llmm_cli_report *r, FILE *out);
int llmm_cli_report_svg(const llmm_cli_report *r, llmm_cli_error *err);
int llmm_cli_report_save_sketches(const llmm_cli_report *r, llmm_cli_error *err);

#endif /* LLMM_CLI_RENDER_REPORT_H */
