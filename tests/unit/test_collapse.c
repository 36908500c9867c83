/* Collapse detector (doc/spec.md §7): hand-built sequences whose flags and baselines are worked
 * out by hand in the comments, the confirmation matrix, and a long random stream checked
 * against a naive two-pass recomputation of mean and σ over the W latencies before each one. */
#include "helpers.h"

#define MS UINT64_C(1000000)

static llmm_collapse *mkc(void)
{
    llmm_collapse *c = NULL;
    assert_ok(llmm_collapse_new(NULL, &c));
    return c;
}

static int32_t obs(llmm_collapse *c, uint64_t t, double v)
{
    int32_t flag = -1;
    assert_ok(llmm_collapse_observe(c, t, v, &flag));
    assert_true(flag == 0 || flag == 1);
    return flag;
}

static llmm_collapse_verdict obs_ex(llmm_collapse *c, uint64_t t, double v)
{
    llmm_collapse_verdict r;
    assert_ok(llmm_collapse_verdict_init(&r));
    assert_ok(llmm_collapse_observe_ex(c, t, v, &r));
    return r;
}

static llmm_collapse_report report(const llmm_collapse *c)
{
    llmm_collapse_report r;
    assert_ok(llmm_collapse_report_init(&r));
    assert_ok(llmm_collapse_switch_report(c, &r));
    return r;
}

/* The baseline used by several tests: mean 10, deviations 0, 2, −2, 0, 1, −1, 0, 0, so
 * Σd² = 10, population variance 10/8 = 1.25, σ = √1.25 ≈ 1.1180, threshold with k = 2.5:
 * 10 + 2.5·√1.25 ≈ 12.7951. Observed 1 ms apart from t = 1 ms. */
static const double BASE[8] = {10, 12, 8, 10, 11, 9, 10, 10};

static void feed_base(llmm_collapse *c)
{
    for (int i = 0; i < 8; i++)
        assert_int_equal(obs(c, (uint64_t)(i + 1) * MS, BASE[i]), 0);
}

/* ---- options ----------------------------------------------------------------------------- */

