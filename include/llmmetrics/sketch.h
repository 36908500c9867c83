/**
 * @file sketch.h
 * @brief Quantile sketches with a guaranteed relative error, per-thread recorders, binary form.
 *
 * A ::llmm_sketch counts positive values in OpenTelemetry base-2 exponential buckets:
 * base = 2^(2^-scale), bucket `i` holds the values in (base^i, base^(i+1)]. At the default
 * scale 6 every quantile is answered within 0.542 % relative error (exactly
 * (base - 1) / (base + 1)). The bucket index is computed exactly from the IEEE-754 bits,
 * never with `log()`, so two sketches of the same scale always agree bucket for bucket and
 * merge exactly, and the buckets export losslessly as OTLP exponential histograms and
 * Prometheus native histograms.
 *
 * Units: the sketch is unit-agnostic. Record in seconds when you export (the exporters are
 * bit-exact for seconds or any power-of-two factor).
 *
 * Rank rule (doc/spec.md §5): quantile q of n values is the value of rank r = max(1, ceil(q·n)),
 * where q·n within 1e-9 of an integer counts as that integer. Rank 1 returns the exact
 * minimum, rank n the exact maximum, every other rank the representative value of its bucket
 * (2·base^(i+1)/(1+base), the point of least relative error), clamped to [min, max].
 *
 * Range: values are tracked with full accuracy inside a configurable range (default
 * #LLMM_SKETCH_RANGE_MIN_DEFAULT … #LLMM_SKETCH_RANGE_MAX_DEFAULT, whole buckets: a value is
 * in range when its bucket is between the buckets of the two bounds). Zero goes to a zero
 * bucket; positive values below the range to an underflow count, above it to an overflow
 * count. Nothing recorded is dropped: a rank that falls among the underflow (overflow) counts
 * returns the range bound, clamped to [min, max]. Count, min and max are always exact; the
 * sum is a double added in arrival order, the same for one-by-one and batched adds.
 *
 * Thread safety: a sketch is single-writer; it may be read concurrently only while no one
 * writes. Use `llmm_recorder` for many writer threads.
 */
