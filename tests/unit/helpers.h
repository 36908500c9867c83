/* Shared test helpers: double comparison, a counting allocator and a failing allocator.
 * Include after <cmocka.h>'s prerequisites (stdarg, stddef, setjmp, stdint). */
#ifndef LLMM_TEST_HELPERS_H
#define LLMM_TEST_HELPERS_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "llmmetrics/llmmetrics.h"

#include "exact_q.h"

/* cmocka 1.1.5 compares doubles as floats: this compares |a-b| <= max(abs, rel*|b|). */
#define assert_close(a, b, rel, abs_) \
    llmm_test_assert_close_((double)(a), (double)(b), (rel), (abs_), #a, #b, __FILE__, __LINE__)

static inline void llmm_test_assert_close_(double a, double b, double rel, double abs_tol,
                                           const char *ea, const char *eb, const char *file,
                                           int line)
{
    double diff = fabs(a - b);
    double tol = fmax(abs_tol, rel * fabs(b));
    if (isnan(a) && isnan(b))
        return;
    if (a == b)
        return; /* also equal infinities */
    if (!(diff <= tol)) {
        print_error("%s = %.17g is not close to %s = %.17g (diff %.3g > tol %.3g)\n", ea, a, eb,
                    b, diff, tol);
        _fail(file, line);
    }
}

#define assert_status(expr, expected)                                                        \
    do {                                                                                     \
        llmm_status st_ = (expr);                                                            \
        if (st_ != (expected)) {                                                             \
            print_error("%s returned %s, expected %s\n", #expr, llmm_status_name(st_),      \
                        llmm_status_name(expected));                                         \
            _fail(__FILE__, __LINE__);                                                       \
        }                                                                                    \
    } while (0)

#define assert_ok(expr) assert_status((expr), LLMM_OK)

/* ---- counting / failing allocator ----------------------------------------------------------
 * One struct does both: it counts allocations, live bytes and peak bytes, checks that every
 * free/realloc names the size that was allocated, and (when fail_at > 0) fails the fail_at-th
 * allocation or reallocation. */
typedef struct llmm_test_alloc {
    size_t calls;       /* alloc + realloc attempts so far */
    size_t fail_at;     /* 0 = never fail; k = fail the k-th attempt */
    size_t failures;    /* how many attempts were failed */
    size_t live_bytes;
    size_t peak_bytes;
    size_t live_blocks;
    size_t size_mismatch; /* free/realloc with a size other than the allocated one */
} llmm_test_alloc;

/* Each block carries a hidden header with its size, to check the sizes the library passes. */
#define LLMM_TEST_HDR 16

static inline void *llmm_test_alloc_fn(void *user, size_t size)
{
    llmm_test_alloc *t = (llmm_test_alloc *)user;
    unsigned char *p;
    t->calls++;
    if (t->fail_at && t->calls == t->fail_at) {
        t->failures++;
        return NULL;
    }
    p = (unsigned char *)malloc(size + LLMM_TEST_HDR);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    t->live_bytes += size;
    t->live_blocks++;
    if (t->live_bytes > t->peak_bytes)
        t->peak_bytes = t->live_bytes;
    return p + LLMM_TEST_HDR;
}

static inline void llmm_test_free_fn(void *user, void *ptr, size_t size)
{
    llmm_test_alloc *t = (llmm_test_alloc *)user;
    unsigned char *p = (unsigned char *)ptr - LLMM_TEST_HDR;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size)
        t->size_mismatch++;
    t->live_bytes -= had;
    t->live_blocks--;
    free(p);
}

static inline void *llmm_test_realloc_fn(void *user, void *ptr, size_t old_size, size_t new_size)
{
    llmm_test_alloc *t = (llmm_test_alloc *)user;
    unsigned char *p = (unsigned char *)ptr - LLMM_TEST_HDR;
    unsigned char *q;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != old_size)
        t->size_mismatch++;
    t->calls++;
    if (t->fail_at && t->calls == t->fail_at) {
        t->failures++;
        return NULL;
    }
    q = (unsigned char *)realloc(p, new_size + LLMM_TEST_HDR);
    if (!q)
        return NULL;
    memcpy(q, &new_size, sizeof new_size);
    t->live_bytes = t->live_bytes - had + new_size;
    if (t->live_bytes > t->peak_bytes)
        t->peak_bytes = t->live_bytes;
    return q + LLMM_TEST_HDR;
}

/* Make a ctx that allocates through t. The ctx's own block is counted too. */
static inline llmm_ctx *llmm_test_ctx(llmm_test_alloc *t, size_t fail_at)
{
    llmm_allocator a;
    llmm_ctx *ctx = NULL;
    memset(t, 0, sizeof *t);
    llmm_allocator_init(&a);
    a.user = t;
    a.alloc = llmm_test_alloc_fn;
    a.realloc = llmm_test_realloc_fn;
    a.free = llmm_test_free_fn;
    if (llmm_ctx_new(&a, &ctx) != LLMM_OK)
        return NULL;
    t->fail_at = fail_at ? fail_at + t->calls : 0; /* count from after the ctx's own allocation */
    return ctx;
}

