/* The cumulative view (lib/sketch/view.c): quantile and rank queries on an unchanged sketch are
 * answered from running totals built by an earlier query. Nothing a query answers may ever be
 * stale: after every kind of change (fast-path adds, slow-path adds, batches, failed batches,
 * reset, subtract, merge, downscale, copy, snapshot, set_range, decode, a counter widening),
 * including changes that leave the count where it was, each answer equals
 *   - an exact recomputation of the rank rule (doc/spec.md §5) from the public bucket cursor,
 *   - the answer of a fresh clone, whose first query scans the buckets (no view yet).
 * Every check queries three times: the first scans, the second fills the view, the third reads
 * it. The last test runs readers in several threads on one sketch (suite tsan). */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>

#include "helpers.h"

#define NQ 14
static const double QS[NQ] = {0.0,   1e-4, 0.001, 0.01, 0.1,    0.25,   0.5,
                              0.625, 0.75, 0.9,   0.99, 0.999,  0.9999, 1.0};
#define NV 9
static const double PROBES[NV] = {0.0, 1e-12, 1e-6, 0.01, 0.1, 0.2, 0.5, 3.0, 1e20};

static llmm_sketch *mk(int scale)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(NULL, scale, &s));
    return s;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Quantile q recomputed from the public cursor alone: the rank rule, then the value class
 * that holds the rank (zero, underflow, a bucket's representative 2·base^(i+1)/(1 + base) kept
 * inside the range, overflow), clamped to [min, max]; ranks 1 and n are min and max. */
static double ref_quantile(const llmm_sketch *s, double q)
{
    uint64_t n = llmm_sketch_count(s), z, u, o, cum, r;
    double qn = q * (double)n, rr = nearbyint(qn), mn, mx, lo, hi;
    int32_t a, b, scale = llmm_sketch_scale(s);
    if (fabs(qn - rr) > 1e-9)
        rr = ceil(qn);
    r = rr < 1.0 ? 1 : rr >= (double)n ? n : (uint64_t)rr;
    assert_ok(llmm_sketch_min(s, &mn));
    assert_ok(llmm_sketch_max(s, &mx));
    assert_ok(llmm_sketch_range(s, &lo, &hi));
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    if (r == 1)
        return mn;
    if (r == n)
        return mx;
    cum = z;
    if (r <= cum)
        return clampd(0.0, mn, mx);
    cum += u;
    if (r <= cum)
        return clampd(lo, mn, mx);
    if (llmm_sketch_bucket_span(s, &a, &b) == LLMM_OK) {
        for (int32_t i = a; i <= b; i++) {
            cum += llmm_sketch_bucket_count(s, i);
            if (r <= cum) {
                double lower, upper, base = exp2(ldexp(1.0, -scale));
                assert_ok(llmm_sketch_bucket_bounds(scale, i, &lower, &upper));
                return clampd(clampd(upper * (2.0 / (1.0 + base)), lo, hi), mn, mx);
            }
        }
    }
    return clampd(hi, mn, mx);
}

/* Fraction of values <= v, recomputed the same way. */
static double ref_rank(const llmm_sketch *s, double v)
{
    uint64_t n = llmm_sketch_count(s), z, u, o, le;
    double mn, mx;
    int32_t a, b, vi;
    assert_ok(llmm_sketch_min(s, &mn));
    assert_ok(llmm_sketch_max(s, &mx));
    if (v < mn)
        return 0.0;
    if (v >= mx)
        return 1.0;
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    le = z;
    if (v > 0.0) {
        le += u;
        assert_ok(llmm_sketch_index(llmm_sketch_scale(s), v, &vi));
        if (llmm_sketch_bucket_span(s, &a, &b) == LLMM_OK)
            for (int32_t i = a; i <= b && i <= vi; i++)
                le += llmm_sketch_bucket_count(s, i);
    }
    return (double)le / (double)n;
}

/* Every answer of s, three times over (scan, fill, view), against the recomputation and
 * against a fresh clone's scan; batch and single calls alike. */
