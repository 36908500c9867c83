/**
 * @file export.h
 * @brief Prometheus text, OpenMetrics (since 1.2.0, with exemplars) and protobuf (native
 * histograms) and OpenTelemetry JSON export; exemplar stores and W3C trace context.
 *
 * Every encoder writes into a caller buffer (`buf`, `cap`, `*len`): when the output needs more
 * than `cap` bytes the call returns #LLMM_E_BUFFER with the needed size in `*len` (the
 * contents of `buf` are then unspecified), so `(NULL, 0)` asks for the size. Output is never
 * NUL-terminated. Nothing here allocates except ::llmm_prom_writer (through its context) and
 * the OTLP delta form (one sketch clone through the sketch's context).
 *
 * **Buckets.** A sketch's buckets are the OpenTelemetry base-2 exponential buckets
 * (base = 2^(2^−scale), bucket `i` = (base^i, base^(i+1)]), so they export as an OTLP
 * `ExponentialHistogram` point (scale = sketch scale) and as a Prometheus native histogram
 * (schema = scale, Prometheus bucket index = OpenTelemetry index + 1) without loss. Prometheus
 * accepts schemas −4 … 8 only: a sketch of scale 9 or 10 is exported at schema 8 by the exact
 * downscaling rule (index `i` → `i >> (scale − 8)`, counts added).
 *
 * **Units.** Every exporter takes `unit_to_seconds`, the factor that turns a recorded value
 * into the exported unit (1e-3 for a sketch recorded in milliseconds; 1 when the sketch was
 * recorded in seconds or is not a time at all). Record in seconds when you can:
 * - factor 1 or any power of two (2^k): native / OTLP buckets are exactly the sketch's
 *   buckets, shifted by k·2^scale indices (multiplying by 2^k moves every bucket bound onto
 *   another bucket bound); count, sum, min and max are exact;
 * - any other factor: each sketch bucket is moved, whole, into the exported bucket that holds
 *   its logarithmic midpoint times the factor. A value may then be reported in the bucket
 *   next to the one its converted value belongs to (error within one bucket); count is exact
 *   and sum, min and max are the exact values times the factor (rounded once).
 *
 * **Zero, underflow, overflow.** Exact zeros and the values below the sketch's range
 * (llmm_sketch_special_counts()) are exported as the zero bucket: `zero_count` = zeros +
 * underflow, `zero_threshold` = the lower bound of the range's first bucket times the factor
 * (always > 0; every underflow value is at or below it). Values above the range are not
 * dropped: their count is added to the bucket that holds the range's upper bound, so count
 * and sum stay exact while quantiles that fall among them read as that bucket (the sketch
 * itself answers them with the range bound as well).
 *
 * **Classic histograms** (cumulative `le` buckets) are computed from the sketch buckets:
 * the count at a bound `b` is the number of values whose bucket's upper bound (times the
 * factor) is ≤ `b`, plus zeros and underflow; bounds at or above the exact maximum get the
 * full count and bounds below the exact minimum get 0. A bound that falls on a bucket bound
 * (e.g. any power of two at any scale) therefore gets the exact count; a bound that falls
 * inside a bucket misses at most the values of that one bucket. `le` labels and `quantile`
 * labels are spelled as Prometheus spells them after a protobuf scrape (Go's shortest
 * `%g` form with `.0` appended to whole numbers: `1.0`, `0.005`, `1e+06`, `+Inf`), so a
 * series keeps its identity whichever format Prometheus scraped.
 *
 * **Bounded classic layouts.** Every classic bucket is a Prometheus series, so a classic
 * exposition never writes more than a bounded number of `le` bounds per histogram. A
 * histogram family given no bounds of its own gets one of two layouts (the writer's
 * setting, see llmm_prom_writer_set_classic_list() and llmm_prom_writer_set_classic_max()):
 * - a fixed bucket list (default: #LLMM_BUCKETS_OTEL_GENAI_DURATION): the same `le` set on
 *   every scrape and every instance, so fleet-wide `sum by (le)` is exact; a series costs
 *   list length + 3 samples (`+Inf`, `_sum`, `_count`);
 * - the sketch's own bucket grid, downscaled (bucket `j` at scale − k merges the buckets
 *   j·2^k … (j+1)·2^k − 1) until the lower bound of the first non-empty bucket and the upper
 *   bound of every bucket from there to the last non-empty one number at most N (the
 *   OpenTelemetry `max_size` idea). Every count is then exact (zeros and underflow count at
 *   every bound, overflow only at `+Inf`, as in the native form), but the `le` set follows the
 *   data: it widens as new values arrive (up to N + 3 samples per scrape; each widening past
 *   N halves the resolution and replaces the series), and two instances share it only when
 *   their data span the same buckets.
 * The native histogram (protobuf) stays the lossless form: one series per histogram.
 *
 * **Labels** are passed preformatted, as in the text format, without braces:
 * `model="m\"x",gpu="0"`. Names match `[a-zA-Z_][a-zA-Z0-9_]*` and must not start with `__`;
 * values are UTF-8 and escape only `\\`, `\"` and `\n` (llmm_prom_label_escape() produces
 * them); pairs are separated by a single comma, no spaces, no trailing comma, no duplicate
 * names. NULL and `""` mean no labels. A malformed list is #LLMM_E_INVALID. Histograms
 * reserve `le` and summaries `quantile`.
 *
 * Thread safety: no global state. The free functions may run concurrently on any threads;
 * a sketch being exported must not be written at the same time (export a recorder
 * snapshot); a ::llmm_prom_writer is used by one thread at a time.
 */
