/* Regression tests for the findings of the fuzz targets in tests/fuzz/ (issue 18). Each test
 * names the target that found the problem and states the invariant that failed; the inputs
 * are reduced by hand to the smallest case that shows it. */
#include "helpers.h"

/* Every q = r/n for r = 0 ... n, in one call: the answers must not decrease. */
static void assert_monotone_all_ranks(const llmm_sketch *s)
{
    uint64_t n = llmm_sketch_count(s);
    double q[64], out[64];
    assert_true(n + 1 <= 64);
    for (uint64_t r = 0; r <= n; r++)
        q[r] = (double)r / (double)n;
    assert_ok(llmm_sketch_quantiles(s, q, (size_t)n + 1, out));
    for (uint64_t r = 1; r <= n; r++) {
        if (!(out[r] >= out[r - 1]))
            fail_msg("q = %g gives %.17g, below q = %g's %.17g", q[r], out[r], q[r - 1],
                     out[r - 1]);
    }
}

/* fuzz_sketch_ops: quantiles not monotone in q. Underflow ranks answer the range's lower
 * bound, but a value just above that bound shares its bucket with values just below it, and
 * the bucket's representative (the point of least relative error) can lie below the bound:
 * at scale 4 with the default range the bucket of 1e-9 is (9.67e-10, 1.01e-9] with
 * representative 9.94e-10, so P(rank of the underflows) = 1e-9 > P(next rank) = 9.94e-10.
 * The same holds at the top with the overflow and the bucket of the upper bound. */
static void test_range_edge_buckets_keep_quantiles_monotone(void **state)
{
    const double low[] = {0.0, 1e-12, 5e-11, 1e-9, 3.0, 70.0};
    const double high[] = {1.0, 2.0, 1e15, 3e15, 8e16};
    double x, lo, hi, rel;
    (void)state;
    for (int32_t scale = LLMM_SCALE_MIN; scale <= LLMM_SCALE_MAX; scale++) {
        llmm_sketch *s = NULL, *t = NULL;
        uint64_t z, u, o;
        assert_ok(llmm_sketch_new(NULL, scale, &s));
        assert_ok(llmm_sketch_new(NULL, scale, &t));
        assert_ok(llmm_sketch_add_many(s, low, 6));
        assert_ok(llmm_sketch_add_many(t, high, 5));
        assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
        assert_true(z == 1 && u == 2 && o == 0); /* 1e-9 itself is inside the range */
        assert_ok(llmm_sketch_special_counts(t, &z, &u, &o));
        assert_true(z == 0 && u == 0 && o == 2); /* 1e15 itself is inside the range */
        assert_monotone_all_ranks(s);
        assert_monotone_all_ranks(t);
        /* 1e-9 and 1e15 are in the range: their ranks answer within the scale's relative
         * error, and inside the range */
        rel = (exp2(exp2(-scale)) - 1.0) / (exp2(exp2(-scale)) + 1.0) * (1.0 + 1e-12);
        assert_ok(llmm_sketch_range(s, &lo, &hi));
        assert_ok(llmm_sketch_quantile(s, 4.0 / 6.0, &x));
        assert_true(x >= lo);
        assert_close(x, 1e-9, rel, 0.0);
        assert_ok(llmm_sketch_quantile(t, 3.0 / 5.0, &x));
        assert_true(x <= hi);
        assert_close(x, 1e15, rel, 0.0);
        /* merged: the same at both ends */
        assert_ok(llmm_sketch_merge(s, t));
        assert_monotone_all_ranks(s);
        llmm_sketch_free(s);
        llmm_sketch_free(t);
    }
}

/* The same through a custom range and a recorder snapshot. At scale 3 the bucket of 0.104 is
 * (0.0964, 0.1051] with representative 0.1006 < 0.104, and the bucket of 9.6 is
 * (9.51, 10.37] with representative 9.92 > 9.6. */
