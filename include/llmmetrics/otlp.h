/**
 * @file otlp.h
 * @brief OpenTelemetry (OTLP) requests: many metrics and points, and client spans, as
 * protobuf or JSON.
 *
 * llmm_export_otlp_metrics() writes a whole `ExportMetricsServiceRequest` (the body of an
 * OTLP/HTTP POST to `/v1/metrics`) and llmm_export_otlp_traces() a whole
 * `ExportTraceServiceRequest` (`/v1/traces`), each in the protobuf binary encoding
 * (#LLMM_OTLP_PROTOBUF, `Content-Type: application/x-protobuf`, the OTLP default) or in
 * OTLP/JSON (#LLMM_OTLP_JSON, `application/json`). Both encodings of one request decode to
 * the same message. The library only encodes bytes: sending them (HTTP, gzip, retries) is
 * the caller's (`llmm` has a sender, see the `examples/otlp_push.c` example).
 *
 * **Buffers** as everywhere in export.h: `(buf, cap, *len)`, #LLMM_E_BUFFER with the size
 * needed in `*len`, so `(NULL, 0)` asks for the size. Nothing is allocated except one sketch
 * clone per delta point that has an `earlier` snapshot (through the sketch's context).
 *
 * **The request is described by caller structs**, all caller-sized (llmm_struct_init()):
 * ::llmm_otlp_metrics_request → an array of ::llmm_otlp_metric → an array of
 * ::llmm_otlp_point per metric → an optional array of ::llmm_otlp_exemplar per point; and
 * ::llmm_otlp_traces_request → an array of ::llmm_otlp_span → an array of
 * ::llmm_otlp_attribute per span. **Arrays of caller-sized structs**: every element is set up
 * with its `_init` macro; the elements of one array must all carry the same `struct_size`,
 * which is also the array's stride (a C array of the struct satisfies both), so a program
 * built against these headers keeps working when a later release appends fields.
 *
 * **Layout.** One `ResourceMetrics` (resource attributes) holding one `ScopeMetrics` (scope
 * name, version and attributes; default name `libllmmetrics` and the library's version),
 * holding the metrics in the order given; traces alike (`ResourceSpans`, `ScopeSpans`).
 * Attribute lists of resource, scope, points and exemplars use the label-list syntax of
 * ::llmm_otlp_options (keys may contain `.` and `-`) and are string attributes; span
 * attributes are typed (::llmm_otlp_attribute).
 *
 * **Metric types.** Exponential histograms are the sketch itself (scale, offset and every
 * bucket as llmm_export_otlp_json_point() writes them, `unit_to_seconds` and `max_buckets`
 * as there); explicit-bucket histograms count the sketch per bound as the classic
 * Prometheus histograms do (export.h, "Classic histograms"), turned into per-bucket counts;
 * summaries carry count, sum and the sketch's quantiles; sums and gauges carry the point's
 * `value` as a double.
 *
 * **Encodings.** Protobuf writes every field of the message, also those equal to their
 * default, except `min` and `max` of an empty histogram (absent, as in the JSON form) and the
 * ids of an exemplar or parent span that are all zero (absent). JSON follows OTLP/JSON: keys
 * in lowerCamelCase, 64-bit integers as decimal strings, enums as numbers, trace and span ids
 * as lowercase hex (not base64), non-finite doubles as `"NaN"`, `"Infinity"`, `"-Infinity"`.
 *
 * Thread safety: no global state; the calls may run concurrently; the sketches of a request
 * must not be written during the call (export recorder snapshots).
 */
#ifndef LLMMETRICS_OTLP_H
#define LLMMETRICS_OTLP_H