#ifndef LLMMETRICS_EXPORT_H
#define LLMMETRICS_EXPORT_H

#include "llmmetrics/sketch.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup export Export: Prometheus text / protobuf, OpenTelemetry JSON
 * @{
 */

/**
 * @brief Write one complete Prometheus text (0.0.4) family for a sketch: `# HELP`,
 * `# TYPE histogram` and one classic-histogram series.
 *
 * The `le` bounds are the sketch's own bucket bounds (times `unit_to_seconds`) in the
 * downscaled grid layout of the file documentation with at most 160 finite bounds (since
 * 1.1.0; 1.0 wrote one bound per touched bucket, without limit): the lower bound of the
 * first non-empty bucket, the upper bound of every bucket up to the last non-empty one, then
 * `+Inf`; followed by `name_sum` and `name_count`. Every cumulative count is therefore exact,
 * and Prometheus' `histogram_quantile` interpolates inside one (downscaled) bucket. Zeros and
 * underflow values count at every bound, overflow values only in `+Inf`. The set of `le` values depends on the data; for a fixed
 * bucket list (fleet-wide aggregation with `sum by (le)`) or native histograms use
 * ::llmm_prom_writer.
 * @param[in] s the sketch (not written during the call)
 * @param[in] name metric family name, `[a-zA-Z_:][a-zA-Z0-9_:]*`
 * @param[in] labels preformatted label list (see the file documentation), or NULL
 * @param[in] unit_to_seconds factor applied to every value, finite and > 0
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf` in bytes
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `s`, `name` or `len`, NULL `buf` with `cap` > 0, a malformed
 *         name or label list, a `le` label, or a factor that is not finite and > 0
 * @retval LLMM_E_RANGE a bound times the factor is not a finite positive double
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.0.0
 * @note Thread-safe (the sketch is only read).
 */
LLMM_API llmm_status llmm_export_prometheus_text(const llmm_sketch *s, const char *name,
                                                 const char *labels, double unit_to_seconds,
                                                 uint8_t *buf, size_t cap, size_t *len);

/**
 * @brief Escape one label value for a preformatted label list: `\` → `\\`, `"` → `\"`,
 * newline → `\n`; every other byte is copied.
 * @param[in] value NUL-terminated UTF-8 string
 * @param[out] buf output buffer (no terminating NUL is written; may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf` in bytes
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `value` or `len`, NULL `buf` with `cap` > 0, or `value` is
 *         not valid UTF-8
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_prom_label_escape(const char *value, uint8_t *buf, size_t cap,
                                            size_t *len);

/**
 * @brief Exposition format of a ::llmm_prom_writer (int-sized).
 * @since 1.0.0
 */
typedef enum llmm_prom_format {
    /** Text format 0.0.4 (`text/plain; version=0.0.4; charset=utf-8`). */
    LLMM_PROM_TEXT = 0,
    /** Length-delimited `io.prometheus.client.MetricFamily` protobuf messages: the only
     *  format that carries native histograms. */
    LLMM_PROM_PROTOBUF = 1,
    /** OpenMetrics 1.0 text (`application/openmetrics-text; version=1.0.0; charset=utf-8`):
     *  the 0.0.4 families with OpenMetrics' names (a counter family is named without its
     *  `_total` suffix, its sample with it), exemplars on classic buckets and counters, and
     *  a final `# EOF` line. Chosen only by llmm_prom_negotiate_openmetrics(), never by
     *  llmm_prom_negotiate(). @since 1.2.0 */
    LLMM_PROM_OPENMETRICS = 2,
    /** @private keeps the enum int-sized */
    LLMM_PROM_FORMAT_FORCE_INT_ = 0x7fffffff
} llmm_prom_format;

/**
 * @brief Metric family types of a ::llmm_prom_writer (int-sized).
 * @since 1.0.0
 */
typedef enum llmm_prom_type {
    /** Monotonic counter: series by llmm_prom_writer_value(). */
    LLMM_PROM_COUNTER = 0,
    /** Gauge: series by llmm_prom_writer_value(). */
    LLMM_PROM_GAUGE = 1,
    /** Summary at the family's quantiles (plus `_sum`, `_count`): series by
     *  llmm_prom_writer_sketch(). */
    LLMM_PROM_SUMMARY = 2,
    /** Classic histogram at the family's bucket bounds (`_bucket` with cumulative `le`,
     *  `+Inf`, `_sum`, `_count`); no bounds = the writer's bounded classic layout (a named
     *  list, by default #LLMM_BUCKETS_OTEL_GENAI_DURATION, or the downscaled grid: see
     *  llmm_prom_writer_set_classic_list()). Series by llmm_prom_writer_sketch(). */
    LLMM_PROM_HISTOGRAM = 3,
    /** Native histogram in #LLMM_PROM_PROTOBUF (schema = scale capped at 8, spans and
     *  deltas, zero bucket with a positive threshold; the family's bounds, if any, are sent
     *  as classic buckets too, which Prometheus 2.42 ignores; without bounds no classic
     *  buckets are sent). In #LLMM_PROM_TEXT, which has no native histograms, the family is
     *  written exactly as #LLMM_PROM_HISTOGRAM (the bounded classic fallback). Series by
     *  llmm_prom_writer_sketch(). */
    LLMM_PROM_NATIVE_HISTOGRAM = 4,
    /** @private keeps the enum int-sized */
    LLMM_PROM_TYPE_FORCE_INT_ = 0x7fffffff
} llmm_prom_type;

/**
 * @brief A Prometheus exposition under construction: many families, many labelled series
 * per family (opaque).
 *
 * Usage per scrape: llmm_prom_negotiate() on the request's `Accept` header,
 * llmm_prom_writer_reset() with the chosen format, then for each family
 * llmm_prom_writer_family() followed by its series (llmm_prom_writer_value() or
 * llmm_prom_writer_sketch()), then llmm_prom_writer_finish() or llmm_prom_writer_data().
 * The writer keeps its memory between scrapes. Families must have distinct names; a
 * family's `# HELP` / `# TYPE` (or protobuf header) is written once. In protobuf a family
 * without series is left out.
 * @since 1.0.0
 */
typedef struct llmm_prom_writer llmm_prom_writer;

/**
 * @brief Create an empty writer.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] format #LLMM_PROM_TEXT, #LLMM_PROM_PROTOBUF or (since 1.2.0)
 *            #LLMM_PROM_OPENMETRICS
 * @param[out] out the new writer, or NULL on failure; free it with llmm_prom_writer_free()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `out` or an unknown format
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_prom_writer_new(llmm_ctx *ctx, llmm_prom_format format,
                                          llmm_prom_writer **out);

/**
 * @brief Free a writer. NULL is a no-op.
 * @param[in] w the writer
 * @since 1.0.0
 * @note Not thread-safe: no other call may use the writer meanwhile.
 */
LLMM_API void llmm_prom_writer_free(llmm_prom_writer *w);

/**
 * @brief Drop everything written and start a new exposition in `format`; memory is kept.
 * @param[in,out] w the writer
 * @param[in] format #LLMM_PROM_TEXT, #LLMM_PROM_PROTOBUF or (since 1.2.0)
 *            #LLMM_PROM_OPENMETRICS
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w` or an unknown format (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_reset(llmm_prom_writer *w, llmm_prom_format format);

/**
 * @brief Start a new metric family (ending the current one).
 *
 * `points` depends on the type: counters and gauges take none; a summary takes its
 * quantiles (each in [0, 1], no duplicates, any order, at least one); histograms take bucket
 * upper bounds in the exported unit (finite, strictly increasing; `+Inf` is always added),
 * for instance from llmm_prom_buckets(), or none for the writer's bounded classic layout in
 * force at this call (llmm_prom_writer_set_classic_list(), llmm_prom_writer_set_classic_max()).
 * The points are copied.
 * @param[in,out] w the writer
 * @param[in] name family name, `[a-zA-Z_:][a-zA-Z0-9_:]*`, not used by an earlier family
 *            since the last reset (for histograms and summaries the series names add
 *            `_bucket`, `_sum`, `_count`)
 * @param[in] help help text (UTF-8, any characters; escaped as the format requires), or NULL
 *            for none
 * @param[in] type the family type
 * @param[in] points quantiles or bucket bounds as described above (NULL when `npoints` is 0)
 * @param[in] npoints number of points
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w`, a malformed name, help that is not UTF-8, an unknown
 *         type, or points that break the rules above (nothing changed)
 * @retval LLMM_E_STATE a family of that name was already written since the last reset
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_family(llmm_prom_writer *w, const char *name,
                                             const char *help, llmm_prom_type type,
                                             const double *points, size_t npoints);

/**
 * @brief Add one series to the current counter or gauge family.
 * @param[in,out] w the writer
 * @param[in] labels preformatted label list, or NULL
 * @param[in] value the value: finite; ≥ 0 for a counter
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w`, a malformed label list, or a bad value (nothing changed)
 * @retval LLMM_E_STATE no family is open, or it is not a counter or gauge
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_value(llmm_prom_writer *w, const char *labels, double value);

/**
 * @brief Add one series, computed from a sketch, to the current summary or histogram family.
 *
 * A summary gets the family's quantiles by llmm_sketch_quantile() (NaN for an empty
 * sketch), `_sum` and `_count`; a classic histogram gets cumulative counts as described in
 * the file documentation; a native histogram (protobuf) gets the sketch's buckets, lossless
 * for a factor of 1 or a power of two; an empty sketch gives a valid empty native histogram.
 * @param[in,out] w the writer
 * @param[in] labels preformatted label list, or NULL (`le` is reserved in histogram
 *            families, `quantile` in summaries)
 * @param[in] s the sketch (only read)
 * @param[in] unit_to_seconds factor applied to every value, finite and > 0
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w` or `s`, a malformed label list or a bad factor (nothing
 *         changed)
 * @retval LLMM_E_STATE no family is open, or it is a counter or gauge
 * @retval LLMM_E_RANGE the factor moves a bucket outside what the format can represent
 *         (nothing changed)
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer; the sketch must not be written meanwhile.
 */
LLMM_API llmm_status llmm_prom_writer_sketch(llmm_prom_writer *w, const char *labels,
                                             const llmm_sketch *s, double unit_to_seconds);

/**
 * @brief End the current family and copy the whole exposition into `buf`.
 *
 * The writer keeps its contents: calling again gives the same bytes, and further families
 * may be added (but no more series to the ended family). In #LLMM_PROM_OPENMETRICS the
 * output ends with the `# EOF` line; a family added later goes before it.
 * @param[in,out] w the writer
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w` or `len`, or NULL `buf` with `cap` > 0
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed (the family stays
 *         open)
 * @retval LLMM_E_NOMEM (OpenMetrics only) no room for `# EOF` in a writer that never held
 *         a family
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_finish(llmm_prom_writer *w, uint8_t *buf, size_t cap,
                                             size_t *len);

/**
 * @brief End the current family and give read access to the exposition without copying
 * (in #LLMM_PROM_OPENMETRICS, ending with `# EOF`).
 * @param[in,out] w the writer
 * @param[out] data the bytes, owned by the writer and valid until its next call
 * @param[out] len number of bytes
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM (OpenMetrics only) no room for `# EOF` in a writer that never held
 *         a family
 * @since 1.0.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_data(llmm_prom_writer *w, const uint8_t **data, size_t *len);

/**
 * @brief Choose the exposition format for an HTTP `Accept` header.
 *
 * Protobuf is chosen only when the header offers
 * `application/vnd.google.protobuf` with `proto=io.prometheus.client.MetricFamily` and
 * `encoding=delimited` at a quality (`q`) higher than every text type it also accepts
 * (`text/plain`, the `text` wildcard or the full wildcard; ties go to the earlier entry), as Prometheus does with
 * `--enable-feature=native-histograms`. Anything else, a missing or unparsable header
 * included, gives text. OpenMetrics is not produced (llmm_prom_negotiate_openmetrics()
 * chooses it).
 * @param[in] accept the header value, or NULL
 * @param[out] format the chosen format
 * @param[out] content_type the exact `Content-Type` to answer with (a static string), or NULL
 *             if not wanted
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `format`
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_prom_negotiate(const char *accept, llmm_prom_format *format,
                                         const char **content_type);

/**
 * @brief The `Content-Type` of a format.
 * @param[in] format a format
 * @return a static string (`"text/plain; version=0.0.4; charset=utf-8"`,
 *         `"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily;
 *         encoding=delimited"` or, since 1.2.0, `"application/openmetrics-text;
 *         version=1.0.0; charset=utf-8"`), or NULL for an unknown format
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_prom_content_type(llmm_prom_format format);

/**
 * @brief Named classic bucket lists (int-sized), in seconds unless noted.
 * @since 1.0.0
 */
typedef enum llmm_bucket_list {
    /** vLLM (v1 engine) `vllm:time_to_first_token_seconds`: 0.001 … 2560 (22 bounds). */
    LLMM_BUCKETS_VLLM_TTFT = 0,
    /** vLLM (v1 engine) `vllm:inter_token_latency_seconds` / `time_per_output_token`:
     *  0.01 … 80 (19 bounds). */
    LLMM_BUCKETS_VLLM_INTER_TOKEN = 1,
    /** vLLM (v1 engine) `vllm:e2e_request_latency_seconds` (and queue / prefill / decode /
     *  inference time): 0.3 … 7680 (21 bounds). */
    LLMM_BUCKETS_VLLM_REQUEST_LATENCY = 2,
    /** OpenTelemetry GenAI semantic conventions, `gen_ai.client.operation.duration` and
     *  `gen_ai.server.request.duration`: 0.01 · 2^k, k = 0 … 13 (0.01 … 81.92). */
    LLMM_BUCKETS_OTEL_GENAI_DURATION = 3,
    /** OpenTelemetry GenAI `gen_ai.server.time_to_first_token`: 0.001 … 10 (16 bounds). */
    LLMM_BUCKETS_OTEL_GENAI_TTFT = 4,
    /** OpenTelemetry GenAI `gen_ai.server.time_per_output_token`: 0.01 … 2.5 (13 bounds). */
    LLMM_BUCKETS_OTEL_GENAI_TPOT = 5,
    /** OpenTelemetry GenAI `gen_ai.client.token.usage` (tokens, not seconds):
     *  4^k, k = 0 … 13 (1 … 67108864). */
    LLMM_BUCKETS_OTEL_GENAI_TOKENS = 6,
    /** @private keeps the enum int-sized */
    LLMM_BUCKETS_FORCE_INT_ = 0x7fffffff
} llmm_bucket_list;

/**
 * @brief Copy a named bucket list (ascending upper bounds, without `+Inf`).
 * @param[in] which the list
 * @param[out] out array receiving the bounds (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `out` in elements
 * @param[out] n number of bounds written, or needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID unknown list, NULL `n`, or NULL `out` with `cap` > 0
 * @retval LLMM_E_BUFFER `cap` is too small; `*n` holds the number of bounds
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_prom_buckets(llmm_bucket_list which, double *out, size_t cap, size_t *n);

/**
 * @brief Classic buckets from a named list for the histogram families without bounds of their
 * own that start after this call (the default, with #LLMM_BUCKETS_OTEL_GENAI_DURATION).
 *
 * Applies to the classic buckets of #LLMM_PROM_HISTOGRAM families (text and protobuf) and to
 * the text form of #LLMM_PROM_NATIVE_HISTOGRAM families; the native buckets are not affected.
 * Each series costs the list's length + 3 samples on every scrape, the same `le` set on
 * every instance. The setting survives llmm_prom_writer_reset(); the last of this call and
 * llmm_prom_writer_set_classic_max() wins.
 * @param[in,out] w the writer
 * @param[in] which the list (see llmm_prom_buckets())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w` or an unknown list (nothing changed)
 * @since 1.1.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_set_classic_list(llmm_prom_writer *w, llmm_bucket_list which);

/**
 * @brief Classic buckets from each sketch's own bucket grid, downscaled to at most
 * `max_bounds` finite `le` bounds, for the histogram families without bounds of their own
 * that start after this call.
 *
 * The layout is described in the file documentation: exact counts at every bound, at most
 * `max_bounds` + 3 samples per series and scrape, a `le` set that follows the data (so
 * instances with different data get different sets: prefer a list for fleet-wide
 * `sum by (le)`). Applies where llmm_prom_writer_set_classic_list() does; the setting
 * survives llmm_prom_writer_reset(); the last of the two calls wins.
 * @param[in,out] w the writer
 * @param[in] max_bounds the bound, ≥ 3 (160 is OpenTelemetry's default `max_size`)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `w` or `max_bounds` below 3 (nothing changed)
 * @since 1.1.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_set_classic_max(llmm_prom_writer *w, uint32_t max_bounds);

/**
 * @brief OTLP aggregation temporality (values as in OTLP's `AggregationTemporality`).
 * @since 1.0.0
 */
typedef enum llmm_otlp_temporality {
    /** Each point covers (start, time] only. */
    LLMM_OTLP_DELTA = 1,
    /** Each point covers everything since a fixed start. */
    LLMM_OTLP_CUMULATIVE = 2,
    /** @private keeps the enum int-sized */
    LLMM_OTLP_TEMPORALITY_FORCE_INT_ = 0x7fffffff
} llmm_otlp_temporality;

/**
 * @brief Options of the OTLP JSON exporters.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_otlp_options {
    uint32_t struct_size;          /**< caller-sized: set by llmm_otlp_options_init() */
    uint64_t start_time_unix_nano; /**< start of the covered interval (default 0) */
    uint64_t time_unix_nano;       /**< end of the covered interval (default 0) */
    double unit_to_seconds;        /**< factor applied to every value (default 1) */
    /** Largest number of positive buckets (default 0 = no limit, OTel SDKs use 160): the
     *  scale is lowered by exact downscaling, down to −10, until the buckets fit. */
    uint32_t max_buckets;
    /** #LLMM_OTLP_CUMULATIVE (default) or #LLMM_OTLP_DELTA. */
    llmm_otlp_temporality temporality;
    /** Point attributes as a preformatted label list whose keys may also contain `.` and
     *  `-` (`gen_ai.request.model="m"`), or NULL. Exported as string attributes. */
    const char *attributes;
    /** Metric description (request form only), or NULL. */
    const char *description;
    /** Metric unit (request form only); NULL gives `"s"`. */
    const char *unit;
    /** Resource attributes (request form only), same syntax as `attributes`, or NULL. */
    const char *resource_attributes;
} llmm_otlp_options;

