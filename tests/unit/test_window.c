/* Window: time rings of sketches and of ratio counters. Deterministic synthetic clocks; the
 * references are exact (sorted values of the slots a span covers, integer sums). */
#include "helpers.h"

#define SEC UINT64_C(1000000000)
#define MS UINT64_C(1000000)


static llmm_window *mkw(uint64_t slot_ns, uint32_t slots)
{
    llmm_window *w = NULL;
    assert_ok(llmm_window_new(NULL, slot_ns, slots, LLMM_SCALE_DEFAULT, &w));
    return w;
}

static uint64_t wcount(llmm_window *w, uint64_t now, uint64_t span)
{
    uint64_t c = 0;
    assert_ok(llmm_window_count(w, now, span, &c));
    return c;
}

/* ---- construction ------------------------------------------------------------------------ */

static void test_new_defaults_and_errors(void **state)
{
    llmm_window *w = (llmm_window *)0x1;
    uint64_t slot_ns = 0;
    uint32_t slots = 0;
    (void)state;

    assert_ok(llmm_window_new(NULL, 0, 0, LLMM_SCALE_DEFAULT, &w));
    assert_ok(llmm_window_geometry(w, &slot_ns, &slots));
    assert_true(slot_ns == SEC);
    assert_int_equal(slots, 60);
    assert_ok(llmm_window_geometry(w, NULL, NULL));
    llmm_window_free(w);

    w = (llmm_window *)0x1;
    assert_status(llmm_window_new(NULL, 0, LLMM_WINDOW_SLOTS_MAX + 1, 6, &w), LLMM_E_INVALID);
    assert_null(w);
    assert_status(llmm_window_new(NULL, 0, 0, 11, &w), LLMM_E_INVALID);
    assert_status(llmm_window_new(NULL, 0, 0, -1, &w), LLMM_E_INVALID);
    assert_status(llmm_window_new(NULL, UINT64_MAX, 2, 6, &w), LLMM_E_INVALID);
    assert_status(llmm_window_new(NULL, UINT64_MAX / 3 + 1, 3, 6, &w), LLMM_E_INVALID);
    assert_status(llmm_window_new(NULL, 0, 0, 6, NULL), LLMM_E_INVALID);
    assert_status(llmm_window_geometry(NULL, &slot_ns, &slots), LLMM_E_INVALID);
    /* the largest geometry that fits is accepted */
    assert_ok(llmm_window_new(NULL, UINT64_MAX / 3, 3, 0, &w));
    assert_ok(llmm_window_add(w, UINT64_MAX, 1.0));
    assert_int_equal(wcount(w, UINT64_MAX, UINT64_MAX / 3 * 3), 1);
    llmm_window_free(w);
    llmm_window_free(NULL);
}

/* ---- quantiles against an exact reference ------------------------------------------------ */

static void test_quantiles_match_exact_reference(void **state)
{
    enum { N = 40000, SLOTS = 20 };
    const uint64_t slot = 10 * MS;
    const double qs[] = {0.0, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0};
    const size_t nq = sizeof qs / sizeof qs[0];
    static uint64_t t[N];
    static double v[N], buf[N];
    llmm_window *w = mkw(slot, SLOTS);
    uint64_t x = 42, now = 5 * SEC + 3; /* not slot-aligned */
    size_t queries = 0;
    (void)state;

    for (size_t i = 0; i < N; i++) {
        now += rng_next(&x) % (200 * 1000); /* 0 … 200 µs, often several per slot */
        t[i] = now;
        v[i] = lognormal(&x, 200.0, i < N / 2 ? 1.0 : 2.0);
        assert_ok(llmm_window_add(w, now, v[i]));
        if (i % 997 != 996)
            continue;
        /* query a little later than the last sample, over spans that are and are not whole */
        now += rng_next(&x) % (3 * slot);
        for (int s = 0; s < 6; s++) {
            uint64_t span = s == 5 ? slot * SLOTS : 1 + rng_next(&x) % (slot * SLOTS);
            uint64_t nslots = (span + slot - 1) / slot, cur = now / slot, first;
            double got[7];
            size_t m = 0;
            first = cur + 1 >= nslots ? cur + 1 - nslots : 0;
            for (size_t j = i + 1; j-- > 0 && t[j] / slot >= first;)
                buf[m++] = v[j];
            assert_int_equal(wcount(w, now, span), m);
            if (m == 0) {
                assert_status(llmm_window_quantiles(w, now, span, qs, nq, got), LLMM_E_EMPTY);
                continue;
            }
            qsort(buf, m, sizeof *buf, cmp_dbl);
            assert_ok(llmm_window_quantiles(w, now, span, qs, nq, got));
            for (size_t k = 0; k < nq; k++) {
                double one;
                assert_close(got[k], exact_q(buf, m, qs[k]), REL_ERR_S6, 0);
                assert_ok(llmm_window_quantile(w, now, span, qs[k], &one));
                assert_true(one == got[k]);
            }
            /* rank 1 and rank n are exact */
            assert_true(got[0] == buf[0]);
            assert_true(got[nq - 1] == buf[m - 1]);
            queries++;
        }
    }
    assert_true(queries > 150);
    llmm_window_free(w);
}

