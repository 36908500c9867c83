/* capacity module: every reference value of doc/spec.md §3, plus the input checks. Public API. */
#include "helpers.h"

#define SENTINEL 4242.0

/* doc/spec.md rounds its figures to 4 or 5 places: compare at half a unit of the last one. */
static void test_decay_rate(void **state)
{
    double eta = SENTINEL;
    (void)state;
    assert_ok(llmm_decay_rate(32.624e12, 312e12, &eta));
    assert_close(eta, 0.89544, 0.0, 0.5e-5);
    assert_close(eta, 1.0 - 32.624 / 312.0, 1e-15, 0.0);
    assert_ok(llmm_decay_rate(0.0, 10.0, &eta));
    assert_true(eta == 1.0);
    assert_ok(llmm_decay_rate(10.0, 10.0, &eta));
    assert_true(eta == 0.0);
    assert_ok(llmm_decay_rate(12.0, 10.0, &eta)); /* above the "peak": reported, negative */
    assert_close(eta, -0.2, 1e-15, 0.0);
    eta = SENTINEL;
    assert_status(llmm_decay_rate(-1.0, 10.0, &eta), LLMM_E_INVALID);
    assert_status(llmm_decay_rate(1.0, 0.0, &eta), LLMM_E_INVALID);
    assert_status(llmm_decay_rate(1.0, -3.0, &eta), LLMM_E_INVALID);
    assert_status(llmm_decay_rate(NAN, 10.0, &eta), LLMM_E_INVALID);
    assert_status(llmm_decay_rate(1.0, INFINITY, &eta), LLMM_E_INVALID);
    assert_status(llmm_decay_rate(1.0, 10.0, NULL), LLMM_E_INVALID);
    assert_true(eta == SENTINEL);
}

static void test_roofline(void **state)
{
    const double a100_b = 2039e9, a100_p = 312e12, h100_b = 4000e9, h100_p = 756e12;
    double i = SENTINEL, t = SENTINEL, eta;
    (void)state;
    assert_ok(llmm_roofline_critical_intensity(a100_p, a100_b, &i));
    assert_close(i, 153.0, 0.0, 0.05);
    assert_close(i, 312e12 / 2039e9, 1e-15, 0.0);
    assert_ok(llmm_roofline_critical_intensity(h100_p, h100_b, &i));
    assert_close(i, 189.0, 1e-15, 0.0);

    /* 2048 FLOPs per 128 bytes: I = 16, memory-bound on an A100 */
    assert_ok(llmm_arithmetic_intensity(2048.0, 128.0, &i));
    assert_true(i == 16.0);
    assert_ok(llmm_roofline(a100_p, a100_b, i, &t));
    assert_close(t, 32.624e12, 1e-15, 0.0);
    assert_ok(llmm_decay_rate(t, a100_p, &eta));
    assert_close(eta, 0.89544, 0.0, 0.5e-5);
    /* above the ridge point the peak is the bound; at it both agree */
    assert_ok(llmm_roofline(a100_p, a100_b, 400.0, &t));
    assert_true(t == a100_p);
    assert_ok(llmm_roofline(h100_p, h100_b, 189.0, &t));
    assert_close(t, h100_p, 1e-15, 0.0);
    assert_ok(llmm_roofline(a100_p, a100_b, 0.0, &t));
    assert_true(t == 0.0);
    assert_ok(llmm_roofline(1.0, 1e300, 1e300, &t)); /* B·I overflows: the peak still bounds */
    assert_true(t == 1.0);

    t = i = SENTINEL;
    assert_status(llmm_roofline(0.0, a100_b, 16.0, &t), LLMM_E_INVALID);
    assert_status(llmm_roofline(a100_p, -1.0, 16.0, &t), LLMM_E_INVALID);
    assert_status(llmm_roofline(a100_p, a100_b, -1.0, &t), LLMM_E_INVALID);
    assert_status(llmm_roofline(a100_p, a100_b, NAN, &t), LLMM_E_INVALID);
    assert_status(llmm_roofline(INFINITY, a100_b, 1.0, &t), LLMM_E_INVALID);
    assert_status(llmm_roofline(a100_p, a100_b, 16.0, NULL), LLMM_E_INVALID);
    assert_status(llmm_roofline_critical_intensity(a100_p, 0.0, &i), LLMM_E_INVALID);
    assert_status(llmm_roofline_critical_intensity(NAN, a100_b, &i), LLMM_E_INVALID);
    assert_status(llmm_roofline_critical_intensity(1e300, 1e-300, &i), LLMM_E_INVALID);
    assert_status(llmm_roofline_critical_intensity(a100_p, a100_b, NULL), LLMM_E_INVALID);
    assert_status(llmm_arithmetic_intensity(-1.0, 128.0, &i), LLMM_E_INVALID);
    assert_status(llmm_arithmetic_intensity(2048.0, 0.0, &i), LLMM_E_INVALID);
    assert_status(llmm_arithmetic_intensity(2048.0, 128.0, NULL), LLMM_E_INVALID);
    assert_true(t == SENTINEL && i == SENTINEL);
}

