/**
 * @file resource.h
 * @brief CPU-GPU load imbalance, KV-cache formulas and occupancy, TLB / page-walk monitors.
 *
 * The formulas of doc/spec.md §8, each checked against its reference values in the unit tests:
 * - load imbalance index `LII = |mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6)`, as a
 *   batch call (llmm_lii()) and as a streaming monitor over the last W samples with the
 *   keep / prefetch / adapt tiers and a separate scaling trigger (::llmm_lii_monitor);
 * - KV cache: external fragmentation of the free pool, the eviction threshold and TTL derived
 *   from it and from the hit rate, block- vs token-level occupancy, and the hit rate over a
 *   time window (::llmm_kv_hit_tracker);
 * - OOM precursors: page-walk cycles to nanoseconds, TLB miss-rate presets and a miss-rate
 *   monitor over a time window (::llmm_tlb_monitor).
 *
 * The windowed monitors count (events, total) pairs — hits of lookups, misses of accesses — in
 * a ::llmm_ratio_window whose window is divided into #LLMM_RESOURCE_WINDOW_SLOTS slots of
 * `ceil(window / slots)` ns each. Time stamps follow the rules of window.h (caller's monotonic
 * clock in ns, never backwards, spans rounded up to whole slots with the current slot still
 * filling), so the counts read at a time stamp cover the current slot and the 59 before it:
 * they reach back at least 59/60 of the window and at most the window rounded up to 60 whole
 * slots (less than 60 ns beyond it).
 *
 * Thread safety: there is no global state. The free functions are thread-safe. A monitor or
 * tracker object is used by one thread at a time (its reads advance its clock, so they count
 * as writes; it may move between threads); different objects may be used concurrently.
 */
#ifndef LLMMETRICS_RESOURCE_H
#define LLMMETRICS_RESOURCE_H

