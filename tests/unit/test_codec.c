/* Sketch codec through the public API: round trips equal in every field, damaged input of
 * every kind rejected without allocating, hand-built messages following doc/format.md,
 * LLMM_E_BUFFER, allocation failures, encoded sizes. (The golden files: tests/codec.)
 * References: a CRC-32C and an encoder written here from the format document, exact sorting.
 * llmm_sketch_deserialize_ex: every rule of section 3.4 named, rule 6 repaired, and the two
 * snapshots the real 1.0 recorder wrote with its extreme bug (tests/data/v1_0). */
#include <float.h>

#include "helpers.h"

/* ---- sketches to encode ------------------------------------------------------------------ */

/* rng_next / lognormal: helpers.h */

static llmm_sketch *mk(llmm_ctx *ctx, int scale)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(ctx, scale, &s));
    return s;
}

static void add_lognormal(llmm_sketch *s, size_t n, double median, double sigma, uint64_t seed)
{
    double buf[4096];
    uint64_t x = seed;
    while (n) {
        size_t k = n < 4096 ? n : 4096;
        for (size_t i = 0; i < k; i++)
            buf[i] = lognormal(&x, median, sigma);
        assert_ok(llmm_sketch_add_many(s, buf, k));
        n -= k;
    }
}

#define NCASES 24

/* Case c of a varied collection (NULL once past the end). */
static llmm_sketch *make_case(int c)
{
    llmm_sketch *s, *t;
    switch (c) {
    case 0: /* empty, defaults */
        return mk(NULL, 6);
    case 1: /* empty with a custom range */
        s = mk(NULL, 3);
        assert_ok(llmm_sketch_set_range(s, 1e-3, 1e3));
        return s;
    case 2: /* one value */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add(s, 0.25));
        return s;
    case 3:
        s = mk(NULL, 6);
        add_lognormal(s, 10000, 0.2, 1.0, 1);
        return s;
    case 4:
        s = mk(NULL, 8);
        add_lognormal(s, 10000, 0.2, 2.0, 2);
        return s;
    case 5: /* zeros, underflow, overflow, subnormal, DBL_MAX */
        s = mk(NULL, 4);
        assert_ok(llmm_sketch_set_range(s, 1e-3, 1e3));
        assert_ok(llmm_sketch_add_n(s, 0.0, 7));
        assert_ok(llmm_sketch_add(s, 1e-5));
        assert_ok(llmm_sketch_add(s, 4.9e-324));
        assert_ok(llmm_sketch_add(s, 5e-4));
        assert_ok(llmm_sketch_add(s, 2e3));
        assert_ok(llmm_sketch_add(s, 1e300));
        add_lognormal(s, 500, 1.0, 1.0, 3);
        return s;
    case 6:
        s = mk(NULL, 0);
        add_lognormal(s, 3000, 0.2, 1.0, 4);
        return s;
    case 7:
        s = mk(NULL, 10);
        add_lognormal(s, 3000, 0.2, 1.0, 5);
        return s;
    case 8: /* 64-bit bucket counts */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add_n(s, 1.0, UINT64_C(5000000000)));
        assert_ok(llmm_sketch_add_n(s, 1.5, 3));
        assert_ok(llmm_sketch_add(s, 3.0));
        return s;
    case 9: /* counts next to 2^64: count deltas wrap modulo 2^64 */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add_n(s, 1.0, UINT64_MAX - 20));
        assert_ok(llmm_sketch_add_n(s, 1.02, 7));
        assert_ok(llmm_sketch_add_n(s, 0.0, 5));
        assert_ok(llmm_sketch_add_n(s, 1e20, 8));
        return s;
    case 10: { /* sparse buckets: empty stretches of 1, 2, 3, 4 and 100 buckets */
        const int gaps[] = {1, 2, 3, 4, 100, 1};
        double lo, hi;
        int32_t at = -50;
        s = mk(NULL, 6);
        for (size_t i = 0; i <= sizeof gaps / sizeof *gaps; i++) {
            assert_ok(llmm_sketch_bucket_bounds(6, at, &lo, &hi));
            assert_ok(llmm_sketch_add_n(s, sqrt(lo * hi), (uint64_t)(i * 1000 + 1)));
            if (i < sizeof gaps / sizeof *gaps)
                at += gaps[i] + 1;
        }
        return s;
    }
    case 11: /* merge of a finer sketch into a coarser one */
        s = mk(NULL, 5);
        t = mk(NULL, 8);
        add_lognormal(s, 2000, 0.2, 1.0, 6);
        add_lognormal(t, 2000, 0.3, 1.5, 7);
        assert_ok(llmm_sketch_merge(s, t));
        llmm_sketch_free(t);
        return s;
    case 12:
        s = mk(NULL, 9);
        add_lognormal(s, 2000, 50.0, 1.0, 8);
        assert_ok(llmm_sketch_downscale(s, 3));
        return s;
    case 13: /* interval = later snapshot - earlier */
        s = mk(NULL, 6);
        add_lognormal(s, 1000, 0.2, 1.0, 9);
        t = NULL;
        assert_ok(llmm_sketch_clone(s, &t));
        add_lognormal(s, 1000, 0.4, 1.0, 10);
        assert_ok(llmm_sketch_subtract(s, t));
        llmm_sketch_free(t);
        return s;
    case 14: /* zeros only */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add_n(s, 0.0, 3));
        return s;
    case 15: /* overflow only */
        s = mk(NULL, 2);
        assert_ok(llmm_sketch_set_range(s, 1.0, 2.0));
        assert_ok(llmm_sketch_add_n(s, 100.0, 4));
        return s;
    case 16: /* the sum overflows to +Inf */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add(s, DBL_MAX));
        assert_ok(llmm_sketch_add(s, DBL_MAX));
        return s;
    case 17: /* widest range at scale 10, two buckets about two million indices apart */
        s = mk(NULL, 10);
        assert_ok(llmm_sketch_set_range(s, LLMM_SKETCH_RANGE_MIN_LIMIT,
                                        LLMM_SKETCH_RANGE_MAX_LIMIT));
        assert_ok(llmm_sketch_add(s, 1e-299));
        assert_ok(llmm_sketch_add(s, 1e299));
        return s;
    case 18: /* reset: empty again, store still allocated */
        s = mk(NULL, 6);
        add_lognormal(s, 100, 0.2, 1.0, 11);
        assert_ok(llmm_sketch_reset(s));
        return s;
    case 19: /* emptied by a subtraction */
        s = mk(NULL, 6);
        add_lognormal(s, 100, 0.2, 1.0, 12);
        t = NULL;
        assert_ok(llmm_sketch_clone(s, &t));
        assert_ok(llmm_sketch_subtract(s, t));
        llmm_sketch_free(t);
        return s;
    case 20: /* bucket at the top and the bottom of the range */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add(s, LLMM_SKETCH_RANGE_MIN_DEFAULT));
        assert_ok(llmm_sketch_add(s, LLMM_SKETCH_RANGE_MAX_DEFAULT));
        return s;
    case 21: /* one huge bucket count and neighbours: deltas of every width */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add_n(s, 1.0, 1));
        assert_ok(llmm_sketch_add_n(s, 1.012, UINT64_C(1) << 40));
        assert_ok(llmm_sketch_add_n(s, 1.023, 1));
        assert_ok(llmm_sketch_add_n(s, 1.034, UINT64_C(1) << 62));
        return s;
    case 22: /* negative zero counts as a zero */
        s = mk(NULL, 6);
        assert_ok(llmm_sketch_add(s, 2.0));
        assert_ok(llmm_sketch_add(s, -0.0));
        return s;
    case 23:
        s = mk(NULL, 6);
        add_lognormal(s, 20000, 200.0, 0.5, 13);
        return s;
    default:
        return NULL;
    }
}

