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

/* Labels of the "bpf" key's containers and keys (common/bpfsig.h). */
enum {
    FR_LINE = 1,
    KEY_BPF = 100,
    FR_BPF,
    KEY_LOST,
    KEY_OVER,
    KEY_EVENTS,
    FR_EVENTS,
    FR_EVENT,
    KEY_EV_NAME,
    KEY_EV_DT,
    KEY_EV_WAIT,
    KEY_EV_SEGS
};

typedef struct hline {
    llmm_cli_json tok; /* first, large */
    llmm_cli_hostsig *h;
    const char *name;
    llmm_cli_host_sample s;
    uint8_t seen[LLMM_CLI_HOST_MAX + 1]; /* index KEY_T or the signal */
    int bpf_seen;
    size_t kev0;              /* this line's first kernel event */
    llmm_cli_host_kevent ev;  /* the event being read; type -1: a name not known */
    double ev_dt, ev_wait;    /* NaN until read */
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

/* A key inside "bpf" or one of its events: its label, or SKIP for one not read. */
static int bpf_key(const llmm_cli_json_frame *f, const char *k, size_t len)
{
    static const char *const bpf_names[] = {"lost", "over", "events"};
    static const int bpf_ids[] = {KEY_LOST, KEY_OVER, KEY_EVENTS};
    static const char *const ev_names[] = {"event", "dt_ns", "wait_ns", "segs"};
    static const int ev_ids[] = {KEY_EV_NAME | LLMM_CLI_JSON_TEXT, KEY_EV_DT, KEY_EV_WAIT,
                                 KEY_EV_SEGS};
    if (f->type == FR_BPF)
        return llmm_cli_key_id(k, len, bpf_names, bpf_ids, 3);
    return llmm_cli_key_id(k, len, ev_names, ev_ids, 4);
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    hline *j = self;
    int key;
    if (f->type != FR_LINE)
        return bpf_key(f, k, len);
    if (llmm_cli_key_is(k, len, "bpf")) {
        if (j->bpf_seen++)
            return hfail(j, "key 'bpf' appears twice"), LLMM_CLI_JSON_STOP;
        return KEY_BPF;
    }
    key = key_of(k, len);
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
        return FR_LINE;
    if (parent && parent->key == KEY_BPF && map)
        return FR_BPF;
    if (parent && parent->key == KEY_EVENTS && !map)
        return FR_EVENTS;
    if (parent && parent->type == FR_EVENTS && map) {
        j->ev.type = 0;
        j->ev.value = 1;
        j->ev_dt = j->ev_wait = NAN;
        return FR_EVENT;
    }
    hfail(j, "%s", !parent ? "each line must hold one JSON object"
                           : map ? "unexpected object" : "unexpected list");
    return LLMM_CLI_JSON_STOP;
}

/* The type of an event name; -1 for a name this version does not know (skipped). */
static int32_t event_type(const char *k, size_t len)
{
    if (llmm_cli_key_is(k, len, LLMM_EVENT_ATTR_TCP_RETRANSMIT))
        return LLMM_EVENT_TCP_RETRANSMIT;
    if (llmm_cli_key_is(k, len, LLMM_EVENT_ATTR_MAJOR_FAULT))
        return LLMM_EVENT_MAJOR_FAULT;
    if (llmm_cli_key_is(k, len, LLMM_EVENT_ATTR_SCHED_JITTER))
        return LLMM_EVENT_SCHED_JITTER;
    return -1;
}

static int bpf_scalar(hline *j, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    int key = f->key & ~LLMM_CLI_JSON_TEXT;
    if (key == KEY_EV_NAME) {
        if (v->kind != K_STRING)
            return hfail(j, "an event's \"event\" must be a string");
        j->ev.type = event_type(v->text, v->len);
        return 1;
    }
    if (v->kind != K_NUMBER || !isfinite(v->num))
        return hfail(j, "bpf: %s must be a finite number",
                     key == KEY_LOST ? "lost" : key == KEY_OVER ? "over" : key == KEY_EV_DT ? "dt_ns"
                     : key == KEY_EV_WAIT ? "wait_ns" : "segs");
    if (key == KEY_LOST || key == KEY_OVER)
        j->h->bpf_lost += v->num >= 0 ? (uint64_t)v->num : 0;
    else if (key == KEY_EV_DT)
        j->ev_dt = v->num * 1e-9;
    else if (key == KEY_EV_WAIT && v->num >= 0)
        j->ev_wait = v->num * 1e-9;
    else if (key == KEY_EV_SEGS && v->num >= 1)
        j->ev.value = v->num;
    else
        return hfail(j, "bpf: %s must be >= %d", key == KEY_EV_WAIT ? "wait_ns" : "segs",
                     key == KEY_EV_WAIT ? 0 : 1);
    return 1;
}

/* An event's object closed: keep it, its time still relative to the line's t. */
static int on_close(void *self, llmm_cli_json_frame *f)
{
    hline *j = self;
    llmm_cli_hostsig *h = j->h;
    if (f->type != FR_EVENT || j->ev.type < 0)
        return 1; /* not an event, or one this version does not know */
    if (j->ev.type == 0 || isnan(j->ev_dt))
        return hfail(j, "bpf: an event needs \"event\" and \"dt_ns\"");
    if (j->ev.type == LLMM_EVENT_SCHED_JITTER) {
        if (isnan(j->ev_wait))
            return hfail(j, "bpf: a sched.jitter event needs \"wait_ns\"");
        j->ev.value = j->ev_wait;
        j->ev_dt -= j->ev_wait; /* placed where the wait began */
    } else if (j->ev.type == LLMM_EVENT_MAJOR_FAULT) {
        j->ev.value = 1;
    }
    j->ev.t = j->ev_dt;
    if (llmm_cli_grow(&h->kev, &h->capkev, h->nkev + 1, sizeof *h->kev, 256) != LLMM_CLI_OK)
        return hfail(j, "out of memory");
    h->kev[h->nkev++] = j->ev;
    return 1;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    hline *j = self;
    if (!f)
        return hfail(j, "%s", "each line must hold one JSON object");
    if (f->type != FR_LINE)
        return f->type == FR_EVENTS ? hfail(j, "bpf: events must be objects")
                                    : bpf_scalar(j, f, v);
    if (f->key == KEY_BPF)
        return hfail(j, "bpf must be an object");
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

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

static int one_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err)
{
    hline *j = user;
    llmm_cli_hostsig *h = j->h;
    int blank, rc;
    memset(&j->s, 0, sizeof j->s);
    memset(j->seen, 0, sizeof j->seen);
    j->bpf_seen = 0;
    j->kev0 = h->nkev;
    for (int k = 0; k < LLMM_CLI_HOST_MAX; k++)
        j->s.v[k] = NAN;
    rc = llmm_cli_jline_parse(&j->tok, &handler, j, &j->cb, j->name, line, len, lineno, &blank,
                              err);
    if (rc != LLMM_CLI_OK || blank || !j->seen[KEY_T] ||
        (h->n > 0 && !(j->s.t > h->s[h->n - 1].t)))
        h->nkev = j->kev0; /* the line's events go with it */
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
    for (size_t k = j->kev0; k < h->nkev; k++)
        h->kev[k].t += j->s.t;
    h->bpf_lines += j->bpf_seen > 0;
    return LLMM_CLI_OK;
}

int llmm_cli_hostsig_parse(const char *buf, size_t len, const char *name, llmm_cli_hostsig *h,
                           llmm_cli_error *err)
{
    hline *j = calloc(1, sizeof *j); /* the tokenizer is large */
    llmm_cli_lines *l;
    size_t n0 = h->n, k0 = h->nkev;
    uint64_t lines0 = h->bpf_lines, lost0 = h->bpf_lost;
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
    if (rc != LLMM_CLI_OK) {
        h->n = n0;
        h->nkev = k0;
        h->bpf_lines = lines0;
        h->bpf_lost = lost0;
    }
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
    free(h->kev);
    memset(h, 0, sizeof *h);
}