#include "llmmetrics/detect.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup lii Resource: CPU-GPU load imbalance index
 * @{
 */

/** @brief Default window of a ::llmm_lii_monitor, in samples. @since 1.0.0 */
#define LLMM_LII_WINDOW_DEFAULT 64u

/** @brief Largest window of a ::llmm_lii_monitor, in samples. @since 1.0.0 */
#define LLMM_LII_WINDOW_MAX 1048576u

/**
 * @brief Action tier for a load imbalance index (doc/spec.md §8).
 *
 * With the default thresholds: [0, 0.2) keep, [0.2, 0.4) prefetch, [0.4, 1] adapt. Each lower
 * bound belongs to its tier (an LII of exactly 0.2 is #LLMM_LII_PREFETCH, exactly 0.4 is
 * #LLMM_LII_ADAPT). The comparison is made on the computed double: an LII whose exact value is
 * a threshold may compute one unit in the last place below it unless the utilisations are
 * exact binary fractions.
 * @since 1.0.0
 */
typedef enum llmm_lii_tier {
    LLMM_LII_KEEP = 0,     /**< LII < prefetch threshold: keep the batch size */
    LLMM_LII_PREFETCH = 1, /**< prefetch ≤ LII < adapt threshold: enable prefetch buffering */
    LLMM_LII_ADAPT = 2,    /**< LII ≥ adapt threshold: adapt the batch size */
    LLMM_LII_TIER_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_lii_tier;

/**
 * @brief Double options of a ::llmm_lii_monitor, for llmm_lii_monitor_set_f64().
 *
 * The prefetch threshold must not exceed the adapt threshold (raise the adapt threshold first
 * when moving both up). The scaling trigger is independent of the tiers. Bounds and defaults:
 * @ref options_reference (llmm_option_describe() with #LLMM_KIND_LII_MONITOR).
 * @since 1.0.0
 */
typedef enum llmm_lii_option {
    LLMM_LII_PREFETCH_AT = 0, /**< lower bound of the prefetch tier; ≤ the adapt threshold */
    LLMM_LII_ADAPT_AT = 1,    /**< lower bound of the adapt tier; ≥ the prefetch threshold */
    LLMM_LII_SCALE_AT = 2,    /**< scaling decision when LII ≥ this */
    LLMM_LII_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_lii_option;

/**
 * @brief What a ::llmm_lii_monitor reads now.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_lii_reading {
    uint32_t struct_size; /**< caller-sized: set by llmm_lii_reading_init() */
    llmm_lii_tier tier;   /**< the action tier of `lii` */
    int32_t scale;        /**< 1 when `lii` ≥ the scaling threshold, else 0 */
    uint32_t samples;     /**< samples in the window (≤ the window size) */
    double lii;           /**< load imbalance index over the window, in [0, 1] */
    double mean_cpu;      /**< mean CPU utilisation over the window */
    double mean_gpu;      /**< mean GPU utilisation over the window */
} llmm_lii_reading;

/**
 * @brief A streaming load imbalance index over the last W (CPU, GPU) utilisation samples.
 *
 * O(1) per sample: running sums, re-summed exactly from the ring each time it wraps (amortised
 * O(1)) so rounding errors cannot build up over long runs.
 * @since 1.0.0
 */
typedef struct llmm_lii_monitor llmm_lii_monitor;

/**
 * @brief Load imbalance index of n paired utilisation samples:
 * `|mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6)`.
 *
 * Two idle series (both means 0) give 0.
 * @param[in] cpu n CPU utilisations in [0, 1]
 * @param[in] gpu n GPU utilisations in [0, 1]
 * @param[in] n the number of samples
 * @param[out] lii receives the index, in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL, or a utilisation is NaN or outside [0, 1];
 *         `*lii` is not written
 * @retval LLMM_E_EMPTY `n` is 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_lii(const double *cpu, const double *gpu, size_t n, double *lii);

/**
 * @brief Initialise a ::llmm_lii_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_lii_reading_init(llmm_lii_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_lii_reading_init(r) LLMM_SIZED_INIT_(LLMM_STRUCT_LII_READING, llmm_lii_reading, r)
/** @endcond */

/**
 * @brief Create a streaming LII monitor with the default thresholds (@ref options_reference).
 * @param[in] ctx the context whose allocator is used, or NULL for libc
 * @param[in] window samples kept: 0 for #LLMM_LII_WINDOW_DEFAULT, else 1 to #LLMM_LII_WINDOW_MAX
 * @param[out] out the new monitor, owned by the caller (release with llmm_lii_monitor_free());
 *             NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_RANGE `window` larger than #LLMM_LII_WINDOW_MAX
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_lii_monitor_new(llmm_ctx *ctx, uint32_t window, llmm_lii_monitor **out);

/**
 * @brief Free a monitor. NULL is a no-op.
 * @param[in] m the monitor
 * @since 1.0.0
 * @note Not thread-safe with respect to other calls on the same monitor.
 */
LLMM_API void llmm_lii_monitor_free(llmm_lii_monitor *m);

/**
 * @brief Set a threshold (bounds: @ref options_reference).
 * @param[in,out] m the monitor
 * @param[in] opt the option
 * @param[in] value the threshold
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` NULL, or `value` NaN or infinite
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @retval LLMM_E_RANGE `value` outside the option's bounds, or it would put the prefetch
 *         threshold above the adapt threshold; the monitor is unchanged
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_lii_monitor_set_f64(llmm_lii_monitor *m, llmm_lii_option opt,
                                              double value);

/**
 * @brief Read a threshold.
 * @param[in] m the monitor
 * @param[in] opt the option
 * @param[out] value receives the threshold
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same monitor.
 */
LLMM_API llmm_status llmm_lii_monitor_get_f64(const llmm_lii_monitor *m, llmm_lii_option opt,
                                              double *value);

/**
 * @brief Add one (CPU, GPU) utilisation sample; the oldest leaves once the window is full.
 * @param[in,out] m the monitor
 * @param[in] cpu CPU utilisation in [0, 1]
 * @param[in] gpu GPU utilisation in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` NULL, or a utilisation NaN or outside [0, 1]; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_lii_monitor_add(llmm_lii_monitor *m, double cpu, double gpu);

/**
 * @brief Read the LII over the samples in the window, its tier and the scaling trigger.
 * @param[in] m the monitor
 * @param[in,out] r the reading; `r->struct_size` set by llmm_lii_reading_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` or `r` is NULL
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no sample yet; `r` is not written
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same monitor.
 */
LLMM_API llmm_status llmm_lii_monitor_read(const llmm_lii_monitor *m, llmm_lii_reading *r);

/**
 * @brief Drop every sample; the thresholds stay.
 * @param[in,out] m the monitor
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` is NULL
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_lii_monitor_reset(llmm_lii_monitor *m);

/** @} */

/**
 * @defgroup kv Resource: KV-cache formulas and occupancy
 * @{
 */

/**
 * @brief External fragmentation of the KV-cache free pool: `1 − largest / total` free extent.
 *
 * 0 when the free space is one extent (or there is none: an empty list, or only zero-length
 * extents), approaching 1 as it splinters into many small extents. The total is summed without
 * overflow for any n.
 * @param[in] free_extents the sizes of the free extents (any unit: blocks, bytes); may be NULL
 *            when `n` is 0
 * @param[in] n the number of extents
 * @param[out] f receives the fragmentation, in [0, 1)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `f` is NULL, or `free_extents` is NULL with `n` > 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_fragmentation(const uint64_t *free_extents, size_t n, double *f);

/**
 * @brief KV-cache eviction threshold for a fragmentation: `max(0.65, 0.85 − 0.2·f)`.
 *
 * f = 0 → 0.85, f = 0.2 → 0.81, f = 0.6 → 0.73, f = 1 → 0.65 (over [0, 1] the floor is reached
 * only at f = 1). Evaluated in IEEE double in that order, like the Python reference: f = 0.2
 * gives 0.8099999999999999, the double Python gives.
 * @param[in] fragmentation f in [0, 1]
 * @param[out] threshold receives the threshold, in [0.65, 0.85]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `threshold` NULL, or f NaN or outside [0, 1]
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_evict_threshold(double fragmentation, double *threshold);

/**
 * @brief KV-cache TTL for an average hit rate: `int(128 · (1 + 0.5·(h − 0.75)))`.
 *
 * h = 0 → 80, h = 0.75 → 128, h = 1 → 144. `int()` is Python's: truncation toward zero (here
 * the same as floor, the value being at least 80). The expression is evaluated in IEEE double
 * in exactly that order, without fused multiply-add, so every h gives the integer the Python
 * expression gives, also next to the integer steps: the double just below h = 1/64
 * (0x1.fffffffffffffp-7) gives 81 as Python does, although its exact value is just below 81.
 * @param[in] avg_hit_rate h in [0, 1]
 * @param[out] ttl receives the TTL (in the seed's unit), in [80, 144]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `ttl` NULL, or h NaN or outside [0, 1]
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_ttl(double avg_hit_rate, int64_t *ttl);

/**
 * @brief Block-level and token-level occupancy of a paged KV cache.
 *
 * With block size B, T blocks in the pool, U of them in use and K tokens stored:
 * `block_occupancy = U / T`, `token_occupancy = K / (T·B)`, and their gap
 * `block_occupancy − token_occupancy = (U·B − K) / (T·B)` is the internal fragmentation: slots
 * reserved inside used blocks but holding no token, as a share of the pool.
 * `internal_fragmentation` is the same waste as a share of the reserved slots, `1 − K / (U·B)`
 * (0 when no block is in use).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_kv_occupancy_result {
    uint32_t struct_size;          /**< caller-sized: set by llmm_kv_occupancy_result_init() */
    uint32_t reserved_;            /**< @private padding, always 0 */
    uint64_t wasted_slots;         /**< U·B − K: token slots reserved but empty */
    double block_occupancy;        /**< U / T */
    double token_occupancy;        /**< K / (T·B) */
    double gap;                    /**< block_occupancy − token_occupancy, ≥ 0 */
    double internal_fragmentation; /**< 1 − K / (U·B); 0 when U = 0 */
} llmm_kv_occupancy_result;

/**
 * @brief Initialise a ::llmm_kv_occupancy_result: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_occupancy_result_init(llmm_kv_occupancy_result *r);
/** @cond LLMM_INTERNAL */
#define llmm_kv_occupancy_result_init(r)                                                           \
    LLMM_SIZED_INIT_(LLMM_STRUCT_KV_OCCUPANCY_RESULT, llmm_kv_occupancy_result, r)
/** @endcond */

/**
 * @brief Block-level vs token-level occupancy and their gap (see ::llmm_kv_occupancy_result).
 * @param[in] block_size B, tokens per block, > 0
 * @param[in] blocks_total T, blocks in the pool, > 0
 * @param[in] blocks_used U ≤ T
 * @param[in] tokens_stored K ≤ U·B
 * @param[in,out] r the result; `r->struct_size` set by llmm_kv_occupancy_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` NULL, B or T zero, U > T, K > U·B, or T·B beyond 2^64 − 1;
 *         `r` is not written
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_occupancy(uint64_t block_size, uint64_t blocks_total,
                                       uint64_t blocks_used, uint64_t tokens_stored,
                                       llmm_kv_occupancy_result *r);

/** Window used when llmm_kv_hit_tracker_new() is given 0: one minute. @since 1.0.0 */
#define LLMM_KV_HIT_WINDOW_NS_DEFAULT UINT64_C(60000000000)

/** Slots the window of a resource monitor is divided into. @since 1.0.0 */
#define LLMM_RESOURCE_WINDOW_SLOTS 60u

/**
 * @brief The KV-cache hit rate over a window.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_kv_hit_reading {
    uint32_t struct_size; /**< caller-sized: set by llmm_kv_hit_reading_init() */
    uint32_t reserved_;   /**< @private padding, always 0 */
    uint64_t hits;        /**< hits in the window */
    uint64_t lookups;     /**< lookups in the window, > 0 */
    double hit_rate;      /**< hits / lookups, in [0, 1] */
    int64_t ttl;          /**< the cache TTL for that hit rate, as llmm_kv_ttl() gives it */
} llmm_kv_hit_reading;

