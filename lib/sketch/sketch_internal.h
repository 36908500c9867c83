/* Internal layout of the sketch, shared by the sketch's own files, the codec and the recorder. */
#ifndef LLMM_SKETCH_INTERNAL_H
#define LLMM_SKETCH_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h"
#include "llmmetrics/sketch.h"
#include "sketch_tables.h"

#if defined(__GNUC__)
#define LLMM__LIKELY(x) __builtin_expect(!!(x), 1)
#define LLMM__UNLIKELY(x) __builtin_expect(!!(x), 0)
/* for the slow paths of hot calls: kept out of line so the hot path's registers stay free */
#define LLMM__NOINLINE __attribute__((noinline))
#else
#define LLMM__LIKELY(x) (x)
#define LLMM__UNLIKELY(x) (x)
#define LLMM__NOINLINE
#endif

/* Bits of the largest finite double: (bits - 1) >= this rejects 0, negatives, Inf and NaN. */
#define LLMM__DBL_MAX_BITS UINT64_C(0x7fefffffffffffff)

/* The biased index of a normal double is what the table lookup yields directly:
 * biased = otel_index + llmm__bias(scale). */
static inline int64_t llmm__bias(int32_t scale)
{
    return ((int64_t)1023 << scale) + 1;
}

static inline uint64_t llmm__dbits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* The lookup key keeps 4 extra significand bits so that, masked, it is already the byte offset
 * of its 16-byte cell: bits >> key_shift = (cell << 4) | 4 low bits, plus the exponent above. */
static inline uint32_t llmm__key_shift(int32_t scale)
{
    return (uint32_t)(47 - scale);
}

static inline uint64_t llmm__cell_mask(int32_t scale)
{
    return ((UINT64_C(2) << scale) - 1) << 4;
}

/* Biased bucket index of a normal positive double given its bits (table lookup, exact):
 * (key >> 1) + T[cell] + (significand >= boundary of the cell). */
static inline uint64_t llmm__map_biased(const llmm__map_cell *cells, uint32_t key_shift,
                                        uint64_t cell_mask, uint64_t bits)
{
    uint64_t key16 = bits >> key_shift;
    const llmm__map_cell *c =
        (const llmm__map_cell *)(const void *)((const char *)cells + (key16 & cell_mask));
    return (key16 >> 5) + (uint64_t)c->t + ((bits << 12) >= c->b);
}

/* OpenTelemetry index of any finite v > 0 (subnormals too). */
int64_t llmm__map_index(int32_t scale, double v);
/* Representative value of a bucket: 2·base^(i+1)/(1+base), least relative error. */
double llmm__bucket_rep(int32_t scale, int64_t index);
/* base^index as a double (may be 0 or +Inf far outside the double range). */
double llmm__bucket_lower(int32_t scale, int64_t index);
/* out[j] = llmm__bucket_rep(scale, base + slot[j]) for j < m: one call for a query's slots. */
void llmm__bucket_reps(int32_t scale, int64_t base, const size_t *slot, double *out, size_t m);

struct llmm_sketch {
    /* ---- hot: read by every llmm_sketch_add ---- */
    uint64_t fast_lo;   /* biased index of the first bucket of the fast window */
    uint64_t fast_span; /* buckets in the fast window; 0 disables the fast path */
    uint32_t *fast_counts; /* &counts32[fast_lo - biased base] */
    const llmm__map_cell *cells;
    uint32_t key_shift; /* llmm__key_shift(scale) */
    uint32_t pad_;
    uint64_t cell_mask; /* llmm__cell_mask(scale) */
    uint64_t count;     /* every recorded value */
    double sum;         /* of every recorded value, added in arrival order; a decoded sum
                         * (any double, -0.0 and signalling NaNs too) kept bit for bit */

    /* ---- cold ---- */
    /* The same window over a wide store (checked first thing on the slow path, so a sketch
     * with a bucket past 2^32 - 1 still adds in a few ns): counts64 + (biased index - wide_lo) */
    uint64_t wide_lo, wide_span;
    uint64_t *wide_counts;
    double min, max;            /* valid when count > 0 */
    uint32_t *counts32;         /* narrow store (NULL when wide or unallocated) */
    uint64_t *counts64;         /* wide store, used once a bucket passes 2^32 - 1 */
    int64_t base;               /* OpenTelemetry index of slot 0 */
    size_t cap;                 /* allocated slots */
    uint64_t zero, under, over; /* exact zeros, below range, above range */
    int64_t idx_lo, idx_hi;     /* bucket indices of the range bounds */
    double range_lo, range_hi;
    int32_t scale;
    int32_t pad2_;
    const llmm_ctx *ctx;
    /* The state's name for the cumulative view (view.c): bumped by every change that does not
     * go through the fast path, which changes `count` instead. Never reset. */
    uint64_t gen;
    struct llmm__view *view; /* in the store's allocation; NULL when there is no store */
};

