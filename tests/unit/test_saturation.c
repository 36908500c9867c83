/* Saturation signal: sliding least-squares slopes of latency and in-flight requests over time.
 * References: a five-point fit worked out by hand, exact lines, and a naive two-pass fit in
 * long double over the last N samples of random streams. */
#include "helpers.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static llmm_saturation *mks(uint64_t window)
{
    llmm_saturation *s = NULL;
    assert_ok(llmm_saturation_new(NULL, &s));
    if (window)
        assert_ok(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, window));
    return s;
}

static int32_t obs(llmm_saturation *s, uint64_t t, double lat, double inf)
{
    int32_t sat = -1;
    assert_ok(llmm_saturation_observe(s, t, lat, inf, &sat));
    assert_true(sat == 0 || sat == 1);
    return sat;
}

static llmm_saturation_reading rd(const llmm_saturation *s)
{
    llmm_saturation_reading r;
    assert_ok(llmm_saturation_reading_init(&r));
    assert_ok(llmm_saturation_read(s, &r));
    return r;
}

static void test_defaults_and_options(void **state)
{
    llmm_saturation *s = mks(0);
    uint64_t u;
    double f;
    (void)state;
    assert_int_equal(sizeof(llmm_saturation_option), sizeof(int));
    assert_ok(llmm_saturation_get_u64(s, LLMM_SATURATION_WINDOW, &u));
    assert_true(u == 64);
    assert_ok(llmm_saturation_get_f64(s, LLMM_SATURATION_CONFIDENCE, &f));
    assert_true(f == 3.0);
    assert_status(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 2), LLMM_E_RANGE);
    assert_status(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW,
                                          LLMM_SATURATION_WINDOW_MAX + 1), LLMM_E_RANGE);
    assert_status(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 0.0), LLMM_E_RANGE);
    assert_status(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 100.5), LLMM_E_RANGE);
    assert_status(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, NAN), LLMM_E_RANGE);
    assert_status(llmm_saturation_set_f64(s, LLMM_SATURATION_WINDOW, 8), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_saturation_set_u64(s, LLMM_SATURATION_CONFIDENCE, 2),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_saturation_get_f64(s, LLMM_SATURATION_WINDOW, &f), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_saturation_get_u64(s, LLMM_SATURATION_CONFIDENCE, &u),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_saturation_set_u64(NULL, LLMM_SATURATION_WINDOW, 8), LLMM_E_INVALID);
    assert_status(llmm_saturation_set_f64(NULL, LLMM_SATURATION_CONFIDENCE, 2), LLMM_E_INVALID);
    assert_status(llmm_saturation_get_u64(NULL, LLMM_SATURATION_WINDOW, &u), LLMM_E_INVALID);
    assert_status(llmm_saturation_get_u64(s, LLMM_SATURATION_WINDOW, NULL), LLMM_E_INVALID);
    assert_status(llmm_saturation_get_f64(NULL, LLMM_SATURATION_CONFIDENCE, &f), LLMM_E_INVALID);
    assert_status(llmm_saturation_get_f64(s, LLMM_SATURATION_CONFIDENCE, NULL), LLMM_E_INVALID);
    assert_ok(llmm_saturation_get_u64(s, LLMM_SATURATION_WINDOW, &u));
    assert_ok(llmm_saturation_get_f64(s, LLMM_SATURATION_CONFIDENCE, &f));
    assert_true(u == 64 && f == 3.0);
    assert_ok(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 100.0));
    assert_ok(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 3));
    /* the window only while empty; reset reopens it */
    obs(s, 0, 1, 1);
    assert_status(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 8), LLMM_E_STATE);
    assert_ok(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 3));
    assert_ok(llmm_saturation_reset(s));
    assert_ok(llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 8));
    assert_ok(llmm_saturation_get_u64(s, LLMM_SATURATION_WINDOW, &u));
    assert_true(u == 8);
    assert_status(llmm_saturation_new(NULL, NULL), LLMM_E_INVALID);
    llmm_saturation_free(s);
    llmm_saturation_free(NULL);
}

