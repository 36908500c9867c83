/* Prometheus protobuf exposition: io.prometheus.client.MetricFamily messages.
 *
 * Field numbers (client_model metrics.proto as read by Prometheus 2.42):
 *   MetricFamily: name 1, help 2, type 3 (COUNTER 0, GAUGE 1, SUMMARY 2, HISTOGRAM 4), metric 4
 *   Metric: label 1 (LabelPair: name 1, value 2), gauge 2, counter 3, summary 4, histogram 7
 *   Gauge / Counter: value 1 (Counter: exemplar 2)
 *   Exemplar: label 1, value 2, timestamp 3; Bucket: exemplar 3; Histogram: exemplars 16
 *     (native histograms, read by servers newer than 2.42)
 *   Summary: sample_count 1, sample_sum 2, quantile 3 (Quantile: quantile 1, value 2)
 *   Histogram: sample_count 1, sample_sum 2, bucket 3 (Bucket: cumulative_count 1,
 *     upper_bound 2), schema 5 (sint32), zero_threshold 6, zero_count 7,
 *     positive_span 12 (BucketSpan: offset 1 sint32, length 2), positive_delta 13 (sint64,
 *     packed)
 * Native buckets: Prometheus index = OpenTelemetry index + 1; the first span's offset is
 * the index of its first bucket, later offsets are the gaps since the previous span; each
 * delta is a bucket's count minus the previous bucket's (across spans). */
#include <math.h>
#include <string.h>

#include "export/export_internal.h"

static uint64_t family_type_code(llmm_prom_type t)
{
    switch (t) {
    case LLMM_PROM_COUNTER:
        return 0;
    case LLMM_PROM_GAUGE:
        return 1;
    case LLMM_PROM_SUMMARY:
        return 2;
    default:
        return 4;
    }
}

void llmm__pb_family_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t)
{
    llmm__pb_bytes(o, 1, name, strlen(name));
    if (help)
        llmm__pb_bytes(o, 2, help, strlen(help));
    llmm__pb_uint(o, 3, family_type_code(t));
}

void llmm__pb_labels(llmm__sink *o, const char *labels)
{
    size_t pos = 0;
    llmm__label l;
    while (llmm__labels_next(labels, &pos, &l)) {
        size_t m = llmm__pb_begin(o, 1);
        llmm__pb_bytes(o, 1, l.name, l.name_len);
        llmm__pb_tag(o, 2, 2);
        llmm__pb_varint(o, l.raw_len);
        llmm__put_unescaped(o, l.value, l.value_len);
        llmm__pb_end(o, m);
    }
}

void llmm__pb_value(llmm__sink *o, const char *labels, llmm_prom_type t, double v,
                    const llmm_exemplar *e)
{
    size_t m = llmm__pb_begin(o, 4), inner;
    llmm__pb_labels(o, labels);
    inner = llmm__pb_begin(o, t == LLMM_PROM_COUNTER ? 3 : 2);
    llmm__pb_double(o, 1, v);
    if (e && t == LLMM_PROM_COUNTER)
        llmm__pb_exemplar(o, 2, e, 1.0);
    llmm__pb_end(o, inner);
    llmm__pb_end(o, m);
}

static void summary(llmm__sink *o, const llmm_sketch *s, double f, const double *q, size_t nq)
{
    uint64_t n;
    double sum, mn, mx;
    size_t i;

    llmm__sketch_totals(s, f, &n, &sum, &mn, &mx);
    llmm__pb_uint(o, 1, n);
    llmm__pb_double(o, 2, sum);
    for (i = 0; i < nq; i++) {
        double v = NAN;
        size_t m;
        if (n && llmm_sketch_quantile(s, q[i], &v) == LLMM_OK)
            v *= f;
        m = llmm__pb_begin(o, 3);
        llmm__pb_double(o, 1, q[i]);
        llmm__pb_double(o, 2, v);
        llmm__pb_end(o, m);
    }
}

/* Classic buckets (the +Inf bucket is implied by sample_count, as client_golang does). */
static llmm_status classic_buckets(llmm__sink *o, const llmm_sketch *s, double f, const double *b,
                                   size_t nb, uint32_t max_bounds, llmm__exsel *x)
{
    llmm__classic c;
    llmm_exemplar e;
    double le, lo = -INFINITY;
    uint64_t cum;
    llmm_status st = llmm__classic_init(&c, s, f, nb ? b : NULL, nb, max_bounds);

    if (st != LLMM_OK)
        return st;
    while (llmm__classic_next(&c, &le, &cum)) {
        size_t m;
        if (!llmm__is_finite(le) || (!nb && !(le > 0)))
            return LLMM_E_RANGE;
        m = llmm__pb_begin(o, 3);
        llmm__pb_uint(o, 1, cum);
        llmm__pb_double(o, 2, le);
        if (x && llmm__exsel_pick(x, lo, le, &e))
            llmm__pb_exemplar(o, 3, &e, f);
        llmm__pb_end(o, m);
        lo = le;
    }
    return LLMM_OK;
}

