/* Detect: the latency-spike detector (doc/spec.md §6). Deterministic synthetic clocks; references
 * are exact nearest-rank quantiles of the closed slots (sorted values), hand-built scenarios
 * and closed-form tail probabilities of the generating distributions. */
#include "helpers.h"

#define SEC UINT64_C(1000000000)
#define MS UINT64_C(1000000)
#define US UINT64_C(1000)


static llmm_spike *mkd(void)
{
    llmm_spike *d = NULL;
    assert_ok(llmm_spike_new(NULL, &d));
    return d;
}

static llmm_spike_level obs(llmm_spike *d, uint64_t t, double v)
{
    llmm_spike_level lv = (llmm_spike_level)-1;
    assert_ok(llmm_spike_observe(d, t, v, &lv));
    return lv;
}

static llmm_spike_stats stats(llmm_spike *d, uint64_t t)
{
    llmm_spike_stats s;
    assert_ok(llmm_spike_stats_init(&s));
    assert_ok(llmm_spike_get_stats(d, t, &s));
    return s;
}

/* ---- options ----------------------------------------------------------------------------- */

static void test_defaults_and_option_bounds(void **state)
{
    llmm_spike *d = mkd();
    double f;
    uint64_t u;
    (void)state;

    assert_int_equal(sizeof(llmm_spike_level), sizeof(int));
    assert_int_equal(sizeof(llmm_spike_option), sizeof(int));
    assert_int_equal(LLMM_SPIKE_NONE, 0);
    assert_int_equal(LLMM_SPIKE_LEVEL1, 1);
    assert_int_equal(LLMM_SPIKE_LEVEL2, 2);

    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_BASE_QUANTILE, &f));
    assert_true(f == 0.99);
    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, &f));
    assert_true(f == 0.999);
    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, &f));
    assert_true(f == 1.2);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, &u));
    assert_true(u == 1000);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOT_NS, &u));
    assert_true(u == SEC);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &u));
    assert_true(u == 60);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SCALE, &u));
    assert_true(u == LLMM_SCALE_DEFAULT);

    /* f64 bounds: quantiles in (0, 1), factor in [1, 100]; failures change nothing */
    const double bad_q[] = {0.0, 1.0, -0.5, 1.5, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_q / sizeof bad_q[0]; i++) {
        assert_status(llmm_spike_set_f64(d, LLMM_SPIKE_BASE_QUANTILE, bad_q[i]), LLMM_E_RANGE);
        assert_status(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, bad_q[i]), LLMM_E_RANGE);
    }
    const double bad_f[] = {0.999, 100.001, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_f / sizeof bad_f[0]; i++)
        assert_status(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, bad_f[i]), LLMM_E_RANGE);
    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_BASE_QUANTILE, &f));
    assert_true(f == 0.99);
    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, &f));
    assert_true(f == 1.2);
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, 1.0));
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, 100.0));
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_BASE_QUANTILE, 0.95));
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, 0.9999));
    assert_ok(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_QUANTILE, &f));
    assert_true(f == 0.9999);

    /* u64 bounds */
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 0), LLMM_E_RANGE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, UINT64_C(1) << 32), LLMM_E_RANGE);
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, UINT32_MAX));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 1));
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 1), LLMM_E_RANGE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, LLMM_WINDOW_SLOTS_MAX + 1), LLMM_E_RANGE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, 0), LLMM_E_RANGE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, UINT64_MAX / 59), LLMM_E_RANGE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SCALE, 11), LLMM_E_RANGE);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &u));
    assert_true(u == 60);

    /* keys of the other type, unknown keys, NULLs */
    assert_status(llmm_spike_set_f64(d, LLMM_SPIKE_WARMUP, 5.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SEVERE_FACTOR, 2), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_set_f64(d, (llmm_spike_option)0, 0.5), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_set_u64(d, (llmm_spike_option)99, 5), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_get_f64(d, LLMM_SPIKE_SLOTS, &f), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_get_u64(d, LLMM_SPIKE_BASE_QUANTILE, &u), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_spike_set_f64(NULL, LLMM_SPIKE_SEVERE_FACTOR, 1.2), LLMM_E_INVALID);
    assert_status(llmm_spike_set_u64(NULL, LLMM_SPIKE_WARMUP, 5), LLMM_E_INVALID);
    assert_status(llmm_spike_get_f64(NULL, LLMM_SPIKE_SEVERE_FACTOR, &f), LLMM_E_INVALID);
    assert_status(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, NULL), LLMM_E_INVALID);
    assert_status(llmm_spike_get_u64(NULL, LLMM_SPIKE_WARMUP, &u), LLMM_E_INVALID);
    assert_status(llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, NULL), LLMM_E_INVALID);
    assert_status(llmm_spike_new(NULL, NULL), LLMM_E_INVALID);
    llmm_spike_free(d);
    llmm_spike_free(NULL);
}

