/* Core module: status strings, version, allocator and context, clock. Links the shared library. */
#include "helpers.h"

static void test_status_values_pinned(void **state)
{
    (void)state;
    /* The values are ABI: they must never change. */
    assert_int_equal(LLMM_OK, 0);
    assert_int_equal(LLMM_E_INVALID, -1);
    assert_int_equal(LLMM_E_NOMEM, -2);
    assert_int_equal(LLMM_E_RANGE, -3);
    assert_int_equal(LLMM_E_EMPTY, -4);
    assert_int_equal(LLMM_E_CORRUPT, -5);
    assert_int_equal(LLMM_E_VERSION, -6);
    assert_int_equal(LLMM_E_BUFFER, -7);
    assert_int_equal(LLMM_E_UNKNOWN_OPTION, -8);
    assert_int_equal(LLMM_E_STATE, -9);
    assert_int_equal(LLMM_E_NOT_CONVERGED, -10);
    assert_int_equal(LLMM_E_ABI, -11);
    assert_int_equal(sizeof(llmm_status), sizeof(int));
}

static void test_status_strings(void **state)
{
    (void)state;
    assert_string_equal(llmm_status_name(LLMM_OK), "LLMM_OK");
    assert_string_equal(llmm_status_name(LLMM_E_BUFFER), "LLMM_E_BUFFER");
    assert_string_equal(llmm_status_name(LLMM_E_ABI), "LLMM_E_ABI");
    assert_string_equal(llmm_strerror(LLMM_OK), "success");
    assert_string_equal(llmm_strerror(LLMM_E_NOMEM), "out of memory");
    /* every known code has a distinct name and a non-empty message */
    for (int i = 0; i >= -11; i--) {
        const char *n = llmm_status_name((llmm_status)i);
        assert_non_null(n);
        assert_true(strncmp(n, "LLMM_", 5) == 0);
        assert_string_not_equal(n, "LLMM_E_UNKNOWN_STATUS");
        assert_true(strlen(llmm_strerror((llmm_status)i)) > 0);
        for (int j = 0; j > i; j--)
            assert_string_not_equal(n, llmm_status_name((llmm_status)j));
    }
    /* unknown values: never NULL */
    assert_string_equal(llmm_status_name((llmm_status)-12), "LLMM_E_UNKNOWN_STATUS");
    assert_string_equal(llmm_status_name((llmm_status)1), "LLMM_E_UNKNOWN_STATUS");
    assert_string_equal(llmm_strerror((llmm_status)-9999), "unknown status");
    assert_string_equal(llmm_strerror((llmm_status)42), "unknown status");
}

static void test_version(void **state)
{
    char buf[32];
    (void)state;
    assert_int_equal(llmm_version(), LLMM_VERSION_NUMBER);
    assert_string_equal(llmm_version_string(), LLMM_VERSION_STRING);
    snprintf(buf, sizeof buf, "%d.%d.%d", LLMM_VERSION_MAJOR, LLMM_VERSION_MINOR,
             LLMM_VERSION_PATCH);
    assert_string_equal(llmm_version_string(), buf);
    assert_int_equal(llmm_version(),
                     LLMM_VERSION_MAJOR * 10000 + LLMM_VERSION_MINOR * 100 + LLMM_VERSION_PATCH);
}

static void test_allocator_init(void **state)
{
    llmm_allocator a;
    (void)state;
    assert_status(llmm_allocator_init(NULL), LLMM_E_INVALID);
    assert_ok(llmm_allocator_init(&a));
    assert_int_equal(a.struct_size, sizeof a);
    assert_non_null(a.alloc);
    assert_non_null(a.realloc);
    assert_non_null(a.free);
    /* the defaults work */
    void *p = a.alloc(a.user, 100);
    assert_non_null(p);
    p = a.realloc(a.user, p, 100, 1000);
    assert_non_null(p);
    a.free(a.user, p, 1000);
}

static void test_ctx_lifecycle(void **state)
{
    llmm_ctx *ctx = (llmm_ctx *)0x1;
    llmm_allocator a;
    (void)state;
    assert_status(llmm_ctx_new(NULL, NULL), LLMM_E_INVALID);
    assert_ok(llmm_ctx_new(NULL, &ctx));
    assert_non_null(ctx);
    llmm_ctx_free(ctx);
    llmm_ctx_free(NULL);

    llmm_allocator_init(&a);
    a.struct_size = 4;
    ctx = (llmm_ctx *)0x1;
    assert_status(llmm_ctx_new(&a, &ctx), LLMM_E_ABI);
    assert_null(ctx);
    llmm_allocator_init(&a);
    a.struct_size += 8;
    assert_status(llmm_ctx_new(&a, &ctx), LLMM_E_ABI);
    llmm_allocator_init(&a);
    a.free = NULL;
    assert_status(llmm_ctx_new(&a, &ctx), LLMM_E_INVALID);
    assert_null(ctx);
}

static void test_ctx_counting_allocator(void **state)
{
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    (void)state;
    assert_non_null(ctx);
    assert_int_equal(t.calls, 1);
    assert_int_equal(t.live_blocks, 1);
    assert_true(t.live_bytes > 0);
    llmm_ctx_free(ctx);
    assert_int_equal(t.live_bytes, 0);
    assert_int_equal(t.live_blocks, 0);
    assert_int_equal(t.size_mismatch, 0);
}

static void test_ctx_failing_allocator(void **state)
{
    llmm_test_alloc t;
    llmm_allocator a;
    llmm_ctx *ctx = (llmm_ctx *)0x1;
    (void)state;
    memset(&t, 0, sizeof t);
    llmm_allocator_init(&a);
    a.user = &t;
    a.alloc = llmm_test_alloc_fn;
    a.realloc = llmm_test_realloc_fn;
    a.free = llmm_test_free_fn;
    /* k = 1: the only allocation of ctx_new fails: clean error, nothing leaked */
    t.fail_at = 1;
    assert_status(llmm_ctx_new(&a, &ctx), LLMM_E_NOMEM);
    assert_null(ctx);
    assert_int_equal(t.live_bytes, 0);
    assert_int_equal(t.failures, 1);
    /* k = 2: succeeds */
    t.fail_at = 3;
    assert_ok(llmm_ctx_new(&a, &ctx));
    assert_non_null(ctx);
    llmm_ctx_free(ctx);
    assert_int_equal(t.live_bytes, 0);
}

static void test_ctx_shared_across_objects(void **state)
{
    /* one ctx, many contexts' worth of independent users: it is immutable, so just reuse */
    llmm_test_alloc t;
    llmm_ctx *ctx = llmm_test_ctx(&t, 0);
    llmm_ctx *ctx2 = NULL;
    llmm_allocator a;
    (void)state;
    llmm_allocator_init(&a);
    assert_ok(llmm_ctx_new(&a, &ctx2));
    llmm_ctx_free(ctx2);
    llmm_ctx_free(ctx);
    assert_int_equal(t.live_bytes, 0);
}

static void test_now_ns_monotonic(void **state)
{
    uint64_t a, b;
    (void)state;
    a = llmm_now_ns();
    b = llmm_now_ns();
    assert_true(a > 0);
    assert_true(b >= a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_values_pinned),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_allocator_init),
        cmocka_unit_test(test_ctx_lifecycle),
        cmocka_unit_test(test_ctx_counting_allocator),
        cmocka_unit_test(test_ctx_failing_allocator),
        cmocka_unit_test(test_ctx_shared_across_objects),
        cmocka_unit_test(test_now_ns_monotonic),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
