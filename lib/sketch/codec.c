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
 * Decoding trusts nothing. The envelope comes first (magic, CRC, then version), so a damaged
 * version byte reads as corruption and only an intact message of another version is
 * LLMM_E_VERSION. One pass then validates every field and every bucket, and that they agree
 * (counts add up, min and max enclose the zeros and the buckets, the sum of values that are
 * never negative is not negative: doc/format.md 3.4), without allocating;
 * only then is the sketch allocated (its store spans bucket indices already proven to lie in
 * the validated range, exactly what the original sketch needed) and a second pass over the
 * same bytes fills it. */
#include "codec_internal.h"
#include "sketch_internal.h"

#define MAGIC_BYTES 4
#define FIXED_BYTES 46 /* magic 4, version 1, scale 1, five doubles */
#define CRC_BYTES 4
/* An empty stretch this long ends a run: shorter ones cost less written inline as zeros. */
#define SPLIT_GAP 3

static const uint8_t magic[MAGIC_BYTES] = {'L', 'L', 'M', 'S'};

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
    for (j = 0; j < MAGIC_BYTES; j++)
        put_u8(&w, magic[j]);
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
        put_le(&w, crc, CRC_BYTES);
    } else {
        *nruns = k;
        w.n += llmm__uvarint_len(k) + CRC_BYTES;
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

/* ---- reading ----------------------------------------------------------------------------- */

typedef struct {
    int32_t scale;
    double range_lo, range_hi, min, max, sum;
    uint64_t count, zero, under, over, nruns;
    int64_t idx_lo, idx_hi;
    size_t runs_at, end; /* the runs occupy [runs_at, end) */
    /* filled by walk_runs */
    int64_t first, last;  /* bucket span when nruns > 0 */
    uint64_t total, peak; /* sum and largest of the bucket counts */
} header;

typedef struct {
    const uint8_t *p;
    size_t pos, end;
} reader;

static inline int get_var(reader *r, uint64_t *v)
{
    size_t k;
    if (r->pos < r->end && r->p[r->pos] < 0x80) { /* one byte: most bucket deltas */
        *v = r->p[r->pos++];
        return 1;
    }
    k = llmm__uvarint_get(r->p + r->pos, r->end - r->pos, v);
    r->pos += k;
    return k != 0;
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    int i;
    for (i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static double get_f64(const uint8_t *p)
{
    uint64_t b = get_le(p, 8);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Magic, checksum, version: the part every format version shares. */
static llmm_status check_envelope(const uint8_t *buf, size_t len)
{
    uint32_t crc;
    if (len < MAGIC_BYTES + 1 + CRC_BYTES || memcmp(buf, magic, MAGIC_BYTES) != 0)
        return LLMM_E_CORRUPT;
    crc = (uint32_t)get_le(buf + len - CRC_BYTES, CRC_BYTES);
    if (llmm__crc32c(0, buf, len - CRC_BYTES) != crc)
        return LLMM_E_CORRUPT;
    if (buf[MAGIC_BYTES] != LLMM_SKETCH_FORMAT_VERSION)
        return LLMM_E_VERSION;
    return LLMM_OK;
}

static llmm_status read_header(const uint8_t *buf, size_t len, header *h)
{
    reader r;
    memset(h, 0, sizeof *h);
    if (len < FIXED_BYTES + 5 + CRC_BYTES) /* five varints of at least one byte each */
        return LLMM_E_CORRUPT;
    if (buf[5] > LLMM_SCALE_MAX)
        return LLMM_E_CORRUPT;
    h->scale = buf[5];
    h->range_lo = get_f64(buf + 6);
    h->range_hi = get_f64(buf + 14);
    h->min = get_f64(buf + 22);
    h->max = get_f64(buf + 30);
    h->sum = get_f64(buf + 38);
    /* the same rule as llmm_sketch_set_range (NaN fails every comparison) */
    if (!(h->range_lo >= LLMM_SKETCH_RANGE_MIN_LIMIT) ||
        !(h->range_hi <= LLMM_SKETCH_RANGE_MAX_LIMIT) || !(h->range_hi > h->range_lo))
        return LLMM_E_CORRUPT;
    llmm__range_indices(h->scale, h->range_lo, h->range_hi, &h->idx_lo, &h->idx_hi);
    r.p = buf;
    r.pos = FIXED_BYTES;
    r.end = len - CRC_BYTES;
    if (!get_var(&r, &h->count) || !get_var(&r, &h->zero) || !get_var(&r, &h->under) ||
        !get_var(&r, &h->over) || !get_var(&r, &h->nruns))
        return LLMM_E_CORRUPT;
    /* every run takes at least three bytes: bounds the loop before it starts */
    if (h->nruns > (r.end - r.pos) / 3)
        return LLMM_E_CORRUPT;
    h->runs_at = r.pos;
    h->end = r.end;
    return LLMM_OK;
}

/* Walk the runs: validate them (fill NULL) or, once validated, count them into fill. */
static llmm_status walk_runs(const uint8_t *buf, header *h, llmm_sketch *fill)
{
    reader r = {buf, h->runs_at, h->end};
    uint64_t k, total = 0, peak = 0;
    int64_t prev_end = 0;

    for (k = 0; k < h->nruns; k++) {
        uint64_t v, n, j, c = 0;
        int64_t start;
        if (!get_var(&r, &v))
            return LLMM_E_CORRUPT;
        if (k == 0) {
            start = llmm__unzigzag(v);
            if (start < h->idx_lo || start > h->idx_hi)
                return LLMM_E_CORRUPT;
            h->first = start;
        } else {
            /* v empty buckets since the previous run: at least one, and room left after */
            if (v == 0 || prev_end >= h->idx_hi || v > (uint64_t)(h->idx_hi - prev_end - 1))
                return LLMM_E_CORRUPT;
            start = prev_end + 1 + (int64_t)v;
        }
        if (!get_var(&r, &n) || n == 0 || n > (uint64_t)(h->idx_hi - start) + 1 ||
            n > r.end - r.pos)
            return LLMM_E_CORRUPT;
        for (j = 0; j < n; j++) {
            uint64_t z;
            if (!get_var(&r, &z))
                return LLMM_E_CORRUPT;
            c += (uint64_t)llmm__unzigzag(z); /* modulo 2^64 */
            if (c == 0 && (j == 0 || j == n - 1))
                return LLMM_E_CORRUPT; /* runs start and end on a non-empty bucket */
            if (c > UINT64_MAX - total)
                return LLMM_E_CORRUPT;
            total += c;
            if (c > peak)
                peak = c;
            if (fill && c)
                llmm__store_add(fill, start + (int64_t)j, c);
        }
        prev_end = start + (int64_t)n - 1;
    }
    if (r.pos != r.end)
        return LLMM_E_CORRUPT; /* bytes left over */
    h->last = prev_end;
    h->total = total;
    h->peak = peak;
    return LLMM_OK;
}

/* Count, min and max agree with the buckets and the special counts. */
static llmm_status check_stats(const header *h)
{
    uint64_t t = h->total, bmin = llmm__dbits(h->min), bmax = llmm__dbits(h->max);
    if (h->zero > UINT64_MAX - t)
        return LLMM_E_CORRUPT;
    t += h->zero;
    if (h->under > UINT64_MAX - t)
        return LLMM_E_CORRUPT;
    t += h->under;
    if (h->over > UINT64_MAX - t)
        return LLMM_E_CORRUPT;
    t += h->over;
    if (t != h->count)
        return LLMM_E_CORRUPT;
    if (h->count == 0)
        return bmin == 0 && bmax == 0 ? LLMM_OK : LLMM_E_CORRUPT;
    /* non-negative finite doubles order like their bits: 0 <= min <= max <= DBL_MAX */
    if (!(bmin <= bmax && bmax <= LLMM__DBL_MAX_BITS))
        return LLMM_E_CORRUPT;
    /* any value other than zero makes the max positive (the store relies on it) */
    if (h->count > h->zero && bmax == 0)
        return LLMM_E_CORRUPT;
    return LLMM_OK;
}

/* The extremes enclose what is counted and the sum is that of values >= 0 (doc/format.md 3.4).
 * check_stats has passed: with a count, 0 <= min <= max <= DBL_MAX. */
static llmm_status check_values(const header *h)
{
    if (h->count == 0)
        return h->sum == 0.0 ? LLMM_OK : LLMM_E_CORRUPT; /* +0.0 or -0.0, not NaN */
    if (h->sum < 0.0)
        return LLMM_E_CORRUPT; /* NaN passes: +Inf - +Inf after a subtraction */
    if (h->zero && h->min != 0.0)
        return LLMM_E_CORRUPT;
    if (h->nruns == 0)
        return LLMM_OK;
    /* a bucket holds a value: the max is positive (check_stats) and lies in it or above */
    if (llmm__map_index(h->scale, h->max) < h->last)
        return LLMM_E_CORRUPT;
    if (h->min > 0.0 && llmm__map_index(h->scale, h->min) > h->first)
        return LLMM_E_CORRUPT;
    return LLMM_OK;
}

llmm_status llmm_sketch_deserialize(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                    llmm_sketch **out)
{
    header h;
    llmm_sketch *s;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!buf)
        return LLMM_E_INVALID;
    st = check_envelope(buf, len);
    if (st == LLMM_OK)
        st = read_header(buf, len, &h);
    if (st == LLMM_OK)
        st = walk_runs(buf, &h, NULL);
    if (st == LLMM_OK)
        st = check_stats(&h);
    if (st == LLMM_OK)
        st = check_values(&h);
    if (st != LLMM_OK)
        return st;

    /* everything is valid: allocate, then fill (nothing below fails but the allocations) */
    s = llmm__alloc(ctx, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    llmm__sketch_init_fields(s, ctx, h.scale);
    s->range_lo = h.range_lo;
    s->range_hi = h.range_hi;
    s->idx_lo = h.idx_lo;
    s->idx_hi = h.idx_hi;
    if (h.nruns) {
        st = llmm__store_reserve(s, h.first, h.last, h.peak > UINT32_MAX);
        if (st != LLMM_OK) {
            llmm_sketch_free(s);
            return st;
        }
        (void)walk_runs(buf, &h, s);
    }
    s->count = h.count;
    s->zero = h.zero;
    s->under = h.under;
    s->over = h.over;
    s->min = h.min;
    s->max = h.max;
    s->sum = h.sum;
    llmm__sketch_refresh_fast(s);
    *out = s;
    return LLMM_OK;
}
