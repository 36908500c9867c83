/* test_cli_json: the JSON tokenizer of the llmm tool (input/json.h) on buffers: every event in
 * order, whatever the chunking; Python's NaN / Infinity / -Infinity; skipping; decoding of
 * strings on request; errors with their line and column; limits; and the detection of a
 * format from the start of an input (input/formats.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input/input.h"
#include "input/json.h"

/* ---- a handler that writes every event as text --------------------------------------------- */

typedef struct rec {
    char out[8192];
    size_t n;
    int skip_key;   /* keys named "skip" are skipped, "text" decoded */
    int skip_open;  /* lists opened with parent index 1 are skipped */
} rec;

static void put(rec *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->n += (size_t)vsnprintf(r->out + r->n, sizeof r->out - r->n, fmt, ap);
    va_end(ap);
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    rec *r = self;
    (void)f;
    put(r, "K(%.*s)", (int)len, k);
    if (r->skip_key && len == 4 && memcmp(k, "skip", 4) == 0)
        return LLMM_CLI_JSON_SKIP;
    if (len == 4 && memcmp(k, "text", 4) == 0)
        return 1 | LLMM_CLI_JSON_TEXT;
    return 1;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    rec *r = self;
    put(r, "%c", map ? '{' : '[');
    if (r->skip_open && parent && !parent->map && parent->idx == 1)
        return LLMM_CLI_JSON_SKIP;
    return 7;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    rec *r = self;
    switch (v->kind) {
    case K_NULL:
        put(r, "null");
        break;
    case K_BOOL:
        put(r, v->b ? "true" : "false");
        break;
    case K_NUMBER:
        put(r, "N(%.*s=%.17g)", (int)v->len, v->text, v->num);
        break;
    default:
        if (v->text)
            put(r, "S(%.*s)", (int)v->len, v->text);
        else
            put(r, "S#%zu", v->len);
    }
    if (f && !f->map)
        put(r, "@%zu", f->idx);
    return 1;
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    rec *r = self;
    put(r, "%c", f->map ? '}' : ']');
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

/* Tokenize text in chunks of `step` bytes (0: one chunk); the events into r, the code back. */
static int tokenize(const char *text, size_t len, size_t step, int multi, rec *r,
                    llmm_cli_json *j)
{
    int st = LLMM_CLI_JSON_OK;
    size_t at = 0;
    llmm_cli_json_init(j, &handler, r, multi);
    if (step == 0)
        step = len ? len : 1;
    while (st == LLMM_CLI_JSON_OK && at < len) {
        size_t k = len - at < step ? len - at : step;
        st = llmm_cli_json_feed(j, text + at, k);
        at += k;
    }
    if (st == LLMM_CLI_JSON_OK)
        st = llmm_cli_json_finish(j);
    return st;
}

static llmm_cli_json tok; /* large: not on the stack */

/* The events of text, the same for every chunk size. */
static const char *events(const char *text, int multi, int skip_key, int skip_open)
{
    static rec first;
    rec r;
    size_t len = strlen(text);
    for (size_t step = 0; step <= len && step <= 9; step++) {
        memset(&r, 0, sizeof r);
        r.skip_key = skip_key;
        r.skip_open = skip_open;
        assert_int_equal(tokenize(text, len, step, multi, &r, &tok), LLMM_CLI_JSON_OK);
        if (step == 0)
            first = r;
        else if (strcmp(first.out, r.out) != 0) {
            print_error("step %zu: '%s' != '%s'\n", step, r.out, first.out);
            fail();
        }
    }
    llmm_cli_json_free(&tok);
    return first.out;
}

static void values(void **state)
{
    (void)state;
    assert_string_equal(events("{\"a\": [1, -2.5e1, true, null, \"x\"]}", 0, 0, 0),
                        "{K(a)[N(1=1)@0N(-2.5e1=-25)@1true@2null@3S#1@4]}");
    assert_string_equal(events(" [NaN, Infinity, -Infinity, 0, -0.0] ", 0, 0, 0),
                        "[N(NaN=nan)@0N(Infinity=inf)@1N(-Infinity=-inf)@2N(0=0)@3"
                        "N(-0.0=-0)@4]");
    /* 17-digit Python floats and nanosecond integers */
    assert_string_equal(events("[0.021834567890123457, 1736935200000000123]", 0, 0, 0),
                        "[N(0.021834567890123457=0.021834567890123457)@0"
                        "N(1736935200000000123=1.7369352e+18)@1]");
}

static void strings(void **state)
{
    (void)state;
    /* decoded on request: escapes, \u, surrogate pairs, a lone surrogate as U+FFFD */
    assert_string_equal(events("{\"text\": \"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\\ud800x\"}",
                               0, 0, 0),
                        "{K(text)S(a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx)}");
    /* not asked for: only the raw length (0 exactly for an empty string) */
    assert_string_equal(events("{\"t\": \"a\\nb\", \"u\": \"\"}", 0, 0, 0),
                        "{K(t)S#4K(u)S#0}");
    /* keys are always decoded */
    assert_string_equal(events("{\"k\\u0065y\": 1}", 0, 0, 0), "{K(key)N(1=1)}");
    /* a long string crosses many chunks */
    {
        char buf[400];
        size_t n = 0;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "{\"text\": \"");
        for (int i = 0; i < 60; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "ab\\t");
        snprintf(buf + n, sizeof buf - n, "\"}");
        assert_int_equal(strlen(events(buf, 0, 0, 0)), strlen("{K(text)S()}") + 180);
    }
}

