/* test_bench_trace: the trace context of `llmm bench` (bench/trace.h): request ids valid (not
 * all zero) and distinct, children of --traceparent (its trace id, never its span id), the
 * header as the library parses it back; the slowest requests in exact order; and the TTFT
 * spikes named by trace id: a steady TTFT with injected outliers, found at exactly the injected
 * requests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/trace.h"

#define NIDS 20000

static int cmp_bytes16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}
static int cmp_bytes8(const void *a, const void *b)
{
    return memcmp(a, b, 8);
}

static int all_zero(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

static void ids_fresh_and_distinct(void **state)
{
    llmm_bench_target t;
    llmm_cli_rng g;
    uint8_t(*tr)[16] = malloc(NIDS * sizeof *tr);
    uint8_t(*sp)[8] = malloc(NIDS * sizeof *sp);
    (void)state;
    assert_non_null(tr);
    assert_non_null(sp);
    memset(&t, 0, sizeof t);
    llmm_bench_ids_seed(&g);
    for (size_t i = 0; i < NIDS; i++) {
        llmm_bench_ids_next(&g, &t, tr[i], sp[i]);
        assert_false(all_zero(tr[i], 16));
        assert_false(all_zero(sp[i], 8));
    }
    qsort(tr, NIDS, sizeof *tr, cmp_bytes16);
    qsort(sp, NIDS, sizeof *sp, cmp_bytes8);
    for (size_t i = 1; i < NIDS; i++) {
        assert_true(memcmp(tr[i - 1], tr[i], 16) != 0);
        assert_true(memcmp(sp[i - 1], sp[i], 8) != 0);
    }
    free(tr);
    free(sp);
}

static void children_of_traceparent(void **state)
{
    const char *parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    llmm_bench_target t;
    llmm_cli_rng g;
    char line[80];
    uint8_t tr[16], sp[8], tr2[16], sp2[8], flags = 9;
    (void)state;
    memset(&t, 0, sizeof t);
    assert_int_equal(llmm_traceparent_parse(parent, t.tp_trace, t.tp_span, &t.tp_flags), LLMM_OK);
    t.tp_given = 1;
    llmm_cli_rng_seed(&g, 7);
    for (int i = 0; i < 1000; i++) {
        llmm_bench_ids_next(&g, &t, tr, sp);
        assert_memory_equal(tr, t.tp_trace, 16);
        assert_memory_not_equal(sp, t.tp_span, 8);
        assert_false(all_zero(sp, 8));
    }
    llmm_bench_traceparent_header(&t, tr, sp, line, sizeof line);
    assert_int_equal(strncmp(line, "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-", 49), 0);
    assert_int_equal(strlen(line), 13 + 55);
    assert_int_equal(llmm_traceparent_parse(line + 13, tr2, sp2, &flags), LLMM_OK);
    assert_memory_equal(tr2, tr, 16);
    assert_memory_equal(sp2, sp, 8);
    assert_int_equal(flags, 0); /* the parent's flags */
    t.tp_given = 0;
    llmm_bench_traceparent_header(&t, tr, sp, line, sizeof line);
    assert_string_equal(line + 13 + 53, "01"); /* our own traces: sampled */
}

/* A level of n measured requests: request i sent at i * gap, TTFT ttft[i], E2E 2 * ttft[i]. */
static void level(llmm_bench_result *r, size_t n, double gap, const double *ttft)
{
    memset(r, 0, sizeof *r);
    r->level.concurrency = 8;
    r->rec = calloc(n, sizeof *r->rec);
    assert_non_null(r->rec);
    r->n = n;
    for (size_t i = 0; i < n; i++) {
        llmm_bench_rec *x = &r->rec[i];
        x->sent = 100.0 + (double)i * gap;
        x->first = x->sent + ttft[i];
        x->last = x->sent + 2 * ttft[i];
        x->end = x->last;
        x->measured = 1;
        x->phase = LLMM_BENCH_WINDOW;
        memset(x->trace_id, 0, 16);
        x->trace_id[0] = 0xab;
        x->trace_id[12] = (uint8_t)(i >> 24);
        x->trace_id[13] = (uint8_t)(i >> 16);
        x->trace_id[14] = (uint8_t)(i >> 8);
        x->trace_id[15] = (uint8_t)i;
        x->span_id[7] = 1;
    }
}

