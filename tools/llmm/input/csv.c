/* csv.c: the reader of the generic CSV trace, one request per line after a header line naming the
 * columns (table.h). Fields are separated by commas and may be quoted ("a,b", "" for a quote);
 * a quoted field cannot span lines. Empty lines and lines starting with '#' are skipped. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/numbers.h"
#include "input/table.h"

/* Split `line` in place into fields; each field is NUL-terminated and trimmed. */
static int split(llmm_cli_table *t, char *line, size_t *nf, uint64_t lineno,
                 llmm_cli_error *err)
{
    char *r = line, *w;
    size_t n = 0;
    for (;;) {
        char *start;
        if (n == t->fld_cap) {
            size_t c1 = t->fld_cap, c2 = t->fld_cap;
            if (llmm_cli_grow(&t->fld, &c1, n + 1, sizeof *t->fld, 16) != LLMM_CLI_OK ||
                llmm_cli_grow(&t->fld_len, &c2, n + 1, sizeof *t->fld_len, 16) != LLMM_CLI_OK)
                return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", t->name);
            t->fld_cap = c1;
        }
        while (*r == ' ' || *r == '\t')
            r++;
        start = w = r;
        if (*r == '"') {
            r++;
            for (;;) {
                if (*r == '\0')
                    return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                                         "%s:%llu:%zu: unterminated quoted field", t->name,
                                         (unsigned long long)lineno, (size_t)(start - line) + 1);
                if (*r == '"') {
                    if (r[1] != '"')
                        break;
                    r++;
                }
                *w++ = *r++;
            }
            r++; /* the closing quote */
            while (*r == ' ' || *r == '\t')
                r++;
            if (*r != ',' && *r != '\0')
                return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                                     "%s:%llu:%zu: unexpected character after a quoted field",
                                     t->name, (unsigned long long)lineno,
                                     (size_t)(r - line) + 1);
        } else {
            while (*r != ',' && *r != '\0')
                *w++ = *r++;
            while (w > start && (w[-1] == ' ' || w[-1] == '\t'))
                w--;
        }
        t->fld[n] = start;
        t->fld_len[n] = (size_t)(w - start);
        n++;
        if (*r == '\0') {
            *w = '\0';
            break;
        }
        r++; /* the comma */
        *w = '\0';
    }
    *nf = n;
    return LLMM_CLI_OK;
}

static int header(llmm_cli_table *t, size_t nf, uint64_t lineno, llmm_cli_error *err)
{
    int seen[COL_COUNT] = {0};
    t->col_of_field = malloc(nf * sizeof *t->col_of_field);
    if (!t->col_of_field)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", t->name);
    t->ncols = nf;
    for (size_t i = 0; i < nf; i++) {
        t->col_of_field[i] = -1;
        for (int c = 0; c < COL_COUNT; c++) {
            if (c != COL_ITLS && strcasecmp(t->fld[i], llmm_cli_table_col_name[c]) == 0 &&
                strlen(llmm_cli_table_col_name[c]) == t->fld_len[i]) {
                if (seen[c])
                    return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: column '%s' appears twice",
                                         t->name, (unsigned long long)lineno,
                                         llmm_cli_table_col_name[c]);
                seen[c] = 1;
                t->col_of_field[i] = c;
            }
        }
    }
    if (!seen[COL_TTFT] || !seen[COL_E2E])
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: the header must name the columns, at least ttft_s and "
                             "e2e_s (start_s,ttft_s,e2e_s,output_tokens,status)",
                             t->name, (unsigned long long)lineno);
    t->started = 1;
    return LLMM_CLI_OK;
}

static int field_value(llmm_cli_table *t, int col, const char *s, size_t len,
                       llmm_cli_record *r, uint64_t lineno, llmm_cli_error *err)
{
    const char *why;
    double v;
    if (col == COL_STATUS) {
        int f = llmm_cli_status_failed(s, len);
        if (f < 0)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: empty status", t->name,
                                 (unsigned long long)lineno);
        r->failed = f;
        return LLMM_CLI_OK;
    }
    if (len == 0)
        return LLMM_CLI_OK; /* unknown */
    if (llmm_cli_parse_number(s, len, &v) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: %s is %s: '%.40s'", t->name,
                             (unsigned long long)lineno, llmm_cli_table_col_name[col],
                             llmm_cli_number_underflows(s, len)
                                 ? "too small (it would round to 0)"
                                 : "not a number",
                             s);
    why = llmm_cli_record_set(r, col, v);
    if (why)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: %s %s (%.9g)", t->name,
                             (unsigned long long)lineno, llmm_cli_table_col_name[col], why, v);
    return LLMM_CLI_OK;
}

static int csv_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err)
{
    llmm_cli_table *t = user;
    llmm_cli_record r;
    size_t nf = 0, skip = 0;
    int rc;
    if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        skip = 3; /* UTF-8 byte-order mark */
    line += skip;
    len -= skip;
    while (len > 0 && isspace((unsigned char)*line))
        line++, len--;
    if (len == 0 || line[0] == '#')
        return LLMM_CLI_OK;
    if (memchr(line, '\0', len))
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: NUL byte in a text line", t->name,
                             (unsigned long long)lineno);
    if ((rc = split(t, line, &nf, lineno, err)) != LLMM_CLI_OK)
        return rc;
    if (!t->started)
        return header(t, nf, lineno, err);
    if (nf != t->ncols)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: %zu fields, the header has %zu",
                             t->name, (unsigned long long)lineno, nf, t->ncols);
    llmm_cli_record_unknown(&r);
    for (size_t i = 0; i < nf; i++) {
        int col = t->col_of_field[i];
        if (col < 0)
            continue;
        rc = field_value(t, col, t->fld[i], t->fld_len[i], &r, lineno, err);
        if (rc != LLMM_CLI_OK)
            return rc;
    }
    return llmm_cli_table_emit(t, &r, lineno, err);
}

static const llmm_cli_table_kind csv_kind = {csv_line, "no CSV header line"};

/* A text whose first line names the TTFT column. */
static int csv_detect(const llmm_cli_sniff *s)
{
    const char *l = s->line;
    if (s->kind != 't')
        return 0;
    for (; *l; l++)
        if (strncasecmp(l, "ttft_s", 6) == 0)
            return 2;
    return 0;
}

const llmm_cli_reader llmm_cli_reader_csv = {
    LLMM_CLI_FORMAT_CSV, "csv",
    "a text whose header names ttft_s and e2e_s", csv_detect, &csv_kind,
    llmm_cli_table_create, llmm_cli_table_feed, llmm_cli_table_finish, NULL,
    llmm_cli_table_destroy};