/* ---- comparison -------------------------------------------------------------------------- */

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* a and b agree in every field, doubles bit for bit */
static void assert_identical(const llmm_sketch *a, const llmm_sketch *b)
{
    int32_t fa = 0, la = 0, fb = 0, lb = 0;
    double x, y, xl, xh, yl, yh;
    uint64_t z1, u1, o1, z2, u2, o2;
    llmm_status sa, sb;
    assert_int_equal(llmm_sketch_scale(a), llmm_sketch_scale(b));
    assert_ok(llmm_sketch_range(a, &xl, &xh));
    assert_ok(llmm_sketch_range(b, &yl, &yh));
    assert_true(bits_of(xl) == bits_of(yl) && bits_of(xh) == bits_of(yh));
    assert_true(llmm_sketch_count(a) == llmm_sketch_count(b));
    assert_ok(llmm_sketch_special_counts(a, &z1, &u1, &o1));
    assert_ok(llmm_sketch_special_counts(b, &z2, &u2, &o2));
    assert_true(z1 == z2 && u1 == u2 && o1 == o2);
    sa = llmm_sketch_bucket_span(a, &fa, &la);
    sb = llmm_sketch_bucket_span(b, &fb, &lb);
    assert_int_equal(sa, sb);
    if (sa == LLMM_OK) {
        assert_int_equal(fa, fb);
        assert_int_equal(la, lb);
        for (int32_t i = fa; i <= la; i++)
            assert_true(llmm_sketch_bucket_count(a, i) == llmm_sketch_bucket_count(b, i));
        assert_true(llmm_sketch_bucket_count(b, fa - 1) == 0);
        assert_true(llmm_sketch_bucket_count(b, la + 1) == 0);
    }
    assert_ok(llmm_sketch_sum(a, &x));
    assert_ok(llmm_sketch_sum(b, &y));
    assert_true(bits_of(x) == bits_of(y));
    assert_int_equal(llmm_sketch_min(a, &x), llmm_sketch_min(b, &y));
    if (llmm_sketch_count(a)) {
        assert_true(bits_of(x) == bits_of(y));
        assert_ok(llmm_sketch_max(a, &x));
        assert_ok(llmm_sketch_max(b, &y));
        assert_true(bits_of(x) == bits_of(y));
        /* ranks past 2^62 overflow the library's double rank computation (reported to the
         * sketch core): the counts above already prove those sketches equal */
        for (double q = 0.0; q <= 1.0 && llmm_sketch_count(a) <= (UINT64_C(1) << 62);
             q += 1.0 / 128) {
            assert_ok(llmm_sketch_quantile(a, q, &x));
            assert_ok(llmm_sketch_quantile(b, q, &y));
            assert_true(bits_of(x) == bits_of(y));
        }
    } else {
        assert_int_equal(llmm_sketch_quantile(b, 0.5, &y), LLMM_E_EMPTY);
    }
}

/* The encoding in an exactly sized heap block (so that a sanitizer sees any overread). */
static uint8_t *encode(const llmm_sketch *s, size_t *len)
{
    uint8_t *buf;
    assert_status(llmm_sketch_serialize(s, NULL, 0, len), LLMM_E_BUFFER);
    buf = malloc(*len);
    assert_non_null(buf);
    assert_ok(llmm_sketch_serialize(s, buf, *len, len));
    return buf;
}

/* ---- an independent CRC-32C and writer, from doc/format.md --------------------------------- */

static uint32_t crc32c_ref(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ ((c & 1u) ? 0x82f63b78u : 0u);
    }
    return ~c;
}

typedef struct {
    uint8_t b[256];
    size_t n;
} msg;