static void test_recorder_snapshot_edge_buckets(void **state)
{
    const double v[] = {0.0, 0.05, 0.104, 0.5, 1.0, 9.6, 9.7, 11.0, 50.0, 60.0};
    llmm_recorder *r = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *s = NULL;
    uint64_t z, u, o;
    (void)state;
    assert_ok(llmm_recorder_new(NULL, 3, &r));
    assert_ok(llmm_recorder_set_range(r, 0.104, 9.6));
    assert_ok(llmm_recorder_shard(r, &sh));
    assert_ok(llmm_shard_add_many(sh, v, 10));
    assert_ok(llmm_sketch_new(NULL, 3, &s));
    assert_ok(llmm_recorder_snapshot(r, s));
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    {
        /* out of range = bucket index beyond the bounds' buckets (not value beyond bound) */
        int32_t ilo, ihi, i;
        uint64_t eu = 0, eo = 0;
        assert_ok(llmm_sketch_index(3, 0.104, &ilo));
        assert_ok(llmm_sketch_index(3, 9.6, &ihi));
        for (int k = 1; k < 10; k++) {
            assert_ok(llmm_sketch_index(3, v[k], &i));
            eu += i < ilo;
            eo += i > ihi;
        }
        assert_true(z == 1 && u == eu && o == eo);
        assert_true(eu == 1 && eo == 3); /* 0.05 below; 11, 50 and 60 above */
    }
    assert_int_equal(llmm_sketch_count(s), 10);
    assert_monotone_all_ranks(s);
    llmm_sketch_free(s);
    llmm_shard_release(sh);
    llmm_recorder_free(r);
}

/* fuzz_sketch_ops (with counts near 2^64): the count wrapped to 0. llmm_sketch_add's fast
 * path counts without an overflow check, so a sketch already holding 2^64 - 2 values (zeros
 * added with llmm_sketch_add_n, buckets in a narrow store) accepted two more values and
 * reported a count of 0. The 2^64 - 1st value must be counted, the next refused with
 * LLMM_E_RANGE and nothing changed. */
static void test_count_never_wraps(void **state)
{
    llmm_sketch *s = NULL;
    uint64_t z, u, o;
    double mx = 5.0;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add(s, 1.0));
    assert_ok(llmm_sketch_add(s, 100.0));
    assert_ok(llmm_sketch_add_n(s, 0.0, UINT64_MAX - 3));
    assert_true(llmm_sketch_count(s) == UINT64_MAX - 1);
    assert_ok(llmm_sketch_add(s, 10.0)); /* inside (1, 100): the fast path's bucket */
    assert_true(llmm_sketch_count(s) == UINT64_MAX);
    assert_status(llmm_sketch_add(s, 10.0), LLMM_E_RANGE);
    assert_status(llmm_sketch_add(s, 1e3), LLMM_E_RANGE);
    assert_status(llmm_sketch_add_n(s, 10.0, 1), LLMM_E_RANGE);
    assert_status(llmm_sketch_add_many(s, &mx, 1), LLMM_E_RANGE);
    assert_true(llmm_sketch_count(s) == UINT64_MAX);
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    assert_true(z == UINT64_MAX - 3 && u == 0 && o == 0);
    {
        const double v[3] = {1.0, 10.0, 100.0};
        for (int k = 0; k < 3; k++) {
            int32_t i;
            assert_ok(llmm_sketch_index(6, v[k], &i));
            assert_true(llmm_sketch_bucket_count(s, i) == 1);
        }
    }
    assert_ok(llmm_sketch_max(s, &mx));
    assert_true(mx == 100.0);
    llmm_sketch_free(s);
}

/* fuzz_collapse_ops: a collapse baseline's σ off by far more than rounding. The detector
 * keeps running sums of (x - ref) and (x - ref)^2 and rebuilt them only every W samples;
 * after a stall left the window, subtracting its square (or measuring the remaining window
 * against a ref centred on the window that held the stall) cancelled most digits of W·σ²,
 * so for up to W samples σ and the threshold were wrong: by per cents for a stall 10^7 times
 * the other latencies, by 10^-10 … 10^-8 for smaller ones. Reference: the population σ of
 * the W previous latencies, in two passes. */