static void test_geometry_only_before_first_time_stamp(void **state)
{
    llmm_spike *d = mkd();
    llmm_spike_stats s;
    uint64_t u;
    double r;
    (void)state;

    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 2));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, 10 * MS));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SCALE, 4));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, LLMM_WINDOW_SLOTS_MAX));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 3));
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &u));
    assert_true(u == 3);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOT_NS, &u));
    assert_true(u == 10 * MS);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SCALE, &u));
    assert_true(u == 4);

    /* a query is a time stamp too */
    assert_status(llmm_spike_rate(d, 5, &r), LLMM_E_EMPTY);
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 4)); /* E_EMPTY changed nothing */
    s = stats(d, 5);
    assert_int_equal(s.ready, 0);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 5), LLMM_E_STATE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, SEC), LLMM_E_STATE);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SCALE, 6), LLMM_E_STATE);
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 3)); /* not geometry: allowed */
    obs(d, 6, 1.0);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 5), LLMM_E_STATE);
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &u));
    assert_true(u == 4);
    /* reset forgets the data and the clock, keeps the options, unlocks the geometry */
    assert_ok(llmm_spike_reset(d));
    assert_ok(llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, &u));
    assert_true(u == 3);
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 5));
    s = stats(d, 0);
    assert_true(s.total_samples == 0 && s.window_samples == 0);
    assert_status(llmm_spike_reset(NULL), LLMM_E_INVALID);
    llmm_spike_free(d);
}

/* ---- hand-built scenarios ---------------------------------------------------------------- */

