/* test_cli_parse: the llmm input parsers called on buffers (vLLM JSON, CSV, JSONL), the
 * exact-percentile helpers and the small parsing utilities. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/command.h"
#include "common/numbers.h"
#include "input/input.h"
#include "input/table.h"
#include "synth/rng.h"

/* ---- a sink that keeps everything -------------------------------------------------------- */

typedef struct cap {
    llmm_cli_record rec[64];
    size_t nrec;
    double itl[256];
    size_t nitl;
    double dur[8];
    size_t nrun;
    int resets, notes;
    double ev_t[8], ev_v[8];
    char ev_type[8][64];
    size_t nev;
} cap;

/* Keep v as element n of the fixed array a, and count it even when a is full. */
#define KEEP(a, n, v)                                                                          \
    do {                                                                                       \
        if ((n) < sizeof(a) / sizeof((a)[0]))                                                  \
            (a)[n] = (v);                                                                      \
        (n)++;                                                                                 \
    } while (0)

static int cap_record(void *u, const llmm_cli_record *r)
{
    cap *c = u;
    KEEP(c->rec, c->nrec, *r);
    return LLMM_CLI_OK;
}

static int cap_itl(void *u, double v)
{
    cap *c = u;
    KEEP(c->itl, c->nitl, v);
    return LLMM_CLI_OK;
}

static int cap_reset(void *u)
{
    cap *c = u;
    c->nitl = 0;
    c->resets++;
    return LLMM_CLI_OK;
}

static int cap_run_end(void *u, const llmm_cli_run *run)
{
    cap *c = u;
    KEEP(c->dur, c->nrun, run->duration_s);
    return LLMM_CLI_OK;
}

static void cap_note(void *u, const char *msg)
{
    cap *c = u;
    (void)msg;
    c->notes++;
}

static int cap_event(void *u, double t, const char *type, double value)
{
    cap *c = u;
    if (strcmp(type, "no.such.event") == 0)
        return LLMM_CLI_EPARSE;
    if (c->nev < 8) {
        c->ev_t[c->nev] = t;
        c->ev_v[c->nev] = value;
        snprintf(c->ev_type[c->nev], sizeof c->ev_type[0], "%s", type);
    }
    c->nev++;
    return LLMM_CLI_OK;
}

static llmm_cli_sink cap_sink(cap *c)
{
    llmm_cli_sink s = {c, cap_record, cap_itl, cap_reset, cap_run_end, cap_note, cap_event, NULL};
    memset(c, 0, sizeof *c);
    return s;
}

/* The whole-buffer reader of format f on len bytes of buf, into c. */
static int parse(llmm_cli_format f, const char *name, const char *buf, size_t len, cap *c,
                 llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_sink s = cap_sink(c);
    err->msg[0] = '\0';
    return llmm_cli_parse_buffer(f, buf, len, name, &s, info, err);
}

static int vllm(const char *text, cap *c, llmm_cli_error *err)
{
    return parse(LLMM_CLI_FORMAT_VLLM, "t.json", text, strlen(text), c, NULL, err);
}

static int csv(const char *text, cap *c, llmm_cli_error *err)
{
    return parse(LLMM_CLI_FORMAT_CSV, "t.csv", text, strlen(text), c, NULL, err);
}

static int jsonl(const char *text, cap *c, llmm_cli_error *err)
{
    return parse(LLMM_CLI_FORMAT_JSONL, "t.jsonl", text, strlen(text), c, NULL, err);
}

#define assert_msg_has(err, s)                                                               \
    do {                                                                                     \
        if (!strstr((err).msg, (s))) {                                                       \
            print_error("message '%s' lacks '%s'\n", (err).msg, (s));                       \
            fail();                                                                          \
        }                                                                                    \
    } while (0)

/* ---- vLLM ---------------------------------------------------------------------------------- */

/* vLLM's key order; request 1 failed half-way (its ITLs precede its error) and, unlike what
 * vLLM writes, has an output length: only its error tells, after its ITLs were read. */
static const char *const VLLM_DOC =
    "{\"date\": \"x\", \"duration\": 10.0, \"completed\": 2, \"failed\": 1,\n"
    " \"input_lens\": [10, 20, 30], \"output_lens\": [3, 2, 1],\n"
    " \"ttfts\": [0.5, 0.25, 0.125],\n"
    " \"itls\": [[0.01, 0.02], [0.04], []],\n"
    " \"latencies\": [0.54, 0.0, null],\n"
    " \"start_times\": [100.0, 100.5, 101.0],\n"
    " \"generated_texts\": [\"a\", \"\", {\"nested\": [1, [2, {\"x\": null}]]}],\n"
    " \"errors\": [\"\", \"ClientPayloadError\", null], \"extra\": {\"k\": [true, false]}}\n";

