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

/* base^index when it is a normal double (1, and *out set), from whole octaves (floor division
 * by 2^scale: an arithmetic shift, as merge.c relies on) and a fraction from a table of
 * correctly rounded 2^(k/1024): frac in [1, 2) times a normal power of two is exact, so every
 * bound is the double nearest the exact base^index. 0 far outside (llmm__bucket_lower then
 * handles it). Inline: a cached query computes five of these per call. */
static inline int llmm__bucket_lower_normal(int32_t scale, int64_t index, double *out)
{
    int64_t oct = index >> scale;
    uint64_t k = (uint64_t)index & ((UINT64_C(1) << scale) - 1), b;
    double p;
    if ((uint64_t)(oct + 1022) > 2045)
        return 0;
    b = (uint64_t)(oct + 1023) << 52; /* 2^oct from its bits */
    memcpy(&p, &b, sizeof p);
    *out = llmm__pow2_frac[k << (LLMM__MAX_SCALE - scale)] * p;
    return 1;
}

/* The nearest rank of q in n values (doc/spec.md §5): r = max(1, ceil(q·n)), where q·n within
 * 1e-9 of an integer counts as that integer. With f = floor(q·n) that is f when q·n - f <= 1e-9,
 * else f + 1 (also when q·n is within 1e-9 below f + 1). q is in [0, 1], nd = (double)n.
 * This one is for n < 2^53, where nd is exact and q·n <= n: signed conversions (one
 * instruction each; unsigned ones branch) and no test of q·n against n. */
static inline uint64_t llmm__rank_small(double q, double nd, uint64_t n)
{
    double qn = q * nd;
    int64_t f = (int64_t)qn; /* q·n >= 0: truncation is floor */
    uint64_t rank = (uint64_t)f + (qn - (double)f > 1e-9);
    rank = rank < 1 ? 1 : rank;
    return rank > n ? n : rank;
}

/* The same rule for any n (exact where f passes 2^53). */
static inline uint64_t llmm__rank_of(double q, double nd, uint64_t n)
{
    double qn = q * nd;
    uint64_t f, rank;
    if (n < (UINT64_C(1) << 53))
        return llmm__rank_small(q, nd, n);
    if (!(qn < nd)) /* also keeps the conversion below in range near 2^64 */
        return n;
    f = (uint64_t)qn;
    rank = f + (qn - (double)f > 1e-9);
    rank = rank < 1 ? 1 : rank;
    return rank > n ? n : rank;
}

struct llmm_sketch {
    /* ---- hot: read by every llmm_sketch_add ---- */
    uint64_t fast_lo;      /* biased index of the first bucket of the fast window */
    uint64_t fast_span;    /* buckets in the fast window; 0 disables the fast path */
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

/* The cumulative view: one 32-bit running total per block of LLMM__VIEW_BLOCK slots, filled by
 * a query and reused by the next ones while the sketch is unchanged and holds fewer than 2^32
 * values in a 32-bit store (view.c explains when it is valid and how concurrent readers share
 * it). It lives at the end of the store's allocation. */
#define LLMM__VIEW_BLOCK 4
/* What a query needs of the state besides the totals, worked out once by the fill. */
typedef struct llmm__view_state {
    size_t nb, top, up;    /* blocks; the largest power of two <= nb; nb - top */
    uint64_t count, below; /* values (< 2^32); those below the store's (zeros, underflow) */
    uint64_t first, width; /* ranks first .. first + width - 1 are bucket values, not min or max */
    double nd;             /* (double)count */
    double lo, hi;         /* every bucket's value is clamped to [lo, hi] */
    double factor;         /* llmm__rep_factor[scale] */
    /* Slot i's representative is base^(index + 1)·factor with index + 1 = base + i + 1; with
     * X = xbase + (i << fshift) that is frac[X & 1023]·2^((X >> 10) - 1023) (view.c). */
    uint64_t xbase;
    int32_t fshift;
    int32_t normal; /* every slot's 2^((X >> 10) - 1023) is a normal double */
    /* The search (view.c): targets t in [1, stored]; the guide names a block at or below the
     * target's, at most span - 1 below it; without a guide, span = top. */
    uint64_t stored, half;
    size_t span, maxstart; /* a power of two; nb - span */
    const uint16_t *guide; /* NULL, or 2 x LLMM__VIEW_GUIDE_CELLS after the sums */
} llmm__view_state;
typedef struct llmm__view {
    _Atomic uint64_t seq;                  /* even: stable; odd: a reader is filling it */
    _Atomic uint64_t gen, count;           /* the sketch state the sums hold; gen 0: none */
    _Atomic uint64_t seen_gen, seen_count; /* the state a query last answered by a scan */
    llmm__view_state st;                   /* set with the sums */
    uint32_t sums[]; /* [k]: the count of blocks 0 .. k-1 (k <= blocks), once gen is set */
} llmm__view;

static inline size_t llmm__view_blocks(size_t cap)
{
    return (cap + LLMM__VIEW_BLOCK - 1) / LLMM__VIEW_BLOCK;
}

/* The guide: per quarter octave of a target's distance from the nearer end of the store's
 * values (below 2^32), the first block it can lie in (view.c). Stores of 64 blocks and more
 * have one, up to 65535 blocks (uint16 block numbers). */
#define LLMM__VIEW_GUIDE_CELLS 128
static inline size_t llmm__view_guide_bytes(size_t nb)
{
    return nb >= 64 && nb <= 65535 ? 2 * LLMM__VIEW_GUIDE_CELLS * sizeof(uint16_t) : 0;
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
 * no other reader is filling it). 0: scan. */
int llmm__view_open(const llmm_sketch *s);
/* out[i] = quantile q[i] (each valid) of a sketch with count > 0, from the view: 1 when so
 * answered, 0 when the view cannot answer (out is then undefined; scan). */
int llmm__view_quantiles(const llmm_sketch *s, const double *q, size_t n, double *out);
/* Values counted in slots 0 .. slot (< cap), after llmm__view_open said 1. */
uint64_t llmm__view_through(const llmm_sketch *s, size_t slot);

/* ---- query.c ---- */

/* The value of a rank that is in none of the store's buckets, or is 1 or count (rank 1 the
 * min, rank count the max, then the zeros, the underflow, the overflow). */
double llmm__special_value(const llmm_sketch *s, uint64_t r);

#endif
