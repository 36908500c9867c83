/* test_cli_timeline: the report's time line (analysis/timeline.c), in memory and spilled to a
 * scratch file in chunks of a few points, against a reference computed here: every point on
 * the merged time line, t = max(0, (start + offset) + delay), sorted by (t, value); and the
 * exact nearest-rank P99 of each time bin against sorting each bin. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timeline.h"
#include "common/numbers.h"
#include "synth/rng.h"

#define NPTS 3000

typedef struct pt {
    double start, delay, v;
    int run;
} pt;

static const double offsets[3] = {-1000.0, 17.25, 1e-3};

/* Points of three runs (the last has no run_end: its points keep their clock), with ties in
 * time and value, times that would be negative and values repeated. */
static void make_points(pt *p, size_t n, uint64_t seed)
{
    llmm_cli_rng rng;
    llmm_cli_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        double u = llmm_cli_rng_uniform(&rng);
        p[i].run = i < n / 2 ? 0 : i < n - n / 5 ? 1 : 2;
        p[i].start = (p[i].run == 0 ? 1000.0 : 0.0) + floor(u * 400.0) / 8.0;
        p[i].delay = (i % 7 == 0) ? 0.5 : llmm_cli_rng_uniform(&rng);
        p[i].v = (i % 5 == 0) ? 0.25 : llmm_cli_rng_uniform(&rng);
        if (i % 97 == 0)
            p[i].start = -5.0; /* before the time line's start: t clamps to 0 */
    }
}

static int cmp_obs(const void *pa, const void *pb)
{
    const llmm_cli_obs *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* The reference: the observations, sorted. */
static llmm_cli_obs *reference(const pt *p, size_t n)
{
    llmm_cli_obs *o = malloc(n * sizeof *o);
    assert_non_null(o);
    for (size_t i = 0; i < n; i++) {
        double off = p[i].run < 2 ? offsets[p[i].run] : 0.0;
        o[i].t = (p[i].start + off) + p[i].delay;
        if (o[i].t < 0)
            o[i].t = 0;
        o[i].v = p[i].v;
    }
    qsort(o, n, sizeof *o, cmp_obs);
    return o;
}

static void fill(llmm_cli_timeline *tl, const pt *p, size_t n)
{
    llmm_cli_error err;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && p[i].run != p[i - 1].run)
            assert_int_equal(llmm_cli_timeline_run_end(tl, offsets[p[i - 1].run], &err),
                             LLMM_CLI_OK);
        assert_int_equal(llmm_cli_timeline_add(tl, p[i].start, p[i].delay, p[i].v, &err),
                         LLMM_CLI_OK);
    }
    if (n > 0 && p[n - 1].run < 2) /* run 2 never ends: finish takes its points as they are */
        assert_int_equal(llmm_cli_timeline_run_end(tl, offsets[p[n - 1].run], &err),
                         LLMM_CLI_OK);
    assert_int_equal(llmm_cli_timeline_finish(tl, &err), LLMM_CLI_OK);
}

/* Read it all, twice at once (two readers), and compare with the reference. */
static void read_back(const llmm_cli_timeline *tl, const llmm_cli_obs *want, size_t n)
{
    llmm_cli_tl_iter a, b;
    llmm_cli_obs oa, ob;
    llmm_cli_error err;
    size_t k = 0;
    assert_int_equal(llmm_cli_timeline_begin(tl, &a, &err), LLMM_CLI_OK);
    assert_int_equal(llmm_cli_timeline_begin(tl, &b, &err), LLMM_CLI_OK);
    while (llmm_cli_timeline_next(&a, &oa, &err) == 1) {
        assert_int_equal(llmm_cli_timeline_next(&b, &ob, &err), 1);
        assert_true(k < n);
        if (oa.t != want[k].t || oa.v != want[k].v || ob.t != oa.t || ob.v != oa.v)
            fail_msg("observation %zu: (%.17g, %.17g), want (%.17g, %.17g)", k, oa.t, oa.v,
                     want[k].t, want[k].v);
        k++;
    }
    assert_int_equal(llmm_cli_timeline_next(&b, &ob, &err), 0);
    assert_int_equal(k, n);
    assert_true(n == 0 || tl->last_t == want[n - 1].t);
    llmm_cli_timeline_end(&a);
    llmm_cli_timeline_end(&b);
}