static void test_defaults_and_option_bounds(void **state)
{
    llmm_collapse *c = mkc();
    double f;
    uint64_t u;
    (void)state;

    assert_int_equal(sizeof(llmm_collapse_option), sizeof(int));
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, &u));
    assert_true(u == 8);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_K, &f));
    assert_true(f == 2.5);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, &f));
    assert_true(f == 0.01);
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_SWITCH_NS, &u));
    assert_true(u == 10 * MS);
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, &u));
    assert_true(u == 1);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_TPS_DROP, &f));
    assert_true(f == 0.65);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_MEMBW_BELOW, &f));
    assert_true(f == 0.30);
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_CONFIRM_NS, &u));
    assert_true(u == 10 * MS);

    /* f64 bounds; a refused value changes nothing */
    const double bad_k[] = {0.0, -1.0, 1000.5, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_k / sizeof bad_k[0]; i++)
        assert_status(llmm_collapse_set_f64(c, LLMM_COLLAPSE_K, bad_k[i]), LLMM_E_RANGE);
    const double bad_floor[] = {-0.001, 1.001, NAN};
    for (size_t i = 0; i < sizeof bad_floor / sizeof bad_floor[0]; i++)
        assert_status(llmm_collapse_set_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, bad_floor[i]),
                      LLMM_E_RANGE);
    const double bad_drop[] = {0.0, 1.0, -0.5, NAN};
    for (size_t i = 0; i < sizeof bad_drop / sizeof bad_drop[0]; i++)
        assert_status(llmm_collapse_set_f64(c, LLMM_COLLAPSE_TPS_DROP, bad_drop[i]),
                      LLMM_E_RANGE);
    const double bad_bw[] = {0.0, 1.0001, NAN};
    for (size_t i = 0; i < sizeof bad_bw / sizeof bad_bw[0]; i++)
        assert_status(llmm_collapse_set_f64(c, LLMM_COLLAPSE_MEMBW_BELOW, bad_bw[i]),
                      LLMM_E_RANGE);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_K, &f));
    assert_true(f == 2.5);
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, &f));
    assert_true(f == 0.01);
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_K, 1000.0));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, 0.0));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, 1.0));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_MEMBW_BELOW, 1.0));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_TPS_DROP, 0.5));
    assert_ok(llmm_collapse_get_f64(c, LLMM_COLLAPSE_TPS_DROP, &f));
    assert_true(f == 0.5);

    /* u64 bounds */
    assert_status(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 1), LLMM_E_RANGE);
    assert_status(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, LLMM_COLLAPSE_WINDOW_MAX + 1),
                  LLMM_E_RANGE);
    assert_status(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 2), LLMM_E_RANGE);
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, &u));
    assert_true(u == 8);
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, LLMM_COLLAPSE_WINDOW_MAX));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 2));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_SWITCH_NS, UINT64_MAX));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_CONFIRM_NS, 0));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 0));
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, &u));
    assert_true(u == 0);

    /* W only while no latency is held; reset reopens it */
    obs(c, 1, 5.0);
    assert_status(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 16), LLMM_E_STATE);
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 2)); /* unchanged value: fine */
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, &u));
    assert_true(u == 2);
    assert_ok(llmm_collapse_reset(c));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 16));

    /* wrong-type and unknown keys, NULLs */
    assert_status(llmm_collapse_set_f64(c, LLMM_COLLAPSE_WINDOW, 8.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_set_u64(c, LLMM_COLLAPSE_K, 2), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_set_f64(c, (llmm_collapse_option)0, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_set_u64(c, (llmm_collapse_option)99, 1), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_get_f64(c, LLMM_COLLAPSE_WINDOW, &f), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_get_u64(c, LLMM_COLLAPSE_K, &u), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_collapse_set_f64(NULL, LLMM_COLLAPSE_K, 2.5), LLMM_E_INVALID);
    assert_status(llmm_collapse_set_u64(NULL, LLMM_COLLAPSE_WINDOW, 8), LLMM_E_INVALID);
    assert_status(llmm_collapse_get_f64(NULL, LLMM_COLLAPSE_K, &f), LLMM_E_INVALID);
    assert_status(llmm_collapse_get_f64(c, LLMM_COLLAPSE_K, NULL), LLMM_E_INVALID);
    assert_status(llmm_collapse_get_u64(NULL, LLMM_COLLAPSE_WINDOW, &u), LLMM_E_INVALID);
    assert_status(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, NULL), LLMM_E_INVALID);
    assert_status(llmm_collapse_new(NULL, NULL), LLMM_E_INVALID);
    llmm_collapse_free(c);
    llmm_collapse_free(NULL);
}

/* ---- the latency rule --------------------------------------------------------------------- */

static void test_collapse_4ms_after_switch_flagged_60ms_not(void **state)
{
    llmm_collapse *c = mkc();
    llmm_collapse_verdict v;
    (void)state;

    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    v = obs_ex(c, 14 * MS, 13.0); /* 4 ms after the switch, 13 > 12.7951 */
    assert_int_equal(v.collapsed, 1);
    assert_int_equal(v.outlier, 1);
    assert_int_equal(v.ready, 1);
    assert_int_equal(v.after_switch, 1);
    assert_int_equal(v.floored, 0);
    assert_true(v.since_switch_ns == 4 * MS);
    assert_true(v.samples == 9);
    assert_close(v.mean, 10.0, 1e-15, 0);
    assert_close(v.sigma, sqrt(1.25), 1e-14, 0);
    assert_close(v.threshold, 10.0 + 2.5 * sqrt(1.25), 1e-14, 0);
    llmm_collapse_free(c);

    /* the same outlier 60 ms after the switch: an outlier, not a collapse */
    c = mkc();
    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    v = obs_ex(c, 70 * MS, 13.0);
    assert_int_equal(v.collapsed, 0);
    assert_int_equal(v.outlier, 1);
    assert_int_equal(v.after_switch, 0);
    assert_true(v.since_switch_ns == 60 * MS);
    llmm_collapse_free(c);

    /* no switch at all: an outlier, not a collapse; since_switch is UINT64_MAX */
    c = mkc();
    feed_base(c);
    v = obs_ex(c, 14 * MS, 13.0);
    assert_int_equal(v.collapsed, 0);
    assert_int_equal(v.outlier, 1);
    assert_true(v.since_switch_ns == UINT64_MAX);
    llmm_collapse_free(c);

    /* below the threshold right after a switch: nothing */
    c = mkc();
    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    v = obs_ex(c, 11 * MS, 12.7);
    assert_int_equal(v.outlier, 0);
    assert_int_equal(v.collapsed, 0);
    assert_int_equal(v.after_switch, 1);
    llmm_collapse_free(c);
}

