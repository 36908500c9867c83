/* test_bench_prompts: what `llmm bench` sends before any byte goes out: the endpoint of --url
 * (bench/url.h, every case of doc/bench.md's rule written out by hand), the synthetic prompts
 * (bench/prompts.h: token IDs below --vocab-size, a prefix unique to each prompt, the shared
 * prefix, lengths) read back with the tool's JSON tokenizer, and the prompts' order (every
 * prompt once before any twice, the same for the same seed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/prompts.h"
#include "bench/url.h"

static void url(const char *in, int chat, const char *want, int want_chat)
{
    char buf[256];
    int is_chat = -1;
    assert_int_equal(llmm_bench_endpoint(in, chat, buf, sizeof buf, &is_chat), 0);
    assert_string_equal(buf, want);
    assert_int_equal(is_chat, want_chat);
}

static void url_rule(void **state)
{
    char small[16];
    int c;
    (void)state;
    url("http://h:8000", 0, "http://h:8000/v1/completions", 0);
    url("http://h:8000/", 1, "http://h:8000/v1/chat/completions", 1);
    url("http://h:8000/v1", 0, "http://h:8000/v1/completions", 0);
    url("http://h:8000/v1/", 1, "http://h:8000/v1/chat/completions", 1);
    url("https://h/api/v1", 0, "https://h/api/v1/completions", 0);
    url("http://h:8000/proxy", 0, "http://h:8000/proxy/v1/completions", 0);
    url("http://h:8000/v1/completions", 1, "http://h:8000/v1/completions", 0);
    url("http://h:8000/v1/chat/completions", 0, "http://h:8000/v1/chat/completions", 1);
    url("http://h:8000/v1/chat/completions/", 0, "http://h:8000/v1/chat/completions", 1);
    url("http://h:8000/v1?api-version=2", 0, "http://h:8000/v1/completions?api-version=2", 0);
    url("http://h/deploy/x/chat/completions?k=v/v1", 0, "http://h/deploy/x/chat/completions?k=v/v1",
        1);
    url("http://h:8000?x=1", 1, "http://h:8000/v1/chat/completions?x=1", 1);
    /* the host itself is never taken for a path */
    url("http://v1", 0, "http://v1/v1/completions", 0);
    assert_int_equal(llmm_bench_endpoint("http://h:8000/v1", 0, small, sizeof small, &c), -1);
}

/* The token IDs of a JSON list "[a,b,...]" into v; their count. */
static size_t ids(const char *json, uint64_t *v, size_t cap)
{
    size_t n = 0;
    const char *p = json;
    assert_int_equal(*p, '[');
    while (*p && *p != ']') {
        char *end;
        p++;
        assert_true(n < cap);
        v[n++] = strtoull(p, &end, 10);
        assert_true(end > p);
        p = end;
    }
    return n;
}

static void synthetic(void **state)
{
    llmm_bench_synth s = {.in_len = 12,
                          .out_len = 5,
                          .range = 0.5,
                          .n = 300,
                          .seed = 7,
                          .vocab = 100,
                          .shared_prefix = 3};
    llmm_bench_prompts p;
    llmm_cli_error err;
    uint64_t v[64], first_shared[3];
    uint64_t seen[300][5];
    (void)state;
    assert_int_equal(llmm_bench_prompts_synth(&s, &p, &err), LLMM_CLI_OK);
    assert_int_equal(p.n, 300);
    for (size_t i = 0; i < p.n; i++) {
        size_t n = ids(p.v[i].json, v, 64);
        assert_int_equal((int64_t)n, p.v[i].in_len);
        /* at least the prefixes: 3 shared + 2 digits (300 prompts in base 100 - 25) */
        assert_true(p.v[i].in_len >= 5);
        assert_true(p.v[i].out_len >= 2 && p.v[i].out_len <= 8);
        assert_false(p.v[i].estimated);
        for (size_t k = 0; k < n; k++)
            assert_true(v[k] >= 25 && v[k] < 100); /* [vocab / 4, vocab) below 4000 */
        if (i == 0)
            memcpy(first_shared, v, sizeof first_shared);
        assert_memory_equal(v, first_shared, sizeof first_shared);
        memcpy(seen[i], v, sizeof seen[i]);
        /* the unique prefix: prompt i's number in base 75 */
        assert_int_equal((v[3] - 25) * 75 + (v[4] - 25), i);
    }
    for (size_t i = 0; i < p.n; i++)
        for (size_t j = 0; j < i; j++)
            assert_memory_not_equal(seen[i], seen[j], sizeof seen[i]);
    llmm_bench_prompts_free(&p);
    /* the default vocabulary: IDs in [1000, 32000); text: words, a number word first */
    s.vocab = LLMM_BENCH_VOCAB_DEFAULT;
    s.shared_prefix = 0;
    s.n = 50;
    assert_int_equal(llmm_bench_prompts_synth(&s, &p, &err), LLMM_CLI_OK);
    for (size_t i = 0; i < p.n; i++) {
        size_t n = ids(p.v[i].json, v, 64);
        for (size_t k = 0; k < n; k++)
            assert_true(v[k] >= 1000 && v[k] < 32000);
        assert_int_equal(v[0] - 1000, i);
    }
    llmm_bench_prompts_free(&p);
    s.text = 1;
    assert_int_equal(llmm_bench_prompts_synth(&s, &p, &err), LLMM_CLI_OK);
    for (size_t i = 0; i < p.n; i++) {
        char want[32];
        snprintf(want, sizeof want, "\"%zu ", i);
        assert_true(p.v[i].estimated);
        assert_memory_equal(p.v[i].json, want, strlen(want));
    }
    llmm_bench_prompts_free(&p);
}

static void order(void **state)
{
    size_t *a = llmm_bench_prompt_order(1000, 3), *b = llmm_bench_prompt_order(1000, 3);
    size_t *c = llmm_bench_prompt_order(1000, 4);
    char hit[1000] = {0};
    size_t moved = 0;
    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    for (size_t i = 0; i < 1000; i++) {
        assert_true(a[i] < 1000);
        assert_false(hit[a[i]]);
        hit[a[i]] = 1;
        moved += a[i] != i;
    }
    assert_memory_equal(a, b, 1000 * sizeof *a);
    assert_memory_not_equal(a, c, 1000 * sizeof *a);
    assert_true(moved > 900); /* a shuffle, not the identity */
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(url_rule),
        cmocka_unit_test(synthetic),
        cmocka_unit_test(order),
    };
    return cmocka_run_group_tests_name("bench_prompts", tests, NULL, NULL);
}