/* Whole-ring answers come from a running merge of the closed slots; they must equal, bucket
 * for bucket and in count / min / max, a sketch fed directly with the covered values. Streams:
 * random, steadily rising and steadily falling (extremes leave the ring at every slot), with
 * gaps of a few slots and of more than the ring. */
static void test_whole_ring_equals_fresh_sketch(void **state)
{
    enum { N = 6000, SLOTS = 8 };
    const uint64_t slot = 10 * MS;
    static uint64_t t[N];
    static double v[N];
    (void)state;
    for (int shape = 0; shape < 3; shape++) {
        llmm_window *w = mkw(slot, SLOTS);
        llmm_sketch *into = NULL, *ref = NULL;
        uint64_t x = 1234 + (uint64_t)shape, now = 0;
        size_t checks = 0;
        assert_ok(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &into));
        assert_ok(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &ref));
        for (size_t i = 0; i < N; i++) {
            uint64_t r = rng_next(&x);
            now += r % (400 * 1000);
            if (r % 1000 == 0)
                now += (r >> 20) % (3 * SLOTS) * slot; /* gaps of up to 3 rings */
            t[i] = now;
            v[i] = shape == 0 ? lognormal(&x, 5.0, 1.0)
                   : shape == 1 ? 1.0 + (double)i * 0.01 * (1.0 + 0.01 * rng_unit(&x))
                                : 1000.0 - (double)i * 0.1 * (1.0 + 0.01 * rng_unit(&x));
            assert_ok(llmm_window_add(w, now, v[i]));
            if (rng_unit(&x) < 0.8)
                continue;
            uint64_t q = now + (rng_next(&x) % 4 == 0 ? rng_next(&x) % (2 * slot) : 0);
            uint64_t first = q / slot + 1 >= SLOTS ? q / slot + 1 - SLOTS : 0;
            assert_ok(llmm_sketch_reset(ref));
            for (size_t j = i + 1; j-- > 0 && t[j] / slot >= first;)
                assert_ok(llmm_sketch_add(ref, v[j]));
            assert_ok(llmm_window_snapshot(w, q, SLOTS * slot, into));
            now = q;
            assert_true(llmm_sketch_count(into) == llmm_sketch_count(ref));
            if (llmm_sketch_count(ref) == 0)
                continue;
            assert_same_sketch(into, ref, 1e-9);
            checks++;
        }
        assert_true(checks > 800);
        llmm_sketch_free(into);
        llmm_sketch_free(ref);
        llmm_window_free(w);
    }
}

/* ---- span rule, expiry, gaps ------------------------------------------------------------- */

