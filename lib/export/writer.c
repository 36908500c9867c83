/* llmm_prom_writer: a whole exposition for a /metrics endpoint, text, OpenMetrics or protobuf.
 *
 * The output is one growing buffer. Text families are simply appended. A protobuf family
 * is a varint length followed by the MetricFamily message; the length is known only when
 * the family ends, so it is inserted in front of the family then (the writer keeps room for
 * it, so ending a family can never fail). Every call is all-or-nothing: series are appended
 * and truncated away on failure; a new family measures its header first and reserves all the
 * memory it needs before touching anything.
 *
 * Classic buckets of a histogram family without bounds of its own follow the writer's
 * setting at the time the family starts: a named list (default: OpenTelemetry GenAI
 * durations) or the sketch's grid downscaled to at most `classic_max` bounds. Either way
 * the number of `_bucket` series per histogram is bounded; the native path is untouched.
 *
 * OpenMetrics ends with `# EOF`. The terminator is virtual: finishing (or reading the data)
 * appends it in room kept for it, and the next family or series removes it first, so the
 * exposition can still grow after a finish, as in the other formats. */
#include <string.h>

#include "core/abi.h"
#include "export/export_internal.h"

struct llmm_prom_writer {
    llmm_ctx *ctx;
    llmm_prom_format format;
    llmm__sink out;
    int open; /* a family is open */
    llmm_prom_type type;
    size_t fam_start;  /* protobuf: where the open family's bytes begin */
    size_t fam_series; /* series in the open family */
    char *name;
    size_t name_cap;
    double *points;
    size_t npoints, points_cap;
    const double *classic; /* open family: its classic bounds (caller's or a list) */
    size_t nclassic;
    uint32_t fam_max;      /* open family: grid layout bound when `classic` is NULL */
    llmm_bucket_list list; /* setting: the list for families without bounds */
    uint32_t classic_max;  /* setting: 0 = use `list`, else the grid bound */
    char *seen;            /* names of the families since the last reset, NUL-separated */
    size_t seen_len, seen_cap;
    int eof; /* OpenMetrics: the output ends with EOF_LINE */
};

static const char EOF_LINE[] = "# EOF\n";
#define EOF_LEN (sizeof EOF_LINE - 1)

/* Room for the length prefix of the open family (a varint of a size_t) or for `# EOF`. */
#define CLOSE_ROOM 10

static int format_valid(llmm_prom_format f)
{
    return f == LLMM_PROM_TEXT || f == LLMM_PROM_PROTOBUF || f == LLMM_PROM_OPENMETRICS;
}

/* Remove the virtual OpenMetrics terminator before appending. */
static void drop_eof(llmm_prom_writer *w)
{
    if (w->eof) {
        w->out.len -= EOF_LEN;
        w->eof = 0;
    }
}

/* Append it, in the room every series keeps; only an exposition without any family may
 * need to grow (0 when that fails). */
static int add_eof(llmm_prom_writer *w)
{
    if (w->format != LLMM_PROM_OPENMETRICS || w->eof)
        return 1;
    if (!llmm__sink_reserve(&w->out, EOF_LEN)) {
        w->out.failed = 0;
        return 0;
    }
    llmm__put(&w->out, EOF_LINE, EOF_LEN);
    w->eof = 1;
    return 1;
}

static int grow(const llmm_ctx *ctx, void **p, size_t *cap, size_t need, size_t elem)
{
    size_t bytes, old;
    void *np;
    if (need <= *cap)
        return 1;
    if (!llmm__mul_size(need, elem, &bytes) || !llmm__mul_size(*cap, elem, &old))
        return 0;
    np = *p ? llmm__realloc(ctx, *p, old, bytes) : llmm__alloc(ctx, bytes);
    if (!np)
        return 0;
    *p = np;
    *cap = need;
    return 1;
}

llmm_status llmm_prom_writer_new(llmm_ctx *ctx, llmm_prom_format format, llmm_prom_writer **out)
{
    llmm_prom_writer *w;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!format_valid(format))
        return LLMM_E_INVALID;
    w = (llmm_prom_writer *)llmm__calloc(ctx, 1, sizeof *w);
    if (!w)
        return LLMM_E_NOMEM;
    w->ctx = ctx;
    w->format = format;
    w->list = LLMM_BUCKETS_OTEL_GENAI_DURATION;
    llmm__sink_growable(&w->out, ctx);
    *out = w;
    return LLMM_OK;
}