/* Five samples one second apart, y = 1, 3, 2, 5, 4. By hand: x̄ = 2, ȳ = 3, Sxx = 10,
 * Sxy = (−2)(−2) + (−1)(0) + 0·(−1) + 1·2 + 2·1 = 8, slope 0.8; Syy = 10,
 * RSS = Syy − slope·Sxy = 3.6, se² = 3.6 / (3 · 10) = 0.12, t = 0.8 / √0.12 ≈ 2.309. */
static void test_five_point_fit(void **state)
{
    const double y[] = {1, 3, 2, 5, 4};
    llmm_saturation *s = mks(5);
    llmm_saturation_reading r;
    (void)state;
    for (int i = 0; i < 5; i++)
        assert_int_equal(obs(s, (uint64_t)i * SEC, y[i], y[i]), 0); /* t < 3 */
    r = rd(s);
    assert_true(r.ready == 1 && r.samples == 5 && r.total == 5);
    assert_close(r.latency_slope, 0.8, 1e-14, 0);
    assert_close(r.latency_slope_se, sqrt(0.12), 1e-13, 0);
    assert_close(r.inflight_slope, 0.8, 1e-14, 0);
    assert_close(r.inflight_slope_se, sqrt(0.12), 1e-13, 0);
    assert_int_equal(r.latency_rising, 0);
    assert_int_equal(r.saturated, 0);
    /* z = 2 < 2.309: confidently positive, saturated */
    assert_ok(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 2.0));
    r = rd(s);
    assert_true(r.latency_rising && r.inflight_rising && r.saturated);
    /* z = 2.31 > 2.3094: not */
    assert_ok(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 2.31));
    assert_int_equal(rd(s).saturated, 0);
    llmm_saturation_free(s);

    /* the same latencies with flat in-flight requests: latency rising, not saturated */
    s = mks(5);
    assert_ok(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 2.0));
    for (int i = 0; i < 5; i++)
        obs(s, (uint64_t)i * SEC, y[i], 7.0);
    r = rd(s);
    assert_true(r.latency_rising && !r.inflight_rising && !r.saturated);
    assert_true(r.inflight_slope == 0.0 && r.inflight_slope_se == 0.0);
    llmm_saturation_free(s);
}

static void test_exact_lines(void **state)
{
    llmm_saturation *s = mks(0);
    llmm_saturation_reading r;
    (void)state;
    /* latency 10 + 2t, in flight 5 + 0.5t, every 100 ms: saturated from the 64th sample */
    for (int i = 0; i < 200; i++) {
        double t = 0.1 * i;
        int32_t sat = obs(s, (uint64_t)i * 100 * MS, 10.0 + 2.0 * t, 5.0 + 0.5 * t);
        assert_int_equal(sat, i >= 63);
        if (i == 62) {
            r = rd(s);
            assert_true(!r.ready && r.latency_rising && r.inflight_rising && !r.saturated);
        }
    }
    r = rd(s);
    assert_close(r.latency_slope, 2.0, 1e-12, 0);
    assert_close(r.inflight_slope, 0.5, 1e-12, 0);
    /* The residuals are rounding only. The running sums give RSS as Syy − slope·Sxy, whose
     * rounding is of order 1e-16·Syy, so se is tiny but not 0. */
    assert_true(r.latency_slope_se < 1e-6 && r.inflight_slope_se < 1e-6);
    llmm_saturation_free(s);

    /* falling latency, rising in-flight: never saturated; both falling: never */
    s = mks(16);
    for (int i = 0; i < 100; i++)
        assert_int_equal(obs(s, (uint64_t)i * MS, 100.0 - i, (double)i), 0);
    r = rd(s);
    assert_close(r.latency_slope, -1000.0, 1e-12, 0);
    assert_true(!r.latency_rising && r.inflight_rising);
    llmm_saturation_free(s);

    /* every sample at one time stamp: no slope */
    s = mks(8);
    for (int i = 0; i < 20; i++)
        assert_int_equal(obs(s, 5 * SEC, (double)i, (double)i), 0);
    r = rd(s);
    assert_true(r.latency_slope == 0 && r.inflight_slope == 0 && !r.latency_rising);
    llmm_saturation_free(s);
}

