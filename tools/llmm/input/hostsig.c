/* hostsig.c: the reader of host-signal files (input/hostsig.h). Each line is tokenized on
 * its own (json.h), so an error names its line and column; blank lines are skipped. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/file.h"
#include "common/numbers.h"
#include "input/hostsig.h"
#include "input/jreader.h"
#include "input/lines.h"

enum { KEY_T = 0 }; /* the label of "t"; a signal's label is its value */

typedef struct hline {
    llmm_cli_json tok; /* first, large */
    llmm_cli_hostsig *h;
    const char *name;
    llmm_cli_host_sample s;
    uint8_t seen[LLMM_CLI_HOST_MAX + 1]; /* index KEY_T or the signal */
    llmm_cli_cb_error cb;
} hline;

static int hfail(hline *j, const char *fmt, ...) LLMM_CLI_PRINTF(2, 3);

/* Record an error inside a callback; 0 (a scalar callback's "stop"). */
static int hfail(hline *j, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = llmm_cli_cb_vfail(&j->cb, LLMM_CLI_EPARSE, fmt, ap);
    va_end(ap);
    return r;
}

/* The signal a key names, KEY_T, or -1. */
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
    return -1;
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    hline *j = self;
    int key = key_of(k, len);
    (void)f;
    if (key < 0) { /* a key this version does not know: its value is skipped */
        if (j->h->unknown++ == 0)
            snprintf(j->h->first_unknown, sizeof j->h->first_unknown, "%.*s",
                     (int)(len < 60 ? len : 60), k);
        return LLMM_CLI_JSON_SKIP;
    }
    if (j->seen[key]) {
        hfail(j, "key '%.*s' appears twice", (int)len, k);
        return LLMM_CLI_JSON_STOP;
    }
    j->seen[key] = 1;
    return key;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    hline *j = self;
    if (!parent && map)
        return 1;
    hfail(j, "%s", !parent ? "each line must hold one JSON object"
                           : map ? "unexpected object" : "unexpected list");
    return LLMM_CLI_JSON_STOP;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    hline *j = self;
    if (!f)
        return hfail(j, "%s", "each line must hold one JSON object");
    if (f->key == KEY_T) {
        if (v->kind != K_NUMBER || !isfinite(v->num))
            return hfail(j, "t is %s, expected a finite number",
                         v->kind == K_NUMBER ? llmm_cli_nonfinite_name(v->num)
                                             : llmm_cli_json_kind_name(v->kind));
        j->s.t = v->num;
    } else if (v->kind == K_NUMBER && v->num >= 0 && isfinite(v->num)) {
        j->s.v[f->key - 1] = v->num;
    } else if (v->kind != K_NULL) {
        return hfail(j, "%s must be a number >= 0 or null",
                     llmm_host_signal_name((llmm_host_signal)f->key));
    }
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, NULL};

static int one_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err)
{
    hline *j = user;
    llmm_cli_hostsig *h = j->h;
    int blank, rc;
    memset(&j->s, 0, sizeof j->s);
    memset(j->seen, 0, sizeof j->seen);
    for (int k = 0; k < LLMM_CLI_HOST_MAX; k++)
        j->s.v[k] = NAN;
    rc = llmm_cli_jline_parse(&j->tok, &handler, j, &j->cb, j->name, line, len, lineno, &blank,
                              err);
    if (rc != LLMM_CLI_OK || blank)
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
    hline *j = calloc(1, sizeof *j); /* the tokenizer is large */
    llmm_cli_lines *l;
    size_t n0 = h->n;
    int rc;
    if (!j)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    j->h = h;
    j->name = name;
    rc = llmm_cli_lines_new(name, one_line, j, &l, err);
    if (rc == LLMM_CLI_OK) {
        rc = llmm_cli_lines_feed(l, buf, len, err);
        if (rc == LLMM_CLI_OK)
            rc = llmm_cli_lines_finish(l, err);
        llmm_cli_lines_free(l);
    }
    llmm_cli_json_free(&j->tok);
    free(j);
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