void llmm_prom_writer_free(llmm_prom_writer *w)
{
    if (!w)
        return;
    llmm__sink_release(&w->out);
    if (w->name)
        llmm__free(w->ctx, w->name, w->name_cap);
    if (w->points)
        llmm__free(w->ctx, w->points, w->points_cap * sizeof *w->points);
    if (w->seen)
        llmm__free(w->ctx, w->seen, w->seen_cap);
    llmm__free(w->ctx, w, sizeof *w);
}

llmm_status llmm_prom_writer_set_classic_list(llmm_prom_writer *w, llmm_bucket_list which)
{
    const double *b;
    size_t n;
    if (!w || !llmm__bucket_list(which, &b, &n))
        return LLMM_E_INVALID;
    w->list = which;
    w->classic_max = 0;
    return LLMM_OK;
}

llmm_status llmm_prom_writer_set_classic_max(llmm_prom_writer *w, uint32_t max_bounds)
{
    if (!w || max_bounds < LLMM__CLASSIC_MIN_BOUNDS)
        return LLMM_E_INVALID;
    w->classic_max = max_bounds;
    return LLMM_OK;
}

/* The open family's classic layout: its own bounds, else the writer's setting. */
static void choose_classic(llmm_prom_writer *w)
{
    w->fam_max = 0;
    w->classic = w->points;
    w->nclassic = w->npoints;
    if (w->npoints || (w->type != LLMM_PROM_HISTOGRAM && w->type != LLMM_PROM_NATIVE_HISTOGRAM))
        return;
    if (w->classic_max) {
        w->classic = NULL;
        w->fam_max = w->classic_max;
    } else {
        llmm__bucket_list(w->list, &w->classic, &w->nclassic);
    }
}

llmm_status llmm_prom_writer_reset(llmm_prom_writer *w, llmm_prom_format format)
{
    if (!w || !format_valid(format))
        return LLMM_E_INVALID;
    w->format = format;
    w->out.len = 0;
    w->out.failed = 0;
    w->open = 0;
    w->seen_len = 0;
    w->eof = 0;
    return LLMM_OK;
}

/* Size of the output once the open family is ended (and OpenMetrics terminated). */
static size_t closed_len(const llmm_prom_writer *w)
{
    size_t body;
    if (w->format == LLMM_PROM_OPENMETRICS)
        return w->out.len + (w->eof ? 0 : EOF_LEN);
    if (!w->open || w->format != LLMM_PROM_PROTOBUF)
        return w->out.len;
    if (w->fam_series == 0)
        return w->fam_start;
    body = w->out.len - w->fam_start;
    return w->out.len + llmm__varint_len(body);
}

/* End the open family; the room for the prefix was reserved, so this cannot fail. */
static void close_family(llmm_prom_writer *w)
{
    if (!w->open)
        return;
    w->open = 0;
    if (w->format != LLMM_PROM_PROTOBUF)
        return;
    if (w->fam_series == 0) {
        w->out.len = w->fam_start; /* Prometheus expects at least one metric per family */
        return;
    }
    {
        size_t body = w->out.len - w->fam_start, k = llmm__varint_len(body), i;
        uint8_t *p = w->out.p + w->fam_start;
        uint64_t v = body;
        memmove(p + k, p, body);
        for (i = 0; i < k; i++, v >>= 7)
            p[i] = (uint8_t)((v & 0x7f) | (i + 1 < k ? 0x80 : 0));
        w->out.len += k;
    }
}

static int seen_before(const llmm_prom_writer *w, const char *name)
{
    size_t i = 0;
    while (i < w->seen_len) {
        const char *z = w->seen + i;
        if (strcmp(z, name) == 0)
            return 1;
        i += strlen(z) + 1;
    }
    return 0;
}

static llmm_status check_points(llmm_prom_type t, const double *p, size_t n)
{
    size_t i, j;
    if (n && !p)
        return LLMM_E_INVALID;
    switch (t) {
    case LLMM_PROM_COUNTER:
    case LLMM_PROM_GAUGE:
        return n ? LLMM_E_INVALID : LLMM_OK;
    case LLMM_PROM_SUMMARY:
        if (!n)
            return LLMM_E_INVALID;
        for (i = 0; i < n; i++) {
            if (!(p[i] >= 0 && p[i] <= 1))
                return LLMM_E_INVALID;
            for (j = 0; j < i; j++)
                if (p[j] == p[i])
                    return LLMM_E_INVALID;
        }
        return LLMM_OK;
    case LLMM_PROM_HISTOGRAM:
    case LLMM_PROM_NATIVE_HISTOGRAM:
        return llmm__bounds_valid(p, n) ? LLMM_OK : LLMM_E_INVALID;
    default:
        return LLMM_E_INVALID;
    }
}