/* Flat series after a varied start: the sums were slid through varied values, so rounding
 * leaves residues; a flat window must never read as a trend, at any z. */
static void test_flat_is_never_rising(void **state)
{
    llmm_saturation *s = mks(64);
    uint64_t r = 3;
    (void)state;
    assert_ok(llmm_saturation_set_f64(s, LLMM_SATURATION_CONFIDENCE, 0.001));
    for (int i = 0; i < 400; i++) {
        llmm_saturation_reading rr;
        double lat = i < 100 ? 1000.0 * rng_unit(&r) : 0.1;
        double inf = i < 100 ? 1e6 * rng_unit(&r) : 37.3;
        obs(s, (uint64_t)i * 7 * MS, lat, inf);
        rr = rd(s);
        if (i >= 163) { /* the window holds only flat samples */
            assert_int_equal(rr.latency_rising, 0);
            assert_int_equal(rr.inflight_rising, 0);
            assert_true(fabs(rr.latency_slope) < 1e-9);
            assert_true(fabs(rr.inflight_slope) < 1e-6);
        }
    }
    llmm_saturation_free(s);
}

/* Naive fit of the last n samples in long double: slope and its standard error. */
static void naive_fit(const uint64_t *t, const double *y, int end, int n, double *slope,
                      double *se)
{
    long double mx = 0, my = 0, sxx = 0, sxy = 0, rss = 0, b;
    for (int i = end - n; i < end; i++) {
        mx += (long double)(t[i] - t[end - n]) * 1e-9L;
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (int i = end - n; i < end; i++) {
        long double dx = (long double)(t[i] - t[end - n]) * 1e-9L - mx;
        sxx += dx * dx;
        sxy += dx * (y[i] - my);
    }
    b = sxy / sxx;
    for (int i = end - n; i < end; i++) {
        long double dx = (long double)(t[i] - t[end - n]) * 1e-9L - mx;
        long double e = y[i] - my - b * dx;
        rss += e * e;
    }
    *slope = (double)b;
    *se = n > 2 ? (double)sqrtl(rss / ((n - 2) * sxx)) : 0.0;
}

static void check_stream(int window, uint64_t t0, double base, uint64_t seed)
{
    enum { N = 3000 };
    static uint64_t t[N];
    static double lat[N], inf[N];
    llmm_saturation *s = mks((uint64_t)window);
    uint64_t r = seed, now = t0;
    int saturated_seen = 0, quiet_seen = 0;

    for (int i = 0; i < N; i++) {
        llmm_saturation_reading rr;
        double b, se, trend = (i / 500) % 2 ? 0.002 * (i % 500) : 0.0;
        int32_t sat;
        now += rng_next(&r) % (20 * MS);
        t[i] = now;
        /* stretches of noise alternate with stretches where both series ramp up */
        lat[i] = base + trend * base + 0.05 * base * rng_unit(&r);
        inf[i] = 10.0 + 50.0 * trend + rng_unit(&r);
        sat = obs(s, now, lat[i], inf[i]);
        rr = rd(s);
        assert_int_equal(rr.saturated, sat);
        if (i + 1 < 3)
            continue;
        {
            int n = i + 1 < window ? i + 1 : window;
            double bi, sei;
            naive_fit(t, lat, i + 1, n, &b, &se);
            assert_close(rr.latency_slope, b, 1e-8, 1e-10 * base);
            assert_close(rr.latency_slope_se, se, 1e-6, 1e-10 * base);
            naive_fit(t, inf, i + 1, n, &bi, &sei);
            assert_close(rr.inflight_slope, bi, 1e-8, 1e-10);
            assert_close(rr.inflight_slope_se, sei, 1e-6, 1e-10);
            /* the verdict, away from the z boundary */
            if (n == window && fabs(b - 3.0 * se) > 1e-6 * fabs(b) &&
                fabs(bi - 3.0 * sei) > 1e-6 * fabs(bi)) {
                int expect = b > 3.0 * se && bi > 3.0 * sei;
                assert_int_equal(sat, expect);
                saturated_seen += expect;
                quiet_seen += !expect;
            }
        }
    }
    assert_true(saturated_seen > 0 && quiet_seen > 0);
    llmm_saturation_free(s);
}

static void test_stream_matches_naive_fit(void **state)
{
    (void)state;
    check_stream(64, 0, 200.0, 1);
    check_stream(3, 1000, 1.0, 2);
    check_stream(500, UINT64_C(1) << 60, 5e-3, 3); /* a clock far from 0, latencies in s */
    check_stream(17, 123456789, 1e6, 4);
}

/* Two objects fed the same stream, one also given rejected calls: identical readings. */
static void test_bad_input_changes_nothing(void **state)
{
    llmm_saturation *a = mks(8), *b = mks(8);
    llmm_saturation_reading ra, rb;
    int32_t sat = 5;
    (void)state;
    for (int i = 0; i < 50; i++) {
        uint64_t t = (uint64_t)(i + 1) * 10 * MS;
        double lat = 5.0 + 0.01 * (i % 7) + 0.5 * i, inf = 3.0 + 0.01 * (i % 3) + 0.2 * i;
        assert_status(llmm_saturation_observe(a, t, NAN, 1, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, 1, NAN, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, -1, 1, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, 1, -1, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, INFINITY, 1, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, 1, INFINITY, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(a, t, 2e100, 1, &sat), LLMM_E_RANGE);
        assert_status(llmm_saturation_observe(a, t, 1, 2e100, &sat), LLMM_E_RANGE);
        assert_status(llmm_saturation_observe(a, t, 2e100, NAN, &sat), LLMM_E_INVALID);
        if (i > 0)
            assert_status(llmm_saturation_observe(a, t - 11 * MS, 1, 1, &sat), LLMM_E_INVALID);
        assert_status(llmm_saturation_observe(NULL, t, 1, 1, &sat), LLMM_E_INVALID);
        assert_int_equal(sat, 5);
        assert_ok(llmm_saturation_observe(a, t, lat, inf, NULL));
        assert_ok(llmm_saturation_observe(b, t, lat, inf, NULL));
        ra = rd(a);
        rb = rd(b);
        assert_memory_equal(&ra, &rb, sizeof ra);
    }
    assert_true(ra.total == 50 && ra.saturated);
    assert_status(llmm_saturation_read(NULL, &ra), LLMM_E_INVALID);
    assert_status(llmm_saturation_read(a, NULL), LLMM_E_INVALID);
    ra.struct_size = 8;
    assert_status(llmm_saturation_read(a, &ra), LLMM_E_ABI);
    assert_status(llmm_saturation_reading_init(NULL), LLMM_E_INVALID);
    assert_status(llmm_saturation_reset(NULL), LLMM_E_INVALID);
    /* reset forgets samples and the clock */
    assert_ok(llmm_saturation_reset(a));
    ra = rd(a);
    assert_true(ra.samples == 0 && ra.total == 0 && !ra.ready && ra.latency_slope == 0);
    assert_ok(llmm_saturation_observe(a, 0, 1, 1, NULL));
    llmm_saturation_free(a);
    llmm_saturation_free(b);
}

static llmm_status step_new(llmm_ctx *ctx, void *arg)
{
    llmm_saturation *s = (llmm_saturation *)(uintptr_t)1;
    llmm_status st = llmm_saturation_new(ctx, &s);
    uint64_t w;
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    st = llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, 200);
    assert_ok(llmm_saturation_get_u64(s, LLMM_SATURATION_WINDOW, &w));
    assert_true(w == (st == LLMM_OK ? 200u : 64u));
    for (int i = 0; i < 300; i++)
        assert_ok(llmm_saturation_observe(s, (uint64_t)i, i, i, NULL));
    llmm_saturation_free(s);
    return st;
}

static void test_new_failing_allocator(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_new, NULL), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_options),
        cmocka_unit_test(test_five_point_fit),
        cmocka_unit_test(test_exact_lines),
        cmocka_unit_test(test_flat_is_never_rising),
        cmocka_unit_test(test_stream_matches_naive_fit),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_new_failing_allocator),
    };
    return cmocka_run_group_tests_name("saturation", tests, NULL, NULL);
}
