/* sketchfile.h: .llmm files, one sketch each in the library's binary format
 * (llmm_sketch_serialize(), doc/format.md), shared by `merge`, `quantiles` and
 * `report --save-sketch` (sketchfile.c). */
#ifndef LLMM_CLI_SKETCHFILE_H
#define LLMM_CLI_SKETCHFILE_H

#include "cli.h"

/* Largest .llmm file read (a sketch at the finest scale over the widest range stays below). */
#define LLMM_CLI_SKETCH_FILE_MAX ((size_t)256 << 20)

int llmm_cli_sketch_load(const char *path, llmm_sketch **out, llmm_cli_error *err);
/* Written to PATH.tmp, then renamed over PATH. */
int llmm_cli_sketch_save(const char *path, const llmm_sketch *s, llmm_cli_error *err);
/* The guaranteed relative error of a scale, (b - 1) / (b + 1), b = 2^(2^-scale). */
double llmm_cli_sketch_rel_error(int32_t scale);
/* Parse a quantile argument: 0.99, p99, p99.9 or 99% → a number in [0, 1]. */
int llmm_cli_quantile_arg(const char *s, double *q);

#endif /* LLMM_CLI_SKETCHFILE_H */
