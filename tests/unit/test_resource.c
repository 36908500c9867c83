/* Resource module: load imbalance index (batch and streaming), KV-cache formulas, OOM
 * precursors. Reference values are doc/spec.md §8's, hand-computed ones (in comments), or those of
 * the Python expressions the seed defines (int(), max()), evaluated with CPython. */
#include "helpers.h"

#define TOL 1e-12

/* ---- batch LII ------------------------------------------------------------------------- */

static void test_lii_batch(void **state)
{
    double lii = -1.0;
    (void)state;
    {
        /* means 0.7 and 0.3 → 0.4 / 0.7 = 4/7 */
        const double cpu[] = {0.8, 0.6}, gpu[] = {0.4, 0.2};
        assert_ok(llmm_lii(cpu, gpu, 2, &lii));
        assert_close(lii, 4.0 / 7.0, TOL, 0);
        /* symmetric in cpu and gpu */
        assert_ok(llmm_lii(gpu, cpu, 2, &lii));
        assert_close(lii, 4.0 / 7.0, TOL, 0);
    }
    {
        const double u[] = {0.3, 0.9, 0.0, 1.0};
        assert_ok(llmm_lii(u, u, 4, &lii));
        assert_true(lii == 0.0);
    }
    {
        /* idle on both sides: the 1e-6 floor gives 0, not NaN */
        const double z[] = {0.0, 0.0, 0.0};
        assert_ok(llmm_lii(z, z, 3, &lii));
        assert_true(lii == 0.0);
        /* one side idle: 1 */
        const double g[] = {0.5, 0.25, 0.75};
        assert_ok(llmm_lii(z, g, 3, &lii));
        assert_true(lii == 1.0);
        /* below the floor: 1e-7 / 1e-6 = 0.1 */
        const double tiny[] = {1e-7};
        assert_ok(llmm_lii(z, tiny, 1, &lii));
        assert_close(lii, 0.1, TOL, 0);
    }
    {
        /* exact binary fractions land on the thresholds exactly: 0.125 / 0.625 = 0.2 */
        const double cpu[] = {0.625, 0.625}, gpu[] = {0.5, 0.5};
        assert_ok(llmm_lii(cpu, gpu, 2, &lii));
        assert_true(lii == 0.2);
    }
    /* bad input: nothing written */
    lii = -1.0;
    const double ok[] = {0.5, 0.5};
    const double above[] = {0.5, 1.0000001}, below[] = {-1e-12, 0.5};
    const double nan_[] = {0.5, NAN}, inf_[] = {INFINITY, 0.5};
    assert_status(llmm_lii(ok, above, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(below, ok, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(ok, nan_, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(inf_, ok, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(NULL, ok, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(ok, NULL, 2, &lii), LLMM_E_INVALID);
    assert_status(llmm_lii(ok, ok, 2, NULL), LLMM_E_INVALID);
    assert_status(llmm_lii(ok, ok, 0, &lii), LLMM_E_EMPTY);
    assert_true(lii == -1.0);
}

/* ---- streaming LII ----------------------------------------------------------------------- */

static llmm_lii_reading read_now(const llmm_lii_monitor *m)
{
    llmm_lii_reading r;
    assert_ok(llmm_lii_reading_init(&r));
    assert_ok(llmm_lii_monitor_read(m, &r));
    return r;
}

/* Fill a monitor with one repeated sample, then read it. */
static llmm_lii_reading steady(llmm_lii_monitor *m, double cpu, double gpu)
{
    assert_ok(llmm_lii_monitor_reset(m));
    for (int i = 0; i < 5; i++)
        assert_ok(llmm_lii_monitor_add(m, cpu, gpu));
    return read_now(m);
}

static void test_lii_tiers_at_boundaries(void **state)
{
    llmm_lii_monitor *m;
    llmm_lii_reading r;
    (void)state;
    assert_ok(llmm_lii_monitor_new(NULL, 4, &m));
    /* 0.0625 / 0.625 = 0.1: keep, no scaling */
    r = steady(m, 0.625, 0.5625);
    assert_close(r.lii, 0.1, TOL, 0);
    assert_int_equal(r.tier, LLMM_LII_KEEP);
    assert_int_equal(r.scale, 0);
    assert_int_equal(r.samples, 4);
    /* exactly 0.2: the lower bound belongs to the prefetch tier */
    r = steady(m, 0.625, 0.5);
    assert_true(r.lii == 0.2);
    assert_int_equal(r.tier, LLMM_LII_PREFETCH);
    assert_int_equal(r.scale, 0);
    r = steady(m, 0.5, 0.625); /* GPU busier: same index */
    assert_true(r.lii == 0.2);
    assert_int_equal(r.tier, LLMM_LII_PREFETCH);
    /* exactly 0.3: still prefetch, and the scaling trigger fires (≥) */
    r = steady(m, 0.625, 0.4375);
    assert_true(r.lii == 0.3);
    assert_int_equal(r.tier, LLMM_LII_PREFETCH);
    assert_int_equal(r.scale, 1);
    /* exactly 0.4: adapt */
    r = steady(m, 0.625, 0.375);
    assert_true(r.lii == 0.4);
    assert_int_equal(r.tier, LLMM_LII_ADAPT);
    assert_int_equal(r.scale, 1);
    /* 1: adapt */
    r = steady(m, 0.0, 1.0);
    assert_true(r.lii == 1.0);
    assert_int_equal(r.tier, LLMM_LII_ADAPT);
    /* moving a threshold one ulp above the value moves the value down a tier */
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_PREFETCH_AT, nextafter(0.2, 1.0)));
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, nextafter(0.3, 1.0)));
    r = steady(m, 0.625, 0.5);
    assert_int_equal(r.tier, LLMM_LII_KEEP);
    r = steady(m, 0.625, 0.4375);
    assert_int_equal(r.scale, 0);
    llmm_lii_monitor_free(m);
}

/* A fixed-seed generator for utilisations in [0, 1]. */
static uint64_t lcg_state;
static double next_util(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0; /* [0, 1) */
}

/* Feed n random samples to a monitor of window w and compare every few reads with the means
 * recomputed from the last w samples kept by the test. */
static void check_sliding(uint32_t w, size_t n, size_t check_every)
{
    llmm_lii_monitor *m;
    uint32_t eff = w ? w : 64;
    double *cpu = calloc(n, sizeof *cpu), *gpu = calloc(n, sizeof *gpu);
    assert_non_null(cpu);
    assert_non_null(gpu);
    assert_ok(llmm_lii_monitor_new(NULL, w, &m));
    lcg_state = 12345;
    for (size_t i = 0; i < n; i++) {
        cpu[i] = next_util();
        gpu[i] = next_util() * 0.5; /* GPU less busy: a visible imbalance */
        assert_ok(llmm_lii_monitor_add(m, cpu[i], gpu[i]));
        if (i % check_every != 0 && i != n - 1)
            continue;
        size_t k = i + 1 < eff ? i + 1 : eff;
        double sc = 0, sg = 0;
        for (size_t j = i + 1 - k; j <= i; j++) {
            sc += cpu[j];
            sg += gpu[j];
        }
        double mc = sc / (double)k, mg = sg / (double)k;
        double hi = fmax(fmax(mc, mg), 1e-6);
        llmm_lii_reading r = read_now(m);
        assert_int_equal(r.samples, k);
        assert_close(r.mean_cpu, mc, 1e-12, 1e-15);
        assert_close(r.mean_gpu, mg, 1e-12, 1e-15);
        assert_close(r.lii, fabs(mc - mg) / hi, 1e-11, 1e-14);
    }
    llmm_lii_monitor_free(m);
    free(cpu);
    free(gpu);
}

static void test_lii_sliding_window(void **state)
{
    (void)state;
    check_sliding(0, 300, 1);      /* default window 64 */
    check_sliding(1, 50, 1);       /* a window of one sample */
    check_sliding(7, 100, 1);
    check_sliding(64, 1000000, 9973); /* long run: no drift in the running sums */
}

static void test_lii_options(void **state)
{
    llmm_lii_monitor *m;
    llmm_lii_reading r;
    double v;
    (void)state;
    assert_ok(llmm_lii_monitor_new(NULL, 0, &m));
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_PREFETCH_AT, &v));
    assert_true(v == 0.2);
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_ADAPT_AT, &v));
    assert_true(v == 0.4);
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_SCALE_AT, &v));
    assert_true(v == 0.3);
    /* out of [0, 1], misordered, unknown, not finite: refused, nothing changes */
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, 1.5), LLMM_E_RANGE);
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, -0.1), LLMM_E_RANGE);
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_PREFETCH_AT, 0.5), LLMM_E_RANGE);
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_ADAPT_AT, 0.1), LLMM_E_RANGE);
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_ADAPT_AT, NAN), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_set_f64(m, LLMM_LII_ADAPT_AT, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_set_f64(m, (llmm_lii_option)3, 0.5), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_lii_monitor_set_f64(NULL, LLMM_LII_ADAPT_AT, 0.5), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_get_f64(m, (llmm_lii_option)-1, &v), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_lii_monitor_get_f64(m, LLMM_LII_ADAPT_AT, NULL), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_get_f64(NULL, LLMM_LII_ADAPT_AT, &v), LLMM_E_INVALID);
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_PREFETCH_AT, &v));
    assert_true(v == 0.2);
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_ADAPT_AT, &v));
    assert_true(v == 0.4);
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_SCALE_AT, &v));
    assert_true(v == 0.3);
    /* raise both tiers (adapt first), scaling at 0.7: LII 0.6 → prefetch, no scaling */
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_ADAPT_AT, 0.9));
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_PREFETCH_AT, 0.5));
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, 0.7));
    r = steady(m, 1.0, 0.4); /* 0.6 / 1 */
    assert_close(r.lii, 0.6, TOL, 0);
    assert_int_equal(r.tier, LLMM_LII_PREFETCH);
    assert_int_equal(r.scale, 0);
    /* equal tier bounds are allowed: the prefetch tier is then empty */
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_PREFETCH_AT, 0.9));
    r = steady(m, 1.0, 0.05); /* 0.95 */
    assert_int_equal(r.tier, LLMM_LII_ADAPT);
    assert_int_equal(r.scale, 1);
    /* the extremes are allowed */
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_ADAPT_AT, 1.0));
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, 0.0));
    r = steady(m, 0.5, 0.5);
    assert_int_equal(r.scale, 1); /* LII 0 ≥ 0 */
    llmm_lii_monitor_free(m);
}

