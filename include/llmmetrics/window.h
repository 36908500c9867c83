/**
 * @file window.h
 * @brief Time rings of sketches and of ratio counters.
 *
 * A window divides time into slots of a fixed length (default 1 s) and keeps the most recent
 * `slots` of them (default 60) in a ring. Time is the caller's: every call takes `now_ns`, a
 * time stamp in nanoseconds on any monotonic clock (llmm_now_ns() or the caller's own, so tests
 * are deterministic).
 *
 * Slot arithmetic. Slot number `k` covers the time stamps
 * `[k·slot_ns, (k+1)·slot_ns)`; slots are aligned to time 0 of the caller's clock, not to the
 * first call. At time `now_ns` the *current* slot is `now_ns / slot_ns`; the ring holds the
 * current slot and the `slots − 1` slots before it. A slot older than that has *expired*: its
 * values never count in any answer, whether or not its memory has been reused yet.
 *
 * Spans. A query over `span_ns` covers `n = ceil(span_ns / slot_ns)` slots: the current slot
 * and the `n − 1` before it. A span that is not a whole number of slots therefore rounds up to
 * whole slots, and because the current slot is still filling, the data covered reach back
 * between `(n − 1)·slot_ns` and `n·slot_ns` before `now_ns`. `span_ns` may be anything from 1
 * to `slot_ns · slots` (the whole ring); 0 is #LLMM_E_INVALID and more than the ring is
 * #LLMM_E_RANGE.
 *
 * Time never goes backwards. Every call that takes `now_ns` (adds and queries alike) accepts
 * its time stamp when it succeeds, and the window remembers the latest time stamp accepted; a
 * time stamp earlier than that is #LLMM_E_INVALID and changes nothing. A call that fails (an
 * empty span included) accepts nothing. Equal time stamps are fine. Jumping forward by any
 * amount is fine and costs O(1): each ring entry remembers which slot it holds, so expired
 * entries are recognised and recycled lazily instead of being cleared once per missed slot.
 *
 * Cost. An add is one sketch insert (plus, at the first add of a slot, recycling one entry).
 * A query over the whole ring reads a running merge of the closed slots, kept up to date
 * incrementally (each closed slot is merged once, each expired one subtracted once, with a
 * rebuild from the ring when an expiring slot holds the minimum or maximum, so that answers
 * are exactly those of a fresh merge), plus the current slot: a few microseconds for 60 slots.
 * A query over a shorter span merges its slots one by one, O(span slots × buckets).
 *
 * Thread safety: a window is used by one thread at a time (queries advance its clock and use
 * internal scratch space, so they count as writes). It may move between threads.
 */
#ifndef LLMMETRICS_WINDOW_H
#define LLMMETRICS_WINDOW_H

