/* hostsig.c: the reader of host-signal files (input/hostsig.h). Each line is parsed on its
 * own (YAJL), so an error names its line and column; blank lines are skipped. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/file.h"
#include "common/numbers.h"
#include "input/hostsig.h"
#include "input/json.h"
#include "input/lines.h"

enum { KEY_NONE = -2, KEY_SKIP = -1, KEY_T = 0 }; /* else the signal */

typedef struct hline {
    const llmm_cli_json_events *events; /* first: the YAJL callbacks' context (json.h) */
    llmm_cli_hostsig *h;
    const char *name;
    llmm_cli_host_sample s;
    int key;
    size_t depth, skip;
    uint8_t seen[LLMM_CLI_HOST_MAX + 1]; /* index KEY_T or the signal */
    llmm_cli_cb_error cb;
} hline;

static int hfail(hline *j, const char *fmt, ...) LLMM_CLI_PRINTF(2, 3);

static int hfail(hline *j, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = llmm_cli_cb_vfail(&j->cb, LLMM_CLI_EPARSE, fmt, ap);
    va_end(ap);
    return r;
}

/* The signal a key names, KEY_T, or KEY_SKIP. */
static int key_of(const char *k, size_t len)
{
    if (len == 1 && k[0] == 't')
        return KEY_T;
    for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
        const char *n = llmm_host_signal_name((llmm_host_signal)sig);
        if (!n)
            break;
        if (strlen(n) == len && memcmp(n, k, len) == 0)
            return sig;
    }
    return KEY_SKIP;
}

static int on_key(void *ctx, const char *k, size_t len)
{
    hline *j = ctx;
    if (j->skip)
        return 1;
    j->key = key_of(k, len);
    if (j->key == KEY_SKIP) {
        if (j->h->unknown++ == 0)
            snprintf(j->h->first_unknown, sizeof j->h->first_unknown, "%.*s",
                     (int)(len < 60 ? len : 60), k);
        return 1;
    }
    if (j->seen[j->key])
        return hfail(j, "key '%.*s' appears twice", (int)len, k);
    j->seen[j->key] = 1;
    return 1;
}

static int on_scalar(void *ctx, int kind, int b, const char *text, size_t len)
{
    hline *j = ctx;
    double v = NAN;
    (void)b;
    if (j->skip || (j->depth == 1 && j->key == KEY_SKIP))
        return 1;
    if (j->depth == 0)
        return hfail(j, "%s", "each line must hold one JSON object");
    if (kind == K_NUMBER && llmm_cli_number(text, len, &v) != LLMM_CLI_OK)
        return hfail(j, "%s", "number out of range");
    if (j->key == KEY_T) {
        if (kind != K_NUMBER)
            return hfail(j, "t is %s, expected a number", llmm_cli_json_kind_name(kind));
        j->s.t = v;
    } else if (kind == K_NUMBER && v >= 0) {
        j->s.v[j->key - 1] = v;
    } else if (kind != K_NULL) {
        return hfail(j, "%s must be a number >= 0 or null",
                     llmm_host_signal_name((llmm_host_signal)j->key));
    }
    j->key = KEY_NONE;
    return 1;
}

static int on_container(void *ctx, int open, int map)
{
    hline *j = ctx;
    if (!open) {
        if (j->skip)
            j->skip--;
        else
            j->depth = 0;
        return 1;
    }
    if (j->skip || (j->depth == 1 && j->key == KEY_SKIP)) { /* an unknown key's value */
        j->skip++;
        return 1;
    }
    if (map && j->depth == 0) {
        j->depth = 1;
        return 1;
    }
    if (j->depth == 0)
        return hfail(j, "%s", "each line must hold one JSON object");
    return hfail(j, "%s", map ? "unexpected object" : "unexpected list");
}

static const llmm_cli_json_events events = {on_scalar, on_key, on_container};

static int one_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err)
{
    hline *j = user;
    llmm_cli_hostsig *h = j->h;
    size_t i = llmm_cli_json_line_start(line, len, lineno);
    int rc;
    if (i == len)
        return LLMM_CLI_OK;
    memset(&j->s, 0, sizeof j->s);
    memset(j->seen, 0, sizeof j->seen);
    for (int k = 0; k < LLMM_CLI_HOST_MAX; k++)
        j->s.v[k] = NAN;
    j->key = KEY_NONE;
    j->depth = j->skip = 0;
    rc = llmm_cli_json_parse_line(j, &j->cb, j->name, line, i, len, lineno, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (!j->seen[KEY_T])
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: no \"t\": not a host sample",
                             j->name, (unsigned long long)lineno);
    if (h->n > 0 && !(j->s.t > h->s[h->n - 1].t))
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s:%llu: t = %.17g is not later than the line before's", j->name,
                             (unsigned long long)lineno, j->s.t);
    if (llmm_cli_grow(&h->s, &h->cap, h->n + 1, sizeof *h->s, 256) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", j->name);
    h->s[h->n++] = j->s;
    return LLMM_CLI_OK;
}

int llmm_cli_hostsig_parse(const char *buf, size_t len, const char *name, llmm_cli_hostsig *h,
                           llmm_cli_error *err)
{
    hline j;
    llmm_cli_lines *l;
    size_t n0 = h->n;
    int rc;
    memset(&j, 0, sizeof j);
    j.events = &events;
    j.h = h;
    j.name = name;
    rc = llmm_cli_lines_new(name, one_line, &j, &l, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    rc = llmm_cli_lines_feed(l, buf, len, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_lines_finish(l, err);
    llmm_cli_lines_free(l);
    if (rc != LLMM_CLI_OK)
        h->n = n0;
    return rc;
}

int llmm_cli_hostsig_load(const char *path, llmm_cli_hostsig *h, llmm_cli_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = llmm_cli_read_all(path, 0, (size_t)1 << 30, &buf, &len, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_hostsig_parse(buf, len, path, h, err);
    free(buf);
    return rc;
}

void llmm_cli_hostsig_free(llmm_cli_hostsig *h)
{
    free(h->s);
    memset(h, 0, sizeof *h);
}