/* Drive `step` with a failing allocator for k = 1, 2, ... until it succeeds without an injected
 * failure. `step` must return LLMM_OK on success, LLMM_E_NOMEM on an injected failure, free
 * everything it made before returning, and leave no state half-changed (it checks that itself).
 * Asserts zero leaked bytes after every k. Returns the number of allocations of the success. */
typedef llmm_status (*llmm_test_step_fn)(llmm_ctx *ctx, void *arg);

static inline size_t llmm_test_each_failure(llmm_test_step_fn step, void *arg)
{
    size_t k;
    for (k = 1; k < 100000; k++) {
        llmm_test_alloc t;
        llmm_ctx *ctx = llmm_test_ctx(&t, k);
        llmm_status st;
        assert_non_null(ctx);
        st = step(ctx, arg);
        if (t.failures == 0) {
            assert_int_equal(st, LLMM_OK);
        } else if (st != LLMM_E_NOMEM) {
            print_error("allocation %zu failed but the call returned %s\n", k,
                        llmm_status_name(st));
            _fail(__FILE__, __LINE__);
        }
        assert_int_equal(t.size_mismatch, 0);
        assert_int_equal(t.live_blocks, 1); /* only the ctx itself */
        llmm_ctx_free(ctx);
        assert_int_equal(t.live_bytes, 0);
        if (t.failures == 0)
            return k - 1;
    }
    fail_msg("step never succeeded");
    return 0;
}

/* Whether long double arithmetic keeps its full significand at run time. Valgrind's memcheck
 * computes x87 long doubles in double precision, so a test whose reference values need the
 * extra precision skips itself under valgrind (./dev.sh test runs the unit suite there). */
static inline int llmm_test_long_double_exact(void)
{
    volatile long double one = 1.0L, eps = LDBL_EPSILON;
    return LDBL_MANT_DIG <= DBL_MANT_DIG || one + eps != one;
}

/* Return from the calling test (cmocka 1.1.5 reports skip() as "not ok # SKIP", which meson
 * counts as a failure, so the subtest passes vacuously and says so in a TAP comment). */
#define LLMM_TEST_NEEDS_LONG_DOUBLE()                                                         \
    do {                                                                                     \
        if (!llmm_test_long_double_exact()) {                                                \
            print_message("# not run: long double has double precision here (valgrind)\n"); \
            return;                                                                          \
        }                                                                                    \
    } while (0)

/* Path of tests/data, passed by meson as the environment variable LLMM_TEST_DATA. */
static inline const char *llmm_test_data_dir(void)
{
    const char *d = getenv("LLMM_TEST_DATA");
    return d ? d : "tests/data";
}

/* ---- deterministic data and exact references ------------------------------------------------ */

/* Worst relative error of one sketch at scale 6: (2^(1/64) - 1) / (2^(1/64) + 1) rounded up. */
#define REL_ERR_S6 0.00542

/* xorshift64* with fixed seeds (no libc rand), uniform in (0, 1), log-normal by Box-Muller */
static inline uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}
static inline double rng_unit(uint64_t *x)
{
    return ((double)(rng_next(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static inline double lognormal(uint64_t *x, double median, double sigma)
{
    double u1 = rng_unit(x), u2 = rng_unit(x);
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}
/* a and b hold the same values: scale, count, special counts, buckets, min, max and
 * quantiles alike; sums equal (sum_rel = 0) or within sum_rel relative. */
static inline void assert_same_sketch(const llmm_sketch *a, const llmm_sketch *b, double sum_rel)
{
    int32_t fa, la, fb, lb;
    double x, y;
    uint64_t z1, u1, o1, z2, u2, o2;
    assert_int_equal(llmm_sketch_scale(a), llmm_sketch_scale(b));
    assert_int_equal(llmm_sketch_count(a), llmm_sketch_count(b));
    assert_ok(llmm_sketch_special_counts(a, &z1, &u1, &o1));
    assert_ok(llmm_sketch_special_counts(b, &z2, &u2, &o2));
    assert_int_equal(z1, z2);
    assert_int_equal(u1, u2);
    assert_int_equal(o1, o2);
    assert_int_equal(llmm_sketch_bucket_span(a, &fa, &la), llmm_sketch_bucket_span(b, &fb, &lb));
    if (llmm_sketch_bucket_span(a, &fa, &la) == LLMM_OK) {
        assert_int_equal(fa, fb);
        assert_int_equal(la, lb);
        for (int32_t i = fa; i <= la; i++)
            assert_int_equal(llmm_sketch_bucket_count(a, i), llmm_sketch_bucket_count(b, i));
    }
    if (llmm_sketch_count(a)) {
        assert_ok(llmm_sketch_min(a, &x));
        assert_ok(llmm_sketch_min(b, &y));
        assert_true(x == y);
        assert_ok(llmm_sketch_max(a, &x));
        assert_ok(llmm_sketch_max(b, &y));
        assert_true(x == y);
        for (double q = 0.0; q <= 1.0; q += 0.0625) {
            assert_ok(llmm_sketch_quantile(a, q, &x));
            assert_ok(llmm_sketch_quantile(b, q, &y));
            assert_true(x == y);
        }
    }
    assert_ok(llmm_sketch_sum(a, &x));
    assert_ok(llmm_sketch_sum(b, &y));
    if (sum_rel == 0.0)
        assert_true(x == y);
    else
        assert_close(x, y, sum_rel, 0.0);
}

#endif