static void test_switch_interval_boundaries(void **state)
{
    (void)state;
    /* 0 ≤ now − switch ≤ 10 ms matches, inclusive at both ends */
    const uint64_t delay[] = {0, 1, 10 * MS - 1, 10 * MS, 10 * MS + 1, 11 * MS};
    const int32_t expect[] = {1, 1, 1, 1, 0, 0};
    for (size_t i = 0; i < sizeof delay / sizeof delay[0]; i++) {
        llmm_collapse *c = mkc();
        feed_base(c);
        assert_ok(llmm_collapse_mark_switch(c, 20 * MS));
        assert_int_equal(obs(c, 20 * MS + delay[i], 13.0), expect[i]);
        llmm_collapse_free(c);
    }

    /* the switch requirement can be disabled, and the interval changed */
    llmm_collapse *c = mkc();
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 0));
    feed_base(c);
    assert_int_equal(obs(c, 100 * MS, 13.0), 1);
    llmm_collapse_free(c);
    c = mkc();
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_SWITCH_NS, 100 * MS));
    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    assert_int_equal(obs(c, 70 * MS, 13.0), 1);
    llmm_collapse_free(c);

    /* a later switch replaces an earlier one */
    c = mkc();
    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 9 * MS));
    assert_ok(llmm_collapse_mark_switch(c, 50 * MS));
    assert_int_equal(obs(c, 55 * MS, 13.0), 1);
    llmm_collapse_free(c);
}

static void test_nothing_flagged_before_w_plus_1(void **state)
{
    llmm_collapse *c = mkc();
    llmm_collapse_verdict v;
    uint64_t n, k, s;
    (void)state;

    /* Every sample rises a thousandfold, right after a switch, with the requirement off: the
     * first 8 have no baseline of 8 earlier latencies and are never flagged; the 9th is. */
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 0));
    assert_ok(llmm_collapse_mark_switch(c, 0));
    for (int i = 0; i < 8; i++) {
        v = obs_ex(c, (uint64_t)i, pow(1000.0, i));
        assert_int_equal(v.ready, 0);
        assert_int_equal(v.outlier, 0);
        assert_int_equal(v.collapsed, 0);
        assert_true(v.mean == 0 && v.sigma == 0 && v.threshold == 0);
    }
    v = obs_ex(c, 8, 1e30);
    assert_int_equal(v.ready, 1);
    assert_int_equal(v.collapsed, 1);
    assert_ok(llmm_collapse_counts(c, &n, &k, &s));
    assert_true(n == 9 && k == 1 && s == 1);
    llmm_collapse_free(c);

    /* W = 3: the first flag is possible at sample 4 */
    c = mkc();
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 3));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 0));
    assert_int_equal(obs(c, 0, 1.0), 0);
    assert_int_equal(obs(c, 1, 1.0), 0);
    assert_int_equal(obs(c, 2, 100.0), 0);
    /* baseline 1, 1, 100: mean 34, σ² = (33² + 33² + 66²)/3 = 2178, σ ≈ 46.67;
     * threshold 34 + 2.5·46.67 ≈ 150.67 */
    v = obs_ex(c, 3, 150.0);
    assert_close(v.mean, 34.0, 1e-15, 0);
    assert_close(v.sigma, sqrt(2178.0), 1e-14, 0);
    assert_int_equal(v.collapsed, 0);
    llmm_collapse_free(c);
}