/**
 * @brief KV-cache hits and lookups over a time window (opaque).
 * @since 1.0.0
 */
typedef struct llmm_kv_hit_tracker llmm_kv_hit_tracker;

/**
 * @brief Initialise a ::llmm_kv_hit_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_hit_reading_init(llmm_kv_hit_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_kv_hit_reading_init(r)                                                                \
    LLMM_SIZED_INIT_(LLMM_STRUCT_KV_HIT_READING, llmm_kv_hit_reading, r)
/** @endcond */

/**
 * @brief Create a hit-rate tracker.
 * @param[in] ctx the context whose allocator is used, or NULL for libc
 * @param[in] window_ns the window in ns, or 0 for #LLMM_KV_HIT_WINDOW_NS_DEFAULT (1 min)
 * @param[out] out the new tracker, owned by the caller (release with
 *             llmm_kv_hit_tracker_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL
 * @retval LLMM_E_RANGE `window_ns` above 2^64 − 60 (its slots would not fit in 64 bits)
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_kv_hit_tracker_new(llmm_ctx *ctx, uint64_t window_ns,
                                             llmm_kv_hit_tracker **out);

/**
 * @brief Free a tracker. NULL is a no-op.
 * @param[in] t the tracker
 * @since 1.0.0
 * @note Not thread-safe with respect to other calls on the same tracker.
 */