static void vllm_values(void **state)
{
    cap c;
    llmm_cli_error err;
    llmm_cli_input_info info;
    (void)state;
    assert_int_equal(
        parse(LLMM_CLI_FORMAT_VLLM, "t.json", VLLM_DOC, strlen(VLLM_DOC), &c, &info, &err),
        LLMM_CLI_OK);
    assert_int_equal(c.nrec, 3);
    assert_int_equal(c.nrun, 1);
    assert_true(c.dur[0] == 10.0);
    /* request 0: E2E from 'latencies' */
    assert_true(c.rec[0].ttft_s == 0.5 && c.rec[0].e2e_s == 0.54 && !c.rec[0].failed);
    assert_true(c.rec[0].start_s == 100.0 && c.rec[0].output_tokens == 3 &&
                c.rec[0].input_tokens == 10);
    /* request 1 failed: no latency */
    assert_true(c.rec[1].failed && isnan(c.rec[1].ttft_s) && isnan(c.rec[1].e2e_s));
    /* request 2: latency null -> TTFT + sum(ITL) = 0.125 */
    assert_true(c.rec[2].e2e_s == 0.125 && c.rec[2].output_tokens == 1);
    /* the second pass dropped the failed request's ITL (0.04) */
    assert_int_equal(c.resets, 1);
    assert_int_equal(c.nitl, 2);
    assert_true(c.itl[0] == 0.01 && c.itl[1] == 0.02);
    assert_int_equal(info.replayed, 1);
    assert_int_equal(info.e2e_from_latencies, 1);
    assert_int_equal(info.e2e_from_itls, 1);
    assert_int_equal(c.notes, 0);
}

/* vLLM writes output length 0 for a failed request: its ITLs are held back as they are read,
 * and no second pass is needed. An empty error string with TTFT 0 is a failure too. */
static void vllm_no_second_pass(void **state)
{
    cap c;
    llmm_cli_error err;
    llmm_cli_input_info info;
    const char *doc = "{\"output_lens\": [3, 0, 0], \"ttfts\": [0.5, 0.25, 0.0],"
                      " \"itls\": [[0.01, 0.02], [0.04], []], \"latencies\": [0.54, 0.0, 0.0],"
                      " \"errors\": [\"\", \"ClientPayloadError\", \"\"], \"completed\": 1}";
    (void)state;
    assert_int_equal(parse(LLMM_CLI_FORMAT_VLLM, "t.json", doc, strlen(doc), &c, &info, &err),
                     LLMM_CLI_OK);
    assert_int_equal(c.nrec, 3);
    assert_true(!c.rec[0].failed && c.rec[1].failed && c.rec[2].failed);
    assert_int_equal(c.resets, 0);
    assert_int_equal(info.replayed, 0);
    assert_int_equal(c.nitl, 2);
    assert_true(c.itl[0] == 0.01 && c.itl[1] == 0.02);
    assert_int_equal(c.notes, 0); /* completed 1: as counted */
}

