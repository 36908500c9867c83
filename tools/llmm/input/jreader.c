/* jreader.c: what the JSON readers share (jreader.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/numbers.h"
#include "input/jreader.h"

void llmm_cli_run_init(llmm_cli_run *r)
{
    memset(r, 0, sizeof *r);
    r->duration_s = r->concurrency = r->request_rate = NAN;
    r->completed = r->failed = r->out_tokens = r->in_tokens = -1;
}

void llmm_cli_jr_init(llmm_cli_jreader *r, const llmm_cli_json_handler *h, const char *name,
                      const char *what, const llmm_cli_sink *sink, int multi)
{
    llmm_cli_json_init(&r->tok, h, r, multi);
    r->name = name;
    r->what = what;
    if (sink)
        r->sink = *sink;
}

void llmm_cli_jr_free(llmm_cli_jreader *r)
{
    llmm_cli_json_free(&r->tok);
    free(r->figs.v);
    r->figs.v = NULL;
}

static int report(llmm_cli_jreader *r, int st, llmm_cli_error *err)
{
    uint64_t line, col;
    llmm_cli_json_where(&r->tok, &line, &col);
    if (st == LLMM_CLI_JSON_NOMEM)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", r->name);
    return llmm_cli_fail(err, st == LLMM_CLI_JSON_STOPPED ? r->cb.code : LLMM_CLI_EPARSE,
                         "%s:%llu:%llu: %s", r->name, (unsigned long long)line,
                         (unsigned long long)col,
                         st == LLMM_CLI_JSON_STOPPED ? r->cb.msg : r->tok.msg);
}

int llmm_cli_jr_feed(llmm_cli_jreader *r, const char *buf, size_t len, llmm_cli_error *err)
{
    int st = llmm_cli_json_feed(&r->tok, buf, len);
    return st == LLMM_CLI_JSON_OK ? LLMM_CLI_OK : report(r, st, err);
}

int llmm_cli_jr_finish(llmm_cli_jreader *r, llmm_cli_error *err)
{
    int st = llmm_cli_json_finish(&r->tok);
    if (st != LLMM_CLI_JSON_OK)
        return report(r, st, err);
    if (r->tok.values == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no %s", r->name, r->what);
    return LLMM_CLI_OK;
}

static int vfail(llmm_cli_jreader *r, int code, const char *fmt, va_list ap)
{
    return llmm_cli_cb_vfail(&r->cb, code, fmt, ap);
}

int llmm_cli_jr_fail(llmm_cli_jreader *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, code, fmt, ap);
    va_end(ap);
    return 0;
}

int llmm_cli_jr_stop(llmm_cli_jreader *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, code, fmt, ap);
    va_end(ap);
    return LLMM_CLI_JSON_STOP;
}

int llmm_cli_jr_sink(llmm_cli_jreader *r, int rc)
{
    if (rc == LLMM_CLI_OK)
        return 1;
    return llmm_cli_jr_fail(r, rc, "%s",
                            rc == LLMM_CLI_ENOMEM ? "out of memory" : "cannot record the data");
}

void llmm_cli_jr_note(llmm_cli_jreader *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    int n;
    if (!r->sink.note)
        return;
    n = snprintf(msg, sizeof msg, "%s: ", r->name);
    if (n < 0 || (size_t)n >= sizeof msg)
        n = 0;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    r->sink.note(r->sink.user, msg);
}

int llmm_cli_jr_record(llmm_cli_jreader *r, const llmm_cli_record *rec)
{
    r->info.requests++;
    if (!isnan(rec->ttft_s))
        r->info.has_ttft = 1;
    if (!isnan(rec->start_s))
        r->info.has_start_times = 1;
    return !r->sink.record || llmm_cli_jr_sink(r, r->sink.record(r->sink.user, rec));
}

int llmm_cli_jr_itl(llmm_cli_jreader *r, double v)
{
    return !r->sink.itl || llmm_cli_jr_sink(r, r->sink.itl(r->sink.user, v));
}

/* What goes into messages, text and JSON: printable ASCII, '?' for anything else. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            *s = '?';
}

int llmm_cli_jr_run_end(llmm_cli_jreader *r, llmm_cli_run *run)
{
    int ok = 1;
    char label[128];
    if (run->label) { /* made of the input's strings: printable only */
        snprintf(label, sizeof label, "%s", run->label);
        printable(label);
        run->label = label;
    }
    run->fig = r->figs.v;
    run->nfig = r->figs.n;
    r->info.runs++;
    if (run->stats_only)
        r->info.stats_only_runs++;
    if (r->figs.dropped)
        llmm_cli_jr_note(r, "%llu figures beyond the first %d of a run were left out",
                         (unsigned long long)r->figs.dropped, LLMM_CLI_FIGS_MAX);
    if (r->sink.run_end)
        ok = llmm_cli_jr_sink(r, r->sink.run_end(r->sink.user, run));
    r->figs.n = 0;
    r->figs.dropped = 0;
    return ok;
}