/**
 * @brief Initialise a ::llmm_otlp_options: the defaults documented with each field.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] o the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `o` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_otlp_options_init(llmm_otlp_options *o);
/** @cond LLMM_INTERNAL */
#define llmm_otlp_options_init(o) LLMM_SIZED_INIT_(LLMM_STRUCT_OTLP_OPTIONS, llmm_otlp_options, o)
/** @endcond */

/**
 * @brief Write one OTLP/JSON `ExponentialHistogramDataPoint` object.
 *
 * Fields (OTLP/JSON rules: lowerCamelCase keys, 64-bit integers as decimal strings, enums as
 * integers): `attributes`, `startTimeUnixNano`, `timeUnixNano`, `count`, `sum`, `scale`,
 * `zeroCount`, `positive` {`offset`, `bucketCounts`} (every bucket from the first to the last
 * non-empty one), `min` and `max` (when count > 0), `zeroThreshold`. Non-finite doubles are
 * written as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
 *
 * With `earlier` (delta temporality only) the point is `s − earlier` as computed by
 * llmm_sketch_subtract() on a clone of `s` (both must be snapshots of one series: same scale
 * and range, `earlier` contained in `s`).
 * @param[in] s the sketch (only read)
 * @param[in] earlier an earlier snapshot to subtract, or NULL
 * @param[in] o options, or NULL for the defaults
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `s` or `len`, NULL `buf` with `cap` > 0, a bad option
 *         (factor, temporality, attribute list), `earlier` with cumulative temporality, or
 *         `earlier` of another scale or range
 * @retval LLMM_E_ABI `o->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_STATE `earlier` is not contained in `s`
 * @retval LLMM_E_RANGE no scale down to −10 fits `max_buckets`, or the factor moves a bucket
 *         outside what the format can represent
 * @retval LLMM_E_NOMEM cloning `s` for the delta failed
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.0.0
 * @note Thread-safe (the sketches are only read).
 */