static void in_memory_and_spilled_agree(void **state)
{
    static pt p[NPTS];
    static const size_t bounds[] = {1, 2, 7, 1000, NPTS - 1, NPTS, LLMM_CLI_TIMELINE_BOUND};
    (void)state;
    make_points(p, NPTS, 7);
    for (size_t n = 0; n <= NPTS; n += n < 20 ? 1 : NPTS / 3) {
        llmm_cli_obs *want = reference(p, n);
        for (size_t b = 0; b < sizeof bounds / sizeof *bounds; b++) {
            llmm_cli_timeline tl;
            llmm_cli_timeline_init(&tl, bounds[b]);
            fill(&tl, p, n);
            assert_true(tl.total == n);
            /* spilled exactly when there are more points than the bound */
            assert_int_equal(tl.nchunks, n > bounds[b] ? (n + bounds[b] - 1) / bounds[b] : 0);
            read_back(&tl, want, n);
            llmm_cli_timeline_free(&tl);
        }
        free(want);
    }
}

static void p99_per_bin_is_exact(void **state)
{
    static pt p[NPTS];
    static const double bins[] = {0.5, 7.0, 1e6};
    llmm_cli_obs *want;
    double got[4096], vals[NPTS];
    llmm_cli_error err;
    (void)state;
    make_points(p, NPTS, 11);
    want = reference(p, NPTS);
    for (size_t k = 0; k < sizeof bins / sizeof *bins; k++) {
        size_t nbins = (size_t)floor(want[NPTS - 1].t / bins[k]) + 1, i = 0;
        for (size_t b2 = 0; b2 < 2; b2++) {
            llmm_cli_timeline tl;
            llmm_cli_timeline_init(&tl, b2 ? 13 : 0);
            fill(&tl, p, NPTS);
            assert_true(nbins <= 4096);
            assert_int_equal(llmm_cli_timeline_binned(&tl, bins[k], 0.99, got, nbins, &err),
                             LLMM_CLI_OK);
            llmm_cli_timeline_free(&tl);
            i = 0;
            for (size_t b = 0; b < nbins; b++) {
                size_t m = 0;
                while (i < NPTS && (b + 1 == nbins || want[i].t < (double)(b + 1) * bins[k]))
                    vals[m++] = want[i++].v;
                if (m == 0) {
                    assert_true(isnan(got[b]));
                    continue;
                }
                llmm_cli_sort(vals, m);
                if (got[b] != llmm_cli_nearest_rank(vals, m, 0.99))
                    fail_msg("bin %zu of %g s: %.17g, want %.17g", b, bins[k], got[b],
                             llmm_cli_nearest_rank(vals, m, 0.99));
            }
            assert_int_equal(i, NPTS);
        }
    }
    free(want);
}

static void scratch_file_errors_are_reported(void **state)
{
    llmm_cli_timeline tl;
    llmm_cli_error err;
    const char *was = getenv("TMPDIR");
    char *keep = was ? strdup(was) : NULL;
    (void)state;
    setenv("TMPDIR", "/nonexistent/llmm-test", 1);
    llmm_cli_timeline_init(&tl, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(llmm_cli_timeline_add(&tl, i, 1, 1, &err), LLMM_CLI_OK);
    assert_int_equal(llmm_cli_timeline_add(&tl, 5, 1, 1, &err), LLMM_CLI_EIO);
    assert_non_null(strstr(err.msg, "cannot create a scratch file in /nonexistent/llmm-test"));
    llmm_cli_timeline_free(&tl);
    if (keep)
        setenv("TMPDIR", keep, 1);
    else
        unsetenv("TMPDIR");
    free(keep);
    /* the bound from the environment: KiB of 24-byte points */
    setenv("LLMM_TIMELINE_KIB", "3", 1);
    llmm_cli_timeline_init(&tl, 0);
    assert_int_equal(tl.bound, 128);
    setenv("LLMM_TIMELINE_KIB", "x", 1);
    llmm_cli_timeline_init(&tl, 0);
    assert_int_equal(tl.bound, LLMM_CLI_TIMELINE_BOUND);
    unsetenv("LLMM_TIMELINE_KIB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(in_memory_and_spilled_agree),
        cmocka_unit_test(p99_per_bin_is_exact),
        cmocka_unit_test(scratch_file_errors_are_reported),
    };
    return cmocka_run_group_tests_name("cli_timeline", tests, NULL, NULL);
}
