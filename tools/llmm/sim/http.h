/* http.h: what the simulator needs of HTTP/1.1 (http.c): an incremental parser of a request's
 * head, and a growable byte buffer for what goes out. */
#ifndef LLMM_CLI_SIM_HTTP_H
#define LLMM_CLI_SIM_HTTP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define LLMM_SIM_HEAD_MAX 16384u        /* longest request head accepted */
#define LLMM_SIM_BODY_MAX (16u << 20)   /* longest request body accepted */

/* The server's connection limits (tools/http/admit.h; doc/sim.md, "Connection limits"). */
typedef struct llmm_sim_limits {
    uint32_t max_connections; /* open at once in all */
    uint32_t per_address;     /* waiting for a request at once from one client address */
    double request_s;         /* a complete request within this many seconds */
} llmm_sim_limits;

#define LLMM_SIM_MAX_CONNECTIONS 16384u
#define LLMM_SIM_PER_ADDRESS 4096u
#define LLMM_SIM_REQUEST_S 10.0

typedef struct llmm_sim_http_req {
    char method[16];
    char path[256];   /* without the query string */
    int keep_alive;   /* 1: the connection stays open after the response */
    int http10;       /* an HTTP/1.0 request */
    int expect_continue;
    char request_id[128]; /* the X-Request-Id header, cut to fit ("" when none) */
    char traceparent[64]; /* the W3C traceparent header (55 characters), cut to fit */
    size_t head_len;  /* bytes of the head, blank line included */
    size_t content_length;
} llmm_sim_http_req;

/* llmm_sim_http_parse's results besides a complete head (> 0, its length). */
enum {
    LLMM_SIM_HTTP_MORE = 0,         /* the head is not complete yet */
    LLMM_SIM_HTTP_BAD = -400,       /* malformed: answer 400 and close */
    LLMM_SIM_HTTP_TOO_LARGE = -431, /* head over LLMM_SIM_HEAD_MAX */
    LLMM_SIM_HTTP_BODY_LARGE = -413,
    LLMM_SIM_HTTP_UNSUPPORTED = -501, /* a chunked request body */
};

/* Parse the request head at the start of buf[0, n): method, path, version (HTTP/1.0 or 1.1),
 * Content-Length, Connection, Expect and Transfer-Encoding (header names in any case). Returns
 * the head's length (> 0) with *r filled, LLMM_SIM_HTTP_MORE, or a negative error whose
 * absolute value is the status to answer. */
long llmm_sim_http_parse(const char *buf, size_t n, llmm_sim_http_req *r);

/* The reason phrase of a status code ("OK", "Not Found", ...). */
const char *llmm_sim_http_reason(int status);

/* A growable byte buffer: data[off, len) is still to be sent. */
typedef struct llmm_sim_buf {
    char *data;
    size_t off, len, cap;
} llmm_sim_buf;

/* Append n bytes / a formatted string; 0, or -1 out of memory (the buffer unchanged). */
int llmm_sim_buf_put(llmm_sim_buf *b, const void *p, size_t n);
int llmm_sim_buf_printf(llmm_sim_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Room for n more bytes at data + len; 0, or -1 out of memory. */
int llmm_sim_buf_reserve(llmm_sim_buf *b, size_t n);
/* Drop the n bytes sent from the front. */
void llmm_sim_buf_consume(llmm_sim_buf *b, size_t n);
void llmm_sim_buf_free(llmm_sim_buf *b);

#endif /* LLMM_CLI_SIM_HTTP_H */
