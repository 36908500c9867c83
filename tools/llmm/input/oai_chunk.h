/* oai_chunk.h: the containers of an OpenAI-compatible streamed chunk that the readers of
 * such chunks enter (oai_chunk.c): the root object, `choices`, its first element, that
 * element's `delta` (or `message`), and `usage`. Shared by genai-perf's reader
 * (genai_perf_sse.c) and `llmm bench` (bench/chunk.c); each labels the keys it reads, the
 * three below with these values. */
#ifndef LLMM_CLI_OAI_CHUNK_H
#define LLMM_CLI_OAI_CHUNK_H

#include "input/json.h"

/* container labels */
enum { LLMM_CLI_OAI_ROOT = 1, LLMM_CLI_OAI_CHOICES, LLMM_CLI_OAI_CHOICE, LLMM_CLI_OAI_DELTA,
       LLMM_CLI_OAI_USAGE };
/* the labels of the keys whose values are entered, and of usage's token counts */
enum { LLMM_CLI_OAI_K_CHOICES = 1, LLMM_CLI_OAI_K_USAGE, LLMM_CLI_OAI_K_DELTA,
       LLMM_CLI_OAI_K_OUT_TOK, LLMM_CLI_OAI_K_IN_TOK, LLMM_CLI_OAI_K_FIRST_FREE };

/* A json handler's open callback: the label of a container opening inside parent (NULL at
 * the top level), or LLMM_CLI_JSON_SKIP. */
int llmm_cli_oai_open(const llmm_cli_json_frame *parent, int map);

/* 1 when k (len bytes), a key of `delta` (or `message`), holds generated text: `content`,
 * `reasoning_content` or `reasoning`; 0 otherwise. */
int llmm_cli_oai_delta_text(const char *k, size_t len);
/* A key callback's answer inside `usage`: LLMM_CLI_OAI_K_OUT_TOK (completion_tokens),
 * LLMM_CLI_OAI_K_IN_TOK (prompt_tokens) or LLMM_CLI_JSON_SKIP. */
int llmm_cli_oai_usage_key(const char *k, size_t len);
/* A scalar inside `usage` (f's type LLMM_CLI_OAI_USAGE): a whole number under
 * completion_tokens goes into *out, under prompt_tokens into *in; anything else is ignored. */
void llmm_cli_oai_usage_scalar(const llmm_cli_json_frame *f, const llmm_cli_json_value *v,
                               int64_t *out, int64_t *in);

#endif /* LLMM_CLI_OAI_CHUNK_H */