/* The string scan looks at 16 (or 8) bytes at once: a stop byte (an escape, the closing
 * quote, a control character) at every offset of a block, in a decoded and in a skipped
 * string, against the decoding written out here byte by byte. */
static void string_stops(void **state)
{
    static const struct {
        const char *raw, *decoded;
    } stops[] = {{"\\\"", "\""}, {"\\n", "\n"}, {"\\\\", "\\"}, {"\\u00e9", "\xc3\xa9"},
                 {"", ""}};
    (void)state;
    for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
        for (size_t at = 0; at <= 40; at++) {
            char text[512], want[128], raw[128];
            size_t n = 0, w = 0;
            for (size_t i = 0; i < at; i++)
                raw[n++] = (char)('a' + i % 26);
            memcpy(want, raw, n);
            w = n;
            n += (size_t)snprintf(raw + n, sizeof raw - n, "%s", stops[k].raw);
            w += (size_t)snprintf(want + w, sizeof want - w, "%s", stops[k].decoded);
            n += (size_t)snprintf(raw + n, sizeof raw - n, "xyz");
            w += (size_t)snprintf(want + w, sizeof want - w, "xyz");
            snprintf(text, sizeof text, "{\"text\": \"%s\", \"t\": \"%s\"}", raw, raw);
            {
                char expect[512];
                snprintf(expect, sizeof expect, "{K(text)S(%s)K(t)S#%zu}", want, n);
                assert_string_equal(events(text, 0, 0, 0), expect);
            }
        }
    }
    /* a control character at every offset is an error, decoded or not */
    for (size_t at = 0; at <= 40; at++) {
        for (int decoded = 0; decoded <= 1; decoded++) {
            char text[128];
            rec r;
            size_t n = (size_t)snprintf(text, sizeof text, "{\"%s\": \"", decoded ? "text" : "t");
            for (size_t i = 0; i < at; i++)
                text[n++] = 'q';
            snprintf(text + n, sizeof text - n, "\x01rest of it\"}");
            memset(&r, 0, sizeof r);
            assert_int_equal(tokenize(text, strlen(text), 0, 0, &r, &tok),
                             LLMM_CLI_JSON_SYNTAX);
            assert_non_null(strstr(tok.msg, "control character"));
            llmm_cli_json_free(&tok);
        }
    }
}

