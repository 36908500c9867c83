/**
 * @file slo.h
 * @brief SLO checks, goodput, error-budget burn rates and the error-share trigger.
 *
 * Everything of doc/spec.md §2:
 * - the online SLO check, `satisfied = (p95 ≤ p95_max) && (error_rate ≤ err_max)` with
 *   `error_rate = errors / (successes + errors)`, over a sketch of successful latencies
 *   (llmm_slo_check()) or over a time window (::llmm_slo_window);
 * - goodput as vLLM's benchmark defines it: a request is good when it succeeded and meets every
 *   per-request SLO given (TTFT, TPOT, end-to-end latency), reported as a fraction of all
 *   requests and as vLLM's rate, good requests per second (::llmm_goodput);
 * - multi-window error-budget burn-rate alerts as in the Google SRE workbook (fast: 1 h and
 *   5 min at 14.4×, slow: 6 h and 30 min at 6×) (::llmm_burn);
 * - an error-share window driving a "5xx share over the last 5 min > 5 %" self-healing trigger
 *   (::llmm_error_trigger).
 *
 * Units. The library has no unit-dependent defaults: latency thresholds are passed in the unit
 * the latencies were recorded in (the seed's check is p95 ≤ 800 with latencies in ms, or
 * p95 ≤ 0.8 with latencies in s). Time stamps and durations are `uint64_t` nanoseconds on the
 * caller's monotonic clock, under the rules of window.h (time never goes backwards; spans round
 * up to whole slots; the current slot is still filling).
 *
 * Quantiles follow the nearest-rank rule of sketch.h (doc/spec.md §5): the q-quantile of n values
 * is the value of rank max(1, ceil(q·n)), q·n within 1e-9 of an integer counting as that
 * integer. The p95 of 10 latencies is therefore the largest (rank 10); of 20, the 19th. Rank 1
 * and rank n are exact, other ranks carry the sketch's relative error (0.542 % at the default
 * scale), and the threshold is compared with that estimate.
 *
 * Thread safety: there is no global state. The free functions are thread-safe. Each object
 * is used by one thread at a time (queries advance its clock, so they count as writes); it may
 * move between threads, and different objects may be used concurrently.
 */
#ifndef LLMMETRICS_SLO_H
#define LLMMETRICS_SLO_H

#include "llmmetrics/detect.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup slo_check SLO: latency quantile and error rate
 * @{
 */

/**
 * @brief The verdict of an SLO check.
 *
 * With no successful request the latency is +Inf and the check is not satisfied, whatever the
 * error rate. With no request at all `error_rate` is 0 (and the check, having no success, is
 * not satisfied).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_slo_result {
    uint32_t struct_size; /**< caller-sized: set by llmm_slo_result_init() */
    int32_t satisfied;    /**< 1 when `latency_ok` and `errors_ok`, else 0 */
    int32_t latency_ok;   /**< 1 when there was a success and `latency` ≤ the latency bound */
    int32_t errors_ok;    /**< 1 when `error_rate` ≤ the error-rate bound */
    uint64_t successes;   /**< successful requests (the latencies' count) */
    uint64_t errors;      /**< failed requests */
    double quantile;      /**< the quantile level checked (0.95 for llmm_slo_check()) */
    double latency;       /**< that quantile of the successful latencies (`p95` of
                               doc/spec.md §2); +Inf when there was no success */
    double error_rate;    /**< errors / (successes + errors); 0 when there was no request */
} llmm_slo_result;

/**
 * @brief Initialise a ::llmm_slo_result: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_slo_result_init(llmm_slo_result *r);
/** @cond LLMM_INTERNAL */
#define llmm_slo_result_init(r) LLMM_SIZED_INIT_(LLMM_STRUCT_SLO_RESULT, llmm_slo_result, r)
/** @endcond */

/**
 * @brief The online SLO check of doc/spec.md §2 over a sketch of successful latencies.
 *
 * `satisfied = (p95 ≤ p95_max) && (errors / (successes + errors) ≤ err_max)`, where the
 * successes are the values in `ok_latencies` (failed requests contribute no latency) and the
 * p95 is the sketch's nearest-rank quantile 0.95. No success: p95 = +Inf, not satisfied. Both
 * comparisons include equality: 1 error in 100 requests meets err_max = 0.01.
 * @param[in] ok_latencies the latencies of the successful requests
 * @param[in] errors the number of failed requests
 * @param[in] p95_max the latency bound, in the sketch's unit: finite, ≥ 0
 * @param[in] err_max the error-rate bound, in [0, 1]
 * @param[in,out] r the verdict; `r->struct_size` set by llmm_slo_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL pointer, a bound NaN, infinite or out of its range; `r` not
 *         written
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_RANGE successes + errors overflows 2^64 − 1
 * @since 1.0.0
 * @note Thread-safe as long as no one writes `ok_latencies` concurrently.
 */