LLMM_API llmm_status llmm_export_otlp_json_point(const llmm_sketch *s, const llmm_sketch *earlier,
                                                 const llmm_otlp_options *o, uint8_t *buf,
                                                 size_t cap, size_t *len);

/**
 * @brief Write a complete OTLP/JSON `ExportMetricsServiceRequest` (the body of a POST to
 * `/v1/metrics` with `Content-Type: application/json`) holding one metric with one
 * exponential-histogram point.
 *
 * Layout: `resourceMetrics[0]` {`resource` {`attributes`}, `scopeMetrics[0]` {`scope`
 * {`name`: "libllmmetrics", `version`}, `metrics[0]` {`name`, `description`, `unit`,
 * `exponentialHistogram` {`dataPoints`: [the point of llmm_export_otlp_json_point()],
 * `aggregationTemporality`}}}}.
 * @param[in] s the sketch (only read)
 * @param[in] earlier an earlier snapshot to subtract, or NULL (see
 *            llmm_export_otlp_json_point())
 * @param[in] name metric name (non-empty UTF-8)
 * @param[in] o options, or NULL for the defaults
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written, or bytes needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID as llmm_export_otlp_json_point(), a NULL, empty or non-UTF-8
 *         `name`, or a non-UTF-8 `description` or `unit`
 * @retval LLMM_E_ABI `o->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_STATE `earlier` is not contained in `s`
 * @retval LLMM_E_RANGE as llmm_export_otlp_json_point()
 * @retval LLMM_E_NOMEM cloning `s` for the delta failed
 * @retval LLMM_E_BUFFER `cap` is too small; `*len` holds the size needed
 * @since 1.0.0
 * @note Thread-safe (the sketches are only read).
 */
