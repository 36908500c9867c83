/* sketch.h: reading .llmm files, one sketch each in the library's binary format
 * (llmm_sketch_serialize(), doc/format.md), for `merge` and `quantiles` (sketch_load.c). The
 * writer is render/sketch_save.c. */
#ifndef LLMM_CLI_INPUT_SKETCH_H
#define LLMM_CLI_INPUT_SKETCH_H

#include <llmmetrics/llmmetrics.h>

#include "common/error.h"

/* Largest .llmm file read (a sketch at the finest scale over the widest range stays below). */
#define LLMM_CLI_SKETCH_FILE_MAX ((size_t)256 << 20)

int llmm_cli_sketch_load(const char *path, llmm_sketch **out, llmm_cli_error *err);

#endif /* LLMM_CLI_INPUT_SKETCH_H */
