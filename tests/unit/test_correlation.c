/* Correlation (doc/spec.md §6): Pearson and Spearman against closed forms worked out by hand with
 * exact fractions (shown in the comments), Anscombe's published quartet, invariances, ties. */
#include "helpers.h"

static double corr(const double *x, const double *y, size_t n, llmm_correlation_method m)
{
    double r = NAN;
    assert_ok(llmm_correlation(NULL, x, y, n, m, &r));
    assert_true(r >= -1.0 && r <= 1.0);
    return r;
}

#define PEARSON LLMM_CORRELATION_PEARSON
#define SPEARMAN LLMM_CORRELATION_SPEARMAN

/* doc/spec.md §6: scheduler jitter 5 / 25 / 50 µs; NUMA-binding failures 1.2 / 37.6 / 89.3 %;
 * P99 spike rates 0.8 / 22.4 / 68.1 %.
 *
 * By hand, with exact fractions: jitter mean 80/3, deviations −65/3, −5/3, 70/3, so
 * Sxx = (65² + 5² + 70²)/9 = 3050/3.
 * NUMA mean 42.7, deviations −41.5, −5.1, 46.6: Syy = 1722.25 + 26.01 + 2171.56 = 195991/50;
 * Sxy = (65·41.5 + 5·5.1 + 70·46.6)/3 = 5985/3 = 1995.
 * Spikes mean 913/30, deviations −889/30, −241/30, 1130/30:
 * Szz = (889² + 241² + 1130²)/900 = 354217/150; Sxz = (65·889 + 5·241 + 70·1130)/90 = 4603/3.
 * NUMA vs spikes: Syz = Σ (−41.5·−889 + −5.1·−241 + 46.6·1130)/30 = 151301/50.
 * r = S_ab / √(S_aa·S_bb): 0.99936, 0.99024 and 0.99460. All three series rise together,
 * so Spearman's ρ is exactly 1. */
static void test_spec_jitter_table(void **state)
{
    const double jitter[] = {5, 25, 50};
    const double numa[] = {1.2, 37.6, 89.3};
    const double spikes[] = {0.8, 22.4, 68.1};
    const double sxx = 3050.0 / 3.0, syy = 195991.0 / 50.0, szz = 354217.0 / 150.0;
    double r;
    (void)state;

    r = corr(jitter, numa, 3, PEARSON);
    assert_close(r, 1995.0 / sqrt(sxx * syy), 1e-14, 0);
    assert_true(r > 0.9);
    r = corr(jitter, spikes, 3, PEARSON);
    assert_close(r, (4603.0 / 3.0) / sqrt(sxx * szz), 1e-14, 0);
    assert_true(r > 0.9);
    r = corr(numa, spikes, 3, PEARSON);
    assert_close(r, (151301.0 / 50.0) / sqrt(syy * szz), 1e-14, 0);
    assert_true(r > 0.9);
    assert_true(corr(jitter, numa, 3, SPEARMAN) == 1.0);
    assert_true(corr(jitter, spikes, 3, SPEARMAN) == 1.0);
    assert_true(corr(numa, spikes, 3, SPEARMAN) == 1.0);
    /* symmetric in its arguments */
    assert_close(corr(numa, jitter, 3, PEARSON), 1995.0 / sqrt(sxx * syy), 1e-14, 0);
}

/* Anscombe's quartet, set I (Anscombe 1973, published r = 0.816). Exact: Sxx = 110,
 * Syy = 1134999/27500, Sxy = 5501/100. No ties in x or y, so Spearman's ρ is
 * 1 − 6Σd²/(n(n² − 1)) with rank differences giving Σd² = 40: ρ = 1 − 240/1320 = 9/11. */
static void test_anscombe(void **state)
{
    const double x[] = {10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5};
    const double y[] = {8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68};
    double r;
    (void)state;
    r = corr(x, y, 11, PEARSON);
    assert_close(r, 55.01 / sqrt(110.0 * 1134999.0 / 27500.0), 1e-14, 0);
    assert_close(r, 0.816, 0, 5e-4);
    assert_close(corr(x, y, 11, SPEARMAN), 9.0 / 11.0, 1e-14, 0);
}