static void m_u8(msg *m, unsigned v)
{
    assert_true(m->n < sizeof m->b);
    m->b[m->n++] = (uint8_t)v;
}
static void m_le(msg *m, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        m_u8(m, (unsigned)(v >> (8 * i)) & 0xffu);
}
static void m_f64(msg *m, double d)
{
    m_le(m, bits_of(d), 8);
}
static void m_var(msg *m, uint64_t v)
{
    while (v >= 0x80) {
        m_u8(m, (unsigned)(v & 0x7f) | 0x80u);
        v >>= 7;
    }
    m_u8(m, (unsigned)v);
}
static void m_zz(msg *m, int64_t v)
{
    m_var(m, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
static void m_crc(msg *m)
{
    m_le(m, crc32c_ref(m->b, m->n), 4);
}

typedef struct {
    unsigned version, scale;
    double lo, hi, min, max, sum;
    uint64_t count, zero, under, over;
} fields;

static void m_head(msg *m, const fields *f, uint64_t nruns)
{
    m->n = 0;
    m_u8(m, 'L');
    m_u8(m, 'L');
    m_u8(m, 'M');
    m_u8(m, 'S');
    m_u8(m, f->version);
    m_u8(m, f->scale);
    m_f64(m, f->lo);
    m_f64(m, f->hi);
    m_f64(m, f->min);
    m_f64(m, f->max);
    m_f64(m, f->sum);
    m_var(m, f->count);
    m_var(m, f->zero);
    m_var(m, f->under);
    m_var(m, f->over);
    m_var(m, nruns);
}

/* The reference message: scale 6 over 1e-3 … 1e3; 1 zero, 2 below, 3 above the range, buckets
 * 0: 5, 1: 0, 2: 7 (one run) and 13: 2 (a second run after 10 empty buckets). */
static fields ref_fields(void)
{
    fields f = {1, 6, 1e-3, 1e3, 0.0, 5000.0, 1234.5, 20, 1, 2, 3};
    return f;
}
static void m_ref_runs(msg *m)
{
    m_zz(m, 0);
    m_var(m, 3);
    m_zz(m, 5);
    m_zz(m, -5);
    m_zz(m, 7);
    m_var(m, 10);
    m_var(m, 1);
    m_zz(m, 2);
}

/* Decode a copy in an exactly sized block through a counting allocator, free the result, and
 * return the status. A failure must leave *out NULL and allocate nothing. */
static llmm_status decode_counted(const uint8_t *p, size_t n)
{
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    size_t before = t.calls;
    llmm_sketch *s = (llmm_sketch *)&t; /* not NULL: the call must clear it */
    uint8_t *copy = malloc(n ? n : 1);
    llmm_status st;
    assert_non_null(ctx);
    assert_non_null(copy);
    memcpy(copy, p, n);
    st = llmm_sketch_deserialize(ctx, copy, n, &s);
    free(copy);
    if (st != LLMM_OK) {
        assert_null(s);
        assert_int_equal(t.calls, before);
    }
    llmm_sketch_free(s);
    llmm_ctx_free(ctx);
    assert_int_equal(t.live_bytes, 0);
    return st;
}

static llmm_status decode_msg(const msg *m)
{
    return decode_counted(m->b, m->n);
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_layout_matches_document(void **state)
{
    llmm_sketch *s = make_case(5);
    size_t len;
    uint8_t *b = encode(s, &len);
    double lo, hi;
    (void)state;
    assert_memory_equal(b, "LLMS", 4);
    assert_int_equal(b[4], LLMM_SKETCH_FORMAT_VERSION);
    assert_int_equal(LLMM_SKETCH_FORMAT_VERSION, 1);
    assert_int_equal(b[5], 4);
    assert_ok(llmm_sketch_range(s, &lo, &hi));
    {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | b[6 + i];
        assert_true(v == bits_of(lo));
        v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | b[14 + i];
        assert_true(v == bits_of(hi));
    }
    /* trailer: CRC-32C of everything before it, little-endian */
    {
        uint32_t crc = crc32c_ref(b, len - 4);
        assert_int_equal(b[len - 4], crc & 0xff);
        assert_int_equal(b[len - 3], (crc >> 8) & 0xff);
        assert_int_equal(b[len - 2], (crc >> 16) & 0xff);
        assert_int_equal(b[len - 1], crc >> 24);
    }
    assert_int_equal(crc32c_ref((const uint8_t *)"123456789", 9), 0xe3069283u);
    free(b);
    llmm_sketch_free(s);
}

static void test_round_trip_every_field(void **state)
{
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        llmm_sketch *s = make_case(c), *d = NULL;
        size_t len, len2;
        double mx;
        uint8_t *b, *b2;
        assert_non_null(s);
        b = encode(s, &len);
        assert_ok(llmm_sketch_deserialize(NULL, b, len, &d));
        assert_non_null(d);
        assert_identical(s, d);
        /* the decoded sketch encodes to the same bytes */
        b2 = encode(d, &len2);
        assert_int_equal(len, len2);
        assert_memory_equal(b, b2, len);
        /* and keeps working as a sketch (not tried on zeros-only sketches: adding to one
         * maps max = 0 in the core's fast-window refresh, reported to the sketch core) */
        if (llmm_sketch_count(s) < UINT64_MAX / 4 && (llmm_sketch_max(s, &mx) != LLMM_OK ||
                                                      mx > 0.0)) {
            assert_ok(llmm_sketch_add(d, 0.3));
            assert_ok(llmm_sketch_add(s, 0.3));
            assert_identical(s, d);
            assert_ok(llmm_sketch_merge(d, s));
        }
        free(b);
        free(b2);
        llmm_sketch_free(s);
        llmm_sketch_free(d);
    }
    assert_null(make_case(NCASES));
}

/* fuzz_sketch_decode: re-encoding a decoded message changed its sum field. The format allows
 * any sum that is not negative (when the sum was kept in two lanes, adding the empty lane
 * turned -0.0 into +0.0 and quieted a signalling NaN). Every such sum must read back, and
 * encode again, bit for bit; a negative one is corrupt (issue 24: the values never are). */
static void test_any_sum_round_trips(void **state)
{
    static const uint64_t sums[] = {
        UINT64_C(0x8000000000000000), /* -0.0 */
        UINT64_C(0x7ff0000000000001), /* signalling NaN */
        UINT64_C(0x7ff8000000000abc), /* quiet NaN with a payload */
        UINT64_C(0xfff8000000000000), /* a NaN with the sign bit */
        UINT64_C(0x7ff0000000000000), /* +Inf */
        UINT64_C(0x0000000000000001), /* the smallest subnormal */
    };
    static const uint64_t negative[] = {
        UINT64_C(0xfff0000000000000), /* -Inf */
        UINT64_C(0xc08f400000000000), /* -1000 */
        UINT64_C(0x8000000000000001), /* minus the smallest subnormal */
    };
    (void)state;
    for (size_t k = 0; k < sizeof negative / sizeof *negative; k++) {
        msg m;
        fields f = ref_fields();
        memcpy(&f.sum, &negative[k], sizeof f.sum);
        m_head(&m, &f, 2);
        m_ref_runs(&m);
        m_crc(&m);
        assert_status(decode_msg(&m), LLMM_E_CORRUPT);
    }
    for (size_t k = 0; k < sizeof sums / sizeof *sums; k++) {
        msg m;
        fields f = ref_fields();
        llmm_sketch *s = NULL;
        uint8_t *b;
        size_t len;
        double v;
        memcpy(&f.sum, &sums[k], sizeof f.sum);
        m_head(&m, &f, 2);
        m_ref_runs(&m);
        m_crc(&m);
        assert_ok(llmm_sketch_deserialize(NULL, m.b, m.n, &s));
        assert_ok(llmm_sketch_sum(s, &v));
        assert_true(bits_of(v) == sums[k]);
        b = encode(s, &len);
        assert_int_equal(len, m.n);
        assert_memory_equal(b, m.b, len);
        free(b);
        llmm_sketch_free(s);
    }
}

static void test_hand_built_message(void **state)
{
    msg m;
    fields f = ref_fields();
    llmm_sketch *s = NULL;
    uint64_t z, u, o;
    int32_t first, last, ilo, ihi;
    double v;
    (void)state;
    m_head(&m, &f, 2);
    m_ref_runs(&m);
    m_crc(&m);
    assert_ok(decode_msg(&m));
    assert_ok(llmm_sketch_deserialize(NULL, m.b, m.n, &s));
    assert_int_equal(llmm_sketch_scale(s), 6);
    assert_true(llmm_sketch_count(s) == 20);
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    assert_true(z == 1 && u == 2 && o == 3);
    assert_ok(llmm_sketch_bucket_span(s, &first, &last));
    assert_int_equal(first, 0);
    assert_int_equal(last, 13);
    for (int32_t i = -3; i <= 16; i++) {
        uint64_t expect = i == 0 ? 5 : i == 2 ? 7 : i == 13 ? 2 : 0;
        assert_true(llmm_sketch_bucket_count(s, i) == expect);
    }
    assert_ok(llmm_sketch_sum(s, &v));
    assert_true(v == 1234.5);
    /* rank 1 is the min (the zero), ranks 2-3 the underflow (-> the range's lower bound),
     * ranks 4-8 bucket 0 (-> its representative 2·base/(1+base)), 9-15 bucket 2, 16-17
     * bucket 13, 18-19 the overflow (-> the range's upper bound), 20 the max */
    assert_ok(llmm_sketch_quantile(s, 2.0 / 20, &v));
    assert_true(v == 1e-3);
    assert_ok(llmm_sketch_quantile(s, 4.0 / 20, &v));
    {
        double base = exp2(1.0 / 64);
        assert_close(v, 2.0 * base / (1.0 + base), 1e-15, 0);
    }
    assert_ok(llmm_sketch_quantile(s, 1.0, &v));
    assert_true(v == 5000.0);
    assert_ok(llmm_sketch_quantile(s, 0.9, &v)); /* rank 18: overflow -> upper range bound */
    assert_true(v == 1e3);
    /* the range bounds land on the buckets the public mapping gives */
    assert_ok(llmm_sketch_index(6, 1e-3, &ilo));
    assert_ok(llmm_sketch_index(6, 1e3, &ihi));
    assert_true(ilo < 0 && ihi > 13);
    llmm_sketch_free(s);
}

/* Variants of the reference message, each with a valid CRC. */
static void test_hand_built_rejects(void **state)
{
    msg m;
    fields f;
    int32_t ilo, ihi;
    (void)state;
    assert_ok(llmm_sketch_index(6, 1e-3, &ilo));
    assert_ok(llmm_sketch_index(6, 1e3, &ihi));

    /* versions other than 1 with an intact checksum: LLMM_E_VERSION */
    {
        const unsigned versions[] = {0, 2, 3, 127, 255};
        for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
            f = ref_fields();
            f.version = versions[i];
            m_head(&m, &f, 2);
            m_ref_runs(&m);
            m_crc(&m);
            assert_status(decode_msg(&m), LLMM_E_VERSION);
        }
        /* a later version may be shorter than version 1's fixed part */
        m.n = 0;
        m_u8(&m, 'L');
        m_u8(&m, 'L');
        m_u8(&m, 'M');
        m_u8(&m, 'S');
        m_u8(&m, 2);
        m_crc(&m);
        assert_status(decode_msg(&m), LLMM_E_VERSION);
        m.b[4] = 1;
        m.n = 5;
        m_crc(&m);
        assert_status(decode_msg(&m), LLMM_E_CORRUPT);
    }

#define EXPECT_CORRUPT_FIELDS(mutate)                                                          \
    do {                                                                                       \
        f = ref_fields();                                                                      \
        mutate;                                                                                \
        m_head(&m, &f, 2);                                                                     \
        m_ref_runs(&m);                                                                        \
        m_crc(&m);                                                                             \
        assert_status(decode_msg(&m), LLMM_E_CORRUPT);                                         \
    } while (0)

    EXPECT_CORRUPT_FIELDS(f.scale = 11);
    EXPECT_CORRUPT_FIELDS(f.scale = 255);
    EXPECT_CORRUPT_FIELDS(f.lo = NAN);
    EXPECT_CORRUPT_FIELDS(f.lo = 0.0);
    EXPECT_CORRUPT_FIELDS(f.lo = -1.0);
    EXPECT_CORRUPT_FIELDS(f.lo = 1e-301);
    EXPECT_CORRUPT_FIELDS(f.hi = INFINITY);
    EXPECT_CORRUPT_FIELDS(f.hi = NAN);
    EXPECT_CORRUPT_FIELDS(f.hi = 1e301);
    EXPECT_CORRUPT_FIELDS(f.hi = f.lo);
    EXPECT_CORRUPT_FIELDS((f.lo = 10.0, f.hi = 1.0));
    EXPECT_CORRUPT_FIELDS(f.count = 19);
    EXPECT_CORRUPT_FIELDS(f.count = 21);
    EXPECT_CORRUPT_FIELDS(f.zero = 0);
    EXPECT_CORRUPT_FIELDS(f.over = 4);
    /* totals that only match modulo 2^64 */
    EXPECT_CORRUPT_FIELDS((f.zero = UINT64_MAX, f.count = 18));
    EXPECT_CORRUPT_FIELDS((f.under = UINT64_MAX - 1, f.count = 16));
    EXPECT_CORRUPT_FIELDS((f.over = UINT64_MAX - 2, f.count = 14));
    EXPECT_CORRUPT_FIELDS((f.count = UINT64_MAX, f.over = UINT64_MAX - 16));
    f = ref_fields();
    f.count = UINT64_MAX;
    f.over = UINT64_MAX - 17; /* 14 + 1 + 2 + over = 2^64 - 1 exactly */
    m_head(&m, &f, 2);
    m_ref_runs(&m);
    m_crc(&m);
    assert_ok(decode_msg(&m));
    /* min / max */
    EXPECT_CORRUPT_FIELDS((f.min = 6000.0));
    EXPECT_CORRUPT_FIELDS((f.min = -1.0));
    EXPECT_CORRUPT_FIELDS((f.min = -0.0));
    EXPECT_CORRUPT_FIELDS((f.min = NAN));
    EXPECT_CORRUPT_FIELDS((f.max = INFINITY));
    EXPECT_CORRUPT_FIELDS((f.max = NAN));
    EXPECT_CORRUPT_FIELDS((f.max = -1.0));
    EXPECT_CORRUPT_FIELDS((f.min = INFINITY, f.max = INFINITY));
    EXPECT_CORRUPT_FIELDS((f.max = 0.0)); /* buckets and over, yet max 0 */
#undef EXPECT_CORRUPT_FIELDS

    /* bucket runs: each variant replaces the reference runs */
#define EXPECT_RUNS(status, nruns, total, runs)                                                \
    do {                                                                                       \
        f = ref_fields();                                                                      \
        f.count = 6 + (total);                                                                 \
        m_head(&m, &f, nruns);                                                                 \
        runs;                                                                                  \
        m_crc(&m);                                                                             \
        assert_status(decode_msg(&m), status);                                                 \
    } while (0)

    /* sanity: the helper builds valid messages */
    EXPECT_RUNS(LLMM_OK, 0, 0, (void)0);
    EXPECT_RUNS(LLMM_OK, 1, 3, (m_zz(&m, ilo), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_OK, 1, 3, (m_zz(&m, ihi), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_OK, 2, 4, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3), m_var(&m, 1),
                                m_var(&m, 1), m_zz(&m, 1)));
    EXPECT_RUNS(LLMM_OK, 1, 4, (m_zz(&m, ihi - 1), m_var(&m, 2), m_zz(&m, 3), m_zz(&m, -2)));
    /* first index outside the range */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, ilo - 1), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, ihi + 1), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, INT64_MIN), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, INT64_MAX), m_var(&m, 1), m_zz(&m, 3)));
    /* lengths: zero, past the range's end, absurd */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 0, (m_zz(&m, 0), m_var(&m, 0)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 4, (m_zz(&m, ihi), m_var(&m, 2), m_zz(&m, 3), m_zz(&m, -2)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, UINT64_MAX), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, ilo), m_var(&m, (uint64_t)1 << 62), m_zz(&m, 3)));
    /* runs must start and end on a non-empty bucket */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 0, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 0)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 2), m_zz(&m, 0), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 2), m_zz(&m, 3), m_zz(&m, -3)));
    /* a count that goes negative wraps to a huge one: the totals no longer add up */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 2, (m_zz(&m, 0), m_var(&m, 2), m_zz(&m, 3), m_zz(&m, -4)));
    /* gaps: zero, past the range's end */
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 4, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3), m_var(&m, 0),
                                       m_var(&m, 1), m_zz(&m, 1)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 4, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3),
                                       m_var(&m, (uint64_t)ihi), m_var(&m, 1), m_zz(&m, 1)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 4, (m_zz(&m, ihi), m_var(&m, 1), m_zz(&m, 3), m_var(&m, 1),
                                       m_var(&m, 1), m_zz(&m, 1)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 4, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3),
                                       m_var(&m, UINT64_MAX), m_var(&m, 1), m_zz(&m, 1)));
    /* bucket counts that overflow 2^64 together (and match count modulo 2^64) */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 0, (m_zz(&m, 0), m_var(&m, 2), m_zz(&m, INT64_MIN),
                                       m_zz(&m, 0)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 1, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, -1), m_var(&m, 1),
                                       m_var(&m, 1), m_zz(&m, 2)));
    /* run count disagrees with the runs present */
    EXPECT_RUNS(LLMM_E_CORRUPT, 2, 3, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 4, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3), m_var(&m, 1),
                                       m_var(&m, 1), m_zz(&m, 1)));
    EXPECT_RUNS(LLMM_E_CORRUPT, UINT64_MAX, 3, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3)));
    /* bytes after the last run (checksum recomputed over them) */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 1), m_zz(&m, 3), m_u8(&m, 0)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 0, 0, m_u8(&m, 0));
    /* varints not in their shortest form, or wider than 64 bits */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_u8(&m, 0x81), m_u8(&m, 0x00), m_zz(&m, 3)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 1), m_u8(&m, 0x86), m_u8(&m, 0)));
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 1), m_u8(&m, 0xff), m_u8(&m, 0xff),
                                       m_u8(&m, 0xff), m_u8(&m, 0xff), m_u8(&m, 0xff),
                                       m_u8(&m, 0xff), m_u8(&m, 0xff), m_u8(&m, 0xff),
                                       m_u8(&m, 0xff), m_u8(&m, 0x7f)));
    /* a varint cut by the end of the message */
    EXPECT_RUNS(LLMM_E_CORRUPT, 1, 3, (m_zz(&m, 0), m_var(&m, 1), m_u8(&m, 0x86)));