static void test_span_rounds_up_to_whole_slots(void **state)
{
    llmm_window *w = mkw(SEC, 3);
    (void)state;
    assert_ok(llmm_window_add(w, SEC / 2, 1.0));         /* slot 0 */
    assert_ok(llmm_window_add(w, SEC + SEC / 2, 2.0));   /* slot 1 */
    assert_ok(llmm_window_add(w, 2 * SEC + SEC / 5, 3.0)); /* slot 2 */
    const uint64_t now = 2 * SEC + SEC / 2;
    assert_int_equal(wcount(w, now, 1), 1);
    assert_int_equal(wcount(w, now, SEC), 1);
    assert_int_equal(wcount(w, now, SEC + 1), 2);
    assert_int_equal(wcount(w, now, 2 * SEC), 2);
    assert_int_equal(wcount(w, now, 2 * SEC + 1), 3);
    assert_int_equal(wcount(w, now, 3 * SEC), 3);
    double q;
    assert_ok(llmm_window_quantile(w, now, SEC / 10, 0.0, &q));
    assert_true(q == 3.0);
    assert_ok(llmm_window_quantile(w, now, SEC + 1, 0.0, &q));
    assert_true(q == 2.0);
    assert_ok(llmm_window_quantile(w, now, 3 * SEC, 0.0, &q));
    assert_true(q == 1.0);
    /* zero-length and too-long spans */
    uint64_t c = 77;
    assert_status(llmm_window_count(w, now, 0, &c), LLMM_E_INVALID);
    assert_status(llmm_window_count(w, now, 3 * SEC + 1, &c), LLMM_E_RANGE);
    assert_status(llmm_window_quantile(w, now, 0, 0.5, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, now, 4 * SEC, 0.5, &q), LLMM_E_RANGE);
    assert_true(c == 77);
    llmm_window_free(w);
}

static void test_expired_slots_never_count(void **state)
{
    llmm_window *w = mkw(SEC, 4);
    double q;
    (void)state;
    /* 100 large values in slot 0, 10 small ones in each of slots 1-3 */
    for (int i = 0; i < 100; i++)
        assert_ok(llmm_window_add(w, 0, 1000.0 + i));
    for (uint64_t s = 1; s <= 3; s++)
        for (int i = 0; i < 10; i++)
            assert_ok(llmm_window_add(w, s * SEC + (uint64_t)i, 1.0 + i));
    /* at the end of slot 3 slot 0 is still in the ring */
    assert_int_equal(wcount(w, 4 * SEC - 1, 4 * SEC), 130);
    assert_ok(llmm_window_quantile(w, 4 * SEC - 1, 4 * SEC, 1.0, &q));
    assert_true(q == 1099.0);
    /* one nanosecond later it has expired, although nothing was written since */
    assert_int_equal(wcount(w, 4 * SEC, 4 * SEC), 30);
    assert_ok(llmm_window_quantile(w, 4 * SEC, 4 * SEC, 1.0, &q));
    assert_true(q == 10.0);
    /* writing slot 4 reuses slot 0's entry: only the new value is there */
    assert_ok(llmm_window_add(w, 4 * SEC + 5, 7.0));
    assert_int_equal(wcount(w, 4 * SEC + 5, 1), 1);
    assert_ok(llmm_window_quantile(w, 4 * SEC + 5, 1, 0.5, &q));
    assert_true(q == 7.0);
    /* slots 1-3 expire one by one */
    assert_int_equal(wcount(w, 5 * SEC, 4 * SEC), 21);
    assert_int_equal(wcount(w, 6 * SEC, 4 * SEC), 11);
    assert_int_equal(wcount(w, 7 * SEC, 4 * SEC), 1);
    assert_int_equal(wcount(w, 8 * SEC, 4 * SEC), 0);
    assert_status(llmm_window_quantile(w, 8 * SEC, 4 * SEC, 0.5, &q), LLMM_E_EMPTY);
    llmm_window_free(w);
}

static void test_long_gaps(void **state)
{
    /* Gaps of 2^40 slots each. The ring recognises expired entries by their slot number, so
     * this loop costs O(1) per call; walking the missed slots would never finish. */
    llmm_window *w = mkw(1, 1000);
    uint64_t now = 0;
    double q;
    (void)state;
    for (int i = 0; i < 20000; i++) {
        now += UINT64_C(1) << 40;
        assert_ok(llmm_window_add(w, now, (double)(i % 100)));
        assert_ok(llmm_window_add(w, now + 999, 500.0)); /* last slot of the same ring */
        if (i % 1000 == 0) {
            assert_int_equal(wcount(w, now + 999, 1000), 2);
            assert_int_equal(wcount(w, now + 1000, 1000), 1); /* the first one expired */
        }
        now += 1000;
    }
    assert_ok(llmm_window_quantile(w, now, 1000, 0.0, &q));
    assert_true(q == 500.0);
    llmm_window_free(w);
}

