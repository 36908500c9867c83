/* knee.h: the outputs of a knee analysis (analysis/knee.h): text (knee_text.c), JSON
 * (knee_json.c) and the SVG chart (knee_svg.c). */
#ifndef LLMM_CLI_RENDER_KNEE_H
#define LLMM_CLI_RENDER_KNEE_H

#include <stdio.h>

#include "analysis/knee.h"

void llmm_cli_knee_text(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                         FILE *out);
int llmm_cli_knee_json(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                       FILE *out);
/* qps_vs_concurrency.svg in dir; the path written goes to path. */
int llmm_cli_knee_svg(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *dir,
                      char *path, size_t cap, llmm_cli_error *err);

#endif /* LLMM_CLI_RENDER_KNEE_H */
