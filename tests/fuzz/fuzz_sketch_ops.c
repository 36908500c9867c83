/* libFuzzer target: random operation sequences on sketches and a recorder, checking the
 * invariants after every step:
 *   count = zero + underflow + overflow + sum of buckets;
 *   quantiles are monotone in q; min <= every quantile <= max;
 *   a failed call changes nothing (count unchanged; add_many: nothing at all);
 *   add_many equals the same values added one by one (the sum bit for bit);
 *   merge / subtract / copy agree with the counts they should produce;
 *   no query answers from a stale cumulative view (fz_check_view);
 *   every sketch satisfies the rules of doc/format.md 3.4 (fz_check_sketch_ex), also after
 *   subtracting a sketch that is no snapshot; subtraction results, recorder snapshots and the
 *   final sketches survive an encode / decode round trip. */
#include "fuzz_common.h"

/* a and b hold the same values and, bit for bit, the same sum */
static void same_exact(const llmm_sketch *a, const llmm_sketch *b)
{
    double x, y;
    CHECK(fz_same_sketch(a, b));
    CHECK(llmm_sketch_sum(a, &x) == LLMM_OK && llmm_sketch_sum(b, &y) == LLMM_OK);
    CHECK(x == y || (isnan(x) && isnan(y)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    llmm_sketch *s[2] = {NULL, NULL};
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    int steps = 0;
    if (llmm_sketch_new(NULL, fz_u8(&in) % 11, &s[0]) != LLMM_OK ||
        llmm_sketch_new(NULL, fz_u8(&in) % 11, &s[1]) != LLMM_OK ||
        llmm_recorder_new(NULL, fz_u8(&in) % 11, &rec) != LLMM_OK ||
        llmm_recorder_shard(rec, &sh) != LLMM_OK)
        abort();
    while (in.n && steps++ < 256) {
        uint8_t op = fz_u8(&in);
        llmm_sketch *a = s[op >> 7], *b = s[!(op >> 7)];
        uint64_t before = llmm_sketch_count(a);
        llmm_status st;
        switch (op & 15) {
        case 0:
        case 1:
        case 2: {
            double v = fz_double(&in);
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
            double v = fz_double(&in);
            uint64_t k = fz_u8(&in);
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
            size_t k = fz_u8(&in) % 17;
            for (size_t i = 0; i < k; i++)
                v[i] = fz_double(&in);
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
                same_exact(a, one);
            } else {
                same_exact(a, was);
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
                        fz_check_sketch_ex(c, 0);
                        fz_check_round_trip(c);
                    }
                }
            }
            llmm_sketch_free(c);
            break;
        }
        case 7:
            st = llmm_sketch_downscale(a, fz_u8(&in) % 11);
            CHECK(llmm_sketch_count(a) == before);
            (void)st;
            break;
        case 8: {
            /* reset; then, for a small sketch, as many other values as it had: the count is
             * back where it was, the contents are not (no stale cumulative view may answer) */
            double step = 1.0 + (double)fz_u8(&in);
            CHECK(llmm_sketch_reset(a) == LLMM_OK);
            CHECK(llmm_sketch_count(a) == 0);
            for (uint64_t i = 0; before <= 512 && i < before; i++)
                CHECK(llmm_sketch_add(a, step * (1.0 + 1e-3 * (double)i)) == LLMM_OK);
            break;
        }
        case 9: {
            double lo = fz_double(&in), hi = fz_double(&in);
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
            double q = fz_double(&in), r, x;
            st = llmm_sketch_quantile(a, q, &x);
            CHECK(st == (!(q >= 0.0 && q <= 1.0) ? LLMM_E_INVALID
                         : before ? LLMM_OK : LLMM_E_EMPTY));
            st = llmm_sketch_rank(a, q, &r);
            if (st == LLMM_OK)
                CHECK(r >= 0.0 && r <= 1.0);
            break;
        }
        case 12: { /* subtract b whatever it holds: no snapshot of a, yet a valid sketch */
            uint64_t other = llmm_sketch_count(b);
            st = llmm_sketch_subtract(a, b);
            CHECK(llmm_sketch_count(a) == before - (st == LLMM_OK ? other : 0));
            if (st == LLMM_OK)
                fz_check_round_trip(a);
            break;
        }
        default: { /* snapshot the recorder: consistent, equal to what was added */
            llmm_sketch *snap = NULL;
            if (llmm_sketch_new(NULL, 6, &snap) != LLMM_OK)
                abort();
            CHECK(llmm_recorder_snapshot(rec, snap) == LLMM_OK);
            fz_check_sketch_ex(snap, 0);
            fz_check_round_trip(snap);
            llmm_sketch_free(snap);
            break;
        }
        }
        /* a is what the step changed (b only through copy); checking b every step would
         * spend most of the time scanning huge empty stores */
        fz_check_sketch_ex(a, 0);
        if ((op & 15) == 10 || (steps & 7) == 0)
            fz_check_sketch_ex(b, 0);
    }
    fz_check_sketch_ex(s[0], 0);
    fz_check_sketch_ex(s[1], 0);
    fz_check_round_trip(s[0]);
    fz_check_round_trip(s[1]);
    llmm_shard_release(sh);
    llmm_recorder_free(rec);
    llmm_sketch_free(s[0]);
    llmm_sketch_free(s[1]);
    return 0;
}
