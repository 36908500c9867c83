/* Sketch: mapping, recording, queries, merge / subtract / downscale, errors, allocation.
 * References: numpy nearest-rank quantiles (reference.json), exact sorting, closed forms. */
#include <float.h>

#include "helpers.h"
#include "reference_data.h"

static double rel_bound(int scale)
{
    double base = exp2(ldexp(1.0, -scale));
    return (base - 1.0) / (base + 1.0) * (1.0 + 1e-12);
}

static llmm_sketch *mk(int scale)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(NULL, scale, &s));
    return s;
}




/* ---- mapping ---------------------------------------------------------------------------- */

static void test_mapping_boundaries_every_scale(void **state)
{
    (void)state;
    LLMM_TEST_NEEDS_LONG_DOUBLE(); /* the boundaries come from exp2l */
    for (int s = LLMM_SCALE_MIN; s <= LLMM_SCALE_MAX; s++) {
        int32_t n = 1 << s, idx;
        const int octaves[] = {-1000, -40, -1, 0, 1, 17, 1000};
        for (size_t o = 0; o < sizeof octaves / sizeof *octaves; o++) {
            int e = octaves[o];
            for (int32_t k = 0; k < n; k++) {
                /* 2^(e + k/n) in 64-bit long double, then the first double above it */
                long double x = exp2l((long double)e + (long double)k / (long double)n);
                double up = (double)x;
                if ((long double)up <= x && k != 0)
                    up = nextafter(up, INFINITY);
                if (k == 0) {
                    /* exact power of two: belongs to the lower bucket */
                    assert_ok(llmm_sketch_index(s, up, &idx));
                    assert_int_equal(idx, e * n - 1);
                    assert_ok(llmm_sketch_index(s, nextafter(up, INFINITY), &idx));
                    assert_int_equal(idx, e * n);
                    continue;
                }
                assert_ok(llmm_sketch_index(s, up, &idx));
                assert_int_equal(idx, e * n + k);
                assert_ok(llmm_sketch_index(s, nextafter(up, 0.0), &idx));
                assert_int_equal(idx, e * n + k - 1);
            }
        }
    }
}

static void test_mapping_extremes(void **state)
{
    int32_t idx;
    (void)state;
    for (int s = 0; s <= 10; s++) {
        int32_t n = 1 << s;
        assert_ok(llmm_sketch_index(s, DBL_MAX, &idx));
        assert_int_equal(idx, 1024 * n - 1);
        assert_ok(llmm_sketch_index(s, DBL_MIN, &idx)); /* 2^-1022, a power of two */
        assert_int_equal(idx, -1022 * n - 1);
        assert_ok(llmm_sketch_index(s, nextafter(0.0, 1.0), &idx)); /* 2^-1074 */
        assert_int_equal(idx, -1074 * n - 1);
        assert_ok(llmm_sketch_index(s, 1.0, &idx));
        assert_int_equal(idx, -1);
        assert_ok(llmm_sketch_index(s, 2.0, &idx));
        assert_int_equal(idx, n - 1);
        /* subnormals: every power of two and its successor */
        for (int e = -1074; e < -1022; e++) {
            double p = ldexp(1.0, e);
            assert_ok(llmm_sketch_index(s, p, &idx));
            assert_int_equal(idx, e * n - 1);
            if (e > -1074 + 1) {
                double above = p + ldexp(1.0, -1074);
                int32_t expect;
                assert_ok(llmm_sketch_index(s, above, &idx));
                /* the first subnormal above 2^e lies in bucket e*n + k, k from long double */
                expect = e * n + (int32_t)floorl(log2l((long double)above / (long double)p) * n);
                assert_int_equal(idx, expect);
            }
        }
        assert_status(llmm_sketch_index(s, 0.0, &idx), LLMM_E_INVALID);
        assert_status(llmm_sketch_index(s, -1.0, &idx), LLMM_E_INVALID);
        assert_status(llmm_sketch_index(s, INFINITY, &idx), LLMM_E_INVALID);
        assert_status(llmm_sketch_index(s, NAN, &idx), LLMM_E_INVALID);
    }
    assert_status(llmm_sketch_index(11, 1.0, &idx), LLMM_E_INVALID);
    assert_status(llmm_sketch_index(-1, 1.0, &idx), LLMM_E_INVALID);
    assert_status(llmm_sketch_index(6, 1.0, NULL), LLMM_E_INVALID);
}

static void test_bucket_bounds(void **state)
{
    double lo, hi;
    int32_t idx;
    (void)state;
    assert_ok(llmm_sketch_bucket_bounds(6, 0, &lo, &hi));
    assert_true(lo == 1.0);
    assert_close(hi, exp2(1.0 / 64), 1e-15, 0);
    assert_ok(llmm_sketch_bucket_bounds(0, -1, &lo, &hi));
    assert_true(lo == 0.5 && hi == 1.0);
    assert_status(llmm_sketch_bucket_bounds(0, 1024, &lo, &hi), LLMM_E_RANGE);
    assert_status(llmm_sketch_bucket_bounds(12, 0, &lo, &hi), LLMM_E_INVALID);
    /* a bucket's own representative maps back to it */
    for (int32_t i = -500; i < 500; i += 7) {
        assert_ok(llmm_sketch_bucket_bounds(6, i, &lo, &hi));
        assert_ok(llmm_sketch_index(6, sqrt(lo * hi), &idx));
        assert_int_equal(idx, i);
    }
}

/* ---- accuracy against numpy's exact nearest-rank values ------------------------------- */

