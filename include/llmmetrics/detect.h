/**
 * @file detect.h
 * @brief Latency-spike and throughput-collapse detectors, event attribution, correlation,
 * stability gate and saturation signal.
 *
 * Every detector is driven by the caller's clock (`now_ns`, see window.h for the rules on
 * time stamps), so its decisions are deterministic under test. One object per group below;
 * each is used by one thread at a time and may move between threads.
 */
#ifndef LLMMETRICS_DETECT_H
#define LLMMETRICS_DETECT_H

#include "llmmetrics/window.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup spike Spike detector: P99 / P99.9 dual threshold over a sliding window
 *
 * The detector keeps a ::llmm_window of per-slot latency sketches (default 60 slots of 1 s)
 * and two baselines, the base quantile (default P99) and the severe quantile (default P99.9)
 * of the latencies in the window. Each observed latency is classified against the baselines
 * in force when it arrives (doc/spec.md §6):
 *
 * | level | condition |
 * |---|---|
 * | #LLMM_SPIKE_NONE | latency ≤ P99, or the detector is still warming up |
 * | #LLMM_SPIKE_LEVEL1 | latency > P99 and not severe |
 * | #LLMM_SPIKE_LEVEL2 | latency > P99 and latency > factor × P99.9 (factor default 1.2) |
 *
 * Baselines. At a time stamp in slot `c` the baselines in force are the quantiles of all
 * latencies recorded in the closed slots of the window, `c − slots + 1 … c − 1` (with the
 * defaults: the 59 whole seconds before the current one). They change only when a slot
 * closes, i.e. at the first call whose time stamp lies in a new slot; that call recomputes them
 * before it classifies its own sample. The recomputation is incremental: the closed slot is
 * merged into a running sketch of the baseline span and the slot that left the span is
 * subtracted, unless it holds the span's minimum or maximum, in which case the running sketch
 * is rebuilt from the ring (subtraction would make the extremes approximate). The baselines
 * are thus always exactly the quantiles of a fresh merge of the span. A slot close costs a few
 * merges of one slot's buckets on average (a rebuild, O(slots) merges, happens about twice
 * per `slots` closes for a stationary stream, at every close for a steadily falling or rising
 * one), and a gap of any length costs at most O(slots). Between slot boundaries observe() is
 * a sketch insert, two comparisons and a few counter increments. Quantiles carry the sketch's
 * relative error (0.542 % at the default scale 6).
 *
 * Warm-up. Samples are classified only when the baseline in force was computed from at least
 * `warm-up` latencies (default 1000). Before that, observe() records the latency (it will count
 * in later baselines) and reports #LLMM_SPIKE_NONE; the sample is not "classified" and does not
 * count in the spike rate. After a quiet period long enough to empty the window, the detector
 * warms up again.
 *
 * Spike rate. llmm_spike_rate() is the rate of doc/spec.md §6 over the window at `now_ns` (the
 * slot of `now_ns` and the `slots − 1` before it): the number of classified samples that were above
 * the base threshold in force when they arrived (levels 1 and 2), divided by the number of
 * classified samples in the window. Because each sample keeps the verdict it got on arrival,
 * a sustained slowdown shows as a rate far above 1 − P until the baselines catch up.
 *
 * Options (llmm_spike_set_f64() / llmm_spike_set_u64(), keyed by ::llmm_spike_option): the two
 * quantile levels, the severe factor and the warm-up may be changed at any time; the quantile
 * levels take effect when the next slot closes, the factor and the warm-up with the next
 * sample. The window geometry (slot length, slot count, sketch scale) may only be changed while
 * the detector has not accepted any time stamp (after creation or llmm_spike_reset()).
 * @{
 */

/**
 * @brief Classification of one latency.
 * @since 1.0.0
 */
typedef enum llmm_spike_level {
    LLMM_SPIKE_NONE = 0,   /**< not above the base threshold, or not classified (warm-up) */
    LLMM_SPIKE_LEVEL1 = 1, /**< above the base threshold (P99), not severe: record, alert */
    LLMM_SPIKE_LEVEL2 = 2, /**< above P99 and above factor × P99.9: check the circuit breaker */
    LLMM_SPIKE_LEVEL_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_spike_level;

/**
 * @brief Option keys of the spike detector. Each key has one type: the f64 keys are set with
 * llmm_spike_set_f64(), the u64 keys with llmm_spike_set_u64(). Types, bounds and defaults:
 * @ref options_reference (llmm_option_describe() with #LLMM_KIND_SPIKE).
 * @since 1.0.0
 */
typedef enum llmm_spike_option {
    /** Quantile of the base threshold (P99). */
    LLMM_SPIKE_BASE_QUANTILE = 1,
    /** Quantile of the severe threshold (P99.9). */
    LLMM_SPIKE_SEVERE_QUANTILE = 2,
    /** Level 2 needs latency > factor × severe threshold. */
    LLMM_SPIKE_SEVERE_FACTOR = 3,
    /** Baseline samples needed before classifying. */
    LLMM_SPIKE_WARMUP = 4,
    /** Slot length in ns; slot length × slots must stay below 2^64. Only before the first
     *  time stamp. */
    LLMM_SPIKE_SLOT_NS = 5,
    /** Slots in the window; slot length × slots must stay below 2^64. Only before the first
     *  time stamp. */
    LLMM_SPIKE_SLOTS = 6,
    /** Sketch scale of the window's slots. Only before the first time stamp. */
    LLMM_SPIKE_SCALE = 7,
    LLMM_SPIKE_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_spike_option;

/**
 * @brief What the detector knows at a time stamp: baselines in force and counts per level.
 *
 * "Window" counts cover the slot of `now_ns` and the `slots − 1` before
 * it; "total" counts cover everything since creation or
 * llmm_spike_reset().
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_spike_stats {
    uint32_t struct_size;       /**< caller-sized: set by llmm_spike_stats_init() */
    int32_t ready;              /**< 1 when samples are being classified (warm-up done), else 0 */
    double base_threshold;      /**< base quantile (P99) in force; 0 when no baseline */
    double severe_threshold;    /**< severe quantile (P99.9) in force; 0 when no baseline */
    uint64_t baseline_samples;  /**< latencies the baselines in force were computed from */
    uint64_t window_samples;    /**< samples observed in the window */
    uint64_t window_classified; /**< of those, classified (observed after warm-up) */
    uint64_t window_level1;     /**< of those, level 1 */
    uint64_t window_level2;     /**< of those, level 2 */
    uint64_t total_samples;     /**< samples observed since creation or reset */
    uint64_t total_classified;  /**< of those, classified */
    uint64_t total_level1;      /**< of those, level 1 */
    uint64_t total_level2;      /**< of those, level 2 */
} llmm_spike_stats;

/**
 * @brief A latency-spike detector (opaque).
 * @since 1.0.0
 */
typedef struct llmm_spike llmm_spike;

/**
 * @brief Create a spike detector with the default options (@ref options_reference).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[out] out the new detector, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_spike_new(llmm_ctx *ctx, llmm_spike **out);

/**
 * @brief Free a detector. NULL is a no-op.
 * @param[in] d the detector
 * @since 1.0.0
 * @note Not thread-safe: no other call on `d` may run concurrently.
 */
LLMM_API void llmm_spike_free(llmm_spike *d);

/**
 * @brief Set a floating-point option (bounds: @ref options_reference).
 * @param[in,out] d the detector
 * @param[in] key #LLMM_SPIKE_BASE_QUANTILE, #LLMM_SPIKE_SEVERE_QUANTILE or
 *            #LLMM_SPIKE_SEVERE_FACTOR
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `d` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the spike detector
 * @retval LLMM_E_RANGE `value` is NaN or outside the option's bounds (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_spike_set_f64(llmm_spike *d, llmm_spike_option key, double value);

/**
 * @brief Read a floating-point option.
 * @param[in] d the detector
 * @param[in] key an f64 option
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the spike detector
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_spike_get_f64(const llmm_spike *d, llmm_spike_option key, double *value);

/**
 * @brief Set an integer option (bounds: @ref options_reference).
 *
 * The geometry keys (#LLMM_SPIKE_SLOT_NS, #LLMM_SPIKE_SLOTS, #LLMM_SPIKE_SCALE) rebuild the
 * window; they are refused once the detector has accepted a time stamp.
 * @param[in,out] d the detector
 * @param[in] key #LLMM_SPIKE_WARMUP, #LLMM_SPIKE_SLOT_NS, #LLMM_SPIKE_SLOTS or
 *            #LLMM_SPIKE_SCALE
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `d` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the spike detector
 * @retval LLMM_E_RANGE `value` outside the option's bounds (nothing changed)
 * @retval LLMM_E_STATE a geometry key after the first time stamp (nothing changed)
 * @retval LLMM_E_NOMEM rebuilding the window failed (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_spike_set_u64(llmm_spike *d, llmm_spike_option key, uint64_t value);

/**
 * @brief Read an integer option.
 * @param[in] d the detector
 * @param[in] key a u64 option
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the spike detector
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_spike_get_u64(const llmm_spike *d, llmm_spike_option key,
                                        uint64_t *value);

/**
 * @brief Record one latency and classify it against the baselines in force.
 *
 * If `now_ns` lies in a later slot than the previous call, the closed slots first update the
 * baselines (see the group documentation). On any error nothing changes: the sample is not
 * recorded, the counts, the baselines and the clock stay as they were.
 * @param[in,out] d the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in] latency a finite value ≥ 0, in the caller's unit
 * @param[out] level the classification (nullable); #LLMM_SPIKE_NONE during warm-up
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL detector, `latency` NaN, infinite or negative, or `now_ns`
 *         earlier than the latest time stamp accepted
 * @retval LLMM_E_NOMEM a sketch could not grow (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_spike_observe(llmm_spike *d, uint64_t now_ns, double latency,
                                        llmm_spike_level *level);

/**
 * @brief Spike rate over the window: classified samples above the base threshold in force on
 * arrival, divided by the classified samples in the window.
 * @param[in,out] d the detector (its clock advances to `now_ns`)
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[out] rate the rate in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or time going backwards
 * @retval LLMM_E_EMPTY no classified sample in the window (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: advances the detector's clock.
 */
LLMM_API llmm_status llmm_spike_rate(llmm_spike *d, uint64_t now_ns, double *rate);

/**
 * @brief Initialise a ::llmm_spike_stats: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] s the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_spike_stats_init(llmm_spike_stats *s);
/** @cond LLMM_INTERNAL */
#define llmm_spike_stats_init(s) LLMM_SIZED_INIT_(LLMM_STRUCT_SPIKE_STATS, llmm_spike_stats, s)
/** @endcond */

/**
 * @brief Baselines in force and counts per level at `now_ns`.
 *
 * If `now_ns` lies in a new slot, the baselines are brought up to date first, exactly as the
 * next llmm_spike_observe() would.
 * @param[in,out] d the detector (its clock advances to `now_ns`)
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in,out] s the result; `s->struct_size` must be set (llmm_spike_stats_init())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or time going backwards
 * @retval LLMM_E_ABI `s->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_NOMEM bringing the baselines up to date failed (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: advances the detector's clock.
 */
LLMM_API llmm_status llmm_spike_get_stats(llmm_spike *d, uint64_t now_ns, llmm_spike_stats *s);

/**
 * @brief Forget every sample, count, baseline and the clock; options stay.
 * @param[in,out] d the detector
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `d` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_spike_reset(llmm_spike *d);

/** @} */

/**
 * @defgroup collapse Collapse detector: latency outliers right after a precision switch
 *
 * doc/spec.md §7. The detector keeps the last W batch latencies (default W = 8). A latency is an
 * *outlier* when it exceeds `mean + k·σ` of the W latencies observed *before* it (default
 * k = 2.5); the newest sample is never part of its own baseline (with W = 8 a point can lie at
 * most √7 ≈ 2.65 population standard deviations from a mean that includes it, so such a rule
 * would almost never fire). σ is the population standard deviation of the W latencies,
 * floored at `floor · mean` (default floor 0.01), so that a perfectly flat window does not flag
 * every tiny rise: with the defaults a flat window flags only rises of more than 2.5 %.
 *
 * A latency is *collapsed* when it is an outlier and it arrives at most 10 ms (option) after
 * the latest weight switch marked with llmm_collapse_mark_switch() (`0 ≤ now − switch ≤ 10 ms`);
 * with #LLMM_COLLAPSE_REQUIRE_SWITCH set to 0 every outlier is collapsed. The first latency
 * that can be flagged is sample W + 1. A flagged latency enters the window like any other (the
 * next baseline includes it).
 *
 * Confirmation signals (each optional, reported separately by llmm_collapse_switch_report(),
 * never folded into the latency verdict): for the latest switch,
 * - TPS: the drop `1 − after / before`, where `before` is the last throughput reading given
 *   (llmm_collapse_observe_tps()) before the switch was marked and `after` the lowest reading
 *   given at most #LLMM_COLLAPSE_CONFIRM_NS (default 10 ms) after the switch's time stamp;
 *   confirmed when the drop exceeds 65 % (option);
 * - memory bandwidth: the lowest utilisation in [0, 1] given (llmm_collapse_observe_membw())
 *   at most #LLMM_COLLAPSE_CONFIRM_NS after the switch; confirmed when below 30 % (option);
 * - latency: at least one latency matched to the switch was collapsed.
 *
 * Clock. All calls that take `now_ns` share one clock: each time stamp must be at least the
 * latest one accepted by any of them (equal is fine), otherwise the call fails with
 * #LLMM_E_INVALID and changes nothing.
 *
 * Cost. observe() is O(1): the baseline's mean and variance come from running sums of the
 * latencies minus a reference value; every W samples the sums are recomputed exactly from the
 * ring and the reference moved to the window's mean, so rounding never accumulates and a
 * large common offset does not cancel the variance.
 * @{
 */

/** Default baseline length W. @since 1.0.0 */
#define LLMM_COLLAPSE_WINDOW_DEFAULT 8u
/** Largest baseline length W. @since 1.0.0 */
#define LLMM_COLLAPSE_WINDOW_MAX 4096u
/** Largest latency, TPS reading or in-flight count the detectors accept (keeps squares
 *  finite). @since 1.0.0 */
#define LLMM_DETECT_VALUE_MAX 1e100

/**
 * @brief Option keys of the collapse detector. Each key has one type: the f64 keys are set with
 * llmm_collapse_set_f64(), the u64 keys with llmm_collapse_set_u64(). Types, bounds and
 * defaults: @ref options_reference (llmm_option_describe() with #LLMM_KIND_COLLAPSE).
 * @since 1.0.0
 */
typedef enum llmm_collapse_option {
    /** W, the number of latencies in the baseline. Only while the detector holds no latency
     *  (after creation or llmm_collapse_reset()). */
    LLMM_COLLAPSE_WINDOW = 1,
    /** k in `mean + k·σ`. */
    LLMM_COLLAPSE_K = 2,
    /** σ is at least this share of the baseline mean. */
    LLMM_COLLAPSE_SIGMA_FLOOR = 3,
    /** A latency is matched to a switch when it comes at most this many ns after it. */
    LLMM_COLLAPSE_SWITCH_NS = 4,
    /** 1 = only latencies matched to a switch are collapsed, 0 = every outlier is. */
    LLMM_COLLAPSE_REQUIRE_SWITCH = 5,
    /** The TPS signal confirms when the drop exceeds this share. */
    LLMM_COLLAPSE_TPS_DROP = 6,
    /** The memory-bandwidth signal confirms when the utilisation is below this. */
    LLMM_COLLAPSE_MEMBW_BELOW = 7,
    /** TPS and memory-bandwidth readings are matched to a switch when they come at most this
     *  many ns after it. */
    LLMM_COLLAPSE_CONFIRM_NS = 8,
    LLMM_COLLAPSE_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_collapse_option;

/**
 * @brief The verdict on one latency (llmm_collapse_observe_ex()).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_collapse_verdict {
    uint32_t struct_size;     /**< caller-sized: set by llmm_collapse_verdict_init() */
    int32_t collapsed;        /**< 1: outlier and (if required) matched to a switch */
    int32_t ready;            /**< 1: a baseline of W earlier latencies existed */
    int32_t outlier;          /**< 1: latency > threshold (whatever the switch) */
    int32_t after_switch;     /**< 1: at most #LLMM_COLLAPSE_SWITCH_NS after the latest switch */
    int32_t floored;          /**< 1: σ was raised to the floor */
    double mean;              /**< baseline mean; 0 when not ready */
    double sigma;             /**< baseline σ after the floor; 0 when not ready */
    double threshold;         /**< mean + k·σ; 0 when not ready */
    uint64_t since_switch_ns; /**< now − latest switch; UINT64_MAX when no switch was marked */
    uint64_t samples;         /**< latencies observed since creation or reset, this one included */
} llmm_collapse_verdict;

/**
 * @brief The confirmation matrix of the latest switch (llmm_collapse_switch_report()).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_collapse_report {
    uint32_t struct_size; /**< caller-sized: set by llmm_collapse_report_init() */
    int32_t signals;      /**< confirmed signals among latency, TPS, memory bandwidth: 0 … 3 */
    int32_t latency_confirmed; /**< 1: a latency matched to the switch was collapsed */
    int32_t tps_known;         /**< 1: a reading before and one after the switch, before > 0 */
    int32_t tps_confirmed;     /**< 1: tps_known and tps_drop > #LLMM_COLLAPSE_TPS_DROP */
    int32_t membw_known;       /**< 1: a memory-bandwidth reading after the switch */
    int32_t membw_confirmed;   /**< 1: membw_known and membw < #LLMM_COLLAPSE_MEMBW_BELOW */
    int32_t open;              /**< 1: the latest time stamp accepted is still inside the
                                    switch's matching intervals, so the report may change */
    uint64_t switch_ns;        /**< time stamp of the switch */
    uint64_t latencies;        /**< latencies matched to the switch */
    uint64_t flagged;          /**< of those, collapsed */
    double tps_before;         /**< last TPS reading before the switch; 0 when none */
    double tps_after;          /**< lowest TPS reading matched to the switch; 0 when none */
    double tps_drop; /**< 1 − after / before when tps_known (negative for a rise), else 0 */
    double membw;    /**< lowest utilisation matched to the switch; 0 when none */
} llmm_collapse_report;

/**
 * @brief A throughput-collapse detector (opaque).
 * @since 1.0.0
 */
typedef struct llmm_collapse llmm_collapse;

/**
 * @brief Create a collapse detector with the default options (@ref options_reference).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[out] out the new detector, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_collapse_new(llmm_ctx *ctx, llmm_collapse **out);

/**
 * @brief Free a detector. NULL is a no-op.
 * @param[in] c the detector
 * @since 1.0.0
 * @note Not thread-safe: no other call on `c` may run concurrently.
 */
LLMM_API void llmm_collapse_free(llmm_collapse *c);

/**
 * @brief Set a floating-point option (bounds: @ref options_reference).
 * Takes effect with the next call.
 * @param[in,out] c the detector
 * @param[in] key #LLMM_COLLAPSE_K, #LLMM_COLLAPSE_SIGMA_FLOOR, #LLMM_COLLAPSE_TPS_DROP or
 *            #LLMM_COLLAPSE_MEMBW_BELOW
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `c` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the collapse detector
 * @retval LLMM_E_RANGE `value` is NaN or outside the option's bounds (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_collapse_set_f64(llmm_collapse *c, llmm_collapse_option key,
                                           double value);

/**
 * @brief Read a floating-point option.
 * @param[in] c the detector
 * @param[in] key an f64 option
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the collapse detector
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_collapse_get_f64(const llmm_collapse *c, llmm_collapse_option key,
                                           double *value);

/**
 * @brief Set an integer option (bounds: @ref options_reference).
 *
 * #LLMM_COLLAPSE_WINDOW reallocates the ring and is refused once a latency was observed
 * (until llmm_collapse_reset()); the other keys take effect with the next call.
 * @param[in,out] c the detector
 * @param[in] key #LLMM_COLLAPSE_WINDOW, #LLMM_COLLAPSE_SWITCH_NS,
 *            #LLMM_COLLAPSE_REQUIRE_SWITCH or #LLMM_COLLAPSE_CONFIRM_NS
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `c` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the collapse detector
 * @retval LLMM_E_RANGE `value` outside the option's bounds (nothing changed)
 * @retval LLMM_E_STATE #LLMM_COLLAPSE_WINDOW with a new value while latencies are held
 *         (nothing changed)
 * @retval LLMM_E_NOMEM the new ring could not be allocated (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_collapse_set_u64(llmm_collapse *c, llmm_collapse_option key,
                                           uint64_t value);

/**
 * @brief Read an integer option.
 * @param[in] c the detector
 * @param[in] key a u64 option
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the collapse detector
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_collapse_get_u64(const llmm_collapse *c, llmm_collapse_option key,
                                           uint64_t *value);

/**
 * @brief Mark a weight (precision) switch at `now_ns`.
 *
 * The switch replaces any earlier one: latencies, TPS and memory-bandwidth readings are
 * matched to the latest switch only, and its confirmation matrix starts empty (the TPS
 * reference is the last TPS reading given before this call).
 * @param[in,out] c the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `c` is NULL or `now_ns` is earlier than the latest time stamp
 *         accepted (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_collapse_mark_switch(llmm_collapse *c, uint64_t now_ns);

/**
 * @brief Judge one batch latency against the W before it, then add it to the window.
 * @param[in,out] c the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in] latency finite, 0 … #LLMM_DETECT_VALUE_MAX, in the caller's unit
 * @param[out] collapsed 1 when the latency is collapsed, else 0 (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL detector, `latency` NaN, infinite or negative, or `now_ns`
 *         earlier than the latest time stamp accepted (nothing changed)
 * @retval LLMM_E_RANGE `latency` above #LLMM_DETECT_VALUE_MAX (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_collapse_observe(llmm_collapse *c, uint64_t now_ns, double latency,
                                           int32_t *collapsed);

/**
 * @brief Initialise a ::llmm_collapse_verdict: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] v the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `v` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_collapse_verdict_init(llmm_collapse_verdict *v);
/** @cond LLMM_INTERNAL */
#define llmm_collapse_verdict_init(v)                                                              \
    LLMM_SIZED_INIT_(LLMM_STRUCT_COLLAPSE_VERDICT, llmm_collapse_verdict, v)
/** @endcond */

/**
 * @brief llmm_collapse_observe() with the whole verdict: baseline, threshold, switch distance.
 * @param[in,out] c the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in] latency finite, 0 … #LLMM_DETECT_VALUE_MAX
 * @param[in,out] v the verdict; `v->struct_size` must be set (llmm_collapse_verdict_init())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, a bad latency or time going backwards
 * @retval LLMM_E_RANGE `latency` above #LLMM_DETECT_VALUE_MAX
 * @retval LLMM_E_ABI `v->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Not thread-safe: single writer. On any error nothing changes.
 */
LLMM_API llmm_status llmm_collapse_observe_ex(llmm_collapse *c, uint64_t now_ns, double latency,
                                              llmm_collapse_verdict *v);

/**
 * @brief Give a throughput reading (tokens per second, or any rate where a drop is bad).
 *
 * The last reading before a switch is its TPS reference; readings at most
 * #LLMM_COLLAPSE_CONFIRM_NS after the latest switch are matched to it.
 * @param[in,out] c the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in] tps finite, 0 … #LLMM_DETECT_VALUE_MAX
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL detector, `tps` NaN, infinite or negative, or time going
 *         backwards (nothing changed)
 * @retval LLMM_E_RANGE `tps` above #LLMM_DETECT_VALUE_MAX (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_collapse_observe_tps(llmm_collapse *c, uint64_t now_ns, double tps);

/**
 * @brief Give a memory-bandwidth utilisation reading in [0, 1].
 *
 * Readings at most #LLMM_COLLAPSE_CONFIRM_NS after the latest switch are matched to it;
 * others only advance the clock.
 * @param[in,out] c the detector
 * @param[in] now_ns time stamp, not earlier than any the detector accepted before
 * @param[in] utilisation share of the peak bandwidth in use, 0 … 1
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL detector, utilisation NaN or outside [0, 1], or time going
 *         backwards (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_collapse_observe_membw(llmm_collapse *c, uint64_t now_ns,
                                                 double utilisation);

/**
 * @brief Initialise a ::llmm_collapse_report: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_collapse_report_init(llmm_collapse_report *r);
/** @cond LLMM_INTERNAL */
#define llmm_collapse_report_init(r)                                                               \
    LLMM_SIZED_INIT_(LLMM_STRUCT_COLLAPSE_REPORT, llmm_collapse_report, r)
/** @endcond */

/**
 * @brief The confirmation matrix of the latest switch: latency, TPS drop, memory bandwidth,
 * each reported on its own.
 * @param[in] c the detector
 * @param[in,out] r the report; `r->struct_size` must be set (llmm_collapse_report_init())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no switch was marked since creation or reset
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_collapse_switch_report(const llmm_collapse *c, llmm_collapse_report *r);

/**
 * @brief Counts since creation or reset.
 * @param[in] c the detector
 * @param[out] samples latencies observed (nullable)
 * @param[out] collapsed of those, collapsed (nullable)
 * @param[out] switches switches marked (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `c` is NULL
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_collapse_counts(const llmm_collapse *c, uint64_t *samples,
                                          uint64_t *collapsed, uint64_t *switches);

/**
 * @brief Forget every latency, reading, switch, count and the clock; options stay.
 * @param[in,out] c the detector
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `c` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_collapse_reset(llmm_collapse *c);

/** @} */

/**
 * @defgroup events Event log: typed, time-stamped causes and spike attribution
 *
 * Callers annotate what happened on the host (a TCP retransmit, a major page fault, …) with a
 * type, a time stamp and an optional value (a duration, a count; the library only stores it).
 * The log keeps the most recent `capacity` events in a ring (default 1024; the oldest event
 * is dropped when the ring is full, and the drops are counted). For a spike at time `t`,
 * llmm_event_log_lookback() returns the events stamped in `[t − lookback, t]`, nearest first:
 * the candidate causes.
 *
 * Event types and their attribute names. The names are this library's own stable keys (for
 * logs, labels and reports), not OpenTelemetry semantic conventions; llmm_event_attr_name()
 * returns them:
 *
 * | type | attribute name | what |
 * |---|---|---|
 * | #LLMM_EVENT_TCP_RETRANSMIT | `net.tcp.retrans` (#LLMM_EVENT_ATTR_TCP_RETRANSMIT) | a TCP segment was retransmitted |
 * | #LLMM_EVENT_MAJOR_FAULT | `mem.major_fault` (#LLMM_EVENT_ATTR_MAJOR_FAULT) | a major page fault (page read from disk) |
 * | #LLMM_EVENT_SCHED_JITTER | `sched.jitter` (#LLMM_EVENT_ATTR_SCHED_JITTER) | scheduler wake-up jitter above the caller's bound |
 * | #LLMM_EVENT_NUMA_MIGRATION | `mem.numa_migration` (#LLMM_EVENT_ATTR_NUMA_MIGRATION) | a page or task migrated between NUMA nodes (binding failure) |
 * | #LLMM_EVENT_WEIGHT_SWITCH | `model.weight_switch` (#LLMM_EVENT_ATTR_WEIGHT_SWITCH) | weights changed precision or were swapped (FP16 ↔ INT8) |
 * | #LLMM_EVENT_GC_PAUSE | `runtime.gc_pause` (#LLMM_EVENT_ATTR_GC_PAUSE) | a garbage-collection pause of the serving runtime |
 * | #LLMM_EVENT_CPU_PRESSURE | `cpu.pressure` (#LLMM_EVENT_ATTR_CPU_PRESSURE) | tasks stalled waiting for a CPU (since 1.1.0) |
 * | #LLMM_EVENT_MEMORY_PRESSURE | `mem.pressure` (#LLMM_EVENT_ATTR_MEMORY_PRESSURE) | tasks stalled on memory: reclaim, swap-in, thrashing (since 1.1.0) |
 * | #LLMM_EVENT_IO_PRESSURE | `io.pressure` (#LLMM_EVENT_ATTR_IO_PRESSURE) | tasks stalled on block I/O (since 1.1.0) |
 * | #LLMM_EVENT_CPU_FREQ_DROP | `cpu.freq_drop` (#LLMM_EVENT_ATTR_CPU_FREQ_DROP) | the CPU frequency fell (thermal or power capping) (since 1.1.0) |
 * | #LLMM_EVENT_CTX_SWITCHES | `sched.ctx_switches` (#LLMM_EVENT_ATTR_CTX_SWITCHES) | context switches above the caller's bound (since 1.1.0) |
 * | #LLMM_EVENT_CPU_THROTTLE | `cpu.throttle` (#LLMM_EVENT_ATTR_CPU_THROTTLE) | the cgroup's CPU quota ran out: its tasks were held back (since 1.1.0) |
 * | #LLMM_EVENT_USER … INT32_MAX | none (NULL) | the caller's own types |
 *
 * The host sampler (@ref host) logs types 1 … 4 and 7 … 12 from the kernel's counters.
 * Types 13 … #LLMM_EVENT_USER − 1 are reserved for causes a later version may add (with
 * names); 0 and negative types are invalid.
 *
 * Time. Events are added in time order: a time stamp earlier than the latest accepted is
 * #LLMM_E_INVALID (equal is fine). Queries take any time stamp and do not advance the clock.
 * A look-back costs O(log capacity + events returned).
 * @{
 */

/** Default capacity of an event log, in events. @since 1.0.0 */
#define LLMM_EVENT_LOG_CAPACITY_DEFAULT 1024u
/** Largest capacity of an event log, in events. @since 1.0.0 */
#define LLMM_EVENT_LOG_CAPACITY_MAX 16777216u

/** Attribute name of #LLMM_EVENT_TCP_RETRANSMIT. @since 1.0.0 */
#define LLMM_EVENT_ATTR_TCP_RETRANSMIT "net.tcp.retrans"
/** Attribute name of #LLMM_EVENT_MAJOR_FAULT. @since 1.0.0 */
#define LLMM_EVENT_ATTR_MAJOR_FAULT "mem.major_fault"
/** Attribute name of #LLMM_EVENT_SCHED_JITTER. @since 1.0.0 */
#define LLMM_EVENT_ATTR_SCHED_JITTER "sched.jitter"
/** Attribute name of #LLMM_EVENT_NUMA_MIGRATION. @since 1.0.0 */
#define LLMM_EVENT_ATTR_NUMA_MIGRATION "mem.numa_migration"
/** Attribute name of #LLMM_EVENT_WEIGHT_SWITCH. @since 1.0.0 */
#define LLMM_EVENT_ATTR_WEIGHT_SWITCH "model.weight_switch"
/** Attribute name of #LLMM_EVENT_GC_PAUSE. @since 1.0.0 */
#define LLMM_EVENT_ATTR_GC_PAUSE "runtime.gc_pause"
/** Attribute name of #LLMM_EVENT_CPU_PRESSURE. @since 1.1.0 */
#define LLMM_EVENT_ATTR_CPU_PRESSURE "cpu.pressure"
/** Attribute name of #LLMM_EVENT_MEMORY_PRESSURE. @since 1.1.0 */
#define LLMM_EVENT_ATTR_MEMORY_PRESSURE "mem.pressure"
/** Attribute name of #LLMM_EVENT_IO_PRESSURE. @since 1.1.0 */
#define LLMM_EVENT_ATTR_IO_PRESSURE "io.pressure"
/** Attribute name of #LLMM_EVENT_CPU_FREQ_DROP. @since 1.1.0 */
#define LLMM_EVENT_ATTR_CPU_FREQ_DROP "cpu.freq_drop"
/** Attribute name of #LLMM_EVENT_CTX_SWITCHES. @since 1.1.0 */
#define LLMM_EVENT_ATTR_CTX_SWITCHES "sched.ctx_switches"
/** Attribute name of #LLMM_EVENT_CPU_THROTTLE. @since 1.1.0 */
#define LLMM_EVENT_ATTR_CPU_THROTTLE "cpu.throttle"

/**
 * @brief Known event types (values pinned). Calls take the type as `int32_t` so that the
 * caller's own ids (#LLMM_EVENT_USER and above) pass unchanged.
 * @since 1.0.0
 */
typedef enum llmm_event_type {
    LLMM_EVENT_TCP_RETRANSMIT = 1,  /**< `net.tcp.retrans` */
    LLMM_EVENT_MAJOR_FAULT = 2,     /**< `mem.major_fault` */
    LLMM_EVENT_SCHED_JITTER = 3,    /**< `sched.jitter` */
    LLMM_EVENT_NUMA_MIGRATION = 4,  /**< `mem.numa_migration` */
    LLMM_EVENT_WEIGHT_SWITCH = 5,   /**< `model.weight_switch` */
    LLMM_EVENT_GC_PAUSE = 6,        /**< `runtime.gc_pause` */
    LLMM_EVENT_CPU_PRESSURE = 7,    /**< `cpu.pressure` (since 1.1.0) */
    LLMM_EVENT_MEMORY_PRESSURE = 8, /**< `mem.pressure` (since 1.1.0) */
    LLMM_EVENT_IO_PRESSURE = 9,     /**< `io.pressure` (since 1.1.0) */
    LLMM_EVENT_CPU_FREQ_DROP = 10,  /**< `cpu.freq_drop` (since 1.1.0) */
    LLMM_EVENT_CTX_SWITCHES = 11,   /**< `sched.ctx_switches` (since 1.1.0) */
    LLMM_EVENT_CPU_THROTTLE = 12,   /**< `cpu.throttle` (since 1.1.0) */
    LLMM_EVENT_USER = 65536,        /**< first id of the caller's own types (… INT32_MAX) */
    LLMM_EVENT_TYPE_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_event_type;

/**
 * @brief One event as returned by llmm_event_log_lookback().
 *
 * An array element, so it is not size-prefixed: its layout (32 bytes) is fixed for the life of
 * the 1.x ABI; a richer record would come with a new call and a new type.
 * @since 1.0.0
 */
typedef struct llmm_event {
    uint64_t time_ns;   /**< the event's time stamp */
    uint64_t before_ns; /**< how long before the query's time stamp it happened (≥ 0) */
    double value;       /**< the value given with the event */
    int32_t type;       /**< its type (::llmm_event_type or a user id) */
    uint32_t reserved;  /**< 0 */
} llmm_event;

/**
 * @brief A bounded, time-ordered ring of events (opaque).
 * @since 1.0.0
 */
typedef struct llmm_event_log llmm_event_log;

/**
 * @brief The stable attribute name of a known event type.
 * @param[in] type an event type
 * @return a static string (see the table above), or NULL for user, reserved and invalid types
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_event_attr_name(int32_t type);

/**
 * @brief Create an empty event log.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] capacity events kept, 1 … #LLMM_EVENT_LOG_CAPACITY_MAX, or 0 for
 *            #LLMM_EVENT_LOG_CAPACITY_DEFAULT
 * @param[out] out the new log, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_RANGE `capacity` above #LLMM_EVENT_LOG_CAPACITY_MAX
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_event_log_new(llmm_ctx *ctx, uint32_t capacity, llmm_event_log **out);

/**
 * @brief Free a log. NULL is a no-op.
 * @param[in] log the log
 * @since 1.0.0
 * @note Not thread-safe: no other call on `log` may run concurrently.
 */
LLMM_API void llmm_event_log_free(llmm_event_log *log);

/**
 * @brief Record an event; when the ring is full the oldest event is dropped.
 * @param[in,out] log the log
 * @param[in] now_ns the event's time stamp, not earlier than the latest accepted
 * @param[in] type a known type (1 … 12; 1 … 6 before 1.1.0) or a user id
 *            (#LLMM_EVENT_USER … INT32_MAX)
 * @param[in] value any finite value (0 when there is nothing to say)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL log, type 0, negative or reserved, `value` NaN or infinite, or
 *         `now_ns` earlier than the latest time stamp accepted (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_event_log_add(llmm_event_log *log, uint64_t now_ns, int32_t type,
                                        double value);

/**
 * @brief The events stamped in `[at_ns − lookback_ns, at_ns]` (clamped at 0), nearest to
 * `at_ns` first; among equal time stamps the one added last comes first.
 * @param[in] log the log
 * @param[in] at_ns the time of the spike (any value; events after it are not returned)
 * @param[in] lookback_ns length of the look-back interval
 * @param[out] out the events; may be NULL when `cap` is 0; written only on success
 * @param[in] cap capacity of `out`, in events
 * @param[out] len number of events in the interval (also on #LLMM_E_BUFFER: the capacity
 *             needed)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `log` or `len` is NULL, or `out` is NULL with `cap` > 0
 * @retval LLMM_E_BUFFER `cap` is smaller than the number of events (needed in `*len`)
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_event_log_lookback(const llmm_event_log *log, uint64_t at_ns,
                                             uint64_t lookback_ns, llmm_event *out, size_t cap,
                                             size_t *len);

/**
 * @brief Count the events of one type (or of every type) stamped in `[from_ns, to_ns]`.
 * @param[in] log the log
 * @param[in] type an event type, or 0 for every type
 * @param[in] from_ns start of the interval (inclusive)
 * @param[in] to_ns end of the interval (inclusive), ≥ `from_ns`
 * @param[out] count the number of events held in the interval
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `type` negative, or `to_ns` < `from_ns`
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_event_log_count(const llmm_event_log *log, int32_t type, uint64_t from_ns,
                                          uint64_t to_ns, uint64_t *count);

/**
 * @brief How many events the log holds, has accepted and has dropped since creation or reset.
 * @param[in] log the log
 * @param[out] held events in the ring now (nullable)
 * @param[out] total events accepted (nullable)
 * @param[out] dropped events pushed out of the full ring (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `log` is NULL
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_event_log_counts(const llmm_event_log *log, uint64_t *held,
                                           uint64_t *total, uint64_t *dropped);

/**
 * @brief Forget every event, the counts and the clock; the capacity stays.
 * @param[in,out] log the log
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `log` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_event_log_reset(llmm_event_log *log);

/**
 * @brief One event with the trace it belongs to, as returned by
 * llmm_event_log_lookback_traced(): the 1.0 ::llmm_event (which stays 32 bytes) plus the W3C
 * trace and span ids given to llmm_event_log_add_traced().
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_traced_event_init()). An array of
 * them is passed with every element set up alike: the elements' `struct_size` is the array's
 * stride (a C array of the struct satisfies it), so the record can grow in a later release.
 * @since 1.2.0
 */
typedef struct llmm_traced_event {
    uint32_t struct_size; /**< caller-sized: set by llmm_traced_event_init() */
    int32_t type;         /**< its type (::llmm_event_type or a user id) */
    uint64_t time_ns;     /**< the event's time stamp */
    uint64_t before_ns;   /**< how long before the query's time stamp it happened (≥ 0) */
    double value;         /**< the value given with the event */
    uint8_t trace_id[16]; /**< the trace it belongs to; all zero: none */
    uint8_t span_id[8];   /**< the span within it; all zero: none */
} llmm_traced_event;

/**
 * @brief Initialise a ::llmm_traced_event: every field 0.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @since 1.2.0
 */
#define llmm_traced_event_init(e) LLMM_SIZED_INIT_(LLMM_STRUCT_TRACED_EVENT, llmm_traced_event, e)

/**
 * @brief Record an event that belongs to a trace (a kernel event attributed to a request, a
 * request's own latency spike): as llmm_event_log_add(), with the trace and span ids kept
 * beside it for llmm_event_log_lookback_traced().
 *
 * The first traced event of a log allocates the ids' storage for the whole ring (24 bytes per
 * event of the capacity, through the log's context); a log that is never given one costs
 * nothing more. Events added with llmm_event_log_add() have no trace (all-zero ids). The
 * other calls see a traced event as any other.
 * @param[in,out] log the log
 * @param[in] now_ns the event's time stamp, not earlier than the latest accepted
 * @param[in] type as llmm_event_log_add()
 * @param[in] value any finite value
 * @param[in] trace_id 16 bytes, or NULL for none
 * @param[in] span_id 8 bytes, or NULL for none
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID as llmm_event_log_add() (nothing changed)
 * @retval LLMM_E_NOMEM the ids' storage could not be allocated (nothing changed)
 * @since 1.2.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_event_log_add_traced(llmm_event_log *log, uint64_t now_ns, int32_t type,
                                               double value, const uint8_t *trace_id,
                                               const uint8_t *span_id);

/**
 * @brief The events stamped in `[at_ns − lookback_ns, at_ns]` with their traces: as
 * llmm_event_log_lookback() (same events, same order), into caller-sized records.
 * @param[in] log the log
 * @param[in] at_ns the time of the spike
 * @param[in] lookback_ns length of the look-back interval
 * @param[out] out an array of `cap` records, each set up with llmm_traced_event_init() (equal
 *             `struct_size`); may be NULL when `cap` is 0; written only on success, each
 *             within its own `struct_size`
 * @param[in] cap capacity of `out`, in records
 * @param[out] len number of events in the interval (also on #LLMM_E_BUFFER)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `log` or `len` is NULL, `out` is NULL with `cap` > 0, or the
 *         records' `struct_size` differ
 * @retval LLMM_E_ABI a `struct_size` that is not a released size (see llmm_struct_init())
 * @retval LLMM_E_BUFFER `cap` is smaller than the number of events (needed in `*len`)
 * @since 1.2.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_event_log_lookback_traced(const llmm_event_log *log, uint64_t at_ns,
                                                    uint64_t lookback_ns, llmm_traced_event *out,
                                                    size_t cap, size_t *len);

/** @} */

/**
 * @defgroup correlation Correlation of paired series: Pearson and Spearman
 *
 * For attribution experiments such as doc/spec.md §6's (scheduler jitter 5 / 25 / 50 µs against
 * NUMA-binding failure rates 1.2 / 37.6 / 89.3 % and P99 spike rates 0.8 / 22.4 / 68.1 %).
 *
 * Pearson's r is computed in two passes over copies of the data scaled by an exact power of
 * two (so no square overflows or underflows), with a corrected mean. Spearman's ρ is Pearson's
 * r of the ranks, where tied values share the average of the ranks they span (the usual
 * "fractional ranking", as scipy.stats.spearmanr). Results are clamped to [−1, 1].
 * @{
 */

/**
 * @brief Correlation coefficient.
 * @since 1.0.0
 */
typedef enum llmm_correlation_method {
    LLMM_CORRELATION_PEARSON = 1,                   /**< Pearson's product-moment r */
    LLMM_CORRELATION_SPEARMAN = 2,                  /**< Spearman's ρ, ties averaged */
    LLMM_CORRELATION_METHOD_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_correlation_method;

/**
 * @brief Correlation of the pairs `(x[i], y[i])`, i < n.
 *
 * Pearson allocates nothing; Spearman allocates 32·n bytes of scratch through `ctx` for the
 * duration of the call.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] x first series, n finite values
 * @param[in] y second series, n finite values
 * @param[in] n number of pairs, ≥ 2
 * @param[in] method #LLMM_CORRELATION_PEARSON or #LLMM_CORRELATION_SPEARMAN
 * @param[out] r the coefficient in [−1, 1]; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, a NaN or infinite value, or an unknown method
 * @retval LLMM_E_EMPTY fewer than 2 pairs
 * @retval LLMM_E_RANGE a series is constant (all its values equal): the coefficient is
 *         undefined
 * @retval LLMM_E_NOMEM Spearman's scratch could not be allocated
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_correlation(llmm_ctx *ctx, const double *x, const double *y, size_t n,
                                      llmm_correlation_method method, double *r);

/** @} */

/**
 * @defgroup stability Stability gate: are the last k window means within 1 + ε of each other?
 *
 * Feed one mean per window (throughput or latency of each measurement window, for example
 * from llmm_sketch_mean() of each closed slot). The gate is *stable* when it holds k means
 * (default 5) and `max / min ≤ 1 + ε` over them (default ε = 0.05), i.e. the run has reached a
 * steady state and its figures may be reported. Means must be positive. The gate remembers the
 * last #LLMM_STABILITY_WINDOWS_MAX means, so a new k or ε applies at once to the means already
 * added. Each add costs O(k) and allocates nothing.
 * @{
 */

/** Default number of window means k. @since 1.0.0 */
#define LLMM_STABILITY_WINDOWS_DEFAULT 5u
/** Largest k. @since 1.0.0 */
#define LLMM_STABILITY_WINDOWS_MAX 64u

/**
 * @brief Option keys of the stability gate. Types, bounds and defaults: @ref options_reference
 * (llmm_option_describe() with #LLMM_KIND_STABILITY).
 * @since 1.0.0
 */
typedef enum llmm_stability_option {
    /** k, the number of window means compared (u64). */
    LLMM_STABILITY_WINDOWS = 1,
    /** ε: stable when max / min ≤ 1 + ε (f64). */
    LLMM_STABILITY_EPSILON = 2,
    LLMM_STABILITY_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_stability_option;

/**
 * @brief The gate's state (llmm_stability_read()).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_stability_reading {
    uint32_t struct_size; /**< caller-sized: set by llmm_stability_reading_init() */
    int32_t stable;       /**< 1: k means held and max / min ≤ 1 + ε */
    uint32_t held;        /**< means judged: min(k, means added), ≤ k */
    uint32_t windows;     /**< k */
    double min;           /**< smallest mean held; 0 when none */
    double max;           /**< largest mean held; 0 when none */
    double ratio;         /**< max / min; 0 when none */
    uint64_t total;       /**< means added since creation or reset */
} llmm_stability_reading;

/**
 * @brief A stability gate (opaque).
 * @since 1.0.0
 */
typedef struct llmm_stability llmm_stability;

/**
 * @brief Create a gate with the default options (@ref options_reference).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[out] out the new gate, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_stability_new(llmm_ctx *ctx, llmm_stability **out);

/**
 * @brief Free a gate. NULL is a no-op.
 * @param[in] s the gate
 * @since 1.0.0
 * @note Not thread-safe: no other call on `s` may run concurrently.
 */
LLMM_API void llmm_stability_free(llmm_stability *s);

/**
 * @brief Set ε (#LLMM_STABILITY_EPSILON).
 * @param[in,out] s the gate
 * @param[in] key #LLMM_STABILITY_EPSILON
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the gate
 * @retval LLMM_E_RANGE `value` NaN or outside the option's bounds (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_stability_set_f64(llmm_stability *s, llmm_stability_option key,
                                            double value);

/**
 * @brief Read ε.
 * @param[in] s the gate
 * @param[in] key #LLMM_STABILITY_EPSILON
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option of the gate
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_stability_get_f64(const llmm_stability *s, llmm_stability_option key,
                                            double *value);

/**
 * @brief Set k (#LLMM_STABILITY_WINDOWS); it applies at once to the means already added.
 * @param[in,out] s the gate
 * @param[in] key #LLMM_STABILITY_WINDOWS
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the gate
 * @retval LLMM_E_RANGE `value` outside the option's bounds (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_stability_set_u64(llmm_stability *s, llmm_stability_option key,
                                            uint64_t value);

/**
 * @brief Read k.
 * @param[in] s the gate
 * @param[in] key #LLMM_STABILITY_WINDOWS
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option of the gate
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_stability_get_u64(const llmm_stability *s, llmm_stability_option key,
                                            uint64_t *value);

/**
 * @brief Add the mean of one window and judge the last k.
 * @param[in,out] s the gate
 * @param[in] mean the window's mean: finite, > 0, ≤ #LLMM_DETECT_VALUE_MAX
 * @param[out] stable 1 when stable after this mean, else 0 (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL or `mean` NaN, infinite, ≤ 0 (nothing changed)
 * @retval LLMM_E_RANGE `mean` above #LLMM_DETECT_VALUE_MAX (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_stability_add(llmm_stability *s, double mean, int32_t *stable);

/**
 * @brief Initialise a ::llmm_stability_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_stability_reading_init(llmm_stability_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_stability_reading_init(r)                                                             \
    LLMM_SIZED_INIT_(LLMM_STRUCT_STABILITY_READING, llmm_stability_reading, r)
/** @endcond */

/**
 * @brief The gate's verdict and the figures behind it.
 * @param[in] s the gate
 * @param[in,out] r the result; `r->struct_size` must be set (llmm_stability_reading_init())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_stability_read(const llmm_stability *s, llmm_stability_reading *r);

/**
 * @brief Forget every mean and the total; options stay.
 * @param[in,out] s the gate
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_stability_reset(llmm_stability *s);

/** @} */

/**
 * @defgroup saturation Saturation signal: latency and in-flight requests rising together
 *
 * Each sample is `(now_ns, latency, in_flight)`. Over the last N samples (default 64) the
 * detector fits two least-squares lines against time, latency(t) and in_flight(t), and reports
 * their slopes (per second) and the standard errors of the slopes,
 * `se = sqrt(RSS / ((n − 2) · Sxx))`. A slope is *confidently positive* when
 * `slope > z · se` (default z = 3, about 99.9 % one-sided for Gaussian residuals) and the rise
 * it predicts over the window is more than 1e-9 of the series' mean (so that rounding in a
 * flat series is never read as a trend). The server is *saturated* when the window is full and
 * both slopes are confidently positive: queueing grows and so does waiting.
 *
 * Cost: O(1) per sample. The sums behind both fits are updated as samples enter and leave;
 * every N samples they are recomputed exactly from the ring, with the time origin moved to
 * the oldest sample and the values centred on their means, so rounding never accumulates.
 * The residual sum of squares comes from the sums as `Syy − slope·Sxy`, so a standard error is
 * exact only to about 1e-8 of `sqrt(Syy / ((n − 2)·Sxx))`: a perfect line shows an se of that
 * order rather than 0, far below any slope it could hide.
 * Time stamps must not go backwards (#LLMM_E_INVALID); equal time stamps are fine (a window
 * whose samples all share one time stamp has no slope).
 * @{
 */

/** Default window of a ::llmm_saturation, in samples. @since 1.0.0 */
#define LLMM_SATURATION_WINDOW_DEFAULT 64u
/** Largest window of a ::llmm_saturation, in samples. @since 1.0.0 */
#define LLMM_SATURATION_WINDOW_MAX 1048576u

/**
 * @brief Option keys of the saturation signal. Types, bounds and defaults:
 * @ref options_reference (llmm_option_describe() with #LLMM_KIND_SATURATION).
 * @since 1.0.0
 */
typedef enum llmm_saturation_option {
    /** N, samples in the window (u64). Only while no sample is held (after creation or
     *  llmm_saturation_reset()). */
    LLMM_SATURATION_WINDOW = 1,
    /** z: a slope is confidently positive when slope > z·se (f64). */
    LLMM_SATURATION_CONFIDENCE = 2,
    LLMM_SATURATION_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_saturation_option;

/**
 * @brief The signal's state (llmm_saturation_read()).
 *
 * Slopes are in the caller's unit per second of `now_ns`.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_saturation_reading {
    uint32_t struct_size;     /**< caller-sized: set by llmm_saturation_reading_init() */
    int32_t saturated;        /**< 1: ready and both slopes confidently positive */
    int32_t ready;            /**< 1: the window holds N samples */
    int32_t latency_rising;   /**< 1: the latency slope is confidently positive */
    int32_t inflight_rising;  /**< 1: the in-flight slope is confidently positive */
    uint32_t samples;         /**< samples held, ≤ N */
    double latency_slope;     /**< least-squares slope of latency over time; 0 when < 2 samples */
    double latency_slope_se;  /**< its standard error; 0 when < 3 samples */
    double inflight_slope;    /**< least-squares slope of in-flight requests over time */
    double inflight_slope_se; /**< its standard error */
    uint64_t total;           /**< samples observed since creation or reset */
} llmm_saturation_reading;

/**
 * @brief An online saturation signal (opaque).
 * @since 1.0.0
 */
typedef struct llmm_saturation llmm_saturation;

/**
 * @brief Create a saturation signal with the default options (@ref options_reference).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[out] out the new object, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_saturation_new(llmm_ctx *ctx, llmm_saturation **out);

/**
 * @brief Free a saturation signal. NULL is a no-op.
 * @param[in] s the object
 * @since 1.0.0
 * @note Not thread-safe: no other call on `s` may run concurrently.
 */
LLMM_API void llmm_saturation_free(llmm_saturation *s);

/**
 * @brief Set z (#LLMM_SATURATION_CONFIDENCE); takes effect with the next call.
 * @param[in,out] s the object
 * @param[in] key #LLMM_SATURATION_CONFIDENCE
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option
 * @retval LLMM_E_RANGE `value` NaN or outside the option's bounds (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_saturation_set_f64(llmm_saturation *s, llmm_saturation_option key,
                                             double value);

/**
 * @brief Read z.
 * @param[in] s the object
 * @param[in] key #LLMM_SATURATION_CONFIDENCE
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an f64 option
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_saturation_get_f64(const llmm_saturation *s, llmm_saturation_option key,
                                             double *value);

/**
 * @brief Set N (#LLMM_SATURATION_WINDOW); reallocates the ring.
 * @param[in,out] s the object
 * @param[in] key #LLMM_SATURATION_WINDOW
 * @param[in] value the new value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option
 * @retval LLMM_E_RANGE `value` outside the option's bounds (nothing changed)
 * @retval LLMM_E_STATE a new value while samples are held (nothing changed)
 * @retval LLMM_E_NOMEM (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_saturation_set_u64(llmm_saturation *s, llmm_saturation_option key,
                                             uint64_t value);

/**
 * @brief Read N.
 * @param[in] s the object
 * @param[in] key #LLMM_SATURATION_WINDOW
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not a u64 option
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_saturation_get_u64(const llmm_saturation *s, llmm_saturation_option key,
                                             uint64_t *value);

/**
 * @brief Add one sample and judge the window.
 * @param[in,out] s the object
 * @param[in] now_ns time stamp, not earlier than the latest accepted
 * @param[in] latency finite, 0 … #LLMM_DETECT_VALUE_MAX
 * @param[in] in_flight requests in flight (a count or a mean), finite, 0 …
 *            #LLMM_DETECT_VALUE_MAX
 * @param[out] saturated 1 when saturated after this sample, else 0 (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL object, a value NaN, infinite or negative, or time going
 *         backwards (nothing changed)
 * @retval LLMM_E_RANGE a value above #LLMM_DETECT_VALUE_MAX (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_saturation_observe(llmm_saturation *s, uint64_t now_ns, double latency,
                                             double in_flight, int32_t *saturated);

/**
 * @brief Initialise a ::llmm_saturation_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_saturation_reading_init(llmm_saturation_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_saturation_reading_init(r)                                                            \
    LLMM_SIZED_INIT_(LLMM_STRUCT_SATURATION_READING, llmm_saturation_reading, r)
/** @endcond */

/**
 * @brief Slopes, standard errors and the verdict over the samples held.
 * @param[in] s the object
 * @param[in,out] r the result; `r->struct_size` must be set (llmm_saturation_reading_init())
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_saturation_read(const llmm_saturation *s, llmm_saturation_reading *r);

/**
 * @brief Forget every sample, the total and the clock; options stay.
 * @param[in,out] s the object
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_saturation_reset(llmm_saturation *s);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_DETECT_H */
