/* Shared by the libFuzzer targets: reading the input, CHECK, sketch invariants and an exact
 * sketch comparison. Header-only (each target is one translation unit). */
#ifndef LLMM_FUZZ_COMMON_H
#define LLMM_FUZZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

/* A failed invariant aborts: libFuzzer keeps the input and reports the line. */
#define CHECK(c)                                                                             \
    do {                                                                                     \
        if (!(c)) {                                                                          \
            fprintf(stderr, "CHECK failed: %s at %s:%d\n", #c, __FILE__, __LINE__);          \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_input {
    const uint8_t *p;
    size_t n;
} fz_input;

/* Past the end every read gives zeros, so every input is a complete program. */
static inline uint8_t fz_u8(fz_input *in)
{
    uint8_t b = 0;
    if (in->n) {
        b = *in->p++;
        in->n--;
    }
    return b;
}

static inline uint64_t fz_bytes(fz_input *in, int k)
{
    uint64_t v = 0;
    for (int i = 0; i < k; i++)
        v = (v << 8) | fz_u8(in);
    return v;
}

static inline uint64_t fz_u64(fz_input *in)
{
    return fz_bytes(in, 8);
}

/* A double: raw bits (NaN, Inf, negatives, subnormals), zero, or a plausible latency in
 * 1e-12 ... 1e18 spread evenly in log. */
static inline double fz_double(fz_input *in)
{
    uint8_t kind = fz_u8(in);
    uint64_t bits = fz_u64(in);
    switch (kind & 7) {
    case 0: {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    case 1:
        return 0.0;
    default:
        return pow(10.0, (double)(bits % 30000) / 1000.0 - 12.0);
    }
}

/* A value for the window and detectors: mostly a narrow band (cheap stores, thresholds that
 * matter), sometimes 1e-3 ... 1e3, rarely the whole double range or invalid bits. */
static inline double fz_value(fz_input *in)
{
    uint8_t kind = fz_u8(in);
    uint16_t r = (uint16_t)fz_bytes(in, 2);
    switch (kind & 15) {
    case 0:
        return fz_double(in);
    case 1:
        return 0.0;
    case 2:
    case 3:
        return pow(10.0, (double)r / 10922.5 - 3.0); /* 1e-3 ... 1e3 */
    default:
        return 0.05 * pow(2.0, (double)r / 8192.0); /* 0.05 ... 0.4 */
    }
}

static inline uint64_t fz_bucket_total(const llmm_sketch *s)
{
    int32_t a, b;
    uint64_t t = 0;
    if (llmm_sketch_bucket_span(s, &a, &b) != LLMM_OK)
        return 0;
    for (int32_t i = a; i <= b; i++)
        t += llmm_sketch_bucket_count(s, i);
    return t;
}

/* Queries never answer from a stale cumulative view: a set of quantiles and ranks asked three
 * times (the first query of a state scans, the second fills the view, the third reads it)
 * equals the answers of a fresh clone of the sketch, which has no view of its own yet. */
static inline void fz_check_view(const llmm_sketch *s)
{
    static const double qs[7] = {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999};
    double want[7], got[7], x, y;
    llmm_sketch *fresh = NULL;
    CHECK(llmm_sketch_clone(s, &fresh) == LLMM_OK);
    CHECK(llmm_sketch_quantiles(fresh, qs, 7, want) == LLMM_OK);
    for (int round = 0; round < 3; round++) {
        CHECK(llmm_sketch_quantiles(s, qs, 7, got) == LLMM_OK);
        for (int i = 0; i < 7; i++)
            CHECK(got[i] == want[i]);
        CHECK(llmm_sketch_quantile(s, qs[round * 3], &x) == LLMM_OK && x == want[round * 3]);
        for (int i = 0; i < 7; i++) {
            CHECK(llmm_sketch_rank(s, want[i] * (1 + 1e-3 * round), &x) == LLMM_OK);
            CHECK(llmm_sketch_rank(fresh, want[i] * (1 + 1e-3 * round), &y) == LLMM_OK);
            CHECK(x == y);
        }
    }
    llmm_sketch_free(fresh);
}

static inline uint8_t *fz_encode(const llmm_sketch *s, size_t *len);

/* What doc/format.md 3.4 asks of every sketch, so that any sketch the library makes encodes
 * to a message its decoder accepts: the extremes enclose the zeros and the buckets (a zero
 * makes the min 0; the max lies in or above the highest non-empty bucket, the min in or below
 * the lowest), the sum is not negative (and is 0 when empty). */
static inline void fz_check_fields(const llmm_sketch *s)
{
    uint64_t z, u, o, n = llmm_sketch_count(s);
    double mn, mx, sum;
    int32_t first, last, i;
    CHECK(llmm_sketch_sum(s, &sum) == LLMM_OK);
    if (!n) {
        CHECK(sum == 0.0);
        return;
    }
    CHECK(!(sum < 0.0));
    CHECK(llmm_sketch_special_counts(s, &z, &u, &o) == LLMM_OK);
    CHECK(llmm_sketch_min(s, &mn) == LLMM_OK && llmm_sketch_max(s, &mx) == LLMM_OK);
    if (z)
        CHECK(mn == 0.0);
    if (llmm_sketch_bucket_span(s, &first, &last) != LLMM_OK)
        return;
    CHECK(llmm_sketch_index(llmm_sketch_scale(s), mx, &i) == LLMM_OK && i >= last);
    if (mn > 0.0)
        CHECK(llmm_sketch_index(llmm_sketch_scale(s), mn, &i) == LLMM_OK && i <= first);
}

/* Encode, decode (which must accept it), encode again: the same bytes. */
static inline void fz_check_round_trip(const llmm_sketch *s)
{
    size_t n1, n2;
    uint8_t *b1 = fz_encode(s, &n1), *b2;
    llmm_sketch *back = NULL;
    CHECK(llmm_sketch_deserialize(NULL, b1, n1, &back) == LLMM_OK);
    b2 = fz_encode(back, &n2);
    CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    llmm_sketch_free(back);
}

/* The invariants of any sketch: count = zero + under + over + buckets; quantiles monotone in
 * q; min = P0 <= every quantile <= P100 = max; mean between min and max; the fields agree
 * (fz_check_fields, so that the sketch would encode to a message the decoder accepts; the
 * targets make the round trip itself, fz_check_round_trip, where it is not too slow to run
 * after every step); no stale answers (fz_check_view). */
static inline void fz_check_sketch_ex(const llmm_sketch *s, int check_mean)
{
    static const double qs[9] = {0.0, 0.001, 0.01, 0.25, 0.5, 0.75, 0.9, 0.999, 1.0};
    uint64_t z, u, o, n = llmm_sketch_count(s);
    double out[9], mn, mx, mean;
    CHECK(llmm_sketch_special_counts(s, &z, &u, &o) == LLMM_OK);
    CHECK(n == z + u + o + fz_bucket_total(s));
    fz_check_fields(s);
    if (!n) {
        CHECK(llmm_sketch_quantiles(s, qs, 9, out) == LLMM_E_EMPTY);
        return;
    }
    CHECK(llmm_sketch_quantiles(s, qs, 9, out) == LLMM_OK);
    CHECK(llmm_sketch_min(s, &mn) == LLMM_OK && llmm_sketch_max(s, &mx) == LLMM_OK);
    CHECK(mn >= 0.0 && mn <= mx);
    /* rank 1 is the min and rank n the max; with n = 1 rank 1 wins. (min / max may be wider
     * than the counted values: a recorder snapshot publishes extremes before counts) */
    CHECK(out[0] == mn && out[8] == (n >= 2 ? mx : mn));
    for (int i = 0; i < 9; i++) {
        CHECK(out[i] >= mn && out[i] <= mx);
        if (i)
            CHECK(out[i] >= out[i - 1]);
    }
    CHECK(llmm_sketch_mean(s, &mean) == LLMM_OK);
    if (check_mean) /* a decoded sketch's sum is carried bit for bit, whatever it is */
        CHECK(mean >= mn * (1 - 1e-9) && mean <= mx * (1 + 1e-9));
    fz_check_view(s);
}

static inline void fz_check_sketch(const llmm_sketch *s)
{
    fz_check_sketch_ex(s, 1);
}

/* Same scale, range, counts, extremes and buckets (the sum may differ in its last bits
 * between merge orders; it is compared with a relative tolerance). */
static inline int fz_same_sketch(const llmm_sketch *a, const llmm_sketch *b)
{
    uint64_t za, ua, oa, zb, ub, ob;
    double x, y, lo1, hi1, lo2, hi2;
    int32_t f1, l1, f2, l2;
    int e1, e2;
    if (llmm_sketch_scale(a) != llmm_sketch_scale(b) ||
        llmm_sketch_count(a) != llmm_sketch_count(b))
        return 0;
    llmm_sketch_range(a, &lo1, &hi1);
    llmm_sketch_range(b, &lo2, &hi2);
    if (lo1 != lo2 || hi1 != hi2)
        return 0;
    llmm_sketch_special_counts(a, &za, &ua, &oa);
    llmm_sketch_special_counts(b, &zb, &ub, &ob);
    if (za != zb || ua != ub || oa != ob)
        return 0;
    if (llmm_sketch_count(a)) {
        llmm_sketch_min(a, &x);
        llmm_sketch_min(b, &y);
        if (x != y)
            return 0;
        llmm_sketch_max(a, &x);
        llmm_sketch_max(b, &y);
        if (x != y)
            return 0;
        llmm_sketch_sum(a, &x);
        llmm_sketch_sum(b, &y);
        if (!(x == y || (isnan(x) && isnan(y)) || fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y))))
            return 0;
    }
    e1 = llmm_sketch_bucket_span(a, &f1, &l1) == LLMM_OK;
    e2 = llmm_sketch_bucket_span(b, &f2, &l2) == LLMM_OK;
    if (e1 != e2)
        return 0;
    if (!e1)
        return 1;
    if (f1 != f2 || l1 != l2)
        return 0;
    for (int32_t i = f1; i <= l1; i++)
        if (llmm_sketch_bucket_count(a, i) != llmm_sketch_bucket_count(b, i))
            return 0;
    return 1;
}

/* CRC-32C, bitwise (doc/format.md section 1), written here independently of the library. */
static inline uint32_t fz_crc32c(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

/* Decode n bytes (copied into an exactly sized buffer, so any overread is reported). With
 * fix_crc the last four bytes are first replaced by the right CRC-32C, so that mutations get
 * past the checksum into the field and bucket-run validation. */
static inline llmm_status fz_decode(const uint8_t *data, size_t n, int fix_crc,
                                    llmm_sketch **out)
{
    uint8_t *msg = (uint8_t *)malloc(n ? n : 1);
    llmm_status st;
    CHECK(msg != NULL);
    if (n)
        memcpy(msg, data, n);
    if (fix_crc && n >= 4) {
        uint32_t crc = fz_crc32c(msg, n - 4);
        for (int i = 0; i < 4; i++)
            msg[n - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    st = llmm_sketch_deserialize(NULL, msg, n, out);
    free(msg);
    if (st != LLMM_OK)
        CHECK(*out == NULL && (st == LLMM_E_CORRUPT || st == LLMM_E_VERSION));
    return st;
}

/* The encoding of s in a malloc'd buffer. */
static inline uint8_t *fz_encode(const llmm_sketch *s, size_t *len)
{
    uint8_t *buf;
    CHECK(llmm_sketch_serialize(s, NULL, 0, len) == LLMM_E_BUFFER);
    buf = (uint8_t *)malloc(*len);
    CHECK(buf != NULL);
    CHECK(llmm_sketch_serialize(s, buf, *len, len) == LLMM_OK);
    return buf;
}

#endif