static void test_reference_quantiles(void **state)
{
    (void)state;
    for (size_t c = 0; c < REF_QUANTILES_COUNT; c++) {
        const ref_quantiles *r = &ref_quantile_cases[c];
        llmm_sketch *a = mk(6), *b = mk(6);
        double got[16], got_many[16];
        for (size_t i = 0; i < r->n; i++)
            assert_ok(llmm_sketch_add(a, r->values[i]));
        assert_ok(llmm_sketch_add_many(b, r->values, r->n));
        assert_same_sketch(a, b, 0.0);
        assert_ok(llmm_sketch_quantiles(a, r->q, r->nq, got_many));
        for (size_t j = 0; j < r->nq; j++) {
            assert_ok(llmm_sketch_quantile(a, r->q[j], &got[j]));
            assert_true(got[j] == got_many[j]);
            assert_close(got[j], r->exact[j], REL_ERR_S6, 0.0);
        }
        /* q = 0 and q = 1 are the exact min and max */
        assert_true(got[0] == r->exact[0]);
        assert_true(got[r->nq - 1] == r->exact[r->nq - 1]);
        assert_int_equal(llmm_sketch_count(a), r->n);
        llmm_sketch_free(a);
        llmm_sketch_free(b);
    }
}

static void test_every_rank_within_bound_all_scales(void **state)
{
    enum { N = 5000 };
    static double v[N], sorted[N];
    uint64_t seed = 42;
    (void)state;
    for (size_t i = 0; i < N; i++)
        v[i] = lognormal(&seed, 0.2, 2.0);
    memcpy(sorted, v, sizeof v);
    qsort(sorted, N, sizeof *sorted, cmp_dbl);
    for (int s = 0; s <= 10; s++) {
        llmm_sketch *sk = mk(s);
        assert_ok(llmm_sketch_add_many(sk, v, N));
        for (size_t r = 1; r <= N; r += 7) {
            double q = (double)r / N, got;
            assert_ok(llmm_sketch_quantile(sk, q, &got));
            assert_close(got, exact_q(sorted, N, q), rel_bound(s), 0.0);
        }
        llmm_sketch_free(sk);
    }
}

static void test_rank_rule_tolerance(void **state)
{
    /* 100 values, one per power of 1.5: quantile 0.07 is rank 7 (0.07*100 = 7.000000000000001) */
    llmm_sketch *s = mk(6);
    double got, v[100];
    (void)state;
    for (int i = 0; i < 100; i++) {
        v[i] = pow(1.5, i + 1);
        assert_ok(llmm_sketch_add(s, v[i]));
    }
    assert_ok(llmm_sketch_quantile(s, 0.07, &got));
    assert_close(got, v[6], REL_ERR_S6, 0);
    assert_ok(llmm_sketch_quantile(s, 0.071, &got));
    assert_close(got, v[7], REL_ERR_S6, 0);
    assert_ok(llmm_sketch_quantile(s, 0.0, &got));
    assert_true(got == v[0]);
    assert_ok(llmm_sketch_quantile(s, 0.01, &got));
    assert_true(got == v[0]); /* rank 1 = exact min */
    assert_ok(llmm_sketch_quantile(s, 1.0, &got));
    assert_true(got == v[99]);
    assert_ok(llmm_sketch_quantile(s, 0.995, &got));
    assert_true(got == v[99]); /* rank 100 = exact max */
    llmm_sketch_free(s);
}

static void test_quantiles_any_order(void **state)
{
    llmm_sketch *s = mk(6);
    uint64_t seed = 7;
    double q[130], out[130], one;
    (void)state;
    for (int i = 0; i < 10000; i++)
        assert_ok(llmm_sketch_add(s, lognormal(&seed, 200.0, 1.0)));
    for (int i = 0; i < 130; i++)
        q[i] = rng_unit(&seed);
    q[5] = 0.0;
    q[77] = 1.0;
    assert_ok(llmm_sketch_quantiles(s, q, 130, out));
    for (int i = 0; i < 130; i++) {
        assert_ok(llmm_sketch_quantile(s, q[i], &one));
        assert_true(one == out[i]);
    }
    q[3] = 1.5;
    out[0] = -7.0;
    assert_status(llmm_sketch_quantiles(s, q, 130, out), LLMM_E_INVALID);
    assert_true(out[0] == -7.0); /* untouched on error */
    assert_ok(llmm_sketch_quantiles(s, NULL, 0, NULL));
    llmm_sketch_free(s);
}