static void test_hand_built_levels(void **state)
{
    llmm_spike *d = mkd();
    llmm_spike_stats s;
    double r;
    (void)state;

    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 3));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 100));
    /* slot 0: the values 1 … 1000, none classified (no slot has closed yet) */
    for (int i = 1; i <= 1000; i++)
        assert_int_equal(obs(d, (uint64_t)i * US, (double)i), LLMM_SPIKE_NONE);
    s = stats(d, SEC - 1);
    assert_int_equal(s.ready, 0);
    assert_true(s.baseline_samples == 0 && s.window_samples == 1000);
    assert_status(llmm_spike_rate(d, SEC - 1, &r), LLMM_E_EMPTY);

    /* slot 1: baseline = slot 0. Exact P99 = 990, P99.9 = 999; the sketch is within 0.542 %,
     * so P99 ∈ [984.6, 995.4] and 1.2 × P99.9 ∈ [1192.3, 1205.4]. */
    s = stats(d, SEC);
    assert_int_equal(s.ready, 1);
    assert_true(s.baseline_samples == 1000);
    assert_close(s.base_threshold, 990.0, REL_ERR_S6, 0);
    assert_close(s.severe_threshold, 999.0, REL_ERR_S6, 0);
    assert_int_equal(obs(d, SEC + 1, 500.0), LLMM_SPIKE_NONE);
    assert_int_equal(obs(d, SEC + 2, 980.0), LLMM_SPIKE_NONE);
    assert_int_equal(obs(d, SEC + 3, 1000.0), LLMM_SPIKE_LEVEL1);
    assert_int_equal(obs(d, SEC + 4, 1190.0), LLMM_SPIKE_LEVEL1);
    assert_int_equal(obs(d, SEC + 5, 1206.0), LLMM_SPIKE_LEVEL2);
    assert_int_equal(obs(d, SEC + 6, 1e6), LLMM_SPIKE_LEVEL2);
    assert_int_equal(obs(d, SEC + 7, 0.0), LLMM_SPIKE_NONE);
    /* the factor applies from the next sample on: 1206 < 2 × 999 is level 1 now */
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, 2.0));
    assert_int_equal(obs(d, SEC + 8, 1206.0), LLMM_SPIKE_LEVEL1);
    assert_int_equal(obs(d, SEC + 9, 2100.0), LLMM_SPIKE_LEVEL2);
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, 1.2));
    /* rate: 6 of 9 classified samples above P99 */
    assert_ok(llmm_spike_rate(d, SEC + 9, &r));
    assert_true(r == 6.0 / 9.0);
    s = stats(d, SEC + 9);
    assert_true(s.window_samples == 1009 && s.window_classified == 9);
    assert_true(s.window_level1 == 3 && s.window_level2 == 3);
    assert_true(s.total_level1 == 3 && s.total_level2 == 3 && s.total_classified == 9);

    /* slot 2: baseline = slots 0 and 1 (1009 values) */
    s = stats(d, 2 * SEC);
    assert_true(s.baseline_samples == 1009);
    assert_int_equal(obs(d, 2 * SEC + 1, 50.0), LLMM_SPIKE_NONE);

    /* slot 3: slot 0 has left the baseline (slots 1 and 2: 10 values < warm-up) */
    assert_int_equal(obs(d, 3 * SEC, 1e9), LLMM_SPIKE_NONE);
    s = stats(d, 3 * SEC);
    assert_int_equal(s.ready, 0);
    assert_true(s.baseline_samples == 10);
    /* the warm-up applies from the next sample on; baseline max = 1e6 = P99 = P99.9 */
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 10));
    assert_int_equal(obs(d, 3 * SEC + 1, 1.1e6), LLMM_SPIKE_LEVEL1);
    assert_int_equal(obs(d, 3 * SEC + 2, 1.3e6), LLMM_SPIKE_LEVEL2);
    assert_int_equal(obs(d, 3 * SEC + 3, 1e6), LLMM_SPIKE_NONE); /* not strictly above */
    /* quantile levels apply when the next slot closes */
    assert_ok(llmm_spike_set_f64(d, LLMM_SPIKE_BASE_QUANTILE, 0.5));
    assert_int_equal(obs(d, 3 * SEC + 4, 5000.0), LLMM_SPIKE_NONE);
    s = stats(d, 4 * SEC); /* baseline = slots 2, 3: {50, 1e9, 1.1e6, 1.3e6, 1e6, 5000} */
    assert_true(s.baseline_samples == 6);
    assert_close(s.base_threshold, 1e6, REL_ERR_S6, 0); /* rank 3 of 6 */
    assert_true(s.severe_threshold == 1e9);               /* rank 6: the exact maximum */
    assert_int_equal(s.ready, 0);
    assert_int_equal(obs(d, 4 * SEC, 2e6), LLMM_SPIKE_NONE);
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 6));
    assert_int_equal(obs(d, 4 * SEC + 1, 2e6), LLMM_SPIKE_LEVEL1);
    assert_int_equal(obs(d, 4 * SEC + 2, 1.3e9), LLMM_SPIKE_LEVEL2);
    llmm_spike_free(d);
}

static void test_warmup_boundary(void **state)
{
    (void)state;
    for (int n = 999; n <= 1000; n++) {
        llmm_spike *d = mkd();
        for (int i = 0; i < n; i++)
            obs(d, (uint64_t)i * MS, 100.0 + i % 7);
        /* first sample of slot 1: classified only with the default 1000 baseline samples */
        assert_int_equal(obs(d, SEC, 1e6), n >= 1000 ? LLMM_SPIKE_LEVEL2 : LLMM_SPIKE_NONE);
        assert_int_equal(stats(d, SEC).ready, n >= 1000);
        llmm_spike_free(d);
    }
}

