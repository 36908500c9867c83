/* The cumulative view: running totals of the store, one per block of LLMM__VIEW_BLOCK slots,
 * so that a quantile or rank query on a sketch that has not changed since the previous query
 * finds its bucket by a binary search over the blocks and three compares in one block, instead
 * of summing the buckets up to it. The totals are 32-bit (a quarter of the store's size;
 * 64-bit ones would take half and pass the memory target of doc/spec.md §10 for a typical
 * series): a sketch of 2^32 values or more, or with a 64-bit store, is answered by the scan.
 *
 * Which state the view holds. Every change to a sketch ends in llmm__sketch_refresh_fast,
 * which increments `gen`, except those that only count values in place: the fast path of
 * llmm_sketch_add (which must not gain an instruction), its 64-bit twin in add_slow and the
 * pairs llmm_sketch_add_many counts inline. These always raise `count`. `gen` never goes
 * back and `count` only grows between two increments of `gen` (the fast paths are off from
 * 2^63 on), so the pair (gen, count) never names two different states: a view built for
 * (gen, count) holds the current counts exactly when both still match. The count alone would
 * not do: a reset, subtract, downscale or snapshot can give the same count with other
 * contents. A store replaced by llmm__store_adopt brings a new view that holds nothing.
 *
 * When it is built. A query that finds the view stale answers by the scan (as before the view
 * existed) and notes the state it saw; the next query of the same state fills the view and
 * uses it. A sketch queried once after each change therefore never pays for a view, one
 * queried again pays once. Nothing is allocated: the view lives at the end of the store's
 * allocation, made with the store by the writer.
 *
 * Concurrent readers. Queries take a const sketch and may run in many threads at once while
 * no one writes (sketch.h): a read phase, which the caller's own synchronisation (needed by the
 * sketch anyway) separates from every write. Readers are the only writers of the view. A
 * reader fills it only after winning a compare-and-swap of `seq` from the even value it loaded
 * to the next odd one; it writes the totals with plain stores, then `gen` and `count` with
 * release stores, then the next even `seq`. A reader that finds `seq` odd, or loses the race,
 * scans. So within one read phase the view is filled at most once: a fill starts only from a
 * stale view, and once it ends the view matches the state (a reader loading the ended fill's
 * `seq` with acquire sees its `gen` and `count`), or another reader's compare-and-swap fails.
 * A reader uses the totals only after acquire loads of `gen` and `count` that match the state:
 * either a fill of this phase stored one of them (the loads synchronise with it, so every
 * total it wrote is visible and none is written again in the phase), or the view already
 * held the state when the phase began (filled in an earlier phase, which the caller's
 * synchronisation orders before it). Either way the totals are read after they were written
 * and while nobody writes them: race-free in the C11 model and under ThreadSanitizer, and
 * never torn. Every loop over the view is bounded by the store all the same. */
#include "sketch_internal.h"

static inline uint64_t get(_Atomic uint64_t *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}

static inline void put(_Atomic uint64_t *p, uint64_t x)
{
    atomic_store_explicit(p, x, memory_order_release);
}

/* The constants of the state a query needs (see llmm__view_state). */
static void fill_state(const llmm_sketch *s, llmm__view_state *st)
{
    uint64_t stored = s->count - s->zero - s->under - s->over, last;
    int64_t lo_e, hi_e;
    st->nb = llmm__view_blocks(s->cap);
    st->top = (size_t)1 << (63 - __builtin_clzll((unsigned long long)st->nb));
    st->up = st->nb - st->top;
    st->count = s->count;
    st->nd = (double)s->count;
    st->below = s->zero + s->under;
    /* the store's ranks, but for ranks 1 and count (the exact min and max) */
    st->first = st->below + 1 > 2 ? st->below + 1 : 2;
    last = st->below + stored < s->count - 1 ? st->below + stored : s->count - 1;
    st->width = last >= st->first ? last - st->first + 1 : 0;
    /* A bucket's value is clamped to the range, then to [min, max] (query.c's slot_value):
     * one clamp to the intersection, or to the constant the two give when they are apart. */
    st->lo = s->range_lo > s->min ? s->range_lo : s->min;
    st->hi = s->range_hi < s->max ? s->range_hi : s->max;
    if (st->lo > st->hi)
        st->lo = st->hi = s->range_hi < s->min ? s->min : s->max;
    st->factor = llmm__rep_factor[s->scale];
    /* (index + 1) + 1023·2^scale, shifted so that the octave is bits 10 up (whatever the
     * scale) and the table's index the 10 bits below: exponent bits of 2^oct directly */
    st->fshift = LLMM__MAX_SCALE - s->scale;
    st->xbase = (uint64_t)(s->base + 1 + ((int64_t)1023 << s->scale)) << st->fshift;
    lo_e = (s->base + 1) >> s->scale; /* octaves of the first and last slot's index + 1 */
    hi_e = (s->base + (int64_t)s->cap) >> s->scale;
    st->normal = lo_e >= -1022 && hi_e <= 1023;
    st->stored = stored;
    st->half = stored / 2;
}