/* ---- bad input changes nothing ----------------------------------------------------------- */

/* An observable summary of a window at a time stamp. */
typedef struct wstate {
    uint64_t count;
    double q[5];
} wstate;

static void capture(llmm_window *w, uint64_t now, wstate *s)
{
    static const double qs[5] = {0.0, 0.5, 0.9, 0.99, 1.0};
    s->count = wcount(w, now, 8 * SEC);
    assert_ok(llmm_window_quantiles(w, now, 8 * SEC, qs, 5, s->q));
}

static void assert_same_state(const wstate *a, const wstate *b)
{
    assert_true(a->count == b->count);
    for (int i = 0; i < 5; i++)
        assert_true(a->q[i] == b->q[i]);
}

static void test_bad_input_changes_nothing(void **state)
{
    llmm_window *w = mkw(SEC, 8);
    uint64_t x = 7, c = 99;
    const uint64_t last = 5 * SEC + 123;
    double bad[3] = {1.0, NAN, 2.0}, q = -1, out[2] = {-1, -1};
    const double qbad[2] = {0.5, 1.5};
    wstate before, after;
    llmm_sketch *into;
    (void)state;

    for (uint64_t t = 0; t <= last; t += SEC / 100)
        assert_ok(llmm_window_add(w, t, lognormal(&x, 10.0, 1.0)));
    assert_ok(llmm_window_add(w, last, 3.0));
    capture(w, last, &before);

    assert_status(llmm_window_add(w, last, NAN), LLMM_E_INVALID);
    assert_status(llmm_window_add(w, last, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_window_add(w, last, -1.0), LLMM_E_INVALID);
    assert_status(llmm_window_add(w, last - 1, 1.0), LLMM_E_INVALID); /* backwards */
    assert_status(llmm_window_add(w, 0, 1.0), LLMM_E_INVALID);
    assert_status(llmm_window_add(NULL, last, 1.0), LLMM_E_INVALID);
    assert_status(llmm_window_add_many(w, last + SEC, bad, 3), LLMM_E_INVALID);
    assert_status(llmm_window_add_many(w, last - 1, bad, 1), LLMM_E_INVALID);
    assert_status(llmm_window_add_many(w, last, NULL, 2), LLMM_E_INVALID);
    assert_status(llmm_window_add_many(NULL, last, bad, 1), LLMM_E_INVALID);
    assert_status(llmm_window_count(w, last - 1, SEC, &c), LLMM_E_INVALID);
    assert_status(llmm_window_count(w, last, SEC, NULL), LLMM_E_INVALID);
    assert_status(llmm_window_count(NULL, last, SEC, &c), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last - 1, SEC, 0.5, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, SEC, NAN, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, SEC, -0.1, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, SEC, 1.1, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, SEC, 0.5, NULL), LLMM_E_INVALID);
    assert_status(llmm_window_quantiles(w, last + SEC, SEC, qbad, 2, out), LLMM_E_INVALID);
    assert_status(llmm_window_quantiles(w, last + SEC, SEC, NULL, 2, out), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, 0, 0.5, &q), LLMM_E_INVALID);
    assert_status(llmm_window_quantile(w, last + SEC, 9 * SEC, 0.5, &q), LLMM_E_RANGE);
    assert_status(llmm_window_snapshot(w, last + SEC, SEC, NULL), LLMM_E_INVALID);
    assert_status(llmm_window_reset(NULL), LLMM_E_INVALID);
    /* an empty span is an error too: it must not advance the clock either */
    assert_status(llmm_window_quantile(w, last + 100 * SEC, SEC, 0.5, &q), LLMM_E_EMPTY);
    assert_true(q == -1 && out[0] == -1 && out[1] == -1 && c == 99);

    /* nothing changed, the clock included: the last time stamp is still accepted */
    capture(w, last, &after);
    assert_same_state(&before, &after);
    assert_ok(llmm_sketch_new(NULL, 6, &into));
    assert_ok(llmm_window_snapshot(w, last, 8 * SEC, into));
    assert_true(llmm_sketch_count(into) == before.count);
    assert_ok(llmm_window_add(w, last, 1.0));
    llmm_sketch_free(into);
    llmm_window_free(w);
}