#include "llmmetrics/sketch.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup window Window: a time ring of quantile sketches
 * @{
 */

/** Slot length used when llmm_window_new() is given 0: one second. @since 1.0.0 */
#define LLMM_WINDOW_SLOT_NS_DEFAULT 1000000000u
/** Slot count used when llmm_window_new() is given 0. @since 1.0.0 */
#define LLMM_WINDOW_SLOTS_DEFAULT 60u
/** Largest slot count a window accepts (a day of one-second slots fits easily). @since 1.0.0 */
#define LLMM_WINDOW_SLOTS_MAX 100000u

/**
 * @brief A ring of per-slot quantile sketches driven by the caller's clock (opaque).
 * @since 1.0.0
 */
typedef struct llmm_window llmm_window;

/**
 * @brief Create an empty window.
 *
 * Makes `slots` empty sketches plus three internal ones: a spare used to recycle expired
 * slots without ever losing data on an allocation failure, a scratch sketch for queries and
 * the running merge of the closed slots. An empty sketch costs a few hundred bytes; bucket
 * memory grows with the values recorded.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] slot_ns slot length in nanoseconds, or 0 for #LLMM_WINDOW_SLOT_NS_DEFAULT
 * @param[in] slots number of slots, 1 … #LLMM_WINDOW_SLOTS_MAX, or 0 for
 *            #LLMM_WINDOW_SLOTS_DEFAULT
 * @param[in] scale sketch scale (#LLMM_SCALE_DEFAULT or #LLMM_SCALE_MIN … #LLMM_SCALE_MAX)
 * @param[out] out the new window, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL, `slots` above #LLMM_WINDOW_SLOTS_MAX, `scale` out of
 *         bounds, or `slot_ns · slots` does not fit in 64 bits
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                                     llmm_window **out);

/**
 * @brief Free a window. NULL is a no-op.
 * @param[in] w the window
 * @since 1.0.0
 * @note Not thread-safe: no other call on `w` may run concurrently.
 */
LLMM_API void llmm_window_free(llmm_window *w);

/**
 * @brief The window's geometry as created (defaults resolved).
 * @param[in] w the window
 * @param[out] slot_ns slot length in nanoseconds (nullable)
 * @param[out] slots number of slots (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `w` is NULL
 * @since 1.0.0
 * @note Safe to call concurrently with other readers of `w`.
 */
LLMM_API llmm_status llmm_window_geometry(const llmm_window *w, uint64_t *slot_ns, uint32_t *slots);

/**
 * @brief Record one value at time `now_ns` (into the slot containing `now_ns`).
 * @param[in,out] w the window
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] v a finite value ≥ 0
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL window, `v` NaN, infinite or negative, or `now_ns` earlier than
 *         the latest time stamp accepted (nothing changed)
 * @retval LLMM_E_NOMEM growing a bucket store failed (nothing changed, the clock included)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_window_add(llmm_window *w, uint64_t now_ns, double v);

/**
 * @brief Record a batch of values, all at time `now_ns`. All or nothing: if any value is
 * invalid nothing is recorded.
 * @param[in,out] w the window
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] v the values (may be NULL when `n` is 0)
 * @param[in] n number of values
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL window or values, any value NaN, infinite or negative, or
 *         `now_ns` earlier than the latest time stamp accepted (nothing changed)
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_window_add_many(llmm_window *w, uint64_t now_ns, const double *v,
                                          size_t n);

/**
 * @brief Number of values recorded in the slots that a span covers.
 * @param[in,out] w the window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots (see the file
 *            documentation)
 * @param[out] count the number of values
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `span_ns` is 0, or time going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring
 * @since 1.0.0
 * @note Not thread-safe: advances the window's clock.
 */
LLMM_API llmm_status llmm_window_count(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                       uint64_t *count);

/**
 * @brief Quantile `q` of the values in the slots a span covers (nearest-rank rule of
 * sketch.h, same relative error as one sketch: merging slots is exact).
 * @param[in,out] w the window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots
 * @param[in] q probability in [0, 1]
 * @param[out] out the quantile
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `q` outside [0, 1] or NaN, `span_ns` is 0, or time
 *         going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring
 * @retval LLMM_E_EMPTY no values in the span
 * @retval LLMM_E_NOMEM the internal scratch sketch could not grow (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: uses the window's scratch sketch and advances its clock.
 */
LLMM_API llmm_status llmm_window_quantile(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                          double q, double *out);

/**
 * @brief Many quantiles of the values in the slots a span covers, in one merge and one pass.
 * @param[in,out] w the window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots
 * @param[in] q `n` probabilities in [0, 1], any order
 * @param[in] n number of probabilities
 * @param[out] out `n` results, `out[i]` for `q[i]`; untouched on error
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, any `q[i]` outside [0, 1], `span_ns` is 0, or time
 *         going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring
 * @retval LLMM_E_EMPTY no values in the span
 * @retval LLMM_E_NOMEM nothing changed
 * @since 1.0.0
 * @note Not thread-safe: uses the window's scratch sketch and advances its clock.
 */
LLMM_API llmm_status llmm_window_quantiles(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                           const double *q, size_t n, double *out);

/**
 * @brief Merge the slots a span covers into `into`, replacing its contents.
 *
 * `into` receives the window's scale, range and the exact merge of the covered slots (as
 * llmm_sketch_copy()), so every sketch query, exporter or serializer can then be applied to
 * the window. An empty span gives an empty sketch.
 * @param[in,out] w the window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots
 * @param[in,out] into a sketch owned by the caller (any context, scale and contents)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `span_ns` is 0, or time going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring
 * @retval LLMM_E_NOMEM `into` and the window unchanged
 * @since 1.0.0
 * @note Not thread-safe for `w` or `into`.
 */
LLMM_API llmm_status llmm_window_snapshot(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                          llmm_sketch *into);

/**
 * @brief Forget every value and the clock: the window is as new (any `now_ns` is accepted
 * next). Allocated memory is kept.
 * @param[in,out] w the window
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `w` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_window_reset(llmm_window *w);

/** @} */

/**
 * @defgroup ratio_window Ratio window: events / total over a time ring
 *
 * Counts two integers per slot, "events" and "total" (errors and requests, TLB misses and
 * accesses, KV-cache hits and lookups), on the same slot ring as ::llmm_window, and answers
 * events / total over any span. The slot, span and clock rules are those of the file
 * documentation.
 * @{
 */

/**
 * @brief A time ring of (events, total) counters (opaque).
 * @since 1.0.0
 */
typedef struct llmm_ratio_window llmm_ratio_window;

/**
 * @brief Create an empty ratio window.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] slot_ns slot length in nanoseconds, or 0 for #LLMM_WINDOW_SLOT_NS_DEFAULT
 * @param[in] slots number of slots, 1 … #LLMM_WINDOW_SLOTS_MAX, or 0 for
 *            #LLMM_WINDOW_SLOTS_DEFAULT
 * @param[out] out the new window, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL, `slots` above #LLMM_WINDOW_SLOTS_MAX, or
 *         `slot_ns · slots` does not fit in 64 bits
 * @retval LLMM_E_NOMEM
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_ratio_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots,
                                           llmm_ratio_window **out);

/**
 * @brief Free a ratio window. NULL is a no-op.
 * @param[in] rw the ratio window
 * @since 1.0.0
 * @note Not thread-safe: no other call on `rw` may run concurrently.
 */
LLMM_API void llmm_ratio_window_free(llmm_ratio_window *rw);

/**
 * @brief Count `events` out of `total` at time `now_ns` (e.g. 1 of 1 for a failed request,
 * 0 of 1 for a good one, or a batch).
 * @param[in,out] rw the ratio window
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] events how many of `total` were events
 * @param[in] total how many were counted, ≥ `events`
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL window, `events > total`, or time going backwards
 * @retval LLMM_E_RANGE a slot counter would overflow 2^64 − 1 (nothing changed)
 * @since 1.0.0
 * @note Not thread-safe: single writer.
 */
LLMM_API llmm_status llmm_ratio_window_add(llmm_ratio_window *rw, uint64_t now_ns, uint64_t events,
                                           uint64_t total);

/**
 * @brief Sums of events and totals over the slots a span covers.
 * @param[in,out] rw the ratio window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots
 * @param[out] events sum of events (nullable)
 * @param[out] total sum of totals (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID NULL window, `span_ns` is 0, or time going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring, or a sum would overflow 2^64 − 1
 * @since 1.0.0
 * @note Not thread-safe: advances the window's clock.
 */
LLMM_API llmm_status llmm_ratio_window_counts(llmm_ratio_window *rw, uint64_t now_ns,
                                              uint64_t span_ns, uint64_t *events, uint64_t *total);

/**
 * @brief events / total over the slots a span covers, in [0, 1].
 * @param[in,out] rw the ratio window (its clock advances to `now_ns`)
 * @param[in] now_ns the time stamp, not earlier than any accepted before
 * @param[in] span_ns 1 … `slot_ns · slots`; rounds up to whole slots
 * @param[out] ratio the ratio
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, `span_ns` is 0, or time going backwards
 * @retval LLMM_E_RANGE `span_ns` is longer than the ring, or a sum would overflow 2^64 − 1
 * @retval LLMM_E_EMPTY the total over the span is 0
 * @since 1.0.0
 * @note Not thread-safe: advances the window's clock.
 */
LLMM_API llmm_status llmm_ratio_window_ratio(llmm_ratio_window *rw, uint64_t now_ns,
                                             uint64_t span_ns, double *ratio);

/**
 * @brief Forget every count and the clock: the ratio window is as new.
 * @param[in,out] rw the ratio window
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `rw` is NULL
 * @since 1.0.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_ratio_window_reset(llmm_ratio_window *rw);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_WINDOW_H */