LLMM_API void llmm_kv_hit_tracker_free(llmm_kv_hit_tracker *t);

/**
 * @brief Count `hits` hits out of `lookups` lookups at time `now_ns`.
 * @param[in,out] t the tracker
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] hits the hits, ≤ `lookups`
 * @param[in] lookups the lookups
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` NULL, `hits` > `lookups`, or time going backwards; nothing
 *         changed
 * @retval LLMM_E_RANGE the lookups counted since creation or the last reset would exceed
 *         2^64 − 1; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same tracker.
 */
LLMM_API llmm_status llmm_kv_hit_tracker_add(llmm_kv_hit_tracker *t, uint64_t now_ns, uint64_t hits,
                                             uint64_t lookups);

/**
 * @brief The hit rate over the window ending at `now_ns`, and the TTL it gives.
 * @param[in,out] t the tracker (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in,out] r the reading; `r->struct_size` set by llmm_kv_hit_reading_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` or `r` NULL, or time going backwards; nothing changed
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no lookup in the window; `r` not written, nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same tracker.
 */
LLMM_API llmm_status llmm_kv_hit_tracker_read(llmm_kv_hit_tracker *t, uint64_t now_ns,
                                              llmm_kv_hit_reading *r);

/**
 * @brief Forget every count and the clock.
 * @param[in,out] t the tracker
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `t` is NULL
 * @since 1.0.0
 * @note Not thread-safe on the same tracker.
 */