static void write_header(llmm_prom_writer *w, llmm__sink *o, const char *name, const char *help,
                         llmm_prom_type t)
{
    if (w->format == LLMM_PROM_TEXT)
        llmm__text_header(o, name, help, t);
    else if (w->format == LLMM_PROM_OPENMETRICS)
        llmm__om_header(o, name, help, t);
    else
        llmm__pb_family_header(o, name, help, t);
}

llmm_status llmm_prom_writer_family(llmm_prom_writer *w, const char *name, const char *help,
                                    llmm_prom_type type, const double *points, size_t npoints)
{
    llmm__sink probe;
    size_t nlen, after_close, header;
    llmm_status st;

    if (!w || !llmm__metric_name_valid(name) || (help && !llmm__utf8_valid(help, strlen(help))))
        return LLMM_E_INVALID;
    if ((st = check_points(type, points, npoints)) != LLMM_OK)
        return st;
    if (seen_before(w, name))
        return LLMM_E_STATE;

    /* measure, then reserve everything: from here on nothing can fail */
    llmm__sink_fixed(&probe, NULL, 0);
    write_header(w, &probe, name, help, type);
    header = probe.len;
    nlen = strlen(name) + 1;
    after_close = closed_len(w);
    if (!grow(w->ctx, (void **)&w->name, &w->name_cap, nlen, 1) ||
        !grow(w->ctx, (void **)&w->points, &w->points_cap, npoints, sizeof *points) ||
        !grow(w->ctx, (void **)&w->seen, &w->seen_cap, w->seen_len + nlen, 1) ||
        header > SIZE_MAX - CLOSE_ROOM - after_close ||
        (after_close + header + CLOSE_ROOM > w->out.len &&
         !llmm__sink_reserve(&w->out, after_close + header + CLOSE_ROOM - w->out.len))) {
        w->out.failed = 0;
        return LLMM_E_NOMEM;
    }

    drop_eof(w);
    close_family(w);
    memcpy(w->name, name, nlen);
    if (npoints)
        memcpy(w->points, points, npoints * sizeof *points);
    w->npoints = npoints;
    memcpy(w->seen + w->seen_len, name, nlen);
    w->seen_len += nlen;
    w->type = type;
    choose_classic(w);
    w->fam_start = w->out.len;
    w->fam_series = 0;
    w->open = 1;
    write_header(w, &w->out, name, help, type);
    return LLMM_OK;
}

/* Finish a series append: roll back on failure, keep room to end the family. */
static llmm_status settle(llmm_prom_writer *w, size_t saved, llmm_status st)
{
    if (st == LLMM_OK && w->out.failed)
        st = LLMM_E_NOMEM;
    if (st == LLMM_OK && w->format != LLMM_PROM_TEXT && !llmm__sink_reserve(&w->out, CLOSE_ROOM))
        st = LLMM_E_NOMEM;
    if (st != LLMM_OK) {
        w->out.len = saved;
        w->out.failed = 0;
        return st;
    }
    w->fam_series++;
    return LLMM_OK;
}

/* A counter or gauge series; `e` (counters only) was validated. */
static llmm_status put_value(llmm_prom_writer *w, const char *labels, double value,
                             const llmm_exemplar *e)
{
    llmm_status st;
    size_t saved;

    if ((st = llmm__labels_check(labels, LLMM__KEYS_PROM, NULL)) != LLMM_OK)
        return st;
    if (!w->open || (w->type != LLMM_PROM_COUNTER && w->type != LLMM_PROM_GAUGE) ||
        (e && w->type != LLMM_PROM_COUNTER))
        return LLMM_E_STATE;
    if (!llmm__is_finite(value) || (w->type == LLMM_PROM_COUNTER && value < 0))
        return LLMM_E_INVALID;
    drop_eof(w);
    saved = w->out.len;
    if (w->format == LLMM_PROM_TEXT)
        llmm__text_value(&w->out, w->name, labels, value);
    else if (w->format == LLMM_PROM_OPENMETRICS && w->type == LLMM_PROM_COUNTER)
        llmm__om_counter(&w->out, w->name, labels, value, e);
    else if (w->format == LLMM_PROM_OPENMETRICS)
        llmm__text_value(&w->out, w->name, labels, value);
    else
        llmm__pb_value(&w->out, labels, w->type, value, e);
    return settle(w, saved, LLMM_OK);
}