#undef EXPECT_RUNS

    /* an overlong varint in the header */
    f = ref_fields();
    m_head(&m, &f, 2);
    m.n -= 2; /* drop "over" (3) and nruns (2), write them long */
    m_u8(&m, 0x83);
    m_u8(&m, 0x00);
    m_var(&m, 2);
    m_ref_runs(&m);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);

    /* only zeros: max 0 is right; only underflow: max 0 is not */
    f = ref_fields();
    f.count = f.zero = 4;
    f.under = f.over = 0;
    f.max = 0.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_ok(decode_msg(&m));
    f.zero = 3;
    f.under = 1;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);
    f.max = 1e-4;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_ok(decode_msg(&m));

    /* empty sketches: min and max are +0.0, the sum +0.0 or -0.0 */
    f = ref_fields();
    f.count = f.zero = f.under = f.over = 0;
    f.min = f.max = 0.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT); /* the sum of nothing is 1234.5 */
    f.sum = NAN;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);
    f.sum = -0.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_ok(decode_msg(&m));
    f.sum = 0.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_ok(decode_msg(&m));
    f.min = 1.0;
    f.max = 1.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);
    f.min = 0.0;
    f.max = -0.0;
    m_head(&m, &f, 0);
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);

    /* the magic, with an intact checksum */
    f = ref_fields();
    m_head(&m, &f, 2);
    m_ref_runs(&m);
    m.b[0] = 'l';
    m_crc(&m);
    assert_status(decode_msg(&m), LLMM_E_CORRUPT);
}