static void test_flat_window_floor(void **state)
{
    llmm_collapse *c = mkc();
    llmm_collapse_verdict v;
    (void)state;

    /* Eight equal latencies: σ = 0, floored at 0.01 · 100 = 1, threshold 102.5. A 0.1 % rise
     * is not flagged; a 2.6 % rise is. */
    for (int i = 0; i < 8; i++)
        obs(c, (uint64_t)i * MS, 100.0);
    assert_ok(llmm_collapse_mark_switch(c, 8 * MS));
    v = obs_ex(c, 9 * MS, 100.1);
    assert_int_equal(v.outlier, 0);
    assert_int_equal(v.collapsed, 0);
    assert_int_equal(v.floored, 1);
    assert_true(v.mean == 100.0);
    assert_true(v.sigma == 1.0);
    assert_true(v.threshold == 102.5);
    llmm_collapse_free(c);

    c = mkc();
    for (int i = 0; i < 8; i++)
        obs(c, (uint64_t)i * MS, 100.0);
    assert_ok(llmm_collapse_mark_switch(c, 8 * MS));
    assert_int_equal(obs(c, 9 * MS, 102.6), 1);
    llmm_collapse_free(c);

    /* the floor is a parameter: at 0 every rise above a flat window is flagged */
    c = mkc();
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, 0.0));
    for (int i = 0; i < 8; i++)
        obs(c, (uint64_t)i * MS, 100.0);
    assert_ok(llmm_collapse_mark_switch(c, 8 * MS));
    v = obs_ex(c, 9 * MS, 100.1);
    assert_int_equal(v.collapsed, 1);
    assert_true(v.sigma == 0.0 && v.threshold == 100.0);
    llmm_collapse_free(c);

    /* the floor does not apply when σ is larger: the BASE window has σ = 1.118 > 0.1 */
    c = mkc();
    feed_base(c);
    v = obs_ex(c, 9 * MS, 10.0);
    assert_int_equal(v.floored, 0);
    llmm_collapse_free(c);
}

static void test_flagged_sample_enters_window(void **state)
{
    llmm_collapse *c = mkc();
    llmm_collapse_verdict v;
    (void)state;

    feed_base(c);
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    assert_int_equal(obs(c, 11 * MS, 13.0), 1);
    /* the baseline is now 12, 8, 10, 11, 9, 10, 10, 13: Σx = 83, mean 10.375,
     * Σx² = 879, σ² = 879/8 − 10.375² = 2.234375 */
    v = obs_ex(c, 12 * MS, 13.0);
    assert_close(v.mean, 10.375, 1e-15, 0);
    assert_close(v.sigma, sqrt(2.234375), 1e-14, 0);
    /* threshold 10.375 + 2.5·1.4948 ≈ 14.112: the same 13 is no longer an outlier */
    assert_int_equal(v.outlier, 0);
    assert_int_equal(v.collapsed, 0);
    llmm_collapse_free(c);
}

/* Naive reference: mean and population σ of the W latencies before index i, two passes in
 * long double. */
static void naive_baseline(const double *x, size_t i, size_t w, double *mean, double *sigma)
{
    long double m = 0, s2 = 0;
    for (size_t j = i - w; j < i; j++)
        m += x[j];
    m /= (long double)w;
    for (size_t j = i - w; j < i; j++)
        s2 += (x[j] - m) * (x[j] - m);
    *mean = (double)m;
    *sigma = (double)sqrtl(s2 / (long double)w);
}

static void check_stream(size_t w, double offset, double scale, double floor_share, uint64_t seed)
{
    enum { N = 20000 };
    static double x[N];
    llmm_collapse *c = mkc();
    uint64_t r = seed, t = 0, last_switch = 0, flagged = 0, flagged_ref = 0;
    int have_switch = 0;

    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, w));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_SIGMA_FLOOR, floor_share));
    for (size_t i = 0; i < N; i++) {
        double u = rng_unit(&r), m, s, thr;
        llmm_collapse_verdict v;
        /* mostly noise around the offset, 2 % tenfold outliers, a switch every ~50 samples */
        x[i] = offset + scale * (u < 0.02 ? 10.0 * rng_unit(&r) : rng_unit(&r));
        t += 1 + rng_next(&r) % (2 * MS);
        if (rng_unit(&r) < 0.02) {
            assert_ok(llmm_collapse_mark_switch(c, t));
            last_switch = t;
            have_switch = 1;
            t += rng_next(&r) % (5 * MS);
        }
        v = obs_ex(c, t, x[i]);
        assert_int_equal(v.ready, i >= w);
        assert_int_equal(v.after_switch, have_switch && t - last_switch <= 10 * MS);
        if (i < w)
            continue;
        naive_baseline(x, i, w, &m, &s);
        assert_close(v.mean, m, 1e-13, 0);
        if (s < floor_share * m)
            s = floor_share * m;
        assert_close(v.sigma, s, 1e-9, 1e-9 * scale);
        thr = m + 2.5 * s;
        assert_close(v.threshold, thr, 1e-12, 0);
        if (fabs(x[i] - thr) > 1e-9 * thr) {
            assert_int_equal(v.outlier, x[i] > thr);
            flagged_ref += x[i] > thr && v.after_switch;
        } else {
            flagged_ref += (uint64_t)v.collapsed;
        }
        flagged += (uint64_t)v.collapsed;
    }
    assert_true(flagged == flagged_ref);
    assert_true(flagged > 0);
    llmm_collapse_free(c);
}