static void test_lii_monitor_errors(void **state)
{
    llmm_lii_monitor *m;
    llmm_lii_reading r, before;
    (void)state;
    assert_status(llmm_lii_monitor_new(NULL, 4, NULL), LLMM_E_INVALID);
    m = (llmm_lii_monitor *)&r;
    assert_status(llmm_lii_monitor_new(NULL, LLMM_LII_WINDOW_MAX + 1, &m), LLMM_E_RANGE);
    assert_null(m);
    assert_ok(llmm_lii_monitor_new(NULL, LLMM_LII_WINDOW_MAX, &m));
    llmm_lii_monitor_free(m);
    llmm_lii_monitor_free(NULL);

    assert_ok(llmm_lii_monitor_new(NULL, 3, &m));
    llmm_lii_reading_init(&r);
    r.lii = 42.0;
    assert_status(llmm_lii_monitor_read(m, &r), LLMM_E_EMPTY);
    assert_true(r.lii == 42.0);
    assert_ok(llmm_lii_monitor_add(m, 0.9, 0.3));
    assert_ok(llmm_lii_monitor_add(m, 0.7, 0.5));
    before = read_now(m);
    /* means 0.8 and 0.4 → 0.5 */
    assert_close(before.lii, 0.5, TOL, 0);
    assert_status(llmm_lii_monitor_add(m, NAN, 0.5), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_add(m, 0.5, -0.01), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_add(m, 1.01, 0.5), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_add(m, 0.5, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_add(NULL, 0.5, 0.5), LLMM_E_INVALID);
    r = read_now(m);
    assert_int_equal(r.samples, 2);
    assert_true(r.lii == before.lii && r.mean_cpu == before.mean_cpu);
    /* struct_size checks */
    memset(&r, 0, sizeof r);
    assert_status(llmm_lii_monitor_read(m, &r), LLMM_E_ABI);
    r.struct_size = sizeof r + 4;
    assert_status(llmm_lii_monitor_read(m, &r), LLMM_E_ABI);
    assert_status(llmm_lii_monitor_read(m, NULL), LLMM_E_INVALID);
    assert_status(llmm_lii_monitor_read(NULL, &r), LLMM_E_INVALID);
    assert_status(llmm_lii_reading_init(NULL), LLMM_E_INVALID);
    /* reset empties the window but keeps the thresholds */
    assert_ok(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, 0.6));
    assert_ok(llmm_lii_monitor_reset(m));
    llmm_lii_reading_init(&r);
    assert_status(llmm_lii_monitor_read(m, &r), LLMM_E_EMPTY);
    double v;
    assert_ok(llmm_lii_monitor_get_f64(m, LLMM_LII_SCALE_AT, &v));
    assert_true(v == 0.6);
    assert_status(llmm_lii_monitor_reset(NULL), LLMM_E_INVALID);
    llmm_lii_monitor_free(m);
}

