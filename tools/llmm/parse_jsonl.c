/* parse_jsonl.c: the generic JSONL trace, one JSON object per line with the keys of table.h;
 * unknown keys are skipped, empty lines too. Each line is parsed on its own (YAJL), so an
 * error names its line and column. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "table.h"

typedef struct jline {
    struct llmm_cli_table *t;
    llmm_cli_record r;
    int col;      /* the key being read: enum table_col, or -1 to skip its value */
    size_t depth; /* 1 inside the line's object, 2 inside its "itls" list */
    size_t skip;  /* > 0 while skipping an unknown key's container */
    int seen[COL_COUNT];
    int cb_code;
    char cb_msg[256];
} jline;

static int jfail(jline *j, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int jfail(jline *j, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->cb_msg, sizeof j->cb_msg, fmt, ap);
    va_end(ap);
    j->cb_code = code;
    return 0;
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

enum { K_NULL, K_BOOL, K_NUMBER, K_STRING };

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

static int on_null(void *ctx)
{
    return scalar(ctx, K_NULL, 0, NULL, 0);
}

static int on_boolean(void *ctx, int b)
{
    return scalar(ctx, K_BOOL, b ? 1 : 0, NULL, 0);
}

static int on_number(void *ctx, const char *s, size_t len)
{
    jline *j = ctx;
    double v;
    if (j->skip)
        return 1;
    if (llmm_cli_parse_number(s, len, &v) != LLMM_CLI_OK)
        return jfail(j, LLMM_CLI_EPARSE, "%s", "number out of range");
    return scalar(j, K_NUMBER, v, NULL, 0);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    return scalar(ctx, K_STRING, 0, s, len);
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
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

static int on_start_map(void *ctx)
{
    jline *j = ctx;
    if (j->skip || (j->depth == 1 && j->col < 0)) {
        j->skip++;
        return 1;
    }
    if (j->depth == 0) {
        j->depth = 1;
        return 1;
    }
    return jfail(j, LLMM_CLI_EPARSE, "%s", "unexpected object");
}

static int on_end_map(void *ctx)
{
    jline *j = ctx;
    if (j->skip) {
        j->skip--;
        return 1;
    }
    j->depth = 0;
    return 1;
}

static int on_start_array(void *ctx)
{
    jline *j = ctx;
    if (j->skip || (j->depth == 1 && j->col < 0)) {
        j->skip++;
        return 1;
    }
    if (j->depth == 1 && j->col == COL_ITLS) {
        j->depth = 2;
        return 1;
    }
    if (j->depth == 0)
        return jfail(j, LLMM_CLI_EPARSE, "%s", "each line must hold one JSON object");
    return jfail(j, LLMM_CLI_EPARSE, "%s", "unexpected list");
}

static int on_end_array(void *ctx)
{
    jline *j = ctx;
    if (j->skip) {
        j->skip--;
        return 1;
    }
    j->depth = 1;
    return 1;
}

static const yajl_callbacks callbacks = {
    on_null, on_boolean, NULL, NULL, on_number, on_string, on_start_map, on_map_key,
    on_end_map, on_start_array, on_end_array};

int llmm_cli_jsonl_line(void *user, char *line, size_t len, uint64_t lineno,
                        llmm_cli_error *err)
{
    struct llmm_cli_table *t = user;
    jline j;
    yajl_handle h;
    yajl_status st;
    size_t i = 0;
    if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == len)
        return LLMM_CLI_OK;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.col = -1;
    j.r.start_s = j.r.ttft_s = j.r.e2e_s = NAN;
    j.r.input_tokens = j.r.output_tokens = -1;
    t->itls.n = 0;
    h = yajl_alloc(&callbacks, NULL, &j);
    if (!h)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", t->name);
    st = yajl_parse(h, (const unsigned char *)line + i, len - i);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    if (st != yajl_status_ok) {
        size_t at = i + yajl_get_bytes_consumed(h);
        int code = LLMM_CLI_EPARSE;
        char msg[256] = "invalid JSON";
        if (st == yajl_status_client_canceled) {
            code = j.cb_code;
            snprintf(msg, sizeof msg, "%s", j.cb_msg);
        } else {
            unsigned char *m = yajl_get_error(h, 0, NULL, 0);
            if (m) {
                snprintf(msg, sizeof msg, "%.*s", (int)strcspn((const char *)m, "\n"),
                         (const char *)m);
                yajl_free_error(h, m);
            }
        }
        yajl_free(h);
        return llmm_cli_fail(err, code, "%s:%llu:%zu: %s", t->name, (unsigned long long)lineno,
                             (at > len ? len : at) + 1, msg);
    }
    yajl_free(h);
    if (!j.seen[COL_TTFT] && !j.seen[COL_E2E] && !j.seen[COL_STATUS])
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: no ttft_s, e2e_s or status: not a request record",
                             t->name, (unsigned long long)lineno);
    return llmm_cli_table_emit(t, &j.r, lineno, err);
}