/* Feeding one byte at a time gives the same records as one buffer. */
static void vllm_bytewise(void **state)
{
    cap c;
    llmm_cli_error err;
    llmm_cli_sink s = cap_sink(&c);
    const llmm_cli_reader *rd = &llmm_cli_reader_vllm;
    void *p;
    size_t n = strlen(VLLM_DOC), nflags;
    (void)state;
    assert_int_equal(rd->create(rd, "t.json", &s, NULL, 0, &p, &err), LLMM_CLI_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(rd->feed(p, VLLM_DOC + i, 1, &err), LLMM_CLI_OK);
    assert_int_equal(rd->finish(p, NULL, &err), LLMM_CLI_OK);
    assert_int_equal(c.nrec, 3);
    assert_true(c.rec[0].e2e_s == 0.54 && c.rec[2].e2e_s == 0.125);
    assert_non_null(rd->replay(p, &nflags)); /* a second pass is needed */
    assert_int_equal(nflags, 3);
    rd->destroy(p);
}

/* Errors before ITLs: no second pass needed. Several documents (--append-result). */
static void vllm_errors_first_and_multi(void **state)
{
    cap c;
    llmm_cli_error err;
    const char *doc = "{\"errors\": [\"boom\", \"\"], \"ttfts\": [0.1, 0.2],"
                      " \"itls\": [[0.5], [0.25]], \"output_lens\": [0, 2]}\n"
                      "{\"ttfts\": [0.3], \"itls\": [[0.125]], \"duration\": 2}\n";
    (void)state;
    assert_int_equal(vllm(doc, &c, &err), LLMM_CLI_OK);
    assert_int_equal(c.resets, 0);
    assert_int_equal(c.nitl, 2);
    assert_true(c.itl[0] == 0.25 && c.itl[1] == 0.125);
    assert_int_equal(c.nrec, 3);
    assert_int_equal(c.nrun, 2);
    assert_true(isnan(c.dur[0]) && c.dur[1] == 2.0);
    assert_true(c.rec[1].e2e_s == 0.45 && c.rec[2].e2e_s == 0.425);
    assert_true(c.rec[2].output_tokens == -1);
}

/* The llmm_events extension: events in any key order, unknown keys skipped. */
static void vllm_events(void **state)
{
    cap c;
    llmm_cli_error err;
    const char *doc = "{\"ttfts\": [0.1], \"latencies\": [0.2], \"start_times\": [10],"
                      " \"llmm_events\": [{\"type\": \"model.weight_switch\", \"x\": [1, {}],"
                      " \"t\": 12.5}, null, {\"t\": 11, \"value\": 3, \"type\": \"sched.jitter\","
                      " \"y\": {\"z\": [2]}}]}";
    (void)state;
    assert_int_equal(vllm(doc, &c, &err), LLMM_CLI_OK);
    assert_int_equal(c.nev, 2);
    assert_string_equal(c.ev_type[0], "model.weight_switch");
    assert_true(c.ev_t[0] == 12.5 && c.ev_v[0] == 0);
    assert_string_equal(c.ev_type[1], "sched.jitter");
    assert_true(c.ev_t[1] == 11 && c.ev_v[1] == 3);
    assert_int_equal(c.nrec, 1);
}

static void vllm_failed_count_note(void **state)
{
    cap c;
    llmm_cli_error err;
    (void)state;
    assert_int_equal(vllm("{\"failed\": 3, \"ttfts\": [0.1], \"latencies\": [0.2]}", &c, &err),
                     LLMM_CLI_OK);
    assert_int_equal(c.notes, 1);
}

typedef struct bad_case {
    const char *text;
    const char *msg; /* a part of the expected message */
} bad_case;

/* Each case refused by reader fn (vllm, csv, jsonl) with a message holding its part; the
 * NULL-message case of csv_malformed (an embedded NUL) is left to the caller. */
static void expect_refused(const bad_case *cases, size_t n,
                           int (*fn)(const char *, cap *, llmm_cli_error *))
{
    for (size_t i = 0; i < n; i++) {
        cap c;
        llmm_cli_error err;
        int rc;
        if (!cases[i].msg)
            continue;
        rc = fn(cases[i].text, &c, &err);
        if (rc != LLMM_CLI_EPARSE || !strstr(err.msg, cases[i].msg)) {
            print_error("case %zu '%s': rc %d, message '%s', expected '%s'\n", i, cases[i].text,
                        rc, err.msg, cases[i].msg);
            fail();
        }
    }
}

static void vllm_malformed(void **state)
{
    static const bad_case cases[] = {
        {"", "empty input"},
        {"   \n  ", "empty input"},
        {"[1, 2]", "found a list"},
        {"42", "found a number"},
        {"{\"ttfts\": [0.1], \"latencies\": [0.2]", "t.json:1:"},
        {"{\"ttfts\": [0.1, 0.2], \"latencies\": [0.2]}", "'latencies' has 1 entries"},
        {"{\"itls\": [[0.1]], \"latencies\": [0.2]}", "'itls' without 'ttfts'"},
        {"{\"ttfts\": [0.1]}", "neither 'latencies' nor 'itls'"},
        {"{\"ttfts\": [\"x\"], \"latencies\": [1]}", "ttfts[0] is a string, expected a number"},
        {"{\"ttfts\": [-1], \"latencies\": [1]}", "ttfts[0] is negative"},
        {"{\"ttfts\": [0.1], \"ttfts\": [0.1]}", "key 'ttfts' appears twice"},
        {"{\"ttfts\": 3}", "'ttfts' is a number, expected a list"},
        {"{\"ttfts\": {}}", "'ttfts' is an object"},
        {"{\"ttfts\": [[1]]}", "ttfts[0] is a list"},
        {"{\"ttfts\": [0.1], \"itls\": [0.2]}", "itls[0] is a number"},
        {"{\"ttfts\": [0.1], \"itls\": [[\"a\"]]}", "itls[0] holds a string"},
        {"{\"ttfts\": [0.1], \"itls\": [[[1]]]}", "itls[0] holds a nested list"},
        {"{\"ttfts\": [0.1], \"itls\": [[-0.5]]}", "negative latency"},
        {"{\"ttfts\": [0.1], \"errors\": [3], \"itls\": [[]]}", "errors[0] is a number"},
        {"{\"ttfts\": [0.1], \"output_lens\": [1.5], \"itls\": [[]]}", "not a token count"},
        {"{\"ttfts\": [NaN], \"latencies\": [1]}", "t.json:1:12: ttfts[0] is NaN"},
        {"{\"ttfts\": [0.1], \"latencies\": [-Infinity]}", "latencies[0] is -Infinity"},
        {"{\"ttfts\": [0.1], \"itls\": [[Infinity]]}", "itls[0] holds Infinity"},
        {"{\"ttfts\": [0.1], \"latencies\": [0.2], \"start_times\": [NaN]}", "start_times[0] is NaN"},
        {"{\"ttfts\": [nan], \"latencies\": [1]}", "invalid literal 'nan'"},
        {"{\"duration\": Infinity}", "'duration' is Infinity"},
        {"{\"ttfts\": [1e999], \"latencies\": [1]}", "out of range"},
        {"{\"ttfts\": [0.5], \"latencies\": [0.25]}", "below its TTFT"},
        {"{\"ttfts\": [null], \"latencies\": [0.25]}", "ttfts[0] is null"},
        {"{\"duration\": -1, \"ttfts\": []}", "'duration' is negative"},
        {"{\"duration\": [1]}", "'duration' is a list"},
        {"{\"ttfts\": []}\n{\"ttfts\": []} x", "t.json:2:"},
        {"\x01\x02\x03", "t.json:1:"},
        {"{\"llmm_events\": 3}", "'llmm_events' is a number, expected a list"},
        {"{\"llmm_events\": [3]}", "llmm_events[0] is a number, expected an object"},
        {"{\"llmm_events\": [[]]}", "llmm_events[0] is a list, expected an object"},
        {"{\"llmm_events\": [{\"t\": 1}]}", "llmm_events[0] needs \"t\" and \"type\""},
        {"{\"llmm_events\": [{\"t\": \"a\", \"type\": \"x\"}]}", "llmm_events[0].t is a string"},
        {"{\"llmm_events\": [{\"t\": 1, \"type\": 5}]}", "llmm_events[0].type must be a name"},
        {"{\"llmm_events\": [{\"t\": 1, \"type\": [\"x\"]}]}", "llmm_events[0] holds a nested list"},
        {"{\"llmm_events\": [{\"t\": 1, \"type\": \"no.such.event\"}]}", "unknown event type"},
        {"{\"a\": \"x\x01\"}", "t.json:1:9: control character 0x01"},
    };
    (void)state;
    expect_refused(cases, sizeof cases / sizeof cases[0], vllm);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) { /* each names the file */
        cap c;
        llmm_cli_error err;
        vllm(cases[i].text, &c, &err);
        assert_true(strncmp(err.msg, "t.json:", 7) == 0);
    }
}

