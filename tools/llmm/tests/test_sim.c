/* test_sim: `llmm sim`'s parts that need no socket: the HTTP request-head parser, the request
 * body, the stream events' framing, the cost model's arithmetic and closed forms, the seeded
 * per-request draws, and the engine's step schedule in exact nanoseconds (sim/). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <yajl/yajl_tree.h>

#include "sim/engine.h"
#include "sim/http.h"
#include "sim/model.h"
#include "sim/request.h"
#include "sim/respond.h"

/* ---- the HTTP parser ------------------------------------------------------------------------ */

static const char req1[] = "POST /v1/completions?x=1 HTTP/1.1\r\nHost: a\r\n"
                           "content-LENGTH:  12 \r\nX-Request-Id: abc-1\r\n"
                           "TraceParent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n"
                           "\r\n{\"a\": true}\n";

static void http_complete(void **state)
{
    llmm_sim_http_req r;
    long k = llmm_sim_http_parse(req1, sizeof req1 - 1, &r);
    (void)state;
    assert_int_equal(k, (long)(strstr(req1, "\r\n\r\n") - req1 + 4));
    assert_string_equal(r.method, "POST");
    assert_string_equal(r.path, "/v1/completions");
    assert_string_equal(r.request_id, "abc-1");
    assert_string_equal(r.traceparent, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    assert_int_equal(r.content_length, 12);
    assert_int_equal(r.keep_alive, 1);
    assert_int_equal(r.expect_continue, 0);
}

static void http_incremental(void **state)
{
    llmm_sim_http_req r;
    size_t head = (size_t)(strstr(req1, "\r\n\r\n") - req1 + 4);
    (void)state;
    for (size_t n = 0; n < head; n++) /* every prefix of the head is incomplete */
        assert_int_equal(llmm_sim_http_parse(req1, n, &r), LLMM_SIM_HTTP_MORE);
    assert_int_equal(llmm_sim_http_parse(req1, head, &r), (long)head);
}

static long parse(const char *s, llmm_sim_http_req *r)
{
    return llmm_sim_http_parse(s, strlen(s), r);
}

static void http_connection(void **state)
{
    llmm_sim_http_req r;
    (void)state;
    assert_true(parse("GET /health HTTP/1.0\r\n\r\n", &r) > 0);
    assert_int_equal(r.keep_alive, 0);
    assert_true(parse("GET /health HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r) > 0);
    assert_int_equal(r.keep_alive, 1);
    assert_true(parse("GET /health HTTP/1.1\r\nconnection: upgrade, close\r\n\r\n", &r) > 0);
    assert_int_equal(r.keep_alive, 0);
    assert_true(parse("POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
                      &r) > 0);
    assert_int_equal(r.expect_continue, 1);
    assert_int_equal(r.content_length, 5);
    assert_true(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n", &r) > 0);
}

static void http_errors(void **state)
{
    llmm_sim_http_req r;
    char *big = malloc(LLMM_SIM_HEAD_MAX + 64);
    (void)state;
    assert_int_equal(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", &r),
                     LLMM_SIM_HTTP_UNSUPPORTED);
    assert_int_equal(parse("GET /x HTTP/2.0\r\n\r\n", &r), LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("GET /x\r\n\r\n", &r), LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("GET  HTTP/1.1\r\n\r\n", &r), LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("GET /x HTTP/1.1\r\nno colon\r\n\r\n", &r), LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("GET /x HTTP/1.1\nHost: a\r\n\r\n", &r), LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("POST /x HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", &r),
                     LLMM_SIM_HTTP_BAD);
    assert_int_equal(parse("POST /x HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", &r),
                     LLMM_SIM_HTTP_BODY_LARGE);
    memset(big, 'a', LLMM_SIM_HEAD_MAX + 63);
    big[LLMM_SIM_HEAD_MAX + 63] = '\0';
    assert_int_equal(parse(big, &r), LLMM_SIM_HTTP_TOO_LARGE);
    free(big);
}

static void buffer(void **state)
{
    llmm_sim_buf b = {0};
    char longer[3000];
    (void)state;
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(llmm_sim_buf_printf(&b, "%d-%s", 12, "ab"), 0);
    assert_int_equal(llmm_sim_buf_printf(&b, "%s", longer), 0); /* past the small buffer */
    assert_int_equal(b.len, 5 + sizeof longer - 1);
    assert_memory_equal(b.data, "12-abxx", 7);
    llmm_sim_buf_consume(&b, 3);
    assert_int_equal(b.off, 3);
    llmm_sim_buf_consume(&b, b.len - 3);
    assert_int_equal(b.len, 0); /* all sent: the buffer starts over */
    llmm_sim_buf_free(&b);
}

/* ---- the request body ----------------------------------------------------------------------- */

static llmm_sim_body body_ok(const char *json, llmm_sim_endpoint ep)
{
    llmm_sim_body b;
    char err[256];
    int rc = llmm_sim_body_parse(json, ep, "dflt", &b, err, sizeof err);
    if (rc != 0)
        fail_msg("%s: %s", json, err);
    return b;
}

static int body_bad(const char *json, llmm_sim_endpoint ep)
{
    llmm_sim_body b;
    char err[256] = "";
    return llmm_sim_body_parse(json, ep, "dflt", &b, err, sizeof err) != 0 && err[0];
}

static void body_prompts(void **state)
{
    llmm_sim_body b;
    (void)state;
    b = body_ok("{\"prompt\": \"  one two\\tthree\\nfour  \"}", LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.prompt_tokens, 4);
    assert_string_equal(b.model, "dflt");
    assert_int_equal(b.max_tokens, 0);
    b = body_ok("{\"prompt\": [5, 6, 7, 8, 9, 10, 11], \"model\": \"a\\\"b\"}",
                LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.prompt_tokens, 7);
    assert_string_equal(b.model, "a\\\"b"); /* kept escaped for the output */
    b = body_ok("{\"prompt\": [[1, 2, 3]]}", LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.prompt_tokens, 3);
    b = body_ok("{\"prompt\": [\"x y\"]}", LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.prompt_tokens, 2);
    b = body_ok("{\"prompt\": \"\"}", LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.prompt_tokens, 1); /* at least one */
    b = body_ok("{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"}, "
                "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"a b c\"},"
                " {\"type\": \"image_url\"}]}], \"max_completion_tokens\": 9, "
                "\"max_tokens\": 4}",
                LLMM_SIM_CHAT);
    assert_int_equal(b.prompt_tokens, 5);
    assert_int_equal(b.max_tokens, 9);
}

/* Bodies refused with a message. */
static void body_errors(void **state)
{
    static const struct { const char *json; llmm_sim_endpoint ep; } bad[] = {
        {"{\"prompt\": [\"a\", \"b\"]}", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": [1, \"b\"]}", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": 3}", LLMM_SIM_COMPLETIONS},
        {"{}", LLMM_SIM_COMPLETIONS},
        {"{\"messages\": []}", LLMM_SIM_CHAT},
        {"{\"messages\": [{\"content\": 5}]}", LLMM_SIM_CHAT},
        {"[1]", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": \"a\"", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": \"a\", \"max_tokens\": 0}", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": \"a\", \"max_tokens\": 2.5}", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": \"a\", \"stream\": 1}", LLMM_SIM_COMPLETIONS},
        {"{\"prompt\": \"a\", \"model\": 1}", LLMM_SIM_COMPLETIONS},
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!body_bad(bad[i].json, bad[i].ep))
            fail_msg("accepted: %s", bad[i].json);
}

static void body_options(void **state)
{
    llmm_sim_body b;
    (void)state;
    b = body_ok("{\"prompt\": \"a\", \"max_tokens\": 17, \"stream\": true, \"ignore_eos\": true,"
                " \"stream_options\": {\"include_usage\": true}}",
                LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.max_tokens, 17);
    assert_int_equal(b.stream, 1);
    assert_int_equal(b.ignore_eos, 1);
    assert_int_equal(b.include_usage, 1);
    b = body_ok("{\"prompt\": \"a\", \"max_tokens\": null, \"stream\": false}",
                LLMM_SIM_COMPLETIONS);
    assert_int_equal(b.max_tokens, 0);
    assert_int_equal(b.stream, 0);
}

/* ---- the stream's framing ------------------------------------------------------------------- */

/* Check that b holds whole HTTP chunks each carrying "data: JSON\n\n"; the count of events,
 * and of those whose JSON does not parse in *bad. */
static int events(const llmm_sim_buf *b, int *bad)
{
    size_t i = 0;
    int n = 0;
    *bad = 0;
    while (i < b->len) {
        char *end;
        unsigned long len = strtoul(b->data + i, &end, 16);
        char json[4096];
        yajl_val v;
        assert_memory_equal(end, "\r\n", 2);
        end += 2;
        if (len == 0)
            break;
        assert_memory_equal(end, "data: ", 6);
        assert_memory_equal(end + len - 2, "\n\n\r\n", 4);
        assert_true(len - 8 < sizeof json);
        memcpy(json, end + 6, len - 8);
        json[len - 8] = '\0';
        v = strcmp(json, "[DONE]") == 0 ? NULL : yajl_tree_parse(json, NULL, 0);
        *bad += strcmp(json, "[DONE]") != 0 && !v;
        yajl_tree_free(v);
        n++;
        i = (size_t)(end - b->data) + len + 2;
    }
    return n;
}

/* b's bytes as a C string (a NUL after them, not counted). */
static const char *text(llmm_sim_buf *b)
{
    assert_int_equal(llmm_sim_buf_put(b, "", 1), 0);
    b->len--;
    return b->data;
}

static void stream_events(void **state)
{
    llmm_sim_reply r = {.ep = LLMM_SIM_CHAT, .num = 7, .created = 1, .model = "m",
                        .prompt_tokens = 3, .output_tokens = 2, .length_limited = 1};
    llmm_sim_buf b = {0};
    int bad;
    (void)state;
    assert_int_equal(llmm_sim_put_token(&b, &r, 1, 0), 0); /* role chunk + token */
    assert_int_equal(llmm_sim_put_token(&b, &r, 2, 1), 0); /* garbled */
    assert_int_equal(llmm_sim_put_usage(&b, &r), 0);
    assert_int_equal(llmm_sim_put_done(&b, &r), 0);
    assert_int_equal(events(&b, &bad), 5);
    assert_int_equal(bad, 1);
    assert_non_null(strstr(text(&b), "\"usage\":{\"prompt_tokens\":3,\"total_tokens\":5,"
                                   "\"completion_tokens\":2}"));
    assert_memory_equal(b.data + b.len - 5, "0\r\n\r\n", 5);
    llmm_sim_buf_free(&b);
    r.ep = LLMM_SIM_COMPLETIONS;
    assert_int_equal(llmm_sim_put_token(&b, &r, 2, 0), 0);
    assert_int_equal(events(&b, &bad), 1);
    assert_int_equal(bad, 0);
    assert_non_null(strstr(text(&b), "\"finish_reason\":\"length\""));
    llmm_sim_buf_free(&b);
    /* HTTP/1.0: the events alone, no chunk framing, no terminating chunk */
    r.unframed = 1;
    assert_int_equal(llmm_sim_put_token(&b, &r, 2, 0), 0);
    assert_int_equal(llmm_sim_put_done(&b, &r), 0);
    assert_memory_equal(b.data, "data: {", 7);
    assert_null(strstr(text(&b), "\r\n"));
    assert_memory_equal(b.data + b.len - 17, "}\n\ndata: [DONE]\n\n", 17);
    llmm_sim_buf_free(&b);
}

/* ---- the model ------------------------------------------------------------------------------ */

static void model_step(void **state)
{
    llmm_sim_params p;
    (void)state;
    llmm_sim_params_default(&p);
    /* 10 + 0.05 * 32 + 0.01 * 128 = 12.88 ms */
    assert_int_equal(llmm_sim_step_ns(&p, 32, 128), 12880000);
    assert_int_equal(llmm_sim_step_ns(&p, 1, 0), 10050000);
}

static void model_closed_loop(void **state)
{
    llmm_sim_params p;
    double L = 128, N = 16, knee, below, sat;
    (void)state;
    llmm_sim_params_default(&p);
    /* max_batch 32 binds: 262144 / 144 = 1820 sequences would fit the KV cache */
    assert_true(llmm_sim_batch_limit(&p, L, N) == 32.0);
    knee = llmm_sim_knee_concurrency(&p, L, N, 1.0);
    assert_true(fabs(knee - 34.0) < 1e-12); /* 32 * 17 / 16 */
    assert_true(llmm_sim_knee_concurrency(&p, L, N, 0.0) == 32.0);
    /* below the knee: c / ((N + w) base + c (N per_seq + L prefill)), per second */
    below = llmm_sim_closed_loop_qps(&p, 8, L, N, 1.0);
    assert_true(fabs(below - 1000.0 * 8 / (17 * 10.0 + 8 * (16 * 0.05 + 128 * 0.01))) < 1e-9);
    /* saturated: B / (N base + B (N per_seq + L prefill)), continuous at the knee */
    sat = 1000.0 * 32 / (16 * 10.0 + 32 * (16 * 0.05 + 128 * 0.01));
    assert_true(fabs(llmm_sim_closed_loop_qps(&p, 256, L, N, 1.0) - sat) < 1e-9);
    assert_true(fabs(llmm_sim_closed_loop_qps(&p, knee, L, N, 1.0) - sat) < 1e-9);
    /* the KV capacity binds when it holds fewer sequences */
    p.kv_tokens = 1000;
    assert_true(llmm_sim_batch_limit(&p, 90, 10) == 10.0);
}

static void model_draws(void **state)
{
    llmm_sim_params p;
    llmm_cli_rng rng;
    llmm_sim_plan plan;
    enum { N = 100000 };
    int count[6] = {0};
    double sum = 0;
    (void)state;
    llmm_sim_params_default(&p);
    p.error_rate = 0.2;
    p.stall_rate = 0.1;
    p.drop_rate = 0.05;
    p.malformed_rate = 0.02;
    llmm_cli_rng_seed(&rng, 7);
    for (int i = 0; i < N; i++) {
        llmm_sim_plan_request(&p, &rng, 100000, 0, &plan);
        count[plan.fault]++;
        sum += plan.output_tokens;
        assert_true(plan.output_tokens >= 1);
        if (plan.fault == LLMM_SIM_FAULT_STALL || plan.fault == LLMM_SIM_FAULT_DROP)
            assert_true(plan.fault_at >= 1 && plan.fault_at < plan.output_tokens);
        if (plan.fault == LLMM_SIM_FAULT_MALFORMED)
            assert_true(plan.fault_at >= 1 && plan.fault_at <= plan.output_tokens);
    }
    /* each share within 5 standard deviations of its probability (the first fault wins) */
    {
        /* a one-token output (probability 1 - e^(-1/64)) turns a stall or a drop into none */
        double one = 1.0 - exp(-1.0 / 64), stall = 0.8 * 0.1, drop = 0.8 * 0.9 * 0.05;
        double expect[6] = {0.8 * 0.9 * 0.95 * 0.98 + one * (stall + drop), 0.1, 0.1,
                            (1 - one) * stall, (1 - one) * drop, 0.8 * 0.9 * 0.95 * 0.02};
        for (int f = 0; f < 6; f++) {
            double sd = sqrt(N * expect[f] * (1 - expect[f]));
            assert_true(fabs(count[f] - N * expect[f]) < 5 * sd);
        }
    }
    /* ceil of an exponential of mean 64: mean 1 / (1 - e^{-1/64}) = 64.50 */
    assert_true(fabs(sum / N - 1.0 / (1.0 - exp(-1.0 / 64))) < 5 * 64 / sqrt(N));
    /* ignore_eos: max_tokens exactly; capped at max_tokens otherwise */
    llmm_sim_plan_request(&p, &rng, 33, 1, &plan);
    assert_int_equal(plan.output_tokens, 33);
    for (int i = 0; i < 1000; i++) {
        llmm_sim_plan_request(&p, &rng, 5, 0, &plan);
        assert_true(plan.output_tokens >= 1 && plan.output_tokens <= 5);
    }
}

/* ---- the engine: the step schedule in exact nanoseconds ------------------------------------- */

typedef struct trace {
    char out[1024];
    size_t n;
} trace;

static int on_token(void *ctx, llmm_sim_seq *s, uint64_t t)
{
    trace *tr = ctx;
    tr->n += (size_t)snprintf(tr->out + tr->n, sizeof tr->out - tr->n, "%c%u@%llu ",
                              (char)s->prompt_tokens, s->emitted,
                              (unsigned long long)(t / 1000000));
    return 0;
}

static void on_release(void *ctx, llmm_sim_seq *s, uint64_t t)
{
    trace *tr = ctx;
    tr->n += (size_t)snprintf(tr->out + tr->n, sizeof tr->out - tr->n, "-%c@%llu ",
                              (char)s->prompt_tokens, (unsigned long long)(t / 1000000));
}

/* A sequence named by its prompt length (a letter's code), output n, fault f at 1. */
static llmm_sim_seq seq(char name, uint32_t n, llmm_sim_fault f)
{
    return (llmm_sim_seq){.prompt_tokens = (uint64_t)name, .reserve = 100,
                          .plan = {.output_tokens = n, .fault = f, .fault_at = 1}};
}

static void run_until(llmm_sim_engine *e, uint64_t end)
{
    uint64_t d;
    while ((d = llmm_sim_engine_deadline(e)) != 0 && d <= end)
        llmm_sim_engine_advance(e, d);
}

static void engine_queue(void **state)
{
    trace tr = {.n = 0};
    llmm_sim_params p = {.step_base_ms = 10, .step_per_seq_ms = 1,
                         .prefill_ms_per_token = 0.0, .max_batch = 2, .kv_tokens = 1000};
    llmm_sim_engine_cb cb = {&tr, on_token, on_release};
    llmm_sim_engine e;
    llmm_sim_seq a = seq('A', 3, 0), b = seq('B', 3, 0), c = seq('C', 3, 0);
    (void)state;
    assert_int_equal(llmm_sim_engine_init(&e, &p, &cb), 0);
    llmm_sim_engine_submit(&e, &a, 0);  /* idle: a step of A starts at once: 11 ms */
    llmm_sim_engine_submit(&e, &b, 0);  /* B joins at the next step (A, B: 12 ms) */
    llmm_sim_engine_submit(&e, &c, 0);  /* C waits for a slot: A's end at 35 */
    assert_int_equal(llmm_sim_engine_deadline(&e), 11000000);
    run_until(&e, 1000000000);
    assert_string_equal(tr.out, "A1@11 A2@23 B1@23 A3@35 -A@35 B2@35 "
                                "B3@47 -B@47 C1@47 C2@58 C3@69 -C@69 ");
    assert_int_equal(llmm_sim_engine_deadline(&e), 0);
    assert_int_equal(e.kv_used, 0);
    /* the KV capacity instead of the batch: 100 tokens each, 150 hold one at a time */
    tr.n = 0;
    tr.out[0] = '\0';
    e.p.max_batch = 8;
    e.p.kv_tokens = 150;
    a = seq('A', 2, 0), b = seq('B', 1, 0);
    llmm_sim_engine_submit(&e, &a, 0);
    llmm_sim_engine_submit(&e, &b, 0);
    run_until(&e, 1000000000);
    assert_string_equal(tr.out, "A1@11 A2@22 -A@22 B1@33 -B@33 ");
    llmm_sim_engine_free(&e);
}

static void engine_prefill_stall_cancel(void **state)
{
    trace tr = {.n = 0};
    llmm_sim_params p = {.step_base_ms = 10, .step_per_seq_ms = 0, .prefill_ms_per_token = 0.1,
                         .max_batch = 4, .kv_tokens = 1000, .stall_ms = 100};
    llmm_sim_engine_cb cb = {&tr, on_token, on_release};
    llmm_sim_engine e;
    /* prompt 'A' = 65 tokens: the first step 10 + 6.5 ms; a stall of 100 ms after token 1 */
    llmm_sim_seq a = seq('A', 3, LLMM_SIM_FAULT_STALL), b = seq('B', 3, 0);
    (void)state;
    assert_int_equal(llmm_sim_engine_init(&e, &p, &cb), 0);
    llmm_sim_engine_submit(&e, &a, 0);
    run_until(&e, 16500000);
    assert_string_equal(tr.out, "A1@16 ");
    assert_int_equal(llmm_sim_engine_deadline(&e), 116500000); /* asleep until the stall ends */
    run_until(&e, 1000000000);
    assert_string_equal(tr.out, "A1@16 A2@126 A3@136 -A@136 ");
    /* a cancelled sequence leaves at its next step end with no token */
    tr.n = 0;
    llmm_sim_engine_submit(&e, &b, 0);
    b.cancelled = 1;
    run_until(&e, 1000000000);
    assert_string_equal(tr.out, "-B@16 ");
    llmm_sim_engine_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(http_complete),   cmocka_unit_test(http_incremental),
        cmocka_unit_test(http_connection), cmocka_unit_test(http_errors),
        cmocka_unit_test(buffer),          cmocka_unit_test(body_prompts),
        cmocka_unit_test(body_options),    cmocka_unit_test(body_errors),
        cmocka_unit_test(stream_events),   cmocka_unit_test(model_step),
        cmocka_unit_test(model_closed_loop), cmocka_unit_test(model_draws),
        cmocka_unit_test(engine_queue),    cmocka_unit_test(engine_prefill_stall_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
