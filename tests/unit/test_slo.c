/* SLO module: the online check (doc/spec.md §2) over a sketch and over a window, vLLM goodput,
 * multi-window burn-rate alerts (SRE workbook) and the error-share trigger. Expected values are
 * doc/spec.md's, hand-computed from the slot rule of window.h (in comments), or exact nearest-rank
 * quantiles computed here by sorting. */
#include "helpers.h"

#define TOL 1e-12
#define SEC UINT64_C(1000000000)
#define MS UINT64_C(1000000)
#define MIN (60 * SEC)
#define HOUR (60 * MIN)
/* Worst relative error of a sketch quantile at the default scale (sketch.h). */
#define ALPHA 0.00542

static llmm_slo_result fresh_result(void)
{
    llmm_slo_result r;
    assert_ok(llmm_slo_result_init(&r));
    return r;
}

static llmm_sketch *sketch_of(const double *v, size_t n)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s));
    if (n)
        assert_ok(llmm_sketch_add_many(s, v, n));
    return s;
}

/* Exact nearest-rank quantile (doc/spec.md §5) of n values, by sorting a copy. */
static double exact_quantile(const double *v, size_t n, double q)
{
    double *c = malloc(n * sizeof *c), out;
    assert_non_null(c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_dbl);
    out = exact_q(c, n, q);
    free(c);
    return out;
}

/* Deterministic pseudo-random latencies in [10, 1010). */
static void lcg_fill(double *v, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        v[i] = 10.0 + (double)(seed >> 11) / 9007199254740992.0 * 1000.0;
    }
}

/* ---- the check over a sketch ------------------------------------------------------------- */

static void test_result_init(void **state)
{
    llmm_slo_result r;
    (void)state;
    memset(&r, 0xab, sizeof r);
    assert_ok(llmm_slo_result_init(&r));
    assert_int_equal(r.struct_size, sizeof r);
    assert_int_equal(r.satisfied, 0);
    assert_int_equal(r.successes, 0);
    assert_true(r.latency == 0.0);
    assert_status(llmm_slo_result_init(NULL), LLMM_E_INVALID);
}

/* The seed's check: N = 10 samples, p95 ≤ 800 ms, error rate ≤ 1 %. */
static void test_check_seed_reference(void **state)
{
    (void)state;
    /* 10 successes: p95 is rank ceil(9.5) = 10, the maximum, exact. */
    const double ok10[] = {120, 340, 560, 610, 700, 720, 750, 780, 790, 800};
    llmm_sketch *s = sketch_of(ok10, 10);
    llmm_slo_result r = fresh_result();
    assert_ok(llmm_slo_check(s, 0, 800.0, 0.01, &r));
    assert_true(r.latency == 800.0); /* equality satisfies */
    assert_true(r.quantile == 0.95);
    assert_true(r.error_rate == 0.0);
    assert_int_equal(r.successes, 10);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.latency_ok, 1);
    assert_int_equal(r.errors_ok, 1);
    assert_int_equal(r.satisfied, 1);
    /* the slowest request one millisecond slower: p95 = 801 > 800 */
    assert_ok(llmm_sketch_reset(s));
    const double slow[] = {120, 340, 560, 610, 700, 720, 750, 780, 790, 801};
    assert_ok(llmm_sketch_add_many(s, slow, 10));
    assert_ok(llmm_slo_check(s, 0, 800.0, 0.01, &r));
    assert_true(r.latency == 801.0);
    assert_int_equal(r.latency_ok, 0);
    assert_int_equal(r.errors_ok, 1);
    assert_int_equal(r.satisfied, 0);
    /* 9 successes and 1 failure: error_rate = 1/10 > 0.01; the failure has no latency, p95 is
     * rank ceil(0.95 · 9) = 9 of the successes, their maximum 790. */
    assert_ok(llmm_sketch_reset(s));
    assert_ok(llmm_sketch_add_many(s, ok10, 9));
    assert_ok(llmm_slo_check(s, 1, 800.0, 0.01, &r));
    assert_int_equal(r.successes, 9);
    assert_int_equal(r.errors, 1);
    assert_true(r.latency == 790.0);
    assert_close(r.error_rate, 0.1, TOL, 0);
    assert_int_equal(r.latency_ok, 1);
    assert_int_equal(r.errors_ok, 0);
    assert_int_equal(r.satisfied, 0);
    /* the same in seconds: thresholds are in the sketch's unit */
    const double sec[] = {0.12, 0.34, 0.56, 0.61, 0.7, 0.72, 0.75, 0.78, 0.79, 0.8};
    assert_ok(llmm_sketch_reset(s));
    assert_ok(llmm_sketch_add_many(s, sec, 10));
    assert_ok(llmm_slo_check(s, 0, 0.8, 0.01, &r));
    assert_true(r.latency == 0.8);
    assert_int_equal(r.satisfied, 1);
    assert_ok(llmm_slo_check(s, 0, 800.0 / 1001.0, 0.01, &r));
    assert_int_equal(r.satisfied, 0);
    llmm_sketch_free(s);
}

static void test_check_no_success(void **state)
{
    (void)state;
    llmm_sketch *s = sketch_of(NULL, 0);
    llmm_slo_result r = fresh_result();
    /* all 10 failed: p95 = +Inf, not satisfied */
    assert_ok(llmm_slo_check(s, 10, 800.0, 1.0, &r));
    assert_true(isinf(r.latency) && r.latency > 0);
    assert_true(r.error_rate == 1.0);
    assert_int_equal(r.latency_ok, 0);
    assert_int_equal(r.errors_ok, 1); /* err_max = 1 allows it, the latency does not */
    assert_int_equal(r.satisfied, 0);
    /* no request at all: no success, so not satisfied; error rate 0 */
    assert_ok(llmm_slo_check(s, 0, 800.0, 0.01, &r));
    assert_true(isinf(r.latency));
    assert_true(r.error_rate == 0.0);
    assert_int_equal(r.successes, 0);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.errors_ok, 1);
    assert_int_equal(r.satisfied, 0);
    llmm_sketch_free(s);
}

static void test_check_error_rate_boundary(void **state)
{
    (void)state;
    llmm_sketch *s = sketch_of(NULL, 0);
    llmm_slo_result r = fresh_result();
    assert_ok(llmm_sketch_add_n(s, 100.0, 99));
    /* 1 failure in 100 requests: exactly 0.01, which meets err_max = 0.01 */
    assert_ok(llmm_slo_check(s, 1, 800.0, 0.01, &r));
    assert_true(r.error_rate == 0.01);
    assert_int_equal(r.satisfied, 1);
    /* 2 in 101: above */
    assert_ok(llmm_slo_check(s, 2, 800.0, 0.01, &r));
    assert_close(r.error_rate, 2.0 / 101.0, TOL, 0);
    assert_int_equal(r.errors_ok, 0);
    assert_int_equal(r.satisfied, 0);
    /* err_max = 0 tolerates no failure; err_max = 1 tolerates all */
    assert_ok(llmm_slo_check(s, 0, 800.0, 0.0, &r));
    assert_int_equal(r.satisfied, 1);
    assert_ok(llmm_slo_check(s, 1, 800.0, 0.0, &r));
    assert_int_equal(r.satisfied, 0);
    assert_ok(llmm_slo_check(s, 1000000, 800.0, 1.0, &r));
    assert_int_equal(r.satisfied, 1);
    /* p95_max = 0 with zero latencies: 0 ≤ 0 */
    assert_ok(llmm_sketch_reset(s));
    assert_ok(llmm_sketch_add_n(s, 0.0, 5));
    assert_ok(llmm_slo_check(s, 0, 0.0, 0.0, &r));
    assert_true(r.latency == 0.0);
    assert_int_equal(r.satisfied, 1);
    llmm_sketch_free(s);
}