static void test_scaling_decay(void **state)
{
    const double ideal[3] = {184.0, 368.0, 736.0}, measured[3] = {172.0, 329.0, 612.0};
    const double expect[3] = {0.0652, 0.1060, 0.1685};
    const uint32_t gpus[3] = {2, 4, 8};
    double d = SENTINEL;
    int k;
    (void)state;
    for (k = 0; k < 3; k++) {
        assert_ok(llmm_scaling_decay(ideal[k], measured[k], &d));
        assert_close(d, expect[k], 0.0, 0.5e-4);
        assert_close(d, 1.0 - measured[k] / ideal[k], 1e-15, 0.0);
        /* the same from one GPU's 92 tok/s and the device count */
        assert_ok(llmm_scaling_decay_devices(92.0, gpus[k], measured[k], &d));
        assert_close(d, expect[k], 0.0, 0.5e-4);
    }
    assert_ok(llmm_scaling_decay(100.0, 120.0, &d)); /* super-linear: negative */
    assert_close(d, -0.2, 1e-15, 0.0);
    d = SENTINEL;
    assert_status(llmm_scaling_decay(0.0, 1.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay(10.0, -1.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay(NAN, 1.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay(10.0, 1.0, NULL), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay_devices(92.0, 0, 172.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay_devices(0.0, 2, 172.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay_devices(INFINITY, 2, 172.0, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay_devices(92.0, 2, NAN, &d), LLMM_E_INVALID);
    assert_status(llmm_scaling_decay_devices(92.0, 2, 172.0, NULL), LLMM_E_INVALID);
    assert_true(d == SENTINEL);
}

static void test_comm_share(void **state)
{
    double s = SENTINEL;
    (void)state;
    assert_ok(llmm_comm_share(0.82, 3.5, &s));
    assert_close(s, 0.2343, 0.0, 0.5e-4);
    assert_close(s, 0.82 / 3.5, 1e-15, 0.0);
    assert_ok(llmm_comm_share(0.0, 3.5, &s));
    assert_true(s == 0.0);
    assert_ok(llmm_comm_share(3.5, 3.5, &s));
    assert_true(s == 1.0);
    s = SENTINEL;
    assert_status(llmm_comm_share(3.6, 3.5, &s), LLMM_E_INVALID);
    assert_status(llmm_comm_share(-0.1, 3.5, &s), LLMM_E_INVALID);
    assert_status(llmm_comm_share(0.1, 0.0, &s), LLMM_E_INVALID);
    assert_status(llmm_comm_share(NAN, 3.5, &s), LLMM_E_INVALID);
    assert_status(llmm_comm_share(0.1, INFINITY, &s), LLMM_E_INVALID);
    assert_status(llmm_comm_share(0.1, 3.5, NULL), LLMM_E_INVALID);
    assert_true(s == SENTINEL);
}

static void test_seqlen_decay(void **state)
{
    const double shorter[3] = {1127.0, 1210.0, 612.0}, longer[3] = {693.0, 1056.0, 341.0};
    const double expect[3] = {0.3851, 0.1273, 0.4428};
    double d = SENTINEL;
    int k;
    (void)state;
    for (k = 0; k < 3; k++) {
        assert_ok(llmm_seqlen_decay(shorter[k], longer[k], &d));
        assert_close(d, expect[k], 0.0, 0.5e-4);
        assert_close(d, 1.0 - longer[k] / shorter[k], 1e-15, 0.0);
    }
    d = SENTINEL;
    assert_status(llmm_seqlen_decay(0.0, 10.0, &d), LLMM_E_INVALID);
    assert_status(llmm_seqlen_decay(10.0, -1.0, &d), LLMM_E_INVALID);
    assert_status(llmm_seqlen_decay(10.0, NAN, &d), LLMM_E_INVALID);
    assert_status(llmm_seqlen_decay(10.0, 1.0, NULL), LLMM_E_INVALID);
    assert_true(d == SENTINEL);
}

static void test_littles_law(void **state)
{
    const double p999[3] = {150.0, 200.0, 250.0}, expect[3] = {255.0, 191.25, 153.0};
    double tps = SENTINEL;
    int k;
    (void)state;
    for (k = 0; k < 3; k++) {
        assert_ok(llmm_littles_law_tps(p999[k], 45.0, 0.0, &tps)); /* 0 = default 0.85 */
        assert_close(tps, expect[k], 1e-14, 0.0);
        assert_ok(llmm_littles_law_tps(p999[k], 45.0, 0.85, &tps));
        assert_close(tps, expect[k], 1e-14, 0.0);
    }
    assert_true(LLMM_LITTLES_LAW_SAFETY_DEFAULT == 0.85);
    assert_ok(llmm_littles_law_tps(150.0, 45.0, 1.0, &tps));
    assert_close(tps, 300.0, 1e-14, 0.0);
    /* the floor of 1 request per second */
    assert_ok(llmm_littles_law_tps(10000.0, 2.0, 0.85, &tps));
    assert_true(tps == 1.0);
    assert_ok(llmm_littles_law_tps(150.0, 0.0, 0.85, &tps));
    assert_true(tps == 1.0);
    tps = SENTINEL;
    assert_status(llmm_littles_law_tps(150.0, 45.0, -0.1, &tps), LLMM_E_RANGE);
    assert_status(llmm_littles_law_tps(150.0, 45.0, 1.01, &tps), LLMM_E_RANGE);
    assert_status(llmm_littles_law_tps(150.0, 45.0, NAN, &tps), LLMM_E_INVALID);
    assert_status(llmm_littles_law_tps(0.0, 45.0, 0.85, &tps), LLMM_E_INVALID);
    assert_status(llmm_littles_law_tps(-5.0, 45.0, 0.85, &tps), LLMM_E_INVALID);
    assert_status(llmm_littles_law_tps(150.0, -1.0, 0.85, &tps), LLMM_E_INVALID);
    assert_status(llmm_littles_law_tps(INFINITY, 45.0, 0.85, &tps), LLMM_E_INVALID);
    assert_status(llmm_littles_law_tps(1e-320, 1e300, 1.0, &tps), LLMM_E_INVALID); /* overflow */
    assert_status(llmm_littles_law_tps(150.0, 45.0, 0.85, NULL), LLMM_E_INVALID);
    assert_true(tps == SENTINEL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decay_rate),       cmocka_unit_test(test_roofline),
        cmocka_unit_test(test_scaling_decay),    cmocka_unit_test(test_comm_share),
        cmocka_unit_test(test_seqlen_decay),     cmocka_unit_test(test_littles_law),
    };
    return cmocka_run_group_tests_name("capacity", tests, NULL, NULL);
}