LLMM_API llmm_status llmm_slo_check(const llmm_sketch *ok_latencies, uint64_t errors,
                                    double p95_max /* in the sketch's unit */, double err_max,
                                    llmm_slo_result *r);

/**
 * @brief The SLO check at any quantile level (llmm_slo_check() is this with q = 0.95).
 * @param[in] ok_latencies the latencies of the successful requests
 * @param[in] errors the number of failed requests
 * @param[in] q the quantile level, in [0, 1] (0 the minimum, 1 the maximum)
 * @param[in] latency_max the bound for that quantile, in the sketch's unit: finite, ≥ 0
 * @param[in] err_max the error-rate bound, in [0, 1]
 * @param[in,out] r the verdict; `r->struct_size` set by llmm_slo_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL pointer, `q` or a bound NaN, infinite or out of its range;
 *         `r` not written
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_RANGE successes + errors overflows 2^64 − 1
 * @since 1.0.0
 * @note Thread-safe as long as no one writes `ok_latencies` concurrently.
 */
LLMM_API llmm_status llmm_slo_check_quantile(const llmm_sketch *ok_latencies, uint64_t errors,
                                             double q, double latency_max, double err_max,
                                             llmm_slo_result *r);

/** @} */

/**
 * @defgroup slo_window SLO: the same check over a time window
 *
 * A ::llmm_slo_window records each request as it completes: the latency of a success into a
 * ring of per-slot sketches (a ::llmm_window), and every request, failed or not, into a ring
 * of (errors, requests) counters (a ::llmm_ratio_window) on the same slots. A check over a span
 * merges the latencies of the slots the span covers and counts their errors and requests, then
 * applies the rule of llmm_slo_check_quantile(): the verdict is exactly the one
 * llmm_slo_check_quantile() gives for the successes and errors recorded in those slots.
 *
 * Callers who keep their own ::llmm_window of successful latencies reach the same result with
 * llmm_window_snapshot() into a sketch followed by llmm_slo_check().
 *
 * The object's clock follows the rules of window.h: every call that takes `now_ns` accepts it
 * when it succeeds, and an earlier time stamp than the latest accepted is #LLMM_E_INVALID.
 * @{
 */

/**
 * @brief Successful latencies and error counts over a time ring (opaque).
 * @since 1.0.0
 */
typedef struct llmm_slo_window llmm_slo_window;

/**
 * @brief Create an empty SLO window.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] slot_ns slot length in nanoseconds, or 0 for #LLMM_WINDOW_SLOT_NS_DEFAULT (1 s)
 * @param[in] slots number of slots, 1 … #LLMM_WINDOW_SLOTS_MAX, or 0 for
 *            #LLMM_WINDOW_SLOTS_DEFAULT (60)
 * @param[in] scale sketch scale (#LLMM_SCALE_DEFAULT or #LLMM_SCALE_MIN … #LLMM_SCALE_MAX)
 * @param[out] out the new window, owned by the caller (llmm_slo_window_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL, `slots` above #LLMM_WINDOW_SLOTS_MAX, `scale` out of
 *         bounds, or `slot_ns · slots` does not fit in 64 bits
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_slo_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots,
                                         int32_t scale, llmm_slo_window **out);

/**
 * @brief Free an SLO window. NULL is a no-op.
 * @param[in] w the window
 * @since 1.0.0
 * @note Not thread-safe: no other call on `w` may run concurrently.
 */
LLMM_API void llmm_slo_window_free(llmm_slo_window *w);