#ifndef LLMMETRICS_SKETCH_H
#define LLMMETRICS_SKETCH_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup sketch Sketch: streaming quantiles with guaranteed relative error
 * @{
 */

/** Default scale: 64 buckets per power of two, 0.542 % worst relative error. @since 1.0.0 */
#define LLMM_SCALE_DEFAULT 6
/** Smallest supported scale (1 bucket per power of two). @since 1.0.0 */
#define LLMM_SCALE_MIN 0
/** Largest supported scale (1024 buckets per power of two). @since 1.0.0 */
#define LLMM_SCALE_MAX 10
/** Default lower end of the accurately tracked range. @since 1.0.0 */
#define LLMM_SKETCH_RANGE_MIN_DEFAULT 1e-9
/** Default upper end of the accurately tracked range. @since 1.0.0 */
#define LLMM_SKETCH_RANGE_MAX_DEFAULT 1e15
/** Smallest accepted lower range bound (keeps subnormals out of every range). @since 1.0.0 */
#define LLMM_SKETCH_RANGE_MIN_LIMIT 1e-300

/** Largest accepted upper range bound. @since 1.0.0 */
#define LLMM_SKETCH_RANGE_MAX_LIMIT 1e300

/**
 * @brief A streaming, mergeable quantile sketch (opaque).
 * @since 1.0.0
 */
typedef struct llmm_sketch llmm_sketch;

/**
 * @brief Create an empty sketch.
 *
 * Memory is only spent on the part of the value range actually touched (a dense run of
 * 32-bit bucket counters that grows as needed).
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] scale #LLMM_SCALE_DEFAULT or any value in #LLMM_SCALE_MIN … #LLMM_SCALE_MAX
 * @param[out] out the new sketch, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL or `scale` is out of bounds
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_sketch_new(llmm_ctx *ctx, int32_t scale, llmm_sketch **out);

/**
 * @brief Free a sketch. NULL is a no-op.
 * @param[in] s the sketch
 * @since 1.0.0
 * @note Not thread-safe: no other call on the sketch may run.
 */
LLMM_API void llmm_sketch_free(llmm_sketch *s);

/**
 * @brief Set the accurately tracked value range. Only allowed while the sketch is empty.
 * @param[in,out] s the sketch
 * @param[in] lo lower bound, ≥ #LLMM_SKETCH_RANGE_MIN_LIMIT
 * @param[in] hi upper bound, > `lo` and ≤ #LLMM_SKETCH_RANGE_MAX_LIMIT
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch, a non-finite bound, a bound beyond its limit or `hi <= lo`
 * @retval LLMM_E_STATE the sketch already holds values
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_set_range(llmm_sketch *s, double lo, double hi);

/**
 * @brief Read the configured range.
 * @param[in] s the sketch
 * @param[out] lo lower bound as configured
 * @param[out] hi upper bound as configured
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_range(const llmm_sketch *s, double *lo, double *hi);

/**
 * @brief Record one value. The hot path: no allocation once its bucket region is touched.
 *
 * The one call that does not check its handle: `s` must be a live sketch (a NULL `s` is
 * undefined behaviour, not #LLMM_E_INVALID), because the test and branch would be two of the
 * 25 instructions an add is allowed. Every value is checked.
 * @param[in,out] s the sketch, not NULL
 * @param[in] v a finite value ≥ 0
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `v` is NaN, infinite or negative (nothing recorded)
 * @retval LLMM_E_RANGE the sketch already counts 2^64 − 1 values (nothing recorded)
 * @retval LLMM_E_NOMEM growing the bucket store failed (nothing recorded)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_add(llmm_sketch *s, double v);

/**
 * @brief Record one value `n` times (n = 0 is a no-op that still validates `v`).
 * @param[in,out] s the sketch
 * @param[in] v a finite value ≥ 0
 * @param[in] n how many times
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch, or `v` is NaN, infinite or negative (nothing recorded)
 * @retval LLMM_E_RANGE the total count would overflow 2^64 − 1 (nothing recorded)
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_add_n(llmm_sketch *s, double v, uint64_t n);

/**
 * @brief Record a batch. All or nothing: if any value is invalid (or memory runs out) the
 * sketch is left exactly as it was and nothing of the batch is recorded. The sum is the same,
 * bit for bit, as adding the values one by one with llmm_sketch_add().
 * @param[in,out] s the sketch
 * @param[in] v the values (may be NULL when `n` is 0)
 * @param[in] n number of values
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch or values, or any value NaN, infinite or negative
 * @retval LLMM_E_RANGE the total count would pass 2^64 − 1 (nothing recorded)
 * @retval LLMM_E_NOMEM nothing recorded
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_add_many(llmm_sketch *s, const double *v, size_t n);

/**
 * @brief Quantile `q` by the nearest-rank rule described in the file documentation.
 * @param[in] s the sketch
 * @param[in] q probability in [0, 1]
 * @param[out] out the quantile
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or `q` outside [0, 1] or NaN
 * @retval LLMM_E_EMPTY the sketch holds no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_quantile(const llmm_sketch *s, double q, double *out);

/**
 * @brief Many quantiles in one pass over the buckets; `q` may be in any order.
 * @param[in] s the sketch
 * @param[in] q `n` probabilities in [0, 1]
 * @param[in] n number of probabilities
 * @param[out] out `n` results, `out[i]` for `q[i]`; untouched on error
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or any `q[i]` outside [0, 1]
 * @retval LLMM_E_EMPTY the sketch holds no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_quantiles(const llmm_sketch *s, const double *q, size_t n,
                                           double *out);

/**
 * @brief Fraction of recorded values ≤ `v`.
 *
 * Exact below the minimum (0) and at or above the maximum (1); otherwise every value in the
 * bucket of `v` counts as ≤ `v` (an answer within one bucket).
 * @param[in] s the sketch
 * @param[in] v any value that is not NaN
 * @param[out] fraction_le the fraction in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or `v` is NaN
 * @retval LLMM_E_EMPTY the sketch holds no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_rank(const llmm_sketch *s, double v, double *fraction_le);

/**
 * @brief Number of recorded values (zero, in-range and out-of-range alike).
 * @param[in] s the sketch (NULL gives 0)
 * @return the count
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API uint64_t llmm_sketch_count(const llmm_sketch *s);

/**
 * @brief Sum of the recorded values (0 for an empty sketch), added in arrival order.
 * @param[in] s the sketch
 * @param[out] out the sum
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_sum(const llmm_sketch *s, double *out);

/**
 * @brief Exact smallest recorded value.
 * @param[in] s the sketch
 * @param[out] out the minimum
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_EMPTY no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_min(const llmm_sketch *s, double *out);

/**
 * @brief Exact largest recorded value.
 * @param[in] s the sketch
 * @param[out] out the maximum
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_EMPTY no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_max(const llmm_sketch *s, double *out);

/**
 * @brief Arithmetic mean (sum / count).
 * @param[in] s the sketch
 * @param[out] out the mean
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_EMPTY no values
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_mean(const llmm_sketch *s, double *out);

/**
 * @brief Counts outside the bucketed range: exact zeros, values below and above the range.
 * @param[in] s the sketch
 * @param[out] zero count of exact zeros (nullable)
 * @param[out] under count of positive values below the range (nullable)
 * @param[out] over count of values above the range (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_special_counts(const llmm_sketch *s, uint64_t *zero,
                                                uint64_t *under, uint64_t *over);

/**
 * @brief Scale of the sketch.
 * @param[in] s the sketch (NULL gives -1)
 * @return the scale, 0 … 10
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API int32_t llmm_sketch_scale(const llmm_sketch *s);

/**
 * @brief The smallest and largest non-empty bucket index (OpenTelemetry numbering).
 *
 * With llmm_sketch_bucket_count() this is the bucket cursor for exporters: iterate
 * `i = first … last` (empty buckets in between have count 0).
 * @param[in] s the sketch
 * @param[out] first index of the lowest non-empty bucket
 * @param[out] last index of the highest non-empty bucket
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_EMPTY no in-range values (zero / under / overflow counts may still exist)
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_sketch_bucket_span(const llmm_sketch *s, int32_t *first, int32_t *last);

/**
 * @brief Count of one bucket (0 for any index the sketch has not touched).
 * @param[in] s the sketch (NULL gives 0)
 * @param[in] index OpenTelemetry bucket index
 * @return the count
 * @since 1.0.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API uint64_t llmm_sketch_bucket_count(const llmm_sketch *s, int32_t index);

/**
 * @brief Bucket index of a value at a scale: `i` with base^i < v ≤ base^(i+1).
 * @param[in] scale 0 … 10
 * @param[in] v a finite value > 0 (subnormals included)
 * @param[out] index the OpenTelemetry bucket index
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID bad scale, NULL `index`, or `v` not finite and > 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_sketch_index(int32_t scale, double v, int32_t *index);

/**
 * @brief Bounds of bucket `index` at `scale`: (lower, upper] = (base^index, base^(index+1)].
 * @param[in] scale 0 … 10
 * @param[in] index bucket index
 * @param[out] lower lower bound (exclusive), nullable
 * @param[out] upper upper bound (inclusive), nullable
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID bad scale
 * @retval LLMM_E_RANGE a bound is not representable as a finite double
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_sketch_bucket_bounds(int32_t scale, int32_t index, double *lower,
                                               double *upper);

/**
 * @brief Merge `src` into `dst` exactly.
 *
 * Equal scales add counts bucket by bucket. With different scales the result takes the
 * coarser scale: the finer sketch (which may be `dst`) is downscaled by an exact index shift.
 * Values of `src` outside `dst`'s range go to `dst`'s underflow / overflow counts. An empty
 * `src` takes part like any other: a coarser one still lowers `dst`'s scale and its sum is
 * added, so merges in any order and grouping give the same result. All or nothing: on any
 * error `dst` is unchanged.
 * @param[in,out] dst the sketch receiving the values
 * @param[in] src the sketch to add (unchanged; may not be `dst`)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument or `src == dst`
 * @retval LLMM_E_RANGE a count would overflow 2^64 − 1
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Not thread-safe for `dst`; `src` is only read.
 */
LLMM_API llmm_status llmm_sketch_merge(llmm_sketch *dst, const llmm_sketch *src);

/**
 * @brief Turn a later cumulative snapshot into the interval since an earlier one:
 * `dst = dst − earlier`.
 *
 * `earlier` must be contained in `dst` (same scale and range, every count ≤ `dst`'s), as
 * when both are snapshots of one recorder. Count, buckets and special counts are exact, the
 * sum is the difference of the sums (0 where rounding would make it negative). Min / max are
 * exact when the extreme of `dst` came from the interval (it is beyond the extreme of
 * `earlier`); otherwise they become the representative value of the extreme non-empty bucket,
 * within the sketch's relative error. Whatever the operands, the result's extremes enclose
 * what it counts (doc/format.md, section 3.4), so it encodes to a message that decodes.
 * @param[in,out] dst the later snapshot; becomes the interval
 * @param[in] earlier the earlier snapshot
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `earlier == dst`, or different scales or ranges
 * @retval LLMM_E_STATE `earlier` is not contained in `dst` (dst unchanged)
 * @since 1.0.0
 * @note Not thread-safe for `dst`; `earlier` is only read.
 */
LLMM_API llmm_status llmm_sketch_subtract(llmm_sketch *dst, const llmm_sketch *earlier);

/**
 * @brief Remove every value; scale, range and allocated memory stay.
 * @param[in,out] s the sketch
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_reset(llmm_sketch *s);

/**
 * @brief Deep copy (same context, scale, range and contents).
 * @param[in] s the sketch
 * @param[out] out the copy, or NULL on failure; free it with llmm_sketch_free()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Safe to call concurrently with other readers of `s`.
 */
LLMM_API llmm_status llmm_sketch_clone(const llmm_sketch *s, llmm_sketch **out);

/**
 * @brief Lower the scale in place by an exact index shift (bucket i → i >> (scale − new)).
 * @param[in,out] s the sketch
 * @param[in] new_scale 0 … current scale (equal is a no-op)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL sketch or `new_scale` outside 0 … current scale
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_sketch_downscale(llmm_sketch *s, int32_t new_scale);

/**
 * @brief Copy `src`'s contents into `dst`, replacing all of `dst`'s contents, scale and range.
 *
 * Copying a sketch onto itself (`dst == src`) changes nothing and returns #LLMM_OK.
 * @param[in,out] dst the target (its context is kept)
 * @param[in] src the source
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM `dst` unchanged
 * @since 1.0.0
 * @note Not thread-safe for `dst`; `src` is only read.
 */
LLMM_API llmm_status llmm_sketch_copy(llmm_sketch *dst, const llmm_sketch *src);

/** @} */

/**
 * @defgroup recorder Recorder: many writer threads, one set of counts
 *
 * A ::llmm_recorder hands each writer thread its own single-writer ::llmm_shard. Recording
 * into a shard takes no lock, no atomic read-modify-write and, once the shard has touched a
 * bucket region (a page of 64 buckets), no allocation: counters are updated with relaxed
 * atomic loads and stores that only their one writer performs. A reader thread may call
 * llmm_recorder_snapshot() at any time, concurrently with the writers, to obtain the
 * cumulative totals; two snapshots and llmm_sketch_subtract() give an interval.
 *
 * Thread safety: llmm_recorder_shard() and llmm_recorder_snapshot() are thread-safe; a
 * shard is used by one thread at a time (it may move between threads between uses);
 * llmm_recorder_free() only when no other call on the recorder or its shards is running.
 * The context's allocator must be thread-safe (libc's is): shards allocate pages from
 * their writer threads.
 * @{
 */

/** A multi-writer recorder (opaque). @since 1.0.0 */
typedef struct llmm_recorder llmm_recorder;
/** A single-writer shard of a recorder (opaque, owned by the recorder). @since 1.0.0 */
typedef struct llmm_shard llmm_shard;

/**
 * @brief Create a recorder.
 * @param[in] ctx allocation context (its allocator must be thread-safe), or NULL for libc
 * @param[in] scale #LLMM_SCALE_DEFAULT or 0 … 10
 * @param[out] out the recorder, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` NULL or bad scale
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_recorder_new(llmm_ctx *ctx, int32_t scale, llmm_recorder **out);

/**
 * @brief Set the tracked value range (as llmm_sketch_set_range()); only before the first
 * shard is handed out.
 * @param[in,out] r the recorder
 * @param[in] lo lower bound
 * @param[in] hi upper bound
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID bad arguments (see llmm_sketch_set_range())
 * @retval LLMM_E_STATE a shard was already handed out
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_recorder_set_range(llmm_recorder *r, double lo, double hi);

/**
 * @brief Hand out a shard for the calling writer thread: a released one if there is one,
 * else a new one.
 * @param[in,out] r the recorder
 * @param[out] out the shard, valid until llmm_recorder_free(); NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_recorder_shard(llmm_recorder *r, llmm_shard **out);

/**
 * @brief Record one value into a shard.
 * @param[in,out] sh the shard
 * @param[in] v a finite value ≥ 0
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL shard, or `v` NaN, infinite or negative (nothing recorded)
 * @retval LLMM_E_NOMEM the first touch of a bucket page failed (nothing recorded)
 * @since 1.0.0
 * @note Single writer per shard; concurrent with snapshots.
 */
LLMM_API llmm_status llmm_shard_add(llmm_shard *sh, double v);

/**
 * @brief Record a batch into a shard; all or nothing, as llmm_sketch_add_many(): the batch is
 * checked (and the pages it needs made) before any of it is counted, so a concurrent snapshot
 * never sees part of a failed batch.
 * @param[in,out] sh the shard
 * @param[in] v the values (NULL allowed when `n` is 0)
 * @param[in] n number of values
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL shard or values, or any invalid value (nothing recorded)
 * @retval LLMM_E_NOMEM nothing recorded
 * @since 1.0.0
 * @note Single writer per shard; concurrent with snapshots.
 */
LLMM_API llmm_status llmm_shard_add_many(llmm_shard *sh, const double *v, size_t n);

/**
 * @brief Give a shard back. Its counts stay in the recorder; the shard may be handed out
 * again by llmm_recorder_shard(). NULL is a no-op.
 * @param[in] sh the shard
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API void llmm_shard_release(llmm_shard *sh);

/**
 * @brief Replace `into`'s contents (and scale and range) with the cumulative totals of every
 * shard. Safe while writers run.
 *
 * The snapshot is internally consistent: its count is exactly the sum of the bucket, zero,
 * underflow and overflow counts it read. Values being recorded during the snapshot are
 * either in it or not; the sum, min and max are read after the buckets, so they may already
 * include a value whose bucket was read just before it arrived. Once writers are quiet a
 * snapshot is exact.
 * @param[in] r the recorder
 * @param[in,out] into the sketch to overwrite (its context is kept)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_NOMEM `into` unchanged
 * @since 1.0.0
 * @note Thread-safe; concurrent with writers.
 */
LLMM_API llmm_status llmm_recorder_snapshot(llmm_recorder *r, llmm_sketch *into);

/**
 * @brief Free a recorder and all its shards. NULL is a no-op.
 * @param[in] r the recorder; no other thread may be using it or its shards
 * @since 1.0.0
 * @note Not thread-safe: no other call on the recorder or its shards may run.
 */
LLMM_API void llmm_recorder_free(llmm_recorder *r);

/** @} */

/**
 * @defgroup sketch_codec Sketch binary format
 * @brief A compact, versioned, checksummed encoding of a whole sketch (specified in @ref format,
 * doc/format.md).
 *
 * The encoding holds everything a sketch knows (scale, range, count, min, max, sum bit for
 * bit, the zero / underflow / overflow counts and every bucket), so decoding gives a sketch
 * equal to the original in every observable respect. It is little-endian and independent of
 * the host; a log-normal series of 10 M values (σ = 1) takes about 1.4 KiB at scale 6.
 * @{
 */

/** Format version written by llmm_sketch_serialize(). @since 1.0.0 */
#define LLMM_SKETCH_FORMAT_VERSION 1

/**
 * @brief Encode a sketch into a caller buffer.
 *
 * Call with `buf` NULL and `cap` 0 to learn the size: the call returns #LLMM_E_BUFFER with
 * the needed size in `*len`. The size depends on the contents only, so a buffer of that size
 * works until the sketch changes.
 * @param[in] s the sketch (unchanged)
 * @param[out] buf where to write, or NULL when `cap` is 0; untouched unless the call succeeds
 * @param[in] cap bytes available at `buf`
 * @param[out] len the encoded size, set on success and on #LLMM_E_BUFFER
 * @retval LLMM_OK `*len` bytes written to `buf`
 * @retval LLMM_E_INVALID `s` or `len` is NULL, or `buf` is NULL while `cap` is not 0
 * @retval LLMM_E_BUFFER `cap` is smaller than the encoding; `*len` is the size needed
 * @since 1.0.0
 * @note Safe to call concurrently with other readers of `s`; never allocates.
 */
LLMM_API llmm_status llmm_sketch_serialize(const llmm_sketch *s, uint8_t *buf, size_t cap,
                                           size_t *len);

/**
 * @brief Decode a sketch encoded by llmm_sketch_serialize() (format versions up to
 * #LLMM_SKETCH_FORMAT_VERSION).
 *
 * The whole input is validated before anything is allocated: checksum, every field, every
 * bucket index (inside the encoded range), count consistency (count = zeros + underflow +
 * overflow + all bucket counts, without overflow), 0 ≤ min ≤ max (max > 0 unless every value
 * is 0), extremes that enclose what is counted (min 0 when a zero is; max in or above the
 * highest non-empty bucket, min in or below the lowest) and a sum that is not negative (±0
 * when empty): every rule of doc/format.md, section 3.4. Truncated, extended or damaged
 * input of any kind, and fields that contradict each other, are rejected; a damaged version
 * byte is reported as corruption.
 * The new sketch's bucket store is sized by the span of the encoded buckets, which the
 * validation has already confined to the encoded range (as for any sketch, at most a few MiB
 * at scale 10 over the widest range).
 * @param[in] ctx allocation context for the new sketch, or NULL for libc
 * @param[in] buf the encoding (exactly `len` bytes: trailing bytes are an error)
 * @param[in] len its length
 * @param[out] out the decoded sketch, or NULL on failure; free it with llmm_sketch_free()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` or `buf` is NULL
 * @retval LLMM_E_CORRUPT the input is not an intact encoding (nothing allocated)
 * @retval LLMM_E_VERSION an intact encoding of a format version this library does not know
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe (reads only `buf`).
 */
LLMM_API llmm_status llmm_sketch_deserialize(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                             llmm_sketch **out);

/**
 * @brief What llmm_sketch_deserialize_ex() found in a message: whether its bytes are intact,
 * which rule of doc/format.md section 3.4 it breaks, and whether it was repaired.
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_decode_info_init()).
 * @since 1.2.0
 */
typedef struct llmm_decode_info {
    uint32_t struct_size; /**< the caller's `sizeof(llmm_decode_info)` */
    int32_t intact;       /**< 1: the magic and the CRC-32C check out, the bytes are as their
                               writer wrote them (a refusal is then a contradiction, not
                               damage); 0: damaged, truncated or not a sketch */
    int32_t version;      /**< the format version byte of an intact message; 0 otherwise */
    int32_t rule;         /**< 0: no rule of section 3.4 is broken (or the message was refused
                               before they apply: see the status); 1 to 7: the first broken
                               rule, in the order 1, 2, 3, 4, 5, 7, 6 (also when repaired) */
    int32_t repaired;     /**< 1: the message broke rule 6 alone and was repaired (version 1) */
    double message_min;   /**< the message's own min and max (intact messages; 0 otherwise): */
    double message_max;   /**< the sketch holds the repaired ones when `repaired` is 1 */
} llmm_decode_info;

/**
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @param[out] info the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `info` is NULL
 * @retval LLMM_E_ABI `sizeof` the caller's struct is not a released size
 * @since 1.2.0
 * @note Thread-safe.
 */
#define llmm_decode_info_init(info)                                                                \
    LLMM_SIZED_INIT_(LLMM_STRUCT_DECODE_INFO, llmm_decode_info, info)

/**
 * @brief Decode as llmm_sketch_deserialize() does, saying why a message is refused, and read
 * the messages the 1.0 recorder wrote with its known extreme bug.
 *
 * Every message llmm_sketch_deserialize() accepts decodes to the same sketch, and every one it
 * refuses is refused with the same status, but one: an intact version-1 message whose only
 * broken rule is rule 6 of doc/format.md section 3.4 (a max below the highest non-empty
 * bucket, or a min above the lowest: the shape a 1.0 recorder snapshot takes when its shard
 * saw a value out of the range first, then a batch refused for one bad value). That one is
 * repaired: a max below the highest non-empty bucket becomes the range's top when `over` > 0
 * and the representative of that bucket otherwise; a min above the lowest non-empty bucket
 * becomes the range's bottom when `under` > 0 and the representative of that bucket
 * otherwise. Its counts and sum are kept as they are; `info` says `rule` 6 and `repaired` 1.
 * @param[in] ctx allocation context for the new sketch, or NULL for libc
 * @param[in] buf the encoding (exactly `len` bytes)
 * @param[in] len its length
 * @param[out] out the decoded sketch, or NULL on failure; free it with llmm_sketch_free()
 * @param[in,out] info set up with llmm_decode_info_init(), or NULL; filled on every outcome
 *                but LLMM_E_INVALID and LLMM_E_ABI
 * @retval LLMM_OK decoded (check `info->repaired`)
 * @retval LLMM_E_INVALID `out` or `buf` is NULL
 * @retval LLMM_E_ABI `info->struct_size` is not a released size (nothing decoded)
 * @retval LLMM_E_CORRUPT refused: `info->intact` says whether the bytes were damaged and
 *         `info->rule` which rule of section 3.4 a consistent-looking message breaks
 * @retval LLMM_E_VERSION an intact encoding of a format version this library does not know
 * @retval LLMM_E_NOMEM
 * @since 1.2.0
 * @note Thread-safe (reads only `buf`).
 */
LLMM_API llmm_status llmm_sketch_deserialize_ex(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                                llmm_sketch **out, llmm_decode_info *info);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SKETCH_H */