static void test_stream_matches_naive_baseline(void **state)
{
    (void)state;
    check_stream(8, 0.0, 10.0, 0.01, 1);
    check_stream(3, 5.0, 1.0, 0.01, 2);
    check_stream(100, 0.0, 1.0, 0.01, 3);
    /* a large common offset, 10^6 + [0, 1), without the floor (which would be 10^4): here
     * Σx²/W − mean² in doubles would cancel every digit of σ */
    check_stream(8, 1e6, 1.0, 0.0, 4);
    check_stream(LLMM_COLLAPSE_WINDOW_MAX, 1e3, 1.0, 0.0, 5);
}

/* ---- confirmation matrix ------------------------------------------------------------------ */

static void test_confirmation_matrix(void **state)
{
    llmm_collapse *c = mkc();
    llmm_collapse_report r;
    (void)state;

    assert_ok(llmm_collapse_report_init(&r));
    assert_status(llmm_collapse_switch_report(c, &r), LLMM_E_EMPTY);

    /* TPS 1024 before the switch; after it 512, then 256 (the lowest counts): drop
     * 1 − 256/1024 = 0.75 > 0.65. Memory bandwidth 0.5, then 0.25 < 0.30. */
    feed_base(c);
    assert_ok(llmm_collapse_observe_tps(c, 9 * MS, 2048.0));
    assert_ok(llmm_collapse_observe_tps(c, 9 * MS, 1024.0));
    assert_ok(llmm_collapse_mark_switch(c, 10 * MS));
    r = report(c);
    assert_int_equal(r.signals, 0);
    assert_int_equal(r.tps_known, 0);
    assert_int_equal(r.membw_known, 0);
    assert_int_equal(r.open, 1);
    assert_true(r.switch_ns == 10 * MS);
    assert_true(r.tps_before == 1024.0);

    assert_ok(llmm_collapse_observe_tps(c, 11 * MS, 512.0));
    r = report(c);
    assert_int_equal(r.tps_known, 1);
    assert_int_equal(r.tps_confirmed, 0); /* drop 0.5 */
    assert_true(r.tps_drop == 0.5);
    assert_ok(llmm_collapse_observe_tps(c, 12 * MS, 256.0));
    assert_ok(llmm_collapse_observe_tps(c, 13 * MS, 768.0));
    assert_ok(llmm_collapse_observe_membw(c, 13 * MS, 0.5));
    r = report(c);
    assert_true(r.tps_after == 256.0);
    assert_true(r.tps_drop == 0.75);
    assert_int_equal(r.tps_confirmed, 1);
    assert_int_equal(r.membw_known, 1);
    assert_int_equal(r.membw_confirmed, 0);
    assert_int_equal(r.signals, 1);
    assert_ok(llmm_collapse_observe_membw(c, 14 * MS, 0.25));
    assert_int_equal(obs(c, 15 * MS, 13.0), 1);
    assert_int_equal(obs(c, 16 * MS, 10.0), 0);
    r = report(c);
    assert_true(r.membw == 0.25);
    assert_int_equal(r.membw_confirmed, 1);
    assert_int_equal(r.latency_confirmed, 1);
    assert_true(r.latencies == 2 && r.flagged == 1);
    assert_int_equal(r.signals, 3);
    assert_int_equal(r.open, 1);

    /* readings more than 10 ms after the switch are not matched; the report closes */
    assert_ok(llmm_collapse_observe_tps(c, 20 * MS + 1, 1.0));
    assert_ok(llmm_collapse_observe_membw(c, 20 * MS + 1, 0.0));
    r = report(c);
    assert_true(r.tps_after == 256.0 && r.membw == 0.25);
    assert_int_equal(r.open, 0);

    /* thresholds are strict and adjustable: drop 0.75 is not > 0.75; 0.25 is not < 0.25 */
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_TPS_DROP, 0.75));
    assert_ok(llmm_collapse_set_f64(c, LLMM_COLLAPSE_MEMBW_BELOW, 0.25));
    r = report(c);
    assert_int_equal(r.tps_confirmed, 0);
    assert_int_equal(r.membw_confirmed, 0);
    assert_int_equal(r.signals, 1);

    /* a new switch starts an empty matrix; its TPS reference is the last reading (1.0) */
    assert_ok(llmm_collapse_mark_switch(c, 30 * MS));
    r = report(c);
    assert_true(r.switch_ns == 30 * MS);
    assert_true(r.tps_before == 1.0);
    assert_int_equal(r.signals, 0);
    assert_true(r.latencies == 0 && r.flagged == 0);
    /* a rise is a negative drop */
    assert_ok(llmm_collapse_observe_tps(c, 31 * MS, 4.0));
    r = report(c);
    assert_true(r.tps_drop == -3.0);
    assert_int_equal(r.tps_confirmed, 0);
    llmm_collapse_free(c);

    /* no TPS before the switch, or a reference of 0: the drop is unknown */
    c = mkc();
    assert_ok(llmm_collapse_mark_switch(c, 0));
    assert_ok(llmm_collapse_observe_tps(c, 1, 5.0));
    r = report(c);
    assert_int_equal(r.tps_known, 0);
    assert_true(r.tps_after == 5.0 && r.tps_before == 0.0);
    assert_ok(llmm_collapse_observe_tps(c, 2, 0.0));
    assert_ok(llmm_collapse_mark_switch(c, 3));
    assert_ok(llmm_collapse_observe_tps(c, 4, 0.0));
    r = report(c);
    assert_int_equal(r.tps_known, 0);
    /* the confirmation interval is its own option */
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_CONFIRM_NS, 0));
    assert_ok(llmm_collapse_observe_membw(c, 5, 0.1));
    r = report(c);
    assert_int_equal(r.membw_known, 0);
    llmm_collapse_free(c);
}

