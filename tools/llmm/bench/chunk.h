/* chunk.h: what one streamed event of an OpenAI-compatible server says (chunk.c): the end of
 * the stream, output, token usage or an error. */
#ifndef LLMM_BENCH_CHUNK_H
#define LLMM_BENCH_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "input/json.h"

typedef struct llmm_bench_chunk {
    int done;   /* data: [DONE] */
    int output; /* it carries output, a token and an ITL: choices[0].text (completions;
                   "" too, a special token, except in a chunk with a finish_reason: that
                   empty chunk only ends the stream, as llama.cpp's last one), or a non-empty
                   choices[0].delta.content / reasoning_content / reasoning / tool_calls
                   (chat; the role-only first chunk and an empty final delta do not count) */
    int text;   /* choices[0].text: 0 none, 1 "", 2 non-empty */
    int finish; /* choices[0].finish_reason is a string */
    int object; /* the data is a JSON object (else the chunk is malformed) */
    int error;  /* an `error` object (an in-stream error; the HTTP status was 200) */
    int64_t completion_tokens, prompt_tokens; /* usage, -1 when absent */
} llmm_bench_chunk;

enum { LLMM_BENCH_CHUNK_OK = 0, LLMM_BENCH_CHUNK_MALFORMED = -1, LLMM_BENCH_CHUNK_NOMEM = -2 };

/* Interpret one event's data: OK, MALFORMED (not one JSON object) or NOMEM. The tokenizer j is
 * scratch space, initialised here (llmm_cli_json_free() it once done with every chunk). */
int llmm_bench_chunk_parse(llmm_cli_json *j, const char *data, size_t len, llmm_bench_chunk *c);

#endif /* LLMM_BENCH_CHUNK_H */