LLMM_API llmm_status llmm_kv_hit_tracker_reset(llmm_kv_hit_tracker *t);

/** @} */

/**
 * @defgroup oom Resource: OOM precursors (page walks, TLB misses)
 * @{
 */

/**
 * @brief TLB miss-rate alert presets (doc/spec.md §8).
 *
 * | preset | miss-rate threshold | window |
 * |---|---|---|
 * | #LLMM_TLB_OLTP_DATABASE | 12.5 % | 1 s |
 * | #LLMM_TLB_JAVA_MICROSERVICE | 8.2 % | 500 ms |
 * @since 1.0.0
 */
typedef enum llmm_tlb_workload {
    LLMM_TLB_OLTP_DATABASE = 0,               /**< 0.125 over 1 s */
    LLMM_TLB_JAVA_MICROSERVICE = 1,           /**< 0.082 over 500 ms */
    LLMM_TLB_WORKLOAD_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_tlb_workload;

/**
 * @brief The miss-rate threshold and window of a TLB preset.
 * @param[in] workload the preset
 * @param[out] max_miss_rate receives the threshold as a fraction (0.125 for 12.5 %)
 * @param[out] window_ns receives the window in nanoseconds
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID an out-pointer NULL or `workload` unknown; nothing written
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_tlb_preset(llmm_tlb_workload workload, double *max_miss_rate,
                                     uint64_t *window_ns);

/**
 * @brief Page-table-walk latency from cycles: `ns = cycles / cpu_hz · 1e9`.
 *
 * For example 3000 cycles at 3 GHz is 1000 ns. The result is a latency the spike detector can
 * take directly.
 * @param[in] cycles walk cycles (finite, ≥ 0; may be an average, hence fractional)
 * @param[in] cpu_hz the core clock in Hz (finite, > 0)
 * @param[out] ns receives the latency in nanoseconds
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `ns` NULL, an argument NaN, infinite or out of its range, or the
 *         result not finite
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_page_walk_ns(double cycles, double cpu_hz, double *ns);

/**
 * @brief What a ::llmm_tlb_monitor reads.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_tlb_reading {
    uint32_t struct_size; /**< caller-sized: set by llmm_tlb_reading_init() */
    int32_t alert;        /**< 1 when `miss_rate` > `max_miss_rate`, else 0 */
    uint64_t misses;      /**< TLB misses in the window */
    uint64_t accesses;    /**< TLB accesses in the window, > 0 */
    uint64_t window_ns;   /**< the monitor's window */
    double miss_rate;     /**< misses / accesses, in [0, 1] */
    double max_miss_rate; /**< the monitor's threshold */
} llmm_tlb_reading;