static void test_quiet_period_rewarms(void **state)
{
    llmm_spike *d = mkd();
    uint64_t x = 11, t = 0;
    double r;
    (void)state;
    for (int i = 0; i < 5000; i++, t += MS)
        obs(d, t, lognormal(&x, 100.0, 0.3));
    assert_int_equal(obs(d, t, 1e6), LLMM_SPIKE_LEVEL2);
    assert_ok(llmm_spike_rate(d, t, &r));
    /* t is in slot 5. 55 s later the baseline (slots 1 … 59) still holds 4000 samples; 59 s
     * later only the spike's slot is left in the window; 60 s later every slot has left. */
    assert_int_equal(stats(d, t + 55 * SEC).ready, 1);
    assert_true(stats(d, t + 55 * SEC).baseline_samples == 4001);
    assert_int_equal(stats(d, t + 59 * SEC).ready, 0);
    assert_true(stats(d, t + 59 * SEC).baseline_samples == 1);
    assert_ok(llmm_spike_rate(d, t + 59 * SEC, &r));
    assert_true(r == 1.0);
    assert_status(llmm_spike_rate(d, t + 60 * SEC, &r), LLMM_E_EMPTY);
    assert_int_equal(obs(d, t + 60 * SEC, 1e6), LLMM_SPIKE_NONE);
    assert_int_equal(stats(d, t + 60 * SEC).ready, 0);
    assert_true(stats(d, t + 60 * SEC).total_samples == 5002);
    llmm_spike_free(d);
}

/* ---- a random stream against an exact reference ------------------------------------------ */

static void test_levels_match_exact_reference(void **state)
{
    enum { N = 40000, SLOTS = 5, WARM = 500 };
    const uint64_t slot = 100 * MS;
    static uint64_t t[N];
    static double v[N], buf[N];
    static llmm_spike_level lv[N];
    static int classified[N];
    llmm_spike *d = mkd();
    uint64_t x = 2024, now = 3 * SEC + 17, cur = UINT64_MAX;
    double p99 = 0, p999 = 0;
    size_t lo = 0, nbase = 0, ambiguous = 0, compared = 0, slot_checks = 0;
    (void)state;

    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, slot));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, SLOTS));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, WARM));
    for (size_t i = 0; i < N; i++) {
        now += rng_next(&x) % (200 * US); /* about 1000 samples per slot */
        if (i == 20000)
            now += 250 * MS; /* empty slots inside the window */
        if (i == 30000)
            now += SEC; /* longer than the window: warm up again */
        t[i] = now;
        v[i] = lognormal(&x, i < N / 2 ? 50.0 : 100.0, 0.6);
        if (rng_unit(&x) < 0.0005)
            v[i] *= 6.0; /* injected spikes */
        if (now / slot != cur) {
            /* a slot closed: exact baselines of the closed slots cur-S+1 … cur-1 */
            llmm_spike_stats s;
            cur = now / slot;
            while (lo < i && t[lo] / slot + SLOTS - 1 < cur)
                lo++;
            nbase = i - lo;
            memcpy(buf, v + lo, nbase * sizeof *buf);
            qsort(buf, nbase, sizeof *buf, cmp_dbl);
            s = stats(d, now);
            assert_true(s.baseline_samples == nbase);
            assert_int_equal(s.ready, nbase >= WARM);
            if (nbase) {
                p99 = exact_q(buf, nbase, 0.99);
                p999 = exact_q(buf, nbase, 0.999);
                assert_close(s.base_threshold, p99, REL_ERR_S6, 0);
                assert_close(s.severe_threshold, p999, REL_ERR_S6, 0);
                slot_checks++;
            }
        }
        lv[i] = obs(d, now, v[i]);
        classified[i] = nbase >= WARM;
        if (!classified[i]) {
            assert_int_equal(lv[i], LLMM_SPIKE_NONE);
            continue;
        }
        /* the reference level; within the sketch's error of a threshold either answer is right */
        if (fabs(v[i] / p99 - 1) <= REL_ERR_S6 || fabs(v[i] / (1.2 * p999) - 1) <= REL_ERR_S6) {
            ambiguous++;
            continue;
        }
        llmm_spike_level want = v[i] <= p99          ? LLMM_SPIKE_NONE
                                : v[i] > 1.2 * p999 ? LLMM_SPIKE_LEVEL2
                                                    : LLMM_SPIKE_LEVEL1;
        assert_int_equal(lv[i], want);
        compared++;
        /* every few hundred samples: the rate and the window counts from the verdicts given */
        if (i % 307 == 0) {
            uint64_t first = now / slot + 1 - SLOTS, nc = 0, n1 = 0, n2 = 0, ns = 0;
            double r;
            for (size_t j = i + 1; j-- > 0 && t[j] / slot >= first;) {
                ns++;
                nc += (uint64_t)classified[j];
                n1 += lv[j] == LLMM_SPIKE_LEVEL1;
                n2 += lv[j] == LLMM_SPIKE_LEVEL2;
            }
            llmm_spike_stats s = stats(d, now);
            assert_true(s.window_samples == ns && s.window_classified == nc);
            assert_true(s.window_level1 == n1 && s.window_level2 == n2);
            assert_ok(llmm_spike_rate(d, now, &r));
            assert_true(r == (double)(n1 + n2) / (double)nc);
        }
    }
    assert_true(compared > 30000);
    assert_true(ambiguous < compared / 100);
    assert_true(slot_checks > 30);
    llmm_spike_free(d);
}