LLMM_API llmm_status llmm_export_otlp_json(const llmm_sketch *s, const llmm_sketch *earlier,
                                           const char *name, const llmm_otlp_options *o,
                                           uint8_t *buf, size_t cap, size_t *len);

/** @} */

/**
 * @defgroup exemplars Exemplars: the trace of a request, beside its sketch
 *
 * An exemplar ties one recorded value to the trace of the request that produced it, so that
 * an operator can go from a latency panel to the trace of a slow request. A
 * ::llmm_exemplars object lives beside a sketch or recorder (recording into a sketch is not
 * affected: llmm_sketch_add() knows nothing of exemplars) and keeps **one exemplar per
 * bucket** of a fixed layout chosen at creation: `nbounds` upper bounds `b[0] < … <
 * b[n−1]`, in the unit the values are recorded in, give `n + 1` slots, slot `i` holding the
 * values in (`b[i−1]`, `b[i]`] (slot 0 everything ≤ `b[0]`, slot `n` everything above
 * `b[n−1]`). Give it the bounds of the classic histogram it will be exported with (divided
 * by the export's `unit_to_seconds`) and every non-empty classic bucket gets an exemplar.
 *
 * **Memory bound:** at most #LLMM_EXEMPLAR_BOUNDS_MAX bounds; each writer shard holds
 * `(nbounds + 1)` slots of 120 bytes (so at most 30 KiB per shard), allocated when the
 * shard is handed out; nothing grows afterwards.
 *
 * An exemplar is a value (recorded unit), an optional 16-byte trace id and 8-byte span id
 * (W3C / OpenTelemetry ids; all-zero means absent), a **wall-clock** time in Unix
 * nanoseconds (unlike the library's monotonic `now_ns`: exemplar times are compared with
 * trace times), and an optional preformatted label list (export.h syntax, at most
 * #LLMM_EXEMPLAR_LABELS_MAX − 1 bytes, names other than `trace_id` and `span_id`). With the
 * ids written as `trace_id` and `span_id` labels, the names and values of all labels
 * together stay within OpenMetrics' limit of 128 characters.
 *
 * **Which exemplar a slot keeps** is the caller's choice (::llmm_exemplar_keep): the latest
 * (by its time), or the largest recorded since the last llmm_exemplars_roll(). Reading or
 * exporting never changes the state (a scrape resets nothing).
 *
 * **Many writers:** as with ::llmm_recorder, each writer thread takes its own
 * ::llmm_exemplar_shard (llmm_exemplars_shard()) and records without locks; readers
 * (llmm_exemplars_get(), the ::llmm_prom_writer) may run at any time, concurrently with the
 * writers, and see each exemplar whole (a per-slot sequence counter), never torn. For a
 * slot, the reader chooses among the shards by the keep rule.
 *
 * **Export.** llmm_prom_writer_sketch_exemplars() and llmm_prom_writer_value_exemplar() add
 * them to an exposition: in #LLMM_PROM_OPENMETRICS on every classic `_bucket` line whose
 * bucket holds one (and on counter samples); in #LLMM_PROM_PROTOBUF on classic buckets and
 * counters, and for a native histogram (which has no classic buckets) as the one exemplar
 * Prometheus 2.42 reads (on a classic `+Inf` bucket entry, the best by the keep rule) plus
 * every exemplar in `Histogram.exemplars`, read by newer servers. Text 0.0.4 cannot carry
 * exemplars and leaves them out. Exported values are multiplied by `unit_to_seconds` like
 * the sketch's; times are written as Unix seconds with a fraction.
 * @{
 */