/* The nearest-rank rule on many values, against an exact sort. */
static void test_check_nearest_rank(void **state)
{
    (void)state;
    double v[20];
    for (int i = 0; i < 20; i++)
        v[i] = (double)(i + 1); /* 1 … 20 */
    llmm_sketch *s = sketch_of(v, 20);
    llmm_slo_result r = fresh_result();
    /* p95 of 20 is rank 19: the value 19, within the sketch's relative error */
    assert_ok(llmm_slo_check(s, 0, 20.0, 0.0, &r));
    assert_close(r.latency, 19.0, ALPHA, 0);
    assert_int_equal(r.satisfied, 1);
    assert_ok(llmm_slo_check(s, 0, 18.5, 0.0, &r));
    assert_int_equal(r.satisfied, 0);
    /* q = 0 is the exact minimum, q = 1 the exact maximum */
    assert_ok(llmm_slo_check_quantile(s, 0, 0.0, 1.0, 0.0, &r));
    assert_true(r.latency == 1.0 && r.quantile == 0.0);
    assert_int_equal(r.satisfied, 1);
    assert_ok(llmm_slo_check_quantile(s, 0, 1.0, 19.99, 0.0, &r));
    assert_true(r.latency == 20.0);
    assert_int_equal(r.satisfied, 0);
    llmm_sketch_free(s);

    /* 1000 pseudo-random latencies, several levels: the estimate lies within α of the exact
     * nearest-rank value, and the verdict follows bounds 1 % either side of it. */
    enum { N = 1000 };
    double *x = malloc(N * sizeof *x);
    assert_non_null(x);
    lcg_fill(x, N, 42);
    s = sketch_of(x, N);
    const double qs[] = {0.5, 0.9, 0.95, 0.99, 0.999};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        double exact = exact_quantile(x, N, qs[i]);
        assert_ok(llmm_slo_check_quantile(s, 3, qs[i], exact * 1.01, 0.01, &r));
        assert_close(r.latency, exact, ALPHA, 0);
        assert_int_equal(r.satisfied, 1); /* 3 / 1003 < 1 % */
        assert_ok(llmm_slo_check_quantile(s, 3, qs[i], exact * 0.99, 0.01, &r));
        assert_int_equal(r.satisfied, 0);
        if (qs[i] == 0.95) {
            llmm_slo_result r2 = fresh_result();
            assert_ok(llmm_slo_check(s, 3, exact * 1.01, 0.01, &r2));
            assert_true(r2.satisfied == 1 && r2.quantile == 0.95);
            assert_close(r2.latency, exact, ALPHA, 0);
        }
    }
    llmm_sketch_free(s);
    free(x);
}