static void test_stats_and_rank(void **state)
{
    llmm_sketch *s = mk(6);
    double x, sum = 0.0;
    (void)state;
    assert_status(llmm_sketch_quantile(s, 0.5, &x), LLMM_E_EMPTY);
    assert_status(llmm_sketch_min(s, &x), LLMM_E_EMPTY);
    assert_status(llmm_sketch_max(s, &x), LLMM_E_EMPTY);
    assert_status(llmm_sketch_mean(s, &x), LLMM_E_EMPTY);
    assert_status(llmm_sketch_rank(s, 1.0, &x), LLMM_E_EMPTY);
    assert_ok(llmm_sketch_sum(s, &x));
    assert_true(x == 0.0);
    /* the documented summation: one double, in arrival order */
    for (int i = 1; i <= 1000; i++) {
        assert_ok(llmm_sketch_add(s, i * 0.001));
        sum += i * 0.001;
    }
    assert_ok(llmm_sketch_sum(s, &x));
    assert_true(x == sum);
    assert_ok(llmm_sketch_mean(s, &x));
    assert_true(x == sum / 1000);
    assert_ok(llmm_sketch_min(s, &x));
    assert_true(x == 0.001);
    assert_ok(llmm_sketch_max(s, &x));
    assert_true(x == 1.0);
    assert_ok(llmm_sketch_rank(s, 0.0005, &x));
    assert_true(x == 0.0);
    assert_ok(llmm_sketch_rank(s, 1.0, &x));
    assert_true(x == 1.0);
    assert_ok(llmm_sketch_rank(s, 0.5, &x));
    assert_close(x, 0.5, 0.011, 0); /* within one bucket: 0.5 +- 1.1 % of 500 values */
    assert_status(llmm_sketch_rank(s, NAN, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantile(s, -0.1, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantile(s, NAN, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantile(s, 0.5, NULL), LLMM_E_INVALID);
    assert_int_equal(llmm_sketch_count(NULL), 0);
    assert_int_equal(llmm_sketch_scale(NULL), -1);
    llmm_sketch_free(s);
}

/* ---- invalid input and the range ---------------------------------------------------------- */

static void test_invalid_values_change_nothing(void **state)
{
    const double bad[] = {NAN, -NAN, INFINITY, -INFINITY, -1.0, -DBL_MIN, -DBL_MAX};
    llmm_sketch *s = mk(6), *ref;
    double batch[4] = {1.0, 2.0, 3.0, 4.0};
    (void)state;
    /* a wide range and far-apart extremes make the fast window as large as possible */
    assert_ok(llmm_sketch_set_range(s, 1e-300, 1e300));
    assert_ok(llmm_sketch_add(s, 1e-299));
    assert_ok(llmm_sketch_add(s, 1e299));
    for (int i = 1; i < 1000; i++)
        assert_ok(llmm_sketch_add(s, i * 1.25));
    assert_ok(llmm_sketch_clone(s, &ref));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_status(llmm_sketch_add(s, bad[i]), LLMM_E_INVALID);
        assert_status(llmm_sketch_add_n(s, bad[i], 3), LLMM_E_INVALID);
        batch[2] = bad[i];
        assert_status(llmm_sketch_add_many(s, batch, 4), LLMM_E_INVALID);
    }
    assert_same_sketch(s, ref, 0.0);
    assert_status(llmm_sketch_add_n(NULL, 1.0, 1), LLMM_E_INVALID);
    assert_status(llmm_sketch_add_many(s, NULL, 3), LLMM_E_INVALID);
    assert_ok(llmm_sketch_add_many(s, NULL, 0));
    assert_same_sketch(s, ref, 0.0);
    llmm_sketch_free(s);
    llmm_sketch_free(ref);
}

static void test_zero_subnormal_and_range(void **state)
{
    llmm_sketch *s = mk(6);
    uint64_t z, u, o;
    double x, lo, hi;
    (void)state;
    assert_status(llmm_sketch_set_range(s, 0.0, 1.0), LLMM_E_INVALID);
    assert_status(llmm_sketch_set_range(s, 2.0, 1.0), LLMM_E_INVALID);
    assert_status(llmm_sketch_set_range(s, 1.0, INFINITY), LLMM_E_INVALID);
    assert_ok(llmm_sketch_set_range(s, 1e-3, 1e3));
    assert_ok(llmm_sketch_range(s, &lo, &hi));
    assert_true(lo == 1e-3 && hi == 1e3);
    assert_ok(llmm_sketch_add(s, 0.0));
    assert_ok(llmm_sketch_add(s, -0.0));
    assert_ok(llmm_sketch_add(s, 5e-324)); /* subnormal: below the range */
    assert_ok(llmm_sketch_add(s, 1e-6));
    assert_ok(llmm_sketch_add(s, 1e6));
    assert_ok(llmm_sketch_add_n(s, 2e6, 2));
    for (int i = 0; i < 10; i++)
        assert_ok(llmm_sketch_add(s, 1.0 + i));
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    assert_int_equal(z, 2);
    assert_int_equal(u, 2);
    assert_int_equal(o, 3);
    assert_int_equal(llmm_sketch_count(s), 17);
    assert_status(llmm_sketch_set_range(s, 1.0, 2.0), LLMM_E_STATE);
    assert_ok(llmm_sketch_min(s, &x));
    assert_true(x == 0.0 && !signbit(x));
    assert_ok(llmm_sketch_max(s, &x));
    assert_true(x == 2e6);
    /* ranks 3-4 are the underflow: the range's lower bound */
    assert_ok(llmm_sketch_quantile(s, 3.0 / 17, &x));
    assert_true(x == 1e-3);
    /* rank 15 is in the overflow: the upper bound; 17 the exact max */
    assert_ok(llmm_sketch_quantile(s, 15.0 / 17, &x));
    assert_true(x == 1e3);
    assert_ok(llmm_sketch_quantile(s, 1.0, &x));
    assert_true(x == 2e6);
    assert_ok(llmm_sketch_reset(s));
    assert_int_equal(llmm_sketch_count(s), 0);
    assert_ok(llmm_sketch_set_range(s, 1.0, 2.0));
    llmm_sketch_free(s);
}

static void test_wide_counters(void **state)
{
    llmm_sketch *s = mk(6);
    double x;
    uint64_t big = UINT64_C(5000000000);
    int32_t idx;
    (void)state;
    assert_ok(llmm_sketch_add_n(s, 3.0, big));
    assert_ok(llmm_sketch_add(s, 3.0));
    assert_ok(llmm_sketch_add(s, 1.0));
    assert_ok(llmm_sketch_add(s, 9.0));
    for (int i = 0; i < 100; i++)
        assert_ok(llmm_sketch_add(s, 3.0));
    assert_ok(llmm_sketch_index(6, 3.0, &idx));
    assert_int_equal(llmm_sketch_bucket_count(s, idx), big + 101);
    assert_int_equal(llmm_sketch_count(s), big + 103);
    assert_ok(llmm_sketch_quantile(s, 0.5, &x));
    assert_close(x, 3.0, REL_ERR_S6, 0);
    assert_status(llmm_sketch_add_n(s, 3.0, UINT64_MAX), LLMM_E_RANGE);
    assert_int_equal(llmm_sketch_count(s), big + 103);
    /* the wide store's window (values strictly between the min's and max's buckets) takes
     * what it should and rejects what is invalid, in the sketch and in a clone of it */
    {
        const double bad[] = {NAN, INFINITY, -3.0, -0.0 - DBL_MIN, 0x1p-1074};
        llmm_sketch *c, *ref;
        double sum0, sum1;
        int32_t i2;
        assert_ok(llmm_sketch_clone(s, &c));
        assert_ok(llmm_sketch_clone(s, &ref));
        for (size_t k = 0; k < sizeof bad / sizeof *bad - 1; k++)
            assert_status(llmm_sketch_add(c, bad[k]), LLMM_E_INVALID);
        assert_same_sketch(c, ref, 0.0);
        assert_ok(llmm_sketch_sum(c, &sum0));
        for (int k = 0; k < 1000; k++)
            assert_ok(llmm_sketch_add(c, 2.0));
        assert_ok(llmm_sketch_add(c, 0x1p-1074)); /* subnormal: under the range */
        assert_ok(llmm_sketch_sum(c, &sum1));
        assert_close(sum1 - sum0, 2000.0, 1e-6, 0);
        assert_ok(llmm_sketch_index(6, 2.0, &i2));
        assert_int_equal(llmm_sketch_bucket_count(c, i2), 1000);
        assert_int_equal(llmm_sketch_bucket_count(c, idx), big + 101);
        assert_int_equal(llmm_sketch_count(c), big + 103 + 1001);
        llmm_sketch_free(c);
        llmm_sketch_free(ref);
    }
    llmm_sketch_free(s);
}

/* Counts past 2^53, where the rank rule can no longer go through an exact double: 2^60 values
 * each of 1, 2 and 3, so that rank q n (n = 3 * 2^60) falls in the first class up to q = 1/3,
 * in the second up to 2/3, in the third above; q = 1 is the last rank. */
static void test_ranks_past_2_53(void **state)
{
    /* q = 0 and q·n below 1e-9 still mean rank 1, the minimum, past 2^53 as below it */
    static const double qs[] = {0.0, 1e-30, 1e-6, 0.25, 0.5, 0.9, 1.0};
    static const double want[] = {1, 1, 1, 1, 2, 3, 3};
    llmm_sketch *s = mk(6);
    double got[7], one;
    (void)state;
    for (int v = 1; v <= 3; v++)
        assert_ok(llmm_sketch_add_n(s, v, UINT64_C(1) << 60));
    assert_ok(llmm_sketch_quantiles(s, qs, 7, got));
    for (int j = 0; j < 7; j++) {
        assert_close(got[j], want[j], REL_ERR_S6, 0);
        assert_ok(llmm_sketch_quantile(s, qs[j], &one));
        assert_close(one, want[j], REL_ERR_S6, 0);
    }
    llmm_sketch_free(s);
}

static void test_narrow_counter_wrap_widens(void **state)
{
    /* 2^32 - 1 in one bucket through add_n, then single adds cross the 32-bit edge */
    llmm_sketch *s = mk(6);
    int32_t idx;
    (void)state;
    assert_ok(llmm_sketch_add(s, 1.0));
    assert_ok(llmm_sketch_add(s, 100.0));
    assert_ok(llmm_sketch_add_n(s, 10.0, UINT32_MAX - 1));
    assert_ok(llmm_sketch_index(6, 10.0, &idx));
    assert_int_equal(llmm_sketch_bucket_count(s, idx), UINT32_MAX - 1);
    assert_ok(llmm_sketch_add(s, 10.0));
    assert_ok(llmm_sketch_add(s, 10.0));
    assert_ok(llmm_sketch_add(s, 10.0));
    assert_int_equal(llmm_sketch_bucket_count(s, idx), (uint64_t)UINT32_MAX + 2);
    assert_int_equal(llmm_sketch_count(s), (uint64_t)UINT32_MAX + 4);
    llmm_sketch_free(s);
}

static void test_add_many_takes_back_a_failed_batch(void **state)
{
    /* add_many records in one pass and takes everything back on the first invalid value: a
     * batch that first counts thousands of values in the fast window, a zero, values under and
     * over the range and new extremes (the store grows) must leave no trace when its last
     * value is invalid, and the same batch without it equals adding the values one by one. */
    const double bad[] = {NAN, INFINITY, -1.0, -0.5e-300};
    llmm_sketch *s = mk(6), *ref, *one = mk(6);
    double v[5003];
    uint64_t x = 99;
    (void)state;
    for (int i = 0; i < 100; i++)
        assert_ok(llmm_sketch_add(s, lognormal(&x, 0.2, 1.0)));
    assert_ok(llmm_sketch_clone(s, &ref));
    for (int i = 0; i < 4996; i++)
        v[i] = lognormal(&x, 0.2, 1.0);
    v[4996] = 0.0;
    v[4997] = 1e-12; /* under the default range */
    v[4998] = 1e16;  /* over it */
    v[4999] = 1e-5;  /* new minimum, the store grows downwards */
    v[5000] = 3e6;   /* new maximum, the store grows upwards */
    v[5001] = 0.2;
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        v[5002] = bad[b];
        assert_status(llmm_sketch_add_many(s, v, 5003), LLMM_E_INVALID);
        assert_same_sketch(s, ref, 0.0);
        /* an invalid value first and in the middle of a fast pair */
        assert_status(llmm_sketch_add_many(s, v + 5002, 1), LLMM_E_INVALID);
        v[1001] = bad[b];
        assert_status(llmm_sketch_add_many(s, v, 2000), LLMM_E_INVALID);
        v[1001] = 0.25;
        assert_same_sketch(s, ref, 0.0);
    }
    assert_ok(llmm_sketch_add_many(s, v, 5002));
    assert_ok(llmm_sketch_copy(one, ref));
    for (int i = 0; i < 5002; i++)
        assert_ok(llmm_sketch_add(one, v[i]));
    assert_same_sketch(s, one, 0.0);
    llmm_sketch_free(s);
    llmm_sketch_free(ref);
    llmm_sketch_free(one);
}

static void test_add_many_widens_only_when_a_bucket_could_wrap(void **state)
{
    /* Two buckets of 3e9 each: the total is past 2^32 but no 32-bit counter is near its edge,
     * so a batch keeps the narrow store (no allocation; a wide store would allocate 8 bytes a
     * bucket). A batch that could push a bucket past 2^32 - 1 widens it, and counts stay exact. */
    llmm_test_alloc ta;
    llmm_ctx *ctx = llmm_test_ctx(&ta, 0);
    llmm_sketch *s;
    const uint64_t big = UINT64_C(3000000000);
    double batch[100];
    size_t calls;
    int32_t i2, i5;
    (void)state;
    assert_non_null(ctx);
    assert_ok(llmm_sketch_new(ctx, 6, &s));
    assert_ok(llmm_sketch_add(s, 1.0));
    assert_ok(llmm_sketch_add(s, 100.0));
    assert_ok(llmm_sketch_add_n(s, 2.0, big));
    assert_ok(llmm_sketch_add_n(s, 5.0, big));
    for (int k = 0; k < 100; k++)
        batch[k] = k & 1 ? 2.0 : 5.0;
    calls = ta.calls;
    assert_ok(llmm_sketch_add_many(s, batch, 100));
    assert_int_equal(ta.calls, calls);
    assert_ok(llmm_sketch_index(6, 2.0, &i2));
    assert_ok(llmm_sketch_index(6, 5.0, &i5));
    assert_int_equal(llmm_sketch_bucket_count(s, i2), big + 50);
    assert_int_equal(llmm_sketch_bucket_count(s, i5), big + 50);
    /* now bucket of 2.0 within 100 of the edge: the next batch widens (one allocation) */
    assert_ok(llmm_sketch_add_n(s, 2.0, (uint64_t)UINT32_MAX - 60 - (big + 50)));
    calls = ta.calls;
    assert_ok(llmm_sketch_add_many(s, batch, 100));
    assert_true(ta.calls > calls);
    assert_int_equal(llmm_sketch_bucket_count(s, i2), (uint64_t)UINT32_MAX - 60 + 50);
    assert_int_equal(llmm_sketch_bucket_count(s, i5), big + 100);
    assert_int_equal(llmm_sketch_count(s), 2 + 2 * big + 200 + ((uint64_t)UINT32_MAX - 60 - (big + 50)));
    llmm_sketch_free(s);
    llmm_ctx_free(ctx);
    assert_int_equal(ta.live_bytes, 0);
}

/* ---- merge, subtract, downscale --------------------------------------------------------- */

enum { PARTS = 16, PER = 4000 };

static void fill_parts(llmm_sketch **parts, int scale, double sigma, uint64_t seed)
{
    for (int p = 0; p < PARTS; p++) {
        parts[p] = mk(scale);
        for (int i = 0; i < PER; i++)
            assert_ok(llmm_sketch_add(parts[p], lognormal(&seed, 0.2, sigma)));
    }
}

static void test_merge_order_and_grouping(void **state)
{
    llmm_sketch *parts[PARTS], *seq = mk(6), *rev = mk(6), *tree[PARTS];
    (void)state;
    fill_parts(parts, 6, 2.0, 99);
    for (int p = 0; p < PARTS; p++) {
        assert_ok(llmm_sketch_merge(seq, parts[p]));
        assert_ok(llmm_sketch_merge(rev, parts[PARTS - 1 - p]));
        assert_ok(llmm_sketch_clone(parts[p], &tree[p]));
    }
    for (int width = 1; width < PARTS; width *= 2)
        for (int p = 0; p + width < PARTS; p += 2 * width)
            assert_ok(llmm_sketch_merge(tree[p], tree[p + width]));
    assert_same_sketch(seq, rev, 1e-12);
    assert_same_sketch(seq, tree[0], 1e-12);
    assert_int_equal(llmm_sketch_count(seq), PARTS * PER);
    assert_status(llmm_sketch_merge(seq, seq), LLMM_E_INVALID);
    assert_status(llmm_sketch_merge(NULL, seq), LLMM_E_INVALID);
    for (int p = 0; p < PARTS; p++) {
        llmm_sketch_free(parts[p]);
        llmm_sketch_free(tree[p]);
    }
    llmm_sketch_free(seq);
    llmm_sketch_free(rev);
}

static void test_merged_accuracy_vs_exact(void **state)
{
    llmm_sketch *parts[PARTS], *all = mk(6);
    static double v[PARTS * PER];
    uint64_t seed = 1234;
    const double qs[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
    (void)state;
    for (int p = 0; p < PARTS; p++) {
        parts[p] = mk(6);
        for (int i = 0; i < PER; i++) {
            v[p * PER + i] = lognormal(&seed, 0.2, 1.0);
            assert_ok(llmm_sketch_add(parts[p], v[p * PER + i]));
        }
    }
    for (int p = PARTS - 1; p >= 0; p--)
        assert_ok(llmm_sketch_merge(all, parts[p]));
    qsort(v, PARTS * PER, sizeof *v, cmp_dbl);
    for (size_t j = 0; j < sizeof qs / sizeof *qs; j++) {
        double got;
        assert_ok(llmm_sketch_quantile(all, qs[j], &got));
        assert_close(got, exact_q(v, PARTS * PER, qs[j]), REL_ERR_S6, 0);
    }
    for (int p = 0; p < PARTS; p++)
        llmm_sketch_free(parts[p]);
    llmm_sketch_free(all);
}

static void test_subtract_recovers_interval(void **state)
{
    llmm_sketch *a = mk(6), *b = mk(6), *ab;
    uint64_t seed = 5;
    double x, y;
    int32_t fa, la;
    (void)state;
    for (int i = 0; i < 3000; i++)
        assert_ok(llmm_sketch_add(a, lognormal(&seed, 0.2, 1.0)));
    for (int i = 0; i < 5000; i++)
        assert_ok(llmm_sketch_add(b, lognormal(&seed, 0.5, 1.5)));
    assert_ok(llmm_sketch_add(b, 0.0));
    assert_ok(llmm_sketch_add(b, 1e20));
    assert_ok(llmm_sketch_clone(a, &ab));
    assert_ok(llmm_sketch_merge(ab, b));
    assert_status(llmm_sketch_subtract(a, ab), LLMM_E_STATE); /* not contained */
    assert_ok(llmm_sketch_subtract(ab, a));
    assert_int_equal(llmm_sketch_count(ab), llmm_sketch_count(b));
    assert_ok(llmm_sketch_bucket_span(b, &fa, &la));
    for (int32_t i = fa - 3; i <= la + 3; i++)
        assert_int_equal(llmm_sketch_bucket_count(ab, i), llmm_sketch_bucket_count(b, i));
    assert_ok(llmm_sketch_sum(ab, &x));
    assert_ok(llmm_sketch_sum(b, &y));
    assert_close(x, y, 1e-12, 0);
    /* b holds the overall max and min (1e20 and 0): exact */
    assert_ok(llmm_sketch_max(ab, &x));
    assert_true(x == 1e20);
    assert_ok(llmm_sketch_min(ab, &x));
    assert_true(x == 0.0);
    for (double q = 0.05; q < 1.0; q += 0.05) {
        assert_ok(llmm_sketch_quantile(ab, q, &x));
        assert_ok(llmm_sketch_quantile(b, q, &y));
        assert_true(x == y);
    }
    llmm_sketch_free(a);
    llmm_sketch_free(b);
    llmm_sketch_free(ab);
}

static void test_merge_subtract_edges_and_arguments(void **state)
{
    /* containment is checked bucket by bucket: same count and special counts, other buckets */
    llmm_sketch *a = mk(6), *b = mk(6), *e = mk(6), *ref;
    const double qs[3] = {0.1, 0.5, 0.9};
    double x, out[3] = {-1, -1, -1};
    (void)state;
    assert_ok(llmm_sketch_add(a, 1.0));
    assert_ok(llmm_sketch_add(a, 2.0));
    assert_ok(llmm_sketch_add(a, 8.0));
    assert_ok(llmm_sketch_add(b, 1.0));
    assert_ok(llmm_sketch_add(b, 3.0));
    assert_ok(llmm_sketch_add(b, 8.0));
    assert_ok(llmm_sketch_clone(b, &ref));
    assert_status(llmm_sketch_subtract(b, a), LLMM_E_STATE);
    assert_same_sketch(b, ref, 0.0);
    /* empty operands: merging or subtracting an empty sketch changes nothing */
    assert_ok(llmm_sketch_merge(b, e));
    assert_ok(llmm_sketch_subtract(b, e));
    assert_same_sketch(b, ref, 0.0);
    /* an empty sketch answers with LLMM_E_EMPTY and leaves the output alone */
    assert_status(llmm_sketch_quantiles(e, qs, 3, out), LLMM_E_EMPTY);
    assert_true(out[0] == -1 && out[1] == -1 && out[2] == -1);
    /* a merge whose count would pass 2^64 - 1 fails and changes nothing */
    assert_ok(llmm_sketch_add_n(e, 5.0, UINT64_MAX - 2));
    assert_status(llmm_sketch_merge(e, b), LLMM_E_RANGE);
    assert_int_equal(llmm_sketch_count(e), UINT64_MAX - 2);
    assert_status(llmm_sketch_merge(b, e), LLMM_E_RANGE);
    assert_same_sketch(b, ref, 0.0);
    /* NULL arguments of every query and of range / clone / copy */
    assert_status(llmm_sketch_quantile(NULL, 0.5, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantile(b, 0.5, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantiles(NULL, qs, 3, out), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantiles(b, NULL, 3, out), LLMM_E_INVALID);
    assert_status(llmm_sketch_quantiles(b, qs, 3, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_rank(NULL, 1.0, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_rank(b, 1.0, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_sum(NULL, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_sum(b, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_min(NULL, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_min(b, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_max(NULL, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_max(b, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_mean(NULL, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_mean(b, NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_special_counts(NULL, NULL, NULL, NULL), LLMM_E_INVALID);
    assert_int_equal(llmm_sketch_count(NULL), 0);
    assert_int_equal(llmm_sketch_scale(NULL), -1);
    assert_status(llmm_sketch_range(NULL, &x, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_range(b, NULL, &x), LLMM_E_INVALID);
    assert_status(llmm_sketch_clone(b, NULL), LLMM_E_INVALID);
    {
        llmm_sketch *c = b; /* set to NULL on failure */
        assert_status(llmm_sketch_clone(NULL, &c), LLMM_E_INVALID);
        assert_null(c);
    }
    assert_ok(llmm_sketch_copy(b, b)); /* onto itself: nothing changes */
    assert_status(llmm_sketch_copy(NULL, b), LLMM_E_INVALID);
    assert_status(llmm_sketch_copy(b, NULL), LLMM_E_INVALID);
    /* add_n of 0 values is a valid no-op, of an invalid value an error */
    assert_ok(llmm_sketch_add_n(b, 2.0, 0));
    assert_status(llmm_sketch_add_n(b, -2.0, 0), LLMM_E_INVALID);
    assert_same_sketch(b, ref, 0.0);
    llmm_sketch_free(a);
    llmm_sketch_free(b);
    llmm_sketch_free(e);
    llmm_sketch_free(ref);
}

static void test_subtract_extremes_from_earlier(void **state)
{
    /* the interval does not hold the extremes: min / max become bucket representatives */
    llmm_sketch *early = mk(6), *late;
    double x;
    (void)state;
    assert_ok(llmm_sketch_add(early, 0.001));
    assert_ok(llmm_sketch_add(early, 1000.0));
    assert_ok(llmm_sketch_clone(early, &late));
    assert_ok(llmm_sketch_add(late, 1.0));
    assert_ok(llmm_sketch_add(late, 2.0));
    assert_ok(llmm_sketch_subtract(late, early));
    assert_int_equal(llmm_sketch_count(late), 2);
    assert_ok(llmm_sketch_min(late, &x));
    assert_close(x, 1.0, REL_ERR_S6, 0);
    assert_ok(llmm_sketch_max(late, &x));
    assert_close(x, 2.0, REL_ERR_S6, 0);
    assert_status(llmm_sketch_subtract(late, late), LLMM_E_INVALID);
    llmm_sketch_free(early);
    llmm_sketch_free(late);
}

static void test_downscale_and_mixed_scales(void **state)
{
    llmm_sketch *fine = mk(8), *coarse = mk(5), *direct5 = mk(5), *fine_copy;
    uint64_t seed = 77;
    (void)state;
    for (int i = 0; i < 20000; i++) {
        double v = lognormal(&seed, 0.2, 2.0);
        assert_ok(llmm_sketch_add(i % 2 ? fine : coarse, v));
        assert_ok(llmm_sketch_add(direct5, v));
    }
    assert_ok(llmm_sketch_clone(fine, &fine_copy));
    /* coarse <- fine: fine is downscaled on the fly */
    assert_ok(llmm_sketch_merge(coarse, fine));
    assert_same_sketch(coarse, direct5, 1e-12);
    /* fine <- coarse: dst itself drops to scale 5 */
    assert_ok(llmm_sketch_downscale(fine_copy, 8));
    assert_status(llmm_sketch_downscale(fine_copy, 9), LLMM_E_INVALID);
    assert_ok(llmm_sketch_merge(fine_copy, coarse));
    assert_int_equal(llmm_sketch_scale(fine_copy), 5);
    assert_ok(llmm_sketch_downscale(direct5, 3));
    assert_ok(llmm_sketch_downscale(coarse, 3));
    assert_same_sketch(coarse, direct5, 1e-12);
    llmm_sketch_free(fine);
    llmm_sketch_free(coarse);
    llmm_sketch_free(direct5);
    llmm_sketch_free(fine_copy);
}

static void test_merge_empty_coarser_operand(void **state)
{
    /* an empty sketch at a coarser scale takes part in a merge: (a + e) + b and a + (e + b)
     * both end at e's scale with the same buckets (found by fuzz_sketch_merge) */
    llmm_sketch *a = mk(6), *b = mk(6), *e = mk(2), *left, *right, *eb;
    uint64_t seed = 5;
    double sa, sb, s;
    (void)state;
    for (int i = 0; i < 3000; i++)
        assert_ok(llmm_sketch_add(i % 3 ? a : b, lognormal(&seed, 0.2, 1.0)));
    assert_ok(llmm_sketch_clone(a, &left));
    assert_ok(llmm_sketch_merge(left, e));
    assert_int_equal(llmm_sketch_scale(left), 2);
    assert_int_equal(llmm_sketch_count(left), llmm_sketch_count(a));
    assert_ok(llmm_sketch_merge(left, b));
    assert_ok(llmm_sketch_clone(e, &eb));
    assert_ok(llmm_sketch_merge(eb, b));
    assert_ok(llmm_sketch_clone(a, &right));
    assert_ok(llmm_sketch_merge(right, eb));
    assert_int_equal(llmm_sketch_scale(right), 2);
    assert_same_sketch(left, right, 1e-12);
    assert_ok(llmm_sketch_sum(a, &sa));
    assert_ok(llmm_sketch_sum(b, &sb));
    assert_ok(llmm_sketch_sum(left, &s));
    assert_close(s, sa + sb, 1e-12, 0);
    /* an empty operand at the same scale changes nothing, in either role */
    llmm_sketch_free(eb);
    assert_ok(llmm_sketch_clone(a, &eb));
    llmm_sketch_free(e);
    e = mk(6);
    assert_ok(llmm_sketch_merge(eb, e));
    assert_same_sketch(eb, a, 0.0);
    assert_ok(llmm_sketch_merge(e, a));
    assert_same_sketch(e, a, 0.0);
    llmm_sketch_free(a);
    llmm_sketch_free(b);
    llmm_sketch_free(e);
    llmm_sketch_free(eb);
    llmm_sketch_free(left);
    llmm_sketch_free(right);
}

static void test_merge_different_ranges(void **state)
{
    llmm_sketch *narrow = mk(6), *wide = mk(6);
    uint64_t z, u, o;
    (void)state;
    assert_ok(llmm_sketch_set_range(narrow, 1.0, 10.0));
    assert_ok(llmm_sketch_add(wide, 0.5));
    assert_ok(llmm_sketch_add(wide, 5.0));
    assert_ok(llmm_sketch_add(wide, 50.0));
    assert_ok(llmm_sketch_merge(narrow, wide));
    assert_ok(llmm_sketch_special_counts(narrow, &z, &u, &o));
    assert_int_equal(u, 1);
    assert_int_equal(o, 1);
    assert_int_equal(llmm_sketch_count(narrow), 3);
    llmm_sketch_free(narrow);
    llmm_sketch_free(wide);
}

/* ---- allocation: every failure is clean --------------------------------------------------- */

static llmm_status step_new_add(llmm_ctx *ctx, void *arg)
{
    llmm_sketch *s = NULL, *c = NULL;
    double v[64];
    llmm_status st;
    (void)arg;
    for (int i = 0; i < 64; i++)
        v[i] = 1e-6 * pow(1.7, i);
    st = llmm_sketch_new(ctx, 6, &s);
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    for (int i = 0; i < 64; i++) {
        uint64_t before = llmm_sketch_count(s);
        st = llmm_sketch_add(s, v[i]);
        if (st != LLMM_OK) {
            assert_int_equal(llmm_sketch_count(s), before);
            goto out;
        }
    }
    st = llmm_sketch_add_many(s, v, 64);
    if (st != LLMM_OK) {
        assert_int_equal(llmm_sketch_count(s), 64);
        goto out;
    }
    st = llmm_sketch_clone(s, &c);
    if (st != LLMM_OK) {
        assert_null(c);
        goto out;
    }
    st = llmm_sketch_downscale(c, 2);
    if (st != LLMM_OK) {
        assert_int_equal(llmm_sketch_scale(c), 6);
        goto out;
    }
    st = llmm_sketch_merge(s, c); /* s drops to scale 2: a rebuild */
    if (st != LLMM_OK) {
        assert_int_equal(llmm_sketch_scale(s), 6);
        assert_int_equal(llmm_sketch_count(s), 128);
        goto out;
    }
    assert_int_equal(llmm_sketch_count(s), 256);
out:
    llmm_sketch_free(c);
    llmm_sketch_free(s);
    return st;
}

static void test_failing_allocator(void **state)
{
    (void)state;
    size_t allocs = llmm_test_each_failure(step_new_add, NULL);
    assert_true(allocs >= 4);
}

static void test_memory_typical_series(void **state)
{
    /* log-normal sigma = 1, median 200 ms, 1 M values: the store stays within 8 KiB */
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    llmm_sketch *s = NULL;
    uint64_t seed = 2024;
    size_t ctx_bytes = t.live_bytes;
    (void)state;
    assert_ok(llmm_sketch_new(ctx, 6, &s));
    for (int i = 0; i < 1000000; i++)
        assert_ok(llmm_sketch_add(s, lognormal(&seed, 0.2, 1.0)));
    print_message("# sketch heap after 1M values (sigma 1): %zu bytes, peak %zu, %zu allocations\n",
                  t.live_bytes - ctx_bytes, t.peak_bytes - ctx_bytes, t.calls - 1);
    assert_true(t.live_bytes - ctx_bytes <= 8192);
    llmm_sketch_free(s);
    llmm_ctx_free(ctx);
    assert_int_equal(t.live_bytes, 0);
}

static void test_copy_and_reset(void **state)
{
    llmm_sketch *a = mk(6), *b = mk(3);
    (void)state;
    for (int i = 1; i < 500; i++)
        assert_ok(llmm_sketch_add(a, i * 0.37));
    assert_ok(llmm_sketch_copy(b, a));
    assert_same_sketch(a, b, 0.0);
    assert_ok(llmm_sketch_add(b, 3.0)); /* b is independent */
    assert_int_equal(llmm_sketch_count(a) + 1, llmm_sketch_count(b));
    assert_ok(llmm_sketch_reset(a));
    assert_int_equal(llmm_sketch_count(a), 0);
    assert_ok(llmm_sketch_add(a, 2.0));
    assert_int_equal(llmm_sketch_count(a), 1);
    assert_status(llmm_sketch_reset(NULL), LLMM_E_INVALID);
    assert_status(llmm_sketch_copy(NULL, a), LLMM_E_INVALID);
    llmm_sketch_free(a);
    llmm_sketch_free(b);
    llmm_sketch_free(NULL);
}

static void test_zeros_first(void **state)
{
    /* only zeros, then positive values: the fast window must be set up from a zero max */
    llmm_sketch *s = mk(6);
    double x;
    (void)state;
    assert_ok(llmm_sketch_add(s, 0.0));
    assert_ok(llmm_sketch_add_n(s, 0.0, 3));
    assert_ok(llmm_sketch_quantile(s, 0.5, &x));
    assert_true(x == 0.0);
    for (int i = 1; i <= 100; i++)
        assert_ok(llmm_sketch_add(s, i));
    assert_int_equal(llmm_sketch_count(s), 104);
    assert_ok(llmm_sketch_quantile(s, 0.5, &x));
    assert_close(x, 48.0, REL_ERR_S6, 0);
    llmm_sketch_free(s);
}

static void test_new_errors(void **state)
{
    llmm_sketch *s = (llmm_sketch *)0x1;
    (void)state;
    assert_status(llmm_sketch_new(NULL, 11, &s), LLMM_E_INVALID);
    assert_null(s);
    assert_status(llmm_sketch_new(NULL, -1, &s), LLMM_E_INVALID);
    assert_status(llmm_sketch_new(NULL, 6, NULL), LLMM_E_INVALID);
    assert_ok(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s));
    assert_int_equal(llmm_sketch_scale(s), 6);
    llmm_sketch_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapping_boundaries_every_scale),
        cmocka_unit_test(test_mapping_extremes),
        cmocka_unit_test(test_bucket_bounds),
        cmocka_unit_test(test_reference_quantiles),
        cmocka_unit_test(test_every_rank_within_bound_all_scales),
        cmocka_unit_test(test_rank_rule_tolerance),
        cmocka_unit_test(test_quantiles_any_order),
        cmocka_unit_test(test_stats_and_rank),
        cmocka_unit_test(test_invalid_values_change_nothing),
        cmocka_unit_test(test_zero_subnormal_and_range),
        cmocka_unit_test(test_wide_counters),
        cmocka_unit_test(test_ranks_past_2_53),
        cmocka_unit_test(test_narrow_counter_wrap_widens),
        cmocka_unit_test(test_add_many_widens_only_when_a_bucket_could_wrap),
        cmocka_unit_test(test_add_many_takes_back_a_failed_batch),
        cmocka_unit_test(test_merge_order_and_grouping),
        cmocka_unit_test(test_merged_accuracy_vs_exact),
        cmocka_unit_test(test_subtract_recovers_interval),
        cmocka_unit_test(test_subtract_extremes_from_earlier),
        cmocka_unit_test(test_merge_subtract_edges_and_arguments),
        cmocka_unit_test(test_downscale_and_mixed_scales),
        cmocka_unit_test(test_merge_empty_coarser_operand),
        cmocka_unit_test(test_merge_different_ranges),
        cmocka_unit_test(test_failing_allocator),
        cmocka_unit_test(test_memory_typical_series),
        cmocka_unit_test(test_copy_and_reset),
        cmocka_unit_test(test_zeros_first),
        cmocka_unit_test(test_new_errors),
    };
    return cmocka_run_group_tests_name("sketch", tests, NULL, NULL);
}
