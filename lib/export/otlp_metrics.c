/* OTLP ExportMetricsServiceRequest (opentelemetry/proto/collector/metrics/v1), protobuf or
 * JSON, through the request writer (otlp_internal.h).
 *
 * Field numbers (opentelemetry/proto/metrics/v1/metrics.proto, common/v1, resource/v1):
 *   ExportMetricsServiceRequest: resource_metrics 1
 *   ResourceMetrics: resource 1 (Resource: attributes 1), scope_metrics 2
 *   ScopeMetrics: scope 1 (InstrumentationScope: name 1, version 2, attributes 3), metrics 2
 *   Metric: name 1, description 2, unit 3, gauge 5, sum 7, histogram 9,
 *     exponential_histogram 10, summary 11
 *   Gauge / Summary: data_points 1; Sum: data_points 1, aggregation_temporality 2,
 *     is_monotonic 3; Histogram / ExponentialHistogram: data_points 1, aggregation_temporality 2
 *   NumberDataPoint: start_time_unix_nano 2, time_unix_nano 3 (fixed64), as_double 4,
 *     exemplars 5, attributes 7
 *   HistogramDataPoint: start 2, time 3, count 4 (fixed64), sum 5, bucket_counts 6 (packed
 *     fixed64), explicit_bounds 7 (packed double), exemplars 8, attributes 9, min 11, max 12
 *   ExponentialHistogramDataPoint: attributes 1, start 2, time 3, count 4 (fixed64), sum 5,
 *     scale 6 (sint32), zero_count 7 (fixed64), positive 8 (Buckets: offset 1 sint32,
 *     bucket_counts 2 packed uint64), exemplars 11, min 12, max 13, zero_threshold 14
 *   SummaryDataPoint: start 2, time 3, count 4 (fixed64), sum 5, quantile_values 6
 *     (ValueAtQuantile: quantile 1, value 2), attributes 7
 *   Exemplar: time_unix_nano 2 (fixed64), as_double 3, span_id 4, trace_id 5,
 *     filtered_attributes 7 */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "export/otlp_internal.h"

void llmm__otlp_metric_defaults(void *full)
{
    llmm_otlp_metric *m = full;
    m->temporality = LLMM_OTLP_CUMULATIVE;
    m->unit_to_seconds = 1.0;
}

static const double default_quantiles[] = {0.5, 0.9, 0.99};

static int is_histogram(llmm_otlp_metric_type t)
{
    return t == LLMM_OTLP_EXPONENTIAL_HISTOGRAM || t == LLMM_OTLP_HISTOGRAM;
}

static llmm_status check_metric(llmm_otlp_metric *m)
{
    size_t i;
    if (!m->name || !m->name[0] || !llmm__otlp_text_ok(m->name) ||
        !llmm__otlp_text_ok(m->description) || !llmm__otlp_text_ok(m->unit))
        return LLMM_E_INVALID;
    if (m->type < LLMM_OTLP_EXPONENTIAL_HISTOGRAM || m->type > LLMM_OTLP_SUMMARY)
        return LLMM_E_INVALID;
    if (m->temporality != LLMM_OTLP_DELTA && m->temporality != LLMM_OTLP_CUMULATIVE)
        return LLMM_E_INVALID;
    if (!llmm__factor_valid(m->unit_to_seconds) || (m->bound_count && !m->bounds))
        return LLMM_E_INVALID;
    if (m->type == LLMM_OTLP_HISTOGRAM) {
        if (!m->bounds &&
            !llmm__bucket_list(LLMM_BUCKETS_OTEL_GENAI_DURATION, &m->bounds, &m->bound_count))
            return LLMM_E_INVALID;
        if (!llmm__bounds_valid(m->bounds, m->bound_count))
            return LLMM_E_INVALID;
    } else if (m->type == LLMM_OTLP_SUMMARY) {
        if (!m->bounds) {
            m->bounds = default_quantiles;
            m->bound_count = sizeof default_quantiles / sizeof default_quantiles[0];
        }
        for (i = 0; i < m->bound_count; i++)
            if (!(m->bounds[i] >= 0.0 && m->bounds[i] <= 1.0))
                return LLMM_E_INVALID;
    }
    return llmm__otlp_check_array(m->points, m->point_count, LLMM_STRUCT_OTLP_POINT);
}

