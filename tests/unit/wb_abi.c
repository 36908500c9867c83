/* White-box test of the caller-sized struct helpers (lib/core/abi.c) on a struct that has
 * been released twice, as every struct will be once it grows: version 1 of 16 bytes, version 2
 * of 24 bytes with a field whose default is not zero. No public struct has grown yet, so the
 * prefix rules are proved here on a description of our own, through the library's code. */
#include "helpers.h"

#include "core/abi.h"

#define CANARY 0xA5

typedef struct fake_v2 {
    uint32_t struct_size;
    uint32_t a;
    double b;
    double added; /* appended in version 2; default 7 */
} fake_v2;

static const uint32_t fake_sizes[] = {16, 24, 0};

static void fake_defaults(void *full)
{
    fake_v2 *f = full;
    f->b = 2.5;
    f->added = 7.0;
}

static const llmm__sized_desc fake = {LLMM_STRUCT_KIND_FORCE_INT_, sizeof(fake_v2), fake_sizes,
                                      fake_defaults};

/* A version-1 caller's struct of 16 bytes inside a larger buffer. */
typedef union caller {
    fake_v2 s;
    unsigned char b[64];
} caller;

static void v1(caller *c, uint32_t a, double b)
{
    memset(c, CANARY, sizeof *c);
    c->s.struct_size = 16;
    c->s.a = a;
    c->s.b = b;
}

static int untouched_from(const caller *c, size_t from)
{
    size_t i;
    for (i = from; i < sizeof c->b; i++)
        if (c->b[i] != CANARY)
            return 0;
    return 1;
}

static void test_check(void **state)
{
    caller c;
    (void)state;
    v1(&c, 1, 1.0);
    assert_ok(llmm__desc_check(&fake, &c));
    c.s.struct_size = 24;
    assert_ok(llmm__desc_check(&fake, &c));
    c.s.struct_size = 20;
    assert_status(llmm__desc_check(&fake, &c), LLMM_E_ABI);
    c.s.struct_size = 32;
    assert_status(llmm__desc_check(&fake, &c), LLMM_E_ABI);
    assert_status(llmm__desc_check(&fake, NULL), LLMM_E_INVALID);
    assert_status(llmm__desc_check(NULL, &c), LLMM_E_ABI);
}

/* Reading a version-1 struct: its fields, and the default for the field it lacks. */
static void test_get_fills_missing_defaults(void **state)
{
    caller c;
    fake_v2 full;
    (void)state;
    v1(&c, 3, 4.5);
    assert_ok(llmm__desc_get(&fake, &full, &c));
    assert_int_equal(full.struct_size, sizeof full);
    assert_int_equal(full.a, 3);
    assert_close(full.b, 4.5, 0, 0);
    assert_close(full.added, 7.0, 0, 0);
    /* a version-2 caller's own value wins */
    c.s.struct_size = 24;
    c.s.added = 9.0;
    assert_ok(llmm__desc_get(&fake, &full, &c));
    assert_close(full.added, 9.0, 0, 0);
    /* refused: full untouched */
    memset(&full, CANARY, sizeof full);
    c.s.struct_size = 20;
    assert_status(llmm__desc_get(&fake, &full, &c), LLMM_E_ABI);
    assert_int_equal(((unsigned char *)&full)[0], CANARY);
    assert_int_equal(((unsigned char *)&full)[sizeof full - 1], CANARY);
}

/* Writing into a version-1 struct: its 16 bytes, its own struct_size kept, nothing beyond. */
static void test_put_writes_only_the_prefix(void **state)
{
    caller c;
    fake_v2 full = {24, 11, 12.5, 13.5};
    (void)state;
    v1(&c, 0, 0.0);
    llmm__sized_put(&c, &full);
    assert_int_equal(c.s.struct_size, 16);
    assert_int_equal(c.s.a, 11);
    assert_close(c.s.b, 12.5, 0, 0);
    assert_true(untouched_from(&c, 16));
}

static void test_init_each_released_size(void **state)
{
    caller c;
    (void)state;
    memset(&c, CANARY, sizeof c);
    assert_ok(llmm__desc_init(&fake, &c, 16));
    assert_int_equal(c.s.struct_size, 16);
    assert_int_equal(c.s.a, 0);
    assert_close(c.s.b, 2.5, 0, 0);
    assert_true(untouched_from(&c, 16));
    memset(&c, CANARY, sizeof c);
    assert_ok(llmm__desc_init(&fake, &c, 24));
    assert_close(c.s.added, 7.0, 0, 0);
    assert_true(untouched_from(&c, 24));
    memset(&c, CANARY, sizeof c);
    assert_status(llmm__desc_init(&fake, &c, 20), LLMM_E_ABI);
    assert_true(untouched_from(&c, 0));
    assert_status(llmm__desc_init(&fake, NULL, 16), LLMM_E_INVALID);
}

/* The library's own table: every public kind is described, its newest released size is the
 * library's own struct, and every released size fits in it, oldest first and growing. */
static void test_table(void **state)
{
    int k;
    (void)state;
    for (k = LLMM_STRUCT_ALLOCATOR; k <= LLMM_STRUCT_TRACED_EVENT; k++) {
        const llmm__sized_desc *d = llmm__sized_find((llmm_struct_kind)k);
        const uint32_t *s;
        uint32_t prev = 0;
        assert_non_null(d);
        assert_int_equal(d->kind, k);
        assert_non_null(d->sizes);
        for (s = d->sizes; *s; s++) {
            assert_true(*s > prev && *s <= d->full);
            prev = *s;
        }
        assert_int_equal(prev, d->full);
    }
    assert_null(llmm__sized_find((llmm_struct_kind)0));
    assert_null(llmm__sized_find((llmm_struct_kind)(LLMM_STRUCT_TRACED_EVENT + 1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_get_fills_missing_defaults),
        cmocka_unit_test(test_put_writes_only_the_prefix),
        cmocka_unit_test(test_init_each_released_size),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