static void test_exact_lines_and_scale_invariance(void **state)
{
    enum { N = 100 };
    double x[N], y[N], xs[N], ys[N];
    double r0;
    (void)state;

    for (int i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 3.0 - 2.0 * i;
    }
    assert_close(corr(x, y, N, PEARSON), -1.0, 1e-15, 0);
    assert_true(corr(x, y, N, SPEARMAN) == -1.0);
    assert_close(corr(x, x, N, PEARSON), 1.0, 1e-15, 0);

    /* two points always give ±1 */
    assert_close(corr(x, y, 2, PEARSON), -1.0, 1e-15, 0);

    /* a curved but monotone relation: Spearman 1, Pearson below 1 */
    for (int i = 0; i < N; i++)
        y[i] = exp(0.1 * i);
    assert_true(corr(x, y, N, SPEARMAN) == 1.0);
    r0 = corr(x, y, N, PEARSON);
    assert_true(r0 < 0.9 && r0 > 0.5);

    /* r does not change under scaling and offset: huge, tiny, subnormal and shifted data */
    for (int i = 0; i < N; i++)
        y[i] = sin(0.37 * i) + 0.01 * i;
    r0 = corr(x, y, N, PEARSON);
    const double scales[] = {1e300, 1e-300, 0x1p-1000, 0x1p+1000, 3.0};
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        for (int i = 0; i < N; i++) {
            xs[i] = x[i] * scales[s];
            ys[i] = y[i] * scales[s];
        }
        assert_close(corr(xs, ys, N, PEARSON), r0, 1e-13, 0);
        assert_close(corr(xs, y, N, SPEARMAN), corr(x, y, N, SPEARMAN), 1e-15, 0);
    }
    /* subnormal data: integer multiples of the smallest subnormal are exact */
    for (int i = 0; i < N; i++) {
        ys[i] = (double)((i * 37) % 101);
        xs[i] = x[i] * 0x1p-1074;
        y[i] = ys[i] * 0x1p-1074;
    }
    assert_close(corr(xs, y, N, PEARSON), corr(x, ys, N, PEARSON), 1e-13, 0);
    /* large values far above the spread: 10^9 + small */
    for (int i = 0; i < N; i++)
        y[i] = sin(0.37 * i) + 0.01 * i;
    for (int i = 0; i < N; i++) {
        xs[i] = 1e9 + x[i];
        ys[i] = -1e9 + y[i];
    }
    assert_close(corr(xs, ys, N, PEARSON), r0, 1e-9, 0);
    /* values near the top of the double range */
    for (int i = 0; i < N; i++) {
        xs[i] = 1e307 * (1.0 + 0.001 * x[i]);
        ys[i] = -1e307 * y[i];
    }
    assert_close(corr(xs, ys, N, PEARSON), -r0, 1e-12, 0);
}

/* Long double reference over a random stream. */
static void test_pearson_against_long_double(void **state)
{
    enum { N = 10000 };
    static double x[N], y[N];
    uint64_t s = 12345;
    long double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    (void)state;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        y[i] = 0.3 * x[i] + (double)(s >> 11) / 9007199254740992.0;
        mx += x[i];
        my += y[i];
    }
    mx /= N;
    my /= N;
    for (int i = 0; i < N; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    assert_close(corr(x, y, N, PEARSON), (double)(sxy / sqrtl(sxx * syy)), 1e-13, 0);
}

static void test_spearman_ties_averaged(void **state)
{
    double r;
    (void)state;
    {
        /* x ranks 1, 2.5, 2.5, 4 (the tie shares ranks 2 and 3); y ranks 1 … 4. Both means
         * 2.5; deviations −1.5, 0, 0, 1.5 and −1.5, −0.5, 0.5, 1.5: Sxy = 4.5, Sxx = 4.5,
         * Syy = 5, ρ = 4.5/√22.5 = 3/√10. */
        const double x[] = {1, 2, 2, 3}, y[] = {1, 2, 3, 4};
        assert_close(corr(x, y, 4, SPEARMAN), 3.0 / sqrt(10.0), 1e-15, 0);
    }
    {
        /* digits of π and e, with many ties; ranks assigned by hand:
         * x = 3 1 4 1 5 9 2 6 5 3 5, sorted 1 1 2 3 3 4 5 5 5 6 9:
         *   1 → 1.5, 2 → 3, 3 → 4.5, 4 → 6, 5 → 8, 6 → 10, 9 → 11;
         * y = 2 7 1 8 2 8 1 8 2 8 4, sorted 1 1 2 2 2 4 7 8 8 8 8:
         *   1 → 1.5, 2 → 4, 4 → 6, 7 → 7, 8 → 9.5.
         * Spearman's ρ is Pearson's r of those ranks. */
        const double x[] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
        const double y[] = {2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4};
        const double rx[] = {4.5, 1.5, 6, 1.5, 8, 11, 3, 10, 8, 4.5, 8};
        const double ry[] = {4, 7, 1.5, 9.5, 4, 9.5, 1.5, 9.5, 4, 9.5, 6};
        r = corr(x, y, 11, SPEARMAN);
        assert_close(r, corr(rx, ry, 11, PEARSON), 1e-15, 0);
        /* and that r from the hand ranks, in closed form: mean rank 6 for both;
         * Σ(rx−6)(ry−6) = 14.5, Σ(rx−6)² = 107, Σ(ry−6)² = 102.5 */
        assert_close(r, 14.5 / sqrt(107.0 * 102.5), 1e-14, 0);
    }
}

