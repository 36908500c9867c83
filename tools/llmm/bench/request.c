/* request.c: one streamed request of `llmm bench` (request.h): its libcurl handle, body and
 * headers, and what its bytes say as they arrive (SSE events, chunks, timestamps). */
#include "bench/request.h"
#include "bench/trace.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double llmm_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const reason_names[LLMM_BENCH_NREASONS] = {
    "ok",      "http",      "connect", "reset", "truncated", "malformed",
    "error-event", "no-output", "timeout", "tls", "cancelled", "other",
};

const char *llmm_bench_reason_name(int reason)
{
    return reason >= 0 && reason < LLMM_BENCH_NREASONS ? reason_names[reason] : "?";
}

/* Keep the first bytes of what the server said of a failure. */
static void keep(llmm_bench_req *q, const char *s, size_t len)
{
    size_t room = LLMM_BENCH_MSG_MAX - q->nmsg;
    if (len > room)
        len = room;
    memcpy(q->msg + q->nmsg, s, len);
    q->nmsg += len;
    q->msg[q->nmsg] = '\0';
}

/* One event of the stream. Returns non-zero to stop reading (the request failed). */
static int on_event(void *ctx, const char *type, const char *data, size_t len)
{
    llmm_bench_req *q = ctx;
    llmm_bench_chunk c;
    int rc;
    if (strcmp(type, "error") == 0) { /* `event: error`, or llama.cpp's `error:` line */
        q->reason = LLMM_BENCH_ERROR_EVENT;
        keep(q, data, len);
        return 1;
    }
    rc = llmm_bench_chunk_parse(q->tok, data, len, &c);
    if (rc != LLMM_BENCH_CHUNK_OK) {
        q->reason = LLMM_BENCH_MALFORMED;
        keep(q, data, len); /* what could not be read */
        return 1;
    }
    if (c.error) { /* a data object {"error": ...} */
        q->reason = LLMM_BENCH_ERROR_EVENT;
        keep(q, data, len);
        return 1;
    }
    if (c.done) {
        q->done = 1;
        return 0;
    }
    if (c.completion_tokens >= 0) {
        q->usage_out = c.completion_tokens;
        q->usage_in = c.prompt_tokens;
    }
    if (c.output) {
        if (q->chunks > 0) {
            if (q->nitl == q->capitl) {
                size_t cap = q->capitl ? q->capitl * 2 : 64;
                double *v = realloc(q->itl, cap * sizeof *v);
                if (!v) {
                    q->nomem = 1;
                    return 1;
                }
                q->itl = v;
                q->capitl = cap;
            }
            q->itl[q->nitl++] = q->now - q->last;
        } else {
            q->first = q->now;
        }
        q->last = q->now;
        q->chunks++;
    }
    return 0;
}

/* libcurl's write callback: the bytes just read, timed once per read. */
static size_t on_write(char *buf, size_t size, size_t n, void *ctx)
{
    llmm_bench_req *q = ctx;
    long status = 0;
    size_t len = size * n;
    int rc;
    q->now = llmm_bench_now();
    q->body_bytes += len;
    if (!q->checked) {
        q->checked = 1;
        curl_easy_getinfo(q->easy, CURLINFO_RESPONSE_CODE, &status);
        q->http_status = (int)status;
        if (status != 200)
            q->reason = LLMM_BENCH_HTTP;
    }
    if (q->reason == LLMM_BENCH_HTTP) { /* the body is the server's message: its first bytes */
        keep(q, buf, len);
        return q->nmsg < LLMM_BENCH_MSG_MAX ? len : 0;
    }
    rc = llmm_bench_sse_feed(&q->sse, buf, len, on_event, q);
    if (rc == LLMM_BENCH_SSE_NOMEM)
        q->nomem = 1;
    else if (rc == LLMM_BENCH_SSE_TOOLONG)
        q->reason = LLMM_BENCH_MALFORMED;
    return rc == 0 ? len : 0;
}

int llmm_bench_req_init(llmm_bench_req *q, llmm_cli_json *tok)
{
    memset(q, 0, sizeof *q);
    q->tok = tok;
    llmm_bench_sse_init(&q->sse, 0);
    q->easy = curl_easy_init();
    return q->easy ? 0 : -1;
}

void llmm_bench_req_free(llmm_bench_req *q)
{
    if (q->easy)
        curl_easy_cleanup(q->easy);
    curl_slist_free_all(q->hdrs);
    llmm_bench_sse_free(&q->sse);
    free(q->body);
    free(q->itl);
    memset(q, 0, sizeof *q);
}

/* A formatted string in new memory; NULL out of memory. */
static char *format(const char *fmt, ...) LLMM_CLI_PRINTF(1, 2);
static char *format(const char *fmt, ...)
{
    va_list ap;
    char *b;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    b = n < 0 ? NULL : malloc((size_t)n + 1);
    if (b) {
        va_start(ap, fmt);
        vsnprintf(b, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return b;
}

/* The request body for prompt p (vLLM's benchmark client's fields). NULL out of memory. */
static char *body_of(const llmm_bench_target *t, const llmm_bench_prompt *p)
{
    const char *eos = t->ignore_eos ? ",\"ignore_eos\":true" : "";
    long long out = (long long)p->out_len;
    if (t->chat)
        return format("{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":%s}],"
                      "\"max_completion_tokens\":%lld,\"max_tokens\":%lld,\"stream\":true,"
                      "\"stream_options\":{\"include_usage\":true}%s}",
                      t->model, p->json, out, out, eos);
    return format("{\"model\":\"%s\",\"prompt\":%s,\"max_tokens\":%lld,\"stream\":true,"
                  "\"stream_options\":{\"include_usage\":true}%s}",
                  t->model, p->json, out, eos);
}