static void check_answers(const llmm_sketch *s)
{
    double want[NQ], scan[NQ], got[NQ], x;
    llmm_sketch *fresh = NULL;
    if (!llmm_sketch_count(s)) {
        assert_status(llmm_sketch_quantiles(s, QS, NQ, got), LLMM_E_EMPTY);
        return;
    }
    assert_ok(llmm_sketch_clone(s, &fresh));
    assert_ok(llmm_sketch_quantiles(fresh, QS, NQ, scan));
    for (int i = 0; i < NQ; i++) {
        want[i] = ref_quantile(s, QS[i]);
        assert_close(scan[i], want[i], 1e-13, 0.0);
    }
    for (int round = 0; round < 3; round++) {
        assert_ok(llmm_sketch_quantiles(s, QS, NQ, got));
        for (int i = 0; i < NQ; i++)
            assert_true(got[i] == scan[i]);
    }
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NQ; i++) {
            assert_ok(llmm_sketch_quantile(s, QS[i], &x));
            assert_true(x == scan[i]);
        }
    }
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NV; i++) {
            assert_ok(llmm_sketch_rank(s, PROBES[i], &x));
            assert_true(x == ref_rank(s, PROBES[i]));
        }
    }
    llmm_sketch_free(fresh);
}

/* values with a fixed seed: log-normal latencies, a few zeros and out-of-range ones */
static void fill(llmm_sketch *s, uint64_t seed, int n, double median)
{
    for (int i = 0; i < n; i++) {
        double v = lognormal(&seed, median, 1.0);
        if (i % 97 == 0)
            v = 0.0;
        else if (i % 89 == 0)
            v = 1e-12;
        else if (i % 83 == 0)
            v = 1e16;
        assert_ok(llmm_sketch_add(s, v));
    }
}

static void test_adds_of_every_kind(void **state)
{
    llmm_sketch *s = mk(6);
    double batch[5] = {0.21, 0.19, 0.2, 0.22, 0.18}, bad[3] = {0.2, NAN, 0.3};
    (void)state;
    fill(s, 1, 5000, 0.2);
    check_answers(s);
    /* the fast path alone (values strictly inside [min, max]): only the count moves */
    for (int i = 0; i < 50; i++)
        assert_ok(llmm_sketch_add(s, 0.2 + 0.001 * i));
    check_answers(s);
    assert_ok(llmm_sketch_add(s, 1e-7)); /* a new minimum: the slow path */
    check_answers(s);
    assert_ok(llmm_sketch_add_n(s, 0.4, 1000));
    check_answers(s);
    assert_ok(llmm_sketch_add_many(s, batch, 5));
    check_answers(s);
    /* a failed batch changes nothing: the view of before still holds */
    assert_status(llmm_sketch_add_many(s, bad, 3), LLMM_E_INVALID);
    check_answers(s);
    assert_status(llmm_sketch_add(s, -1.0), LLMM_E_INVALID);
    check_answers(s);
    llmm_sketch_free(s);
}

static void test_same_count_other_contents(void **state)
{
    llmm_sketch *s = mk(6), *other = mk(6), *part = mk(6), *coarse = mk(4);
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    (void)state;
    fill(s, 2, 3000, 0.2);
    fill(other, 3, 3000, 5.0); /* as many values, elsewhere */
    check_answers(s);
    /* reset and the same number of other values */
    assert_ok(llmm_sketch_reset(s));
    check_answers(s);
    fill(s, 4, 3000, 0.05);
    check_answers(s);
    /* subtract some, add as many others back through the fast path */
    fill(part, 4, 500, 0.05); /* the first 500 of s's values */
    assert_ok(llmm_sketch_subtract(s, part));
    check_answers(s);
    for (int i = 0; i < 500; i++)
        assert_ok(llmm_sketch_add(s, 0.04 + 1e-5 * i));
    assert_int_equal(llmm_sketch_count(s), 3000);
    check_answers(s);
    /* copy a sketch of the same count over it */
    assert_ok(llmm_sketch_copy(s, other));
    check_answers(s);
    /* an empty, coarser operand: same count, coarser buckets */
    assert_ok(llmm_sketch_merge(s, coarse));
    assert_int_equal(llmm_sketch_scale(s), 4);
    check_answers(s);
    /* downscale: same count again */
    assert_ok(llmm_sketch_downscale(s, 2));
    check_answers(s);
    /* a snapshot of as many other values */
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    assert_ok(llmm_recorder_shard(rec, &sh));
    {
        uint64_t seed = 6;
        for (int i = 0; i < 3000; i++)
            assert_ok(llmm_shard_add(sh, lognormal(&seed, 30.0, 1.0)));
    }
    assert_ok(llmm_recorder_snapshot(rec, s));
    assert_int_equal(llmm_sketch_count(s), 3000);
    check_answers(s);
    llmm_shard_release(sh);
    llmm_recorder_free(rec);
    llmm_sketch_free(s);
    llmm_sketch_free(other);
    llmm_sketch_free(part);
    llmm_sketch_free(coarse);
}

