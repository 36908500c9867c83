/* dataset.h: prompts from a file for `llmm bench --dataset` (dataset.c): a ShareGPT JSON
 * array, or JSON Lines of prompts. Needs no libcurl. */
#ifndef LLMM_BENCH_DATASET_H
#define LLMM_BENCH_DATASET_H

#include "bench/client.h"

/* Largest dataset file read. */
#define LLMM_BENCH_DATASET_MAX ((size_t)2 << 30)

/* Read the prompts of buf (len bytes, named name in messages):
 *   - ShareGPT: a list of objects whose `conversations` (or `conversation`) list holds at
 *     least two turns; the first turn's `value` is the prompt and the second's the reference
 *     completion (its length, in words, is max_tokens unless out_len > 0), as vLLM reads it;
 *     kept as vLLM keeps them, lengths counted in words (no tokenizer): prompt and
 *     completion at least 4, prompt at most 1024, both together at most 2048;
 *   - JSON Lines: one object per line with a `prompt` string and optionally `output_len` (or
 *     `max_tokens`), else out_len (else 64).
 * Input lengths are word counts. LLMM_CLI_OK, EPARSE (not JSON, or no usable prompt) or
 * ENOMEM. */
int llmm_bench_dataset_parse(const char *buf, size_t len, const char *name, int64_t out_len,
                             llmm_bench_prompts *out, llmm_cli_error *err);
/* The same from a file. */
int llmm_bench_dataset_read(const char *path, int64_t out_len, llmm_bench_prompts *out,
                            llmm_cli_error *err);
/* s (n bytes) as a JSON string literal in new memory; NULL out of memory. */
char *llmm_bench_json_string(const char *s, size_t n);

#endif /* LLMM_BENCH_DATASET_H */