static void collapse_stall(double stall, double level)
{
    llmm_collapse *c = NULL;
    double lat[40];
    uint64_t t = 1000;
    for (int i = 0; i < 40; i++)
        lat[i] = level * (1.0 + 0.05 * (i % 7) + 0.001 * i);
    lat[9] = stall;
    assert_ok(llmm_collapse_new(NULL, &c));
    assert_ok(llmm_collapse_set_u64(c, LLMM_COLLAPSE_REQUIRE_SWITCH, 0));
    for (int i = 0; i < 40; i++, t += 1000) {
        llmm_collapse_verdict v;
        assert_ok(llmm_collapse_verdict_init(&v));
        assert_ok(llmm_collapse_observe_ex(c, t, lat[i], &v));
        if (i >= 8) {
            double m = 0.0, var = 0.0, sd;
            for (int j = i - 8; j < i; j++)
                m += lat[j];
            m /= 8.0;
            for (int j = i - 8; j < i; j++)
                var += (lat[j] - m) * (lat[j] - m);
            sd = fmax(sqrt(var / 8.0), 0.01 * m);
            assert_int_equal(v.ready, 1);
            assert_close(v.mean, m, 1e-12, 0.0);
            assert_close(v.sigma, sd, 1e-11, 0.0);
            assert_int_equal(v.outlier, lat[i] > m + 2.5 * sd);
        }
    }
    llmm_collapse_free(c);
}

/* fuzz_sketch_ops, once it checked every sketch against doc/format.md 3.4 (issue 24): a
 * recorder snapshot whose max lay below a counted bucket. A batch refused for its NaN had
 * already made the page of 0.5's bucket; a zero or a value below the range then became min
 * and max, and the writer's window of values that cannot change the extremes, whose end
 * clamped such a max to the top of the range, took in every in-range value: 0.5 was counted
 * and the max stayed below it (the snapshot's quantiles all clamped to it). The same with a
 * first value above the range (a longer run of the fuzzer): its start clamped such a min to
 * the bottom of the range, 0.5 took the fast path and the min stayed above it. */
static void test_recorder_extremes_outside_the_range(void **state)
{
    static const double first[] = {1e-310, 1e-12, 0.0, 2e15, 1e17, DBL_MAX};
    (void)state;
    for (size_t k = 0; k < sizeof first / sizeof *first; k++) {
        const double batch[2] = {0.5, NAN};
        llmm_recorder *r = NULL;
        llmm_shard *sh = NULL;
        llmm_sketch *s = NULL, *back = NULL;
        uint8_t buf[256];
        size_t len;
        double mn, mx;
        assert_ok(llmm_recorder_new(NULL, 6, &r));
        assert_ok(llmm_recorder_shard(r, &sh));
        assert_status(llmm_shard_add_many(sh, batch, 2), LLMM_E_INVALID);
        assert_ok(llmm_shard_add(sh, first[k]));
        assert_ok(llmm_shard_add(sh, 0.5));
        assert_ok(llmm_sketch_new(NULL, 6, &s));
        assert_ok(llmm_recorder_snapshot(r, s));
        assert_true(llmm_sketch_count(s) == 2);
        assert_ok(llmm_sketch_min(s, &mn));
        assert_ok(llmm_sketch_max(s, &mx));
        assert_true(mn == fmin(first[k], 0.5) && mx == fmax(first[k], 0.5));
        assert_ok(llmm_sketch_serialize(s, buf, sizeof buf, &len));
        assert_ok(llmm_sketch_deserialize(NULL, buf, len, &back));
        llmm_sketch_free(back);
        llmm_sketch_free(s);
        llmm_shard_release(sh);
        llmm_recorder_free(r);
    }
}

static void test_collapse_sigma_after_a_stall(void **state)
{
    (void)state;
    collapse_stall(3e7, 1.0);
    for (double stall = 2e3; stall < 1e6; stall *= 1.5)
        collapse_stall(stall, 16.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_edge_buckets_keep_quantiles_monotone),
        cmocka_unit_test(test_recorder_snapshot_edge_buckets),
        cmocka_unit_test(test_count_never_wraps),
        cmocka_unit_test(test_collapse_sigma_after_a_stall),
        cmocka_unit_test(test_recorder_extremes_outside_the_range),
    };
    return cmocka_run_group_tests_name("regress", tests, NULL, NULL);
}
