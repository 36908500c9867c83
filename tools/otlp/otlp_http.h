/* otlp_http.h: an OTLP/HTTP sender on libcurl and zlib, for the llmm tool and for servers
 * that embed libllmmetrics (examples/otlp_push.c; copy tools/otlp/ into your tree).
 *
 * One POST of an encoded request (llmm_export_otlp_metrics() / llmm_export_otlp_traces())
 * to `endpoint` + "/v1/metrics" or "/v1/traces", as OTLP/HTTP specifies: protobuf
 * (`application/x-protobuf`, the default) or JSON (`application/json`), optionally gzip
 * (`Content-Encoding: gzip`), a timeout per attempt, and retries of the retryable answers
 * only: 429, 502, 503, 504 (and a failed connection or a timeout), waiting what the
 * `Retry-After` header asks (seconds or an HTTP-date) or else an exponential backoff with
 * jitter. Any other answer (400, 401, 413, ...) is final at once. Nothing here is global:
 * a config and a result per call, one curl handle per call. */
#ifndef LLMM_OTLP_HTTP_H
#define LLMM_OTLP_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include <llmmetrics/llmmetrics.h>

#define LLMM_PUSH_MAX_WAITS 16

typedef struct llmm_push_config {
    const char *endpoint;            /* base URL, e.g. "http://collector:4318" */
    int json;                        /* 1: OTLP/JSON; 0: protobuf (default) */
    int gzip;                        /* 1: gzip the body (default) */
    long timeout_ms;                 /* per attempt (default 10000) */
    int max_attempts;                /* attempts in all, ≥ 1 (default 5) */
    long backoff_initial_ms;         /* first backoff (default 500), doubling */
    long backoff_max_ms;             /* largest backoff (default 8000) */
    long retry_after_max_ms;         /* a longer Retry-After gives up instead (default 30000) */
    const char *resource_attributes; /* label list; NULL: service.name="llmm" */
    const char *scope_name;          /* NULL: the library's scope */
    const char *const *headers;      /* extra "Name: value" lines of every POST, or NULL */
    size_t nheaders;
} llmm_push_config;

/* What one push did. */
typedef struct llmm_push_result {
    long http_status;                    /* last HTTP status (0: no answer) */
    int attempts;                        /* requests sent */
    int retry_after;                     /* waits that came from Retry-After */
    long waited_ms[LLMM_PUSH_MAX_WAITS]; /* each wait before a retry, in order */
    int waits;                           /* entries of waited_ms */
    size_t body_bytes;                   /* bytes sent per attempt (after gzip) */
    char error[256];                     /* why it failed ("" on success) */
} llmm_push_result;

/* The defaults above. */
void llmm_push_config_default(llmm_push_config *c);

/* POST `body` to endpoint + `path` ("/v1/metrics"); 0 on a 2xx answer, -1 otherwise (the
 * reason in r->error). */
int llmm_push_post(const llmm_push_config *c, const char *path, const uint8_t *body, size_t n,
                   llmm_push_result *r);

/* gzip `in` into a new malloc'ed buffer; 0 on success. */
int llmm_push_gzip(const uint8_t *in, size_t n, uint8_t **out, size_t *out_n);

#endif