/* Issue 24: a message whose fields contradict each other behind a valid CRC. The reference
 * message counts a zero and buckets 0, 2 and 13 at scale 6 (bucket i holds (2^(i/64),
 * 2^((i+1)/64)]: bucket 0 is (1, 1.0109], bucket 13 (1.1510, 1.1635]). */
static void test_fields_agree(void **state)
{
    static const struct {
        double min, max;
        uint64_t zero, under, over;
        llmm_status want;
    } cases[] = {
        {0.0, 5000.0, 1, 2, 3, LLMM_OK},       /* the reference */
        {1e-6, 5000.0, 1, 2, 3, LLMM_E_CORRUPT}, /* a zero counted, the min above it */
        {0.0, 1.16, 1, 2, 3, LLMM_OK},         /* the max in the top bucket */
        {0.0, 1.15, 1, 2, 3, LLMM_E_CORRUPT},  /* the max below the top bucket */
        {0.0, 0.5, 1, 2, 3, LLMM_E_CORRUPT},
        {0.0, 1.005, 1, 2, 3, LLMM_E_CORRUPT},
        {1.005, 5000.0, 0, 3, 3, LLMM_OK},     /* no zero: the min in the lowest bucket */
        {1e-4, 5000.0, 0, 3, 3, LLMM_OK},      /* or below it */
        {1.02, 5000.0, 0, 3, 3, LLMM_E_CORRUPT}, /* above the lowest bucket */
        {1.2, 5000.0, 0, 3, 3, LLMM_E_CORRUPT},
        {1.16, 1.16, 0, 3, 3, LLMM_E_CORRUPT},
    };
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        msg m;
        fields f = ref_fields();
        f.min = cases[k].min;
        f.max = cases[k].max;
        f.zero = cases[k].zero;
        f.under = cases[k].under;
        f.over = cases[k].over;
        m_head(&m, &f, 2);
        m_ref_runs(&m);
        m_crc(&m);
        if (decode_msg(&m) != cases[k].want)
            fail_msg("case %zu: min %g max %g zero %llu: status %d, want %d", k, f.min, f.max,
                     (unsigned long long)f.zero, (int)decode_msg(&m), (int)cases[k].want);
    }
}

/* A sketch the library makes decodes: subtractions that are no snapshot difference keep
 * extremes that enclose the counts, and a sum that rounding would make negative is 0. */
static void assert_round_trips(const llmm_sketch *s)
{
    size_t len;
    uint8_t *b = encode(s, &len);
    llmm_sketch *back = NULL;
    assert_ok(llmm_sketch_deserialize(NULL, b, len, &back));
    assert_identical(s, back);
    llmm_sketch_free(back);
    free(b);
}

static llmm_sketch *with_values(const double *v, size_t n)
{
    llmm_sketch *s = mk(NULL, 6);
    assert_ok(llmm_sketch_add_many(s, v, n));
    return s;
}

static void test_subtraction_results_decode(void **state)
{
    static const double a1[] = {1.5, 100.0}, e1[] = {1.501}; /* 1.501 shares 1.5's bucket */
    static const double a2[] = {0.0, 0.0, 5.0}, e2[] = {0.0, 4.99};
    static const double a3[] = {0.0, 1e16}, e3[] = {1e17};    /* both above the range */
    const double *a[] = {a1, a2, a3}, *e[] = {e1, e2, e3};
    const size_t na[] = {2, 3, 2}, ne[] = {1, 2, 1};
    double x, y;
    (void)state;
    for (int k = 0; k < 3; k++) {
        llmm_sketch *s = with_values(a[k], na[k]), *t = with_values(e[k], ne[k]);
        assert_ok(llmm_sketch_subtract(s, t));
        assert_true(llmm_sketch_count(s) == 1);
        assert_round_trips(s);
        llmm_sketch_free(s);
        llmm_sketch_free(t);
    }
    /* a running merge that subtracts what left it, as a window does: 1 + 2^-53 rounds to 1,
     * so taking 1 and then 2^-53 back would leave -2^-53 */
    {
        static const double v[] = {1.0, 0x1p-53, 0x1p-60};
        llmm_sketch *acc = mk(NULL, 6), *one[3];
        for (int k = 0; k < 3; k++) {
            one[k] = with_values(&v[k], 1);
            assert_ok(llmm_sketch_merge(acc, one[k]));
        }
        assert_ok(llmm_sketch_subtract(acc, one[0]));
        assert_ok(llmm_sketch_subtract(acc, one[1]));
        assert_ok(llmm_sketch_sum(acc, &x));
        assert_true(x == 0.0);
        assert_ok(llmm_sketch_min(acc, &x));
        assert_ok(llmm_sketch_max(acc, &y));
        assert_true(x <= y);
        assert_round_trips(acc);
        for (int k = 0; k < 3; k++)
            llmm_sketch_free(one[k]);
        llmm_sketch_free(acc);
    }
}

/* Encodings used by the damage tests (cases of make_case). */
static const int damage_cases[] = {0, 2, 5, 8, 9, 10, 11, 14, 15, 21, 3};