/* ---- bad input ---------------------------------------------------------------------------- */

/* Feed the same stream to two detectors, the first also receiving rejected calls between the
 * good ones; every verdict, report and count must agree. */
static void test_bad_input_changes_nothing(void **state)
{
    llmm_collapse *a = mkc(), *b = mkc();
    llmm_collapse_verdict va, vb;
    llmm_collapse_report ra, rb;
    uint64_t na, ka, sa, nb, kb, sb;
    int32_t flag = 7;
    (void)state;

    for (int i = 0; i < 40; i++) {
        uint64_t t = (uint64_t)(i + 10) * MS;
        double x = 10.0 + (double)(i % 5) + (i % 13 == 12 ? 20.0 : 0.0);
        if (i % 10 == 0) {
            assert_ok(llmm_collapse_mark_switch(a, t));
            assert_ok(llmm_collapse_mark_switch(b, t));
        }
        if (i % 4 == 0) {
            assert_ok(llmm_collapse_observe_tps(a, t, 100.0 - i));
            assert_ok(llmm_collapse_observe_tps(b, t, 100.0 - i));
            assert_ok(llmm_collapse_observe_membw(a, t, 0.01 * i));
            assert_ok(llmm_collapse_observe_membw(b, t, 0.01 * i));
        }
        /* rejected: bad latencies, time going back, NULLs, a bad verdict size */
        assert_status(llmm_collapse_observe(a, t, NAN, &flag), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe(a, t, -1.0, &flag), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe(a, t, INFINITY, &flag), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe(a, t, 1e101, &flag), LLMM_E_RANGE);
        assert_status(llmm_collapse_observe(a, 0, 1.0, &flag), LLMM_E_INVALID);
        assert_int_equal(flag, 7);
        assert_status(llmm_collapse_observe(NULL, t, 1.0, &flag), LLMM_E_INVALID);
        assert_status(llmm_collapse_mark_switch(a, t - 5 * MS), LLMM_E_INVALID);
        assert_status(llmm_collapse_mark_switch(NULL, t), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_tps(a, t, -1.0), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_tps(a, t, NAN), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_tps(a, t, 2e100), LLMM_E_RANGE);
        assert_status(llmm_collapse_observe_tps(a, t - 2 * MS, 1.0), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_tps(NULL, t, 1.0), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_membw(a, t, 1.01), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_membw(a, t, -0.01), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_membw(a, t, NAN), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_membw(a, t - 2 * MS, 0.5), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_membw(NULL, t, 0.5), LLMM_E_INVALID);
        assert_ok(llmm_collapse_verdict_init(&va));
        va.struct_size--;
        assert_status(llmm_collapse_observe_ex(a, t, 1.0, &va), LLMM_E_ABI);
        assert_true(va.collapsed == 0 && va.samples == 0);
        assert_status(llmm_collapse_observe_ex(a, t, 1.0, NULL), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_ex(NULL, t, 1.0, &va), LLMM_E_INVALID);
        assert_ok(llmm_collapse_verdict_init(&va));
        assert_status(llmm_collapse_observe_ex(a, t, NAN, &va), LLMM_E_INVALID);
        assert_status(llmm_collapse_observe_ex(a, t - 2 * MS, 1.0, &va), LLMM_E_INVALID);
        assert_true(va.samples == 0);

        va = obs_ex(a, t, x);
        vb = obs_ex(b, t, x);
        assert_memory_equal(&va, &vb, sizeof va);
        ra = report(a);
        rb = report(b);
        assert_memory_equal(&ra, &rb, sizeof ra);
    }
    assert_ok(llmm_collapse_counts(a, &na, &ka, &sa));
    assert_ok(llmm_collapse_counts(b, &nb, &kb, &sb));
    assert_true(na == nb && ka == kb && sa == sb);
    assert_true(na == 40 && sa == 4 && ka > 0);
    assert_ok(llmm_collapse_counts(a, NULL, NULL, NULL));
    assert_status(llmm_collapse_counts(NULL, &na, &ka, &sa), LLMM_E_INVALID);

    /* report: NULLs and sizes */
    assert_status(llmm_collapse_switch_report(NULL, &ra), LLMM_E_INVALID);
    assert_status(llmm_collapse_switch_report(a, NULL), LLMM_E_INVALID);
    ra.struct_size = 0;
    assert_status(llmm_collapse_switch_report(a, &ra), LLMM_E_ABI);
    assert_status(llmm_collapse_report_init(NULL), LLMM_E_INVALID);
    assert_status(llmm_collapse_verdict_init(NULL), LLMM_E_INVALID);
    assert_status(llmm_collapse_reset(NULL), LLMM_E_INVALID);

    /* observe's out-parameter is optional */
    assert_ok(llmm_collapse_observe(a, 100 * MS, 1.0, NULL));

    /* reset forgets data, switches and the clock, keeps options */
    assert_ok(llmm_collapse_set_f64(a, LLMM_COLLAPSE_K, 3.0));
    assert_ok(llmm_collapse_reset(a));
    assert_ok(llmm_collapse_counts(a, &na, &ka, &sa));
    assert_true(na == 0 && ka == 0 && sa == 0);
    assert_status(llmm_collapse_switch_report(a, &rb), LLMM_E_EMPTY);
    assert_ok(llmm_collapse_observe(a, 0, 1.0, NULL));
    {
        double k;
        assert_ok(llmm_collapse_get_f64(a, LLMM_COLLAPSE_K, &k));
        assert_true(k == 3.0);
    }
    llmm_collapse_free(a);
    llmm_collapse_free(b);
}