static void test_check_bad_input(void **state)
{
    (void)state;
    const double v[] = {1, 2, 3};
    llmm_sketch *s = sketch_of(v, 3);
    llmm_slo_result r = fresh_result(), before;
    r.latency = -7.0;
    before = r;
    assert_status(llmm_slo_check(NULL, 0, 1.0, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, 1.0, 0.1, NULL), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, NAN, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, INFINITY, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, -1.0, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, 1.0, NAN, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, 1.0, -0.01, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check(s, 0, 1.0, 1.01, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check_quantile(s, 0, NAN, 1.0, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check_quantile(s, 0, -0.1, 1.0, 0.1, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_check_quantile(s, 0, 1.1, 1.0, 0.1, &r), LLMM_E_INVALID);
    /* successes + errors beyond 2^64 − 1 */
    assert_status(llmm_slo_check(s, UINT64_MAX - 2, 1.0, 0.1, &r), LLMM_E_RANGE);
    assert_memory_equal(&r, &before, sizeof r);
    /* a struct of another size */
    r.struct_size = (uint32_t)sizeof r - 8;
    assert_status(llmm_slo_check(s, 0, 1.0, 0.1, &r), LLMM_E_ABI);
    r.struct_size = 0;
    assert_status(llmm_slo_check(s, 0, 1.0, 0.1, &r), LLMM_E_ABI);
    r.struct_size = before.struct_size;
    assert_memory_equal(&r, &before, sizeof r);
    /* the largest sum that fits */
    assert_ok(llmm_slo_check(s, UINT64_MAX - 3, 1e9, 1.0, &r));
    assert_int_equal(r.satisfied, 1);
    llmm_sketch_free(s);
}

/* ---- the check over a window ------------------------------------------------------------- */

static llmm_slo_window *slo_window(uint64_t slot_ns, uint32_t slots)
{
    llmm_slo_window *w = NULL;
    assert_ok(llmm_slo_window_new(NULL, slot_ns, slots, LLMM_SCALE_DEFAULT, &w));
    assert_non_null(w);
    return w;
}

static llmm_slo_result window_check(llmm_slo_window *w, uint64_t now, uint64_t span)
{
    llmm_slo_result r = fresh_result();
    assert_ok(llmm_slo_window_check(w, now, span, 0.95, 800.0, 0.01, &r));
    return r;
}

/* 1 s slots, 10 of them. Slot k holds [k s, (k+1) s); a span of m s at a time in slot c covers
 * slots c − m + 1 … c. */
static void test_window_hand_sequence(void **state)
{
    (void)state;
    llmm_slo_window *w = slo_window(SEC, 10);
    llmm_slo_result r;

    assert_ok(llmm_slo_window_add(w, 500 * MS, 100.0));   /* slot 0 */
    assert_ok(llmm_slo_window_add(w, 1200 * MS, 200.0));  /* slot 1 */
    assert_ok(llmm_slo_window_add_errors(w, 1300 * MS, 1)); /* slot 1 */
    assert_ok(llmm_slo_window_add(w, 5 * SEC, 900.0));    /* slot 5 */
    assert_ok(llmm_slo_window_add(w, 5 * SEC + 1, 300.0)); /* slot 5 */

    /* at 5.5 s over 10 s: everything; 4 successes, p95 = rank 4 = 900; 1 error in 5 */
    r = window_check(w, 5500 * MS, 10 * SEC);
    assert_int_equal(r.successes, 4);
    assert_int_equal(r.errors, 1);
    assert_true(r.latency == 900.0);
    assert_close(r.error_rate, 0.2, TOL, 0);
    assert_int_equal(r.latency_ok, 0);
    assert_int_equal(r.errors_ok, 0);
    assert_int_equal(r.satisfied, 0);
    /* over 1 s: slot 5 only, {900, 300}: p95 = 900 */
    r = window_check(w, 5500 * MS, SEC);
    assert_int_equal(r.successes, 2);
    assert_int_equal(r.errors, 0);
    assert_true(r.latency == 900.0);
    /* over 5 s: slots 1 … 5, {200, 900, 300} and the error */
    r = window_check(w, 5500 * MS, 5 * SEC);
    assert_int_equal(r.successes, 3);
    assert_int_equal(r.errors, 1);
    /* 4.5 s rounds up to 5 slots: the same */
    llmm_slo_result r2 = window_check(w, 5500 * MS, 4500 * MS);
    assert_memory_equal(&r, &r2, sizeof r);
    /* over 4 s: slots 2 … 5, no error any more, but 900 > 800 */
    r = window_check(w, 5500 * MS, 4 * SEC);
    assert_int_equal(r.successes, 2);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.errors_ok, 1);
    assert_int_equal(r.latency_ok, 0);
    /* at 10.0 s the ring holds slots 1 … 10: slot 0 (100) expired */
    r = window_check(w, 10 * SEC, 10 * SEC);
    assert_int_equal(r.successes, 3);
    assert_int_equal(r.errors, 1);
    /* at 11.999 s: slots 2 … 11, the error (slot 1) gone */
    r = window_check(w, 11999 * MS, 10 * SEC);
    assert_int_equal(r.successes, 2);
    assert_int_equal(r.errors, 0);
    /* a good second at 12 s; the last 1 s meets the SLO */
    assert_ok(llmm_slo_window_add(w, 12 * SEC, 700.0));
    r = window_check(w, 12 * SEC, SEC);
    assert_int_equal(r.successes, 1);
    assert_true(r.latency == 700.0);
    assert_int_equal(r.satisfied, 1);
    /* at 16 s slot 5 has expired too; slot 12 holds the one request */
    r = window_check(w, 16 * SEC, 10 * SEC);
    assert_int_equal(r.successes, 1);
    assert_int_equal(r.satisfied, 1);
    /* an idle span: no success, not satisfied, error rate 0 */
    r = window_check(w, 16 * SEC, 3 * SEC);
    assert_int_equal(r.successes, 0);
    assert_int_equal(r.errors, 0);
    assert_true(isinf(r.latency));
    assert_true(r.error_rate == 0.0);
    assert_int_equal(r.satisfied, 0);
    /* long after: everything expired */
    r = window_check(w, 1000 * SEC, 10 * SEC);
    assert_int_equal(r.successes + r.errors, 0);
    assert_int_equal(r.satisfied, 0);
    llmm_slo_window_free(w);
}

/* The window's verdict equals llmm_slo_check() over the successes and errors of the slots the
 * span covers, here fed one request every 100 ms for 30 s. */
static void test_window_matches_sketch_check(void **state)
{
    (void)state;
    enum { N = 300 };
    double lat[N];
    lcg_fill(lat, N, 7);
    llmm_slo_window *w = slo_window(SEC, 20);
    for (int i = 0; i < N; i++) {
        uint64_t t = (uint64_t)i * 100 * MS;
        if (i % 17 == 3)
            assert_ok(llmm_slo_window_add_errors(w, t, 1));
        else
            assert_ok(llmm_slo_window_add(w, t, lat[i]));
    }
    const uint64_t now = 29950 * MS; /* slot 29 */
    const uint64_t spans[] = {1 * SEC, 7 * SEC, 20 * SEC};
    for (size_t k = 0; k < 3; k++) {
        uint64_t first = 29 - spans[k] / SEC + 1; /* first slot covered */
        llmm_sketch *s = sketch_of(NULL, 0);
        uint64_t errors = 0;
        for (int i = 0; i < N; i++) {
            if ((uint64_t)i / 10 < first)
                continue; /* request i is in slot i / 10 */
            if (i % 17 == 3)
                errors++;
            else
                assert_ok(llmm_sketch_add(s, lat[i]));
        }
        llmm_slo_result want = fresh_result(), got = fresh_result();
        double bound = exact_quantile(lat, 10, 0.5); /* some bound inside the data */
        assert_ok(llmm_slo_check_quantile(s, errors, 0.95, bound, 0.1, &want));
        assert_ok(llmm_slo_window_check(w, now, spans[k], 0.95, bound, 0.1, &got));
        assert_memory_equal(&want, &got, sizeof want);
        assert_int_equal(got.successes + got.errors, spans[k] / SEC * 10);
        llmm_sketch_free(s);
    }
    llmm_slo_window_free(w);
}

static void test_window_bad_input(void **state)
{
    (void)state;
    llmm_slo_window *w = slo_window(SEC, 10);
    llmm_slo_result r = fresh_result(), before, after;
    assert_ok(llmm_slo_window_add(w, 5 * SEC, 100.0));
    assert_ok(llmm_slo_window_add_errors(w, 5 * SEC, 1));
    before = window_check(w, 5 * SEC, 10 * SEC);

    /* bad values change nothing */
    assert_status(llmm_slo_window_add(w, 5 * SEC, NAN), LLMM_E_INVALID);
    assert_status(llmm_slo_window_add(w, 5 * SEC, -1.0), LLMM_E_INVALID);
    assert_status(llmm_slo_window_add(w, 5 * SEC, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_slo_window_add(NULL, 5 * SEC, 1.0), LLMM_E_INVALID);
    assert_status(llmm_slo_window_add_errors(NULL, 5 * SEC, 1), LLMM_E_INVALID);
    /* time going backwards, for every call */
    assert_status(llmm_slo_window_add(w, 5 * SEC - 1, 1.0), LLMM_E_INVALID);
    assert_status(llmm_slo_window_add_errors(w, 4 * SEC, 1), LLMM_E_INVALID);
    r = fresh_result();
    assert_status(llmm_slo_window_check(w, 4 * SEC, SEC, 0.95, 800, 0.01, &r), LLMM_E_INVALID);
    /* bad spans and bounds */
    assert_status(llmm_slo_window_check(w, 6 * SEC, 0, 0.95, 800, 0.01, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_window_check(w, 6 * SEC, 10 * SEC + 1, 0.95, 800, 0.01, &r),
                  LLMM_E_RANGE);
    assert_status(llmm_slo_window_check(w, 6 * SEC, SEC, NAN, 800, 0.01, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_window_check(w, 6 * SEC, SEC, 0.95, -1, 0.01, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_window_check(w, 6 * SEC, SEC, 0.95, 800, 2.0, &r), LLMM_E_INVALID);
    assert_status(llmm_slo_window_check(w, 6 * SEC, SEC, 0.95, 800, 0.01, NULL),
                  LLMM_E_INVALID);
    assert_status(llmm_slo_window_check(NULL, 6 * SEC, SEC, 0.95, 800, 0.01, &r),
                  LLMM_E_INVALID);
    r.struct_size = 4;
    assert_status(llmm_slo_window_check(w, 6 * SEC, SEC, 0.95, 800, 0.01, &r), LLMM_E_ABI);
    /* none of it moved the clock: 5 s is still accepted */
    after = window_check(w, 5 * SEC, 10 * SEC);
    assert_memory_equal(&before, &after, sizeof before);
    assert_ok(llmm_slo_window_add(w, 5 * SEC, 200.0));
    after = window_check(w, 5 * SEC, 10 * SEC);
    assert_int_equal(after.successes, 2);
    assert_int_equal(after.errors, 1);

    /* the lifetime request count is bounded by 2^64 − 1 */
    assert_status(llmm_slo_window_add_errors(w, 6 * SEC, UINT64_MAX - 2), LLMM_E_RANGE);
    assert_ok(llmm_slo_window_add_errors(w, 6 * SEC, UINT64_MAX - 3));
    assert_status(llmm_slo_window_add(w, 6 * SEC, 1.0), LLMM_E_RANGE);
    assert_status(llmm_slo_window_add_errors(w, 6 * SEC, 1), LLMM_E_RANGE);
    assert_ok(llmm_slo_window_add_errors(w, 6 * SEC, 0));
    after = window_check(w, 6 * SEC, 10 * SEC);
    assert_int_equal(after.successes, 2);
    assert_int_equal(after.errors, UINT64_MAX - 2);

    /* reset forgets the counts and the clock */
    assert_ok(llmm_slo_window_reset(w));
    assert_status(llmm_slo_window_reset(NULL), LLMM_E_INVALID);
    assert_ok(llmm_slo_window_add(w, 0, 300.0));
    after = window_check(w, 0, 10 * SEC);
    assert_int_equal(after.successes, 1);
    assert_int_equal(after.errors, 0);
    assert_int_equal(after.satisfied, 1);
    llmm_slo_window_free(w);
    llmm_slo_window_free(NULL);

    /* constructor */
    llmm_slo_window *bad = (llmm_slo_window *)&r;
    assert_status(llmm_slo_window_new(NULL, SEC, 10, 99, &bad), LLMM_E_INVALID);
    assert_null(bad);
    bad = (llmm_slo_window *)&r;
    assert_status(llmm_slo_window_new(NULL, SEC, LLMM_WINDOW_SLOTS_MAX + 1, 6, &bad),
                  LLMM_E_INVALID);
    assert_null(bad);
    assert_status(llmm_slo_window_new(NULL, UINT64_MAX, 2, 6, &bad), LLMM_E_INVALID);
    assert_status(llmm_slo_window_new(NULL, SEC, 10, 6, NULL), LLMM_E_INVALID);
    /* defaults: 60 slots of 1 s */
    w = slo_window(0, 0);
    assert_ok(llmm_slo_window_add(w, 0, 1.0));
    assert_ok(llmm_slo_window_check(w, 59 * SEC, 60 * SEC, 0.95, 1.0, 0.0, &after));
    assert_int_equal(after.successes, 1);
    assert_status(llmm_slo_window_check(w, 59 * SEC, 60 * SEC + 1, 0.95, 1.0, 0.0, &after),
                  LLMM_E_RANGE);
    llmm_slo_window_free(w);
}

/* Every allocation of the constructor, the adds and the check may fail: NOMEM, no leak, and a
 * check that failed changed nothing (repeating it gives the right answer). */
static llmm_status window_step(llmm_ctx *ctx, void *arg)
{
    llmm_slo_window *w = NULL;
    llmm_slo_result r;
    llmm_status st, failed = LLMM_OK;
    (void)arg;
    st = llmm_slo_window_new(ctx, SEC, 4, LLMM_SCALE_DEFAULT, &w);
    if (st != LLMM_OK) {
        assert_null(w);
        return st;
    }
    /* values far apart so that sketches grow */
    const double v[] = {1e-3, 5.0, 1e3, 2e6, 7e7};
    for (int i = 0; i < 5; i++) {
        st = llmm_slo_window_add(w, (uint64_t)i * SEC / 2, v[i]);
        if (st != LLMM_OK) {
            assert_int_equal(st, LLMM_E_NOMEM);
            failed = st;
            assert_ok(llmm_slo_window_add(w, (uint64_t)i * SEC / 2, v[i])); /* retry */
        }
    }
    assert_ok(llmm_slo_window_add_errors(w, 2 * SEC, 1));
    assert_ok(llmm_slo_result_init(&r));
    st = llmm_slo_window_check(w, 2 * SEC, 4 * SEC, 0.95, 1e8, 0.2, &r);
    if (st != LLMM_OK) {
        assert_int_equal(st, LLMM_E_NOMEM);
        failed = st;
        assert_ok(llmm_slo_window_check(w, 2 * SEC, 4 * SEC, 0.95, 1e8, 0.2, &r));
    }
    assert_int_equal(r.successes, 5);
    assert_int_equal(r.errors, 1);
    assert_true(r.latency == 7e7); /* rank ceil(4.75) = 5, the maximum */
    assert_int_equal(r.satisfied, 1);
    llmm_slo_window_free(w);
    return failed;
}

static void test_window_allocation_failures(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(window_step, NULL) > 3);
}

/* ---- goodput ----------------------------------------------------------------------------- */

static llmm_goodput *goodput(void)
{
    llmm_goodput *g = NULL;
    assert_ok(llmm_goodput_new(NULL, &g));
    assert_non_null(g);
    return g;
}

static llmm_goodput_result read_goodput(const llmm_goodput *g, uint64_t duration_ns)
{
    llmm_goodput_result r;
    assert_ok(llmm_goodput_result_init(&r));
    assert_ok(llmm_goodput_read(g, duration_ns, &r));
    return r;
}

static int32_t observe(llmm_goodput *g, double ttft, double tpot, double e2e)
{
    int32_t good = -1;
    assert_ok(llmm_goodput_observe(g, ttft, tpot, e2e, &good));
    return good;
}

/* vLLM's rule with `--goodput ttft:500 tpot:20` (milliseconds): good when ttft ≤ 500 and
 * tpot ≤ 20; e2e unchecked. */
static void test_goodput_vllm_rule(void **state)
{
    (void)state;
    llmm_goodput *g = goodput();
    double v = 0;
    assert_ok(llmm_goodput_get_f64(g, LLMM_GOODPUT_TTFT_MAX, &v));
    assert_true(isinf(v) && v > 0); /* not checked by default */
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, 500.0));
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_TPOT_MAX, 20.0));
    assert_ok(llmm_goodput_get_f64(g, LLMM_GOODPUT_TPOT_MAX, &v));
    assert_true(v == 20.0);

    assert_int_equal(observe(g, 400, 15, 30000), 1);  /* both met; e2e not checked */
    assert_int_equal(observe(g, 500, 20, 50000), 1);  /* equality is good */
    assert_int_equal(observe(g, 501, 10, 2000), 0);   /* TTFT missed */
    assert_int_equal(observe(g, 100, 20.5, 1000), 0); /* TPOT missed */
    assert_ok(llmm_goodput_add_failures(g, 1));       /* a failed request is never good */
    assert_ok(llmm_goodput_observe(g, 0, 0, 0, NULL)); /* good, verdict not wanted */

    /* 3 good of 5 completed, 6 requests, over 2 s */
    llmm_goodput_result r = read_goodput(g, 2 * SEC);
    assert_int_equal(r.requests, 6);
    assert_int_equal(r.completed, 5);
    assert_int_equal(r.good, 3);
    assert_true(r.fraction == 0.5);
    assert_true(r.rate_per_s == 1.5);       /* vLLM request_goodput: 3 / 2 s */
    assert_true(r.throughput_per_s == 2.5); /* vLLM request_throughput: 5 / 2 s */
    /* a duration that is not whole seconds: 3 / 0.75 s */
    r = read_goodput(g, 750 * MS);
    assert_close(r.rate_per_s, 4.0, TOL, 0);
    assert_close(r.throughput_per_s, 5.0 / 0.75, TOL, 0);

    /* bounds cannot change while requests are counted; reset keeps the bounds */
    assert_status(llmm_goodput_set_f64(g, LLMM_GOODPUT_E2E_MAX, 1000.0), LLMM_E_STATE);
    assert_ok(llmm_goodput_reset(g));
    assert_ok(llmm_goodput_get_f64(g, LLMM_GOODPUT_TTFT_MAX, &v));
    assert_true(v == 500.0);
    llmm_goodput_result e;
    assert_ok(llmm_goodput_result_init(&e));
    assert_status(llmm_goodput_read(g, SEC, &e), LLMM_E_EMPTY);

    /* all three SLOs */
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_E2E_MAX, 1000.0));
    assert_int_equal(observe(g, 400, 15, 1000), 1);
    assert_int_equal(observe(g, 400, 15, 1000.5), 0);
    /* +Inf clears a bound (after a reset) */
    assert_ok(llmm_goodput_reset(g));
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_E2E_MAX, INFINITY));
    assert_int_equal(observe(g, 400, 15, 1e300), 1);
    llmm_goodput_free(g);

    /* no bound: every completed request is good, goodput = throughput */
    g = goodput();
    assert_int_equal(observe(g, 1e9, 1e9, 1e9), 1);
    assert_ok(llmm_goodput_add_failures(g, 3));
    r = read_goodput(g, 4 * SEC);
    assert_true(r.fraction == 0.25);
    assert_true(r.rate_per_s == 0.25 && r.throughput_per_s == 0.25);
    llmm_goodput_free(g);
    llmm_goodput_free(NULL);
}