/** Largest number of bounds of a ::llmm_exemplars layout. @since 1.2.0 */
#define LLMM_EXEMPLAR_BOUNDS_MAX 255
/** Size of ::llmm_exemplar::labels: a label list of at most this − 1 bytes. @since 1.2.0 */
#define LLMM_EXEMPLAR_LABELS_MAX 64

/**
 * @brief Which exemplar a slot keeps (int-sized).
 * @since 1.2.0
 */
typedef enum llmm_exemplar_keep {
    /** The one with the latest time (of equal times, the one recorded last). */
    LLMM_EXEMPLAR_LATEST = 0,
    /** The largest value recorded since the last llmm_exemplars_roll() (the first one after
     *  a roll replaces the older interval's); ties keep the earlier. */
    LLMM_EXEMPLAR_MAX = 1,
    /** @private keeps the enum int-sized */
    LLMM_EXEMPLAR_KEEP_FORCE_INT_ = 0x7fffffff
} llmm_exemplar_keep;

/**
 * @brief One exemplar as read back (caller-sized: see llmm_struct_init()).
 * @since 1.2.0
 */
typedef struct llmm_exemplar {
    uint32_t struct_size;    /**< caller-sized: set by llmm_exemplar_init() */
    uint32_t reserved_;      /**< @private always 0 */
    double value;            /**< the value, in the recorded unit */
    uint64_t time_unix_nano; /**< wall-clock time in Unix nanoseconds (0 = none given) */
    uint8_t trace_id[16];    /**< trace id, all zero when absent */
    uint8_t span_id[8];      /**< span id, all zero when absent */
    /** Extra labels as a NUL-terminated preformatted list (`""` for none). */
    char labels[LLMM_EXEMPLAR_LABELS_MAX];
} llmm_exemplar;