/**
 * @brief Record a successful request and its latency at time `now_ns`.
 * @param[in,out] w the window
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] latency the latency, finite and ≥ 0, in the unit of the bounds checked later
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `w` NULL, `latency` NaN, infinite or negative, or time going
 *         backwards; nothing changed
 * @retval LLMM_E_RANGE 2^64 − 1 requests recorded since creation or the last reset
 * @retval LLMM_E_NOMEM a sketch could not grow; nothing changed
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_slo_window_add(llmm_slo_window *w, uint64_t now_ns, double latency);

/**
 * @brief Record `errors` failed requests at time `now_ns` (0 only advances the clock).
 * @param[in,out] w the window
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] errors the number of failed requests
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `w` NULL or time going backwards; nothing changed
 * @retval LLMM_E_RANGE the requests recorded since creation or the last reset would exceed
 *         2^64 − 1; nothing changed
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_slo_window_add_errors(llmm_slo_window *w, uint64_t now_ns,
                                                uint64_t errors);

/**
 * @brief The SLO check over the slots a span covers (see llmm_slo_check_quantile()).
 *
 * Pass q = 0.95 for the check of doc/spec.md §2. An idle span (no request) gives a result that is
 * not satisfied, with latency +Inf and error rate 0.
 * @param[in,out] w the window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] span_ns 1 … slot length × slots; rounds up to whole slots (window.h)
 * @param[in] q the quantile level, in [0, 1]
 * @param[in] latency_max the latency bound, in the recorded unit: finite, ≥ 0
 * @param[in] err_max the error-rate bound, in [0, 1]
 * @param[in,out] r the verdict; `r->struct_size` set by llmm_slo_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL pointer, `q` or a bound NaN, infinite or out of its range,
 *         `span_ns` 0, or time going backwards; nothing changed
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_RANGE `span_ns` longer than the ring; nothing changed
 * @retval LLMM_E_NOMEM the internal scratch sketch could not grow; nothing changed
 * @since 1.0.0
 * @note Not thread-safe: advances the window's clock and uses its scratch sketch.
 */
LLMM_API llmm_status llmm_slo_window_check(llmm_slo_window *w, uint64_t now_ns, uint64_t span_ns,
                                           double q, double latency_max, double err_max,
                                           llmm_slo_result *r);

/**
 * @brief Forget every request and the clock: the window is as new.
 * @param[in,out] w the window
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `w` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_slo_window_reset(llmm_slo_window *w);

/** @} */

/**
 * @defgroup goodput SLO: goodput (vLLM's definition)
 *
 * vLLM's serving benchmark counts a request as good when it completed successfully and each
 * per-request SLO that was given holds, `value ≤ bound` (equality is good), for time to first
 * token (TTFT), time per output token (TPOT) and end-to-end latency (E2E); SLOs not given are
 * not checked. It reports `request_goodput = good / duration` in requests per second, the
 * duration being the benchmark's wall time. ::llmm_goodput counts requests under that rule and
 * reports both that rate and the fraction of all requests (failed ones included) that were
 * good. TPOT is vLLM's per-request value, `(e2e − ttft) / (output tokens − 1)`, and 0 for a
 * request with at most one output token (llmm_goodput_tpot()).
 * @{
 */

/**
 * @brief Per-request SLO bounds of a ::llmm_goodput, for llmm_goodput_set_f64().
 *
 * Each is a bound in the caller's latency unit, or +Inf for "not checked". Bounds and
 * defaults: @ref options_reference (llmm_option_describe() with #LLMM_KIND_GOODPUT).
 * @since 1.0.0
 */
typedef enum llmm_goodput_option {
    LLMM_GOODPUT_TTFT_MAX = 1,                  /**< bound on the time to first token */
    LLMM_GOODPUT_TPOT_MAX = 2,                  /**< bound on the time per output token */
    LLMM_GOODPUT_E2E_MAX = 3,                   /**< bound on the end-to-end latency */
    LLMM_GOODPUT_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_goodput_option;

/**
 * @brief Goodput over the requests counted.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_goodput_result {
    uint32_t struct_size;    /**< caller-sized: set by llmm_goodput_result_init() */
    uint32_t reserved_;      /**< @private padding, always 0 */
    uint64_t requests;       /**< all requests: completed + failed */
    uint64_t completed;      /**< requests that completed successfully */
    uint64_t good;           /**< completed requests meeting every SLO given */
    double fraction;         /**< goodput as a fraction: good / requests, in [0, 1] */
    double rate_per_s;       /**< goodput as vLLM's rate: good requests per second of the
                                  duration (vLLM's `request_goodput`) */
    double throughput_per_s; /**< completed requests per second of the duration (vLLM's
                                  `request_throughput`) */
} llmm_goodput_result;

/**
 * @brief Per-request SLO bounds and good / completed / failed request counts (opaque).
 * @since 1.0.0
 */
typedef struct llmm_goodput llmm_goodput;