static void test_every_byte_damage_rejected(void **state)
{
    const uint8_t xors[] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff, 0x5a, 0x33};
    (void)state;
    for (size_t c = 0; c < sizeof damage_cases / sizeof *damage_cases; c++) {
        llmm_sketch *s = make_case(damage_cases[c]);
        size_t len;
        uint8_t *b = encode(s, &len), *d = malloc(len);
        assert_non_null(d);
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t k = 0; k < sizeof xors / sizeof *xors + 2; k++) {
                llmm_status st;
                memcpy(d, b, len);
                if (k < sizeof xors / sizeof *xors)
                    d[pos] ^= xors[k];
                else
                    d[pos] = k == sizeof xors / sizeof *xors ? 0x00 : 0xff;
                if (d[pos] == b[pos])
                    continue;
                st = decode_counted(d, len);
                if (st != LLMM_E_CORRUPT) {
                    print_error("case %d: byte %zu of %zu changed to 0x%02x: %s\n",
                                damage_cases[c], pos, len, d[pos], llmm_status_name(st));
                    fail();
                }
            }
        }
        free(b);
        free(d);
        llmm_sketch_free(s);
    }
}

/* The same damage with the checksum recomputed, so that the body's own validation is what
 * stands: every result is a clean status; only the version byte gives LLMM_E_VERSION; what is
 * accepted is a consistent sketch that survives another round trip unchanged. */
static void test_damage_behind_a_valid_checksum(void **state)
{
    const uint8_t xors[] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff, 0x7f};
    size_t accepted = 0, rejected = 0;
    (void)state;
    for (size_t c = 0; c < sizeof damage_cases / sizeof *damage_cases; c++) {
        llmm_sketch *s = make_case(damage_cases[c]);
        size_t len;
        uint8_t *b = encode(s, &len), *d = malloc(len);
        assert_non_null(d);
        for (size_t pos = 0; pos + 4 < len; pos++) {
            for (size_t k = 0; k < sizeof xors / sizeof *xors; k++) {
                llmm_sketch *x = NULL, *y = NULL;
                llmm_status st;
                uint32_t crc;
                memcpy(d, b, len);
                d[pos] ^= xors[k];
                crc = crc32c_ref(d, len - 4);
                for (int i = 0; i < 4; i++)
                    d[len - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
                st = decode_counted(d, len);
                if (pos == 4) {
                    assert_int_equal(st, LLMM_E_VERSION);
                    continue;
                }
                if (st != LLMM_OK) {
                    assert_int_equal(st, LLMM_E_CORRUPT);
                    rejected++;
                    continue;
                }
                accepted++;
                assert_ok(llmm_sketch_deserialize(NULL, d, len, &x));
                {
                    size_t n2;
                    uint8_t *again = encode(x, &n2);
                    uint64_t z, u, o, total = 0;
                    int32_t f, l;
                    assert_ok(llmm_sketch_deserialize(NULL, again, n2, &y));
                    assert_identical(x, y);
                    assert_ok(llmm_sketch_special_counts(x, &z, &u, &o));
                    if (llmm_sketch_bucket_span(x, &f, &l) == LLMM_OK)
                        for (int32_t i = f; i <= l; i++)
                            total += llmm_sketch_bucket_count(x, i);
                    assert_true(total + z + u + o == llmm_sketch_count(x));
                    free(again);
                }
                llmm_sketch_free(x);
                llmm_sketch_free(y);
            }
        }
        free(b);
        free(d);
        llmm_sketch_free(s);
    }
    /* both outcomes occur: doubles such as the sum accept any bits, counts do not */
    assert_true(accepted > 0);
    assert_true(rejected > accepted);
}

static void test_every_truncation_rejected(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof damage_cases / sizeof *damage_cases; c++) {
        llmm_sketch *s = make_case(damage_cases[c]);
        size_t len;
        uint8_t *b = encode(s, &len), *longer = malloc(len + 8);
        assert_non_null(longer);
        for (size_t n = 0; n < len; n++) {
            llmm_status st = decode_counted(b, n);
            if (st != LLMM_E_CORRUPT) {
                print_error("case %d: first %zu of %zu bytes: %s\n", damage_cases[c], n, len,
                            llmm_status_name(st));
                fail();
            }
            /* the same prefix with the end cut from the middle instead (one byte removed) */
            if (n + 1 < len) {
                memcpy(longer, b, n);
                memcpy(longer + n, b + n + 1, len - n - 1);
                assert_status(decode_counted(longer, len - 1), LLMM_E_CORRUPT);
            }
        }
        /* extended by a few bytes */
        memcpy(longer, b, len);
        memset(longer + len, 0, 8);
        for (size_t extra = 1; extra <= 8; extra++)
            assert_status(decode_counted(longer, len + extra), LLMM_E_CORRUPT);
        assert_ok(decode_counted(b, len));
        free(b);
        free(longer);
        llmm_sketch_free(s);
    }
}

static void test_arguments(void **state)
{
    llmm_sketch *s = make_case(3), *d = NULL;
    size_t len = 77;
    uint8_t byte = 0;
    (void)state;
    assert_status(llmm_sketch_serialize(NULL, NULL, 0, &len), LLMM_E_INVALID);
    assert_int_equal(len, 77);
    assert_status(llmm_sketch_serialize(s, NULL, 0, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_serialize(s, NULL, 10, &len), LLMM_E_INVALID);
    assert_status(llmm_sketch_deserialize(NULL, &byte, 1, NULL), LLMM_E_INVALID);
    d = s;
    assert_status(llmm_sketch_deserialize(NULL, NULL, 10, &d), LLMM_E_INVALID);
    assert_null(d);
    d = s;
    assert_status(llmm_sketch_deserialize(NULL, NULL, 0, &d), LLMM_E_INVALID);
    assert_null(d);
    d = s;
    assert_status(llmm_sketch_deserialize(NULL, &byte, 0, &d), LLMM_E_CORRUPT);
    assert_null(d);
    llmm_sketch_free(s);
}

static void test_buffer_too_small(void **state)
{
    (void)state;
    for (int c = 0; c < 12; c++) {
        llmm_sketch *s = make_case(c);
        size_t need = 0, len;
        uint8_t *buf, *ref;
        assert_status(llmm_sketch_serialize(s, NULL, 0, &need), LLMM_E_BUFFER);
        assert_true(need >= 55); /* the smallest message: empty sketch */
        ref = encode(s, &len);
        assert_int_equal(len, need);
        buf = malloc(need + 16);
        assert_non_null(buf);
        /* every size short of the need: BUFFER, the size, buffer untouched */
        for (size_t cap = 0; cap < need; cap += (cap < 64 ? 1 : 97)) {
            len = 0;
            memset(buf, 0xa5, need + 16);
            assert_status(llmm_sketch_serialize(s, buf, cap, &len), LLMM_E_BUFFER);
            assert_int_equal(len, need);
            for (size_t i = 0; i < need + 16; i++)
                assert_int_equal(buf[i], 0xa5);
        }
        len = 0;
        assert_status(llmm_sketch_serialize(s, buf, need - 1, &len), LLMM_E_BUFFER);
        assert_int_equal(len, need);
        /* exactly enough, and more than enough: only need bytes written */
        memset(buf, 0xa5, need + 16);
        assert_ok(llmm_sketch_serialize(s, buf, need, &len));
        assert_int_equal(len, need);
        assert_memory_equal(buf, ref, need);
        memset(buf, 0xa5, need + 16);
        assert_ok(llmm_sketch_serialize(s, buf, need + 16, &len));
        assert_int_equal(len, need);
        assert_memory_equal(buf, ref, need);
        for (size_t i = need; i < need + 16; i++)
            assert_int_equal(buf[i], 0xa5);
        free(buf);
        free(ref);
        llmm_sketch_free(s);
    }
}

typedef struct {
    const uint8_t *buf;
    size_t len;
    const llmm_sketch *orig;
} decode_arg;

static llmm_status decode_step(llmm_ctx *ctx, void *arg)
{
    const decode_arg *a = arg;
    llmm_sketch *s = NULL;
    llmm_status st = llmm_sketch_deserialize(ctx, a->buf, a->len, &s);
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    assert_identical(a->orig, s);
    llmm_sketch_free(s);
    return LLMM_OK;
}

static void test_allocation_failures(void **state)
{
    const int cases[] = {0, 3, 8, 9};
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        llmm_sketch *s = make_case(cases[c]);
        decode_arg a;
        size_t len, allocs;
        a.buf = encode(s, &len);
        a.len = len;
        a.orig = s;
        allocs = llmm_test_each_failure(decode_step, &a);
        /* the sketch, plus its bucket store when there are buckets */
        assert_int_equal(allocs, cases[c] == 0 ? 1 : 2);
        free((void *)(uintptr_t)a.buf);
        llmm_sketch_free(s);
    }
}