/**
 * @brief Initialise a ::llmm_exemplar (all zero; caller-sized: see llmm_struct_init()).
 * @param[out] e the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `e` is NULL
 * @retval LLMM_E_ABI `sizeof` the caller's struct is not a released size
 * @since 1.2.0
 * @note Thread-safe. A macro only (no exported symbol of this name).
 */
#define llmm_exemplar_init(e) LLMM_SIZED_INIT_(LLMM_STRUCT_EXEMPLAR, llmm_exemplar, e)

/** The exemplars of one series (opaque). @since 1.2.0 */
typedef struct llmm_exemplars llmm_exemplars;
/** A single-writer shard of a ::llmm_exemplars (opaque, owned by it). @since 1.2.0 */
typedef struct llmm_exemplar_shard llmm_exemplar_shard;

/**
 * @brief Create an exemplar store with `nbounds + 1` slots.
 * @param[in] ctx allocation context, or NULL for libc (its allocator must be thread-safe
 *            when shards are taken from several threads)
 * @param[in] bounds slot upper bounds in the recorded unit: finite, strictly increasing
 *            (copied; NULL when `nbounds` is 0: one slot for every value)
 * @param[in] nbounds number of bounds, at most #LLMM_EXEMPLAR_BOUNDS_MAX
 * @param[in] keep which exemplar a slot keeps
 * @param[out] out the store, or NULL on failure; free it with llmm_exemplars_free()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `out`, NULL `bounds` with `nbounds` > 0, bounds not finite
 *         and strictly increasing, too many bounds, or an unknown `keep`
 * @retval LLMM_E_NOMEM
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_exemplars_new(llmm_ctx *ctx, const double *bounds, size_t nbounds,
                                        llmm_exemplar_keep keep, llmm_exemplars **out);

/**
 * @brief Free a store and all its shards. NULL is a no-op.
 * @param[in] ex the store
 * @since 1.2.0
 * @note Only when no other call on the store or its shards is running.
 */
LLMM_API void llmm_exemplars_free(llmm_exemplars *ex);

/**
 * @brief Hand out a shard for the calling writer thread: a released one if there is one,
 * else a new one.
 * @param[in,out] ex the store
 * @param[out] out the shard, valid until llmm_exemplars_free(); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_exemplars_shard(llmm_exemplars *ex, llmm_exemplar_shard **out);

/**
 * @brief Give a shard back; its exemplars stay in the store and it may be handed out again.
 * NULL is a no-op.
 * @param[in] sh the shard
 * @since 1.2.0
 * @note Thread-safe; the shard's writer must have stopped using it.
 */
LLMM_API void llmm_exemplar_shard_release(llmm_exemplar_shard *sh);

/**
 * @brief Offer one exemplar to the slot of its value; the slot keeps it or its current one
 * by the store's keep rule.
 * @param[in,out] sh the shard
 * @param[in] value the value (finite), in the recorded unit
 * @param[in] trace_id 16 bytes, not all zero, or NULL for none
 * @param[in] span_id 8 bytes, not all zero, or NULL for none
 * @param[in] time_unix_nano wall-clock time in Unix nanoseconds (0: none)
 * @param[in] labels preformatted label list (see the file documentation), shorter than
 *            #LLMM_EXEMPLAR_LABELS_MAX bytes, without `trace_id` or `span_id`, or NULL
 * @retval LLMM_OK (kept or not)
 * @retval LLMM_E_INVALID NULL `sh`, a value that is not finite, an all-zero id, a malformed
 *         or too long label list, or more than 128 characters of label names and values
 *         with the ids (nothing changed)
 * @since 1.2.0
 * @note Single writer per shard; concurrent with readers.
 */
LLMM_API llmm_status llmm_exemplar_shard_record(llmm_exemplar_shard *sh, double value,
                                                const uint8_t *trace_id, const uint8_t *span_id,
                                                uint64_t time_unix_nano, const char *labels);

/**
 * @brief Start a new interval for #LLMM_EXEMPLAR_MAX: the next exemplar of each slot
 * replaces the one it holds, whatever its value. Nothing is erased; a no-op for
 * #LLMM_EXEMPLAR_LATEST.
 * @param[in,out] ex the store
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `ex`
 * @since 1.2.0
 * @note Thread-safe, concurrent with writers (an exemplar recorded during the call belongs
 *       to either interval).
 */
LLMM_API llmm_status llmm_exemplars_roll(llmm_exemplars *ex);