/* ---- snapshot, add_many, reset ----------------------------------------------------------- */

static void test_snapshot_is_exact_merge(void **state)
{
    enum { N = 5000 };
    static uint64_t t[N];
    static double v[N];
    llmm_window *w = mkw(100 * MS, 10);
    llmm_sketch *into = NULL, *ref = NULL;
    uint64_t x = 99, now = 0, final;
    int32_t first, last;
    double a, b;
    (void)state;

    assert_ok(llmm_sketch_new(NULL, 3, &into));
    assert_ok(llmm_sketch_add(into, 12345.0)); /* contents and scale to be replaced */
    assert_ok(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &ref));
    for (int i = 0; i < N; i++) {
        now += rng_next(&x) % (1 * MS);
        t[i] = now;
        v[i] = lognormal(&x, 0.2, 1.5);
        assert_ok(llmm_window_add(w, now, v[i]));
    }
    final = now + 30 * MS;
    /* the reference: one sketch fed directly with the values of the 7 slots covered */
    for (int i = 0; i < N; i++)
        if (t[i] / (100 * MS) + 7 > final / (100 * MS))
            assert_ok(llmm_sketch_add(ref, v[i]));
    assert_ok(llmm_window_snapshot(w, final, 650 * MS, into)); /* rounds up to 7 slots */
    assert_int_equal(llmm_sketch_scale(into), LLMM_SCALE_DEFAULT);
    assert_true(llmm_sketch_count(into) == llmm_sketch_count(ref));
    assert_true(llmm_sketch_count(into) > 1000);
    assert_ok(llmm_sketch_bucket_span(ref, &first, &last));
    for (int32_t i = first - 2; i <= last + 2; i++)
        assert_true(llmm_sketch_bucket_count(into, i) == llmm_sketch_bucket_count(ref, i));
    assert_ok(llmm_sketch_min(into, &a));
    assert_ok(llmm_sketch_min(ref, &b));
    assert_true(a == b);
    assert_ok(llmm_sketch_max(into, &a));
    assert_ok(llmm_sketch_max(ref, &b));
    assert_true(a == b);
    assert_ok(llmm_sketch_sum(into, &a));
    assert_ok(llmm_sketch_sum(ref, &b));
    assert_close(a, b, 1e-12, 0);
    /* an empty span gives an empty sketch */
    assert_ok(llmm_window_snapshot(w, final + 10 * SEC, 100 * MS, into));
    assert_true(llmm_sketch_count(into) == 0);
    llmm_sketch_free(into);
    llmm_sketch_free(ref);
    llmm_window_free(w);
}

static void test_add_many_and_reset(void **state)
{
    llmm_window *w = mkw(SEC, 5);
    const double v[4] = {4.0, 1.0, 3.0, 2.0};
    double q;
    uint64_t slot_ns;
    uint32_t slots;
    (void)state;
    assert_ok(llmm_window_add_many(w, 10, v, 4));
    assert_ok(llmm_window_add_many(w, 11, NULL, 0)); /* accepted: advances the clock only */
    assert_status(llmm_window_add(w, 10, 1.0), LLMM_E_INVALID);
    assert_int_equal(wcount(w, SEC - 1, SEC), 4);
    assert_ok(llmm_window_quantile(w, SEC - 1, SEC, 0.5, &q));
    assert_close(q, 2.0, REL_ERR_S6, 0);
    assert_ok(llmm_window_add_many(w, 3 * SEC, v, 2)); /* a new slot, through the spare */
    assert_int_equal(wcount(w, 3 * SEC, 5 * SEC), 6);
    assert_int_equal(wcount(w, 3 * SEC, SEC), 2);
    /* reset: empty, and the clock starts over */
    assert_ok(llmm_window_reset(w));
    assert_int_equal(wcount(w, 0, 5 * SEC), 0);
    assert_ok(llmm_window_add(w, 0, 9.0));
    assert_ok(llmm_window_quantile(w, 0, 1, 1.0, &q));
    assert_true(q == 9.0);
    assert_ok(llmm_window_geometry(w, &slot_ns, &slots));
    assert_true(slot_ns == SEC && slots == 5);
    llmm_window_free(w);
}