static void test_spearman_permutation_formula(void **state)
{
    enum { N = 50 };
    double x[N], y[N];
    uint64_t s = 99;
    double d2 = 0;
    (void)state;
    for (int i = 0; i < N; i++) {
        x[i] = i + 1;
        y[i] = i + 1;
    }
    for (int i = N - 1; i > 0; i--) { /* Fisher–Yates */
        int j;
        double t;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        j = (int)((s >> 33) % (uint64_t)(i + 1));
        t = y[i];
        y[i] = y[j];
        y[j] = t;
    }
    for (int i = 0; i < N; i++)
        d2 += (x[i] - y[i]) * (x[i] - y[i]);
    /* ρ = 1 − 6Σd²/(n(n² − 1)) when there are no ties; monotone maps of either series keep it */
    assert_close(corr(x, y, N, SPEARMAN), 1.0 - 6.0 * d2 / (N * (N * N - 1.0)), 1e-14, 0);
    for (int i = 0; i < N; i++)
        y[i] = log(y[i]) - 7.0;
    assert_close(corr(x, y, N, SPEARMAN), 1.0 - 6.0 * d2 / (N * (N * N - 1.0)), 1e-14, 0);
}

static void test_bad_input(void **state)
{
    const double x[] = {1, 2, 3}, y[] = {3, 1, 2}, flat[] = {4, 4, 4};
    double bad[] = {1, NAN, 3};
    double r = 42.0;
    (void)state;
    for (int m = PEARSON; m <= SPEARMAN; m++) {
        llmm_correlation_method mm = (llmm_correlation_method)m;
        assert_status(llmm_correlation(NULL, NULL, y, 3, mm, &r), LLMM_E_INVALID);
        assert_status(llmm_correlation(NULL, x, NULL, 3, mm, &r), LLMM_E_INVALID);
        assert_status(llmm_correlation(NULL, x, y, 3, mm, NULL), LLMM_E_INVALID);
        assert_status(llmm_correlation(NULL, x, bad, 3, mm, &r), LLMM_E_INVALID);
        assert_status(llmm_correlation(NULL, bad, y, 3, mm, &r), LLMM_E_INVALID);
        bad[1] = INFINITY;
        assert_status(llmm_correlation(NULL, x, bad, 3, mm, &r), LLMM_E_INVALID);
        bad[1] = -INFINITY;
        assert_status(llmm_correlation(NULL, bad, y, 3, mm, &r), LLMM_E_INVALID);
        bad[1] = NAN;
        assert_status(llmm_correlation(NULL, x, y, 0, mm, &r), LLMM_E_EMPTY);
        assert_status(llmm_correlation(NULL, x, y, 1, mm, &r), LLMM_E_EMPTY);
        assert_status(llmm_correlation(NULL, flat, y, 3, mm, &r), LLMM_E_RANGE);
        assert_status(llmm_correlation(NULL, x, flat, 3, mm, &r), LLMM_E_RANGE);
    }
    assert_status(llmm_correlation(NULL, x, y, 3, (llmm_correlation_method)0, &r),
                  LLMM_E_INVALID);
    assert_status(llmm_correlation(NULL, x, y, 3, (llmm_correlation_method)3, &r),
                  LLMM_E_INVALID);
    assert_true(r == 42.0);
}

typedef struct corr_arg {
    const double *x, *y;
    size_t n;
    double expect;
} corr_arg;

static llmm_status step_spearman(llmm_ctx *ctx, void *arg)
{
    corr_arg *a = arg;
    double r = 42.0;
    llmm_status st = llmm_correlation(ctx, a->x, a->y, a->n, SPEARMAN, &r);
    if (st == LLMM_OK)
        assert_close(r, a->expect, 1e-14, 0);
    else
        assert_true(r == 42.0);
    return st;
}

static void test_failing_allocator(void **state)
{
    const double x[] = {10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5};
    const double y[] = {8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68};
    corr_arg a = {x, y, 11, 9.0 / 11.0};
    llmm_test_alloc t;
    llmm_ctx *ctx;
    double r;
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_spearman, &a), 1);
    /* Pearson allocates nothing: it succeeds with an allocator that fails every call */
    ctx = llmm_test_ctx(&t, 1);
    assert_ok(llmm_correlation(ctx, x, y, 11, PEARSON, &r));
    assert_int_equal(t.calls, 1); /* only the ctx itself */
    llmm_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_jitter_table),
        cmocka_unit_test(test_anscombe),
        cmocka_unit_test(test_exact_lines_and_scale_invariance),
        cmocka_unit_test(test_pearson_against_long_double),
        cmocka_unit_test(test_spearman_ties_averaged),
        cmocka_unit_test(test_spearman_permutation_formula),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests_name("correlation", tests, NULL, NULL);
}