/* ---- allocation failures ------------------------------------------------------------------ */

static llmm_status step_new(llmm_ctx *ctx, void *arg)
{
    llmm_collapse *c = (llmm_collapse *)(uintptr_t)1;
    llmm_status st = llmm_collapse_new(ctx, &c);
    uint64_t w;
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(c);
        return st;
    }
    /* a larger ring: on failure the old one stays and works */
    st = llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 64);
    assert_ok(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, &w));
    assert_true(w == (st == LLMM_OK ? 64u : 8u));
    for (int i = 0; i < 100; i++)
        assert_ok(llmm_collapse_observe(c, (uint64_t)i, 1.0 + i % 3, NULL));
    llmm_collapse_free(c);
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
        cmocka_unit_test(test_defaults_and_option_bounds),
        cmocka_unit_test(test_collapse_4ms_after_switch_flagged_60ms_not),
        cmocka_unit_test(test_switch_interval_boundaries),
        cmocka_unit_test(test_nothing_flagged_before_w_plus_1),
        cmocka_unit_test(test_flat_window_floor),
        cmocka_unit_test(test_flagged_sample_enters_window),
        cmocka_unit_test(test_stream_matches_naive_baseline),
        cmocka_unit_test(test_confirmation_matrix),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_new_failing_allocator),
    };
    return cmocka_run_group_tests_name("collapse", tests, NULL, NULL);
}