/* ---- acceptance scenarios ---------------------------------------------------------------- */

/* Phi^-1(0.999) for log-normal quantiles */
#define Z999 3.090232306167813

static void test_injected_spikes_and_steady_state(void **state)
{
    /* defaults (1 s × 60, warm-up 1000); 1000 samples/s, log-normal median 200 ms, σ 0.5, for
     * 200 s; one sample in 5000 is replaced by 5 × the true P99.9. For the normal samples the
     * closed forms give P(x > P99) = 1 % and P(x > 1.2 · P99.9) = P(z > 3.09 + ln 1.2 / 0.5)
     * = 0.028 %; the sketch moves the thresholds by at most 0.542 %, i.e. the shares by at most
     * 0.03 % and 0.002 %. */
    const double median = 200.0, sigma = 0.5, spike = 5.0 * median * exp(sigma * Z999);
    llmm_spike *d = mkd();
    uint64_t x = 77, normal = 0, normal_over = 0, normal_l2 = 0, injected = 0;
    double r;
    (void)state;
    for (uint64_t i = 0; i < 200000; i++) {
        uint64_t t = i * MS + rng_next(&x) % (500 * US);
        int inject = i % 5000 == 4999;
        double v = inject ? spike : lognormal(&x, median, sigma);
        llmm_spike_level lv = obs(d, t, v);
        if (t < SEC) {
            assert_int_equal(lv, LLMM_SPIKE_NONE); /* warming up */
            continue;
        }
        if (inject) {
            assert_int_equal(lv, LLMM_SPIKE_LEVEL2);
            injected++;
        } else if (t >= 60 * SEC) { /* steady state: a full window behind */
            normal++;
            normal_over += lv != LLMM_SPIKE_NONE;
            normal_l2 += lv == LLMM_SPIKE_LEVEL2;
        }
    }
    assert_true(injected == 40);
    assert_true(normal > 139000);
    assert_close((double)normal_over / (double)normal, 0.01, 0.15, 0);
    assert_true((double)normal_l2 / (double)normal < 0.001);
    assert_ok(llmm_spike_rate(d, 200 * SEC, &r));
    assert_close(r, 0.01, 0.2, 0);
    llmm_spike_free(d);
}