/**
 * @brief TLB misses and accesses over a time window against a miss-rate threshold (opaque).
 *
 * The alert fires when the miss rate over the window exceeds the threshold (strictly: a rate
 * equal to the threshold does not fire).
 * @since 1.0.0
 */
typedef struct llmm_tlb_monitor llmm_tlb_monitor;

/**
 * @brief Initialise a ::llmm_tlb_reading: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_tlb_reading_init(llmm_tlb_reading *r);
/** @cond LLMM_INTERNAL */
#define llmm_tlb_reading_init(r) LLMM_SIZED_INIT_(LLMM_STRUCT_TLB_READING, llmm_tlb_reading, r)
/** @endcond */

/**
 * @brief Create a TLB miss-rate monitor with a preset's threshold and window (see
 * ::llmm_tlb_workload).
 * @param[in] ctx the context whose allocator is used, or NULL for libc
 * @param[in] workload the preset
 * @param[out] out the new monitor, owned by the caller (release with
 *             llmm_tlb_monitor_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` NULL or `workload` unknown
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_tlb_monitor_new(llmm_ctx *ctx, llmm_tlb_workload workload,
                                          llmm_tlb_monitor **out);

/**
 * @brief Create a TLB miss-rate monitor with a custom threshold and window.
 * @param[in] ctx the context whose allocator is used, or NULL for libc
 * @param[in] max_miss_rate the threshold, as a fraction in [0, 1]
 * @param[in] window_ns the window in ns, > 0
 * @param[out] out the new monitor, owned by the caller (release with
 *             llmm_tlb_monitor_free()); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` NULL, `max_miss_rate` NaN or infinite, or `window_ns` 0
 * @retval LLMM_E_RANGE `max_miss_rate` outside [0, 1], or `window_ns` above 2^64 − 60 (its
 *         slots would not fit in 64 bits)
 * @retval LLMM_E_NOMEM an allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_tlb_monitor_new_custom(llmm_ctx *ctx, double max_miss_rate,
                                                 uint64_t window_ns, llmm_tlb_monitor **out);

/**
 * @brief Free a monitor. NULL is a no-op.
 * @param[in] m the monitor
 * @since 1.0.0
 * @note Not thread-safe with respect to other calls on the same monitor.
 */
LLMM_API void llmm_tlb_monitor_free(llmm_tlb_monitor *m);

/**
 * @brief Count `misses` TLB misses out of `accesses` accesses at time `now_ns` (for example
 * the deltas of the dTLB-load-misses and dTLB-loads hardware counters since the last call).
 * @param[in,out] m the monitor
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in] misses the misses, ≤ `accesses`
 * @param[in] accesses the accesses
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` NULL, `misses` > `accesses`, or time going backwards; nothing
 *         changed
 * @retval LLMM_E_RANGE the accesses counted since creation or the last reset would exceed
 *         2^64 − 1; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_tlb_monitor_add(llmm_tlb_monitor *m, uint64_t now_ns, uint64_t misses,
                                          uint64_t accesses);

/**
 * @brief The miss rate over the window ending at `now_ns` and whether it exceeds the
 * threshold.
 * @param[in,out] m the monitor (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than the latest accepted
 * @param[in,out] r the reading; `r->struct_size` set by llmm_tlb_reading_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` or `r` NULL, or time going backwards; nothing changed
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_EMPTY no access in the window; `r` not written, nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_tlb_monitor_read(llmm_tlb_monitor *m, uint64_t now_ns,
                                           llmm_tlb_reading *r);

/**
 * @brief Forget every count and the clock; the threshold and window stay.
 * @param[in,out] m the monitor
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` is NULL
 * @since 1.0.0
 * @note Not thread-safe on the same monitor.
 */
LLMM_API llmm_status llmm_tlb_monitor_reset(llmm_tlb_monitor *m);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_RESOURCE_H */
