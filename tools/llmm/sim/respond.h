/* respond.h: what the simulator writes (respond.c): HTTP responses, and the Server-Sent
 * Events of a stream in vLLM's shapes (one event per HTTP chunk), as OpenAI-compatible
 * servers send them. Each call appends to an output buffer: 0, or -1 out of memory. */
#ifndef LLMM_CLI_SIM_RESPOND_H
#define LLMM_CLI_SIM_RESPOND_H

#include <stdint.h>

#include "sim/http.h"
#include "sim/model.h"
#include "sim/request.h"

/* One completion as its chunks describe it. */
typedef struct llmm_sim_reply {
    llmm_sim_endpoint ep;
    uint64_t num;             /* the id's number: cmpl-NUM, chatcmpl-NUM */
    long long created;        /* Unix seconds */
    const char *model;        /* JSON-escaped */
    uint64_t prompt_tokens;
    uint32_t output_tokens;   /* tokens the completion has in all */
    int length_limited;       /* it ends at max_tokens: finish_reason "length", else "stop" */
    int unframed;             /* an HTTP/1.0 stream: events as they are, the end by closing */
    int empty_finish;         /* the finish_reason comes in a chunk of its own with an empty
                                 text (chat: an empty delta) after the last token, as
                                 llama.cpp ends a stream */
} llmm_sim_reply;

/* A whole response with a body (Content-Length). */
int llmm_sim_put_response(llmm_sim_buf *b, int status, int keep_alive, const char *type,
                          const char *body, size_t n);
/* A JSON error response: {"error": {"message", "type", "code"}} (OpenAI's shape). */
int llmm_sim_put_error(llmm_sim_buf *b, int status, int keep_alive, const char *message);
/* The head of a stream: 200, text/event-stream, chunked (HTTP/1.1), or with unframed (an
 * HTTP/1.0 client, which knows no chunked encoding) the body ending when the connection
 * closes. */
int llmm_sim_put_stream_head(llmm_sim_buf *b, int keep_alive, int unframed);
/* Token k (1-based) of r as a stream event; for chat the first is preceded by the role chunk.
 * garble: a chunk whose JSON is cut short (the malformed-chunk fault). */
int llmm_sim_put_token(llmm_sim_buf *b, const llmm_sim_reply *r, uint32_t k, int garble);
/* The usage chunk (choices []); data: [DONE] and the chunked stream's end. */
int llmm_sim_put_usage(llmm_sim_buf *b, const llmm_sim_reply *r);
int llmm_sim_put_done(llmm_sim_buf *b, const llmm_sim_reply *r);
/* An in-stream error in dialect (llmm_sim_error_dialect) with message (plain text), then the
 * end of the stream (the chunked encoding's last chunk; an unframed stream ends by closing). */
int llmm_sim_put_stream_error(llmm_sim_buf *b, const llmm_sim_reply *r, int dialect,
                              const char *message);
/* The whole completion as one JSON response (stream false). */
int llmm_sim_put_full(llmm_sim_buf *b, const llmm_sim_reply *r, int keep_alive, int garble);

/* The text of token k (1-based): a word with its leading space. */
const char *llmm_sim_token_text(uint32_t k);

#endif /* LLMM_CLI_SIM_RESPOND_H */
