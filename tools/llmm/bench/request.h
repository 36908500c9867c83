/* request.h: one streamed request of `llmm bench` (request.c). */
#ifndef LLMM_BENCH_REQUEST_H
#define LLMM_BENCH_REQUEST_H

#include <curl/curl.h>

#include "bench/chunk.h"
#include "bench/client.h"
#include "bench/sse.h"

typedef struct llmm_bench_req {
    CURL *easy;                /* kept from request to request: connections are reused */
    struct curl_slist *hdrs;
    char *body;
    llmm_bench_sse sse;
    llmm_cli_json *tok;        /* shared scratch for the chunks */
    size_t rec;                /* its record in the level's result */
    double now;                /* when the bytes being handled were read */
    double first, last;        /* output chunks' times (NaN: none yet) */
    double *itl;
    size_t nitl, capitl;
    uint32_t chunks;
    int64_t usage_in, usage_out; /* -1: no usage */
    int reason, http_status;
    int done, checked, nomem;
    size_t body_bytes; /* response body bytes read (the headers: CURLINFO_HEADER_SIZE) */
    int resent;        /* this is the re-send of its request (on a fresh connection) */
    char msg[LLMM_BENCH_MSG_MAX + 1]; /* why it failed: the server's words ("" none) */
    size_t nmsg;
    char curl_msg[CURL_ERROR_SIZE]; /* libcurl's words of its error */
} llmm_bench_req;

/* The request number of the preflight (X-Request-Id: bench-preflight). */
#define LLMM_BENCH_PREFLIGHT_ID ((size_t)-1)

/* CLOCK_MONOTONIC in seconds. */
double llmm_bench_now(void);
/* A fresh request slot (its handle made): 0, or -1 out of memory. */
int llmm_bench_req_init(llmm_bench_req *q, llmm_cli_json *tok);
void llmm_bench_req_free(llmm_bench_req *q);
/* Set the handle up for prompt p, request number id of its level (X-Request-Id: bench-ID)
 * and its trace context rec's trace_id and span_id (`traceparent`; rec NULL: none): 0, or -1
 * out of memory. */
int llmm_bench_req_start(llmm_bench_req *q, const llmm_bench_target *t,
                         const llmm_bench_prompt *p, size_t id, const llmm_bench_rec *rec);
/* The TLS and socket options of every handle (requests and the preflight). */
void llmm_bench_easy_common(CURL *e, const llmm_bench_target *t);
/* Should the request that ended with res be sent again? Only when it went out on a reused
 * connection and not one byte of response came back (the server closed the idle connection as
 * the request crossed it), and only once: the re-send goes on a fresh connection, where the
 * same death is a `reset` failure. */
int llmm_bench_req_should_resend(llmm_bench_req *q, CURLcode res);
/* Make the handle ready to send the same request again on a fresh connection. */
void llmm_bench_req_resend(llmm_bench_req *q);
/* Why the request ended as it did (LLMM_BENCH_OK when it succeeded), after libcurl's res. */
int llmm_bench_req_outcome(llmm_bench_req *q, CURLcode res);

#endif /* LLMM_BENCH_REQUEST_H */