static void test_sustained_slowdown(void **state)
{
    /* 120 s at median 200 ms, σ 0.25, then every latency 3× for 130 s (1000 samples/s). A slow
     * sample is above the normal P99 with probability P(z > 2.326 − ln 3 / 0.25) = 98 %. Each
     * slot close then lets the baselines take in one more slow second: the slow share of the
     * 59 s baseline passes 1 % after the first, so P99 climbs into the slow distribution and
     * the per-second share falls roughly like 0.59 / k. Over the 60 s window the rate is about
     * (0.01 · 55 000 + 980 + 590 + 295 + 197 + 148) / 60 000 ≈ 4.6 % at 5 s into the slowdown,
     * against 1 % before it, and back near 1 % once the window holds only slow seconds. */
    const uint64_t T = 120 * SEC;
    llmm_spike *d = mkd();
    uint64_t x = 5, first_second = 0, first_second_over = 0;
    double before, during, after;
    (void)state;
    for (uint64_t i = 0; i < 250000; i++) {
        uint64_t t = i * MS;
        double v = lognormal(&x, 200.0, 0.25) * (t >= T ? 3.0 : 1.0);
        llmm_spike_level lv;
        if (t == T)
            assert_ok(llmm_spike_rate(d, t, &before));
        if (t == T + 5 * SEC)
            assert_ok(llmm_spike_rate(d, t, &during));
        lv = obs(d, t, v);
        if (t >= T && t < T + SEC) {
            first_second++;
            first_second_over += lv != LLMM_SPIKE_NONE;
        }
    }
    assert_ok(llmm_spike_rate(d, 250 * SEC - 1, &after));
    assert_close(before, 0.01, 0.3, 0);
    assert_true(first_second == 1000);
    assert_true(first_second_over > 950);
    assert_true(during > 0.03);
    assert_true(during > 3.0 * before);
    assert_close(after, 0.01, 0.3, 0);
    llmm_spike_free(d);
}

/* ---- bad input changes nothing ----------------------------------------------------------- */

static void test_bad_input_changes_nothing(void **state)
{
    llmm_spike *d = mkd();
    llmm_spike_stats before, after, s;
    llmm_spike_level lv = (llmm_spike_level)7;
    uint64_t x = 9, t = 0;
    double r0, r1, r = -1;
    (void)state;
    for (int i = 0; i < 3000; i++, t += MS)
        obs(d, t, lognormal(&x, 10.0, 0.5));
    t -= MS;
    before = stats(d, t);
    assert_ok(llmm_spike_rate(d, t, &r0));

    assert_status(llmm_spike_observe(d, t, NAN, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, t, INFINITY, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, t, -INFINITY, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, t, -1e-9, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, t - 1, 10.0, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, 0, 10.0, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(NULL, t, 10.0, &lv), LLMM_E_INVALID);
    assert_status(llmm_spike_observe(d, t + 10 * SEC, NAN, &lv), LLMM_E_INVALID);
    assert_true(lv == (llmm_spike_level)7);
    assert_status(llmm_spike_rate(d, t - 1, &r), LLMM_E_INVALID);
    assert_status(llmm_spike_rate(d, t, NULL), LLMM_E_INVALID);
    assert_status(llmm_spike_rate(NULL, t, &r), LLMM_E_INVALID);
    assert_status(llmm_spike_rate(d, t + 100 * SEC, &r), LLMM_E_EMPTY);
    assert_true(r == -1);
    assert_ok(llmm_spike_stats_init(&s));
    assert_status(llmm_spike_get_stats(d, t - 1, &s), LLMM_E_INVALID);
    assert_status(llmm_spike_get_stats(d, t, NULL), LLMM_E_INVALID);
    assert_status(llmm_spike_get_stats(NULL, t, &s), LLMM_E_INVALID);
    s.struct_size = 8;
    assert_status(llmm_spike_get_stats(d, t + SEC, &s), LLMM_E_ABI);
    s.struct_size = sizeof s + 8;
    assert_status(llmm_spike_get_stats(d, t + SEC, &s), LLMM_E_ABI);
    assert_status(llmm_spike_stats_init(NULL), LLMM_E_INVALID);
    assert_status(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 10), LLMM_E_STATE);
    assert_status(llmm_spike_set_f64(d, LLMM_SPIKE_BASE_QUANTILE, 1.0), LLMM_E_RANGE);

    /* same counts, baselines and clock: the last time stamp is still accepted */
    after = stats(d, t);
    assert_memory_equal(&before, &after, sizeof before);
    assert_ok(llmm_spike_rate(d, t, &r1));
    assert_true(r0 == r1);
    assert_ok(llmm_spike_observe(d, t, 10.0, NULL)); /* level is nullable */
    llmm_spike_free(d);
}

/* ---- allocation failures ----------------------------------------------------------------- */

