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
/* the labels of the keys whose values are entered */
enum { LLMM_CLI_OAI_K_CHOICES = 1, LLMM_CLI_OAI_K_USAGE, LLMM_CLI_OAI_K_DELTA,
       LLMM_CLI_OAI_K_FIRST_FREE };

/* A json handler's open callback: the label of a container opening inside parent (NULL at
 * the top level), or LLMM_CLI_JSON_SKIP. */
int llmm_cli_oai_open(const llmm_cli_json_frame *parent, int map);

#endif /* LLMM_CLI_OAI_CHUNK_H */
