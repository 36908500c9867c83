/* The sketch's binary form. doc/format.md is the specification; keep the two in step.
 *
 *   "LLMS" | version u8 | scale u8 | range_lo, range_hi, min, max, sum (IEEE-754 binary64, LE)
 *   | count, zero, under, over, nruns (LEB128) | runs | CRC-32C of all preceding bytes (u32 LE)
 *
 * A run is a stretch of buckets whose first and last counts are non-zero: its start (the first
 * run: zig-zag index; later runs: number of empty buckets since the previous run, >= 1), its
 * length, then one zig-zag delta per bucket from the previous count of the run (modulo 2^64,
 * starting from 0). Neighbouring buckets hold similar counts, so the deltas are short: a
 * log-normal sigma = 1 series of 10 M values encodes in about 1.4 KiB at scale 6.
 *
 * Decoding (decode.c) trusts nothing. The envelope comes first (magic, CRC, then version), so a damaged
 * version byte reads as corruption and only an intact message of another version is
 * LLMM_E_VERSION. One pass then validates every field and every bucket, and that they agree
 * (counts add up, min and max enclose the zeros and the buckets, the sum of values that are
 * never negative is not negative: doc/format.md 3.4), without allocating;
 * only then is the sketch allocated (its store spans bucket indices already proven to lie in
 * the validated range, exactly what the original sketch needed) and a second pass over the
 * same bytes fills it. */
#include "codec_internal.h"
#include "sketch_internal.h"

/* An empty stretch this long ends a run: shorter ones cost less written inline as zeros. */
#define SPLIT_GAP 3

/* ---- varints ----------------------------------------------------------------------------- */

size_t llmm__uvarint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

size_t llmm__uvarint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

size_t llmm__uvarint_get(const uint8_t *p, size_t avail, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    for (i = 0; i < avail && i < 10; i++) {
        uint8_t b = p[i];
        if (i == 9 && b > 1)
            return 0; /* the tenth byte carries bit 63 only */
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            if (b == 0 && i > 0)
                return 0; /* not the shortest form */
            *v = x;
            return i + 1;
        }
    }
    return 0;
}

/* ---- writing ----------------------------------------------------------------------------- */

typedef struct {
    uint8_t *p; /* NULL: only measure */
    size_t n;
} writer;

static void put_u8(writer *w, uint8_t b)
{
    if (w->p)
        w->p[w->n] = b;
    w->n++;
}

static void put_le(writer *w, uint64_t v, int bytes)
{
    int i;
    for (i = 0; i < bytes; i++)
        put_u8(w, (uint8_t)(v >> (8 * i)));
}

static inline void put_var(writer *w, uint64_t v)
{
    if (v < 0x80) { /* most bucket deltas */
        put_u8(w, (uint8_t)v);
        return;
    }
    w->n += w->p ? llmm__uvarint_put(w->p + w->n, v) : llmm__uvarint_len(v);
}

/* The store's counters, read directly: the encoder only visits indices inside the store. */
typedef struct {
    const uint32_t *c32;
    const uint64_t *c64;
    int64_t base;
} counters;

static inline uint64_t count_at(const counters *c, int64_t i)
{
    size_t off = (size_t)(i - c->base);
    return c->c64 ? c->c64[off] : c->c32[off];
}

/* The run that starts at the first non-empty bucket in [from, hi]: [*a, *b]; 0 if none. */
static int next_run(const counters *c, int64_t from, int64_t hi, int64_t *a, int64_t *b)
{
    int64_t i = from, last;
    while (i <= hi && !count_at(c, i))
        i++;
    if (i > hi)
        return 0;
    *a = last = i;
    for (i++; i <= hi && i - last <= SPLIT_GAP; i++)
        if (count_at(c, i))
            last = i;
    *b = last;
    return 1;
}

/* Encode into p, or only measure when p is NULL. Measuring counts the runs into *nruns;
 * writing takes that count from the measuring call. Returns the encoded size. */
static size_t encode(const llmm_sketch *s, uint8_t *p, uint64_t *nruns)
{
    writer w = {p, 0};
    counters c = {s->counts32, s->counts64, s->base};
    int64_t lo = 0, hi = -1, a, b, at, i, prev_end = 0;
    uint64_t k = 0;
    int j;

    (void)llmm__store_span(s, &lo, &hi);
    for (j = 0; j < LLMM__MAGIC_BYTES; j++)
        put_u8(&w, (uint8_t)LLMM__SKETCH_MAGIC[j]);
    put_u8(&w, LLMM_SKETCH_FORMAT_VERSION);
    put_u8(&w, (uint8_t)s->scale);
    put_le(&w, llmm__dbits(s->range_lo), 8);
    put_le(&w, llmm__dbits(s->range_hi), 8);
    /* min and max mean nothing in an empty sketch: always written as +0.0 there */
    put_le(&w, s->count ? llmm__dbits(s->min) : 0, 8);
    put_le(&w, s->count ? llmm__dbits(s->max) : 0, 8);
    put_le(&w, llmm__dbits(s->sum), 8);
    put_var(&w, s->count);
    put_var(&w, s->zero);
    put_var(&w, s->under);
    put_var(&w, s->over);
    if (p)
        put_var(&w, *nruns);
    for (at = lo; at <= hi && next_run(&c, at, hi, &a, &b); at = b + 1, k++) {
        uint64_t prev = 0;
        put_var(&w, k == 0 ? llmm__zigzag(a) : (uint64_t)(a - prev_end - 1));
        put_var(&w, (uint64_t)(b - a + 1));
        for (i = a; i <= b; i++) {
            uint64_t v = count_at(&c, i);
            put_var(&w, llmm__zigzag((int64_t)(v - prev)));
            prev = v;
        }
        prev_end = b;
    }
    if (p) {
        uint32_t crc = llmm__crc32c(0, p, w.n);
        put_le(&w, crc, LLMM__CRC_BYTES);
    } else {
        *nruns = k;
        w.n += llmm__uvarint_len(k) + LLMM__CRC_BYTES;
    }
    return w.n;
}

llmm_status llmm_sketch_serialize(const llmm_sketch *s, uint8_t *buf, size_t cap, size_t *len)
{
    size_t need;
    uint64_t nruns = 0;
    if (!s || !len || (!buf && cap))
        return LLMM_E_INVALID;
    need = encode(s, NULL, &nruns);
    *len = need;
    if (!buf || cap < need)
        return LLMM_E_BUFFER;
    (void)encode(s, buf, &nruns);
    return LLMM_OK;
}
