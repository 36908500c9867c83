/* Prometheus text format 0.0.4 and OpenMetrics 1.0 text: family header, counter / gauge
 * lines, summary and classic histogram series, and the one-call export of a single sketch.
 *
 * OpenMetrics differs in little: a counter family is named without `_total` and its sample
 * with it, HELP escapes `"` too, exemplars follow bucket and counter samples as
 * ` # {labels} value time`, and the exposition ends with `# EOF` (the writer's).
 *
 * Line grammar: `name{labels} value\n`. The caller's label list goes in verbatim (it was
 * validated), followed by `le` / `quantile` where the type needs it; no braces when there
 * are no labels at all. HELP text escapes `\` and newline; sample values use Go's %g
 * spelling (client_golang's), `le` / `quantile` Prometheus' label spelling. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"

const char *llmm__prom_reserved(llmm_prom_type t)
{
    switch (t) {
    case LLMM_PROM_SUMMARY:
        return "quantile";
    case LLMM_PROM_HISTOGRAM:
    case LLMM_PROM_NATIVE_HISTOGRAM:
        return "le";
    default:
        return NULL;
    }
}

static const char *type_word(llmm_prom_type t)
{
    switch (t) {
    case LLMM_PROM_COUNTER:
        return "counter";
    case LLMM_PROM_GAUGE:
        return "gauge";
    case LLMM_PROM_SUMMARY:
        return "summary";
    default:
        return "histogram";
    }
}

/* Length of an OpenMetrics counter family's name: without a `_total` suffix. */
size_t llmm__om_stem_len(const char *name)
{
    size_t n = strlen(name);
    return n > 6 && strcmp(name + n - 6, "_total") == 0 ? n - 6 : n;
}

static void header(llmm__sink *o, const char *name, size_t name_len, const char *help,
                   llmm_prom_type t, int om)
{
    if (help) {
        size_t i, run = 0, n = strlen(help);
        llmm__puts(o, "# HELP ");
        llmm__put(o, name, name_len);
        llmm__putc(o, ' ');
        for (i = 0; i < n; i++) {
            if (help[i] != '\\' && help[i] != '\n' && (!om || help[i] != '"'))
                continue;
            llmm__put(o, help + run, i - run);
            llmm__puts(o, help[i] == '\\' ? "\\\\" : help[i] == '"' ? "\\\"" : "\\n");
            run = i + 1;
        }
        llmm__put(o, help + run, n - run);
        llmm__putc(o, '\n');
    }
    llmm__puts(o, "# TYPE ");
    llmm__put(o, name, name_len);
    llmm__putc(o, ' ');
    llmm__puts(o, type_word(t));
    llmm__putc(o, '\n');
}

void llmm__text_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t)
{
    header(o, name, strlen(name), help, t, 0);
}

void llmm__om_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t)
{
    header(o, name, t == LLMM_PROM_COUNTER ? llmm__om_stem_len(name) : strlen(name), help, t, 1);
}

/* `name suffix {labels, extra="v"} ` up to the value; extra may be NULL. */
static void series(llmm__sink *o, const char *name, const char *suffix, const char *labels,
                   const char *extra, double extra_v)
{
    int has = labels && labels[0];
    llmm__puts(o, name);
    llmm__puts(o, suffix);
    if (has || extra) {
        llmm__putc(o, '{');
        if (has)
            llmm__puts(o, labels);
        if (extra) {
            if (has)
                llmm__putc(o, ',');
            llmm__puts(o, extra);
            llmm__puts(o, "=\"");
            llmm__put_om_double(o, extra_v);
            llmm__putc(o, '"');
        }
        llmm__putc(o, '}');
    }
    llmm__putc(o, ' ');
}

void llmm__text_value(llmm__sink *o, const char *name, const char *labels, double v)
{
    series(o, name, "", labels, NULL, 0);
    llmm__put_double(o, v);
    llmm__putc(o, '\n');
}

void llmm__om_counter(llmm__sink *o, const char *name, const char *labels, double v,
                      const llmm_exemplar *e)
{
    llmm__put(o, name, llmm__om_stem_len(name));
    series(o, "_total", "", labels, NULL, 0);
    llmm__put_double(o, v);
    if (e)
        llmm__om_exemplar(o, e, 1.0);
    llmm__putc(o, '\n');
}