/* The position of an error: line and column of the offending token. */
static void vllm_error_position(void **state)
{
    cap c;
    llmm_cli_error err;
    (void)state;
    assert_int_equal(vllm("{\n  \"ttfts\": [0.1,\n   \"oops\"]}", &c, &err), LLMM_CLI_EPARSE);
    assert_msg_has(err, "t.json:3:");
    assert_int_equal(vllm("{\n\n  \"ttfts\": [0.1,, 0.2]}", &c, &err), LLMM_CLI_EPARSE);
    assert_msg_has(err, "t.json:3:");
}

/* Every proper prefix of a valid document is an error, never a crash; the full one parses. */
static void vllm_truncated(void **state)
{
    size_t n = strlen(VLLM_DOC);
    (void)state;
    for (size_t len = 0; len < n; len++) {
        cap c;
        llmm_cli_error err;
        int rc = parse(LLMM_CLI_FORMAT_VLLM, "t.json", VLLM_DOC, len, &c, NULL, &err);
        /* the document ends with '}' '\n': only the prefix without the newline is complete */
        if (len == n - 1)
            assert_int_equal(rc, LLMM_CLI_OK);
        else if (rc != LLMM_CLI_EPARSE || strncmp(err.msg, "t.json:", 7) != 0) {
            print_error("prefix %zu: rc %d '%s'\n", len, rc, err.msg);
            fail();
        }
    }
}