/* The smallest distance u >= 1 whose quarter octave is c or above: ceil((1 + m/4)·2^e) for
 * c = 4e + m. The quarter octave of u is the exponent and the two leading fraction bits of
 * (double)u, as guide_cell takes them. */
static uint64_t cell_start(unsigned c)
{
    return (((uint64_t)(4 + (c & 3)) << (c >> 2)) + 3) >> 2;
}

static inline unsigned guide_cell(uint64_t u)
{
    double d = (double)(int64_t)u;
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return (unsigned)((b >> 50) - (UINT64_C(1023) << 2));
}

/* Block of target t (the last k with sums[k] < t), walking from k: up for rising targets. */
static size_t walk_up(const uint32_t *sums, size_t nb, size_t k, uint64_t t)
{
    while (k + 1 < nb && sums[k + 1] < t)
        k++;
    return k;
}

static size_t walk_down(const uint32_t *sums, size_t k, uint64_t t)
{
    while (k > 0 && sums[k] >= t)
        k--;
    return k;
}

/* The guide, two tables of LLMM__VIEW_GUIDE_CELLS blocks: for each quarter octave c, low[c]
 * is the block of the smallest target t with cell(t) = c, high[c] that of the smallest with
 * cell(stored + 1 - t) = c. Both are at or below the block of every such target, and so is
 * their larger one, where a query starts. Returns how far above its start a target of the
 * lower half (from low) or of the upper half (from high) can lie, in blocks. */
static size_t fill_guide(const llmm__view_state *st, const uint32_t *sums, uint16_t *low,
                         uint16_t *high)
{
    size_t widest = 0, k = 0, a, b;
    uint64_t h = st->half, n = st->stored;
    for (unsigned c = 0; c < LLMM__VIEW_GUIDE_CELLS; c++) { /* t rises with c */
        uint64_t lo = cell_start(c), hi = cell_start(c + 1) - 1;
        a = k = walk_up(sums, st->nb, k, lo < n ? lo : n);
        low[c] = (uint16_t)a;
        if (lo <= h) { /* the targets of the lower half in c */
            b = k = walk_up(sums, st->nb, k, hi < h ? hi : h);
            widest = b - a > widest ? b - a : widest;
        }
    }
    k = st->nb - 1;
    for (unsigned c = 0; c < LLMM__VIEW_GUIDE_CELLS; c++) { /* t falls as c rises */
        uint64_t lo = cell_start(c), hi = cell_start(c + 1) - 1;
        if (hi < lo) { /* no integer in c (c < 8) */
            high[c] = (uint16_t)k;
            continue;
        }
        b = lo <= n ? walk_down(sums, k, n + 1 - lo) : 0;
        a = k = walk_down(sums, k, hi < n ? n + 1 - hi : 1);
        high[c] = (uint16_t)a;
        if (lo <= n - h) /* the targets of the upper half in c */
            widest = b - a > widest ? b - a : widest;
    }
    return widest;
}

/* How queries search: from the guide's block when it narrows the search, else from the top. */
static void fill_search(llmm__view *v)
{
    llmm__view_state *st = &v->st;
    size_t span = 1, widest;
    st->guide = NULL;
    st->span = st->top;
    st->maxstart = 0;
    if (!llmm__view_guide_bytes(st->nb) || st->stored < 2)
        return;
    widest = fill_guide(st, v->sums, (uint16_t *)(void *)(v->sums + st->nb + 1),
                        (uint16_t *)(void *)(v->sums + st->nb + 1) + LLMM__VIEW_GUIDE_CELLS);
    while (span <= widest)
        span <<= 1;
    if (span >= st->top)
        return; /* no fewer steps than the plain search */
    st->guide = (const uint16_t *)(const void *)(v->sums + st->nb + 1);
    st->span = span;
    st->maxstart = st->nb - span;
}