/* vLLM's TPOT: (e2e − ttft) / (output tokens − 1), 0 for at most one token. */
static void test_goodput_tpot(void **state)
{
    (void)state;
    double t = -1;
    assert_ok(llmm_goodput_tpot(1000.0, 200.0, 101, &t));
    assert_true(t == 8.0);
    assert_ok(llmm_goodput_tpot(1000.0, 200.0, 2, &t));
    assert_true(t == 800.0);
    assert_ok(llmm_goodput_tpot(1000.0, 200.0, 1, &t));
    assert_true(t == 0.0);
    t = -1;
    assert_ok(llmm_goodput_tpot(1000.0, 200.0, 0, &t));
    assert_true(t == 0.0);
    assert_ok(llmm_goodput_tpot(5.0, 5.0, 10, &t));
    assert_true(t == 0.0);
    /* a one-token request is judged with TPOT 0, so a TPOT bound never rejects it */
    llmm_goodput *g = goodput();
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_TPOT_MAX, 0.0));
    assert_ok(llmm_goodput_tpot(900.0, 900.0, 1, &t));
    assert_int_equal(observe(g, 900, t, 900), 1);
    llmm_goodput_free(g);
    t = -1;
    assert_status(llmm_goodput_tpot(100.0, 200.0, 5, &t), LLMM_E_INVALID);
    assert_status(llmm_goodput_tpot(NAN, 0.0, 5, &t), LLMM_E_INVALID);
    assert_status(llmm_goodput_tpot(1.0, -1.0, 5, &t), LLMM_E_INVALID);
    assert_status(llmm_goodput_tpot(INFINITY, 0.0, 5, &t), LLMM_E_INVALID);
    assert_status(llmm_goodput_tpot(1.0, 0.0, 5, NULL), LLMM_E_INVALID);
    assert_true(t == -1);
}

