/* libFuzzer target: random operation sequences on sketches and a recorder, checking the
 * invariants after every step:
 *   count = zero + underflow + overflow + sum of buckets;
 *   quantiles are monotone in q; min <= every quantile <= max;
 *   a failed call changes nothing (count unchanged);
 *   merge / subtract / copy agree with the counts they should produce. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#define CHECK(c)                                                                             \
    do {                                                                                     \
        if (!(c))                                                                            \
            abort();                                                                         \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n;
} input;

static uint8_t take8(input *in)
{
    uint8_t b = 0;
    if (in->n) {
        b = *in->p++;
        in->n--;
    }
    return b;
}

static double take_double(input *in)
{
    uint64_t bits = 0;
    uint8_t kind = take8(in);
    for (int i = 0; i < 8; i++)
        bits = (bits << 8) | take8(in);
    switch (kind & 7) {
    case 0: { /* raw bits: NaN, Inf, negatives, subnormals, anything */
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    case 1:
        return 0.0;
    default: /* a plausible latency in 1e-12 .. 1e18 */
        return pow(10.0, (double)(bits % 30000) / 1000.0 - 12.0);
    }
}

static uint64_t bucket_total(const llmm_sketch *s)
{
    int32_t a, b;
    uint64_t t = 0;
    if (llmm_sketch_bucket_span(s, &a, &b) != LLMM_OK)
        return 0;
    for (int32_t i = a; i <= b; i++)
        t += llmm_sketch_bucket_count(s, i);
    return t;
}

/* x and y hold the same values: counts, buckets, extremes; sums equal when exact_sum */
static void same(const llmm_sketch *x, const llmm_sketch *y, int exact_sum)
{
    int32_t a1, b1, a2, b2;
    uint64_t z1, u1, o1, z2, u2, o2;
    double m1, m2;
    llmm_status s1, s2;
    CHECK(llmm_sketch_count(x) == llmm_sketch_count(y));
    CHECK(llmm_sketch_special_counts(x, &z1, &u1, &o1) == LLMM_OK);
    CHECK(llmm_sketch_special_counts(y, &z2, &u2, &o2) == LLMM_OK);
    CHECK(z1 == z2 && u1 == u2 && o1 == o2);
    s1 = llmm_sketch_bucket_span(x, &a1, &b1);
    s2 = llmm_sketch_bucket_span(y, &a2, &b2);
    CHECK(s1 == s2);
    if (s1 == LLMM_OK) {
        CHECK(a1 == a2 && b1 == b2);
        for (int32_t i = a1; i <= b1; i++)
            CHECK(llmm_sketch_bucket_count(x, i) == llmm_sketch_bucket_count(y, i));
    }
    if (llmm_sketch_count(x)) {
        CHECK(llmm_sketch_min(x, &m1) == LLMM_OK && llmm_sketch_min(y, &m2) == LLMM_OK);
        CHECK(m1 == m2);
        CHECK(llmm_sketch_max(x, &m1) == LLMM_OK && llmm_sketch_max(y, &m2) == LLMM_OK);
        CHECK(m1 == m2);
    }
    CHECK(llmm_sketch_sum(x, &m1) == LLMM_OK && llmm_sketch_sum(y, &m2) == LLMM_OK);
    if (exact_sum)
        CHECK(m1 == m2 || (m1 != m1 && m2 != m2));
}