int llmm_cli_jr_figure(llmm_cli_jreader *r, const char *name, size_t nlen, int metric, int stat,
                       double q, double value, const char *unit, double si)
{
    llmm_cli_figure *f;
    if (r->figs.n == LLMM_CLI_FIGS_MAX) {
        r->figs.dropped++;
        return 1;
    }
    if (llmm_cli_grow(&r->figs.v, &r->figs.cap, r->figs.n + 1, sizeof *r->figs.v, 32) !=
        LLMM_CLI_OK)
        return llmm_cli_jr_fail(r, LLMM_CLI_ENOMEM, "out of memory");
    f = &r->figs.v[r->figs.n++];
    if (nlen >= sizeof f->name)
        nlen = sizeof f->name - 1;
    memcpy(f->name, name, nlen);
    f->name[nlen] = '\0';
    printable(f->name);
    f->metric = metric;
    f->stat = stat;
    f->q = q;
    f->value = value;
    snprintf(f->unit, sizeof f->unit, "%s", unit ? unit : "");
    printable(f->unit);
    f->si = si;
    return 1;
}

const char *llmm_cli_nonfinite_name(double v)
{
    return isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
}

/* Where line lineno's document starts: past a byte-order mark on line 1 and leading blanks. */
static size_t jline_start(const char *line, size_t len, uint64_t lineno)
{
    size_t i = 0;
    if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

int llmm_cli_jline_parse(llmm_cli_json *tok, const llmm_cli_json_handler *h, void *self,
                         const llmm_cli_cb_error *cb, const char *name, const char *line,
                         size_t len, uint64_t lineno, int *blank, llmm_cli_error *err)
{
    size_t i = jline_start(line, len, lineno);
    uint64_t l, col;
    int st;
    *blank = i == len;
    if (*blank)
        return LLMM_CLI_OK;
    llmm_cli_json_init(tok, h, self, 0);
    st = llmm_cli_json_feed(tok, line + i, len - i);
    if (st == LLMM_CLI_JSON_OK)
        st = llmm_cli_json_finish(tok);
    if (st == LLMM_CLI_JSON_OK)
        return LLMM_CLI_OK;
    if (st == LLMM_CLI_JSON_NOMEM)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    llmm_cli_json_where(tok, &l, &col);
    return llmm_cli_fail(err, st == LLMM_CLI_JSON_STOPPED ? cb->code : LLMM_CLI_EPARSE,
                         "%s:%llu:%llu: %s", name, (unsigned long long)lineno,
                         (unsigned long long)(col + i),
                         st == LLMM_CLI_JSON_STOPPED ? cb->msg : tok->msg);
}

int llmm_cli_key_find(const char *k, size_t len, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (llmm_cli_key_is(k, len, names[i]))
            return i;
    return -1;
}

int llmm_cli_key_id(const char *k, size_t len, const char *const *names, const int *ids, int n)
{
    int i = llmm_cli_key_find(k, len, names, n);
    return i < 0 ? LLMM_CLI_JSON_SKIP : ids[i];
}

/* "ttft" -> TTFT ...; the rest OTHER. */
static int metric_of(const char *m, size_t len)
{
    static const char *const names[] = {"ttft", "tpot", "itl", "e2el", "e2e_latency"};
    static const int metric[] = {LLMM_CLI_FM_TTFT, LLMM_CLI_FM_TPOT, LLMM_CLI_FM_ITL,
                                 LLMM_CLI_FM_E2E, LLMM_CLI_FM_E2E};
    int i = llmm_cli_key_find(m, len, names, 5);
    return i < 0 ? LLMM_CLI_FM_OTHER : metric[i];
}

int llmm_cli_stat_key(const char *k, size_t len, int *stat, double *q, int *metric)
{
    static const char *const pre[] = {"mean_", "median_", "std_", "min_", "max_"};
    static const int st[] = {LLMM_CLI_ST_MEAN, LLMM_CLI_ST_MEDIAN, LLMM_CLI_ST_STD,
                             LLMM_CLI_ST_MIN, LLMM_CLI_ST_MAX};
    size_t at = 0;
    if (len < 6 || memcmp(k + len - 3, "_ms", 3) != 0)
        return 0;
    len -= 3;
    *q = NAN;
    for (int i = 0; i < 5 && at == 0; i++) {
        size_t n = strlen(pre[i]);
        if (len > n && memcmp(k, pre[i], n) == 0) {
            *stat = st[i];
            at = n;
        }
    }
    if (at == 0 && k[0] == 'p') { /* p99_, p99.9_ */
        size_t e = 1;
        double v;
        while (e < len && ((k[e] >= '0' && k[e] <= '9') || k[e] == '.'))
            e++;
        if (e == 1 || e >= len || k[e] != '_' || llmm_cli_number(k + 1, e - 1, &v) != 0 ||
            !(v >= 0 && v <= 100))
            return 0;
        *stat = LLMM_CLI_ST_QUANTILE;
        *q = v / 100.0;
        at = e + 1;
    }
    if (at == 0 || at >= len)
        return 0;
    *metric = metric_of(k + at, len - at);
    return 1;
}

/* ---- the reader calls of a one-pass JSON format ------------------------------------------- */

static const llmm_cli_jformat *format_of(const llmm_cli_jreader *r)
{
    return r->format;
}

int llmm_cli_jformat_create(const llmm_cli_reader *rd, const char *name,
                            const llmm_cli_sink *sink, const uint8_t *replay, size_t replay_n,
                            void **out, llmm_cli_error *err)
{
    const llmm_cli_jformat *f = rd->detail;
    llmm_cli_jreader *r = calloc(1, f->size);
    (void)replay; /* read in one pass */
    (void)replay_n;
    *out = NULL;
    if (!r)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    llmm_cli_jr_init(r, f->handler, name, f->what, sink, f->multi);
    r->info.tool = f->tool;
    r->format = f;
    if (f->init)
        f->init(r);
    *out = r;
    return LLMM_CLI_OK;
}

int llmm_cli_jformat_feed(void *p, const char *buf, size_t len, llmm_cli_error *err)
{
    return llmm_cli_jr_feed(p, buf, len, err);
}

int llmm_cli_jformat_finish(void *p, llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_jreader *r = p;
    int rc = llmm_cli_jr_finish(r, err);
    if (rc == LLMM_CLI_OK && format_of(r)->end)
        rc = format_of(r)->end(r, err);
    if (rc == LLMM_CLI_OK && info)
        *info = r->info;
    return rc;
}

void llmm_cli_jformat_destroy(void *p)
{
    llmm_cli_jreader *r = p;
    if (!r)
        return;
    if (format_of(r)->free)
        format_of(r)->free(r);
    llmm_cli_jr_free(r);
    free(r);
}
