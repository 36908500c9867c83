/* table.c: what the CSV and JSONL readers share: the table object, the record checks and
 * the value parsers (table.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/numbers.h"

#include "input/table.h"

const char *const llmm_cli_table_col_name[COL_COUNT] = {
    "start_s", "ttft_s", "e2e_s", "output_tokens", "input_tokens", "status", "itls"};

/* ---- values ------------------------------------------------------------------------------ */

void llmm_cli_record_unknown(llmm_cli_record *r)
{
    r->start_s = r->ttft_s = r->e2e_s = NAN;
    r->input_tokens = r->output_tokens = -1;
    r->failed = 0;
}

const char *llmm_cli_record_set(llmm_cli_record *r, int col, double v)
{
    if (col != COL_START && v < 0)
        return "is negative";
    switch (col) {
    case COL_START:
        r->start_s = v;
        break;
    case COL_TTFT:
        r->ttft_s = v;
        break;
    case COL_E2E:
        r->e2e_s = v;
        break;
    case COL_STATUS:
        r->failed = !(v >= 200 && v < 300 && v == floor(v));
        break;
    default:
        if (!llmm_cli_token_count_ok(v))
            return "is not a token count";
        if (col == COL_OUT)
            r->output_tokens = (int64_t)v;
        else
            r->input_tokens = (int64_t)v;
        break;
    }
    return NULL;
}

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

int llmm_cli_table_emit(llmm_cli_table *t, llmm_cli_record *r, uint64_t lineno,
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
    if (!r->failed)
        t->info.has_ttft = 1;
    if (t->itls.n > 0)
        t->info.has_itls = 1;
    t->itls.n = 0;
    t->info.requests++;
    if (t->sink.record && (rc = t->sink.record(t->sink.user, r)) != LLMM_CLI_OK)
        return llmm_cli_fail(err, rc, "%s: out of memory", t->name);
    return LLMM_CLI_OK;
}

int llmm_cli_table_create(const llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                          const uint8_t *replay, size_t replay_n, void **out,
                          llmm_cli_error *err)
{
    const llmm_cli_table_kind *kind = rd->detail;
    llmm_cli_table *t = calloc(1, sizeof *t);
    int rc;
    (void)replay; /* read in one pass */
    (void)replay_n;
    *out = NULL;
    if (!t)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    t->name = name;
    t->empty = kind->empty;
    if (sink)
        t->sink = *sink;
    rc = llmm_cli_lines_new(name, kind->line, t, &t->lines, err);
    if (rc != LLMM_CLI_OK) {
        free(t);
        return rc;
    }
    *out = t;
    return LLMM_CLI_OK;
}

int llmm_cli_table_feed(void *p, const char *buf, size_t len, llmm_cli_error *err)
{
    llmm_cli_table *t = p;
    return llmm_cli_lines_feed(t->lines, buf, len, err);
}

int llmm_cli_table_finish(void *p, llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_table *t = p;
    int rc = llmm_cli_lines_finish(t->lines, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (!t->started)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: %s", t->name, t->empty);
    t->info.runs = 1;
    if (t->sink.run_end) {
        llmm_cli_run run;
        llmm_cli_run_init(&run);
        if ((rc = t->sink.run_end(t->sink.user, &run)) != LLMM_CLI_OK)
            return llmm_cli_fail(err, rc, "%s: out of memory", t->name);
    }
    if (info)
        *info = t->info;
    return LLMM_CLI_OK;
}

void llmm_cli_table_destroy(void *p)
{
    llmm_cli_table *t = p;
    if (!t)
        return;
    llmm_cli_vec_free(&t->itls);
    llmm_cli_lines_free(t->lines);
    if (t->line_parser_free)
        t->line_parser_free(t->line_parser);
    free(t->col_of_field);
    free(t->fld);
    free(t->fld_len);
    free(t);
}
