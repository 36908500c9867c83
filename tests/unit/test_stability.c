/* Stability gate: max / min of the last k window means against 1 + ε, on hand-built sequences
 * (powers of two, so that every ratio is exact) and a random stream checked by brute force. */
#include "helpers.h"

static llmm_stability *mks(void)
{
    llmm_stability *s = NULL;
    assert_ok(llmm_stability_new(NULL, &s));
    return s;
}

static int32_t add(llmm_stability *s, double m)
{
    int32_t st = -1;
    assert_ok(llmm_stability_add(s, m, &st));
    assert_true(st == 0 || st == 1);
    return st;
}

static llmm_stability_reading rd(const llmm_stability *s)
{
    llmm_stability_reading r;
    assert_ok(llmm_stability_reading_init(&r));
    assert_ok(llmm_stability_read(s, &r));
    return r;
}

static void test_defaults_and_options(void **state)
{
    llmm_stability *s = mks();
    uint64_t u;
    double f;
    (void)state;
    assert_int_equal(sizeof(llmm_stability_option), sizeof(int));
    assert_ok(llmm_stability_get_u64(s, LLMM_STABILITY_WINDOWS, &u));
    assert_true(u == 5);
    assert_ok(llmm_stability_get_f64(s, LLMM_STABILITY_EPSILON, &f));
    assert_true(f == 0.05);
    assert_status(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 1), LLMM_E_RANGE);
    assert_status(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 65), LLMM_E_RANGE);
    assert_status(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, -0.01), LLMM_E_RANGE);
    assert_status(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 10.01), LLMM_E_RANGE);
    assert_status(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, NAN), LLMM_E_RANGE);
    assert_status(llmm_stability_set_f64(s, LLMM_STABILITY_WINDOWS, 1.0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_stability_set_u64(s, LLMM_STABILITY_EPSILON, 1), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_stability_get_f64(s, LLMM_STABILITY_WINDOWS, &f), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_stability_get_u64(s, LLMM_STABILITY_EPSILON, &u), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_stability_set_u64(NULL, LLMM_STABILITY_WINDOWS, 3), LLMM_E_INVALID);
    assert_status(llmm_stability_set_f64(NULL, LLMM_STABILITY_EPSILON, 0.1), LLMM_E_INVALID);
    assert_status(llmm_stability_get_u64(NULL, LLMM_STABILITY_WINDOWS, &u), LLMM_E_INVALID);
    assert_status(llmm_stability_get_u64(s, LLMM_STABILITY_WINDOWS, NULL), LLMM_E_INVALID);
    assert_status(llmm_stability_get_f64(NULL, LLMM_STABILITY_EPSILON, &f), LLMM_E_INVALID);
    assert_status(llmm_stability_get_f64(s, LLMM_STABILITY_EPSILON, NULL), LLMM_E_INVALID);
    assert_ok(llmm_stability_get_u64(s, LLMM_STABILITY_WINDOWS, &u));
    assert_ok(llmm_stability_get_f64(s, LLMM_STABILITY_EPSILON, &f));
    assert_true(u == 5 && f == 0.05);
    assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 64));
    assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 2));
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.0));
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 10.0));
    assert_status(llmm_stability_new(NULL, NULL), LLMM_E_INVALID);
    llmm_stability_free(s);
    llmm_stability_free(NULL);
}

static void test_hand_built_sequence(void **state)
{
    llmm_stability *s = mks();
    llmm_stability_reading r;
    (void)state;
    assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 3));
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.25));
    const double means[] = {64, 64, 80, 81, 72, 90, 90, 90, 200, 160, 160, 128};
    /* windows of three:   -   -  64,64,80 64,80,81 80,81,72 81,72,90 72,90,90 90,90,90
     *                     90,90,200 90,200,160 200,160,160 160,160,128
     * ratios:                    1.25      1.2656    1.125    1.25     1.25     1
     *                     2.222     2.222       1.25        1.25 */
    const int32_t expect[] = {0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1};
    for (size_t i = 0; i < sizeof means / sizeof means[0]; i++)
        assert_int_equal(add(s, means[i]), expect[i]);
    r = rd(s);
    assert_true(r.min == 128 && r.max == 160 && r.ratio == 1.25 && r.total == 12);

    /* ε = 0: only equal means are stable */
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.0));
    assert_int_equal(rd(s).stable, 0);
    assert_int_equal(add(s, 128), 0); /* 160 128 128 */
    assert_int_equal(add(s, 128), 1); /* 128 128 128 */
    assert_int_equal(add(s, 128), 1);

    /* a new k applies at once to the means already added: the last 5 are 160 128 128 128 128
     * (stable only with ε ≥ 0.25); the last 2 are equal */
    assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 5));
    r = rd(s);
    assert_true(r.held == 5 && r.windows == 5 && r.max == 160 && r.min == 128 && !r.stable);
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.25));
    assert_int_equal(rd(s).stable, 1);
    assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 40));
    r = rd(s);
    assert_true(r.held == 15 && !r.stable && r.max == 200 && r.min == 64);

    /* reset forgets the means and the total, keeps k and ε */
    assert_ok(llmm_stability_reset(s));
    r = rd(s);
    assert_true(r.held == 0 && r.total == 0 && r.windows == 40 && !r.stable);
    llmm_stability_free(s);
}