/* ---- allocation failures ----------------------------------------------------------------- */

/* Create a window, fill several slots (recycling entries), query, snapshot. On an injected
 * failure of an add or a query, check that the window still answers exactly as before. */
static llmm_status step_window(llmm_ctx *ctx, void *arg)
{
    llmm_window *w = NULL;
    llmm_sketch *into = NULL;
    llmm_status st;
    uint64_t x = 5, c0, c1;
    double q0 = 0, q1 = 0;
    (void)arg;

    st = llmm_window_new(ctx, SEC, 4, LLMM_SCALE_DEFAULT, &w);
    if (st != LLMM_OK) {
        assert_null(w);
        return st;
    }
    for (uint64_t t = 0; t < 12 * SEC && st == LLMM_OK; t += SEC / 8) {
        double v = lognormal(&x, 1.0, t < 6 * SEC ? 0.5 : 3.0); /* new buckets late on */
        llmm_status sq;
        assert_ok(llmm_window_count(w, t > 0 ? t - 1 : 0, 4 * SEC, &c0));
        sq = llmm_window_quantile(w, t > 0 ? t - 1 : 0, 4 * SEC, 1.0, &q0);
        if (sq == LLMM_E_NOMEM) {
            st = sq; /* the scratch sketch could not grow */
            break;
        }
        assert_true(sq == (c0 ? LLMM_OK : LLMM_E_EMPTY));
        st = llmm_window_add(w, t, v);
        if (st != LLMM_OK) {
            /* nothing changed: same answers at the previous time stamp */
            assert_ok(llmm_window_count(w, t > 0 ? t - 1 : 0, 4 * SEC, &c1));
            assert_true(c0 == c1);
            if (c0) {
                assert_ok(llmm_window_quantile(w, t > 0 ? t - 1 : 0, 4 * SEC, 1.0, &q1));
                assert_true(q0 == q1);
            }
        }
    }
    if (st == LLMM_OK)
        st = llmm_window_quantile(w, 12 * SEC, 4 * SEC, 0.99, &q0);
    if (st == LLMM_OK)
        st = llmm_sketch_new(ctx, 2, &into);
    if (st == LLMM_OK) {
        st = llmm_window_snapshot(w, 12 * SEC, 4 * SEC, into);
        if (st != LLMM_OK)
            assert_int_equal(llmm_sketch_scale(into), 2); /* into unchanged */
        else
            assert_true(llmm_sketch_count(into) == 24);
    }
    llmm_sketch_free(into);
    llmm_window_free(w);
    return st;
}

static void test_failing_allocator(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(step_window, NULL) > 4);
}

/* A whole-ring query moves the running merge forward to its slot before it merges into the
 * scratch sketch. If the scratch merge fails, the clock stays behind, so an add may still land
 * in a slot the running merge already covers; the next answer must include it. */
static llmm_status step_stale_cache(llmm_ctx *ctx, void *arg)
{
    llmm_window *w = NULL;
    llmm_status st;
    uint64_t tadd, c;
    double q;
    int failed = 0;
    (void)arg;

    st = llmm_window_new(ctx, SEC, 4, LLMM_SCALE_DEFAULT, &w);
    if (st != LLMM_OK)
        return st;
    for (uint64_t s = 0; s <= 5 && st == LLMM_OK; s++)
        for (uint64_t i = 0; i < 20 && st == LLMM_OK; i++)
            st = llmm_window_add(w, s * SEC + i * MS, 1.0 + (double)s + 0.01 * (double)i);
    if (st != LLMM_OK) {
        llmm_window_free(w);
        return st;
    }
    st = llmm_window_quantile(w, 6 * SEC, 4 * SEC, 1.0, &q);
    if (st == LLMM_E_NOMEM)
        failed = 1; /* the clock is still in slot 5 */
    else
        assert_ok(st);
    tadd = failed ? 5 * SEC + 900 * MS : 6 * SEC;
    st = llmm_window_add(w, tadd, 100.0);
    if (st == LLMM_E_NOMEM) {
        failed = 1;
        assert_ok(llmm_window_add(w, tadd, 100.0));
    }
    st = llmm_window_quantile(w, 6 * SEC, 4 * SEC, 1.0, &q);
    if (st == LLMM_E_NOMEM) {
        failed = 1;
        assert_ok(llmm_window_quantile(w, 6 * SEC, 4 * SEC, 1.0, &q));
    }
    assert_true(q == 100.0);
    assert_ok(llmm_window_count(w, 6 * SEC, 4 * SEC, &c));
    assert_true(c == 61); /* slots 3, 4, 5 and the new value */
    st = llmm_window_quantile(w, 6 * SEC, 2 * SEC, 0.0, &q); /* a partial span: direct merges */
    if (st == LLMM_E_NOMEM) {
        failed = 1;
        assert_ok(llmm_window_quantile(w, 6 * SEC, 2 * SEC, 0.0, &q));
    }
    assert_true(q == 6.0); /* slot 5 holds 6.00 … 6.19 */
    llmm_window_free(w);
    return failed ? LLMM_E_NOMEM : LLMM_OK;
}

