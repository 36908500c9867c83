/* libFuzzer target: merge of two decoded sketches (any scales, ranges, counts).
 *
 * Input: a flags byte, a 16-bit little-endian length n, then n bytes of message A and the
 * rest as message B (flags bits 0 / 1: rewrite A's / B's CRC first, see fz_decode). When
 * both decode, merge(A, B) and merge(B, A) are checked against a reference computed here
 * from the two sketches' buckets: the result has the coarser scale and dst's range; every
 * bucket of either side moves to index >> (its scale - result scale); src buckets that land
 * outside dst's range join dst's underflow / overflow; counts, zeros and extremes add up. So
 * the two orders agree bucket for bucket whenever the ranges are equal (and the sums are
 * bit-identical: a + b = b + a). A count overflow must give LLMM_E_RANGE and leave dst
 * unchanged. The results keep the sketch invariants, survive an encode / decode round trip,
 * and (same scale and range) subtracting B again gives back A's counts. */
#include "fuzz_common.h"

typedef struct ref {
    int32_t scale;
    int64_t lo, hi; /* index span of `c` */
    uint64_t *c;
    uint64_t zero, under, over, count;
    double min, max, range_lo, range_hi;
} ref;

static int64_t shr(int64_t i, int32_t k)
{
    return k ? (i >> k) : i; /* arithmetic: floor division by 2^k */
}

static void add_buckets(ref *r, const llmm_sketch *s, int64_t rlo, int64_t rhi, int fill)
{
    int32_t a, b, k = llmm_sketch_scale(s) - r->scale;
    if (llmm_sketch_bucket_span(s, &a, &b) != LLMM_OK)
        return;
    for (int32_t i = a; i <= b; i++) {
        uint64_t c = llmm_sketch_bucket_count(s, i);
        int64_t j = shr(i, k);
        if (!c)
            continue;
        if (j < rlo)
            r->under += c;
        else if (j > rhi)
            r->over += c;
        else if (fill)
            r->c[j - r->lo] += c;
        else {
            if (j < r->lo)
                r->lo = j;
            if (j > r->hi)
                r->hi = j;
        }
    }
}

/* Expected merge(dst, src); returns 0 when the total count would overflow. */
static int reference(const llmm_sketch *dst, const llmm_sketch *src, ref *r)
{
    uint64_t z1, u1, o1, z2, u2, o2, n1 = llmm_sketch_count(dst), n2 = llmm_sketch_count(src);
    int32_t ilo, ihi, kd;
    int64_t rlo, rhi;
    double x;
    memset(r, 0, sizeof *r);
    if (n2 > UINT64_MAX - n1)
        return 0;
    r->scale = llmm_sketch_scale(dst) < llmm_sketch_scale(src) ? llmm_sketch_scale(dst)
                                                               : llmm_sketch_scale(src);
    kd = llmm_sketch_scale(dst) - r->scale;
    CHECK(llmm_sketch_range(dst, &r->range_lo, &r->range_hi) == LLMM_OK);
    CHECK(llmm_sketch_index(llmm_sketch_scale(dst), r->range_lo, &ilo) == LLMM_OK);
    CHECK(llmm_sketch_index(llmm_sketch_scale(dst), r->range_hi, &ihi) == LLMM_OK);
    rlo = shr(ilo, kd);
    rhi = shr(ihi, kd);
    /* the index of a bound at the coarser scale is the shifted index (exact mapping) */
    CHECK(llmm_sketch_index(r->scale, r->range_lo, &ilo) == LLMM_OK && ilo == rlo);
    CHECK(llmm_sketch_index(r->scale, r->range_hi, &ihi) == LLMM_OK && ihi == rhi);
    llmm_sketch_special_counts(dst, &z1, &u1, &o1);
    llmm_sketch_special_counts(src, &z2, &u2, &o2);
    r->lo = INT64_MAX;
    r->hi = INT64_MIN;
    add_buckets(r, dst, rlo, rhi, 0);
    add_buckets(r, src, rlo, rhi, 0);
    r->under = r->over = 0; /* (the measuring pass counted them) */
    if (r->lo <= r->hi) {
        r->c = calloc((size_t)(r->hi - r->lo + 1), sizeof *r->c);
        CHECK(r->c != NULL);
    }
    add_buckets(r, dst, rlo, rhi, 1);
    add_buckets(r, src, rlo, rhi, 1);
    r->zero = z1 + z2;
    r->under += u1 + u2;
    r->over += o1 + o2;
    r->count = n1 + n2;
    r->min = r->max = 0.0;
    if (n1) {
        llmm_sketch_min(dst, &r->min);
        llmm_sketch_max(dst, &r->max);
    }
    if (n2) {
        llmm_sketch_min(src, &x);
        if (!n1 || x < r->min)
            r->min = x;
        llmm_sketch_max(src, &x);
        if (!n1 || x > r->max)
            r->max = x;
    }
    return 1;
}