static llmm_status check_point(const llmm_otlp_metric *m, const llmm_otlp_point *p)
{
    llmm_status st;
    if (is_histogram(m->type) || m->type == LLMM_OTLP_SUMMARY) {
        if (!p->sketch)
            return LLMM_E_INVALID;
    }
    if (p->earlier && (!is_histogram(m->type) || m->temporality != LLMM_OTLP_DELTA))
        return LLMM_E_INVALID;
    if (p->exemplar_count && m->type == LLMM_OTLP_SUMMARY) /* SummaryDataPoint has none */
        return LLMM_E_INVALID;
    if ((st = llmm__labels_check(p->attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK)
        return st;
    return llmm__otlp_check_array(p->exemplars, p->exemplar_count, LLMM_STRUCT_OTLP_EXEMPLAR);
}

static llmm_status exemplars(llmm__ow *w, uint32_t field, const llmm_otlp_point *p)
{
    size_t i;
    llmm_status st;
    for (i = 0; i < p->exemplar_count; i++) {
        llmm_otlp_exemplar e;
        if ((st = LLMM__SIZED_GET(llmm_otlp_exemplar, &e, llmm__otlp_elem(p->exemplars, i))) !=
                LLMM_OK ||
            (st = llmm__labels_check(e.attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK)
            return st;
        llmm__ow_begin(w, field, "exemplars", LLMM__OW_REP);
        llmm__ow_fixed64(w, 2, "timeUnixNano", e.time_unix_nano);
        llmm__ow_double(w, 3, "asDouble", e.value);
        if (!llmm__all_zero(e.span_id, sizeof e.span_id))
            llmm__ow_id(w, 4, "spanId", e.span_id, sizeof e.span_id);
        if (!llmm__all_zero(e.trace_id, sizeof e.trace_id))
            llmm__ow_id(w, 5, "traceId", e.trace_id, sizeof e.trace_id);
        llmm__ow_labels(w, 7, "filteredAttributes", e.attributes);
        llmm__ow_end(w);
    }
    return LLMM_OK;
}

static void times(llmm__ow *w, const llmm_otlp_point *p)
{
    llmm__ow_fixed64(w, 2, "startTimeUnixNano", p->start_time_unix_nano);
    llmm__ow_fixed64(w, 3, "timeUnixNano", p->time_unix_nano);
}

static llmm_status exponential(llmm__ow *w, const llmm_otlp_metric *m, const llmm_otlp_point *p,
                               const llmm_sketch *s)
{
    llmm__native n;
    int64_t idx, next;
    uint64_t cnt;
    llmm_status st =
        llmm__native_init(&n, s, m->unit_to_seconds, LLMM_SCALE_MAX, -10, m->max_buckets);
    if (st != LLMM_OK)
        return st;
    if (n.has_buckets && (n.first_e < INT32_MIN || n.last_e > INT32_MAX))
        return LLMM_E_RANGE;
    llmm__ow_labels(w, 1, "attributes", p->attributes);
    times(w, p);
    llmm__ow_fixed64(w, 4, "count", n.count);
    /* all values are >= 0; a delta's sum can only dip below 0 by rounding */
    llmm__ow_double(w, 5, "sum", n.sum < 0 ? 0.0 : n.sum);
    llmm__ow_sint32(w, 6, "scale", n.scale);
    llmm__ow_fixed64(w, 7, "zeroCount", n.zero_count);
    llmm__ow_begin(w, 8, "positive", LLMM__OW_ONE);
    llmm__ow_sint32(w, 1, "offset", n.has_buckets ? n.first_e : 0);
    if (n.has_buckets) {
        llmm__ow_packed_begin(w, 2, "bucketCounts");
        next = n.first_e;
        while (llmm__native_next(&n, &idx, &cnt))
            for (; next <= idx; next++) /* empty buckets in between count 0 */
                llmm__ow_packed_uint(w, next == idx ? cnt : 0);
        llmm__ow_packed_end(w);
    }
    llmm__ow_end(w);
    if ((st = exemplars(w, 11, p)) != LLMM_OK)
        return st;
    if (n.count) {
        llmm__ow_double(w, 12, "min", n.min);
        llmm__ow_double(w, 13, "max", n.max);
    }
    llmm__ow_double(w, 14, "zeroThreshold", n.threshold);
    return LLMM_OK;
}

static llmm_status explicit(llmm__ow *w, const llmm_otlp_metric *m, const llmm_otlp_point *p,
                            const llmm_sketch *s)
{
    llmm__classic c;
    double le, sum, mn, mx;
    uint64_t n, cum, prev = 0;
    size_t i;
    llmm_status st = llmm__classic_init(&c, s, m->unit_to_seconds, m->bounds, m->bound_count, 0);
    if (st != LLMM_OK)
        return st;
    llmm__sketch_totals(s, m->unit_to_seconds, &n, &sum, &mn, &mx);
    times(w, p);
    llmm__ow_fixed64(w, 4, "count", n);
    llmm__ow_double(w, 5, "sum", sum < 0 ? 0.0 : sum);
    llmm__ow_packed_begin(w, 6, "bucketCounts");
    while (llmm__classic_next(&c, &le, &cum)) {
        if (!llmm__is_finite(le))
            return LLMM_E_RANGE;
        llmm__ow_packed_fixed64(w, cum - prev);
        prev = cum;
    }
    llmm__ow_packed_fixed64(w, n - prev);
    llmm__ow_packed_end(w);
    llmm__ow_packed_begin(w, 7, "explicitBounds");
    for (i = 0; i < m->bound_count; i++)
        llmm__ow_packed_double(w, m->bounds[i]);
    llmm__ow_packed_end(w);
    if ((st = exemplars(w, 8, p)) != LLMM_OK)
        return st;
    llmm__ow_labels(w, 9, "attributes", p->attributes);
    if (n) {
        llmm__ow_double(w, 11, "min", mn);
        llmm__ow_double(w, 12, "max", mx);
    }
    return LLMM_OK;
}

static void summary(llmm__ow *w, const llmm_otlp_metric *m, const llmm_otlp_point *p,
                    const llmm_sketch *s)
{
    double sum, mn, mx;
    uint64_t n;
    size_t i;
    llmm__sketch_totals(s, m->unit_to_seconds, &n, &sum, &mn, &mx);
    times(w, p);
    llmm__ow_fixed64(w, 4, "count", n);
    llmm__ow_double(w, 5, "sum", sum);
    for (i = 0; i < m->bound_count; i++) {
        double v = NAN;
        if (n && llmm_sketch_quantile(s, m->bounds[i], &v) == LLMM_OK)
            v *= m->unit_to_seconds;
        llmm__ow_begin(w, 6, "quantileValues", LLMM__OW_REP);
        llmm__ow_double(w, 1, "quantile", m->bounds[i]);
        llmm__ow_double(w, 2, "value", v);
        llmm__ow_end(w);
    }
    llmm__ow_labels(w, 7, "attributes", p->attributes);
}

static llmm_status number(llmm__ow *w, const llmm_otlp_point *p)
{
    llmm_status st;
    times(w, p);
    llmm__ow_double(w, 4, "asDouble", p->value);
    if ((st = exemplars(w, 5, p)) != LLMM_OK)
        return st;
    llmm__ow_labels(w, 7, "attributes", p->attributes);
    return LLMM_OK;
}

static llmm_status point(llmm__ow *w, const llmm_otlp_metric *m, const llmm_otlp_point *p)
{
    const llmm_sketch *s = p->sketch;
    llmm_sketch *delta = NULL;
    llmm_status st;
    if (p->earlier) {
        if ((st = llmm_sketch_clone(s, &delta)) != LLMM_OK)
            return st;
        if ((st = llmm_sketch_subtract(delta, p->earlier)) != LLMM_OK) {
            llmm_sketch_free(delta);
            return st;
        }
        s = delta;
    }
    llmm__ow_begin(w, 1, "dataPoints", LLMM__OW_REP);
    switch (m->type) {
    case LLMM_OTLP_EXPONENTIAL_HISTOGRAM:
        st = exponential(w, m, p, s);
        break;
    case LLMM_OTLP_HISTOGRAM:
        st = explicit(w, m, p, s);
        break;
    case LLMM_OTLP_SUMMARY:
        summary(w, m, p, s);
        st = LLMM_OK;
        break;
    default:
        st = number(w, p);
        break;
    }
    llmm__ow_end(w);
    llmm_sketch_free(delta);
    return st;
}

static const struct {
    uint32_t field;
    const char *key;
} data_field[] = {
    {0, ""},         {10, "exponentialHistogram"}, {9, "histogram"}, {7, "sum"}, {5, "gauge"},
    {11, "summary"},
};

static llmm_status metric(llmm__ow *w, const llmm_otlp_metric *given)
{
    llmm_otlp_metric m;
    llmm_status st;
    size_t i;
    if ((st = LLMM__SIZED_GET(llmm_otlp_metric, &m, given)) != LLMM_OK ||
        (st = check_metric(&m)) != LLMM_OK)
        return st;
    llmm__ow_begin(w, 2, "metrics", LLMM__OW_REP);
    llmm__ow_string(w, 1, "name", m.name);
    if (m.description)
        llmm__ow_string(w, 2, "description", m.description);
    if (m.unit)
        llmm__ow_string(w, 3, "unit", m.unit);
    llmm__ow_begin(w, data_field[m.type].field, data_field[m.type].key, LLMM__OW_ONE);
    for (i = 0; i < m.point_count; i++) {
        llmm_otlp_point p;
        if ((st = LLMM__SIZED_GET(llmm_otlp_point, &p, llmm__otlp_elem(m.points, i))) != LLMM_OK ||
            (st = check_point(&m, &p)) != LLMM_OK || (st = point(w, &m, &p)) != LLMM_OK)
            return st;
    }
    if (is_histogram(m.type) || m.type == LLMM_OTLP_SUM)
        llmm__ow_enum(w, 2, "aggregationTemporality", (uint32_t)m.temporality);
    if (m.type == LLMM_OTLP_SUM)
        llmm__ow_bool(w, 3, "isMonotonic", m.monotonic);
    llmm__ow_end(w);
    llmm__ow_end(w);
    return LLMM_OK;
}

llmm_status llmm_export_otlp_metrics(const llmm_otlp_metrics_request *req,
                                     llmm_otlp_encoding encoding, uint8_t *buf, size_t cap,
                                     size_t *len)
{
    llmm_otlp_metrics_request r;
    llmm__sink out;
    llmm__ow w;
    llmm_status st;
    size_t i;

    if (!req || (st = llmm__otlp_check_common(encoding, buf, cap, len)) != LLMM_OK)
        return LLMM_E_INVALID;
    if ((st = LLMM__SIZED_GET(llmm_otlp_metrics_request, &r, req)) != LLMM_OK)
        return st;
    if ((st = llmm__otlp_check_scope(r.resource_attributes, r.scope_name, r.scope_version,
                                     r.scope_attributes)) != LLMM_OK ||
        (st = llmm__otlp_check_array(r.metrics, r.metric_count, LLMM_STRUCT_OTLP_METRIC)) !=
            LLMM_OK)
        return st;
    llmm__sink_fixed(&out, buf, cap);
    llmm__ow_init(&w, &out, encoding);
    llmm__ow_request_open(&w, "resourceMetrics", "scopeMetrics", r.resource_attributes,
                          r.scope_name, r.scope_version, r.scope_attributes);
    for (i = 0; i < r.metric_count && st == LLMM_OK; i++)
        st = metric(&w, llmm__otlp_elem(r.metrics, i));
    return llmm__ow_request_close(&w, st, len);
}