/* The cumulative view: one running total per block of LLMM__VIEW_BLOCK slots, filled by a
 * query and reused by the next ones while the sketch is unchanged (view.c explains when it is
 * valid and how concurrent readers share it). It lives at the end of the store's allocation;
 * every field is written only with atomic stores. */
#define LLMM__VIEW_BLOCK 8
typedef struct llmm__view {
    _Atomic uint64_t seq;                  /* even: stable; odd: a reader is filling it */
    _Atomic uint64_t gen, count;           /* the sketch state the sums hold; gen 0: none */
    _Atomic uint64_t seen_gen, seen_count; /* the state a query last answered by a scan */
    _Atomic uint64_t sums[];               /* [k]: the count of blocks 0 .. k-1 (k <= blocks) */
} llmm__view;

static inline size_t llmm__view_blocks(size_t cap)
{
    return (cap + LLMM__VIEW_BLOCK - 1) / LLMM__VIEW_BLOCK;
}

/* A store being built, or detached from its sketch: counters over bucket indices
 * [base, base + cap), 32-bit (counts32) or 64-bit (counts64), and the view after them in the
 * same allocation. Both pointers are NULL when cap is 0. */
typedef struct llmm__store {
    uint32_t *counts32;
    uint64_t *counts64;
    int64_t base;
    size_t cap;
} llmm__store;

/* Count of the bucket with OpenTelemetry index i (0 outside the store). */
static inline uint64_t llmm__store_get(const llmm_sketch *s, int64_t i)
{
    uint64_t off;
    if (i < s->base)
        return 0;
    off = (uint64_t)(i - s->base);
    if (off >= s->cap)
        return 0;
    return s->counts64 ? s->counts64[off] : s->counts32[off];
}

/* ---- store.c: the only code that assigns the store's fields (counts32, counts64, base,
 * cap, view), the fast and wide windows, the mapping of the scale and `gen` ---- */

/* Every change to a sketch that is not a fast-path add ends here: recomputes the fast window
 * from min / max / store and gives the state a new name (gen), so no cumulative view built
 * before it can be taken for the new state. */
void llmm__sketch_refresh_fast(llmm_sketch *s);
/* A zeroed store of cap counters from base, 64-bit when `wide`. All or nothing. */
llmm_status llmm__store_make(const llmm_ctx *ctx, int64_t base, size_t cap, int wide,
                             llmm__store *out);
/* A copy of s's store, in ctx. */
llmm_status llmm__store_dup(const llmm_ctx *ctx, const llmm_sketch *s, llmm__store *out);
void llmm__store_drop(const llmm_ctx *ctx, llmm__store *st);
/* Replace s's store with st (which it takes over; st is left empty) and set s to `scale`.
 * The fast window stays off until the caller, once the counts match the new store, calls
 * llmm__sketch_refresh_fast. Cannot fail. */
void llmm__store_adopt(llmm_sketch *s, llmm__store *st, int32_t scale);
/* Make the store cover [lo, hi] (indices inside the range), optionally wide, at the sketch's
 * scale. All or nothing. */
llmm_status llmm__store_reserve(llmm_sketch *s, int64_t lo, int64_t hi, int wide);
/* Lowest / highest non-empty bucket, 0 if none. */
int llmm__store_span(const llmm_sketch *s, int64_t *lo, int64_t *hi);
/* Place a validated in-range index's count: store must already cover it (and be wide enough). */
void llmm__store_add(llmm_sketch *s, int64_t i, uint64_t n);
/* Take n back from the count of index i (which holds at least n). */
void llmm__store_sub(llmm_sketch *s, int64_t i, uint64_t n);
/* dst[i] += src[i] for i in [a, b], both stores covering it (and dst wide enough). */
void llmm__store_add_run(llmm_sketch *dst, const llmm_sketch *src, int64_t a, int64_t b);
/* Every counter to zero; the store keeps its place and size. */
void llmm__store_clear(llmm_sketch *s);
/* Range bound indices at a scale. */
void llmm__range_indices(int32_t scale, double lo, double hi, int64_t *ilo, int64_t *ihi);
/* Set up an empty sketch in place (used by new and by the codec). */
void llmm__sketch_init_fields(llmm_sketch *s, const llmm_ctx *ctx, int32_t scale);
void llmm__sketch_release_store(llmm_sketch *s);

/* ---- view.c: the cumulative view, read by query.c ---- */

/* 1 when the view holds s's current state (filled now if this state was queried before and
 * no other reader is filling it); *seq is then what llmm__view_intact needs. 0: scan. */
int llmm__view_open(const llmm_sketch *s, uint64_t *seq);
/* 1 when no reader started to refill the view since llmm__view_open: what was read stands. */
int llmm__view_intact(const llmm_sketch *s, uint64_t seq);
/* at[j] = slot of the store's t[j]-th smallest counted value, for 1 <= t[j] <= the store's
 * total (any other t[j] gives some slot of the store). */
void llmm__view_slots(const llmm_sketch *s, const uint64_t *t, size_t *at, size_t m);
/* Values counted in slots 0 .. slot (< cap). */
uint64_t llmm__view_through(const llmm_sketch *s, size_t slot);

#endif
