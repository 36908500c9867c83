/* OTLP/JSON export of a sketch as an ExponentialHistogram data point.
 *
 * OTLP/JSON is the proto3 JSON mapping of opentelemetry/proto/metrics/v1/metrics.proto with
 * OTLP's rules: keys in lowerCamelCase, 64-bit integers (fixed64 count / zero_count /
 * timestamps, uint64 bucket counts) as decimal strings, 32-bit integers (scale, offset) and
 * enums (aggregationTemporality: DELTA 1, CUMULATIVE 2) as numbers, doubles as numbers or
 * "NaN" / "Infinity" / "-Infinity". OTLP buckets use the same index as the sketch:
 * bucket i = (base^i, base^(i+1)], base = 2^(2^-scale), so the point is the sketch. */
#include <string.h>

#include "core/abi.h"
#include "export/export_internal.h"

void llmm__otlp_options_defaults(void *full)
{
    llmm_otlp_options *o = full;
    o->unit_to_seconds = 1.0;
    o->temporality = LLMM_OTLP_CUMULATIVE;
}

static llmm_status check_options(const llmm_otlp_options *o, const llmm_sketch *earlier)
{
    llmm_status st;
    if (!llmm__factor_valid(o->unit_to_seconds))
        return LLMM_E_INVALID;
    if (o->temporality != LLMM_OTLP_DELTA && o->temporality != LLMM_OTLP_CUMULATIVE)
        return LLMM_E_INVALID;
    if (earlier && o->temporality != LLMM_OTLP_DELTA)
        return LLMM_E_INVALID;
    if ((st = llmm__labels_check(o->attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK ||
        (st = llmm__labels_check(o->resource_attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK)
        return st;
    if ((o->description && !llmm__utf8_valid(o->description, strlen(o->description))) ||
        (o->unit && !llmm__utf8_valid(o->unit, strlen(o->unit))))
        return LLMM_E_INVALID;
    return LLMM_OK;
}

static void key(llmm__sink *s, const char *k)
{
    llmm__putc(s, '"');
    llmm__puts(s, k);
    llmm__puts(s, "\":");
}

static void str_u64(llmm__sink *s, uint64_t v)
{
    llmm__putc(s, '"');
    llmm__put_u64(s, v);
    llmm__putc(s, '"');
}

static void json_text(llmm__sink *s, const char *z)
{
    llmm__putc(s, '"');
    llmm__put_json_text(s, z, strlen(z));
    llmm__putc(s, '"');
}

static void attributes(llmm__sink *s, const char *list)
{
    size_t pos = 0;
    llmm__label l;
    int first = 1;
    key(s, "attributes");
    llmm__putc(s, '[');
    while (llmm__labels_next(list, &pos, &l)) {
        if (!first)
            llmm__putc(s, ',');
        first = 0;
        llmm__puts(s, "{\"key\":\"");
        llmm__put_json_text(s, l.name, l.name_len);
        llmm__puts(s, "\",\"value\":{\"stringValue\":\"");
        llmm__put_json_unescaped(s, l.value, l.value_len);
        llmm__puts(s, "\"}}");
    }
    llmm__putc(s, ']');
}

static llmm_status point(llmm__sink *s, const llmm_sketch *sk, const llmm_otlp_options *o)
{
    llmm__native n;
    int64_t idx, next = 0;
    uint64_t cnt;
    int first = 1;
    llmm_status st =
        llmm__native_init(&n, sk, o->unit_to_seconds, LLMM_SCALE_MAX, -10, o->max_buckets);
    if (st != LLMM_OK)
        return st;
    if (n.has_buckets && (n.first_e < INT32_MIN || n.last_e > INT32_MAX))
        return LLMM_E_RANGE;
    llmm__putc(s, '{');
    attributes(s, o->attributes);
    llmm__putc(s, ',');
    key(s, "startTimeUnixNano");
    str_u64(s, o->start_time_unix_nano);
    llmm__putc(s, ',');
    key(s, "timeUnixNano");
    str_u64(s, o->time_unix_nano);
    llmm__putc(s, ',');
    key(s, "count");
    str_u64(s, n.count);
    llmm__putc(s, ',');
    key(s, "sum");
    /* all values are >= 0; a delta's sum can only dip below 0 by rounding */
    llmm__put_json_double(s, n.sum < 0 ? 0.0 : n.sum);
    llmm__putc(s, ',');
    key(s, "scale");
    llmm__put_i64(s, n.scale);
    llmm__putc(s, ',');
    key(s, "zeroCount");
    str_u64(s, n.zero_count);
    llmm__putc(s, ',');
    key(s, "positive");
    llmm__putc(s, '{');
    key(s, "offset");
    llmm__put_i64(s, n.has_buckets ? n.first_e : 0);
    llmm__putc(s, ',');
    key(s, "bucketCounts");
    llmm__putc(s, '[');
    next = n.first_e;
    while (llmm__native_next(&n, &idx, &cnt)) {
        for (; next <= idx; next++) { /* empty buckets in between are listed as "0" */
            if (!first)
                llmm__putc(s, ',');
            first = 0;
            str_u64(s, next == idx ? cnt : 0);
        }
    }
    llmm__puts(s, "]}");
    if (n.count) {
        llmm__putc(s, ',');
        key(s, "min");
        llmm__put_json_double(s, n.min);
        llmm__putc(s, ',');
        key(s, "max");
        llmm__put_json_double(s, n.max);
    }
    llmm__putc(s, ',');
    key(s, "zeroThreshold");
    llmm__put_json_double(s, n.threshold);
    llmm__putc(s, '}');
    return LLMM_OK;
}

static void request_open(llmm__sink *s, const char *name, const llmm_otlp_options *o)
{
    llmm__puts(s, "{\"resourceMetrics\":[{\"resource\":{");
    attributes(s, o->resource_attributes);
    llmm__puts(s, "},\"scopeMetrics\":[{\"scope\":{\"name\":\"libllmmetrics\",\"version\":");
    json_text(s, llmm_version_string());
    llmm__puts(s, "},\"metrics\":[{");
    key(s, "name");
    json_text(s, name);
    if (o->description) {
        llmm__putc(s, ',');
        key(s, "description");
        json_text(s, o->description);
    }
    llmm__putc(s, ',');
    key(s, "unit");
    json_text(s, o->unit ? o->unit : "s");
    llmm__puts(s, ",\"exponentialHistogram\":{\"dataPoints\":[");
}

static void request_close(llmm__sink *s, const llmm_otlp_options *o)
{
    llmm__puts(s, "],\"aggregationTemporality\":");
    llmm__put_i64(s, o->temporality);
    llmm__puts(s, "}}]}]}]}");
}

static llmm_status export_json(const llmm_sketch *s, const llmm_sketch *earlier, const char *name,
                               const llmm_otlp_options *opt, uint8_t *buf, size_t cap, size_t *len)
{
    llmm_otlp_options full; /* the caller's options, with defaults for what they lack */
    const llmm_otlp_options *o = &full;
    llmm_sketch *delta = NULL;
    llmm__sink out;
    llmm_status st;

    if (!s || !len || (!buf && cap))
        return LLMM_E_INVALID;
    if (!opt)
        LLMM__SIZED_DEFAULTS(llmm_otlp_options, &full);
    else if ((st = LLMM__SIZED_GET(llmm_otlp_options, &full, opt)) != LLMM_OK)
        return st;
    if ((st = check_options(o, earlier)) != LLMM_OK)
        return st;
    if (earlier) {
        if ((st = llmm_sketch_clone(s, &delta)) != LLMM_OK)
            return st;
        if ((st = llmm_sketch_subtract(delta, earlier)) != LLMM_OK) {
            llmm_sketch_free(delta);
            return st;
        }
        s = delta;
    }
    llmm__sink_fixed(&out, buf, cap);
    if (name)
        request_open(&out, name, o);
    st = point(&out, s, o);
    if (name)
        request_close(&out, o);
    llmm_sketch_free(delta);
    if (st != LLMM_OK)
        return st;
    *len = out.len;
    return llmm__sink_status(&out);
}

llmm_status llmm_export_otlp_json_point(const llmm_sketch *s, const llmm_sketch *earlier,
                                        const llmm_otlp_options *o, uint8_t *buf, size_t cap,
                                        size_t *len)
{
    return export_json(s, earlier, NULL, o, buf, cap, len);
}

llmm_status llmm_export_otlp_json(const llmm_sketch *s, const llmm_sketch *earlier,
                                  const char *name, const llmm_otlp_options *o, uint8_t *buf,
                                  size_t cap, size_t *len)
{
    if (!name || !name[0] || !llmm__utf8_valid(name, strlen(name)))
        return LLMM_E_INVALID;
    return export_json(s, earlier, name, o, buf, cap, len);
}