static void check_against(const llmm_sketch *m, const ref *r)
{
    uint64_t z, u, o;
    double lo, hi, x;
    int32_t a, b;
    CHECK(llmm_sketch_scale(m) == r->scale);
    CHECK(llmm_sketch_range(m, &lo, &hi) == LLMM_OK && lo == r->range_lo && hi == r->range_hi);
    CHECK(llmm_sketch_count(m) == r->count);
    CHECK(llmm_sketch_special_counts(m, &z, &u, &o) == LLMM_OK);
    CHECK(z == r->zero && u == r->under && o == r->over);
    if (r->count) {
        CHECK(llmm_sketch_min(m, &x) == LLMM_OK && x == r->min);
        CHECK(llmm_sketch_max(m, &x) == LLMM_OK && x == r->max);
    }
    if (llmm_sketch_bucket_span(m, &a, &b) != LLMM_OK) {
        for (int64_t j = r->lo; j <= r->hi; j++)
            CHECK(r->c[j - r->lo] == 0);
        return;
    }
    CHECK(r->c != NULL && a >= r->lo && b <= r->hi);
    for (int64_t j = r->lo; j <= r->hi; j++)
        CHECK(llmm_sketch_bucket_count(m, (int32_t)j) == r->c[j - r->lo]);
}

static int same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0 || (isnan(x) && isnan(y));
}

/* merge(src into a clone of dst), checked; returns the result (NULL on LLMM_E_RANGE). */
static llmm_sketch *merged(const llmm_sketch *dst, const llmm_sketch *src)
{
    llmm_sketch *m = NULL;
    ref r;
    llmm_status st;
    int fits = reference(dst, src, &r);
    CHECK(llmm_sketch_clone(dst, &m) == LLMM_OK);
    st = llmm_sketch_merge(m, src);
    if (!fits) {
        CHECK(st == LLMM_E_RANGE);
        CHECK(fz_same_sketch(m, dst)); /* unchanged */
        llmm_sketch_free(m);
        return NULL;
    }
    CHECK(st == LLMM_OK);
    check_against(m, &r);
    fz_check_sketch_ex(m, 0);
    {
        double s1, s2, s3;
        llmm_sketch_sum(dst, &s1);
        llmm_sketch_sum(src, &s2);
        llmm_sketch_sum(m, &s3);
        CHECK(same_bits(s3, s1 + s2));
    }
    free(r.c);
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    llmm_sketch *a = NULL, *b = NULL, *ab, *ba;
    size_t na;
    uint8_t flags;
    if (size < 3)
        return 0;
    flags = data[0];
    na = (size_t)data[1] | (size_t)data[2] << 8;
    data += 3;
    size -= 3;
    if (na > size)
        na = size;
    if (fz_decode(data, na, flags & 1, &a) != LLMM_OK)
        return 0;
    if (fz_decode(data + na, size - na, flags & 2, &b) != LLMM_OK) {
        llmm_sketch_free(a);
        return 0;
    }
    fz_check_sketch_ex(a, 0);
    fz_check_sketch_ex(b, 0);
    ab = merged(a, b);
    ba = merged(b, a);
    CHECK((ab == NULL) == (ba == NULL));
    if (ab) {
        double lo1, hi1, lo2, hi2;
        llmm_sketch_range(a, &lo1, &hi1);
        llmm_sketch_range(b, &lo2, &hi2);
        if (lo1 == lo2 && hi1 == hi2) { /* commutative */
            double s1, s2;
            llmm_sketch_sum(ab, &s1);
            llmm_sketch_sum(ba, &s2);
            CHECK(same_bits(s1, s2));
            CHECK(fz_same_sketch(ab, ba));
        }
        fz_check_round_trip(ab); /* a merge result encodes to a message that decodes */
        /* (A + B) - B = A in counts, when the two are commensurable */
        if (llmm_sketch_scale(a) == llmm_sketch_scale(b) && lo1 == lo2 && hi1 == hi2) {
            uint64_t z1, u1, o1, z2, u2, o2;
            int32_t f, l;
            CHECK(llmm_sketch_subtract(ab, b) == LLMM_OK);
            CHECK(llmm_sketch_count(ab) == llmm_sketch_count(a));
            llmm_sketch_special_counts(ab, &z1, &u1, &o1);
            llmm_sketch_special_counts(a, &z2, &u2, &o2);
            CHECK(z1 == z2 && u1 == u2 && o1 == o2);
            if (llmm_sketch_bucket_span(a, &f, &l) == LLMM_OK)
                for (int32_t i = f; i <= l; i++)
                    CHECK(llmm_sketch_bucket_count(ab, i) == llmm_sketch_bucket_count(a, i));
            fz_check_sketch_ex(ab, 0);
        }
    }
    llmm_sketch_free(ab);
    llmm_sketch_free(ba);
    llmm_sketch_free(a);
    llmm_sketch_free(b);
    return 0;
}