/**
 * @brief Initialise a ::llmm_goodput_result: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_goodput_result_init(llmm_goodput_result *r);
/** @cond LLMM_INTERNAL */
#define llmm_goodput_result_init(r)                                                                \
    LLMM_SIZED_INIT_(LLMM_STRUCT_GOODPUT_RESULT, llmm_goodput_result, r)
/** @endcond */

/**
 * @brief vLLM's per-request time per output token: `(e2e − ttft) / (output_tokens − 1)` when
 * there are at least two output tokens, else 0.
 * @param[in] e2e the end-to-end latency, finite, ≥ `ttft`
 * @param[in] ttft the time to first token, finite, ≥ 0
 * @param[in] output_tokens the number of output tokens
 * @param[out] tpot receives the TPOT, in the unit of `e2e`
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `tpot` NULL, a latency NaN, infinite or negative, or `e2e` < `ttft`;
 *         nothing written
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_goodput_tpot(double e2e, double ttft, uint64_t output_tokens,
                                       double *tpot);

/**
 * @brief Create a goodput counter with no SLO set (every completed request is good until
 * bounds are set).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[out] out the new counter, owned by the caller (llmm_goodput_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_goodput_new(llmm_ctx *ctx, llmm_goodput **out);

/**
 * @brief Free a goodput counter. NULL is a no-op.
 * @param[in] g the counter
 * @since 1.0.0
 * @note Not thread-safe: no other call on `g` may run concurrently.
 */
LLMM_API void llmm_goodput_free(llmm_goodput *g);

/**
 * @brief Set a per-request SLO bound. Only while no request has been counted (after creation
 * or llmm_goodput_reset()), so that every request counted is judged by the same bounds.
 * @param[in,out] g the counter
 * @param[in] opt the bound
 * @param[in] value finite and ≥ 0, or +Inf to stop checking this metric
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` NULL or `value` NaN
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @retval LLMM_E_RANGE `value` negative
 * @retval LLMM_E_STATE requests were already counted
 * @since 1.0.0
 * @note Not thread-safe on the same counter.
 */
LLMM_API llmm_status llmm_goodput_set_f64(llmm_goodput *g, llmm_goodput_option opt, double value);

/**
 * @brief Read a per-request SLO bound (+Inf when not checked).
 * @param[in] g the counter
 * @param[in] opt the bound
 * @param[out] value receives the bound
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same counter.
 */
LLMM_API llmm_status llmm_goodput_get_f64(const llmm_goodput *g, llmm_goodput_option opt,
                                          double *value);

/**
 * @brief Count one successfully completed request and judge it against the bounds.
 * @param[in,out] g the counter
 * @param[in] ttft its time to first token (finite, ≥ 0; pass 0 if not measured and not
 *            checked)
 * @param[in] tpot its time per output token (finite, ≥ 0; see llmm_goodput_tpot())
 * @param[in] e2e its end-to-end latency (finite, ≥ 0)
 * @param[out] good receives 1 when the request is good, else 0 (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` NULL, or a latency NaN, infinite or negative; nothing counted
 * @retval LLMM_E_RANGE 2^64 − 1 requests already counted; nothing counted
 * @since 1.0.0
 * @note Not thread-safe on the same counter.
 */
LLMM_API llmm_status llmm_goodput_observe(llmm_goodput *g, double ttft, double tpot, double e2e,
                                          int32_t *good);

/**
 * @brief Count `n` failed requests (never good).
 * @param[in,out] g the counter
 * @param[in] n how many
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` is NULL
 * @retval LLMM_E_RANGE the request count would exceed 2^64 − 1; nothing counted
 * @since 1.0.0
 * @note Not thread-safe on the same counter.
 */
LLMM_API llmm_status llmm_goodput_add_failures(llmm_goodput *g, uint64_t n);

/**
 * @brief Goodput of the requests counted, as a fraction and as a rate over `duration_ns`.
 * @param[in] g the counter
 * @param[in] duration_ns the wall time the requests were served in (vLLM: the benchmark
 *            duration), in nanoseconds, > 0
 * @param[in,out] r the result; `r->struct_size` set by llmm_goodput_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` or `r` NULL, or `duration_ns` 0; `r` not written
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no request counted; `r` not written
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same counter.
 */
LLMM_API llmm_status llmm_goodput_read(const llmm_goodput *g, uint64_t duration_ns,
                                       llmm_goodput_result *r);

