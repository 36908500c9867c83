/* jsonl.c: the reader of the generic JSONL trace, one JSON object per line with the keys of
 * table.h; unknown keys are skipped, empty lines too. Each line is tokenized on its own
 * (json.h), so an error names its line and column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/jreader.h"
#include "input/table.h"

typedef struct jline {
    llmm_cli_json tok; /* first, large */
    llmm_cli_table *t;
    llmm_cli_record r;
    int seen[COL_COUNT];
    llmm_cli_cb_error cb;
} jline;

enum { J_LINE = 1, J_ITLS };

static int jfail(jline *j, const char *msg)
{
    snprintf(j->cb.msg, sizeof j->cb.msg, "%s", msg);
    j->cb.code = LLMM_CLI_EPARSE;
    return 0;
}

static int set_number(jline *j, int col, double v)
{
    const char *cn = llmm_cli_table_col_name[col];
    const char *why;
    if (!isfinite(v)) {
        snprintf(j->cb.msg, sizeof j->cb.msg, "%s is %s", cn, llmm_cli_nonfinite_name(v));
        j->cb.code = LLMM_CLI_EPARSE;
        return 0;
    }
    why = llmm_cli_record_set(&j->r, col, v);
    if (why) {
        snprintf(j->cb.msg, sizeof j->cb.msg, "%s %s", cn, why);
        j->cb.code = LLMM_CLI_EPARSE;
        return 0;
    }
    return 1;
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *key, size_t len)
{
    jline *j = self;
    int c = llmm_cli_key_find(key, len, llmm_cli_table_col_name, COL_COUNT);
    (void)f;
    if (c < 0)
        return LLMM_CLI_JSON_SKIP;
    if (j->seen[c]) {
        snprintf(j->cb.msg, sizeof j->cb.msg, "key '%s' appears twice", llmm_cli_table_col_name[c]);
        j->cb.code = LLMM_CLI_EPARSE;
        return LLMM_CLI_JSON_STOP;
    }
    j->seen[c] = 1;
    return c == COL_STATUS ? c | LLMM_CLI_JSON_TEXT : c;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    jline *j = self;
    if (!parent) {
        if (!map) {
            jfail(j, "each line must hold one JSON object");
            return LLMM_CLI_JSON_STOP;
        }
        return J_LINE;
    }
    if (parent->type == J_LINE && parent->key == COL_ITLS && !map)
        return J_ITLS;
    jfail(j, map ? "unexpected object" : "unexpected list");
    return LLMM_CLI_JSON_STOP;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    jline *j = self;
    if (!f)
        return jfail(j, "each line must hold one JSON object");
    if (f->type == J_ITLS) {
        if (v->kind != K_NUMBER || !(v->num >= 0) || isinf(v->num))
            return jfail(j, "itls must hold numbers, finite and >= 0");
        if (llmm_cli_vec_push(&j->t->itls, v->num) != LLMM_CLI_OK) {
            j->cb.code = LLMM_CLI_ENOMEM;
            snprintf(j->cb.msg, sizeof j->cb.msg, "out of memory");
            return 0;
        }
        return 1;
    }
    if (v->kind == K_NULL)
        return 1; /* unknown value */
    if (f->key == COL_ITLS)
        return jfail(j, "itls must be a list of numbers");
    if (f->key == COL_STATUS) {
        if (v->kind == K_STRING) {
            int failed = llmm_cli_status_failed(v->text, v->len);
            if (failed < 0)
                return jfail(j, "status is empty");
            j->r.failed = failed;
            return 1;
        }
        if (v->kind == K_BOOL) {
            j->r.failed = !v->b;
            return 1;
        }
    } else if (v->kind != K_NUMBER) {
        char msg[64];
        snprintf(msg, sizeof msg, "%s must be a number", llmm_cli_table_col_name[f->key]);
        return jfail(j, msg);
    }
    return set_number(j, f->key, v->num);
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, NULL};

static void jline_free(void *p)
{
    jline *j = p;
    llmm_cli_json_free(&j->tok);
    free(j);
}

/* The line parser of t, made at its first line; NULL if out of memory. */
static jline *jline_of(llmm_cli_table *t)
{
    jline *j = t->line_parser;
    if (!j && (j = calloc(1, sizeof *j)) != NULL) {
        t->line_parser = j;
        t->line_parser_free = jline_free;
        j->t = t;
    }
    return j;
}

static int jsonl_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err)
{
    llmm_cli_table *t = user;
    jline *j = jline_of(t);
    int blank, rc;
    if (!j)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", t->name);
    memset(j->seen, 0, sizeof j->seen);
    llmm_cli_record_unknown(&j->r);
    t->itls.n = 0;
    rc = llmm_cli_jline_parse(&j->tok, &handler, j, &j->cb, t->name, line, len, lineno, &blank,
                              err);
    if (rc != LLMM_CLI_OK || blank)
        return rc;
    if (!j->seen[COL_TTFT] && !j->seen[COL_E2E] && !j->seen[COL_STATUS])
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: no ttft_s, e2e_s or status: not a request record",
                             t->name, (unsigned long long)lineno);
    t->started = 1;
    return llmm_cli_table_emit(t, &j->r, lineno, err);
}

static const llmm_cli_table_kind jsonl_kind = {jsonl_line, "no JSON line"};

/* An object naming a generic column, and no tool's keys. */
static int jsonl_detect(const llmm_cli_sniff *s)
{
    if (s->kind != '{')
        return 0;
    return llmm_cli_sniff_has(s, "/ttft_s") || llmm_cli_sniff_has(s, "/e2e_s") ||
                   llmm_cli_sniff_has(s, "/status")
               ? 2
               : 0;
}

const llmm_cli_reader llmm_cli_reader_jsonl = {
    LLMM_CLI_FORMAT_JSONL, "jsonl",
    "JSON objects, one per line, with ttft_s, e2e_s or status", jsonl_detect,
    &jsonl_kind, llmm_cli_table_create, llmm_cli_table_feed, llmm_cli_table_finish, NULL,
    llmm_cli_table_destroy};
