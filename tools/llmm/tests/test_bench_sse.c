/* test_bench_sse: the incremental SSE parser of `llmm bench` (bench/sse.h) gives the same
 * events whichever bytes the stream is cut at (every one and every pair of cut points of a
 * sample with LF, CRLF and CR line ends, comments, fields, multi-line data, data without a
 * space), byte by byte, and reports limits; the chunk interpreter (bench/chunk.h) on vLLM's
 * chunk shapes. The expected events are written out by hand from the SSE grammar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/chunk.h"
#include "bench/sse.h"

/* Events as text: "type|data\n" each. */
typedef struct events {
    char out[4096];
    size_t n;
    int stop_after; /* answer 7 after this many events (0: never) */
    int count;
} events;

static int on_event(void *ctx, const char *type, const char *data, size_t len)
{
    events *e = ctx;
    int w = snprintf(e->out + e->n, sizeof e->out - e->n, "%s|%.*s\n", type, (int)len, data);
    e->n += (size_t)w;
    e->count++;
    return e->stop_after && e->count == e->stop_after ? 7 : 0;
}

static const char sample[] =
    ": keep-alive comment\n"
    "data: {\"a\":1}\n\n"
    "data:{\"b\":2}\r\n\r\n"
    "event: error\r\n"
    "id: 7\r\n"
    "data: line one\r\n"
    "data: line two\r\n"
    "\r\n"
    "retry: 10\r"
    "data: cr\r\r"
    "data\n\n"
    "\n\n"
    "unknown: x\n"
    "data: [DONE]\n\n"
    "data: unfinished";

static const char expected[] = "|{\"a\":1}\n"
                               "|{\"b\":2}\n"
                               "error|line one\nline two\n"
                               "|cr\n"
                               "|\n"
                               "|[DONE]\n";

/* Feed s cut at the offsets cut[0..ncut) (increasing). */
static void feed_cut(const char *s, size_t len, const size_t *cut, size_t ncut, events *e,
                     llmm_bench_sse *p)
{
    size_t at = 0;
    memset(e, 0, sizeof *e);
    llmm_bench_sse_reset(p);
    for (size_t i = 0; i <= ncut; i++) {
        size_t end = i < ncut ? cut[i] : len;
        assert_int_equal(llmm_bench_sse_feed(p, s + at, end - at, on_event, e), 0);
        at = end;
    }
    e->out[e->n] = '\0';
}

static void every_split(void **state)
{
    llmm_bench_sse p;
    events e;
    size_t len = sizeof sample - 1;
    (void)state;
    llmm_bench_sse_init(&p, 0);
    feed_cut(sample, len, NULL, 0, &e, &p);
    assert_string_equal(e.out, expected);
    assert_true(llmm_bench_sse_pending(&p));
    for (size_t i = 0; i <= len; i++) {
        for (size_t j = i; j <= len; j++) {
            size_t cut[2] = {i, j};
            feed_cut(sample, len, cut, 2, &e, &p);
            if (strcmp(e.out, expected) != 0)
                fail_msg("cut at %zu and %zu: got\n%s", i, j, e.out);
        }
    }
    llmm_bench_sse_free(&p);
}

static void byte_by_byte(void **state)
{
    llmm_bench_sse p;
    events e;
    size_t len = sizeof sample - 1, cut[sizeof sample];
    (void)state;
    for (size_t i = 0; i < len; i++)
        cut[i] = i + 1;
    llmm_bench_sse_init(&p, 0);
    feed_cut(sample, len, cut, len - 1, &e, &p);
    assert_string_equal(e.out, expected);
    /* a finished stream leaves nothing pending */
    feed_cut("data: x\r\n\r\n", 11, NULL, 0, &e, &p);
    assert_string_equal(e.out, "|x\n");
    assert_false(llmm_bench_sse_pending(&p));
    llmm_bench_sse_free(&p);
}

static void limits_and_stop(void **state)
{
    llmm_bench_sse p;
    events e;
    static const char two[] = "data: 1\n\ndata: 2\n\ndata: 3\n\n";
    (void)state;
    llmm_bench_sse_init(&p, 8);
    memset(&e, 0, sizeof e);
    /* a line longer than max, whole or cut */
    assert_int_equal(llmm_bench_sse_feed(&p, "data: 123456789\n", 16, on_event, &e),
                     LLMM_BENCH_SSE_TOOLONG);
    llmm_bench_sse_reset(&p);
    assert_int_equal(llmm_bench_sse_feed(&p, "data: 12", 8, on_event, &e), 0);
    assert_int_equal(llmm_bench_sse_feed(&p, "3", 1, on_event, &e), LLMM_BENCH_SSE_TOOLONG);
    /* data of one event beyond max over several lines */
    llmm_bench_sse_reset(&p);
    assert_int_equal(llmm_bench_sse_feed(&p, "data:1234\ndata:5678\n", 20, on_event, &e),
                     LLMM_BENCH_SSE_TOOLONG);
    assert_int_equal(e.count, 0);
    llmm_bench_sse_free(&p);
    /* the callback's answer stops the feed at that event */
    llmm_bench_sse_init(&p, 0);
    memset(&e, 0, sizeof e);
    e.stop_after = 2;
    assert_int_equal(llmm_bench_sse_feed(&p, two, sizeof two - 1, on_event, &e), 7);
    assert_int_equal(e.count, 2);
    llmm_bench_sse_free(&p);
}