#include "llmmetrics/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup otlp OTLP requests: metrics and spans, protobuf or JSON
 * @{
 */

/**
 * @brief The encoding of an OTLP request.
 * @since 1.2.0
 */
typedef enum llmm_otlp_encoding {
    /** Protobuf binary (`application/x-protobuf`), the OTLP/HTTP default. */
    LLMM_OTLP_PROTOBUF = 1,
    /** OTLP/JSON (`application/json`). */
    LLMM_OTLP_JSON = 2,
    /** @private keeps the enum int-sized */
    LLMM_OTLP_ENCODING_FORCE_INT_ = 0x7fffffff
} llmm_otlp_encoding;

/**
 * @brief The data type of an OTLP metric.
 * @since 1.2.0
 */
typedef enum llmm_otlp_metric_type {
    /** `ExponentialHistogram` of a sketch (the lossless form). */
    LLMM_OTLP_EXPONENTIAL_HISTOGRAM = 1,
    /** `Histogram` with explicit bounds, counted from a sketch. */
    LLMM_OTLP_HISTOGRAM = 2,
    /** `Sum` of the points' values (monotonic or not). */
    LLMM_OTLP_SUM = 3,
    /** `Gauge` of the points' values. */
    LLMM_OTLP_GAUGE = 4,
    /** `Summary`: count, sum and quantiles of a sketch. */
    LLMM_OTLP_SUMMARY = 5,
    /** @private keeps the enum int-sized */
    LLMM_OTLP_METRIC_TYPE_FORCE_INT_ = 0x7fffffff
} llmm_otlp_metric_type;

/**
 * @brief One exemplar of a point: a recorded value and the trace it belongs to.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_exemplar_init()); every field
 * defaults to 0.
 * @since 1.2.0
 */
typedef struct llmm_otlp_exemplar {
    uint32_t struct_size;    /**< caller-sized: set by llmm_otlp_exemplar_init() */
    double value;            /**< the recorded value (in the metric's exported unit) */
    uint64_t time_unix_nano; /**< when it was recorded */
    uint8_t trace_id[16];    /**< W3C trace id; all zero: none (the field is left out) */
    uint8_t span_id[8];      /**< span id; all zero: none (the field is left out) */
    /** `filtered_attributes` as a label list (see ::llmm_otlp_options), or NULL. */
    const char *attributes;
} llmm_otlp_exemplar;

/**
 * @brief Initialise a ::llmm_otlp_exemplar: every field 0.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_exemplar_init(e)                                                                 \
    LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_EXEMPLAR, llmm_otlp_exemplar, e)

/**
 * @brief One data point of a metric.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_point_init()); every field
 * defaults to 0 / NULL.
 * @since 1.2.0
 */
typedef struct llmm_otlp_point {
    uint32_t struct_size;          /**< caller-sized: set by llmm_otlp_point_init() */
    const char *attributes;        /**< point attributes as a label list, or NULL */
    uint64_t start_time_unix_nano; /**< start of the covered interval */
    uint64_t time_unix_nano;       /**< end of the covered interval */
    /** The data of a histogram or summary point (only read); NULL for sums and gauges. */
    const llmm_sketch *sketch;
    /** Histograms of delta temporality only: an earlier snapshot of the same series; the
     *  point is then `sketch − earlier` (llmm_sketch_subtract() on a clone), or NULL. */
    const llmm_sketch *earlier;
    double value; /**< the value of a sum or gauge point (`as_double`) */
    /** Exemplars of the point (histograms, sums, gauges; a summary has none), or NULL. */
    const llmm_otlp_exemplar *exemplars;
    size_t exemplar_count; /**< number of `exemplars` */
} llmm_otlp_point;

/**
 * @brief Initialise a ::llmm_otlp_point: every field 0 / NULL.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_point_init(p) LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_POINT, llmm_otlp_point, p)

/**
 * @brief One metric and its points.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_metric_init()); defaults are 0
 * / NULL except `temporality` (#LLMM_OTLP_CUMULATIVE) and `unit_to_seconds` (1).
 * @since 1.2.0
 */
typedef struct llmm_otlp_metric {
    uint32_t struct_size;       /**< caller-sized: set by llmm_otlp_metric_init() */
    const char *name;           /**< metric name, non-empty UTF-8 */
    const char *description;    /**< description (UTF-8), or NULL for none */
    const char *unit;           /**< unit (UTF-8, e.g. `"s"`, `"{request}"`), or NULL: none */
    llmm_otlp_metric_type type; /**< the data type; must be set */
    /** Histograms and sums: #LLMM_OTLP_CUMULATIVE (default) or #LLMM_OTLP_DELTA. */
    llmm_otlp_temporality temporality;
    int32_t monotonic; /**< sums: 1 for a monotonic sum (a counter), 0 otherwise */
    /** Histograms and summaries: factor from a recorded value to the exported unit
     *  (default 1; see export.h, "Units"). Exemplar values are not converted. */
    double unit_to_seconds;
    /** Exponential histograms: the largest number of buckets (0 = no limit; see
     *  ::llmm_otlp_options). */
    uint32_t max_buckets;
    /** Explicit-bucket histograms: the finite, strictly increasing bounds (NULL: the list
     *  #LLMM_BUCKETS_OTEL_GENAI_DURATION); summaries: the quantiles, each in [0, 1] (NULL:
     *  0.5, 0.9, 0.99). */
    const double *bounds;
    size_t bound_count;            /**< number of `bounds` */
    const llmm_otlp_point *points; /**< the points (see the file documentation on arrays) */
    size_t point_count;            /**< number of `points` */
} llmm_otlp_metric;

/**
 * @brief Initialise a ::llmm_otlp_metric: the defaults documented with the struct.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_metric_init(m) LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_METRIC, llmm_otlp_metric, m)

/**
 * @brief A whole metrics request: resource, scope and metrics.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_metrics_request_init()); every
 * field defaults to 0 / NULL.
 * @since 1.2.0
 */
typedef struct llmm_otlp_metrics_request {
    uint32_t struct_size;            /**< caller-sized: set by llmm_otlp_metrics_request_init() */
    const char *resource_attributes; /**< resource attributes as a label list, or NULL */
    const char *scope_name;          /**< instrumentation scope name; NULL: `"libllmmetrics"` */
    const char *scope_version;       /**< scope version; NULL: the library's version with the
                                       default name, none with a name of the caller's */
    const char *scope_attributes;    /**< scope attributes as a label list, or NULL */
    const llmm_otlp_metric *metrics; /**< the metrics (see the file documentation on arrays) */
    size_t metric_count;             /**< number of `metrics` */
} llmm_otlp_metrics_request;

/**
 * @brief Initialise a ::llmm_otlp_metrics_request: every field 0 / NULL.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_metrics_request_init(r)                                                          \
    LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_METRICS_REQUEST, llmm_otlp_metrics_request, r)

/**
 * @brief Write an `ExportMetricsServiceRequest` holding every metric and point of `r`.
 *
 * Per point: exponential histograms as llmm_export_otlp_json_point() (`count`, `sum`,
 * `scale`, `zero_count`, `positive` {`offset`, `bucket_counts`}, `min` and `max` when count >
 * 0, `zero_threshold`); explicit-bucket histograms `count`, `sum`, `bucket_counts` (one more
 * than the bounds: the last counts what lies above the last bound), `explicit_bounds`, `min`,
 * `max`; summaries `count`, `sum` and `quantile_values` (a quantile of an empty sketch is
 * NaN); sums and gauges `as_double`. Times, attributes and exemplars on every point type that
 * has them.
 * @param[in] r the request
 * @param[in] encoding #LLMM_OTLP_PROTOBUF or #LLMM_OTLP_JSON
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `r` or `len`, NULL `buf` with `cap` > 0, an unknown encoding,
 *         metric type or temporality, a NULL array with a count > 0, a NULL, empty or
 *         non-UTF-8 metric name, non-UTF-8 description, unit or scope text, a malformed
 *         attribute list, a histogram or summary point without a sketch, an `earlier` snapshot
 *         on a cumulative metric or on a sum, gauge or summary, bounds that are not finite and
 *         increasing, a quantile outside [0, 1], exemplars on a summary point, a factor
 *         that is not finite and > 0, an array whose elements differ in `struct_size`, or
 *         `earlier` of another scale or range
 * @retval LLMM_E_ABI a `struct_size` that is not a released size (see llmm_struct_init())
 * @retval LLMM_E_STATE an `earlier` snapshot is not contained in its sketch
 * @retval LLMM_E_RANGE as llmm_export_otlp_json_point(), or a bound times the factor is not
 *         representable
 * @retval LLMM_E_NOMEM cloning a sketch for a delta point failed
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.2.0
 * @note Thread-safe (the sketches are only read).
 */
LLMM_API llmm_status llmm_export_otlp_metrics(const llmm_otlp_metrics_request *r,
                                              llmm_otlp_encoding encoding, uint8_t *buf, size_t cap,
                                              size_t *len);

/**
 * @brief The type of a span attribute's value.
 * @since 1.2.0
 */
typedef enum llmm_otlp_value_type {
    LLMM_OTLP_STRING = 1, /**< `string_value` (UTF-8) */
    LLMM_OTLP_INT = 2,    /**< `int_value` */
    LLMM_OTLP_DOUBLE = 3, /**< `double_value` */
    /** @private keeps the enum int-sized */
    LLMM_OTLP_VALUE_TYPE_FORCE_INT_ = 0x7fffffff
} llmm_otlp_value_type;

/**
 * @brief One typed attribute of a span.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_attribute_init()); every field
 * defaults to 0 / NULL.
 * @since 1.2.0
 */
typedef struct llmm_otlp_attribute {
    uint32_t struct_size;      /**< caller-sized: set by llmm_otlp_attribute_init() */
    const char *key;           /**< attribute key, non-empty UTF-8 */
    llmm_otlp_value_type type; /**< which value field is written */
    const char *string_value;  /**< #LLMM_OTLP_STRING: the value (UTF-8) */
    int64_t int_value;         /**< #LLMM_OTLP_INT: the value */
    double double_value;       /**< #LLMM_OTLP_DOUBLE: the value */
} llmm_otlp_attribute;

/**
 * @brief Initialise a ::llmm_otlp_attribute: every field 0 / NULL.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_attribute_init(a)                                                                \
    LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_ATTRIBUTE, llmm_otlp_attribute, a)

/**
 * @brief The kind of a span (OTLP `Span.SpanKind`).
 * @since 1.2.0
 */
typedef enum llmm_otlp_span_kind {
    LLMM_OTLP_SPAN_INTERNAL = 1, /**< an internal operation */
    LLMM_OTLP_SPAN_SERVER = 2,   /**< the server side of a request */
    LLMM_OTLP_SPAN_CLIENT = 3,   /**< the client side of a request (default) */
    LLMM_OTLP_SPAN_PRODUCER = 4, /**< the sending side of an asynchronous message */
    LLMM_OTLP_SPAN_CONSUMER = 5, /**< the receiving side of an asynchronous message */
    /** @private keeps the enum int-sized */
    LLMM_OTLP_SPAN_KIND_FORCE_INT_ = 0x7fffffff
} llmm_otlp_span_kind;

/**
 * @brief The status of a span (OTLP `Status.StatusCode`).
 * @since 1.2.0
 */
typedef enum llmm_otlp_status_code {
    LLMM_OTLP_STATUS_UNSET = 0, /**< not set (default) */
    LLMM_OTLP_STATUS_OK = 1,    /**< the operation succeeded */
    LLMM_OTLP_STATUS_ERROR = 2, /**< the operation failed */
    /** @private keeps the enum int-sized */
    LLMM_OTLP_STATUS_CODE_FORCE_INT_ = 0x7fffffff
} llmm_otlp_status_code;

/**
 * @brief One span.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_span_init()); defaults are 0 /
 * NULL except `kind` (#LLMM_OTLP_SPAN_CLIENT).
 * @since 1.2.0
 */
typedef struct llmm_otlp_span {
    uint32_t struct_size;          /**< caller-sized: set by llmm_otlp_span_init() */
    uint8_t trace_id[16];          /**< W3C trace id, not all zero */
    uint8_t span_id[8];            /**< span id, not all zero */
    uint8_t parent_span_id[8];     /**< the parent's span id; all zero: a root span (left out) */
    const char *name;              /**< span name, non-empty UTF-8 */
    llmm_otlp_span_kind kind;      /**< default #LLMM_OTLP_SPAN_CLIENT */
    uint64_t start_time_unix_nano; /**< start */
    uint64_t end_time_unix_nano;   /**< end, ≥ start */
    const llmm_otlp_attribute *attributes; /**< typed attributes (an array), or NULL */
    size_t attribute_count;                /**< number of `attributes` */
    llmm_otlp_status_code status_code;     /**< default #LLMM_OTLP_STATUS_UNSET */
    const char *status_message;            /**< status message (UTF-8), or NULL for none */
} llmm_otlp_span;

/**
 * @brief Initialise a ::llmm_otlp_span: the defaults documented with the struct.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_span_init(s) LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_SPAN, llmm_otlp_span, s)

/**
 * @brief A whole traces request: resource, scope and spans.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_otlp_traces_request_init()); every
 * field defaults to 0 / NULL.
 * @since 1.2.0
 */
typedef struct llmm_otlp_traces_request {
    uint32_t struct_size;            /**< caller-sized: set by llmm_otlp_traces_request_init() */
    const char *resource_attributes; /**< resource attributes as a label list, or NULL */
    const char *scope_name;          /**< as in ::llmm_otlp_metrics_request */
    const char *scope_version;       /**< as in ::llmm_otlp_metrics_request */
    const char *scope_attributes;    /**< scope attributes as a label list, or NULL */
    const llmm_otlp_span *spans;     /**< the spans (see the file documentation on arrays) */
    size_t span_count;               /**< number of `spans` */
} llmm_otlp_traces_request;

/**
 * @brief Initialise a ::llmm_otlp_traces_request: every field 0 / NULL.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_otlp_traces_request_init(r)                                                           \
    LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_TRACES_REQUEST, llmm_otlp_traces_request, r)

/**
 * @brief Write an `ExportTraceServiceRequest` holding every span of `r`.
 *
 * Per span: `trace_id`, `span_id`, `parent_span_id` (when not all zero), `name`, `kind`,
 * `start_time_unix_nano`, `end_time_unix_nano`, `attributes` (string, int or double values)
 * and `status` {`message` when given, `code`}.
 * @param[in] r the request
 * @param[in] encoding #LLMM_OTLP_PROTOBUF or #LLMM_OTLP_JSON
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `r` or `len`, NULL `buf` with `cap` > 0, an unknown encoding,
 *         span kind, status code or value type, a NULL array with a count > 0, an all-zero
 *         trace or span id, an end before the start, a NULL, empty or non-UTF-8 name or
 *         attribute key, a non-UTF-8 string value or message, a malformed attribute list, or
 *         an array whose elements differ in `struct_size`
 * @retval LLMM_E_ABI a `struct_size` that is not a released size (see llmm_struct_init())
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_export_otlp_traces(const llmm_otlp_traces_request *r,
                                             llmm_otlp_encoding encoding, uint8_t *buf, size_t cap,
                                             size_t *len);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_OTLP_H */