static void check(const llmm_sketch *s)
{
    uint64_t z, u, o, n = llmm_sketch_count(s);
    double qs[7] = {0.0, 0.01, 0.25, 0.5, 0.9, 0.999, 1.0}, out[7], mn, mx;
    CHECK(llmm_sketch_special_counts(s, &z, &u, &o) == LLMM_OK);
    CHECK(n == z + u + o + bucket_total(s));
    if (!n) {
        CHECK(llmm_sketch_quantiles(s, qs, 7, out) == LLMM_E_EMPTY);
        return;
    }
    CHECK(llmm_sketch_quantiles(s, qs, 7, out) == LLMM_OK);
    CHECK(llmm_sketch_min(s, &mn) == LLMM_OK && llmm_sketch_max(s, &mx) == LLMM_OK);
    CHECK(mn <= mx);
    CHECK(out[0] == mn && out[6] == mx);
    for (int i = 0; i < 7; i++) {
        CHECK(out[i] >= mn && out[i] <= mx);
        if (i)
            CHECK(out[i] >= out[i - 1]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    llmm_sketch *s[2] = {NULL, NULL};
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    int steps = 0;
    if (llmm_sketch_new(NULL, take8(&in) % 11, &s[0]) != LLMM_OK ||
        llmm_sketch_new(NULL, take8(&in) % 11, &s[1]) != LLMM_OK ||
        llmm_recorder_new(NULL, take8(&in) % 11, &rec) != LLMM_OK ||
        llmm_recorder_shard(rec, &sh) != LLMM_OK)
        abort();
    while (in.n && steps++ < 256) {
        uint8_t op = take8(&in);
        llmm_sketch *a = s[op >> 7], *b = s[!(op >> 7)];
        uint64_t before = llmm_sketch_count(a);
        llmm_status st;
        switch (op & 15) {
        case 0:
        case 1:
        case 2: {
            double v = take_double(&in);
            llmm_status sst;
            st = llmm_sketch_add(a, v);
            CHECK(llmm_sketch_count(a) == before + (st == LLMM_OK));
            sst = llmm_shard_add(sh, v);
            if (st == LLMM_E_RANGE) /* the sketch is full; the recorder's shard is not */
                CHECK(before == UINT64_MAX && sst == LLMM_OK);
            else
                CHECK(sst == st);
            break;
        }
        case 3: {
            double v = take_double(&in);
            uint64_t k = take8(&in);
            /* the top byte values make 64-bit counters (2^32 ... 2^36) and count overflows */
            if (k >= 250)
                k = k == 255 ? UINT64_MAX / 2 : UINT64_C(1) << (32 + (k - 250));
            st = llmm_sketch_add_n(a, v, k);
            if (st == LLMM_E_RANGE)
                CHECK(k > UINT64_MAX - before);
            CHECK(llmm_sketch_count(a) == before + (st == LLMM_OK ? k : 0));
            break;
        }
        case 4: {
            double v[16];
            size_t k = take8(&in) % 17;
            for (size_t i = 0; i < k; i++)
                v[i] = take_double(&in);
            llmm_status sst;
            /* the batch equals the same values added one by one (sum bit for bit), and a
             * failed batch leaves the sketch exactly as it was */
            llmm_sketch *was = NULL, *one = NULL;
            if (llmm_sketch_clone(a, &was) != LLMM_OK || llmm_sketch_clone(a, &one) != LLMM_OK)
                abort();
            st = llmm_sketch_add_many(a, v, k);
            CHECK(llmm_sketch_count(a) == before + (st == LLMM_OK ? k : 0));
            if (st == LLMM_OK) {
                for (size_t i = 0; i < k; i++)
                    CHECK(llmm_sketch_add(one, v[i]) == LLMM_OK);
                same(a, one, 1);
            } else {
                same(a, was, 1);
            }
            llmm_sketch_free(was);
            llmm_sketch_free(one);
            sst = llmm_shard_add_many(sh, v, k);
            if (st == LLMM_E_RANGE) /* (checked before the values) */
                CHECK(k > UINT64_MAX - before && (sst == LLMM_OK || sst == LLMM_E_INVALID));
            else
                CHECK(sst == st);
            break;
        }
        case 5: {
            uint64_t other = llmm_sketch_count(b);
            st = llmm_sketch_merge(a, b);
            CHECK(st == (other > UINT64_MAX - before ? LLMM_E_RANGE : LLMM_OK));
            CHECK(llmm_sketch_count(a) == before + (st == LLMM_OK ? other : 0));
            break;
        }
        case 6: { /* subtract a snapshot: (a + b) - a == b in counts */
            llmm_sketch *c = NULL;
            if (llmm_sketch_clone(a, &c) != LLMM_OK)
                abort();
            if (llmm_sketch_scale(a) == llmm_sketch_scale(b) &&
                llmm_sketch_merge(c, b) == LLMM_OK) {
                st = llmm_sketch_subtract(c, a);
                if (llmm_sketch_scale(c) == llmm_sketch_scale(a)) {
                    double lo1, hi1, lo2, hi2;
                    llmm_sketch_range(a, &lo1, &hi1);
                    llmm_sketch_range(b, &lo2, &hi2);
                    if (lo1 == lo2 && hi1 == hi2) {
                        CHECK(st == LLMM_OK);
                        CHECK(llmm_sketch_count(c) == llmm_sketch_count(b));
                        check(c);
                    }
                }
            }
            llmm_sketch_free(c);
            break;
        }
        case 7:
            st = llmm_sketch_downscale(a, take8(&in) % 11);
            CHECK(llmm_sketch_count(a) == before);
            (void)st;
            break;
        case 8:
            CHECK(llmm_sketch_reset(a) == LLMM_OK);
            CHECK(llmm_sketch_count(a) == 0);
            break;
        case 9: {
            double lo = take_double(&in), hi = take_double(&in);
            st = llmm_sketch_set_range(a, lo, hi);
            if (st == LLMM_OK)
                CHECK(before == 0);
            break;
        }
        case 10:
            CHECK(llmm_sketch_copy(b, a) == LLMM_OK);
            CHECK(llmm_sketch_count(b) == before);
            break;
        case 11: {
            double q = take_double(&in), r, x;
            st = llmm_sketch_quantile(a, q, &x);
            CHECK(st == (!(q >= 0.0 && q <= 1.0) ? LLMM_E_INVALID
                         : before ? LLMM_OK : LLMM_E_EMPTY));
            st = llmm_sketch_rank(a, q, &r);
            if (st == LLMM_OK)
                CHECK(r >= 0.0 && r <= 1.0);
            break;
        }
        default: { /* snapshot the recorder: consistent, equal to what was added */
            llmm_sketch *snap = NULL;
            if (llmm_sketch_new(NULL, 6, &snap) != LLMM_OK)
                abort();
            CHECK(llmm_recorder_snapshot(rec, snap) == LLMM_OK);
            check(snap);
            llmm_sketch_free(snap);
            break;
        }
        }
        /* a is what the step changed (b only through copy); checking b every step would
         * spend most of the time scanning huge empty stores */
        check(a);
        if ((op & 15) == 10 || (steps & 7) == 0)
            check(b);
    }
    check(s[0]);
    check(s[1]);
    llmm_shard_release(sh);
    llmm_recorder_free(rec);
    llmm_sketch_free(s[0]);
    llmm_sketch_free(s[1]);
    return 0;
}