/**
 * @brief Forget the counts; the bounds stay.
 * @param[in,out] g the counter
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `g` is NULL
 * @since 1.0.0
 * @note Not thread-safe on the same counter.
 */
LLMM_API llmm_status llmm_goodput_reset(llmm_goodput *g);

/** @} */

/**
 * @defgroup burn SLO: multi-window error-budget burn-rate alerts
 *
 * For an SLO target T (say 0.999: at most 0.1 % of requests may fail), the error budget is
 * 1 − T and the burn rate of a window is `error_rate / (1 − T)`: 1 spends the budget exactly
 * over the SLO period, 14.4 spends 2 % of a 30-day budget in one hour. Following the Google SRE
 * workbook ("Alerting on SLOs", multiwindow multi-burn-rate alerts), ::llmm_burn raises
 *
 * | alert | long window | short window | fires when both burn rates exceed |
 * |---|---|---|---|
 * | fast (page) | 1 h | 5 min | 14.4 |
 * | slow | 6 h | 30 min | 6 |
 *
 * "Exceed" is strict: a burn rate equal to the factor does not fire. The short window makes the
 * alert stop soon after the errors stop. Windows and factors are options.
 *
 * Requests are counted in a ring of (errors, requests) slots (default 10 s slots, enough of
 * them to hold the longest window). A window of length L covers ceil(L / slot) slots, the
 * current one still filling (window.h), so with 10 s slots the 5 min window reaches back
 * between 4 min 50 s and 5 min. A window with no request has error rate and burn rate 0.
 * @{
 */

/** Slot length used when llmm_burn_new() is given 0: ten seconds. @since 1.0.0 */
#define LLMM_BURN_SLOT_NS_DEFAULT UINT64_C(10000000000)

/** Number of windows reported by llmm_burn_evaluate(). @since 1.0.0 */
#define LLMM_BURN_WINDOWS 4

/**
 * @brief Index of a window in the arrays of ::llmm_burn_result.
 * @since 1.0.0
 */