static void test_failing_query_then_add_behind_it(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(step_stale_cache, NULL) > 8);
}

/* ---- ratio window ------------------------------------------------------------------------ */

static llmm_ratio_window *mkr(uint64_t slot_ns, uint32_t slots)
{
    llmm_ratio_window *rw = NULL;
    assert_ok(llmm_ratio_window_new(NULL, slot_ns, slots, &rw));
    return rw;
}

static void test_ratio_matches_exact_counts(void **state)
{
    enum { N = 20000, SLOTS = 30 };
    const uint64_t slot = 100 * MS;
    static uint64_t t[N];
    static uint32_t ev[N];
    llmm_ratio_window *rw = mkr(slot, SLOTS);
    uint64_t x = 3, now = 0;
    (void)state;

    for (size_t i = 0; i < N; i++) {
        now += rng_next(&x) % (2 * MS);
        t[i] = now;
        /* an error rate that drifts from 1 % to 20 % */
        ev[i] = rng_unit(&x) < 0.01 + 0.19 * (double)i / N;
        assert_ok(llmm_ratio_window_add(rw, now, ev[i], 1));
        if (i % 501 != 500)
            continue;
        for (int s = 0; s < 4; s++) {
            uint64_t span = s == 0 ? slot * SLOTS : 1 + rng_next(&x) % (slot * SLOTS);
            uint64_t nslots = (span + slot - 1) / slot, e = 0, n = 0, ge, gn;
            uint64_t first = now / slot + 1 >= nslots ? now / slot + 1 - nslots : 0;
            double r;
            for (size_t j = i + 1; j-- > 0 && t[j] / slot >= first;) {
                e += ev[j];
                n++;
            }
            assert_ok(llmm_ratio_window_counts(rw, now, span, &ge, &gn));
            assert_true(ge == e && gn == n);
            assert_ok(llmm_ratio_window_ratio(rw, now, span, &r));
            assert_true(r == (double)e / (double)n);
        }
    }
    llmm_ratio_window_free(rw);
}