static void test_goodput_bad_input(void **state)
{
    (void)state;
    llmm_goodput *g = goodput();
    double v;
    int32_t good = 7;
    assert_status(llmm_goodput_set_f64(NULL, LLMM_GOODPUT_TTFT_MAX, 1.0), LLMM_E_INVALID);
    assert_status(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, NAN), LLMM_E_INVALID);
    assert_status(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, -1.0), LLMM_E_RANGE);
    assert_status(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, -INFINITY), LLMM_E_RANGE);
    assert_status(llmm_goodput_set_f64(g, (llmm_goodput_option)0, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_goodput_set_f64(g, (llmm_goodput_option)4, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_goodput_get_f64(g, (llmm_goodput_option)4, &v), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_goodput_get_f64(g, LLMM_GOODPUT_TTFT_MAX, NULL), LLMM_E_INVALID);
    assert_status(llmm_goodput_get_f64(NULL, LLMM_GOODPUT_TTFT_MAX, &v), LLMM_E_INVALID);
    assert_ok(llmm_goodput_get_f64(g, LLMM_GOODPUT_TTFT_MAX, &v));
    assert_true(isinf(v)); /* unchanged by the refused sets */
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_E2E_MAX, 0.0));

    assert_status(llmm_goodput_observe(g, NAN, 0, 0, &good), LLMM_E_INVALID);
    assert_status(llmm_goodput_observe(g, 0, -1, 0, &good), LLMM_E_INVALID);
    assert_status(llmm_goodput_observe(g, 0, 0, INFINITY, &good), LLMM_E_INVALID);
    assert_status(llmm_goodput_observe(NULL, 0, 0, 0, &good), LLMM_E_INVALID);
    assert_int_equal(good, 7);
    assert_status(llmm_goodput_add_failures(NULL, 1), LLMM_E_INVALID);
    llmm_goodput_result r;
    assert_ok(llmm_goodput_result_init(&r));
    assert_status(llmm_goodput_read(g, SEC, &r), LLMM_E_EMPTY); /* nothing was counted */
    assert_ok(llmm_goodput_add_failures(g, 0));
    assert_status(llmm_goodput_read(g, SEC, &r), LLMM_E_EMPTY);

    assert_int_equal(observe(g, 0, 0, 0), 1);
    assert_status(llmm_goodput_read(g, 0, &r), LLMM_E_INVALID);
    assert_status(llmm_goodput_read(NULL, SEC, &r), LLMM_E_INVALID);
    assert_status(llmm_goodput_read(g, SEC, NULL), LLMM_E_INVALID);
    r.struct_size = 8;
    assert_status(llmm_goodput_read(g, SEC, &r), LLMM_E_ABI);
    assert_int_equal(r.requests, 0);
    assert_status(llmm_goodput_result_init(NULL), LLMM_E_INVALID);

    /* counts are bounded by 2^64 − 1 */
    assert_status(llmm_goodput_add_failures(g, UINT64_MAX), LLMM_E_RANGE);
    assert_ok(llmm_goodput_add_failures(g, UINT64_MAX - 1));
    assert_status(llmm_goodput_observe(g, 0, 0, 0, &good), LLMM_E_RANGE);
    assert_status(llmm_goodput_add_failures(g, 1), LLMM_E_RANGE);
    r = read_goodput(g, SEC);
    assert_int_equal(r.requests, UINT64_MAX);
    assert_int_equal(r.completed, 1);
    assert_int_equal(r.good, 1);
    assert_status(llmm_goodput_reset(NULL), LLMM_E_INVALID);
    llmm_goodput_free(g);
    assert_status(llmm_goodput_new(NULL, NULL), LLMM_E_INVALID);
}

static llmm_status goodput_step(llmm_ctx *ctx, void *arg)
{
    llmm_goodput *g = NULL;
    llmm_status st;
    (void)arg;
    st = llmm_goodput_new(ctx, &g);
    if (st != LLMM_OK) {
        assert_null(g);
        return st;
    }
    assert_ok(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, 1.0));
    assert_int_equal(observe(g, 1.0, 0, 0), 1);
    llmm_goodput_free(g);
    return LLMM_OK;
}

static void test_goodput_allocation_failures(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(goodput_step, NULL), 1);
}

/* ---- burn rates ------------------------------------------------------------------------- */