/* llama.cpp's in-stream error is a field line of its own, `error: {...}`: dispatched at once
 * as an "error" event, before or after data, cut anywhere. */
static void error_field(void **state)
{
    static const char s[] = "data: {\"a\":1}\n\nerror: {\"code\":500,\"message\":\"x\"}\n\n";
    llmm_bench_sse p;
    events e;
    (void)state;
    llmm_bench_sse_init(&p, 0);
    for (size_t cut = 0; cut <= sizeof s - 1; cut++) {
        feed_cut(s, sizeof s - 1, &cut, 1, &e, &p);
        assert_string_equal(e.out, "|{\"a\":1}\nerror|{\"code\":500,\"message\":\"x\"}\n");
    }
    llmm_bench_sse_free(&p);
}

static llmm_cli_json tok;

static int chunk(const char *s, llmm_bench_chunk *c)
{
    return llmm_bench_chunk_parse(&tok, s, strlen(s), c);
}

static void chunks(void **state)
{
    llmm_bench_chunk c;
    (void)state;
    assert_int_equal(chunk("[DONE]", &c), 0);
    assert_true(c.done);
    assert_int_equal(chunk("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\""
                           ":0,\"text\":\"\",\"logprobs\":null,\"finish_reason\":null}]}",
                           &c),
                     0);
    assert_true(c.output && !c.done && !c.error);
    assert_int_equal(c.completion_tokens, -1);
    /* an empty text with a finish_reason only ends the stream (llama.cpp's last chunk): not a
     * token; with text, or with a null finish_reason, it is one */
    assert_int_equal(chunk("{\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":"
                           "\"stop\"}]}",
                           &c),
                     0);
    assert_false(c.output);
    assert_int_equal(chunk("{\"choices\":[{\"text\":\" end\",\"finish_reason\":\"length\"}]}", &c),
                     0);
    assert_true(c.output);
    assert_int_equal(chunk("{\"choices\":[{\"finish_reason\":\"stop\",\"text\":\"\"}]}", &c), 0);
    assert_false(c.output);
    /* chat: the role-only first chunk and an empty final delta carry no output */
    assert_int_equal(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                           "\"content\":\"\"},\"finish_reason\":null}]}",
                           &c),
                     0);
    assert_false(c.output);
    assert_int_equal(chunk("{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}", &c), 0);
    assert_false(c.output);
    assert_int_equal(chunk("{\"choices\":[{\"delta\":{\"content\":\" hi\"}}]}", &c), 0);
    assert_true(c.output);
    assert_int_equal(chunk("{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x\"}]}}]}", &c),
                     0);
    assert_true(c.output);
    /* the usage chunk: empty choices */
    assert_int_equal(chunk("{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":"
                           "20,\"completion_tokens\":8}}",
                           &c),
                     0);
    assert_false(c.output);
    assert_int_equal(c.completion_tokens, 8);
    assert_int_equal(c.prompt_tokens, 12);
    /* only the first choice is looked at */
    assert_int_equal(chunk("{\"choices\":[{\"delta\":{}},{\"text\":\"x\"}]}", &c), 0);
    assert_false(c.output);
    assert_int_equal(chunk("{\"error\":{\"message\":\"boom\",\"code\":500}}", &c), 0);
    assert_true(c.error);
    /* malformed: not JSON, truncated, not an object, two values, empty */
    assert_int_equal(chunk("{\"choices\":[", &c), LLMM_BENCH_CHUNK_MALFORMED);
    assert_int_equal(chunk("hello", &c), LLMM_BENCH_CHUNK_MALFORMED);
    assert_int_equal(chunk("[1]", &c), LLMM_BENCH_CHUNK_MALFORMED);
    assert_int_equal(chunk("{} {}", &c), LLMM_BENCH_CHUNK_MALFORMED);
    assert_int_equal(chunk("", &c), LLMM_BENCH_CHUNK_MALFORMED);
    llmm_cli_json_free(&tok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_split),     cmocka_unit_test(byte_by_byte),
        cmocka_unit_test(limits_and_stop), cmocka_unit_test(chunks),
        cmocka_unit_test(error_field),
    };
    return cmocka_run_group_tests_name("bench_sse", tests, NULL, NULL);
}
