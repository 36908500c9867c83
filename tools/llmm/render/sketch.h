/* sketch.h: writing sketches: a .llmm file (sketch_save.c) and what `llmm quantiles` prints
 * about one, as text or JSON (quantiles.c). */
#ifndef LLMM_CLI_RENDER_SKETCH_H
#define LLMM_CLI_RENDER_SKETCH_H

#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#include "common/error.h"

/* Written through common/output.h: a temporary file beside PATH renamed over it (a device
 * or FIFO written in place, a directory refused). */
int llmm_cli_sketch_save(const char *path, const llmm_sketch *s, llmm_cli_error *err);

/* A sketch's quantiles q[0..nq) (values v, NaN when empty), with every non-empty bucket when
 * buckets is set; path names it. */
typedef struct llmm_cli_quantiles {
    const char *path;
    const llmm_sketch *s;
    const double *q, *v;
    size_t nq;
    int buckets;
} llmm_cli_quantiles;

void llmm_cli_quantiles_text(const llmm_cli_quantiles *qs, FILE *out);
int llmm_cli_quantiles_json(const llmm_cli_quantiles *qs, FILE *out);

#endif /* LLMM_CLI_RENDER_SKETCH_H */