static void test_burn_formulas(void **state)
{
    (void)state;
    double b = -1;
    /* SRE workbook: with a 99.9 % SLO, 1.44 % errors burn at 14.4 and 0.6 % at 6 */
    assert_ok(llmm_burn_rate(0.0144, 0.999, &b));
    assert_close(b, 14.4, 1e-12, 0);
    assert_ok(llmm_burn_rate(0.006, 0.999, &b));
    assert_close(b, 6.0, 1e-12, 0);
    assert_ok(llmm_burn_rate(0.001, 0.999, &b));
    assert_close(b, 1.0, 1e-12, 0);
    assert_ok(llmm_burn_rate(0.0, 0.5, &b));
    assert_true(b == 0.0);
    assert_ok(llmm_burn_rate(1.0, 0.75, &b));
    assert_true(b == 4.0);
    b = -1;
    assert_status(llmm_burn_rate(NAN, 0.999, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(-0.1, 0.999, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(1.1, 0.999, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(0.1, 1.0, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(0.1, 0.0, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(0.1, NAN, &b), LLMM_E_INVALID);
    assert_status(llmm_burn_rate(0.1, 0.9, NULL), LLMM_E_INVALID);
    assert_true(b == -1);

    /* budget spent over a 30-day period: 14.4 × 1 h → 2 %, 6 × 6 h → 5 %, 1 × 30 d → 100 % */
    const uint64_t period = 30 * 24 * HOUR;
    double spent = -1;
    assert_ok(llmm_burn_budget_spent(14.4, HOUR, period, &spent));
    assert_close(spent, 0.02, 1e-12, 0);
    assert_ok(llmm_burn_budget_spent(6.0, 6 * HOUR, period, &spent));
    assert_close(spent, 0.05, 1e-12, 0);
    assert_ok(llmm_burn_budget_spent(1.0, period, period, &spent));
    assert_true(spent == 1.0);
    assert_ok(llmm_burn_budget_spent(0.0, 0, period, &spent));
    assert_true(spent == 0.0);
    spent = -1;
    assert_status(llmm_burn_budget_spent(-1.0, HOUR, period, &spent), LLMM_E_INVALID);
    assert_status(llmm_burn_budget_spent(NAN, HOUR, period, &spent), LLMM_E_INVALID);
    assert_status(llmm_burn_budget_spent(INFINITY, HOUR, period, &spent), LLMM_E_INVALID);
    assert_status(llmm_burn_budget_spent(1.0, HOUR, 0, &spent), LLMM_E_INVALID);
    assert_status(llmm_burn_budget_spent(1.0, HOUR, period, NULL), LLMM_E_INVALID);
    assert_true(spent == -1);
}

static llmm_burn *burn_new(double target)
{
    llmm_burn *b = NULL;
    assert_ok(llmm_burn_new(NULL, target, 0, 0, &b));
    assert_non_null(b);
    return b;
}

static llmm_burn_result evaluate(llmm_burn *b, uint64_t now)
{
    llmm_burn_result r;
    assert_ok(llmm_burn_result_init(&r));
    assert_ok(llmm_burn_evaluate(b, now, &r));
    return r;
}

/* Feed one batch per 10 s slot: slot k gets `errors(k)` failures out of `per` requests at its
 * start, k = from … to − 1. */
static void feed(llmm_burn *b, uint64_t from, uint64_t to, uint64_t per, uint64_t errors)
{
    for (uint64_t k = from; k < to; k++)
        assert_ok(llmm_burn_add(b, k * 10 * SEC, errors, per));
}

/* With 10 s slots, at a time in slot c the windows cover slots c − n + 1 … c with n = 360
 * (1 h), 30 (5 min), 2160 (6 h) and 180 (30 min). */
static void test_burn_fast_alert(void **state)
{
    (void)state;
    llmm_burn *b = burn_new(0.999);
    /* 5 h clean (slots 0 … 1799), then 1 h at 2 % errors (slots 1800 … 2159): burn 20 */
    feed(b, 0, 1800, 100, 0);
    feed(b, 1800, 2160, 100, 2);
    llmm_burn_result r = evaluate(b, 2159 * 10 * SEC);
    assert_int_equal(r.requests[LLMM_BURN_FAST_LONG], 36000);
    assert_int_equal(r.errors[LLMM_BURN_FAST_LONG], 720);
    assert_int_equal(r.requests[LLMM_BURN_FAST_SHORT], 3000);
    assert_int_equal(r.errors[LLMM_BURN_FAST_SHORT], 60);
    assert_int_equal(r.requests[LLMM_BURN_SLOW_LONG], 216000);
    assert_int_equal(r.errors[LLMM_BURN_SLOW_LONG], 720);
    assert_int_equal(r.requests[LLMM_BURN_SLOW_SHORT], 18000);
    assert_int_equal(r.errors[LLMM_BURN_SLOW_SHORT], 360);
    assert_close(r.error_rate[LLMM_BURN_FAST_LONG], 0.02, TOL, 0);
    assert_close(r.burn_rate[LLMM_BURN_FAST_LONG], 20.0, 1e-9, 0);
    assert_close(r.burn_rate[LLMM_BURN_FAST_SHORT], 20.0, 1e-9, 0);
    assert_close(r.burn_rate[LLMM_BURN_SLOW_SHORT], 20.0, 1e-9, 0);
    assert_close(r.burn_rate[LLMM_BURN_SLOW_LONG], 20.0 / 6.0, 1e-9, 0); /* 1 h of 6 */
    assert_int_equal(r.fast_alert, 1);
    assert_int_equal(r.slow_alert, 0); /* the 6 h burn 3.33 is below 6 */

    /* the errors stop: once the 5 min window is clean the fast alert resets, although the
     * 1 h window still burns at 20 · 330 / 360 */
    feed(b, 2160, 2190, 100, 0);
    r = evaluate(b, 2189 * 10 * SEC);
    assert_int_equal(r.errors[LLMM_BURN_FAST_SHORT], 0);
    assert_close(r.burn_rate[LLMM_BURN_FAST_LONG], 20.0 * 330.0 / 360.0, 1e-9, 0);
    assert_int_equal(r.fast_alert, 0);
    /* one slot earlier the short window still held one slot of errors: 2 / 3000 → burn 0.67 */
    llmm_burn_free(b);
    b = burn_new(0.999);
    feed(b, 0, 360, 100, 2);
    feed(b, 360, 389, 100, 0);
    r = evaluate(b, 388 * 10 * SEC);
    assert_int_equal(r.errors[LLMM_BURN_FAST_SHORT], 2);
    assert_int_equal(r.requests[LLMM_BURN_FAST_SHORT], 3000);
    assert_int_equal(r.fast_alert, 0);
    llmm_burn_free(b);
}

static void test_burn_slow_alert(void **state)
{
    (void)state;
    llmm_burn *b = burn_new(0.999);
    /* 6 h at 0.7 %: burn 7, above 6 and below 14.4 */
    feed(b, 0, 2160, 1000, 7);
    llmm_burn_result r = evaluate(b, 2159 * 10 * SEC + 9 * SEC);
    for (int i = 0; i < LLMM_BURN_WINDOWS; i++)
        assert_close(r.burn_rate[i], 7.0, 1e-9, 0);
    assert_int_equal(r.fast_alert, 0);
    assert_int_equal(r.slow_alert, 1);
    /* a later time in a new slot: the oldest slot leaves the 6 h window */
    r = evaluate(b, 2160 * 10 * SEC);
    assert_int_equal(r.requests[LLMM_BURN_SLOW_LONG], 2159 * 1000);
    assert_int_equal(r.requests[LLMM_BURN_FAST_SHORT], 29 * 1000);
    /* custom factors: the fast alert at 5 fires too */
    assert_ok(llmm_burn_set_f64(b, LLMM_BURN_FAST_FACTOR, 5.0));
    r = evaluate(b, 2160 * 10 * SEC);
    assert_int_equal(r.fast_alert, 1);
    llmm_burn_free(b);
}

/* Exact comparison at the factor: budget 1/32 and an error rate of 9/20 burn at exactly 14.4
 * in IEEE double, which does not exceed 14.4; 10/22 burns at 14.5, which does. */
static void test_burn_boundary_and_idle(void **state)
{
    (void)state;
    llmm_burn *b = burn_new(0.96875);
    llmm_burn_result r = evaluate(b, 0);
    for (int i = 0; i < LLMM_BURN_WINDOWS; i++) {
        assert_int_equal(r.requests[i], 0);
        assert_true(r.error_rate[i] == 0.0 && r.burn_rate[i] == 0.0);
    }
    assert_int_equal(r.fast_alert + r.slow_alert, 0);
    assert_ok(llmm_burn_add(b, HOUR, 9, 20));
    r = evaluate(b, HOUR);
    assert_true(r.burn_rate[LLMM_BURN_FAST_LONG] == 14.4);
    assert_true(r.burn_rate[LLMM_BURN_FAST_SHORT] == 14.4);
    assert_int_equal(r.fast_alert, 0);
    assert_int_equal(r.slow_alert, 1);
    assert_ok(llmm_burn_add(b, HOUR, 1, 1));
    assert_ok(llmm_burn_add(b, HOUR, 0, 1)); /* 10 of 22 */
    r = evaluate(b, HOUR);
    assert_close(r.burn_rate[LLMM_BURN_FAST_LONG], 32.0 * 10.0 / 22.0, TOL, 0);
    assert_int_equal(r.fast_alert, 1);
    /* the reset forgets counts and clock but keeps the options */
    assert_ok(llmm_burn_set_f64(b, LLMM_BURN_SLOW_FACTOR, 2.5));
    assert_ok(llmm_burn_reset(b));
    r = evaluate(b, 0);
    assert_int_equal(r.requests[LLMM_BURN_SLOW_LONG], 0);
    double f;
    assert_ok(llmm_burn_get_f64(b, LLMM_BURN_SLOW_FACTOR, &f));
    assert_true(f == 2.5);
    llmm_burn_free(b);
}

static void test_burn_options(void **state)
{
    (void)state;
    llmm_burn *b = burn_new(0.999);
    double f;
    uint64_t u;
    assert_ok(llmm_burn_get_f64(b, LLMM_BURN_SLO_TARGET, &f));
    assert_true(f == 0.999);
    assert_ok(llmm_burn_get_f64(b, LLMM_BURN_FAST_FACTOR, &f));
    assert_true(f == 14.4);
    assert_ok(llmm_burn_get_f64(b, LLMM_BURN_SLOW_FACTOR, &f));
    assert_true(f == 6.0);
    assert_ok(llmm_burn_get_u64(b, LLMM_BURN_FAST_LONG_NS, &u));
    assert_int_equal(u, HOUR);
    assert_ok(llmm_burn_get_u64(b, LLMM_BURN_FAST_SHORT_NS, &u));
    assert_int_equal(u, 5 * MIN);
    assert_ok(llmm_burn_get_u64(b, LLMM_BURN_SLOW_LONG_NS, &u));
    assert_int_equal(u, 6 * HOUR);
    assert_ok(llmm_burn_get_u64(b, LLMM_BURN_SLOW_SHORT_NS, &u));
    assert_int_equal(u, 30 * MIN);

    /* f64 bounds */
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_SLO_TARGET, 1.0), LLMM_E_RANGE);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_SLO_TARGET, 0.0), LLMM_E_RANGE);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_SLO_TARGET, NAN), LLMM_E_INVALID);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_FAST_FACTOR, 0.0), LLMM_E_RANGE);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_SLOW_FACTOR, -1.0), LLMM_E_RANGE);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_SLOW_FACTOR, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_burn_set_f64(b, LLMM_BURN_FAST_LONG_NS, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_burn_set_f64(b, (llmm_burn_option)99, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_burn_set_f64(NULL, LLMM_BURN_FAST_FACTOR, 1.0), LLMM_E_INVALID);
    assert_status(llmm_burn_get_f64(b, LLMM_BURN_SLOW_SHORT_NS, &f), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_burn_get_f64(b, LLMM_BURN_FAST_FACTOR, NULL), LLMM_E_INVALID);
    assert_ok(llmm_burn_set_f64(b, LLMM_BURN_SLO_TARGET, 0.99));
    assert_ok(llmm_burn_get_f64(b, LLMM_BURN_FAST_FACTOR, &f));
    assert_true(f == 14.4); /* the refused sets changed nothing */

    /* u64 bounds: 0, longer than the ring (2160 × 10 s = 6 h), short above long */
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_FAST_SHORT_NS, 0), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_SLOW_LONG_NS, 6 * HOUR + 1), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_FAST_SHORT_NS, HOUR + 1), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_FAST_LONG_NS, 5 * MIN - 1), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_SLOW_SHORT_NS, 6 * HOUR + 1), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_SLOW_LONG_NS, 30 * MIN - 1), LLMM_E_RANGE);
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_FAST_FACTOR, 1), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_burn_set_u64(NULL, LLMM_BURN_FAST_LONG_NS, HOUR), LLMM_E_INVALID);
    assert_status(llmm_burn_get_u64(b, LLMM_BURN_SLO_TARGET, &u), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_burn_get_u64(b, LLMM_BURN_FAST_LONG_NS, NULL), LLMM_E_INVALID);
    assert_ok(llmm_burn_get_u64(b, LLMM_BURN_FAST_LONG_NS, &u));
    assert_int_equal(u, HOUR);
    /* equal short and long are fine; the whole ring is fine */
    assert_ok(llmm_burn_set_u64(b, LLMM_BURN_FAST_SHORT_NS, HOUR));
    assert_ok(llmm_burn_set_u64(b, LLMM_BURN_SLOW_LONG_NS, 6 * HOUR));

    /* custom windows take effect: fast pair 10 min / 1 min */
    assert_ok(llmm_burn_set_u64(b, LLMM_BURN_FAST_SHORT_NS, MIN));
    assert_ok(llmm_burn_set_u64(b, LLMM_BURN_FAST_LONG_NS, 10 * MIN));
    feed(b, 0, 100, 10, 1); /* slots 0 … 99, 10 % errors: burn 10 at T = 0.99 */
    llmm_burn_result r = evaluate(b, 99 * 10 * SEC);
    assert_int_equal(r.requests[LLMM_BURN_FAST_LONG], 600); /* 60 slots */
    assert_int_equal(r.requests[LLMM_BURN_FAST_SHORT], 60); /* 6 slots */
    assert_close(r.burn_rate[LLMM_BURN_FAST_SHORT], 10.0, 1e-9, 0);
    assert_int_equal(r.fast_alert, 0); /* 10 < 14.4 */
    assert_int_equal(r.slow_alert, 1);
    llmm_burn_free(b);
}