/* Arbitrary bytes: any result, but a clean one (run under the sanitizers by the hardening
 * suite). */
static void vllm_noise(void **state)
{
    llmm_cli_rng r;
    char buf[512];
    static const char alphabet[] = "{}[],:\"0123456789.eE-+ntrufalse \\\n\x80\xff";
    (void)state;
    llmm_cli_rng_seed(&r, 7);
    for (int iter = 0; iter < 3000; iter++) {
        size_t len = llmm_cli_rng_next(&r) % sizeof buf;
        cap c;
        llmm_cli_error err;
        for (size_t i = 0; i < len; i++)
            buf[i] = alphabet[llmm_cli_rng_next(&r) % (sizeof alphabet - 1)];
        if (parse(LLMM_CLI_FORMAT_VLLM, "n.json", buf, len, &c, NULL, &err) != LLMM_CLI_OK)
            assert_true(strncmp(err.msg, "n.json", 6) == 0);
        if (parse(LLMM_CLI_FORMAT_JSONL, "n.jsonl", buf, len, &c, NULL, &err) != LLMM_CLI_OK)
            assert_true(strncmp(err.msg, "n.jsonl", 7) == 0);
        if (parse(LLMM_CLI_FORMAT_CSV, "n.csv", buf, len, &c, NULL, &err) != LLMM_CLI_OK)
            assert_true(strncmp(err.msg, "n.csv", 5) == 0);
    }
}

/* Random edits of valid inputs reach deeper parser states than noise does. */
static void mutations(void **state)
{
    static const char *const seeds[] = {
        NULL, /* VLLM_DOC */
        "start_s,ttft_s,e2e_s,output_tokens,status\n0.5,0.1,1.1,11,ok\n1,\"0.2\",0.3,2,503\n",
        "{\"start_s\": 1, \"ttft_s\": 0.1, \"e2e_s\": 0.4, \"itls\": [0.1, 0.2]}\n"
        "{\"ttft_s\": 0.2, \"e2e_s\": 0.5, \"status\": \"error\"}\n"};
    static const char alphabet[] = "{}[],:\"0123456789.eE-+nul \\\n\r\x80";
    llmm_cli_rng r;
    char buf[1024];
    (void)state;
    llmm_cli_rng_seed(&r, 11);
    for (int iter = 0; iter < 6000; iter++) {
        const char *seed = seeds[iter % 3] ? seeds[iter % 3] : VLLM_DOC;
        size_t len = strlen(seed), edits = 1 + llmm_cli_rng_next(&r) % 4;
        static const llmm_cli_format fmt[3] = {LLMM_CLI_FORMAT_VLLM, LLMM_CLI_FORMAT_CSV,
                                               LLMM_CLI_FORMAT_JSONL};
        cap c;
        llmm_cli_error err;
        int rc;
        memcpy(buf, seed, len);
        for (size_t e = 0; e < edits && len > 1; e++) {
            size_t at = llmm_cli_rng_next(&r) % len;
            switch (llmm_cli_rng_next(&r) % 3) {
            case 0: /* replace */
                buf[at] = alphabet[llmm_cli_rng_next(&r) % (sizeof alphabet - 1)];
                break;
            case 1: /* delete */
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
                break;
            default: /* insert */
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = alphabet[llmm_cli_rng_next(&r) % (sizeof alphabet - 1)];
                    len++;
                }
            }
        }
        rc = parse(fmt[iter % 3], "m", buf, len, &c, NULL, &err);
        if (rc != LLMM_CLI_OK)
            assert_true(rc == LLMM_CLI_EPARSE && strncmp(err.msg, "m:", 2) == 0);
    }
}

/* ---- CSV ----------------------------------------------------------------------------------- */

