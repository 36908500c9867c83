/* parse_table.c: the line assembler and what CSV and JSONL share (see table.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "table.h"

const char *const llmm_cli_table_col_name[COL_COUNT] = {
    "start_s", "ttft_s", "e2e_s", "output_tokens", "input_tokens", "status", "itls"};

/* ---- lines ------------------------------------------------------------------------------- */

struct llmm_cli_lines {
    const char *name;
    llmm_cli_line_fn fn;
    void *user;
    char *buf;
    size_t n, cap;
    uint64_t lineno;
};

int llmm_cli_lines_new(const char *name, llmm_cli_line_fn fn, void *user,
                       llmm_cli_lines **out, llmm_cli_error *err)
{
    llmm_cli_lines *l = calloc(1, sizeof *l);
    *out = NULL;
    if (!l)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    l->name = name;
    l->fn = fn;
    l->user = user;
    l->lineno = 1;
    *out = l;
    return LLMM_CLI_OK;
}

static int lines_append(llmm_cli_lines *l, const char *s, size_t len, llmm_cli_error *err)
{
    if (l->n + len + 1 > l->cap) {
        size_t cap = l->cap ? l->cap : 4096;
        char *b;
        if (l->n + len > LLMM_CLI_LINE_MAX)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: line longer than %zu bytes",
                                 l->name, (unsigned long long)l->lineno, LLMM_CLI_LINE_MAX);
        while (cap < l->n + len + 1)
            cap *= 2;
        b = realloc(l->buf, cap);
        if (!b)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", l->name);
        l->buf = b;
        l->cap = cap;
    }
    memcpy(l->buf + l->n, s, len);
    l->n += len;
    l->buf[l->n] = '\0';
    return LLMM_CLI_OK;
}

static int lines_emit(llmm_cli_lines *l, llmm_cli_error *err)
{
    int rc;
    if (!l->buf && (rc = lines_append(l, "", 0, err)) != LLMM_CLI_OK)
        return rc;
    if (l->n > 0 && l->buf[l->n - 1] == '\r')
        l->buf[--l->n] = '\0';
    rc = l->fn(l->user, l->buf, l->n, l->lineno, err);
    l->n = 0;
    l->lineno++;
    return rc;
}

int llmm_cli_lines_feed(llmm_cli_lines *l, const char *buf, size_t len, llmm_cli_error *err)
{
    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t seg = nl ? (size_t)(nl - buf) : len;
        int rc = lines_append(l, buf, seg, err);
        if (rc != LLMM_CLI_OK)
            return rc;
        if (!nl)
            break;
        if ((rc = lines_emit(l, err)) != LLMM_CLI_OK)
            return rc;
        buf += seg + 1;
        len -= seg + 1;
    }
    return LLMM_CLI_OK;
}

int llmm_cli_lines_finish(llmm_cli_lines *l, llmm_cli_error *err)
{
    return l->n > 0 ? lines_emit(l, err) : LLMM_CLI_OK;
}

void llmm_cli_lines_free(llmm_cli_lines *l)
{
    if (!l)
        return;
    free(l->buf);
    free(l);
}

/* ---- values ------------------------------------------------------------------------------ */

int llmm_cli_parse_number(const char *s, size_t len, double *out)
{
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0)
        return LLMM_CLI_EPARSE;
    for (size_t i = 0; i < len; i++) {
        if (!strchr("0123456789+-.eE", s[i]) || s[i] == '\0')
            return LLMM_CLI_EPARSE;
    }
    return llmm_cli_number(s, len, out);
}

int llmm_cli_status_failed(const char *s, size_t len)
{
    static const char *const ok_words[] = {"ok", "success", "succeeded", "true", "completed"};
    size_t digits = 0;
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0)
        return -1;
    while (digits < len && isdigit((unsigned char)s[digits]))
        digits++;
    if (digits == len)
        return !(len == 3 && s[0] == '2');
    for (size_t i = 0; i < sizeof ok_words / sizeof ok_words[0]; i++) {
        if (strlen(ok_words[i]) == len && strncasecmp(ok_words[i], s, len) == 0)
            return 0;
    }
    return 1;
}

int llmm_cli_record_check(llmm_cli_record *r, const char *name, uint64_t line,
                          llmm_cli_error *err)
{
    if (r->failed) { /* a failed request has no latency to report */
        r->ttft_s = r->e2e_s = NAN;
        return LLMM_CLI_OK;
    }
    if (isnan(r->ttft_s) || isnan(r->e2e_s))
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: a successful request needs both ttft_s and e2e_s", name,
                             (unsigned long long)line);
    if (r->e2e_s < r->ttft_s)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: e2e_s (%.9g) is below ttft_s (%.9g)", name,
                             (unsigned long long)line, r->e2e_s, r->ttft_s);
    return LLMM_CLI_OK;
}

