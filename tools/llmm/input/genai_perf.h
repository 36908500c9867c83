/* genai_perf.h: the reader of perf_analyzer's profile_export.json (genai_perf.c), and the
 * interpreter of one request's responses (genai_perf_sse.c): which of them carried generated
 * text. */
#ifndef LLMM_CLI_GENAI_PERF_H
#define LLMM_CLI_GENAI_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "input/json.h"
#include "input/record.h"

/* How genai-perf's definitions relate to ours (genai_perf.c; the summary reader uses it too). */
extern const llmm_cli_tool llmm_cli_genai_perf_tool;

/* One request's responses, as an OpenAI-compatible server streamed them: each response is
 * the bytes of one read on the client, holding one server-sent event, several, or a part of
 * one; a non-streaming reply is one response holding the whole JSON body. An event counts
 * for the response in which it began. */
typedef struct llmm_cli_gp_stream {
    llmm_cli_json inner;  /* first, large: the JSON of one event */
    char *line;           /* a line cut between two responses */
    size_t nline, capline;
    size_t line_resp;     /* the response where that line began */
    char *data;           /* the data lines of the event being read */
    size_t ndata, capdata;
    const char *inplace;  /* or its one data line, still in the response being read */
    size_t ninplace;
    int in_event, ev_error;
    size_t ev_resp;
    /* results */
    uint8_t *content;     /* per response: generated text began in it */
    size_t ncontent, capcontent;
    int64_t out_tokens, in_tokens; /* the server's usage counts, -1 when it sent none */
    uint64_t error_events;
    int other_body;       /* a JSON body that is not a completion (embeddings) */
    /* what the event being parsed holds */
    int ev_content, ev_other, ev_err_obj;
    int ev_empty_text, ev_finish; /* choices[0].text was "", finish_reason a string */
    char msg[192];        /* why an event's data was refused */
} llmm_cli_gp_stream;

/* Start a request. */
void llmm_cli_gp_stream_begin(llmm_cli_gp_stream *s);
/* Response number `resp` of the request (in order): LLMM_CLI_OK, LLMM_CLI_ENOMEM, or
 * LLMM_CLI_EPARSE with s->msg. */
int llmm_cli_gp_stream_response(llmm_cli_gp_stream *s, size_t resp, const char *text,
                                size_t len);
/* The request's responses ended (a last event without its blank line counts). */
int llmm_cli_gp_stream_end(llmm_cli_gp_stream *s);
void llmm_cli_gp_stream_free(llmm_cli_gp_stream *s);

#endif /* LLMM_CLI_GENAI_PERF_H */