static void test_merge_range_decode_widen(void **state)
{
    llmm_sketch *s = mk(6), *t = mk(6), *d = NULL;
    uint8_t buf[8192];
    size_t len = 0;
    (void)state;
    fill(s, 7, 2000, 0.2);
    fill(t, 8, 2000, 0.3);
    check_answers(s);
    assert_ok(llmm_sketch_merge(s, t)); /* inside s's store: the in-place path */
    check_answers(s);
    fill(t, 9, 100, 500.0);
    assert_ok(llmm_sketch_merge(s, t)); /* past it: the rebuilding path */
    check_answers(s);
    assert_ok(llmm_sketch_serialize(s, buf, sizeof buf, &len));
    assert_ok(llmm_sketch_deserialize(NULL, buf, len, &d));
    check_answers(d);
    /* set_range (on an empty sketch), then values around the new bounds */
    assert_ok(llmm_sketch_reset(s));
    assert_ok(llmm_sketch_set_range(s, 0.1, 10.0));
    fill(s, 10, 2000, 1.0);
    check_answers(s);
    /* a 32-bit counter that would wrap widens the store under a built view */
    assert_ok(llmm_sketch_add_n(s, 1.0, UINT32_MAX - 10));
    check_answers(s);
    for (int i = 0; i < 40; i++)
        assert_ok(llmm_sketch_add(s, 1.0));
    check_answers(s);
    llmm_sketch_free(s);
    llmm_sketch_free(t);
    llmm_sketch_free(d);
}

static void test_every_scale_and_store_shape(void **state)
{
    (void)state;
    for (int scale = LLMM_SCALE_MIN; scale <= LLMM_SCALE_MAX; scale++) {
        llmm_sketch *s = mk(scale);
        /* stores from 1 slot up to many blocks, including sizes that end mid-block */
        for (int n = 1; n <= 4000; n = n * 3 + 1) {
            uint64_t seed = (uint64_t)(scale * 1000 + n);
            for (int i = 0; i < n; i++)
                assert_ok(llmm_sketch_add(s, lognormal(&seed, 0.2, 0.3 + 0.01 * n / 100)));
            check_answers(s);
        }
        llmm_sketch_free(s);
    }
}

/* Many quantile levels on stores of many blocks (where queries start from the view's guide),
 * for narrow, wide and lopsided distributions: every answer from the view equals the scan's
 * and the recomputed one. */
static void test_every_level_many_blocks(void **state)
{
    enum { NL = 2001 + 12 };
    static const double sigmas[] = {0.05, 0.5, 1.0, 2.0, 3.0};
    double q[NL], scan[NL], got[NL];
    (void)state;
    for (int i = 0; i <= 2000; i++)
        q[i] = i / 2000.0;
    for (int k = 1; k <= 12; k++) /* the far tails, 1e-k from either end */
        q[2000 + k] = k % 2 ? pow(10.0, -(k + 1) / 2) : 1.0 - pow(10.0, -k / 2);
    for (size_t j = 0; j < sizeof sigmas / sizeof sigmas[0]; j++) {
        for (int scale = 4; scale <= 8; scale += 2) {
            llmm_sketch *s = mk(scale), *fresh = NULL;
            uint64_t seed = 100 + j;
            for (int i = 0; i < 20000; i++) /* one value in 50 in a far bucket of its own */
                assert_ok(llmm_sketch_add(s, i % 50 ? lognormal(&seed, 0.2, sigmas[j])
                                                    : 1e3 + i));
            assert_ok(llmm_sketch_clone(s, &fresh));
            assert_ok(llmm_sketch_quantiles(fresh, q, NL, scan));
            for (int round = 0; round < 3; round++) { /* scan, fill, read */
                assert_ok(llmm_sketch_quantiles(s, q, NL, got));
                for (int i = 0; i < NL; i++)
                    assert_true(got[i] == scan[i]);
            }
            for (int i = 0; i < NL; i += 7)
                assert_close(scan[i], ref_quantile(s, q[i]), 1e-13, 0.0);
            llmm_sketch_free(fresh);
            llmm_sketch_free(s);
        }
    }
}

