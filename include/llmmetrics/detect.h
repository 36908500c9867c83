/**
 * @file detect.h
 * @brief Latency-spike and throughput-collapse detectors, event attribution, correlation.
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
 * in force when it arrives (SPEC.md §6):
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
 * Spike rate. llmm_spike_rate() is the SPEC.md §6 rate over the window at `now_ns` (the slot of
 * `now_ns` and the `slots − 1` before it): the number of classified samples that were above
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
 * llmm_spike_set_f64(), the u64 keys with llmm_spike_set_u64().
 * @since 1.0.0
 */
typedef enum llmm_spike_option {
    /** f64, default 0.99: quantile of the base threshold (P99), in (0, 1) exclusive. */
    LLMM_SPIKE_BASE_QUANTILE = 1,
    /** f64, default 0.999: quantile of the severe threshold (P99.9), in (0, 1) exclusive. */
    LLMM_SPIKE_SEVERE_QUANTILE = 2,
    /** f64, default 1.2: level 2 needs latency > factor × severe threshold; 1 … 100. */
    LLMM_SPIKE_SEVERE_FACTOR = 3,
    /** u64, default 1000: baseline samples needed before classifying; 1 … 2^32 − 1. */
    LLMM_SPIKE_WARMUP = 4,
    /** u64, default 10^9 (1 s): slot length in ns; ≥ 1, slot length × slots < 2^64.
     *  Only before the first time stamp. */
    LLMM_SPIKE_SLOT_NS = 5,
    /** u64, default 60: slots in the window; 2 … #LLMM_WINDOW_SLOTS_MAX.
     *  Only before the first time stamp. */
    LLMM_SPIKE_SLOTS = 6,
    /** u64, default #LLMM_SCALE_DEFAULT: sketch scale, #LLMM_SCALE_MIN … #LLMM_SCALE_MAX.
     *  Only before the first time stamp. */
    LLMM_SPIKE_SCALE = 7,
    LLMM_SPIKE_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_spike_option;

/**
 * @brief What the detector knows at a time stamp: baselines in force and counts per level.
 *
 * Size-prefixed: set `struct_size` with llmm_spike_stats_init() before the call; fields are
 * only ever appended. "Window" counts cover the slot of `now_ns` and the `slots − 1` before
 * it; "total" counts cover everything since creation or llmm_spike_reset().
 * @since 1.0.0
 */
typedef struct llmm_spike_stats {
    uint32_t struct_size;       /**< sizeof(llmm_spike_stats), set by llmm_spike_stats_init() */
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
 * @brief Create a spike detector with the defaults: 1 s × 60 slots, P99, P99.9, factor 1.2,
 * warm-up 1000, sketch scale 6.
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
 * @brief Set a floating-point option (see ::llmm_spike_option for defaults and bounds).
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
LLMM_API llmm_status llmm_spike_get_f64(const llmm_spike *d, llmm_spike_option key,
                                        double *value);

/**
 * @brief Set an integer option (see ::llmm_spike_option for defaults and bounds).
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
 * @brief Prepare a ::llmm_spike_stats for llmm_spike_get_stats(): zero it and set
 * `struct_size`.
 * @param[out] s the struct
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_spike_stats_init(llmm_spike_stats *s);

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
 * @retval LLMM_E_ABI `s->struct_size` is not a size this library knows
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

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_DETECT_H */