llmm_status llmm_prom_writer_value(llmm_prom_writer *w, const char *labels, double value)
{
    return w ? put_value(w, labels, value, NULL) : LLMM_E_INVALID;
}

llmm_status llmm_prom_writer_value_exemplar(llmm_prom_writer *w, const char *labels, double value,
                                            const llmm_exemplar *e)
{
    llmm_exemplar full;
    llmm_status st;
    if (!w)
        return LLMM_E_INVALID;
    if (!e)
        return put_value(w, labels, value, NULL);
    if ((st = LLMM__SIZED_GET(llmm_exemplar, &full, e)) != LLMM_OK)
        return st;
    if (!llmm__is_finite(full.value) || !memchr(full.labels, '\0', sizeof full.labels) ||
        llmm__exemplar_labels_check(full.labels, 1, 1) != LLMM_OK)
        return LLMM_E_INVALID;
    return put_value(w, labels, value, &full);
}

static llmm_status put_sketch(llmm_prom_writer *w, const char *labels, const llmm_sketch *s,
                              double f, const llmm_exemplars *ex)
{
    llmm__exsel x;
    llmm_status st;
    size_t saved;

    if (!w || !s || !llmm__factor_valid(f))
        return LLMM_E_INVALID;
    if (!w->open || w->type == LLMM_PROM_COUNTER || w->type == LLMM_PROM_GAUGE)
        return LLMM_E_STATE;
    if ((st = llmm__labels_check(labels, LLMM__KEYS_PROM, llmm__prom_reserved(w->type))) != LLMM_OK)
        return st;
    llmm__exsel_init(&x, w->format == LLMM_PROM_TEXT ? NULL : ex, f);
    drop_eof(w);
    saved = w->out.len;
    if (w->format != LLMM_PROM_PROTOBUF)
        st = llmm__text_sketch(&w->out, w->name, labels, w->type, s, f, w->classic, w->nclassic,
                               w->fam_max, x.ex ? &x : NULL);
    else if (w->type == LLMM_PROM_NATIVE_HISTOGRAM) /* lossless: classic only if asked */
        st = llmm__pb_sketch(&w->out, labels, w->type, s, f, w->points, w->npoints, 0,
                             x.ex ? &x : NULL);
    else
        st = llmm__pb_sketch(&w->out, labels, w->type, s, f, w->classic, w->nclassic, w->fam_max,
                             x.ex ? &x : NULL);
    return settle(w, saved, st);
}

llmm_status llmm_prom_writer_sketch(llmm_prom_writer *w, const char *labels, const llmm_sketch *s,
                                    double unit_to_seconds)
{
    return put_sketch(w, labels, s, unit_to_seconds, NULL);
}

llmm_status llmm_prom_writer_sketch_exemplars(llmm_prom_writer *w, const char *labels,
                                              const llmm_sketch *s, double unit_to_seconds,
                                              const llmm_exemplars *ex)
{
    return put_sketch(w, labels, s, unit_to_seconds, ex);
}

llmm_status llmm_prom_writer_finish(llmm_prom_writer *w, uint8_t *buf, size_t cap, size_t *len)
{
    size_t need;
    if (!w || !len || (!buf && cap))
        return LLMM_E_INVALID;
    need = closed_len(w);
    *len = need;
    if (need > cap)
        return LLMM_E_BUFFER;
    close_family(w);
    if (!add_eof(w))
        return LLMM_E_NOMEM;
    if (need)
        memcpy(buf, w->out.p, need);
    return LLMM_OK;
}

llmm_status llmm_prom_writer_data(llmm_prom_writer *w, const uint8_t **data, size_t *len)
{
    static const uint8_t empty[1] = {0};
    if (!w || !data || !len)
        return LLMM_E_INVALID;
    close_family(w);
    if (!add_eof(w))
        return LLMM_E_NOMEM;
    *data = w->out.p ? w->out.p : empty;
    *len = w->out.len;
    return LLMM_OK;
}
