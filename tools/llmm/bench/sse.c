/* sse.c: the incremental Server-Sent Events parser (sse.h), after the WHATWG event-stream
 * grammar: lines, fields, dispatch on a blank line. */
#include "bench/sse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void llmm_bench_sse_init(llmm_bench_sse *p, size_t max)
{
    memset(p, 0, sizeof *p);
    p->max = max ? max : (size_t)16 << 20;
}

void llmm_bench_sse_reset(llmm_bench_sse *p)
{
    p->nline = p->ndata = 0;
    p->type[0] = '\0';
    p->has_data = p->after_cr = 0;
}

void llmm_bench_sse_free(llmm_bench_sse *p)
{
    free(p->line);
    free(p->data);
    p->line = p->data = NULL;
    p->capline = p->capdata = 0;
    llmm_bench_sse_reset(p);
}

int llmm_bench_sse_pending(const llmm_bench_sse *p)
{
    return p->nline > 0 || p->has_data;
}

/* Append len bytes at s to buf (n used, cap allocated), within max. */
static int append(char **buf, size_t *n, size_t *cap, size_t max, const char *s, size_t len)
{
    if (len == 0)
        return LLMM_BENCH_SSE_OK;
    if (len > max - *n)
        return LLMM_BENCH_SSE_TOOLONG;
    if (*n + len > *cap) {
        size_t c = *cap ? *cap : 256;
        char *b;
        while (c < *n + len)
            c = c > max / 2 ? max : c * 2;
        b = realloc(*buf, c);
        if (!b)
            return LLMM_BENCH_SSE_NOMEM;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *n, s, len);
    *n += len;
    return LLMM_BENCH_SSE_OK;
}

static int dispatch(llmm_bench_sse *p, llmm_bench_sse_fn fn, void *ctx)
{
    int rc = 0;
    if (p->has_data)
        rc = fn(ctx, p->type, p->data, p->ndata - 1); /* without the last '\n' */
    p->ndata = 0;
    p->has_data = 0;
    p->type[0] = '\0';
    return rc;
}

/* One whole line l (len bytes, no line end). */
static int line(llmm_bench_sse *p, const char *l, size_t len, llmm_bench_sse_fn fn, void *ctx)
{
    const char *colon, *val;
    size_t flen, vlen;
    int rc;
    if (len == 0)
        return dispatch(p, fn, ctx);
    if (l[0] == ':')
        return LLMM_BENCH_SSE_OK;
    colon = memchr(l, ':', len);
    flen = colon ? (size_t)(colon - l) : len;
    val = colon ? colon + 1 : l + len;
    vlen = len - (size_t)(val - l);
    if (vlen > 0 && val[0] == ' ') {
        val++;
        vlen--;
    }
    if (flen == 4 && memcmp(l, "data", 4) == 0) {
        rc = append(&p->data, &p->ndata, &p->capdata, p->max, val, vlen);
        if (rc == LLMM_BENCH_SSE_OK)
            rc = append(&p->data, &p->ndata, &p->capdata, p->max, "\n", 1);
        p->has_data = 1;
        return rc;
    }
    if (flen == 5 && memcmp(l, "error", 5) == 0) /* llama.cpp's in-stream error line */
        return fn(ctx, "error", val, vlen);
    if (flen == 5 && memcmp(l, "event", 5) == 0) {
        if (vlen >= sizeof p->type)
            vlen = sizeof p->type - 1;
        memcpy(p->type, val, vlen);
        p->type[vlen] = '\0';
    }
    return LLMM_BENCH_SSE_OK;
}

/* The index of the first byte c in buf[from, len), or len when there is none. *at remembers
 * the last answer across the lines of one read (SIZE_MAX: none yet), so that each byte is
 * searched once per kind of line end however the lines are ended. */
static size_t find(const char *buf, size_t len, size_t from, int c, size_t *at)
{
    if (*at == SIZE_MAX || *at < from) {
        const char *q = memchr(buf + from, c, len - from);
        *at = q ? (size_t)(q - buf) : len;
    }
    return *at;
}

int llmm_bench_sse_feed(llmm_bench_sse *p, const char *buf, size_t len, llmm_bench_sse_fn fn,
                        void *ctx)
{
    size_t i = 0, lf = SIZE_MAX, cr = SIZE_MAX;
    while (i < len) {
        size_t j;
        int rc;
        if (p->after_cr) {
            p->after_cr = 0;
            if (buf[i] == '\n') {
                i++;
                continue;
            }
        }
        j = find(buf, len, i, '\n', &lf);
        if (find(buf, len, i, '\r', &cr) < j)
            j = cr;
        if (j == len) /* the line goes on in the next bytes */
            return append(&p->line, &p->nline, &p->capline, p->max, buf + i, len - i);
        if (p->nline > 0) {
            rc = append(&p->line, &p->nline, &p->capline, p->max, buf + i, j - i);
            if (rc == LLMM_BENCH_SSE_OK)
                rc = line(p, p->line, p->nline, fn, ctx);
            p->nline = 0;
        } else {
            rc = j - i > p->max ? LLMM_BENCH_SSE_TOOLONG : line(p, buf + i, j - i, fn, ctx);
        }
        if (rc != LLMM_BENCH_SSE_OK)
            return rc;
        p->after_cr = buf[j] == '\r';
        i = j + 1;
    }
    return LLMM_BENCH_SSE_OK;
}
