/* libFuzzer target: the SSE parser and the chunk interpreter of `llmm bench`
 * (tools/llmm/bench/sse.h, chunk.h) on arbitrary bytes.
 *
 * Input: byte 0 sets the parser's limit (max = 1 + byte * 4, or the default when 0); bytes 1-2
 * seed the read sizes; the rest is the stream, in an exactly sized heap buffer. Checked:
 *   - the stream fed whole and fed in random reads gives the same events (type and data), the
 *     same return code and the same pending state: events do not depend on read boundaries;
 *   - an event's data and type hold no CR, its type no LF;
 *   - every event's data through the chunk interpreter returns OK or MALFORMED, and a chunk
 *     marked done is exactly "[DONE]";
 *   - no leak on any path. */
#include "fuzz_common.h"

#include "bench/chunk.h"
#include "bench/sse.h"

typedef struct trace {
    uint8_t *p;
    size_t n, cap;
} trace;

static llmm_cli_json tok;

static void put(trace *t, const void *b, size_t n)
{
    if (t->n + n > t->cap) {
        size_t c = t->cap ? t->cap : 256;
        while (c < t->n + n)
            c *= 2;
        t->p = realloc(t->p, c);
        CHECK(t->p);
        t->cap = c;
    }
    memcpy(t->p + t->n, b, n);
    t->n += n;
}

static int on_event(void *ctx, const char *type, const char *data, size_t len)
{
    trace *t = ctx;
    llmm_bench_chunk c;
    int rc;
    CHECK(!memchr(data, '\r', len));
    CHECK(!strchr(type, '\n') && !strchr(type, '\r'));
    put(t, type, strlen(type) + 1);
    put(t, &len, sizeof len);
    put(t, data, len);
    rc = llmm_bench_chunk_parse(&tok, data, len, &c);
    CHECK(rc == LLMM_BENCH_CHUNK_OK || rc == LLMM_BENCH_CHUNK_MALFORMED);
    if (c.done)
        CHECK(len == 6 && memcmp(data, "[DONE]", 6) == 0);
    return 0;
}

static int run(const char *s, size_t n, size_t max, uint32_t seed, trace *t, int *pending)
{
    llmm_bench_sse p;
    size_t at = 0;
    int rc = 0;
    llmm_bench_sse_init(&p, max);
    while (at < n && rc == 0) {
        size_t k = seed ? 1 + (seed % 17) : n - at;
        if (k > n - at)
            k = n - at;
        rc = llmm_bench_sse_feed(&p, s + at, k, on_event, t);
        at += k;
        seed = seed * 1103515245u + 12345u;
    }
    *pending = llmm_bench_sse_pending(&p);
    llmm_bench_sse_free(&p);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace a = {0}, b = {0};
    size_t max;
    uint32_t seed;
    char *s;
    int ra, rb, pa, pb;
    if (size < 3)
        return 0;
    max = data[0] ? 1 + (size_t)data[0] * 4 : 0;
    seed = (uint32_t)data[1] << 8 | data[2];
    if (!seed)
        seed = 1;
    s = malloc(size - 3 + 1);
    CHECK(s);
    memcpy(s, data + 3, size - 3);
    ra = run(s, size - 3, max, 0, &a, &pa);
    rb = run(s, size - 3, max, seed, &b, &pb);
    CHECK(ra == rb);
    CHECK(a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0));
    if (ra == 0)
        CHECK(pa == pb);
    free(a.p);
    free(b.p);
    free(s);
    llmm_cli_json_free(&tok);
    return 0;
}