static void sum_count(llmm__sink *o, const char *name, const char *labels, double sum, uint64_t n)
{
    series(o, name, "_sum", labels, NULL, 0);
    llmm__put_double(o, sum);
    llmm__putc(o, '\n');
    series(o, name, "_count", labels, NULL, 0);
    llmm__put_u64(o, n);
    llmm__putc(o, '\n');
}

static void summary(llmm__sink *o, const char *name, const char *labels, const llmm_sketch *s,
                    double f, const double *q, size_t nq)
{
    uint64_t n;
    double sum, mn, mx;
    size_t i;

    llmm__sketch_totals(s, f, &n, &sum, &mn, &mx);
    for (i = 0; i < nq; i++) {
        double v = NAN;
        if (n && llmm_sketch_quantile(s, q[i], &v) == LLMM_OK)
            v *= f;
        series(o, name, "", labels, "quantile", q[i]);
        llmm__put_double(o, v);
        llmm__putc(o, '\n');
    }
    sum_count(o, name, labels, sum, n);
}

/* The bucket's count, its exemplar if `x` has one in (lo, le], the line's end. */
static void bucket_end(llmm__sink *o, uint64_t cum, llmm__exsel *x, double lo, double le)
{
    llmm_exemplar e;
    llmm__put_u64(o, cum);
    if (x && llmm__exsel_pick(x, lo, le, &e))
        llmm__om_exemplar(o, &e, x->f);
    llmm__putc(o, '\n');
}

static llmm_status classic(llmm__sink *o, const char *name, const char *labels,
                           const llmm_sketch *s, double f, const double *b, size_t nb,
                           uint32_t max_bounds, llmm__exsel *x)
{
    llmm__classic c;
    double le, sum, mn, mx, lo = -INFINITY;
    uint64_t cum, n;
    llmm_status st = llmm__classic_init(&c, s, f, nb ? b : NULL, nb, max_bounds);

    if (st != LLMM_OK)
        return st;
    llmm__sketch_totals(s, f, &n, &sum, &mn, &mx);
    while (llmm__classic_next(&c, &le, &cum)) {
        if (!llmm__is_finite(le) || (!nb && !(le > 0)))
            return LLMM_E_RANGE;
        series(o, name, "_bucket", labels, "le", le);
        bucket_end(o, cum, x, lo, le);
        lo = le;
    }
    series(o, name, "_bucket", labels, "le", INFINITY);
    bucket_end(o, n, x, lo, INFINITY);
    sum_count(o, name, labels, sum, n);
    return LLMM_OK;
}

llmm_status llmm__text_sketch(llmm__sink *o, const char *name, const char *labels, llmm_prom_type t,
                              const llmm_sketch *s, double f, const double *points, size_t npoints,
                              uint32_t max_bounds, llmm__exsel *x)
{
    if (t == LLMM_PROM_SUMMARY) {
        summary(o, name, labels, s, f, points, npoints);
        return LLMM_OK;
    }
    return classic(o, name, labels, s, f, points, npoints, max_bounds, x);
}

llmm_status llmm_export_prometheus_text(const llmm_sketch *s, const char *name, const char *labels,
                                        double unit_to_seconds, uint8_t *buf, size_t cap,
                                        size_t *len)
{
    llmm__sink o;
    llmm_status st;
    char help[96];

    if (!s || !len || (!buf && cap) || !llmm__metric_name_valid(name) ||
        !llmm__factor_valid(unit_to_seconds))
        return LLMM_E_INVALID;
    if ((st = llmm__labels_check(labels, LLMM__KEYS_PROM, "le")) != LLMM_OK)
        return st;
    snprintf(help, sizeof help, "libllmmetrics sketch (scale %d) at its own bucket bounds",
             llmm_sketch_scale(s));
    llmm__sink_fixed(&o, buf, cap);
    llmm__text_header(&o, name, help, LLMM_PROM_HISTOGRAM);
    st = llmm__text_sketch(&o, name, labels, LLMM_PROM_HISTOGRAM, s, unit_to_seconds, NULL, 0,
                           LLMM__TEXT_MAX_BOUNDS, NULL);
    if (st != LLMM_OK)
        return st;
    *len = o.len;
    return llmm__sink_status(&o);
}