/* The headers of request number id: X-Request-Id (as vLLM's client sends one), the content
 * types, the key, the extra ones. NULL out of memory. */
static struct curl_slist *headers_of(const llmm_bench_target *t, size_t id,
                                     const llmm_bench_rec *rec)
{
    char rid[80];
    struct curl_slist *h;
    if (id == LLMM_BENCH_PREFLIGHT_ID)
        snprintf(rid, sizeof rid, "X-Request-Id: bench-preflight");
    else
        snprintf(rid, sizeof rid, "X-Request-Id: bench-%zu", id);
    h = curl_slist_append(NULL, rid);
    h = h ? curl_slist_append(h, "Content-Type: application/json") : NULL;
    h = h ? curl_slist_append(h, "Accept: text/event-stream") : NULL;
    if (h && rec) {
        llmm_bench_traceparent_header(t, rec->trace_id, rec->span_id, rid, sizeof rid);
        h = curl_slist_append(h, rid);
    }
    if (h && t->api_key) {
        size_t n = strlen(t->api_key) + 32;
        char *a = malloc(n);
        if (!a) {
            curl_slist_free_all(h);
            return NULL;
        }
        snprintf(a, n, "Authorization: Bearer %s", t->api_key);
        h = curl_slist_append(h, a);
        memset(a, 0, n);
        free(a);
    }
    for (size_t i = 0; h && i < t->nheaders; i++)
        h = curl_slist_append(h, t->headers[i]);
    return h;
}

/* The options every use of a handle sets. */
void llmm_bench_easy_common(CURL *e, const llmm_bench_target *t)
{
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    if (t->cacert)
        curl_easy_setopt(e, CURLOPT_CAINFO, t->cacert);
    if (t->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
}

int llmm_bench_req_start(llmm_bench_req *q, const llmm_bench_target *t,
                         const llmm_bench_prompt *p, size_t id, const llmm_bench_rec *rec)
{
    CURL *e = q->easy;
    free(q->body);
    curl_slist_free_all(q->hdrs);
    q->body = body_of(t, p);
    q->hdrs = headers_of(t, id, rec);
    if (!q->body || !q->hdrs)
        return -1;
    llmm_bench_sse_reset(&q->sse);
    q->nitl = 0;
    q->chunks = 0;
    q->first = q->last = NAN;
    q->usage_in = q->usage_out = -1;
    q->reason = q->http_status = 0;
    q->done = q->checked = q->nomem = 0;
    q->body_bytes = 0;
    q->resent = 0;
    q->nmsg = 0;
    q->msg[0] = '\0';
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 0L);
    curl_easy_setopt(e, CURLOPT_URL, t->url);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, q->body);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, q->hdrs);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, q);
    curl_easy_setopt(e, CURLOPT_PRIVATE, q);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(t->timeout * 1000.0));
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, q->curl_msg);
    q->curl_msg[0] = '\0';
    llmm_bench_easy_common(e, t);
    return 0;
}

int llmm_bench_req_should_resend(llmm_bench_req *q, CURLcode res)
{
    long connects = -1, header_bytes = -1;
    if (q->resent || q->reason || q->body_bytes > 0)
        return 0;
    if (res != CURLE_SEND_ERROR && res != CURLE_RECV_ERROR && res != CURLE_GOT_NOTHING)
        return 0;
    if (curl_easy_getinfo(q->easy, CURLINFO_NUM_CONNECTS, &connects) != CURLE_OK ||
        curl_easy_getinfo(q->easy, CURLINFO_HEADER_SIZE, &header_bytes) != CURLE_OK)
        return 0;
    return connects == 0 && header_bytes == 0; /* reused, and nothing came back */
}

void llmm_bench_req_resend(llmm_bench_req *q)
{
    llmm_bench_sse_reset(&q->sse);
    q->resent = 1;
    curl_easy_setopt(q->easy, CURLOPT_FRESH_CONNECT, 1L);
}

int llmm_bench_req_outcome(llmm_bench_req *q, CURLcode res)
{
    if (q->reason) /* ours: libcurl's words would only say that we stopped the transfer */
        return q->reason;
    if (q->nmsg == 0 && q->curl_msg[0]) /* no words from the server: libcurl's */
        keep(q, q->curl_msg, strlen(q->curl_msg));
    switch (res) {
    case CURLE_OK:
        break;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
        return LLMM_BENCH_CONNECT;
    case CURLE_OPERATION_TIMEDOUT:
        return LLMM_BENCH_TIMEOUT;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
        return LLMM_BENCH_RESET;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        return LLMM_BENCH_TLS;
    default:
        return LLMM_BENCH_OTHER;
    }
    if (!q->checked) { /* an empty body: no status seen in the write callback */
        long status = 0;
        curl_easy_getinfo(q->easy, CURLINFO_RESPONSE_CODE, &status);
        q->http_status = (int)status;
        if (status != 200)
            return LLMM_BENCH_HTTP;
    }
    if (!q->done)
        return LLMM_BENCH_TRUNCATED;
    return q->chunks ? LLMM_BENCH_OK : LLMM_BENCH_NO_OUTPUT;
}