static void skipping(void **state)
{
    (void)state;
    assert_string_equal(events("{\"skip\": {\"a\": [1, {\"b\": \"c\"}]}, \"k\": 2}", 0, 1, 0),
                        "{K(skip)K(k)N(2=2)}");
    assert_string_equal(events("{\"skip\": 5, \"k\": [1]}", 0, 1, 0), "{K(skip)K(k)[N(1=1)@0]}");
    /* a container skipped on opening: its close is not delivered either */
    assert_string_equal(events("[[1], [2, [3]], [4]]", 0, 0, 1),
                        "[[N(1=1)@0][[N(4=4)@0]]");
}

static void multi(void **state)
{
    (void)state;
    assert_string_equal(events("{\"a\": 1}\n{\"a\": 2}\n", 1, 0, 0),
                        "{K(a)N(1=1)}{K(a)N(2=2)}");
    assert_string_equal(events("\xEF\xBB\xBF 1 2", 1, 0, 0), "N(1=1)N(2=2)");
}

typedef struct bad {
    const char *text;
    unsigned line, col;
    const char *msg;
} bad;

static void errors(void **state)
{
    static const bad cases[] = {
        {"{\"a\" 1}", 1, 6, "expected ':' after a key, found '1'"},
        {"[1,]", 1, 4, "expected a value, found ']'"},
        {"{\"a\": 1,}", 1, 9, "expected a key"},
        {"[1 2]", 1, 4, "expected ',' or ']' after a value, found '2'"},
        {"{\"a\": 1]", 1, 8, "expected ',' or '}' after a value, found ']'"},
        {"[01]", 1, 2, "invalid number '01'"},
        {"[1.]", 1, 2, "invalid number '1.'"},
        {"[nan]", 1, 2, "invalid literal 'nan'"},
        {"[-inf]", 1, 2, "invalid number '-inf'"},
        {"[1e999]", 1, 2, "number 1e999 is out of range"},
        {"\n\n  [\"a\x01\"]", 3, 6, "control character 0x01"},
        {"[\"\\x\"]", 1, 4, "invalid escape: backslash before 'x'"},
        {"[\"\\u12g4\"]", 1, 7, "not a hex digit"},
        {"{\"a\": [1, 2", 1, 12, "ends inside a list"},
        {"{\"a\": \"xy", 1, 10, "ends inside a string"},
        {"1 2", 1, 3, "extra data after the JSON value"},
        {"@", 1, 1, "expected a JSON value, found '@'"},
        {"\xEF\xBB\x01", 1, 3, "byte-order mark"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = strlen(cases[i].text);
        for (size_t step = 0; step <= 3; step++) {
            rec r;
            uint64_t line, col;
            int st;
            memset(&r, 0, sizeof r);
            st = tokenize(cases[i].text, len, step, 0, &r, &tok);
            llmm_cli_json_where(&tok, &line, &col);
            if (st != LLMM_CLI_JSON_SYNTAX || !strstr(tok.msg, cases[i].msg) ||
                line != cases[i].line || (step == 0 && col != cases[i].col)) {
                print_error("case %zu step %zu: st %d at %llu:%llu '%s'\n", i, step, st,
                            (unsigned long long)line, (unsigned long long)col, tok.msg);
                fail();
            }
        }
    }
    llmm_cli_json_free(&tok);
}

static void limits(void **state)
{
    char *deep = malloc(2 * LLMM_CLI_JSON_DEPTH + 4);
    rec r;
    size_t n = 0;
    (void)state;
    assert_non_null(deep);
    for (int i = 0; i <= LLMM_CLI_JSON_DEPTH; i++)
        deep[n++] = '[';
    deep[n] = '\0';
    memset(&r, 0, sizeof r);
    assert_int_equal(tokenize(deep, n, 0, 0, &r, &tok), LLMM_CLI_JSON_SYNTAX);
    assert_non_null(strstr(tok.msg, "nested deeper than"));
    free(deep);
    /* a number longer than 512 characters */
    {
        char num[700];
        memset(num, '1', sizeof num - 1);
        num[sizeof num - 1] = '\0';
        memset(&r, 0, sizeof r);
        assert_int_equal(tokenize(num, strlen(num), 100, 0, &r, &tok), LLMM_CLI_JSON_SYNTAX);
        assert_non_null(strstr(tok.msg, "longer than 512"));
    }
    llmm_cli_json_free(&tok);
}

/* ---- format detection ---------------------------------------------------------------------- */

static int detect(const char *head, llmm_cli_error *err)
{
    llmm_cli_format f = LLMM_CLI_FORMAT_AUTO;
    if (llmm_cli_format_detect("h", head, strlen(head), 1, &f, err) != LLMM_CLI_OK)
        return -1;
    return (int)f;
}

static void detection(void **state)
{
    static const struct { const char *head; int fmt; } cases[] = {
        {"{\"date\": \"x\", \"completed\": 1, \"duration\": 2, \"ttfts\": []}", LLMM_CLI_FORMAT_VLLM},
        {"{\"backend\": \"vllm\", \"dataset_name\": \"random\", \"request_rate\": Infinity, "
         "\"completed\": 3}\n",
         LLMM_CLI_FORMAT_SGLANG},
        {"{\"experiments\": [{\"experiment\": {\"mode\": \"concurrency\", \"value\": 2}, "
         "\"requests\": []}]}",
         LLMM_CLI_FORMAT_GENAI_PERF},
        {"{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1.0}}",
         LLMM_CLI_FORMAT_GENAI_PERF_SUMMARY},
        {"{\"benchmarks\": [{\"type_\": \"generative_benchmark\"}]}", LLMM_CLI_FORMAT_GUIDELLM},
        {"{\"metadata\": {\"version\": 2, \"guidellm_version\": \"0.7.3\"}, \"config\": {}}",
         LLMM_CLI_FORMAT_GUIDELLM},
        {"[\n    {\n        \"error_code\": null,\n        \"ttft_s\": 0.2,\n"
         "        \"end_to_end_latency_s\": 0.4\n    }\n]",
         LLMM_CLI_FORMAT_LLMPERF},
        {"# a trace\nstart_s,ttft_s,e2e_s\n", LLMM_CLI_FORMAT_CSV},
        {"{\"ttft_s\": 0.1, \"e2e_s\": 0.2}\n", LLMM_CLI_FORMAT_JSONL},
        /* cut in the middle of a huge first document: the keys seen so far decide */
        {"{\"date\": \"x\", \"duration\": 2, \"completed\": 1, \"input_lens\": [1, 2, 3",
         LLMM_CLI_FORMAT_VLLM},
    };
    llmm_cli_error err;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        llmm_cli_format f = LLMM_CLI_FORMAT_AUTO;
        int whole = i + 1 < sizeof cases / sizeof cases[0];
        int rc = llmm_cli_format_detect("h", cases[i].head, strlen(cases[i].head), whole, &f,
                                        &err);
        if (rc != LLMM_CLI_OK || (int)f != cases[i].fmt) {
            print_error("case %zu: rc %d format %d, expected %d (%s)\n", i, rc, (int)f,
                        cases[i].fmt, err.msg);
            fail();
        }
    }
    assert_int_equal(detect("", &err), -1);
    assert_string_equal(err.msg, "h: empty input");
    assert_int_equal(detect("{\"a\": 1, \"b\": 2}", &err), -1);
    assert_non_null(strstr(err.msg, "it holds a JSON object with keys 'a', 'b'. Formats tried:"));
    assert_int_equal(detect("{\"a\": [1, 2", &err), -1);
    assert_non_null(strstr(err.msg, "h:1:12: the input ends inside a list"));
    /* issue 40: LLMPerf's summary has a reader of its own */
    assert_int_equal(detect("{\"results_ttft_s_mean\": 1}", &err), LLMM_CLI_FORMAT_LLMPERF_SUMMARY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values),   cmocka_unit_test(strings), cmocka_unit_test(string_stops),
        cmocka_unit_test(skipping),
        cmocka_unit_test(multi),    cmocka_unit_test(errors),  cmocka_unit_test(limits),
        cmocka_unit_test(detection),
    };
    return cmocka_run_group_tests_name("cli_json", tests, NULL, NULL);
}
