/* jsonl.c: the reader of the generic JSONL trace, one JSON object per line with the keys of
 * table.h; unknown keys are skipped, empty lines too. Each line is parsed on its own (YAJL), so
 * an error names its line and column. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/json.h"
#include "input/table.h"

typedef struct jline {
    const llmm_cli_json_events *events; /* first: the YAJL callbacks' context (json.h) */
    llmm_cli_table *t;
    llmm_cli_record r;
    int col;      /* the key being read: enum table_col, or -1 to skip its value */
    size_t depth; /* 1 inside the line's object, 2 inside its "itls" list */
    size_t skip;  /* > 0 while skipping an unknown key's container */
    int seen[COL_COUNT];
    llmm_cli_cb_error cb;
} jline;

static int jfail(jline *j, int code, const char *fmt, ...) LLMM_CLI_PRINTF(3, 4);

static int jfail(jline *j, int code, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = llmm_cli_cb_vfail(&j->cb, code, fmt, ap);
    va_end(ap);
    return r;
}

static int set_number(jline *j, double v)
{
    const char *cn = llmm_cli_table_col_name[j->col];
    if (j->col != COL_START && v < 0)
        return jfail(j, LLMM_CLI_EPARSE, "%s is negative", cn);
    switch (j->col) {
    case COL_START:
        j->r.start_s = v;
        break;
    case COL_TTFT:
        j->r.ttft_s = v;
        break;
    case COL_E2E:
        j->r.e2e_s = v;
        break;
    case COL_STATUS:
        j->r.failed = !(v >= 200 && v < 300 && v == floor(v));
        break;
    default:
        if (v != floor(v) || v > 9.0e15)
            return jfail(j, LLMM_CLI_EPARSE, "%s is not a token count", cn);
        if (j->col == COL_OUT)
            j->r.output_tokens = (int64_t)v;
        else
            j->r.input_tokens = (int64_t)v;
    }
    return 1;
}

static int scalar(jline *j, int kind, double v, const unsigned char *s, size_t len)
{
    const char *cn;
    if (j->skip)
        return 1;
    if (j->depth == 0)
        return jfail(j, LLMM_CLI_EPARSE, "%s", "each line must hold one JSON object");
    if (j->depth == 2) { /* an element of "itls" */
        if (kind != K_NUMBER || v < 0)
            return jfail(j, LLMM_CLI_EPARSE, "%s", "itls must hold numbers >= 0");
        if (llmm_cli_vec_push(&j->t->itls, v) != LLMM_CLI_OK)
            return jfail(j, LLMM_CLI_ENOMEM, "%s", "out of memory");
        return 1;
    }
    if (j->col < 0)
        return 1;
    cn = llmm_cli_table_col_name[j->col];
    if (kind == K_NULL)
        return 1; /* unknown value */
    if (j->col == COL_ITLS)
        return jfail(j, LLMM_CLI_EPARSE, "%s must be a list of numbers", cn);
    if (j->col == COL_STATUS) {
        if (kind == K_STRING) {
            int f = llmm_cli_status_failed((const char *)s, len);
            if (f < 0)
                return jfail(j, LLMM_CLI_EPARSE, "%s is empty", cn);
            j->r.failed = f;
            return 1;
        }
        if (kind == K_BOOL) {
            j->r.failed = v == 0;
            return 1;
        }
    } else if (kind != K_NUMBER) {
        return jfail(j, LLMM_CLI_EPARSE, "%s must be a number", cn);
    }
    return set_number(j, v);
}

static int on_scalar(void *ctx, int kind, int b, const char *text, size_t len)
{
    jline *j = ctx;
    double v = b;
    if (kind == K_NUMBER) {
        if (j->skip)
            return 1;
        if (llmm_cli_parse_number(text, len, &v) != LLMM_CLI_OK)
            return jfail(j, LLMM_CLI_EPARSE, "%s", "number out of range");
    }
    return scalar(j, kind, v, (const unsigned char *)text, len);
}

static int on_key(void *ctx, const char *key, size_t len)
{
    jline *j = ctx;
    if (j->skip)
        return 1;
    j->col = -1;
    for (int c = 0; c < COL_COUNT; c++) {
        const char *cn = llmm_cli_table_col_name[c];
        if (strlen(cn) == len && memcmp(cn, key, len) == 0) {
            if (j->seen[c])
                return jfail(j, LLMM_CLI_EPARSE, "key '%s' appears twice", cn);
            j->seen[c] = 1;
            j->col = c;
        }
    }
    return 1;
}

static int on_container(void *ctx, int open, int map)
{
    jline *j = ctx;
    if (!open) { /* back to the line's object, or out of it */
        if (j->skip)
            j->skip--;
        else
            j->depth = map ? 0 : 1;
        return 1;
    }
    if (j->skip || (j->depth == 1 && j->col < 0)) { /* inside an unknown key's value */
        j->skip++;
        return 1;
    }
    if (map && j->depth == 0) {
        j->depth = 1;
        return 1;
    }
    if (!map && j->depth == 1 && j->col == COL_ITLS) {
        j->depth = 2;
        return 1;
    }
    if (!map && j->depth == 0)
        return jfail(j, LLMM_CLI_EPARSE, "%s", "each line must hold one JSON object");
    return jfail(j, LLMM_CLI_EPARSE, "%s", map ? "unexpected object" : "unexpected list");
}

static const llmm_cli_json_events events = {on_scalar, on_key, on_container};

static int jsonl_line(void *user, char *line, size_t len, uint64_t lineno,
                      llmm_cli_error *err)
{
    llmm_cli_table *t = user;
    jline j;
    size_t i = llmm_cli_json_line_start(line, len, lineno);
    int rc;
    if (i == len)
        return LLMM_CLI_OK;
    memset(&j, 0, sizeof j);
    j.events = &events;
    j.t = t;
    j.col = -1;
    llmm_cli_record_unknown(&j.r);
    t->itls.n = 0;
    rc = llmm_cli_json_parse_line(&j, &j.cb, t->name, line, i, len, lineno, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (!j.seen[COL_TTFT] && !j.seen[COL_E2E] && !j.seen[COL_STATUS])
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: no ttft_s, e2e_s or status: not a request record",
                             t->name, (unsigned long long)lineno);
    t->started = 1;
    return llmm_cli_table_emit(t, &j.r, lineno, err);
}

static const llmm_cli_table_kind jsonl_kind = {jsonl_line, "no JSON line"};

const llmm_cli_reader llmm_cli_reader_jsonl = {
    LLMM_CLI_FORMAT_JSONL, "jsonl", {".jsonl", ".ndjson", NULL}, &jsonl_kind,
    llmm_cli_table_create, llmm_cli_table_feed, llmm_cli_table_finish, NULL,
    llmm_cli_table_destroy};