static llmm_status monitor_step(llmm_ctx *ctx, void *arg)
{
    llmm_lii_monitor *m;
    llmm_status st;
    (void)arg;
    st = llmm_lii_monitor_new(ctx, 16, &m);
    if (st != LLMM_OK) {
        assert_null(m);
        return st;
    }
    for (int i = 0; i < 40; i++)
        assert_ok(llmm_lii_monitor_add(m, 0.75, 0.5));
    llmm_lii_reading r = read_now(m);
    assert_close(r.lii, 1.0 / 3.0, TOL, 0); /* 0.25 / 0.75 */
    llmm_lii_monitor_free(m);
    return LLMM_OK;
}

static void test_lii_allocation_failures(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(monitor_step, NULL), 2); /* handle + ring */
}

/* ---- KV cache ---------------------------------------------------------------------------- */

static void test_kv_fragmentation(void **state)
{
    double f = -1.0;
    (void)state;
    /* an empty free list is valid and gives 0; so do zero-length extents */
    assert_ok(llmm_kv_fragmentation(NULL, 0, &f));
    assert_true(f == 0.0);
    const uint64_t zeros[] = {0, 0, 0};
    assert_ok(llmm_kv_fragmentation(zeros, 3, &f));
    assert_true(f == 0.0);
    /* one extent: no external fragmentation */
    const uint64_t one[] = {0, 10, 0};
    assert_ok(llmm_kv_fragmentation(one, 3, &f));
    assert_true(f == 0.0);
    /* 1 − 5/10, 1 − 6/10, 1 − 1/4 */
    const uint64_t two[] = {5, 5}, three[] = {6, 3, 1}, four[] = {1, 1, 1, 1};
    assert_ok(llmm_kv_fragmentation(two, 2, &f));
    assert_close(f, 0.5, TOL, 0);
    assert_ok(llmm_kv_fragmentation(three, 3, &f));
    assert_close(f, 0.4, TOL, 0);
    assert_ok(llmm_kv_fragmentation(four, 4, &f));
    assert_close(f, 0.75, TOL, 0);
    /* totals beyond 2^64 do not overflow: 1 − M / 2M; 1 − M / (M + 1) = 1 / 2^64 */
    const uint64_t big[] = {UINT64_MAX, UINT64_MAX}, skew[] = {UINT64_MAX, 1};
    assert_ok(llmm_kv_fragmentation(big, 2, &f));
    assert_close(f, 0.5, TOL, 0);
    assert_ok(llmm_kv_fragmentation(skew, 2, &f));
    assert_close(f, ldexp(1.0, -64), 1e-9, 0);
    /* bad input */
    f = -1.0;
    assert_status(llmm_kv_fragmentation(NULL, 2, &f), LLMM_E_INVALID);
    assert_status(llmm_kv_fragmentation(two, 2, NULL), LLMM_E_INVALID);
    assert_true(f == -1.0);
}

