/* http.c: the request-head parser and the output buffer (http.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error.h"
#include "sim/http.h"

/* The end of the head (the blank line) in buf[0, n): its length, or 0. */
static size_t head_end(const char *buf, size_t n)
{
    for (size_t i = 3; i < n; i++)
        if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r')
            return i + 1;
    return 0;
}

/* Does [s, s + n) equal the lower-case word w, case ignored? */
static int word_is(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != w[i])
            return 0;
    return 1;
}

/* Does the comma-separated value [v, v + n) hold the token w (case ignored)? */
static int has_token(const char *v, size_t n, const char *w)
{
    size_t i = 0;
    while (i < n) {
        size_t a, e;
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
            i++;
        a = i;
        while (i < n && v[i] != ',')
            i++;
        e = i;
        while (e > a && (v[e - 1] == ' ' || v[e - 1] == '\t'))
            e--;
        if (e > a && word_is(v + a, e - a, w))
            return 1;
    }
    return 0;
}

/* A decimal Content-Length in [v, v + n); -1 when it is not one or exceeds the limit. */
static long content_length(const char *v, size_t n)
{
    unsigned long x = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)v[i]))
            return -1;
        x = x * 10 + (unsigned long)(v[i] - '0');
        if (x > LLMM_SIM_BODY_MAX)
            return LLMM_SIM_HTTP_BODY_LARGE;
    }
    return (long)x;
}

/* One header line [s, s + n) into r; 0, or an error result. */
static long header(const char *s, size_t n, llmm_sim_http_req *r)
{
    const char *colon = memchr(s, ':', n);
    size_t k, vn;
    const char *v;
    long cl;
    if (!colon || colon == s)
        return LLMM_SIM_HTTP_BAD;
    k = (size_t)(colon - s);
    v = colon + 1;
    vn = n - k - 1;
    while (vn && (*v == ' ' || *v == '\t'))
        v++, vn--;
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    if (word_is(s, k, "content-length")) {
        cl = content_length(v, vn);
        if (cl < 0)
            return cl == LLMM_SIM_HTTP_BODY_LARGE ? cl : LLMM_SIM_HTTP_BAD;
        r->content_length = (size_t)cl;
    } else if (word_is(s, k, "connection")) {
        if (has_token(v, vn, "close"))
            r->keep_alive = 0;
        else if (has_token(v, vn, "keep-alive"))
            r->keep_alive = 1;
    } else if (word_is(s, k, "expect")) {
        r->expect_continue = has_token(v, vn, "100-continue");
    } else if (word_is(s, k, "x-request-id")) {
        vn = vn < sizeof r->request_id ? vn : sizeof r->request_id - 1;
        memcpy(r->request_id, v, vn);
        r->request_id[vn] = '\0';
    } else if (word_is(s, k, "traceparent")) {
        vn = vn < sizeof r->traceparent ? vn : sizeof r->traceparent - 1;
        memcpy(r->traceparent, v, vn);
        r->traceparent[vn] = '\0';
    } else if (word_is(s, k, "transfer-encoding")) {
        if (!has_token(v, vn, "identity"))
            return LLMM_SIM_HTTP_UNSUPPORTED;
    }
    return 0;
}

/* The request line [s, s + n): METHOD SP TARGET SP HTTP/1.x. */
static long request_line(const char *s, size_t n, llmm_sim_http_req *r)
{
    const char *sp1 = memchr(s, ' ', n), *sp2, *q;
    size_t mlen, plen;
    if (!sp1)
        return LLMM_SIM_HTTP_BAD;
    sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - s));
    if (!sp2)
        return LLMM_SIM_HTTP_BAD;
    mlen = (size_t)(sp1 - s);
    plen = (size_t)(sp2 - sp1 - 1);
    q = memchr(sp1 + 1, '?', plen);
    if (q)
        plen = (size_t)(q - sp1 - 1);
    if (mlen == 0 || mlen >= sizeof r->method || plen == 0 || plen >= sizeof r->path)
        return LLMM_SIM_HTTP_BAD;
    if (n - (size_t)(sp2 + 1 - s) != 8 || memcmp(sp2 + 1, "HTTP/1.", 7) != 0 ||
        (sp2[8] != '0' && sp2[8] != '1'))
        return LLMM_SIM_HTTP_BAD;
    memcpy(r->method, s, mlen);
    r->method[mlen] = '\0';
    memcpy(r->path, sp1 + 1, plen);
    r->path[plen] = '\0';
    r->keep_alive = sp2[8] == '1';
    r->http10 = sp2[8] == '0';
    return 0;
}

long llmm_sim_http_parse(const char *buf, size_t n, llmm_sim_http_req *r)
{
    size_t end = head_end(buf, n < LLMM_SIM_HEAD_MAX ? n : LLMM_SIM_HEAD_MAX), i = 0;
    long rc;
    if (end == 0)
        return n >= LLMM_SIM_HEAD_MAX ? LLMM_SIM_HTTP_TOO_LARGE : LLMM_SIM_HTTP_MORE;
    memset(r, 0, sizeof *r);
    r->head_len = end;
    for (int line = 0; i + 2 < end; line++) {
        const char *s = buf + i, *lf = memchr(s, '\n', end - i);
        size_t len = (size_t)(lf - s);
        if (len == 0 || s[len - 1] != '\r')
            return LLMM_SIM_HTTP_BAD;
        rc = line == 0 ? request_line(s, len - 1, r) : header(s, len - 1, r);
        if (rc != 0)
            return rc;
        i += len + 1;
    }
    return (long)end;
}

const char *llmm_sim_http_reason(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "Unknown";
    }
}

int llmm_sim_buf_reserve(llmm_sim_buf *b, size_t n)
{
    if (b->off > 0 && b->off == b->len)
        b->off = b->len = 0;
    return llmm_cli_grow(&b->data, &b->cap, b->len + n, 1, 4096) == LLMM_CLI_OK ? 0 : -1;
}

int llmm_sim_buf_put(llmm_sim_buf *b, const void *p, size_t n)
{
    if (llmm_sim_buf_reserve(b, n) != 0)
        return -1;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

int llmm_sim_buf_printf(llmm_sim_buf *b, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (k < 0)
        return -1;
    if ((size_t)k < sizeof small)
        return llmm_sim_buf_put(b, small, (size_t)k);
    if (llmm_sim_buf_reserve(b, (size_t)k + 1) != 0)
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)k;
    return 0;
}

void llmm_sim_buf_consume(llmm_sim_buf *b, size_t n)
{
    b->off += n;
    if (b->off == b->len)
        b->off = b->len = 0;
}

void llmm_sim_buf_free(llmm_sim_buf *b)
{
    free(b->data);
    *b = (llmm_sim_buf){0};
}