static llmm_status step_new(llmm_ctx *ctx, void *arg)
{
    llmm_spike *d = (llmm_spike *)0x1;
    llmm_status st = llmm_spike_new(ctx, &d);
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(d);
        return st;
    }
    llmm_spike_free(d);
    return LLMM_OK;
}

static void test_new_failing_allocator(void **state)
{
    (void)state;
    /* the detector, its counts, the window (struct, ring, ids, 62 sketches), the accumulator */
    assert_true(llmm_test_each_failure(step_new, NULL) >= 65);
}

/* A stream over 4 slots of 100 ms with a widening distribution (new buckets keep being
 * touched). Every failed call must change nothing; retrying it succeeds, and the whole run
 * must give exactly the verdicts and counts of a run without failures. */
enum { REC_N = 3000 };
typedef struct rec_ref {
    llmm_spike_level lv[REC_N];
    llmm_spike_stats end;
    int have;
} rec_ref;

static uint64_t rec_time(size_t i)
{
    return (uint64_t)i * 250 * US + (i > 2000 ? 2 * SEC : 0); /* 400 per slot, then a gap */
}

static llmm_status step_stream(llmm_ctx *ctx, void *arg)
{
    rec_ref *ref = (rec_ref *)arg;
    llmm_spike *d = NULL;
    llmm_spike_stats s0, s1;
    uint64_t x = 31, u;
    llmm_status st;
    int failed = 0;

    st = llmm_spike_new(ctx, &d);
    if (st != LLMM_OK)
        return st;
    st = llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, 100 * MS);
    if (st == LLMM_OK)
        st = llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, 4);
    if (st != LLMM_OK) {
        assert_int_equal(st, LLMM_E_NOMEM);
        llmm_spike_get_u64(d, LLMM_SPIKE_SLOTS, &u);
        assert_true(u == 60 || u == 4);
        llmm_spike_free(d);
        return st;
    }
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 50));
    for (size_t i = 0; i < REC_N; i++) {
        uint64_t t = rec_time(i);
        double v = lognormal(&x, 1.0, 0.2 + (double)i / 500.0);
        llmm_spike_level lv;
        s0 = stats(d, i ? rec_time(i - 1) : 0);
        st = llmm_spike_observe(d, t, v, &lv);
        if (st != LLMM_OK) {
            assert_int_equal(st, LLMM_E_NOMEM);
            failed = 1;
            s1 = stats(d, i ? rec_time(i - 1) : 0);
            assert_memory_equal(&s0, &s1, sizeof s0);
            assert_ok(llmm_spike_observe(d, t, v, &lv)); /* only one allocation fails */
        }
        if (ref->have)
            assert_int_equal(lv, ref->lv[i]);
        else
            ref->lv[i] = lv;
    }
    s0 = stats(d, rec_time(REC_N - 1) + 50 * MS);
    if (ref->have)
        assert_memory_equal(&s0, &ref->end, sizeof s0);
    else
        ref->end = s0;
    llmm_spike_free(d);
    return failed ? LLMM_E_NOMEM : LLMM_OK;
}

static void test_stream_survives_allocation_failures(void **state)
{
    static rec_ref ref;
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    (void)state;
    ref.have = 0;
    assert_ok(step_stream(ctx, &ref)); /* the reference run */
    llmm_ctx_free(ctx);
    ref.have = 1;
    assert_true(ref.end.total_classified > 2000);
    assert_true(ref.end.total_level1 + ref.end.total_level2 > 20);
    assert_true(llmm_test_each_failure(step_stream, &ref) > 70);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_option_bounds),
        cmocka_unit_test(test_geometry_only_before_first_time_stamp),
        cmocka_unit_test(test_hand_built_levels),
        cmocka_unit_test(test_warmup_boundary),
        cmocka_unit_test(test_quiet_period_rewarms),
        cmocka_unit_test(test_levels_match_exact_reference),
        cmocka_unit_test(test_injected_spikes_and_steady_state),
        cmocka_unit_test(test_sustained_slowdown),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_new_failing_allocator),
        cmocka_unit_test(test_stream_survives_allocation_failures),
    };
    return cmocka_run_group_tests_name("detect", tests, NULL, NULL);
}