/* Only for a 32-bit store holding fewer than 2^32 values: no total can wrap. */
static void fill(const llmm_sketch *s, llmm__view *v)
{
    size_t nb = llmm__view_blocks(s->cap);
    const uint32_t *c = s->counts32;
    uint32_t cum = 0;
    fill_state(s, &v->st);
    v->sums[0] = 0;
    /* whole blocks (the padding past cap is zero) */
    for (size_t k = 0; k < nb; k++, c += LLMM__VIEW_BLOCK) {
        cum += c[0] + c[1] + c[2] + c[3];
        v->sums[k + 1] = cum;
    }
    fill_search(v);
    put(&v->gen, s->gen);
    put(&v->count, s->count);
}

/* The view is stale: note the state (a first query scans), or fill it (a second one). */
static LLMM__NOINLINE int refresh(const llmm_sketch *s, llmm__view *v)
{
    uint64_t q = get(&v->seq);
    if (q & 1)
        return 0; /* another reader is filling it */
    if (get(&v->gen) == s->gen && get(&v->count) == s->count)
        return 1; /* it just did */
    /* first query of this state: scan, and remember it (racing readers store the same) */
    if (atomic_load_explicit(&v->seen_gen, memory_order_relaxed) != s->gen ||
        atomic_load_explicit(&v->seen_count, memory_order_relaxed) != s->count) {
        atomic_store_explicit(&v->seen_gen, s->gen, memory_order_relaxed);
        atomic_store_explicit(&v->seen_count, s->count, memory_order_relaxed);
        return 0;
    }
    if (!atomic_compare_exchange_strong_explicit(&v->seq, &q, q + 1, memory_order_acquire,
                                                 memory_order_relaxed))
        return 0;
    fill(s, v);
    put(&v->seq, q + 2);
    return 1;
}

/* 1 when the view holds s's current state, filled now if need be. */
static inline int view_open(const llmm_sketch *s)
{
    llmm__view *v = s->view;
    if (!v || !s->counts32 || s->count > UINT32_MAX)
        return 0; /* no store (nothing to scan), or totals past 32 bits */
    if (LLMM__LIKELY(get(&v->gen) == s->gen && get(&v->count) == s->count))
        return 1;
    return refresh(s, v);
}

int llmm__view_open(const llmm_sketch *s)
{
    return view_open(s);
}

/* One probe of the search below: keep k, or move it up by `step`. */
#define PROBE(sums, k, step, t) ((k) = (sums)[(k) + (step)] < (t) ? (k) + (step) : (k))

/* Where the search for target t starts: a block k with sums[k] < t whose block is in
 * [k, k + span), below nb. From the guide: the first block of t's quarter octave, or a lower
 * one, so that the span stays inside the blocks. Without it, one probe at top (the largest
 * power of two <= nb) leaves [0, top) or [nb - top, nb). */
static inline size_t search_start(const llmm__view_state *st, const uint32_t *sums, uint32_t t)
{
    if (st->guide) {
        size_t a = st->guide[guide_cell(t)];
        size_t b = st->guide[LLMM__VIEW_GUIDE_CELLS + guide_cell(st->stored + 1 - t)];
        a = a > b ? a : b;
        return a < st->maxstart ? a : st->maxstart;
    }
    return sums[st->top] < t ? st->up : 0;
}

/* The block that holds the t-th value, 1 <= t <= sums[nb]: the last k with sums[k] < t (the
 * values before block k), by halving steps from the start; each probe is a conditional move,
 * not a branch. */
static inline size_t find_block(const llmm__view_state *st, const uint32_t *sums, uint32_t t)
{
    size_t k = search_start(st, sums, t);
    for (size_t step = st->span >> 1; step; step >>= 1)
        PROBE(sums, k, step, t);
    return k;
}

/* The same for four targets at once: the four searches do not depend on each other, so their
 * loads overlap instead of each waiting for the one before. */
