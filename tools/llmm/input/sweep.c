/* sweep.c: the load-sweep CSV of `llmm knee` (sweep.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/file.h"
#include "common/numbers.h"
#include "input/lines.h"
#include "input/sweep.h"

/* parse_row()'s answer for a header line (distinct from every LLMM_CLI_ code). */
#define HEADER_LINE 100

typedef llmm_cli_sweep_row row;

static int cmp_row(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    return (a->conc > b->conc) - (a->conc < b->conc);
}

void llmm_cli_sweep_free(llmm_cli_sweep *s)
{
    free(s->conc);
    free(s->qps);
    free(s->p99_ms);
    memset(s, 0, sizeof *s);
}

/* Split one line at commas into at most 4 trimmed fields; returns the field count (5 = more
 * than 4). */
static size_t split(char *line, char *f[4], size_t flen[4])
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        char *c = strchr(p, ',');
        char *e = c ? c : p + strlen(p);
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (n == 4)
            return 5;
        f[n] = p;
        flen[n] = (size_t)(e - p);
        n++;
        if (!c)
            return n;
        p = c + 1;
    }
}

int llmm_cli_sweep_from_rows(llmm_cli_sweep_row *r, size_t nr, int has_p99, const char *name,
                             llmm_cli_sweep *s, llmm_cli_error *err)
{
    size_t k = 0, room = nr ? nr : 1;
    if (nr > 1)
        qsort(r, nr, sizeof *r, cmp_row);
    s->conc = malloc(room * sizeof *s->conc);
    s->qps = malloc(room * sizeof *s->qps);
    s->p99_ms = has_p99 ? malloc(room * sizeof *s->p99_ms) : NULL;
    if (!s->conc || !s->qps || (has_p99 && !s->p99_ms)) {
        llmm_cli_sweep_free(s);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nr;) {
        size_t j = i;
        double q = 0, p = 0;
        while (j < nr && r[j].conc == r[i].conc) {
            q += r[j].qps;
            p += r[j].p99;
            j++;
        }
        s->conc[k] = r[i].conc;
        s->qps[k] = q / (double)(j - i);
        if (has_p99)
            s->p99_ms[k] = p / (double)(j - i);
        k++;
        i = j;
    }
    s->n = k;
    s->rows = nr;
    s->has_p99 = has_p99;
    if (k < 3) {
        llmm_cli_sweep_free(s);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: %zu distinct concurrency value%s; a sweep needs at least 3",
                             name, k, k == 1 ? "" : "s");
    }
    return LLMM_CLI_OK;
}

static int parse_row(char *line, uint64_t lineno, int first, int *ncols, row *out,
                     const char *name, llmm_cli_error *err)
{
    static const char *const what[3] = {"concurrency", "qps", "p99_ms"};
    char *f[4];
    size_t flen[4], n = split(line, f, flen);
    double v[3];
    if (first) {
        double tmp;
        if (llmm_cli_number(f[0], flen[0], &tmp) != LLMM_CLI_OK) { /* a header line */
            if (n < 2 || n > 3)
                return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                                     "%s:%llu: header has %zu columns; expected "
                                     "concurrency,qps[,p99_ms]",
                                     name, (unsigned long long)lineno, n > 4 ? (size_t)4 : n);
            *ncols = (int)n;
            return HEADER_LINE;
        }
    }
    if (*ncols == 0) {
        if (n < 2 || n > 3)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                                 "%s:%llu: %s%zu fields; expected concurrency,qps[,p99_ms]",
                                 name, (unsigned long long)lineno, n > 3 ? "more than " : "",
                                 n > 3 ? (size_t)3 : n);
        *ncols = (int)n;
    }
    if ((int)n != *ncols)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: %s%zu fields where %d expected",
                             name, (unsigned long long)lineno, n > 3 ? "more than " : "",
                             n > 3 ? (size_t)3 : n, *ncols);
    for (size_t i = 0; i < n; i++) {
        if (i == 2 && flen[i] == 0) { /* an empty p99_ms: the level had none (llmm bench) */
            v[i] = NAN;
            continue;
        }
        if (llmm_cli_number(f[i], flen[i], &v[i]) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: %s '%.*s' is not a number",
                                 name, (unsigned long long)lineno, what[i],
                                 (int)(flen[i] > 40 ? 40 : flen[i]), f[i]);
    }
    if (!(v[0] > 0))
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: concurrency %g is not > 0", name,
                             (unsigned long long)lineno, v[0]);
    if (!(v[1] >= 0))
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: qps %g is negative", name,
                             (unsigned long long)lineno, v[1]);
    if (n == 3 && v[2] < 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: p99_ms %g is negative", name,
                             (unsigned long long)lineno, v[2]);
    out->conc = v[0];
    out->qps = v[1];
    out->p99 = n == 3 ? v[2] : NAN;
    return 0;
}

int llmm_cli_sweep_parse(const char *buf, size_t len, const char *name, llmm_cli_sweep *s,
                         llmm_cli_error *err)
{
    row *r = NULL;
    size_t nr = 0, cap = 0, pos = 0;
    uint64_t lineno = 0;
    int ncols = 0, first = 1, rc = LLMM_CLI_OK;
    char *line = NULL;
    memset(s, 0, sizeof *s);
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - (buf + pos)) : len - pos;
        char *p;
        lineno++;
        free(line);
        line = malloc(l + 1);
        if (!line) {
            rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
            break;
        }
        memcpy(line, buf + pos, l);
        line[l] = '\0';
        pos += l + (nl ? 1 : 0);
        if (l && line[l - 1] == '\r')
            line[--l] = '\0';
        if (memchr(line, '\0', l)) {
            rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: NUL byte in a text file", name,
                               (unsigned long long)lineno);
            break;
        }
        for (p = line; *p == ' ' || *p == '\t'; p++)
            ;
        if (*p == '\0' || *p == '#')
            continue;
        if (llmm_cli_grow(&r, &cap, nr + 1, sizeof *r, 64) != LLMM_CLI_OK) {
            rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
            break;
        }
        rc = parse_row(p, lineno, first, &ncols, &r[nr], name, err);
        first = 0;
        if (rc == HEADER_LINE) {
            rc = LLMM_CLI_OK;
            continue;
        }
        if (rc != LLMM_CLI_OK)
            break;
        nr++;
    }
    free(line);
    if (rc == LLMM_CLI_OK && nr == 0)
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE,
                           "%s: no data rows (expected concurrency,qps[,p99_ms] lines)", name);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_sweep_from_rows(r, nr, ncols == 3, name, s, err);
    free(r);
    return rc;
}

int llmm_cli_sweep_read(const char *path, llmm_cli_sweep *s, llmm_cli_error *err)
{
    char *buf;
    size_t len;
    int rc = llmm_cli_read_all(path, 1, LLMM_CLI_SWEEP_FILE_MAX, &buf, &len, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    rc = llmm_cli_sweep_parse(buf, len, path, s, err);
    free(buf);
    return rc;
}

int llmm_cli_sweep_looks_csv(const char *head, size_t len)
{
    size_t n;
    const char *l = llmm_cli_first_line(head, len, &n);
    if (!l)
        return 0;
    if (n >= 11 && strncmp(l, "concurrency", 11) == 0)
        return 1; /* the header */
    for (size_t k = 0; k < n; k++) /* or numbers and commas */
        if (!strchr("0123456789.eE+-, \t", l[k]))
            return 0;
    return memchr(l, ',', n) != NULL;
}
