/* compare.h: the outputs of `llmm compare` (analysis/compare.h): a table (compare_text.c),
 * JSON (compare_json.c) and two charts (compare_svg.c). */
#ifndef LLMM_CLI_RENDER_COMPARE_H
#define LLMM_CLI_RENDER_COMPARE_H

#include <stdio.h>

#include "analysis/compare.h"

void llmm_cli_compare_text(const llmm_cli_compare *c, FILE *out);
int llmm_cli_compare_json(const llmm_cli_compare *c, FILE *out);
/* DIR/compare_latency.svg (grouped bars: each latency quantile, one bar per run) and
 * DIR/compare_p99_vs_throughput.svg (P99 TTFT and E2E against request throughput, a point per
 * run); "wrote FILE" lines go to files_out. */
int llmm_cli_compare_svg(const llmm_cli_compare *c, const char *dir, FILE *files_out,
                         llmm_cli_error *err);

/* "a.json" or "a.json #2" (its second run): a run's name in tables and charts. */
void llmm_cli_cmp_run_name(const llmm_cli_cmp_run *r, char *buf, size_t cap);

#endif /* LLMM_CLI_RENDER_COMPARE_H */