/* Native exemplars: the best one on a `+Inf` bucket entry, first of the buckets, as 2.42
 * reads it, unless classic buckets already carry them; then every one in field 16. */
static void native_exemplars(llmm__sink *o, const llmm__exsel *x, uint64_t n, int classic)
{
    llmm_exemplar e;
    uint32_t i;
    if (!x || !x->ex || !n)
        return;
    if (!classic && llmm__exemplars_best(x->ex, &e)) {
        size_t m = llmm__pb_begin(o, 3);
        llmm__pb_uint(o, 1, n);
        llmm__pb_double(o, 2, INFINITY);
        llmm__pb_exemplar(o, 3, &e, x->f);
        llmm__pb_end(o, m);
    }
    for (i = 0; i < llmm_exemplars_slots(x->ex); i++) {
        e.struct_size = (uint32_t)sizeof e;
        if (llmm_exemplars_get(x->ex, i, &e) == LLMM_OK)
            llmm__pb_exemplar(o, 16, &e, x->f);
    }
}

static void put_span(llmm__sink *o, int64_t offset, uint32_t length)
{
    size_t m = llmm__pb_begin(o, 12);
    llmm__pb_sint(o, 1, offset);
    llmm__pb_uint(o, 2, length);
    llmm__pb_end(o, m);
}

static llmm_status native(llmm__sink *o, const llmm_sketch *s, double f)
{
    llmm__native n;
    int64_t idx, prev_idx = 0, offset = 0;
    uint64_t cnt, prev = 0;
    uint32_t span_len = 0;
    int nspans = 0;
    size_t m;
    llmm_status st = llmm__native_init(&n, s, f, 8, -4, 0);

    if (st != LLMM_OK)
        return st;
    if (n.has_buckets && (n.first_e + 1 < INT32_MIN || n.last_e + 1 > INT32_MAX))
        return LLMM_E_RANGE;
    llmm__pb_sint(o, 5, n.scale);
    llmm__pb_double(o, 6, n.threshold);
    llmm__pb_uint(o, 7, n.zero_count);

    /* pass 1: spans (Prometheus indices) */
    while (llmm__native_next(&n, &idx, &cnt)) {
        if (cnt > (uint64_t)INT64_MAX)
            return LLMM_E_RANGE; /* deltas are sint64 */
        idx += 1;
        if (span_len && idx == prev_idx + 1) {
            span_len++;
        } else {
            if (span_len) {
                put_span(o, offset, span_len);
                nspans++;
            }
            offset = nspans ? idx - (prev_idx + 1) : idx;
            span_len = 1;
        }
        prev_idx = idx;
    }
    if (span_len) {
        put_span(o, offset, span_len);
    } else {
        /* no buckets: a no-op span marks the histogram as native even to readers that look
         * only at spans (metrics.proto asks for it when the threshold is 0; harmless here) */
        put_span(o, 0, 0);
    }

    /* pass 2: packed deltas */
    llmm__native_rewind(&n);
    if (n.has_buckets) {
        m = llmm__pb_begin(o, 13);
        while (llmm__native_next(&n, &idx, &cnt)) {
            int64_t d = (int64_t)cnt - (int64_t)prev;
            uint64_t u = d < 0 ? ((uint64_t)(-(d + 1)) << 1) | 1u : (uint64_t)d << 1;
            llmm__pb_varint(o, u);
            prev = cnt;
        }
        llmm__pb_end(o, m);
    }
    return LLMM_OK;
}

llmm_status llmm__pb_sketch(llmm__sink *o, const char *labels, llmm_prom_type t,
                            const llmm_sketch *s, double f, const double *points, size_t npoints,
                            uint32_t max_bounds, llmm__exsel *x)
{
    size_t m = llmm__pb_begin(o, 4), h;
    llmm_status st = LLMM_OK;
    uint64_t n;
    double sum, mn, mx;

    llmm__pb_labels(o, labels);
    if (t == LLMM_PROM_SUMMARY) {
        h = llmm__pb_begin(o, 4);
        summary(o, s, f, points, npoints);
        llmm__pb_end(o, h);
        llmm__pb_end(o, m);
        return LLMM_OK;
    }
    h = llmm__pb_begin(o, 7);
    llmm__sketch_totals(s, f, &n, &sum, &mn, &mx);
    llmm__pb_uint(o, 1, n);
    llmm__pb_double(o, 2, sum);
    if (t == LLMM_PROM_HISTOGRAM || npoints)
        st = classic_buckets(o, s, f, points, npoints, max_bounds, x);
    if (st == LLMM_OK && t == LLMM_PROM_NATIVE_HISTOGRAM) {
        native_exemplars(o, x, n, npoints > 0);
        st = native(o, s, f);
    }
    llmm__pb_end(o, h);
    llmm__pb_end(o, m);
    return st;
}