/**
 * @brief Number of slots (`nbounds + 1`).
 * @param[in] ex the store
 * @return the number of slots, 0 for NULL
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API uint32_t llmm_exemplars_slots(const llmm_exemplars *ex);

/**
 * @brief Read the exemplar a slot holds (chosen among the shards by the keep rule).
 * @param[in] ex the store
 * @param[in] slot slot index, below llmm_exemplars_slots()
 * @param[out] e the exemplar (set up with llmm_exemplar_init())
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY no exemplar was ever recorded in the slot (`e` unchanged)
 * @retval LLMM_E_INVALID a NULL argument or `slot` out of range
 * @retval LLMM_E_ABI `e->struct_size` is not a released size
 * @since 1.2.0
 * @note Thread-safe, concurrent with writers.
 */
LLMM_API llmm_status llmm_exemplars_get(const llmm_exemplars *ex, uint32_t slot, llmm_exemplar *e);

/**
 * @brief Add one histogram or summary series, as llmm_prom_writer_sketch(), with the
 * exemplars of `ex` where the format carries them (see the group documentation).
 *
 * In #LLMM_PROM_OPENMETRICS and in protobuf's classic buckets, each bucket (`lo`, `le`] gets
 * the best exemplar (by `ex`'s keep rule) whose value times `unit_to_seconds` lies in it;
 * summaries and 0.0.4 text carry none.
 * @param[in,out] w the writer
 * @param[in] labels preformatted label list, or NULL
 * @param[in] s the sketch (not written during the call)
 * @param[in] unit_to_seconds factor applied to every value and exemplar value
 * @param[in] ex the exemplars (read only; writers may keep recording), or NULL for none
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID as llmm_prom_writer_sketch()
 * @retval LLMM_E_STATE as llmm_prom_writer_sketch()
 * @retval LLMM_E_RANGE as llmm_prom_writer_sketch()
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.2.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_sketch_exemplars(llmm_prom_writer *w, const char *labels,
                                                       const llmm_sketch *s, double unit_to_seconds,
                                                       const llmm_exemplars *ex);

/**
 * @brief Add one counter series, as llmm_prom_writer_value(), with one exemplar (written in
 * #LLMM_PROM_OPENMETRICS and #LLMM_PROM_PROTOBUF; its value is written as it is).
 * @param[in,out] w the writer
 * @param[in] labels preformatted label list, or NULL
 * @param[in] value the counter value, finite and ≥ 0
 * @param[in] e the exemplar (for instance from llmm_exemplars_get()), or NULL for none
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID as llmm_prom_writer_value(), or an exemplar whose value is not
 *         finite or whose labels break the rules of llmm_exemplar_shard_record()
 * @retval LLMM_E_ABI `e->struct_size` is not a released size
 * @retval LLMM_E_STATE no family is open, or it is not a counter
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.2.0
 * @note Not thread-safe: one thread per writer.
 */
LLMM_API llmm_status llmm_prom_writer_value_exemplar(llmm_prom_writer *w, const char *labels,
                                                     double value, const llmm_exemplar *e);

/**
 * @brief Choose the exposition format for an HTTP `Accept` header, OpenMetrics included.
 *
 * As llmm_prom_negotiate(), with `application/openmetrics-text` (version `1.0.0`, `0.0.1`
 * or none) as a third candidate: the entry with the highest quality wins, ties going to the
 * earlier entry. Prometheus asks for protobuf first with native histograms enabled, and for
 * OpenMetrics first without. A missing or unparsable header gives 0.0.4 text.
 * @param[in] accept the header value, or NULL
 * @param[out] format the chosen format
 * @param[out] content_type the exact `Content-Type` to answer with (static), or NULL
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL `format`
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_prom_negotiate_openmetrics(const char *accept, llmm_prom_format *format,
                                                     const char **content_type);

/**
 * @brief Parse a W3C Trace Context `traceparent` header (`00-<32 hex>-<16 hex>-<2 hex>`).
 *
 * Lower-case hex only; version `ff`, an all-zero trace or parent id, or a version `00`
 * header of another length is invalid. A later version is accepted when its first four
 * fields have the version-00 form and anything after them starts with `-`, as the
 * specification asks.
 * @param[in] header the header value (surrounding spaces and tabs are ignored)
 * @param[out] trace_id 16 bytes: the trace id
 * @param[out] span_id 8 bytes: the parent (span) id
 * @param[out] flags the trace flags (bit 0: sampled), or NULL
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument (other than `flags`) or a malformed header (the
 *         outputs are unchanged)
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_traceparent_parse(const char *header, uint8_t *trace_id, uint8_t *span_id,
                                            uint8_t *flags);

/**
 * @brief Write a version-00 `traceparent` value (55 bytes, no NUL).
 * @param[in] trace_id 16 bytes, not all zero
 * @param[in] span_id 8 bytes, not all zero
 * @param[in] flags the trace flags
 * @param[out] buf output buffer (may be NULL when `cap` is 0)
 * @param[in] cap capacity of `buf`
 * @param[out] len bytes written (55), or needed on #LLMM_E_BUFFER
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL id or `len`, NULL `buf` with `cap` > 0, or an all-zero id
 * @retval LLMM_E_BUFFER `cap` is below 55
 * @since 1.2.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_traceparent_format(const uint8_t *trace_id, const uint8_t *span_id,
                                             uint8_t flags, uint8_t *buf, size_t cap, size_t *len);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_EXPORT_H */