static void test_burn_bad_input(void **state)
{
    (void)state;
    llmm_burn *b = NULL;
    /* constructor */
    b = (llmm_burn *)&b;
    assert_status(llmm_burn_new(NULL, NAN, 0, 0, &b), LLMM_E_INVALID);
    assert_null(b);
    b = (llmm_burn *)&b;
    assert_status(llmm_burn_new(NULL, 1.0, 0, 0, &b), LLMM_E_RANGE);
    assert_null(b);
    assert_status(llmm_burn_new(NULL, 0.0, 0, 0, &b), LLMM_E_RANGE);
    assert_status(llmm_burn_new(NULL, 0.999, 0, 0, NULL), LLMM_E_INVALID);
    /* 1 ms slots would need 21.6 million slots for 6 h */
    assert_status(llmm_burn_new(NULL, 0.999, MS, 0, &b), LLMM_E_RANGE);
    /* a ring of 100 × 10 s is shorter than 6 h; one of 2160 × 10 s is just enough */
    assert_status(llmm_burn_new(NULL, 0.999, 10 * SEC, 100, &b), LLMM_E_RANGE);
    assert_status(llmm_burn_new(NULL, 0.999, 10 * SEC, 2159, &b), LLMM_E_RANGE);
    assert_status(llmm_burn_new(NULL, 0.999, 10 * SEC, LLMM_WINDOW_SLOTS_MAX + 1, &b),
                  LLMM_E_RANGE);
    assert_status(llmm_burn_new(NULL, 0.999, UINT64_MAX / 2, 3, &b), LLMM_E_RANGE);
    assert_null(b);
    assert_ok(llmm_burn_new(NULL, 0.999, 10 * SEC, 2160, &b));
    llmm_burn_free(b);
    /* 1 min slots: 360 of them by default; a 3-day ring of 1 min slots holds custom windows */
    assert_ok(llmm_burn_new(NULL, 0.999, MIN, 0, &b));
    assert_status(llmm_burn_set_u64(b, LLMM_BURN_SLOW_LONG_NS, 6 * HOUR + MIN), LLMM_E_RANGE);
    llmm_burn_free(b);
    assert_ok(llmm_burn_new(NULL, 0.999, MIN, 3 * 24 * 60, &b));
    assert_ok(llmm_burn_set_u64(b, LLMM_BURN_SLOW_LONG_NS, 3 * 24 * HOUR));
    llmm_burn_free(b);
    llmm_burn_free(NULL);

    b = burn_new(0.999);
    assert_ok(llmm_burn_add(b, HOUR, 1, 10));
    llmm_burn_result before = evaluate(b, HOUR), r;
    assert_status(llmm_burn_add(b, HOUR, 11, 10), LLMM_E_INVALID);
    assert_status(llmm_burn_add(b, HOUR - 1, 1, 10), LLMM_E_INVALID);
    assert_status(llmm_burn_add(NULL, HOUR, 1, 10), LLMM_E_INVALID);
    assert_ok(llmm_burn_result_init(&r));
    assert_status(llmm_burn_evaluate(b, HOUR - 1, &r), LLMM_E_INVALID);
    assert_status(llmm_burn_evaluate(NULL, HOUR, &r), LLMM_E_INVALID);
    assert_status(llmm_burn_evaluate(b, HOUR, NULL), LLMM_E_INVALID);
    r.struct_size = 16;
    assert_status(llmm_burn_evaluate(b, HOUR, &r), LLMM_E_ABI);
    assert_int_equal(r.requests[0], 0);
    /* lifetime requests bounded by 2^64 − 1 */
    assert_status(llmm_burn_add(b, HOUR, 0, UINT64_MAX - 9), LLMM_E_RANGE);
    r = evaluate(b, HOUR);
    assert_memory_equal(&before, &r, sizeof r);
    assert_ok(llmm_burn_add(b, HOUR, 0, UINT64_MAX - 10));
    r = evaluate(b, HOUR);
    assert_int_equal(r.requests[LLMM_BURN_SLOW_LONG], UINT64_MAX);
    assert_status(llmm_burn_reset(NULL), LLMM_E_INVALID);
    assert_status(llmm_burn_result_init(NULL), LLMM_E_INVALID);
    llmm_burn_free(b);
}

static llmm_status burn_step(llmm_ctx *ctx, void *arg)
{
    llmm_burn *b = NULL;
    llmm_status st;
    (void)arg;
    st = llmm_burn_new(ctx, 0.999, 0, 0, &b);
    if (st != LLMM_OK) {
        assert_null(b);
        return st;
    }
    assert_ok(llmm_burn_add(b, 0, 5, 100));
    llmm_burn_result r = evaluate(b, 0);
    assert_int_equal(r.fast_alert, 1); /* 5 % = burn 50 */
    llmm_burn_free(b);
    return LLMM_OK;
}

static void test_burn_allocation_failures(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(burn_step, NULL) >= 2);
}

/* ---- error-share trigger ---------------------------------------------------------------- */

static llmm_error_trigger *trigger_new(uint64_t window_ns)
{
    llmm_error_trigger *t = NULL;
    assert_ok(llmm_error_trigger_new(NULL, window_ns, &t));
    assert_non_null(t);
    return t;
}

static llmm_error_trigger_reading trigger_check(llmm_error_trigger *t, uint64_t now)
{
    llmm_error_trigger_reading r;
    assert_ok(llmm_error_trigger_reading_init(&r));
    assert_ok(llmm_error_trigger_check(t, now, &r));
    return r;
}

/* Defaults: "5xx share over the last 5 min > 5 %", 60 slots of 5 s. */
static void test_trigger_default(void **state)
{
    (void)state;
    llmm_error_trigger *t = trigger_new(0);
    double f;
    uint64_t u;
    assert_ok(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, &f));
    assert_true(f == 0.05);
    assert_ok(llmm_error_trigger_get_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, &u));
    assert_int_equal(u, 1);

    /* exactly 5 % does not exceed 5 % */
    assert_ok(llmm_error_trigger_add(t, 0, 5, 100));
    llmm_error_trigger_reading r = trigger_check(t, 0);
    assert_int_equal(r.errors, 5);
    assert_int_equal(r.requests, 100);
    assert_true(r.share == 0.05);
    assert_int_equal(r.fired, 0);
    /* one more failure 3 min later: 6 / 101 */
    assert_ok(llmm_error_trigger_add(t, 3 * MIN, 1, 1));
    r = trigger_check(t, 3 * MIN);
    assert_close(r.share, 6.0 / 101.0, TOL, 0);
    assert_int_equal(r.fired, 1);
    /* at 4 min 59.999 s (slot 59) slot 0 is still in the window */
    r = trigger_check(t, 5 * MIN - MS);
    assert_int_equal(r.requests, 101);
    assert_int_equal(r.fired, 1);
    /* at 5 min (slot 60) the first batch has left: 1 / 1 */
    r = trigger_check(t, 5 * MIN);
    assert_int_equal(r.requests, 1);
    assert_true(r.share == 1.0);
    assert_int_equal(r.fired, 1);
    /* healthy traffic dilutes it: 1 / 101 */
    assert_ok(llmm_error_trigger_add(t, 5 * MIN, 0, 100));
    r = trigger_check(t, 5 * MIN);
    assert_int_equal(r.fired, 0);
    /* 8 min: the failure (slot 36) has left too */
    r = trigger_check(t, 8 * MIN);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.requests, 100);
    assert_true(r.share == 0.0);
    /* 10 min: nothing in the window */
    llmm_error_trigger_reading e;
    assert_ok(llmm_error_trigger_reading_init(&e));
    assert_status(llmm_error_trigger_check(t, 10 * MIN, &e), LLMM_E_EMPTY);
    assert_int_equal(e.requests, 0);
    /* which changed nothing: 9 min is still an acceptable time stamp */
    assert_ok(llmm_error_trigger_add(t, 9 * MIN, 10, 10));
    r = trigger_check(t, 10 * MIN);
    assert_int_equal(r.fired, 1);
    llmm_error_trigger_free(t);
}