static void csv_values(void **state)
{
    cap c;
    llmm_cli_error err;
    const char *text = "\xEF\xBB\xBF# a comment\r\n"
                       "start_s, TTFT_S ,e2e_s,output_tokens,status,note\r\n"
                       "\r\n"
                       "0.5,0.1,1.1,11,ok,\"a, \"\"quoted\"\" note\"\n"
                       "1.0,,,,503,x\n"
                       "1.5,0.2,0.2,1,200,\n"
                       ",0.3,0.9,,Success,\n"
                       "2.0,0.1,0.5,3,timeout,\n";
    (void)state;
    assert_int_equal(csv(text, &c, &err), LLMM_CLI_OK);
    assert_int_equal(c.nrec, 5);
    assert_int_equal(c.nrun, 1);
    assert_true(isnan(c.dur[0]));
    assert_true(c.rec[0].start_s == 0.5 && c.rec[0].ttft_s == 0.1 && c.rec[0].e2e_s == 1.1 &&
                c.rec[0].output_tokens == 11 && !c.rec[0].failed);
    assert_true(c.rec[1].failed && c.rec[1].start_s == 1.0);
    assert_true(!c.rec[2].failed && c.rec[2].output_tokens == 1);
    assert_true(!c.rec[3].failed && isnan(c.rec[3].start_s) && c.rec[3].output_tokens == -1);
    assert_true(c.rec[4].failed && isnan(c.rec[4].ttft_s));
    assert_int_equal(c.nitl, 0);
    /* no status column: every request succeeded */
    assert_int_equal(csv("ttft_s,e2e_s\n0.1,0.2", &c, &err), LLMM_CLI_OK);
    assert_int_equal(c.nrec, 1);
    assert_false(c.rec[0].failed);
}

static void csv_malformed(void **state)
{
    static const bad_case cases[] = {
        {"", "no CSV header"},
        {"# only a comment\n", "no CSV header"},
        {"1,2,3\n", "t.csv:1: the header must name"},
        {"ttft_s,e2e_s,ttft_s\n", "t.csv:1: column 'ttft_s' appears twice"},
        {"ttft_s,e2e_s\n0.1,0.2\n0.1\n", "t.csv:3: 1 fields, the header has 2"},
        {"ttft_s,e2e_s\n0.1,abc\n", "t.csv:2: e2e_s is not a number"},
        {"ttft_s,e2e_s\n0.1,nan\n", "t.csv:2: e2e_s is not a number"},
        {"ttft_s,e2e_s\n0.1,1e999\n", "t.csv:2: e2e_s is not a number"},
        {"ttft_s,e2e_s\n-0.1,0.2\n", "t.csv:2: ttft_s is negative"},
        {"ttft_s,e2e_s\n0.3,0.2\n", "t.csv:2: e2e_s (0.2) is below ttft_s"},
        {"ttft_s,e2e_s\n0.3,\n", "t.csv:2: a successful request needs both"},
        {"ttft_s,e2e_s,status\n0.1,0.2,\n", "t.csv:2: empty status"},
        {"ttft_s,e2e_s,output_tokens\n0.1,0.2,2.5\n", "not a token count"},
        {"ttft_s,e2e_s\n\"0.1,0.2\n", "t.csv:2:1: unterminated quoted field"},
        {"ttft_s,e2e_s\n\"0.1\"x,0.2\n", "t.csv:2:6: unexpected character"},
        {"ttft_s,e2e_s\n0.1,0.2\0\n", NULL},
    };
    cap c;
    llmm_cli_error err;
    (void)state;
    expect_refused(cases, sizeof cases / sizeof cases[0], csv);
    /* the embedded NUL needs an explicit length */
    assert_int_equal(parse(LLMM_CLI_FORMAT_CSV, "t.csv", "ttft_s,e2e_s\n0.1,0.2\0\n", 23, &c, NULL,
                           &err),
                     LLMM_CLI_EPARSE);
    assert_msg_has(err, "t.csv:2: NUL byte");
}

/* ---- JSONL --------------------------------------------------------------------------------- */

static void jsonl_values(void **state)
{
    cap c;
    llmm_cli_error err;
    const char *text =
        "{\"start_s\": 1, \"ttft_s\": 0.1, \"e2e_s\": 0.4, \"output_tokens\": 4,"
        " \"status\": \"ok\", \"itls\": [0.1, 0.1, 0.1], \"other\": {\"x\": [1, {}]}}\n"
        "\n"
        "{\"ttft_s\": null, \"e2e_s\": null, \"status\": 500, \"itls\": [0.5]}\n"
        "{\"ttft_s\": 0.2, \"e2e_s\": 0.2, \"status\": true, \"input_tokens\": 7}\n"
        "{\"ttft_s\": 0.2, \"e2e_s\": 0.3, \"status\": false}";
    (void)state;
    assert_int_equal(jsonl(text, &c, &err), LLMM_CLI_OK);
    assert_int_equal(c.nrec, 4);
    assert_true(c.rec[0].start_s == 1 && c.rec[0].e2e_s == 0.4 && c.rec[0].output_tokens == 4);
    assert_true(c.rec[1].failed);
    assert_true(!c.rec[2].failed && c.rec[2].input_tokens == 7);
    assert_true(c.rec[3].failed);
    assert_int_equal(c.nitl, 3); /* the failed line's ITL is dropped */
}