static void test_serialize_never_allocates(void **state)
{
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    llmm_sketch *s = mk(ctx, 6);
    uint8_t buf[4096];
    size_t len, calls;
    (void)state;
    add_lognormal(s, 5000, 0.2, 1.0, 42);
    calls = t.calls;
    assert_status(llmm_sketch_serialize(s, NULL, 0, &len), LLMM_E_BUFFER);
    assert_ok(llmm_sketch_serialize(s, buf, sizeof buf, &len));
    assert_int_equal(t.calls, calls);
    llmm_sketch_free(s);
    llmm_ctx_free(ctx);
}

/* Encoded size of a log-normal series (median 0.2, 10 M values) at scale 6. */
static size_t lognormal_size(double sigma, uint64_t seed, llmm_sketch **keep)
{
    llmm_sketch *s = mk(NULL, 6);
    size_t len;
    add_lognormal(s, 10000000, 0.2, sigma, seed);
    assert_status(llmm_sketch_serialize(s, NULL, 0, &len), LLMM_E_BUFFER);
    *keep = s;
    return len;
}

static void test_typical_sizes(void **state)
{
    llmm_sketch *s1, *s2, *d = NULL;
    size_t n1 = lognormal_size(1.0, 2024, &s1), n2 = lognormal_size(2.0, 2025, &s2), len;
    uint8_t *b;
    (void)state;
    fprintf(stderr, "# encoded size, 10 M log-normal values, scale 6: sigma 1: %zu bytes, "
                    "sigma 2: %zu bytes\n", n1, n2);
    assert_true(n1 <= 2048); /* doc/spec.md §10 */
    /* a regression guard at the measured sigma = 2 size plus a margin */
    assert_true(n2 <= 3072);
    b = encode(s2, &len);
    assert_ok(llmm_sketch_deserialize(NULL, b, len, &d));
    assert_identical(s2, d);
    free(b);
    llmm_sketch_free(d);
    llmm_sketch_free(s1);
    llmm_sketch_free(s2);
}

/* ---- llmm_sketch_deserialize_ex ------------------------------------------------------------ */

/* The reference message with f's fields, sealed. */
static void m_ref(msg *m, const fields *f)
{
    m_head(m, f, 2);
    m_ref_runs(m);
    m_crc(m);
}

/* Decode m both ways: the strict call's status, and the _ex call's status and info. */
static llmm_status decode_ex(const msg *m, llmm_sketch **out, llmm_decode_info *info)
{
    llmm_sketch *strict = NULL;
    llmm_status st = llmm_sketch_deserialize(NULL, m->b, m->n, &strict);
    llmm_sketch_free(strict);
    assert_ok(llmm_decode_info_init(info));
    if (llmm_sketch_deserialize_ex(NULL, m->b, m->n, out, info) == LLMM_OK)
        assert_int_equal(st, info->repaired ? LLMM_E_CORRUPT : LLMM_OK);
    else
        assert_int_equal(st, llmm_sketch_deserialize_ex(NULL, m->b, m->n, out, info));
    return st;
}

/* Every rule of doc/format.md 3.4 broken alone is named; only rule 6 is repaired. */
static void test_rules_named(void **state)
{
    static const struct {
        double min, max, sum;
        uint64_t count, zero;
        int rule;
    } cases[] = {
        {0.0, 5000.0, 1234.5, 20, 1, 0},    /* the reference */
        {0.0, 5000.0, 1234.5, 21, 1, 1},    /* counts that do not add up */
        {6000.0, 5000.0, 1234.5, 19, 0, 3}, /* min above max (no zero counted) */
        {0.0, 0.0, 1234.5, 20, 1, 4},       /* values other than 0, a max of 0 */
        {1e-6, 5000.0, 1234.5, 20, 1, 5},   /* a zero counted, the min above it */
        {0.0, 5000.0, -1.0, 20, 1, 7},      /* a negative sum */
        {0.0, 1.15, 1234.5, 20, 1, 6},      /* the max below the top bucket */
    };
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        msg m;
        llmm_sketch *s = NULL;
        llmm_decode_info info;
        fields f = ref_fields();
        llmm_status strict;
        f.min = cases[k].min;
        f.max = cases[k].max;
        f.sum = cases[k].sum;
        f.count = cases[k].count;
        f.zero = cases[k].zero;
        m_ref(&m, &f);
        strict = decode_ex(&m, &s, &info);
        if (info.rule != cases[k].rule || info.intact != 1 || info.version != 1 ||
            info.message_min != f.min || info.message_max != f.max)
            fail_msg("case %zu: rule %d (want %d), intact %d, min %g max %g", k, (int)info.rule,
                     cases[k].rule, (int)info.intact, info.message_min, info.message_max);
        assert_int_equal(strict, cases[k].rule ? LLMM_E_CORRUPT : LLMM_OK);
        assert_int_equal(info.repaired, cases[k].rule == 6);
        assert_true((s != NULL) == (cases[k].rule == 0 || cases[k].rule == 6));
        llmm_sketch_free(s);
    }
    {   /* rule 2: an empty message with a max */
        msg m;
        llmm_sketch *s;
        llmm_decode_info info;
        fields f = {1, 6, 1e-3, 1e3, 0.0, 1.0, 0.0, 0, 0, 0, 0};
        m_head(&m, &f, 0);
        m_crc(&m);
        assert_int_equal(decode_ex(&m, &s, &info), LLMM_E_CORRUPT);
        assert_int_equal(info.rule, 2);
        assert_null(s);
    }
}

/* A repaired message decodes to a sketch whose encoding the strict reader accepts, with its
 * counts and sum, and extremes where section 3.4 says: the range's ends when values fell
 * outside it, else the representative of the extreme bucket. */