/* A random stream past the 64 remembered means, k changing as it goes, against brute force. */
static void test_random_stream_brute_force(void **state)
{
    enum { N = 2000 };
    static double m[N];
    llmm_stability *s = mks();
    uint64_t r = 5;
    uint32_t k = 5;
    (void)state;
    assert_ok(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.1));
    for (int i = 0; i < N; i++) {
        llmm_stability_reading rr;
        double lo = 0, hi = 0;
        uint32_t n;
        int32_t st;
        m[i] = 100.0 + (double)(rng_next(&r) % 12);
        if (i % 97 == 0) {
            k = 2 + (uint32_t)(rng_next(&r) % 63);
            assert_ok(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, k));
        }
        st = add(s, m[i]);
        n = (uint32_t)(i + 1) < k ? (uint32_t)(i + 1) : k;
        for (uint32_t j = 0; j < n; j++) {
            double v = m[i - (int)j];
            if (j == 0 || v < lo)
                lo = v;
            if (j == 0 || v > hi)
                hi = v;
        }
        rr = rd(s);
        assert_true(rr.held == n && rr.min == lo && rr.max == hi && rr.ratio == hi / lo);
        assert_int_equal(st, n == k && hi / lo <= 1.1);
        assert_int_equal(rr.stable, st);
    }
    llmm_stability_free(s);
}

static void test_bad_input_changes_nothing(void **state)
{
    llmm_stability *s = mks();
    llmm_stability_reading a, b;
    int32_t st = 9;
    (void)state;
    add(s, 10);
    add(s, 11);
    a = rd(s);
    assert_status(llmm_stability_add(s, 0.0, &st), LLMM_E_INVALID);
    assert_status(llmm_stability_add(s, -1.0, &st), LLMM_E_INVALID);
    assert_status(llmm_stability_add(s, NAN, &st), LLMM_E_INVALID);
    assert_status(llmm_stability_add(s, INFINITY, &st), LLMM_E_INVALID);
    assert_status(llmm_stability_add(s, 1e101, &st), LLMM_E_RANGE);
    assert_status(llmm_stability_add(NULL, 1.0, &st), LLMM_E_INVALID);
    assert_int_equal(st, 9);
    b = rd(s);
    assert_memory_equal(&a, &b, sizeof a);
    assert_ok(llmm_stability_add(s, 10.5, NULL));
    assert_status(llmm_stability_read(NULL, &a), LLMM_E_INVALID);
    assert_status(llmm_stability_read(s, NULL), LLMM_E_INVALID);
    a.struct_size = 4;
    assert_status(llmm_stability_read(s, &a), LLMM_E_ABI);
    assert_status(llmm_stability_reading_init(NULL), LLMM_E_INVALID);
    assert_status(llmm_stability_reset(NULL), LLMM_E_INVALID);
    llmm_stability_free(s);
}

static llmm_status step_new(llmm_ctx *ctx, void *arg)
{
    llmm_stability *s = (llmm_stability *)(uintptr_t)1;
    llmm_status st = llmm_stability_new(ctx, &s);
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    for (int i = 0; i < 100; i++)
        assert_ok(llmm_stability_add(s, 1.0 + i, NULL));
    llmm_stability_free(s);
    return LLMM_OK;
}

static void test_new_failing_allocator(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_new, NULL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_options),
        cmocka_unit_test(test_hand_built_sequence),
        cmocka_unit_test(test_random_stream_brute_force),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_new_failing_allocator),
    };
    return cmocka_run_group_tests_name("stability", tests, NULL, NULL);
}