static void jsonl_malformed(void **state)
{
    static const bad_case cases[] = {
        {"", "no JSON line"},
        {"[1]\n", "each line must hold one JSON object"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2}\n{\"ttft_s\": 0.1,\n", "t.jsonl:2:"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2} {}\n", "t.jsonl:1:"},
        {"{\"ttft_s\": \"a\", \"e2e_s\": 0.2}\n", "ttft_s must be a number"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2, \"ttft_s\": 0.1}\n", "key 'ttft_s' appears twice"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2, \"itls\": 3}\n", "itls must be a list"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2, \"itls\": [\"x\"]}\n", "itls must hold numbers"},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2, \"status\": \"\"}\n", "status is empty"},
        {"{\"x\": 1}\n", "t.jsonl:1: no ttft_s, e2e_s or status"},
        {"{\"ttft_s\": 0.5, \"e2e_s\": 0.2}\n", "t.jsonl:1: e2e_s (0.2) is below"},
    };
    (void)state;
    expect_refused(cases, sizeof cases / sizeof cases[0], jsonl);
}

/* ---- numbers and helpers -------------------------------------------------------------------- */

static void percentiles(void **state)
{
    double v[] = {1, 2, 3, 4};
    double w[100];
    (void)state;
    /* numpy.percentile([1, 2, 3, 4], p): position 3p/100 */
    assert_true(llmm_cli_linear_percentile(v, 4, 50) == 2.5);
    assert_true(llmm_cli_linear_percentile(v, 4, 0) == 1);
    assert_true(llmm_cli_linear_percentile(v, 4, 100) == 4);
    assert_true(llmm_cli_linear_percentile(v, 4, 90) == 3.7);      /* b - (b-a)(1-t), t = 0.7 */
    assert_true(llmm_cli_linear_percentile(v, 4, 10) == 1.3);      /* a + (b-a) t, t = 0.3 */
    assert_true(llmm_cli_linear_percentile(v, 1, 99.9) == 1);
    /* nearest rank: rank max(1, ceil(q n)); 0.07 x 100 is rank 7, not 8 */
    for (int i = 0; i < 100; i++)
        w[i] = i + 1;
    assert_true(llmm_cli_nearest_rank(w, 100, 0.07) == 7);
    assert_true(llmm_cli_nearest_rank(w, 100, 0.0) == 1);
    assert_true(llmm_cli_nearest_rank(w, 100, 1.0) == 100);
    assert_true(llmm_cli_nearest_rank(w, 100, 0.999) == 100);
    assert_true(llmm_cli_nearest_rank(w, 100, 0.5) == 50);
    assert_true(llmm_cli_nearest_rank(w, 100, 0.501) == 51);
}

/* The fast decimal path returns exactly what strtod returns. */
static void numbers_as_strtod(void **state)
{
    static const char *const fixed[] = {
        "0", "-0", "0.0", "1", "-1", "0.1", "0.021345", "123456789012345678", "9007199254740993",
        "1234567890123456789", "12345678901234567890", "0.30000000000000004", "1e22", "1e23",
        "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308", "2.2250738585072014e-308",
        "00012", "1E5", "1e+05", "1.5e-7", "000.000001", "123.456e-2", "-7.25E+3"};
    llmm_cli_rng r;
    char buf[64];
    (void)state;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        double a, b = strtod(fixed[i], NULL);
        assert_int_equal(llmm_cli_number(fixed[i], strlen(fixed[i]), &a), LLMM_CLI_OK);
        if (memcmp(&a, &b, sizeof a) != 0) {
            print_error("%s: %.17g != strtod %.17g\n", fixed[i], a, b);
            fail();
        }
    }
    llmm_cli_rng_seed(&r, 3);
    for (int i = 0; i < 200000; i++) {
        double x = ldexp(llmm_cli_rng_uniform(&r), (int)(llmm_cli_rng_next(&r) % 80) - 60);
        double a, b;
        int prec = 1 + (int)(llmm_cli_rng_next(&r) % 19);
        switch (i % 3) {
        case 0:
            snprintf(buf, sizeof buf, "%.*g", prec, x);
            break;
        case 1:
            snprintf(buf, sizeof buf, "%.*f", prec, x);
            break;
        default:
            snprintf(buf, sizeof buf, "%.*e", prec, x);
        }
        b = strtod(buf, NULL);
        assert_int_equal(llmm_cli_number(buf, strlen(buf), &a), LLMM_CLI_OK);
        if (memcmp(&a, &b, sizeof a) != 0) {
            print_error("%s: %.17g != strtod %.17g\n", buf, a, b);
            fail();
        }
    }
    assert_int_equal(llmm_cli_number("1e400", 5, &(double){0}), LLMM_CLI_EPARSE);
    assert_int_equal(llmm_cli_number("", 0, &(double){0}), LLMM_CLI_EPARSE);
    assert_int_equal(llmm_cli_number("1x", 2, &(double){0}), LLMM_CLI_EPARSE);
}

