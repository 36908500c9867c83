/* libFuzzer target: llmm_sketch_deserialize on arbitrary bytes (doc/format.md).
 *
 * The first input byte picks the mode: even, the rest is decoded as it is (so the checksum
 * guards it); odd, the rest gets its last four bytes rewritten to the right CRC-32C first, so
 * that mutations reach the validation of every field and bucket run. Checked:
 *   a rejected input gives LLMM_E_CORRUPT (or LLMM_E_VERSION for another version byte) and
 *   no sketch; an accepted one is consistent (count = zero + underflow + overflow + sum of
 *   buckets, 0 <= min <= max), satisfies every rule of doc/format.md 3.4 (fz_check_fields:
 *   a counted zero makes the min 0, the max lies in or above the highest bucket and the min
 *   in or below the lowest, the sum is not negative), answers every quantile within
 *   [min, max] (every rank of a small sketch, 65 quantiles of a large one) and with no bucket
 *   answer beyond its extremes, re-encodes to a message that decodes to the same encoding,
 *   and re-encodes the input byte for byte up to the bucket runs (fixed fields and count
 *   varints have one encoding; only the split of the runs is the writer's choice,
 *   doc/format.md 3.2). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "sketch/codec_internal.h"

/* Length of the message up to and including the `over` varint (46 fixed bytes, 4 varints). */
static size_t header_len(const uint8_t *m, size_t n)
{
    size_t at = 46;
    for (int k = 0; k < 4; k++) {
        while (at < n && (m[at] & 0x80))
            at++;
        CHECK(at < n);
        at++;
    }
    return at;
}

static void check_accepted(const llmm_sketch *s, const uint8_t *msg, size_t n)
{
    uint64_t z, u, o, total = 0;
    int32_t first, last;
    double mn, mx, v;
    size_t n1;
    uint8_t *b1;

    CHECK(llmm_sketch_special_counts(s, &z, &u, &o) == LLMM_OK);
    if (llmm_sketch_bucket_span(s, &first, &last) == LLMM_OK)
        for (int32_t i = first; i <= last; i++)
            total += llmm_sketch_bucket_count(s, i);
    CHECK(total + z + u + o == llmm_sketch_count(s));
    if (llmm_sketch_count(s)) {
        uint64_t cnt = llmm_sketch_count(s), steps = cnt <= 64 ? cnt : 64;
        CHECK(llmm_sketch_min(s, &mn) == LLMM_OK && llmm_sketch_max(s, &mx) == LLMM_OK);
        CHECK(mn >= 0.0 && mn <= mx && isfinite(mx));
        /* q(x) for every rank x of a small sketch (q = x / n), 65 points of a large one */
        for (uint64_t k = 0; k <= steps; k++) {
            CHECK(llmm_sketch_quantile(s, (double)k / (double)steps, &v) == LLMM_OK);
            CHECK(v >= mn && v <= mx);
        }
        /* every bucket's own answer (its representative, unclamped) can lie within the
         * extremes: its upper bound is not below the min, its lower bound not above the max */
        if (llmm_sketch_bucket_span(s, &first, &last) == LLMM_OK) {
            double lo, hi;
            int32_t scale = llmm_sketch_scale(s);
            CHECK(llmm_sketch_bucket_bounds(scale, first, &lo, &hi) == LLMM_OK && hi >= mn);
            CHECK(llmm_sketch_bucket_bounds(scale, last, &lo, &hi) == LLMM_OK && lo <= mx);
        }
    }
    fz_check_sketch_ex(s, 0);
    b1 = fz_encode(s, &n1);
    {
        size_t h = header_len(msg, n);
        CHECK(n1 >= h && header_len(b1, n1) == h && memcmp(b1, msg, h) == 0);
    }
    free(b1);
    fz_check_round_trip(s);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    llmm_sketch *s = NULL;
    llmm_status st;
    uint8_t *msg;
    size_t n;
    if (size == 0)
        return 0;
    n = size - 1;
    msg = malloc(n ? n : 1); /* exactly sized: any overread is a sanitizer report */
    CHECK(msg != NULL);
    memcpy(msg, data + 1, n);
    if ((data[0] & 1) && n >= 4) {
        uint32_t crc = llmm__crc32c(0, msg, n - 4);
        for (int i = 0; i < 4; i++)
            msg[n - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    st = llmm_sketch_deserialize(NULL, msg, n, &s);
    if (st == LLMM_OK) {
        CHECK(s != NULL);
        check_accepted(s, msg, n);
        llmm_sketch_free(s);
    } else {
        CHECK(s == NULL);
        CHECK(st == LLMM_E_CORRUPT || (st == LLMM_E_VERSION && n > 4 && msg[4] != 1));
    }
    free(msg);
    return 0;
}