static void test_kv_evict_threshold(void **state)
{
    double t = -1.0;
    (void)state;
    /* doc/spec.md §8: f = 0.2 → 0.81, f = 0.6 → 0.73; and CPython's
     * max(0.65, 0.85 - 0.2 * 0.2) is 0.8099999999999999, which we match bit for bit */
    assert_ok(llmm_kv_evict_threshold(0.2, &t));
    assert_close(t, 0.81, TOL, 0);
    assert_true(t == 0.8099999999999999);
    assert_ok(llmm_kv_evict_threshold(0.6, &t));
    assert_close(t, 0.73, TOL, 0);
    assert_true(t == 0.73);
    /* the ends: f = 0 → 0.85, f = 1 → 0.65 (the floor) */
    assert_ok(llmm_kv_evict_threshold(0.0, &t));
    assert_true(t == 0.85);
    assert_ok(llmm_kv_evict_threshold(1.0, &t));
    assert_close(t, 0.65, TOL, 0);
    assert_true(t >= 0.65);
    assert_ok(llmm_kv_evict_threshold(0.5, &t));
    assert_close(t, 0.75, TOL, 0);
    t = -1.0;
    assert_status(llmm_kv_evict_threshold(-1e-12, &t), LLMM_E_INVALID);
    assert_status(llmm_kv_evict_threshold(1.0000001, &t), LLMM_E_INVALID);
    assert_status(llmm_kv_evict_threshold(NAN, &t), LLMM_E_INVALID);
    assert_status(llmm_kv_evict_threshold(INFINITY, &t), LLMM_E_INVALID);
    assert_status(llmm_kv_evict_threshold(0.5, NULL), LLMM_E_INVALID);
    assert_true(t == -1.0);
}

static void test_kv_ttl(void **state)
{
    /* int(128 * (1 + 0.5 * (h - 0.75))) evaluated by CPython 3 for each h. The last four are
     * the doubles next to an integer step, where the exact value is just below the integer but
     * the double expression (and so Python) rounds onto it. */
    static const struct {
        double h;
        int64_t ttl;
    } cases[] = {
        {0.75, 128}, {1.0, 144}, {0.0, 80}, /* doc/spec.md §8 */
        {0.2, 92},   {0.3, 99},  {0.5, 112}, {0.6, 118}, {0.8, 131}, {0.9, 137},
        {0x1.fffffffffffffp-7, 81}, {0x1.7ffffffffffffp-5, 83},
        {0x1.7ffffffffffffp-1, 128}, {0x1.fffffffffffffp-1, 144},
    };
    int64_t ttl = -1, prev = 0;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_ok(llmm_kv_ttl(cases[i].h, &ttl));
        if (ttl != cases[i].ttl)
            fail_msg("h = %a: ttl %lld, expected %lld", cases[i].h, (long long)ttl,
                     (long long)cases[i].ttl);
    }
    /* monotone and within [80, 144] over a sweep */
    for (int i = 0; i <= 1000; i++) {
        assert_ok(llmm_kv_ttl(i / 1000.0, &ttl));
        assert_true(ttl >= prev && ttl >= 80 && ttl <= 144);
        prev = ttl;
    }
    ttl = -1;
    assert_status(llmm_kv_ttl(-1e-12, &ttl), LLMM_E_INVALID);
    assert_status(llmm_kv_ttl(1.0000001, &ttl), LLMM_E_INVALID);
    assert_status(llmm_kv_ttl(NAN, &ttl), LLMM_E_INVALID);
    assert_status(llmm_kv_ttl(-INFINITY, &ttl), LLMM_E_INVALID);
    assert_status(llmm_kv_ttl(0.5, NULL), LLMM_E_INVALID);
    assert_true(ttl == -1);
}