static void test_ratio_window_edges(void **state)
{
    llmm_ratio_window *rw = (llmm_ratio_window *)0x1;
    uint64_t e = 5, n = 5;
    double r = -1;
    (void)state;

    assert_status(llmm_ratio_window_new(NULL, 0, LLMM_WINDOW_SLOTS_MAX + 1, &rw), LLMM_E_INVALID);
    assert_null(rw);
    assert_status(llmm_ratio_window_new(NULL, UINT64_MAX, 2, &rw), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_new(NULL, 0, 0, NULL), LLMM_E_INVALID);
    rw = mkr(SEC, 3);
    /* empty → E_EMPTY; batches; KV hit rate style */
    assert_status(llmm_ratio_window_ratio(rw, 0, SEC, &r), LLMM_E_EMPTY);
    assert_ok(llmm_ratio_window_add(rw, 0, 30, 40));
    assert_ok(llmm_ratio_window_add(rw, SEC, 10, 60));
    assert_ok(llmm_ratio_window_add(rw, SEC, 0, 0));
    assert_ok(llmm_ratio_window_ratio(rw, SEC, 2 * SEC, &r));
    assert_true(r == 0.4);
    assert_ok(llmm_ratio_window_ratio(rw, SEC, SEC, &r));
    assert_true(r == 10.0 / 60.0);
    /* bad input changes nothing */
    assert_status(llmm_ratio_window_add(rw, SEC, 2, 1), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_add(rw, SEC - 1, 0, 1), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_add(NULL, SEC, 0, 1), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_add(rw, SEC, 0, UINT64_MAX), LLMM_E_RANGE);
    assert_status(llmm_ratio_window_counts(rw, SEC, 0, &e, &n), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_counts(rw, SEC, 3 * SEC + 1, &e, &n), LLMM_E_RANGE);
    assert_status(llmm_ratio_window_counts(rw, SEC - 1, SEC, &e, &n), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_counts(NULL, SEC, SEC, &e, &n), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_ratio(rw, SEC, SEC, NULL), LLMM_E_INVALID);
    assert_status(llmm_ratio_window_ratio(rw, 10 * SEC, SEC, &r), LLMM_E_EMPTY);
    assert_true(e == 5 && n == 5);
    assert_ok(llmm_ratio_window_counts(rw, SEC, 3 * SEC, &e, &n)); /* clock not advanced */
    assert_true(e == 40 && n == 100);
    assert_ok(llmm_ratio_window_counts(rw, SEC, SEC, NULL, NULL));
    /* expiry */
    assert_ok(llmm_ratio_window_counts(rw, 3 * SEC, 3 * SEC, &e, &n));
    assert_true(e == 10 && n == 60);
    assert_ok(llmm_ratio_window_counts(rw, 4 * SEC, 3 * SEC, &e, &n));
    assert_true(e == 0 && n == 0);
    /* slot counters saturate with E_RANGE, window sums too */
    assert_ok(llmm_ratio_window_add(rw, 4 * SEC, 0, UINT64_MAX - 1));
    assert_status(llmm_ratio_window_add(rw, 4 * SEC, 0, 2), LLMM_E_RANGE);
    assert_ok(llmm_ratio_window_add(rw, 5 * SEC, 0, 2));
    assert_status(llmm_ratio_window_counts(rw, 5 * SEC, 3 * SEC, &e, &n), LLMM_E_RANGE);
    assert_ok(llmm_ratio_window_counts(rw, 5 * SEC, SEC, &e, &n));
    assert_true(n == 2);
    /* reset */
    assert_status(llmm_ratio_window_reset(NULL), LLMM_E_INVALID);
    assert_ok(llmm_ratio_window_reset(rw));
    assert_ok(llmm_ratio_window_add(rw, 0, 1, 4));
    assert_ok(llmm_ratio_window_ratio(rw, 0, 3 * SEC, &r));
    assert_true(r == 0.25);
    llmm_ratio_window_free(rw);
    llmm_ratio_window_free(NULL);
}

static llmm_status step_ratio(llmm_ctx *ctx, void *arg)
{
    llmm_ratio_window *rw = NULL;
    double r;
    llmm_status st = llmm_ratio_window_new(ctx, 0, 0, &rw);
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(rw);
        return st;
    }
    assert_ok(llmm_ratio_window_add(rw, 5, 1, 3));
    assert_ok(llmm_ratio_window_ratio(rw, 5, SEC, &r));
    assert_close(r, 1.0 / 3.0, 1e-15, 0);
    llmm_ratio_window_free(rw);
    return LLMM_OK;
}

static void test_ratio_failing_allocator(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_ratio, NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_defaults_and_errors),
        cmocka_unit_test(test_quantiles_match_exact_reference),
        cmocka_unit_test(test_whole_ring_equals_fresh_sketch),
        cmocka_unit_test(test_span_rounds_up_to_whole_slots),
        cmocka_unit_test(test_expired_slots_never_count),
        cmocka_unit_test(test_long_gaps),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_snapshot_is_exact_merge),
        cmocka_unit_test(test_add_many_and_reset),
        cmocka_unit_test(test_failing_allocator),
        cmocka_unit_test(test_failing_query_then_add_behind_it),
        cmocka_unit_test(test_ratio_matches_exact_counts),
        cmocka_unit_test(test_ratio_window_edges),
        cmocka_unit_test(test_ratio_failing_allocator),
    };
    return cmocka_run_group_tests_name("window", tests, NULL, NULL);
}