/* ---- concurrent readers on one sketch (suite tsan) -------------------------------------- */

typedef struct {
    const llmm_sketch *s;
    const double *want; /* NQ quantiles, then NV ranks */
    pthread_barrier_t *start;
    int rounds;
    int wrong;
} reader_arg;

static void *reader(void *p)
{
    reader_arg *a = p;
    double got[NQ], x;
    pthread_barrier_wait(a->start);
    for (int k = 0; k < a->rounds; k++) {
        if (llmm_sketch_quantiles(a->s, QS, NQ, got) != LLMM_OK)
            a->wrong++;
        for (int i = 0; i < NQ; i++)
            a->wrong += got[i] != a->want[i];
        if (llmm_sketch_quantile(a->s, QS[k % NQ], &x) != LLMM_OK || x != a->want[k % NQ])
            a->wrong++;
        if (llmm_sketch_rank(a->s, PROBES[k % NV], &x) != LLMM_OK || x != a->want[NQ + k % NV])
            a->wrong++;
    }
    return NULL;
}

static void test_concurrent_readers(void **state)
{
    enum { READERS = 4, PHASES = 6 };
    llmm_sketch *s = mk(6), *fresh = NULL, *earlier = mk(6);
    pthread_t th[READERS];
    reader_arg args[READERS];
    pthread_barrier_t start;
    double want[NQ + NV];
    (void)state;
    fill(earlier, 11, 1000, 0.2);
    for (int phase = 0; phase < PHASES; phase++) {
        /* the writer's turn: a different change each phase (none while readers run) */
        switch (phase) {
        case 0:
            fill(s, 11, 1000, 0.2);
            break;
        case 1:
            for (int i = 0; i < 100; i++)
                assert_ok(llmm_sketch_add(s, 0.2));
            break;
        case 2:
            fill(s, 12, 3000, 0.9);
            break;
        case 3:
            assert_ok(llmm_sketch_subtract(s, earlier));
            break;
        case 4:
            assert_ok(llmm_sketch_downscale(s, 4));
            break;
        default:
            assert_ok(llmm_sketch_reset(s));
            fill(s, 13, 4100, 0.01);
        }
        assert_ok(llmm_sketch_clone(s, &fresh)); /* the expected answers, by a scan */
        assert_ok(llmm_sketch_quantiles(fresh, QS, NQ, want));
        for (int i = 0; i < NV; i++)
            assert_ok(llmm_sketch_rank(fresh, PROBES[i], &want[NQ + i]));
        llmm_sketch_free(fresh);
        /* the readers start together, so that several find the view stale at once */
        assert_int_equal(pthread_barrier_init(&start, NULL, READERS), 0);
        for (int t = 0; t < READERS; t++) {
            args[t] = (reader_arg){s, want, &start, 300, 0};
            assert_int_equal(pthread_create(&th[t], NULL, reader, &args[t]), 0);
        }
        for (int t = 0; t < READERS; t++) {
            assert_int_equal(pthread_join(th[t], NULL), 0);
            assert_int_equal(args[t].wrong, 0);
        }
        pthread_barrier_destroy(&start);
    }
    llmm_sketch_free(s);
    llmm_sketch_free(earlier);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adds_of_every_kind),
        cmocka_unit_test(test_same_count_other_contents),
        cmocka_unit_test(test_merge_range_decode_widen),
        cmocka_unit_test(test_every_scale_and_store_shape),
        cmocka_unit_test(test_every_level_many_blocks),
        cmocka_unit_test(test_concurrent_readers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