/* ---- the table object -------------------------------------------------------------------- */

int llmm_cli_table_emit(struct llmm_cli_table *t, llmm_cli_record *r, uint64_t lineno,
                        llmm_cli_error *err)
{
    int rc = llmm_cli_record_check(r, t->name, lineno, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (!r->failed && t->sink.itl) {
        for (size_t i = 0; i < t->itls.n; i++) {
            if ((rc = t->sink.itl(t->sink.user, t->itls.v[i])) != LLMM_CLI_OK)
                return llmm_cli_fail(err, rc, "%s: out of memory", t->name);
        }
    }
    if (!isnan(r->start_s))
        t->info.has_start_times = 1;
    if (t->itls.n > 0)
        t->info.has_itls = 1;
    t->itls.n = 0;
    t->info.requests++;
    if (t->sink.record && (rc = t->sink.record(t->sink.user, r)) != LLMM_CLI_OK)
        return llmm_cli_fail(err, rc, "%s: out of memory", t->name);
    return LLMM_CLI_OK;
}

int llmm_cli_table_new(llmm_cli_format fmt, const char *name, const llmm_cli_sink *sink,
                       llmm_cli_table **out, llmm_cli_error *err)
{
    struct llmm_cli_table *t = calloc(1, sizeof *t);
    int rc;
    *out = NULL;
    if (!t)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    t->fmt = fmt;
    t->name = name;
    if (sink)
        t->sink = *sink;
    rc = llmm_cli_lines_new(name, fmt == LLMM_CLI_FORMAT_CSV ? llmm_cli_csv_line
                                                               : llmm_cli_jsonl_line,
                            t, &t->lines, err);
    if (rc != LLMM_CLI_OK) {
        free(t);
        return rc;
    }
    *out = t;
    return LLMM_CLI_OK;
}

int llmm_cli_table_feed(llmm_cli_table *t, const char *buf, size_t len, llmm_cli_error *err)
{
    return llmm_cli_lines_feed(t->lines, buf, len, err);
}

int llmm_cli_table_finish(llmm_cli_table *t, llmm_cli_error *err)
{
    int rc = llmm_cli_lines_finish(t->lines, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (t->fmt == LLMM_CLI_FORMAT_CSV && !t->have_header)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no CSV header line",
                             t->name);
    if (t->fmt == LLMM_CLI_FORMAT_JSONL && t->info.requests == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no JSON line", t->name);
    t->info.runs = 1;
    if (t->sink.run_end && (rc = t->sink.run_end(t->sink.user, NAN)) != LLMM_CLI_OK)
        return llmm_cli_fail(err, rc, "%s: out of memory", t->name);
    return LLMM_CLI_OK;
}

void llmm_cli_table_info(const llmm_cli_table *t, llmm_cli_input_info *info)
{
    *info = t->info;
}

void llmm_cli_table_free(llmm_cli_table *t)
{
    if (!t)
        return;
    llmm_cli_lines_free(t->lines);
    free(t->col_of_field);
    free(t->fld);
    free(t->fld_len);
    llmm_cli_vec_free(&t->itls);
    free(t);
}

static int parse_table(llmm_cli_format fmt, const char *buf, size_t len, const char *name,
                       const llmm_cli_sink *sink, llmm_cli_input_info *info,
                       llmm_cli_error *err)
{
    llmm_cli_table *t;
    int rc = llmm_cli_table_new(fmt, name, sink, &t, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    rc = llmm_cli_table_feed(t, buf, len, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_table_finish(t, err);
    if (rc == LLMM_CLI_OK && info)
        llmm_cli_table_info(t, info);
    llmm_cli_table_free(t);
    return rc;
}

int llmm_cli_parse_csv(const char *buf, size_t len, const char *name, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_error *err)
{
    return parse_table(LLMM_CLI_FORMAT_CSV, buf, len, name, sink, info, err);
}

int llmm_cli_parse_jsonl(const char *buf, size_t len, const char *name,
                         const llmm_cli_sink *sink, llmm_cli_input_info *info,
                         llmm_cli_error *err)
{
    return parse_table(LLMM_CLI_FORMAT_JSONL, buf, len, name, sink, info, err);
}