static void test_rule_6_repaired(void **state)
{
    static const struct {
        double min, max;
        uint64_t count, zero, under, over;
        double want_min, want_max; /* 0: the bucket's representative, checked by its bucket */
    } cases[] = {
        {0.0, 1.15, 20, 1, 2, 3, 0.0, 1e3},     /* values overflowed: the range's top */
        {0.0, 1.15, 14, 0, 0, 0, 0.0, 0.0},     /* none: the top bucket's representative */
        {1.2, 5000.0, 17, 0, 0, 3, 0.0, 5000.0}, /* min above the lowest bucket */
        {1.2, 5000.0, 19, 0, 2, 3, 1e-3, 5000.0}, /* values underflowed: the range's bottom */
        {1.05, 1.1, 14, 0, 0, 0, 0.0, 0.0},      /* both (min 1.2 above max 1.15: rule 3) */
    };
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        msg m;
        llmm_sketch *s, *again;
        llmm_decode_info info;
        fields f = ref_fields();
        double mn, mx, q0, q1, sum;
        uint8_t *b;
        size_t len;
        f.min = cases[k].min;
        f.max = cases[k].max;
        f.count = cases[k].count;
        f.zero = cases[k].zero;
        f.under = cases[k].under;
        f.over = cases[k].over;
        m_ref(&m, &f);
        assert_int_equal(decode_ex(&m, &s, &info), LLMM_E_CORRUPT);
        if (!s || info.rule != 6)
            fail_msg("case %zu: rule %d", k, (int)info.rule);
        assert_int_equal(info.repaired, 1);
        assert_int_equal(llmm_sketch_count(s), f.count);
        assert_ok(llmm_sketch_sum(s, &sum));
        assert_true(sum == 1234.5);
        assert_ok(llmm_sketch_min(s, &mn));
        assert_ok(llmm_sketch_max(s, &mx));
        assert_ok(llmm_sketch_quantile(s, 0.0, &q0));
        assert_ok(llmm_sketch_quantile(s, 1.0, &q1));
        if (cases[k].want_max != 0.0)
            assert_true(mx == cases[k].want_max);
        else /* bucket 13 of the reference: (1.15, 1.16) at scale 6 */
            assert_true(mx > 1.15 && mx < 1.16);
        if (cases[k].want_min != 0.0 || f.min < 1.0)
            assert_true(mn == (f.min < 1.0 ? f.min : cases[k].want_min));
        else /* bucket 0: (1, 1.011) */
            assert_true(mn > 1.0 && mn < 1.011);
        assert_true(mn <= q0 && q1 <= mx);
        b = encode(s, &len);
        assert_ok(llmm_sketch_deserialize(NULL, b, len, &again));
        assert_identical(s, again);
        free(b);
        llmm_sketch_free(again);
        llmm_sketch_free(s);
    }
}

/* Damage, another version, a bad struct size and NULLs. */
static void test_decode_ex_envelope(void **state)
{
    msg m;
    llmm_sketch *s;
    llmm_decode_info info;
    fields f = ref_fields();
    (void)state;
    m_ref(&m, &f);
    m.b[30] ^= 1; /* behind the checksum */
    assert_int_equal(decode_ex(&m, &s, &info), LLMM_E_CORRUPT);
    assert_int_equal(info.intact, 0);
    assert_int_equal(info.version, 0);
    assert_int_equal(info.rule, 0);
    f.version = 2;
    m_ref(&m, &f);
    assert_int_equal(decode_ex(&m, &s, &info), LLMM_E_VERSION);
    assert_int_equal(info.intact, 1);
    assert_int_equal(info.version, 2);
    f.version = 1;
    m_ref(&m, &f);
    info.struct_size = 12;
    s = (llmm_sketch *)&info;
    assert_int_equal(llmm_sketch_deserialize_ex(NULL, m.b, m.n, &s, &info), LLMM_E_ABI);
    assert_null(s);
    assert_int_equal(info.struct_size, 12);
    assert_ok(llmm_sketch_deserialize_ex(NULL, m.b, m.n, &s, NULL));
    llmm_sketch_free(s);
    assert_int_equal(llmm_sketch_deserialize_ex(NULL, NULL, m.n, &s, NULL), LLMM_E_INVALID);
    assert_int_equal(llmm_sketch_deserialize_ex(NULL, m.b, m.n, NULL, NULL), LLMM_E_INVALID);
}

/* The snapshots the real 1.0 recorder wrote with its extreme bug (tests/data/v1_0/README.md):
 * refused by the strict reader as in 1.1, read with the repair. */
static void test_files_of_1_0(void **state)
{
    static const struct {
        const char *name;
        double message_min, message_max;
        uint64_t under, over;
        double rep; /* the value whose bucket the repaired extreme is in */
    } files[] = {
        {"v1_0_max_below_buckets.llmm", 1e-6, 1e-6, 1, 0, 0.75},
        {"v1_0_min_above_buckets.llmm", 1e6, 1e6, 0, 1, 0.25},
    };
    const char *dir = getenv("LLMM_TEST_DATA");
    (void)state;
    assert_non_null(dir);
    for (size_t k = 0; k < 2; k++) {
        char path[4096];
        uint8_t buf[4096];
        size_t len;
        FILE *fp;
        llmm_sketch *s = NULL;
        llmm_decode_info info;
        double mn, mx, p50, fixed;
        snprintf(path, sizeof path, "%s/v1_0/%s", dir, files[k].name);
        fp = fopen(path, "rb");
        assert_non_null(fp);
        len = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        assert_int_equal(llmm_sketch_deserialize(NULL, buf, len, &s), LLMM_E_CORRUPT);
        assert_ok(llmm_decode_info_init(&info));
        assert_ok(llmm_sketch_deserialize_ex(NULL, buf, len, &s, &info));
        assert_int_equal(info.intact, 1);
        assert_int_equal(info.rule, 6);
        assert_int_equal(info.repaired, 1);
        assert_true(info.message_min == files[k].message_min);
        assert_true(info.message_max == files[k].message_max);
        /* 1 value out of the range, then 100 of 0.25, 0.5, 0.75 in turn (34, 33, 33) */
        assert_int_equal(llmm_sketch_count(s), 101);
        {
            uint64_t zero, under, over;
            assert_ok(llmm_sketch_special_counts(s, &zero, &under, &over));
            assert_int_equal(under, files[k].under);
            assert_int_equal(over, files[k].over);
        }
        assert_ok(llmm_sketch_min(s, &mn));
        assert_ok(llmm_sketch_max(s, &mx));
        assert_ok(llmm_sketch_quantile(s, 0.5, &p50));
        fixed = files[k].under ? mx : mn;
        assert_true(fabs(fixed - files[k].rep) <= files[k].rep * 0.00542);
        assert_true(files[k].under ? mn == 1e-6 : mx == 1e6);
        assert_true(fabs(p50 - 0.5) <= 0.5 * 0.00542);
        llmm_sketch_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_matches_document),
        cmocka_unit_test(test_round_trip_every_field),
        cmocka_unit_test(test_hand_built_message),
        cmocka_unit_test(test_any_sum_round_trips),
        cmocka_unit_test(test_hand_built_rejects),
        cmocka_unit_test(test_fields_agree),
        cmocka_unit_test(test_subtraction_results_decode),
        cmocka_unit_test(test_every_byte_damage_rejected),
        cmocka_unit_test(test_damage_behind_a_valid_checksum),
        cmocka_unit_test(test_every_truncation_rejected),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_buffer_too_small),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_serialize_never_allocates),
        cmocka_unit_test(test_typical_sizes),
        cmocka_unit_test(test_rules_named),
        cmocka_unit_test(test_rule_6_repaired),
        cmocka_unit_test(test_decode_ex_envelope),
        cmocka_unit_test(test_files_of_1_0),
    };
    return cmocka_run_group_tests_name("test_codec", tests, NULL, NULL);
}