typedef enum llmm_burn_window {
    LLMM_BURN_FAST_LONG = 0,                 /**< fast alert, long window (default 1 h) */
    LLMM_BURN_FAST_SHORT = 1,                /**< fast alert, short window (default 5 min) */
    LLMM_BURN_SLOW_LONG = 2,                 /**< slow alert, long window (default 6 h) */
    LLMM_BURN_SLOW_SHORT = 3,                /**< slow alert, short window (default 30 min) */
    LLMM_BURN_WINDOW_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_burn_window;

/**
 * @brief Option keys of a ::llmm_burn. Each key has one type: the f64 keys are set with
 * llmm_burn_set_f64(), the u64 keys with llmm_burn_set_u64(). All may change at any time; they
 * apply from the next llmm_burn_evaluate(). Types, bounds and defaults: @ref options_reference
 * (llmm_option_describe() with #LLMM_KIND_BURN).
 * @since 1.0.0
 */
typedef enum llmm_burn_option {
    /** SLO target T; set at creation. */
    LLMM_BURN_SLO_TARGET = 1,
    /** The fast alert's burn-rate factor. */
    LLMM_BURN_FAST_FACTOR = 2,
    /** The slow alert's burn-rate factor. */
    LLMM_BURN_SLOW_FACTOR = 3,
    /** The fast alert's long window in ns; ≥ its short window, ≤ the ring. */
    LLMM_BURN_FAST_LONG_NS = 4,
    /** The fast alert's short window in ns; ≤ its long window. */
    LLMM_BURN_FAST_SHORT_NS = 5,
    /** The slow alert's long window in ns; ≥ its short window, ≤ the ring. */
    LLMM_BURN_SLOW_LONG_NS = 6,
    /** The slow alert's short window in ns; ≤ its long window. */
    LLMM_BURN_SLOW_SHORT_NS = 7,
    LLMM_BURN_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_burn_option;

/**
 * @brief Burn rates and alerts at a time stamp. The arrays are indexed by ::llmm_burn_window.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_burn_result {
    uint32_t struct_size; /**< caller-sized: set by llmm_burn_result_init() */
    int32_t fast_alert;   /**< 1 when both fast windows burn faster than the fast factor */
    int32_t slow_alert;   /**< 1 when both slow windows burn faster than the slow factor */
    uint32_t reserved_;   /**< @private padding, always 0 */
    uint64_t requests[LLMM_BURN_WINDOWS]; /**< requests counted in each window */
    uint64_t errors[LLMM_BURN_WINDOWS];   /**< failed requests in each window */
    double error_rate[LLMM_BURN_WINDOWS]; /**< errors / requests, 0 for an idle window */
    double burn_rate[LLMM_BURN_WINDOWS];  /**< error_rate / (1 − T) */
} llmm_burn_result;

/**
 * @brief Multi-window burn-rate alerting over a ring of error and request counts (opaque).
 * @since 1.0.0
 */
typedef struct llmm_burn llmm_burn;

/**
 * @brief Initialise a ::llmm_burn_result: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_burn_result_init(llmm_burn_result *r);
/** @cond LLMM_INTERNAL */
#define llmm_burn_result_init(r) LLMM_SIZED_INIT_(LLMM_STRUCT_BURN_RESULT, llmm_burn_result, r)
/** @endcond */

/**
 * @brief Burn rate of an error rate against an SLO target: `error_rate / (1 − slo_target)`.
 *
 * For T = 0.999, an error rate of 1.44 % burns at 14.4.
 * @param[in] error_rate the error rate, in [0, 1]
 * @param[in] slo_target the SLO target T, in (0, 1) exclusive
 * @param[out] burn receives the burn rate, in [0, 1 / (1 − T)]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `burn` NULL, or an argument NaN or out of its range; nothing written
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_burn_rate(double error_rate, double slo_target, double *burn);

/**
 * @brief Share of the error budget of an SLO period that a window burning at `burn_rate`
 * spends: `burn_rate · window / period`.
 *
 * The SRE workbook's thresholds: 14.4 over 1 h spends 2 % of a 30-day budget, 6 over 6 h 5 %.
 * @param[in] burn_rate the burn rate, finite, ≥ 0
 * @param[in] window_ns the window length, in ns
 * @param[in] period_ns the SLO period (e.g. 30 days), in ns, > 0
 * @param[out] spent receives the share of the budget spent (may exceed 1)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `spent` NULL, `burn_rate` NaN, infinite or negative, or `period_ns`
 *         0; nothing written
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_burn_budget_spent(double burn_rate, uint64_t window_ns,
                                            uint64_t period_ns, double *spent);

/**
 * @brief Create a burn-rate alerter with the SRE workbook's windows and factors.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] slo_target the SLO target T, in (0, 1) exclusive (e.g. 0.999)
 * @param[in] slot_ns slot length in ns, or 0 for #LLMM_BURN_SLOT_NS_DEFAULT (10 s)
 * @param[in] slots ring length, or 0 for just enough slots to hold 6 h (2160 of 10 s); the
 *            ring (slot length × slots) must hold the default 6 h window
 * @param[out] out the new alerter, owned by the caller (llmm_burn_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` NULL, or `slo_target` NaN
 * @retval LLMM_E_RANGE `slo_target` outside (0, 1), the ring shorter than 6 h, more than
 *         #LLMM_WINDOW_SLOTS_MAX slots (given or needed), or slot length × slots beyond 2^64 − 1
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_burn_new(llmm_ctx *ctx, double slo_target, uint64_t slot_ns,
                                   uint32_t slots, llmm_burn **out);

/**
 * @brief Free a burn-rate alerter. NULL is a no-op.
 * @param[in] b the alerter
 * @since 1.0.0
 * @note Not thread-safe: no other call on `b` may run concurrently.
 */
LLMM_API void llmm_burn_free(llmm_burn *b);

/**
 * @brief Set an f64 option (the SLO target or a factor).
 * @param[in,out] b the alerter
 * @param[in] opt an f64 key of ::llmm_burn_option
 * @param[in] value the value, within the key's bounds (@ref options_reference)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` NULL, or `value` NaN or infinite
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not an f64 key
 * @retval LLMM_E_RANGE `value` outside the key's bounds; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same alerter.
 */
LLMM_API llmm_status llmm_burn_set_f64(llmm_burn *b, llmm_burn_option opt, double value);

/**
 * @brief Read an f64 option.
 * @param[in] b the alerter
 * @param[in] opt an f64 key of ::llmm_burn_option
 * @param[out] value receives the value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not an f64 key
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same alerter.
 */
LLMM_API llmm_status llmm_burn_get_f64(const llmm_burn *b, llmm_burn_option opt, double *value);

/**
 * @brief Set a window length (a u64 option). A long window may not be shorter than its short
 * window, nor longer than the ring; to move both windows of a pair, set them in an order that
 * keeps short ≤ long at each step.
 * @param[in,out] b the alerter
 * @param[in] opt a u64 key of ::llmm_burn_option
 * @param[in] value the window length in ns
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not a u64 key
 * @retval LLMM_E_RANGE `value` 0, longer than the ring, or breaking short ≤ long; nothing
 *         changed
 * @since 1.0.0
 * @note Not thread-safe on the same alerter.
 */
LLMM_API llmm_status llmm_burn_set_u64(llmm_burn *b, llmm_burn_option opt, uint64_t value);

/**
 * @brief Read a window length (a u64 option).
 * @param[in] b the alerter
 * @param[in] opt a u64 key of ::llmm_burn_option
 * @param[out] value receives the window length in ns
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not a u64 key
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same alerter.
 */
LLMM_API llmm_status llmm_burn_get_u64(const llmm_burn *b, llmm_burn_option opt, uint64_t *value);

/**
 * @brief Count `errors` failed requests out of `requests` at time `now_ns`.
 * @param[in,out] b the alerter
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] errors failed requests, ≤ `requests`
 * @param[in] requests all requests (failed and successful)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` NULL, `errors` > `requests`, or time going backwards; nothing
 *         changed
 * @retval LLMM_E_RANGE the requests counted since creation or the last reset would exceed
 *         2^64 − 1; nothing changed
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_burn_add(llmm_burn *b, uint64_t now_ns, uint64_t errors,
                                   uint64_t requests);

/**
 * @brief Burn rates of the four windows at `now_ns` and the two alerts.
 * @param[in,out] b the alerter (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in,out] r the result; `r->struct_size` set by llmm_burn_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` or `r` NULL, or time going backwards; nothing changed
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Not thread-safe: advances the alerter's clock.
 */
LLMM_API llmm_status llmm_burn_evaluate(llmm_burn *b, uint64_t now_ns, llmm_burn_result *r);

/**
 * @brief Forget every count and the clock; the options stay.
 * @param[in,out] b the alerter
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `b` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_burn_reset(llmm_burn *b);

/** @} */

/**
 * @defgroup error_trigger SLO: error-share self-healing trigger
 *
 * Fires when the share of failed requests over the last window exceeds a threshold: with the
 * defaults, "5xx share over the last 5 min > 5 %". The caller decides what counts as a failure
 * (for this trigger, usually 5xx responses only: 4xx are the client's). The share is compared
 * strictly (exactly 5 % does not fire), and only when the window holds at least a minimum
 * number of requests (default 1), so that one failure on an idle server need not trigger a
 * restart.
 *
 * The window is a ring of #LLMM_ERROR_TRIGGER_SLOTS slots of `ceil(window / slots)` ns each
 * (5 s for 5 min); the slot and span rules are those of window.h, so the requests counted are
 * those of the current slot and the 59 before it: they reach back at least 59/60 of the window
 * and at most the window rounded up to 60 whole slots (less than 60 ns beyond it).
 * @{
 */

/** Window used when llmm_error_trigger_new() is given 0: five minutes. @since 1.0.0 */
#define LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT UINT64_C(300000000000)

/** Default threshold on the failed-request share: 5 %. @since 1.0.0 */
#define LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT 0.05

/** Slots the window is divided into. @since 1.0.0 */
#define LLMM_ERROR_TRIGGER_SLOTS 60u

/**
 * @brief Option keys of a ::llmm_error_trigger. Each key has one type. Types, bounds and
 * defaults: @ref options_reference (llmm_option_describe() with #LLMM_KIND_ERROR_TRIGGER).
 * @since 1.0.0
 */
typedef enum llmm_error_trigger_option {
    /** Fire when the failed share exceeds this (f64). */
    LLMM_ERROR_TRIGGER_MAX_SHARE = 1,
    /** Fire only with at least this many requests in the window (u64). */
    LLMM_ERROR_TRIGGER_MIN_REQUESTS = 2,
    LLMM_ERROR_TRIGGER_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_error_trigger_option;

/**
 * @brief What the trigger reads at a time stamp.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_error_trigger_reading {
    uint32_t struct_size; /**< caller-sized: set by llmm_error_trigger_reading_init() */
    int32_t fired;        /**< 1 when `share` > the threshold and `requests` ≥ the minimum */
    uint64_t errors;      /**< failed requests in the window */
    uint64_t requests;    /**< all requests in the window */
    double share;         /**< errors / requests */
} llmm_error_trigger_reading;

/**
 * @brief An error-share trigger over a time window (opaque).
 * @since 1.0.0
 */
typedef struct llmm_error_trigger llmm_error_trigger;

/**
 * @brief Initialise a ::llmm_error_trigger_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_error_trigger_reading_init(llmm_error_trigger_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_error_trigger_reading_init(r)                                                         \
    LLMM_SIZED_INIT_(LLMM_STRUCT_ERROR_TRIGGER_READING, llmm_error_trigger_reading, r)
/** @endcond */

/**
 * @brief Create an error-share trigger with the default threshold (5 %) and minimum (1).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] window_ns the window, in ns, or 0 for #LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT
 *            (5 min)
 * @param[out] out the new trigger, owned by the caller (llmm_error_trigger_free()); NULL on
 *             failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_RANGE `window_ns` above 2^64 − 60 (its slots would not fit in 64 bits)
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_error_trigger_new(llmm_ctx *ctx, uint64_t window_ns,
                                            llmm_error_trigger **out);

/**
 * @brief Free a trigger. NULL is a no-op.
 * @param[in] t the trigger
 * @since 1.0.0
 * @note Not thread-safe: no other call on `t` may run concurrently.
 */
LLMM_API void llmm_error_trigger_free(llmm_error_trigger *t);

/**
 * @brief Set the threshold (an f64 option).
 * @param[in,out] t the trigger
 * @param[in] opt an f64 key of ::llmm_error_trigger_option
 * @param[in] value the threshold (bounds: @ref options_reference)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` NULL, or `value` NaN or infinite
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not an f64 key
 * @retval LLMM_E_RANGE `value` outside the option's bounds; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same trigger.
 */
LLMM_API llmm_status llmm_error_trigger_set_f64(llmm_error_trigger *t,
                                                llmm_error_trigger_option opt, double value);

/**
 * @brief Read the threshold (an f64 option).
 * @param[in] t the trigger
 * @param[in] opt an f64 key of ::llmm_error_trigger_option
 * @param[out] value receives the value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not an f64 key
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same trigger.
 */
LLMM_API llmm_status llmm_error_trigger_get_f64(const llmm_error_trigger *t,
                                                llmm_error_trigger_option opt, double *value);

/**
 * @brief Set the minimum request count (a u64 option).
 * @param[in,out] t the trigger
 * @param[in] opt a u64 key of ::llmm_error_trigger_option
 * @param[in] value the minimum (bounds: @ref options_reference)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not a u64 key
 * @retval LLMM_E_RANGE `value` outside the option's bounds; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same trigger.
 */
LLMM_API llmm_status llmm_error_trigger_set_u64(llmm_error_trigger *t,
                                                llmm_error_trigger_option opt, uint64_t value);

/**
 * @brief Read the minimum request count (a u64 option).
 * @param[in] t the trigger
 * @param[in] opt a u64 key of ::llmm_error_trigger_option
 * @param[out] value receives the value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown or not a u64 key
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same trigger.
 */
LLMM_API llmm_status llmm_error_trigger_get_u64(const llmm_error_trigger *t,
                                                llmm_error_trigger_option opt, uint64_t *value);

/**
 * @brief Count `errors` failed requests out of `requests` at time `now_ns`.
 * @param[in,out] t the trigger
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] errors failed requests, ≤ `requests`
 * @param[in] requests all requests
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` NULL, `errors` > `requests`, or time going backwards; nothing
 *         changed
 * @retval LLMM_E_RANGE the requests counted since creation or the last reset would exceed
 *         2^64 − 1; nothing changed
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_error_trigger_add(llmm_error_trigger *t, uint64_t now_ns, uint64_t errors,
                                            uint64_t requests);

/**
 * @brief Read the failed share over the window ending at `now_ns` and whether it fires.
 * @param[in,out] t the trigger (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in,out] r the reading; `r->struct_size` set by llmm_error_trigger_reading_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` or `r` NULL, or time going backwards; nothing changed
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no request in the window; `r` not written, nothing changed
 * @since 1.0.0
 * @note Not thread-safe: advances the trigger's clock.
 */
LLMM_API llmm_status llmm_error_trigger_check(llmm_error_trigger *t, uint64_t now_ns,
                                              llmm_error_trigger_reading *r);

/**
 * @brief Forget every count and the clock; the options stay.
 * @param[in,out] t the trigger
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_error_trigger_reset(llmm_error_trigger *t);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SLO_H */