static void test_kv_occupancy(void **state)
{
    llmm_kv_occupancy_result r;
    (void)state;
    assert_ok(llmm_kv_occupancy_result_init(&r));
    assert_int_equal(r.struct_size, sizeof r);
    /* B = 16, T = 100, U = 50, K = 700: block 50/100 = 0.5, token 700/1600 = 0.4375,
     * gap 100/1600 = 0.0625, wasted 800 − 700 = 100, internal 100/800 = 0.125 */
    assert_ok(llmm_kv_occupancy(16, 100, 50, 700, &r));
    assert_close(r.block_occupancy, 0.5, TOL, 0);
    assert_close(r.token_occupancy, 0.4375, TOL, 0);
    assert_close(r.gap, 0.0625, TOL, 0);
    assert_close(r.block_occupancy - r.token_occupancy, r.gap, TOL, 0);
    assert_int_equal(r.wasted_slots, 100);
    assert_close(r.internal_fragmentation, 0.125, TOL, 0);
    /* empty pool in use: all zero */
    assert_ok(llmm_kv_occupancy(16, 100, 0, 0, &r));
    assert_true(r.block_occupancy == 0.0 && r.token_occupancy == 0.0 && r.gap == 0.0);
    assert_true(r.internal_fragmentation == 0.0);
    assert_int_equal(r.wasted_slots, 0);
    /* full and tightly packed: 1, 1, no gap */
    assert_ok(llmm_kv_occupancy(16, 100, 100, 1600, &r));
    assert_true(r.block_occupancy == 1.0 && r.token_occupancy == 1.0 && r.gap == 0.0);
    /* every block holds one token: block 1, token 1/16, gap 15/16 */
    assert_ok(llmm_kv_occupancy(16, 8, 8, 8, &r));
    assert_close(r.gap, 15.0 / 16.0, TOL, 0);
    assert_close(r.internal_fragmentation, 15.0 / 16.0, TOL, 0);
    /* bad input: r untouched */
    r.gap = 42.0;
    assert_status(llmm_kv_occupancy(0, 100, 50, 0, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy(16, 0, 0, 0, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy(16, 100, 101, 0, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy(16, 100, 50, 801, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy(4, UINT64_C(1) << 63, 1, 1, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy(16, 100, 50, 700, NULL), LLMM_E_INVALID);
    assert_status(llmm_kv_occupancy_result_init(NULL), LLMM_E_INVALID);
    r.struct_size = 8;
    assert_status(llmm_kv_occupancy(16, 100, 50, 700, &r), LLMM_E_ABI);
    assert_true(r.gap == 42.0);
}

/* ---- OOM precursors ---------------------------------------------------------------------- */

static void test_page_walk(void **state)
{
    double ns = -1.0;
    (void)state;
    /* 3000 cycles / 3e9 Hz · 1e9 = 1000 ns; 2.5 cycles at 2.5 GHz = 1 ns */
    assert_ok(llmm_page_walk_ns(3000, 3e9, &ns));
    assert_close(ns, 1000.0, TOL, 0);
    assert_ok(llmm_page_walk_ns(2.5, 2.5e9, &ns));
    assert_close(ns, 1.0, TOL, 0);
    assert_ok(llmm_page_walk_ns(0, 2e9, &ns));
    assert_true(ns == 0.0);
    ns = -1.0;
    assert_status(llmm_page_walk_ns(-1, 3e9, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(NAN, 3e9, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(INFINITY, 3e9, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(100, 0, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(100, -3e9, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(100, INFINITY, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(100, NAN, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(1e300, 1e-300, &ns), LLMM_E_INVALID);
    assert_status(llmm_page_walk_ns(100, 3e9, NULL), LLMM_E_INVALID);
    assert_true(ns == -1.0);
}

static void test_tlb_presets(void **state)
{
    double rate = -1.0;
    uint64_t win = 7;
    (void)state;
    assert_int_equal(sizeof(llmm_tlb_workload), sizeof(int));
    /* doc/spec.md §8: OLTP database 12.5 % over 1 s, Java micro-service 8.2 % over 500 ms */
    assert_ok(llmm_tlb_preset(LLMM_TLB_OLTP_DATABASE, &rate, &win));
    assert_true(rate == 0.125);
    assert_int_equal(win, 1000000000);
    assert_ok(llmm_tlb_preset(LLMM_TLB_JAVA_MICROSERVICE, &rate, &win));
    assert_true(rate == 0.082);
    assert_int_equal(win, 500000000);
    rate = -1.0;
    win = 7;
    assert_status(llmm_tlb_preset((llmm_tlb_workload)2, &rate, &win), LLMM_E_INVALID);
    assert_status(llmm_tlb_preset((llmm_tlb_workload)-1, &rate, &win), LLMM_E_INVALID);
    assert_status(llmm_tlb_preset(LLMM_TLB_OLTP_DATABASE, NULL, &win), LLMM_E_INVALID);
    assert_status(llmm_tlb_preset(LLMM_TLB_OLTP_DATABASE, &rate, NULL), LLMM_E_INVALID);
    assert_true(rate == -1.0);
    assert_int_equal(win, 7);
}

/* ---- windowed monitors ------------------------------------------------------------------- */

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static llmm_kv_hit_reading kv_read(llmm_kv_hit_tracker *t, uint64_t now)
{
    llmm_kv_hit_reading r;
    assert_ok(llmm_kv_hit_reading_init(&r));
    assert_ok(llmm_kv_hit_tracker_read(t, now, &r));
    return r;
}

/* A 60 ms window is 60 slots of 1 ms: at a time in slot c (= floor(ms)) it holds the lookups
 * of slots c − 59 … c. */
static void test_kv_hit_tracker(void **state)
{
    llmm_kv_hit_tracker *t = NULL;
    llmm_kv_hit_reading r;
    (void)state;
    assert_ok(llmm_kv_hit_tracker_new(NULL, 60 * MS, &t));
    assert_ok(llmm_kv_hit_tracker_add(t, 0, 3, 4));            /* slot 0 */
    r = kv_read(t, 0);
    assert_int_equal(r.hits, 3);
    assert_int_equal(r.lookups, 4);
    assert_true(r.hit_rate == 0.75);
    assert_int_equal(r.ttl, 128); /* doc/spec.md §8: h = 0.75 → 128 */
    assert_ok(llmm_kv_hit_tracker_add(t, 10 * MS, 1, 4));      /* slot 10 */
    r = kv_read(t, 10 * MS);
    assert_true(r.hit_rate == 0.5);
    assert_int_equal(r.ttl, 112); /* int(128 · (1 + 0.5 · (0.5 − 0.75))) = int(112.0) */
    /* 59.999 ms is still slot 59: both batches */
    r = kv_read(t, 60 * MS - 1);
    assert_int_equal(r.lookups, 8);
    /* 60 ms is slot 60: slot 0 has left, 1 / 4 */
    r = kv_read(t, 60 * MS);
    assert_int_equal(r.hits, 1);
    assert_int_equal(r.lookups, 4);
    assert_true(r.hit_rate == 0.25);
    assert_int_equal(r.ttl, 96); /* int(128 · 0.75) */
    /* 70 ms (slot 70): slot 10 has left too: nothing, and the failed read changes nothing */
    llmm_kv_hit_reading e;
    assert_ok(llmm_kv_hit_reading_init(&e));
    assert_status(llmm_kv_hit_tracker_read(t, 70 * MS, &e), LLMM_E_EMPTY);
    assert_int_equal(e.lookups, 0);
    assert_ok(llmm_kv_hit_tracker_add(t, 65 * MS, 4, 4)); /* 65 ms still acceptable */
    r = kv_read(t, 70 * MS);
    assert_true(r.hit_rate == 1.0);
    assert_int_equal(r.ttl, 144); /* h = 1 → 144 */
    assert_ok(llmm_kv_hit_tracker_add(t, 70 * MS, 0, 4));
    assert_ok(llmm_kv_hit_tracker_add(t, 70 * MS, 0, 0)); /* nothing looked up: fine */
    r = kv_read(t, 70 * MS);
    assert_true(r.hit_rate == 0.5);
    llmm_kv_hit_tracker_free(t);

    /* h = 0 → 80; the default window is one minute of 1 s slots */
    assert_ok(llmm_kv_hit_tracker_new(NULL, 0, &t));
    assert_ok(llmm_kv_hit_tracker_add(t, 0, 0, 1000));
    r = kv_read(t, 59 * SEC + 999 * MS);
    assert_true(r.hit_rate == 0.0);
    assert_int_equal(r.ttl, 80);
    assert_ok(llmm_kv_hit_reading_init(&e));
    assert_status(llmm_kv_hit_tracker_read(t, 60 * SEC, &e), LLMM_E_EMPTY);
    /* reset forgets counts and clock */
    assert_ok(llmm_kv_hit_tracker_reset(t));
    assert_status(llmm_kv_hit_tracker_read(t, 0, &e), LLMM_E_EMPTY);
    assert_ok(llmm_kv_hit_tracker_add(t, 0, 1, 2));
    r = kv_read(t, 0);
    assert_true(r.hit_rate == 0.5);
    llmm_kv_hit_tracker_free(t);
    llmm_kv_hit_tracker_free(NULL);
}

static void test_kv_hit_tracker_errors(void **state)
{
    llmm_kv_hit_tracker *t = NULL;
    llmm_kv_hit_reading r;
    (void)state;
    assert_status(llmm_kv_hit_tracker_new(NULL, 0, NULL), LLMM_E_INVALID);
    t = (llmm_kv_hit_tracker *)&r;
    assert_status(llmm_kv_hit_tracker_new(NULL, UINT64_MAX - 58, &t), LLMM_E_RANGE);
    assert_null(t);
    assert_ok(llmm_kv_hit_tracker_new(NULL, UINT64_MAX - 59, &t)); /* the longest window */
    llmm_kv_hit_tracker_free(t);
    assert_ok(llmm_kv_hit_tracker_new(NULL, 7, &t)); /* shorter than 60 ns: 1 ns slots */
    assert_ok(llmm_kv_hit_tracker_add(t, 10, 1, 1));
    assert_int_equal(kv_read(t, 16).lookups, 1);
    assert_status(llmm_kv_hit_reading_init(NULL), LLMM_E_INVALID);
    assert_ok(llmm_kv_hit_reading_init(&r));
    assert_status(llmm_kv_hit_tracker_read(t, 17, &r), LLMM_E_EMPTY);
    llmm_kv_hit_tracker_free(t);

    assert_ok(llmm_kv_hit_tracker_new(NULL, SEC, &t));
    assert_ok(llmm_kv_hit_tracker_add(t, SEC, 2, 5));
    assert_status(llmm_kv_hit_tracker_add(t, SEC, 6, 5), LLMM_E_INVALID);
    assert_status(llmm_kv_hit_tracker_add(t, SEC - 1, 0, 5), LLMM_E_INVALID);
    assert_status(llmm_kv_hit_tracker_add(NULL, SEC, 0, 5), LLMM_E_INVALID);
    assert_status(llmm_kv_hit_tracker_add(t, SEC, 0, UINT64_MAX - 4), LLMM_E_RANGE);
    assert_ok(llmm_kv_hit_reading_init(&r));
    assert_status(llmm_kv_hit_tracker_read(t, SEC - 1, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_hit_tracker_read(NULL, SEC, &r), LLMM_E_INVALID);
    assert_status(llmm_kv_hit_tracker_read(t, SEC, NULL), LLMM_E_INVALID);
    r.struct_size = 4;
    assert_status(llmm_kv_hit_tracker_read(t, SEC, &r), LLMM_E_ABI);
    assert_int_equal(r.lookups, 0);
    /* none of it changed anything */
    r = kv_read(t, SEC);
    assert_int_equal(r.hits, 2);
    assert_int_equal(r.lookups, 5);
    assert_close(r.hit_rate, 0.4, TOL, 0);
    assert_ok(llmm_kv_hit_tracker_add(t, SEC, 0, UINT64_MAX - 5));
    assert_int_equal(kv_read(t, SEC).lookups, UINT64_MAX);
    assert_status(llmm_kv_hit_tracker_reset(NULL), LLMM_E_INVALID);
    llmm_kv_hit_tracker_free(t);
}

static llmm_tlb_reading tlb_read(llmm_tlb_monitor *m, uint64_t now)
{
    llmm_tlb_reading r;
    assert_ok(llmm_tlb_reading_init(&r));
    assert_ok(llmm_tlb_monitor_read(m, now, &r));
    return r;
}

/* doc/spec.md §8 presets. OLTP: 12.5 % over 1 s, 60 slots of ceil(10^9 / 60) = 16 666 667 ns.
 * Java: 8.2 % over 500 ms, 60 slots of ceil(5·10^8 / 60) = 8 333 334 ns. A miss rate equal to
 * the threshold does not alert; one above it does. */
static void test_tlb_monitor_presets(void **state)
{
    llmm_tlb_monitor *m = NULL;
    llmm_tlb_reading r;
    (void)state;
    assert_ok(llmm_tlb_monitor_new(NULL, LLMM_TLB_OLTP_DATABASE, &m));
    assert_ok(llmm_tlb_monitor_add(m, 0, 125, 1000));
    r = tlb_read(m, 0);
    assert_true(r.miss_rate == 0.125);
    assert_true(r.max_miss_rate == 0.125);
    assert_int_equal(r.window_ns, SEC);
    assert_int_equal(r.alert, 0);
    assert_ok(llmm_tlb_monitor_add(m, 500 * MS, 1, 1)); /* 126 / 1001 > 12.5 % */
    r = tlb_read(m, 500 * MS);
    assert_int_equal(r.misses, 126);
    assert_int_equal(r.accesses, 1001);
    assert_int_equal(r.alert, 1);
    /* slot 59 ends at 60 · 16 666 667 − 1 = 1 000 000 019 ns: the batch at 0 is still there */
    r = tlb_read(m, UINT64_C(1000000019));
    assert_int_equal(r.accesses, 1001);
    /* 1 000 000 020 ns is slot 60: only the batch at 500 ms, 1 / 1 */
    r = tlb_read(m, UINT64_C(1000000020));
    assert_int_equal(r.accesses, 1);
    assert_int_equal(r.alert, 1);
    /* healthy accesses: 1 / 1001 */
    assert_ok(llmm_tlb_monitor_add(m, UINT64_C(1000000020), 0, 1000));
    assert_int_equal(tlb_read(m, UINT64_C(1000000020)).alert, 0);
    llmm_tlb_monitor_free(m);

    assert_ok(llmm_tlb_monitor_new(NULL, LLMM_TLB_JAVA_MICROSERVICE, &m));
    assert_ok(llmm_tlb_monitor_add(m, 0, 82, 1000));
    r = tlb_read(m, 0);
    assert_true(r.miss_rate == 0.082);
    assert_true(r.max_miss_rate == 0.082);
    assert_int_equal(r.window_ns, 500 * MS);
    assert_int_equal(r.alert, 0);
    assert_ok(llmm_tlb_monitor_add(m, 0, 1, 1)); /* 83 / 1001 */
    assert_int_equal(tlb_read(m, 0).alert, 1);
    /* slot 59 ends at 60 · 8 333 334 − 1 = 500 000 039 ns */
    assert_int_equal(tlb_read(m, UINT64_C(500000039)).accesses, 1001);
    llmm_tlb_reading e;
    assert_ok(llmm_tlb_reading_init(&e));
    assert_status(llmm_tlb_monitor_read(m, UINT64_C(500000040), &e), LLMM_E_EMPTY);
    assert_int_equal(e.accesses, 0);
    /* reset: counts and clock go, the preset stays */
    assert_ok(llmm_tlb_monitor_reset(m));
    assert_ok(llmm_tlb_monitor_add(m, 0, 9, 100));
    r = tlb_read(m, 0);
    assert_true(r.max_miss_rate == 0.082);
    assert_int_equal(r.alert, 1);
    llmm_tlb_monitor_free(m);
    llmm_tlb_monitor_free(NULL);
}

static void test_tlb_monitor_custom(void **state)
{
    llmm_tlb_monitor *m = NULL;
    llmm_tlb_reading r;
    (void)state;
    /* 30 % over 60 ms (1 ms slots) */
    assert_ok(llmm_tlb_monitor_new_custom(NULL, 0.3, 60 * MS, &m));
    for (uint64_t k = 0; k < 100; k++) /* slot k: 1 miss in 4 accesses, 2 in 4 from slot 50 */
        assert_ok(llmm_tlb_monitor_add(m, k * MS, k < 50 ? 1 : 2, 4));
    r = tlb_read(m, 99 * MS); /* slots 40 … 99: 10 · 1 + 50 · 2 misses of 240 */
    assert_int_equal(r.misses, 110);
    assert_int_equal(r.accesses, 240);
    assert_close(r.miss_rate, 110.0 / 240.0, TOL, 0);
    assert_int_equal(r.alert, 1);
    r = tlb_read(m, 108 * MS + 999); /* slots 49 … 108: 1 + 50 · 2 */
    assert_int_equal(r.misses, 101);
    assert_int_equal(r.accesses, 204);
    llmm_tlb_monitor_free(m);
    /* the bounds 0 and 1 */
    assert_ok(llmm_tlb_monitor_new_custom(NULL, 1.0, SEC, &m));
    assert_ok(llmm_tlb_monitor_add(m, 0, 5, 5));
    assert_int_equal(tlb_read(m, 0).alert, 0); /* nothing exceeds 100 % */
    llmm_tlb_monitor_free(m);
    assert_ok(llmm_tlb_monitor_new_custom(NULL, 0.0, SEC, &m));
    assert_ok(llmm_tlb_monitor_add(m, 0, 0, 5));
    assert_int_equal(tlb_read(m, 0).alert, 0);
    assert_ok(llmm_tlb_monitor_add(m, 0, 1, 5));
    assert_int_equal(tlb_read(m, 0).alert, 1);
    llmm_tlb_monitor_free(m);
}

static void test_tlb_monitor_errors(void **state)
{
    llmm_tlb_monitor *m = NULL;
    llmm_tlb_reading r;
    (void)state;
    m = (llmm_tlb_monitor *)&r;
    assert_status(llmm_tlb_monitor_new(NULL, (llmm_tlb_workload)2, &m), LLMM_E_INVALID);
    assert_null(m);
    assert_status(llmm_tlb_monitor_new(NULL, (llmm_tlb_workload)-1, &m), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_new(NULL, LLMM_TLB_OLTP_DATABASE, NULL), LLMM_E_INVALID);
    m = (llmm_tlb_monitor *)&r;
    assert_status(llmm_tlb_monitor_new_custom(NULL, NAN, SEC, &m), LLMM_E_INVALID);
    assert_null(m);
    assert_status(llmm_tlb_monitor_new_custom(NULL, INFINITY, SEC, &m), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_new_custom(NULL, 0.1, 0, &m), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_new_custom(NULL, -0.1, SEC, &m), LLMM_E_RANGE);
    assert_status(llmm_tlb_monitor_new_custom(NULL, 1.1, SEC, &m), LLMM_E_RANGE);
    assert_status(llmm_tlb_monitor_new_custom(NULL, 0.1, UINT64_MAX - 58, &m), LLMM_E_RANGE);
    assert_status(llmm_tlb_monitor_new_custom(NULL, 0.1, SEC, NULL), LLMM_E_INVALID);
    assert_null(m);

    assert_ok(llmm_tlb_monitor_new(NULL, LLMM_TLB_OLTP_DATABASE, &m));
    assert_ok(llmm_tlb_monitor_add(m, SEC, 1, 10));
    assert_status(llmm_tlb_monitor_add(m, SEC, 11, 10), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_add(m, SEC - 1, 1, 10), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_add(NULL, SEC, 1, 10), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_add(m, SEC, 0, UINT64_MAX - 9), LLMM_E_RANGE);
    assert_ok(llmm_tlb_reading_init(&r));
    assert_status(llmm_tlb_monitor_read(m, SEC - 1, &r), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_read(NULL, SEC, &r), LLMM_E_INVALID);
    assert_status(llmm_tlb_monitor_read(m, SEC, NULL), LLMM_E_INVALID);
    r.struct_size = 12;
    assert_status(llmm_tlb_monitor_read(m, SEC, &r), LLMM_E_ABI);
    assert_int_equal(r.accesses, 0);
    r = tlb_read(m, SEC);
    assert_int_equal(r.misses, 1);
    assert_int_equal(r.accesses, 10);
    assert_status(llmm_tlb_monitor_reset(NULL), LLMM_E_INVALID);
    assert_status(llmm_tlb_reading_init(NULL), LLMM_E_INVALID);
    llmm_tlb_monitor_free(m);
}

static llmm_status kv_hit_step(llmm_ctx *ctx, void *arg)
{
    llmm_kv_hit_tracker *t = NULL;
    llmm_status st;
    (void)arg;
    st = llmm_kv_hit_tracker_new(ctx, 0, &t);
    if (st != LLMM_OK) {
        assert_null(t);
        return st;
    }
    assert_ok(llmm_kv_hit_tracker_add(t, 0, 3, 4));
    assert_int_equal(kv_read(t, 0).ttl, 128);
    llmm_kv_hit_tracker_free(t);
    return LLMM_OK;
}

static llmm_status tlb_step(llmm_ctx *ctx, void *arg)
{
    llmm_tlb_monitor *m = NULL;
    llmm_status st;
    st = arg ? llmm_tlb_monitor_new_custom(ctx, 0.5, SEC, &m)
             : llmm_tlb_monitor_new(ctx, LLMM_TLB_JAVA_MICROSERVICE, &m);
    if (st != LLMM_OK) {
        assert_null(m);
        return st;
    }
    assert_ok(llmm_tlb_monitor_add(m, 0, 1, 2));
    assert_int_equal(tlb_read(m, 0).alert, arg ? 0 : 1);
    llmm_tlb_monitor_free(m);
    return LLMM_OK;
}

static void test_monitor_allocation_failures(void **state)
{
    int custom = 1;
    (void)state;
    assert_true(llmm_test_each_failure(kv_hit_step, NULL) >= 2);
    assert_true(llmm_test_each_failure(tlb_step, NULL) >= 2);
    assert_true(llmm_test_each_failure(tlb_step, &custom) >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lii_batch),
        cmocka_unit_test(test_lii_tiers_at_boundaries),
        cmocka_unit_test(test_lii_sliding_window),
        cmocka_unit_test(test_lii_options),
        cmocka_unit_test(test_lii_monitor_errors),
        cmocka_unit_test(test_lii_allocation_failures),
        cmocka_unit_test(test_kv_fragmentation),
        cmocka_unit_test(test_kv_evict_threshold),
        cmocka_unit_test(test_kv_ttl),
        cmocka_unit_test(test_kv_occupancy),
        cmocka_unit_test(test_page_walk),
        cmocka_unit_test(test_tlb_presets),
        cmocka_unit_test(test_kv_hit_tracker),
        cmocka_unit_test(test_kv_hit_tracker_errors),
        cmocka_unit_test(test_tlb_monitor_presets),
        cmocka_unit_test(test_tlb_monitor_custom),
        cmocka_unit_test(test_tlb_monitor_errors),
        cmocka_unit_test(test_monitor_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