static inline void find_blocks4(const llmm__view_state *st, const uint32_t *sums, const uint32_t *t,
                                size_t *k)
{
    uint32_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    size_t k0 = search_start(st, sums, t0), k1 = search_start(st, sums, t1);
    size_t k2 = search_start(st, sums, t2), k3 = search_start(st, sums, t3);
    for (size_t step = st->span >> 1; step; step >>= 1) {
        PROBE(sums, k0, step, t0);
        PROBE(sums, k1, step, t1);
        PROBE(sums, k2, step, t2);
        PROBE(sums, k3, step, t3);
    }
    k[0] = k0;
    k[1] = k1;
    k[2] = k2;
    k[3] = k3;
}

/* The target among the store's values of rank rk when its value is a bucket's (else 1: any
 * target in range; the answer is then llmm__special_value's). */
static inline uint32_t target(const llmm__view_state *st, uint64_t rk)
{
    return rk - st->first < st->width ? (uint32_t)(rk - st->below) : 1;
}

/* What the answers read of the state, in locals: stores to `out` could alias the state, which
 * would then be loaded again for each answer. */
typedef struct answerer {
    const uint32_t *counts, *sums;
    uint64_t xbase, first, width;
    double lo, hi, factor;
    int fshift;
} answerer;

/* The value of the t-th stored value, which lies in block k. In the block, the slot is the
 * first whose running total reaches the need (the last slot's always does, so the slot is
 * one of the store's): three compares, no branch. Then the slot's representative
 * (llmm__bucket_rep inline, see llmm__view_state), clamped. */
static inline double bucket_value(const answerer *a, uint32_t t, size_t k)
{
    const uint32_t *c = a->counts + k * LLMM__VIEW_BLOCK;
    uint32_t need = t - a->sums[k], c01 = c[0] + c[1];
    uint64_t slot = k * LLMM__VIEW_BLOCK + (c[0] < need) + (c01 < need) + (c01 + c[2] < need);
    uint64_t x = a->xbase + (slot << a->fshift), bits = (x >> 10) << 52;
    double v, p;
    memcpy(&p, &bits, sizeof p);
    v = llmm__pow2_frac[x & 1023] * p * a->factor;
    v = v < a->lo ? a->lo : v;
    return v > a->hi ? a->hi : v;
}

/* Queries are answered in chunks of up to this many: ranks first, then every search, then
 * every answer, so that the searches (chains of dependent loads) overlap each other. */
#define VCHUNK 8

int llmm__view_quantiles(const llmm_sketch *s, const double *q, size_t n, double *out)
{
    const llmm__view_state *st;
    const uint32_t *sums;
    answerer a;
    if (!view_open(s) || !s->view->st.normal)
        return 0; /* (the range limits keep every store normal: never in practice) */
    st = &s->view->st;
    sums = s->view->sums;
    a = (answerer){s->counts32, sums,   st->xbase,  st->first, st->width,
                   st->lo,      st->hi, st->factor, st->fshift};
    for (size_t start = 0; start < n; start += VCHUNK) {
        uint64_t rk[VCHUNK];
        uint32_t t[VCHUNK];
        size_t k[VCHUNK], m = n - start < VCHUNK ? n - start : VCHUNK, i;
        for (i = 0; i < m; i++) {
            rk[i] = llmm__rank_small(q[start + i], st->nd, st->count);
            t[i] = target(st, rk[i]);
        }
        /* the odd ones first, then four at a time: all in flight together */
        for (i = m & ~(size_t)3; i < m; i++)
            k[i] = find_block(st, sums, t[i]);
        for (i = 0; i + 4 <= m; i += 4)
            find_blocks4(st, sums, t + i, k + i);
        for (i = 0; i < m; i++)
            out[start + i] = LLMM__LIKELY(rk[i] - a.first < a.width)
                                 ? bucket_value(&a, t[i], k[i])
                                 : llmm__special_value(s, rk[i]);
    }
    return 1;
}

uint64_t llmm__view_through(const llmm_sketch *s, size_t slot)
{
    size_t k = slot / LLMM__VIEW_BLOCK;
    uint64_t b = s->view->sums[k];
    for (size_t i = k * LLMM__VIEW_BLOCK; i <= slot; i++)
        b += s->counts32[i];
    return b;
}