static int detect(const char *head)
{
    llmm_cli_format f = LLMM_CLI_FORMAT_AUTO;
    llmm_cli_error err;
    if (llmm_cli_format_detect("h", head, strlen(head), 0, &f, &err) != LLMM_CLI_OK)
        return -1;
    return (int)f;
}

static void helpers(void **state)
{
    double s;
    llmm_cli_format f;
    (void)state;
    assert_int_equal(llmm_cli_parse_duration("250ms", &s), LLMM_CLI_OK);
    assert_true(s == 0.25);
    assert_int_equal(llmm_cli_parse_duration("2s", &s), LLMM_CLI_OK);
    assert_true(s == 2.0);
    assert_int_equal(llmm_cli_parse_duration("500", &s), LLMM_CLI_OK);
    assert_true(s == 0.5);
    assert_int_equal(llmm_cli_parse_duration("30us", &s), LLMM_CLI_OK);
    assert_true(fabs(s - 30e-6) < 1e-18);
    assert_int_equal(llmm_cli_parse_duration("-1s", &s), LLMM_CLI_EUSAGE);
    assert_int_equal(llmm_cli_parse_duration("1min", &s), LLMM_CLI_EUSAGE);
    assert_int_equal(llmm_cli_parse_duration("", &s), LLMM_CLI_EUSAGE);
    assert_int_equal(llmm_cli_status_failed(" OK ", 4), 0);
    assert_int_equal(llmm_cli_status_failed("204", 3), 0);
    assert_int_equal(llmm_cli_status_failed("429", 3), 1);
    assert_int_equal(llmm_cli_status_failed("2000", 4), 1);
    assert_int_equal(llmm_cli_status_failed("error", 5), 1);
    assert_int_equal(llmm_cli_status_failed("  ", 2), -1);
    assert_int_equal(detect(" {\"ttft_s\": 1}\n{"), LLMM_CLI_FORMAT_JSONL);
    assert_int_equal(detect("{\"ttfts\": [1]}"), LLMM_CLI_FORMAT_VLLM);
    assert_int_equal(detect("# x\nTTFT_S,e2e_s"), LLMM_CLI_FORMAT_CSV);
    assert_int_equal(llmm_cli_format_parse("JSONL", &f), LLMM_CLI_OK);
    assert_int_equal(f, LLMM_CLI_FORMAT_JSONL);
    assert_int_equal(llmm_cli_format_parse("xml", &f), LLMM_CLI_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vllm_values),       cmocka_unit_test(vllm_bytewise),
        cmocka_unit_test(vllm_no_second_pass),
        cmocka_unit_test(vllm_errors_first_and_multi),
        cmocka_unit_test(vllm_failed_count_note), cmocka_unit_test(vllm_events),
        cmocka_unit_test(vllm_malformed),    cmocka_unit_test(vllm_error_position),
        cmocka_unit_test(vllm_truncated),    cmocka_unit_test(vllm_noise),
        cmocka_unit_test(mutations),
        cmocka_unit_test(csv_values),        cmocka_unit_test(csv_malformed),
        cmocka_unit_test(jsonl_values),      cmocka_unit_test(jsonl_malformed),
        cmocka_unit_test(percentiles),       cmocka_unit_test(numbers_as_strtod),
        cmocka_unit_test(helpers),
    };
    return cmocka_run_group_tests_name("cli_parse", tests, NULL, NULL);
}