/* What llmm_bench_slowest_print() writes, into *buf (malloc'ed). */
static void printed(const llmm_bench_slowest *s, char **buf)
{
    size_t len = 0;
    FILE *f = open_memstream(buf, &len);
    assert_non_null(f);
    llmm_bench_slowest_print(f, s);
    fclose(f);
}

static void slowest_in_order(void **state)
{
    double ttft[50];
    llmm_bench_result r;
    llmm_bench_slowest s;
    char *out, *p;
    static const size_t want[5] = {17, 3, 44, 29, 8};
    (void)state;
    for (size_t i = 0; i < 50; i++)
        ttft[i] = 0.010 + 0.0001 * (double)(i % 7);
    for (size_t k = 0; k < 5; k++)
        ttft[want[k]] = 0.5 - 0.05 * (double)k;
    level(&r, 50, 0.01, ttft);
    r.rec[10].measured = 0; /* a warm-up request is never named */
    ttft[10] = 9;
    r.rec[10].first = r.rec[10].sent + 9;
    memset(&s, 0, sizeof s);
    llmm_bench_slowest_add(&s, &r);
    printed(&s, &out);
    p = out;
    for (int fig = 0; fig < 2; fig++)
        for (size_t k = 0; k < 5; k++) {
            char line[160];
            snprintf(line, sizeof line,
                     "%-4s %10.1f ms  level c8     request bench-%-6zu trace "
                     "ab0000000000000000000000%08zx span 0000000000000001\n",
                     fig ? "TTFT" : "E2E", (fig ? 1 : 2) * ttft[want[k]] * 1e3, want[k], want[k]);
            p = strstr(p, line);
            assert_non_null(p);
        }
    assert_null(strstr(out, "bench-10 "));
    free(out);
    free(r.rec);
    llmm_bench_slowest_free(&s);
}

static void spikes_named_by_trace(void **state)
{
    enum { N = 3000 };
    static const size_t hit[3] = {1500, 2500, 2501}; /* each above 1.2 x P99.9 */
    double *ttft = malloc(N * sizeof *ttft);
    llmm_bench_result r;
    llmm_bench_slowest s;
    char *out, *p;
    size_t lines = 0;
    (void)state;
    assert_non_null(ttft);
    for (size_t i = 0; i < N; i++) /* 10 ms to 12 ms, deterministic, every value many times */
        ttft[i] = 0.010 + 0.0005 * (double)((i * 7) % 5);
    for (size_t k = 0; k < 3; k++)
        ttft[hit[k]] = 1.0;
    level(&r, N, 0.01, ttft);
    memset(&s, 0, sizeof s);
    llmm_bench_slowest_add(&s, &r);
    printed(&s, &out);
    for (p = strstr(out, "\nspike2 "); p; p = strstr(p + 1, "\nspike2 "))
        lines++;
    assert_int_equal(lines, 3); /* the severe ones: exactly those injected, shown first */
    assert_non_null(strstr(out, ": 3 level 2 (severe), "));
    for (size_t k = 0; k < 3; k++) {
        char trace[160];
        snprintf(trace, sizeof trace,
                 "\nspike2 %9.3f s   1000.0 ms  level c8     request "
                 "bench-%-6zu trace ab0000000000000000000000%08zx\n",
                 0.01 * (double)hit[k] + 1.0 - 0.010, hit[k], hit[k]);
        assert_non_null(strstr(out, trace));
    }
    free(out);
    free(r.rec);
    free(ttft);
    llmm_bench_slowest_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_fresh_and_distinct),
        cmocka_unit_test(children_of_traceparent),
        cmocka_unit_test(slowest_in_order),
        cmocka_unit_test(spikes_named_by_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