static void test_trigger_custom(void **state)
{
    (void)state;
    /* 1 min window (1 s slots), threshold 10 %, at least 50 requests */
    llmm_error_trigger *t = trigger_new(MIN);
    assert_ok(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, 0.1));
    assert_ok(llmm_error_trigger_set_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 50));
    assert_ok(llmm_error_trigger_add(t, 0, 20, 40));
    llmm_error_trigger_reading r = trigger_check(t, 0);
    assert_true(r.share == 0.5);
    assert_int_equal(r.fired, 0); /* 40 < 50 requests */
    assert_ok(llmm_error_trigger_add(t, 30 * SEC, 0, 10));
    r = trigger_check(t, 30 * SEC);
    assert_true(r.share == 0.4);
    assert_int_equal(r.fired, 1);
    /* at 60 s the batch at 0 s has left; 10 requests, no error */
    r = trigger_check(t, MIN);
    assert_int_equal(r.requests, 10);
    assert_int_equal(r.fired, 0);
    /* threshold 0: any failure fires, given the minimum */
    assert_ok(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, 0.0));
    assert_ok(llmm_error_trigger_set_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 1));
    assert_ok(llmm_error_trigger_add(t, MIN, 1, 1));
    r = trigger_check(t, MIN);
    assert_int_equal(r.fired, 1);
    /* reset keeps the options */
    assert_ok(llmm_error_trigger_reset(t));
    double f;
    assert_ok(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, &f));
    assert_true(f == 0.0);
    assert_ok(llmm_error_trigger_add(t, 0, 0, 1)); /* time starts over */
    r = trigger_check(t, 0);
    assert_int_equal(r.fired, 0);
    llmm_error_trigger_free(t);

    /* a window shorter than 60 ns: 1 ns slots */
    t = trigger_new(7);
    assert_ok(llmm_error_trigger_add(t, 100, 1, 1));
    r = trigger_check(t, 106);
    assert_int_equal(r.errors, 1);
    assert_ok(llmm_error_trigger_reading_init(&r));
    assert_status(llmm_error_trigger_check(t, 107, &r), LLMM_E_EMPTY);
    llmm_error_trigger_free(t);
    /* the largest window: 60 slots of ceil((2^64 − 60) / 60) ns just fit in 64 bits; 2^64 − 101
     * is still in slot 59 */
    t = trigger_new(UINT64_MAX - 59);
    assert_ok(llmm_error_trigger_add(t, 0, 1, 2));
    r = trigger_check(t, UINT64_MAX - 100);
    assert_true(r.share == 0.5);
    llmm_error_trigger_free(t);
    t = (llmm_error_trigger *)&t;
    assert_status(llmm_error_trigger_new(NULL, UINT64_MAX - 58, &t), LLMM_E_RANGE);
    assert_null(t);
}

static void test_trigger_bad_input(void **state)
{
    (void)state;
    llmm_error_trigger *t = trigger_new(0);
    double f;
    uint64_t u;
    assert_status(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, 1.5), LLMM_E_RANGE);
    assert_status(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, -0.1),
                  LLMM_E_RANGE);
    assert_status(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, NAN),
                  LLMM_E_INVALID);
    assert_status(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 1.0),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_error_trigger_set_f64(NULL, LLMM_ERROR_TRIGGER_MAX_SHARE, 0.1),
                  LLMM_E_INVALID);
    assert_status(llmm_error_trigger_set_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 0),
                  LLMM_E_RANGE);
    assert_status(llmm_error_trigger_set_u64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, 1),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_error_trigger_set_u64(NULL, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 1),
                  LLMM_E_INVALID);
    assert_status(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, &f),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, NULL),
                  LLMM_E_INVALID);
    assert_status(llmm_error_trigger_get_u64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, &u),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_error_trigger_get_u64(NULL, LLMM_ERROR_TRIGGER_MIN_REQUESTS, &u),
                  LLMM_E_INVALID);
    assert_ok(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, &f));
    assert_ok(llmm_error_trigger_get_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, &u));
    assert_true(f == 0.05 && u == 1);

    assert_ok(llmm_error_trigger_add(t, SEC, 1, 4));
    assert_status(llmm_error_trigger_add(t, SEC, 5, 4), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_add(t, SEC - 1, 0, 4), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_add(NULL, SEC, 0, 4), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_add(t, SEC, 0, UINT64_MAX - 3), LLMM_E_RANGE);
    llmm_error_trigger_reading r;
    assert_ok(llmm_error_trigger_reading_init(&r));
    assert_status(llmm_error_trigger_check(t, SEC - 1, &r), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_check(NULL, SEC, &r), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_check(t, SEC, NULL), LLMM_E_INVALID);
    r.struct_size = 3;
    assert_status(llmm_error_trigger_check(t, SEC, &r), LLMM_E_ABI);
    assert_int_equal(r.requests, 0);
    r = trigger_check(t, SEC);
    assert_int_equal(r.requests, 4);
    assert_int_equal(r.errors, 1);
    assert_ok(llmm_error_trigger_add(t, SEC, 0, UINT64_MAX - 4));
    r = trigger_check(t, SEC);
    assert_int_equal(r.requests, UINT64_MAX);
    assert_status(llmm_error_trigger_reset(NULL), LLMM_E_INVALID);
    assert_status(llmm_error_trigger_reading_init(NULL), LLMM_E_INVALID);
    llmm_error_trigger_free(t);
    llmm_error_trigger_free(NULL);
    assert_status(llmm_error_trigger_new(NULL, 0, NULL), LLMM_E_INVALID);
}

static llmm_status trigger_step(llmm_ctx *ctx, void *arg)
{
    llmm_error_trigger *t = NULL;
    llmm_status st;
    (void)arg;
    st = llmm_error_trigger_new(ctx, 0, &t);
    if (st != LLMM_OK) {
        assert_null(t);
        return st;
    }
    assert_ok(llmm_error_trigger_add(t, 0, 6, 100));
    llmm_error_trigger_reading r = trigger_check(t, 0);
    assert_int_equal(r.fired, 1);
    llmm_error_trigger_free(t);
    return LLMM_OK;
}

static void test_trigger_allocation_failures(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(trigger_step, NULL) >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_init),
        cmocka_unit_test(test_check_seed_reference),
        cmocka_unit_test(test_check_no_success),
        cmocka_unit_test(test_check_error_rate_boundary),
        cmocka_unit_test(test_check_nearest_rank),
        cmocka_unit_test(test_check_bad_input),
        cmocka_unit_test(test_window_hand_sequence),
        cmocka_unit_test(test_window_matches_sketch_check),
        cmocka_unit_test(test_window_bad_input),
        cmocka_unit_test(test_window_allocation_failures),
        cmocka_unit_test(test_goodput_vllm_rule),
        cmocka_unit_test(test_goodput_tpot),
        cmocka_unit_test(test_goodput_bad_input),
        cmocka_unit_test(test_goodput_allocation_failures),
        cmocka_unit_test(test_burn_formulas),
        cmocka_unit_test(test_burn_fast_alert),
        cmocka_unit_test(test_burn_slow_alert),
        cmocka_unit_test(test_burn_boundary_and_idle),
        cmocka_unit_test(test_burn_options),
        cmocka_unit_test(test_burn_bad_input),
        cmocka_unit_test(test_burn_allocation_failures),
        cmocka_unit_test(test_trigger_default),
        cmocka_unit_test(test_trigger_custom),
        cmocka_unit_test(test_trigger_bad_input),
        cmocka_unit_test(test_trigger_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
