/* test_bench_dataset: the prompts of `llmm bench --dataset` (bench/dataset.h): ShareGPT
 * entries kept and dropped as vLLM keeps them (lengths in words), JSON Lines with and without
 * output lengths, the prompt escaped into the request's JSON, and errors. Expected values
 * are counted by hand from the inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/dataset.h"

static int parse(const char *s, int64_t out_len, llmm_bench_prompts *p, llmm_cli_error *err)
{
    return llmm_bench_dataset_parse(s, strlen(s), "d", out_len, p, err);
}

static const char sharegpt[] =
    "[{\"id\": \"a\", \"conversations\": ["
    "{\"from\": \"human\", \"value\": \"Tell me a story about a cat\"},"
    "{\"from\": \"gpt\", \"value\": \"Once upon a time there was a cat\"},"
    "{\"from\": \"human\", \"value\": \"more\"}]},"
    /* one turn: dropped */
    "{\"id\": \"b\", \"conversations\": [{\"from\": \"human\", \"value\": \"one two three four\"}]},"
    /* empty: dropped */
    "{\"id\": \"c\", \"conversations\": []},"
    /* a prompt of 3 words: dropped */
    "{\"id\": \"d\", \"conversations\": [{\"value\": \"too short here\"}, {\"value\": \"a b c d e\"}]},"
    /* a completion of 3 words: dropped unless the output length is fixed */
    "{\"id\": \"e\", \"conversation\": [{\"value\": \"quote \\\" and\\nnewline ok\"},"
    "{\"value\": \"x y z\"}]},"
    /* the first turn is the model's: used anyway, as vLLM does */
    "{\"id\": \"f\", \"conversations\": [{\"from\": \"gpt\", \"value\": \"Hello how can I help\"},"
    "{\"from\": \"human\", \"value\": \"Explain a KV cache briefly please\"}], \"extra\": [1, {}]}]";

/* Prompt i of p: its JSON string, input and output length. */
static void expect_prompt(const llmm_bench_prompts *p, size_t i, const char *json, int in_len,
                          int out_len)
{
    assert_true(i < p->n);
    assert_string_equal(p->v[i].json, json);
    assert_int_equal(p->v[i].in_len, in_len);
    assert_int_equal(p->v[i].out_len, out_len);
}

static void sharegpt_entries(void **state)
{
    llmm_bench_prompts p;
    llmm_cli_error err;
    (void)state;
    assert_int_equal(parse(sharegpt, 0, &p, &err), LLMM_CLI_OK);
    assert_int_equal(p.n, 2);
    expect_prompt(&p, 0, "\"Tell me a story about a cat\"", 7, 8);
    expect_prompt(&p, 1, "\"Hello how can I help\"", 5, 6);
    llmm_bench_prompts_free(&p);
    /* a fixed output length keeps entry e, its prompt escaped */
    assert_int_equal(parse(sharegpt, 20, &p, &err), LLMM_CLI_OK);
    assert_int_equal(p.n, 3);
    assert_string_equal(p.v[1].json, "\"quote \\\" and\\u000anewline ok\"");
    assert_int_equal(p.v[1].in_len, 5);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(p.v[i].out_len, 20);
    llmm_bench_prompts_free(&p);
}

static void jsonl_prompts(void **state)
{
    llmm_bench_prompts p;
    llmm_cli_error err;
    (void)state;
    assert_int_equal(parse("{\"prompt\": \"a b\", \"output_len\": 5}\n"
                           "{\"other\": 1}\n"
                           "{\"prompt\": \"c\\\\d\", \"max_tokens\": 9}\n"
                           "{\"prompt\": \"e f g\"}\n",
                           0, &p, &err),
                     LLMM_CLI_OK);
    assert_int_equal(p.n, 3);
    expect_prompt(&p, 0, "\"a b\"", 2, 5);
    expect_prompt(&p, 1, "\"c\\\\d\"", 1, 9);
    expect_prompt(&p, 2, "\"e f g\"", 3, 64);
    llmm_bench_prompts_free(&p);
}

static void errors(void **state)
{
    llmm_bench_prompts p;
    llmm_cli_error err;
    (void)state;
    assert_int_equal(parse("[{\"conversations\": [", 0, &p, &err), LLMM_CLI_EPARSE);
    assert_non_null(strstr(err.msg, "d:1:"));
    assert_null(p.v);
    assert_int_equal(parse("[]", 0, &p, &err), LLMM_CLI_EPARSE);
    assert_non_null(strstr(err.msg, "no usable prompt"));
    assert_int_equal(parse("{\"prompt\": 5}", 0, &p, &err), LLMM_CLI_EPARSE);
    assert_int_equal(llmm_bench_dataset_read("/nonexistent/x.json", 0, &p, &err), LLMM_CLI_EIO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sharegpt_entries),
        cmocka_unit_test(jsonl_prompts),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests_name("bench_dataset", tests, NULL, NULL);
}
