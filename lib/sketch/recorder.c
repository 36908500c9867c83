/* Multi-writer recording: one single-writer shard per thread, snapshots while writers run.
 *
 * Each shard owns a table of page pointers covering the recorder's range; a page (64 buckets
 * of 64-bit counters) is allocated by the writer on first touch and published with a release
 * store, never moved or freed before the recorder. Only the shard's writer stores to its
 * counters, so a relaxed load + store is a correct increment, and a reader sees each counter
 * either before or after an increment, never torn. */
#include <pthread.h>
#include <stdatomic.h>

#include "sketch_internal.h"

#define PAGE_SHIFT 6
#define PAGE_SIZE (1u << PAGE_SHIFT)

typedef struct page {
    _Atomic uint64_t c[PAGE_SIZE];
} page;

struct llmm_shard {
    /* hot */
    _Atomic(page *) *pages;
    const llmm__map_cell *cells;
    uint32_t key_shift;
    uint32_t pad_;
    uint64_t cell_mask;
    uint64_t lo_biased; /* biased index of the first tracked bucket */
    uint64_t nbuckets;  /* buckets in the range */
    /* writer-private: buckets strictly between the min's and the max's cannot change them */
    uint64_t mm_lo, mm_span;
    /* writer-private running sum in two lanes (a value's lane is its bucket's parity, so
     * consecutive adds rarely wait on each other's addition), each published in sum_bits */
    double sums[2];
    _Atomic uint64_t sum_bits[2], min_bits, max_bits; /* doubles as bits; min starts at +Inf */
    _Atomic uint64_t zero, under, over;
    /* cold */
    llmm_recorder *owner;
    struct llmm_shard *_Atomic next;
    int in_use; /* guarded by owner->lock */
    size_t npages;
};

struct llmm_recorder {
    const llmm_ctx *ctx;
    int32_t scale;
    double range_lo, range_hi;
    int64_t idx_lo, idx_hi;
    pthread_mutex_t lock;
    llmm_shard *_Atomic shards; /* push-front list, never shrinks */
    int handed_out;
};

static inline double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline void bump(_Atomic uint64_t *c, uint64_t n)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
                          memory_order_release);
}

llmm_status llmm_recorder_new(llmm_ctx *ctx, int32_t scale, llmm_recorder **out)
{
    llmm_recorder *r;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_INVALID;
    r = llmm__calloc(ctx, 1, sizeof *r);
    if (!r)
        return LLMM_E_NOMEM;
    if (pthread_mutex_init(&r->lock, NULL) != 0) {
        llmm__free(ctx, r, sizeof *r);
        return LLMM_E_NOMEM;
    }
    r->ctx = ctx;
    r->scale = scale;
    r->range_lo = LLMM_SKETCH_RANGE_MIN_DEFAULT;
    r->range_hi = LLMM_SKETCH_RANGE_MAX_DEFAULT;
    llmm__range_indices(scale, r->range_lo, r->range_hi, &r->idx_lo, &r->idx_hi);
    atomic_init(&r->shards, NULL);
    *out = r;
    return LLMM_OK;
}

llmm_status llmm_recorder_set_range(llmm_recorder *r, double lo, double hi)
{
    llmm_status st = LLMM_OK;
    if (!r || !llmm__is_finite(lo) || !llmm__is_finite(hi) ||
        !(lo >= LLMM_SKETCH_RANGE_MIN_LIMIT) || !(hi <= LLMM_SKETCH_RANGE_MAX_LIMIT) || !(hi > lo))
        return LLMM_E_INVALID;
    pthread_mutex_lock(&r->lock);
    if (r->handed_out) {
        st = LLMM_E_STATE;
    } else {
        r->range_lo = lo;
        r->range_hi = hi;
        llmm__range_indices(r->scale, lo, hi, &r->idx_lo, &r->idx_hi);
    }
    pthread_mutex_unlock(&r->lock);
    return st;
}

static llmm_shard *shard_make(llmm_recorder *r)
{
    llmm_shard *sh = llmm__calloc(r->ctx, 1, sizeof *sh);
    uint64_t nb = (uint64_t)(r->idx_hi - r->idx_lo + 1);
    size_t np = (size_t)((nb + PAGE_SIZE - 1) >> PAGE_SHIFT), i;
    if (!sh)
        return NULL;
    sh->pages = llmm__calloc(r->ctx, np, sizeof *sh->pages);
    if (!sh->pages) {
        llmm__free(r->ctx, sh, sizeof *sh);
        return NULL;
    }
    for (i = 0; i < np; i++)
        atomic_init(&sh->pages[i], NULL);
    sh->npages = np;
    sh->owner = r;
    sh->cells = llmm__map_cells[r->scale];
    sh->key_shift = llmm__key_shift(r->scale);
    sh->cell_mask = llmm__cell_mask(r->scale);
    sh->lo_biased = (uint64_t)(r->idx_lo + llmm__bias(r->scale));
    sh->nbuckets = nb;
    sh->mm_lo = 0;
    sh->mm_span = 0; /* no values yet: everything takes the slow path */
    sh->sums[0] = sh->sums[1] = 0.0;
    atomic_init(&sh->sum_bits[0], 0);
    atomic_init(&sh->sum_bits[1], 0);
    atomic_init(&sh->min_bits, LLMM__DBL_MAX_BITS + 1); /* +Inf: nothing seen */
    atomic_init(&sh->max_bits, 0);
    atomic_init(&sh->zero, 0);
    atomic_init(&sh->under, 0);
    atomic_init(&sh->over, 0);
    return sh;
}

llmm_status llmm_recorder_shard(llmm_recorder *r, llmm_shard **out)
{
    llmm_shard *sh;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!r)
        return LLMM_E_INVALID;
    pthread_mutex_lock(&r->lock);
    for (sh = atomic_load_explicit(&r->shards, memory_order_acquire); sh;
         sh = atomic_load_explicit(&sh->next, memory_order_acquire))
        if (!sh->in_use)
            break;
    if (!sh) {
        sh = shard_make(r);
        if (!sh) {
            pthread_mutex_unlock(&r->lock);
            return LLMM_E_NOMEM;
        }
        atomic_init(&sh->next, atomic_load_explicit(&r->shards, memory_order_relaxed));
        atomic_store_explicit(&r->shards, sh, memory_order_release);
    }
    sh->in_use = 1;
    r->handed_out = 1;
    pthread_mutex_unlock(&r->lock);
    *out = sh;
    return LLMM_OK;
}

void llmm_shard_release(llmm_shard *sh)
{
    if (!sh)
        return;
    pthread_mutex_lock(&sh->owner->lock);
    sh->in_use = 0;
    pthread_mutex_unlock(&sh->owner->lock);
}

/* The page holding bucket offset `off`, allocated on first touch. NULL on allocation failure. */
static page *page_for(llmm_shard *sh, uint64_t off)
{
    _Atomic(page *) *slot = &sh->pages[off >> PAGE_SHIFT];
    page *p = atomic_load_explicit(slot, memory_order_relaxed);
    size_t i;
    if (LLMM__LIKELY(p != NULL))
        return p;
    p = llmm__alloc(sh->owner->ctx, sizeof *p);
    if (!p)
        return NULL;
    for (i = 0; i < PAGE_SIZE; i++)
        atomic_init(&p->c[i], 0);
    atomic_store_explicit(slot, p, memory_order_release);
    return p;
}

/* A value (bits, not in a bucket of the range) lies above the range rather than below it. */
static int above_range(const llmm_shard *sh, uint64_t bits)
{
    return bits && llmm__map_biased(sh->cells, sh->key_shift, sh->cell_mask, bits) >= sh->lo_biased;
}

/* Widen the published min / max to include [lo_bits, hi_bits] (bits of non-negative doubles,
 * which order like the doubles) and refresh the writer's min/max window. */
static void note_extremes(llmm_shard *sh, uint64_t lo_bits, uint64_t hi_bits)
{
    uint64_t mn = atomic_load_explicit(&sh->min_bits, memory_order_relaxed);
    uint64_t mx = atomic_load_explicit(&sh->max_bits, memory_order_relaxed);
    uint64_t mnoff, mxoff;
    if (lo_bits < mn)
        atomic_store_explicit(&sh->min_bits, mn = lo_bits, memory_order_relaxed);
    if (hi_bits > mx)
        atomic_store_explicit(&sh->max_bits, mx = hi_bits, memory_order_relaxed);
    /* offsets of the min's and max's buckets (out-of-range extremes clamp to the ends) */
    mnoff = mn ? llmm__map_biased(sh->cells, sh->key_shift, sh->cell_mask, mn) - sh->lo_biased
               : UINT64_MAX;
    mxoff = llmm__map_biased(sh->cells, sh->key_shift, sh->cell_mask, mx) - sh->lo_biased;
    if (mnoff >= sh->nbuckets) /* zero or below the range: from its start; above it: none */
        mnoff = above_range(sh, mn) ? sh->nbuckets : UINT64_MAX;
    if (mxoff >= sh->nbuckets) /* above the range: up to its end; zero or below it: none */
        mxoff = above_range(sh, mx) ? sh->nbuckets : 0;
    sh->mm_lo = mnoff + 1;
    sh->mm_span = mxoff > sh->mm_lo ? mxoff - sh->mm_lo : 0;
}

static inline void publish_sum(llmm_shard *sh, unsigned lane)
{
    uint64_t nb;
    memcpy(&nb, &sh->sums[lane], sizeof nb);
    atomic_store_explicit(&sh->sum_bits[lane], nb, memory_order_relaxed);
}

/* Sum, min and max for one validated value. */
static void note_value(llmm_shard *sh, uint64_t bits, double v)
{
    sh->sums[0] += v;
    publish_sum(sh, 0);
    bits &= ~(UINT64_C(1) << 63); /* -0 as 0 */
    note_extremes(sh, bits, bits);
}

static inline int valid_bits(uint64_t bits)
{
    return bits - 1 < LLMM__DBL_MAX_BITS || (bits << 1) == 0;
}

/* Where a value is counted: valid, and the page of its bucket made; *ctr is its bucket's
 * counter, or the zero / underflow / overflow count. Counts nothing. */
static llmm_status value_counter(llmm_shard *sh, double v, _Atomic uint64_t **ctr)
{
    uint64_t bits = llmm__dbits(v), off;
    page *p;
    if (!valid_bits(bits))
        return LLMM_E_INVALID;
    bits &= ~(UINT64_C(1) << 63); /* -0 as 0 */
    off = llmm__map_biased(sh->cells, sh->key_shift, sh->cell_mask, bits) - sh->lo_biased;
    if (LLMM__LIKELY(off < sh->nbuckets && bits != 0)) {
        p = page_for(sh, off);
        if (!p)
            return LLMM_E_NOMEM;
        *ctr = &p->c[off & (PAGE_SIZE - 1)];
    } else if (bits == 0) {
        *ctr = &sh->zero;
    } else if (llmm__map_index(sh->owner->scale, v) < sh->owner->idx_lo) {
        *ctr = &sh->under;
    } else {
        *ctr = &sh->over;
    }
    return LLMM_OK;
}

/* Everything but the common case: first touch of a page, new extremes, zero, out of range,
 * invalid input. */
LLMM__NOINLINE
static llmm_status add_slow(llmm_shard *sh, double v)
{
    _Atomic uint64_t *ctr;
    llmm_status st = value_counter(sh, v, &ctr);
    if (st != LLMM_OK)
        return st;
    note_value(sh, llmm__dbits(v), v);
    bump(ctr, 1);
    return LLMM_OK;
}

/* The common case inline: an in-range value strictly between the min's and max's buckets
 * whose page exists. As in the sketch, every invalid value maps outside that window. */
static inline llmm_status add_one(llmm_shard *sh, double v)
{
    uint64_t bits = llmm__dbits(v);
    uint64_t off = llmm__map_biased(sh->cells, sh->key_shift, sh->cell_mask, bits) - sh->lo_biased;
    if (LLMM__LIKELY(off - sh->mm_lo < sh->mm_span)) {
        page *p = atomic_load_explicit(&sh->pages[off >> PAGE_SHIFT], memory_order_relaxed);
        if (LLMM__LIKELY(p != NULL)) {
            unsigned lane = (unsigned)off & 1;
            sh->sums[lane] += v;
            publish_sum(sh, lane);
            bump(&p->c[off & (PAGE_SIZE - 1)], 1);
            return LLMM_OK;
        }
    }
    return add_slow(sh, v);
}

llmm_status llmm_shard_add(llmm_shard *sh, double v)
{
    if (LLMM__UNLIKELY(!sh))
        return LLMM_E_INVALID;
    return add_one(sh, v);
}

#define BATCH_CHUNK 1024 /* a batch up to this long keeps its counters' addresses (a power of 2) */

/* What a batch needs of the shard for its common case, read once into registers (stores to
 * counters and to the batch's own arrays could otherwise alias the shard's fields). The
 * window does not move while a batch is located or counted. */
typedef struct window {
    const llmm__map_cell *cells;
    uint64_t cell_mask, lo_biased, mm_lo, mm_span;
    uint32_t key_shift;
    _Atomic(page *) *pages;
} window;

static inline window window_of(const llmm_shard *sh)
{
    window w = {sh->cells,   sh->cell_mask, sh->lo_biased, sh->mm_lo,
                sh->mm_span, sh->key_shift, sh->pages};
    return w;
}

/* The counter of v when v lies inside the min/max window and its page exists (the common
 * case: v is then valid and cannot move min or max), else NULL. As in add_one. */
static inline _Atomic uint64_t *window_counter(const window *w, double v)
{
    uint64_t off =
        llmm__map_biased(w->cells, w->key_shift, w->cell_mask, llmm__dbits(v)) - w->lo_biased;
    page *p;
    if (LLMM__LIKELY(off - w->mm_lo < w->mm_span) &&
        LLMM__LIKELY(
            (p = atomic_load_explicit(&w->pages[off >> PAGE_SHIFT], memory_order_relaxed)) != NULL))
        return &p->c[off & (PAGE_SIZE - 1)];
    return NULL;
}

/* Pass 1 of a batch, counting nothing: every value valid and every page it needs made; the
 * counter of value i noted in ctr[i % BATCH_CHUNK] (all of them when n <= BATCH_CHUNK).
 * *lo / *hi gather the bits of the values outside the window, the only ones that can move
 * min or max. */
static llmm_status locate(llmm_shard *sh, const double *v, size_t n, _Atomic uint64_t **ctr,
                          uint64_t *lo, uint64_t *hi)
{
    window w = window_of(sh);
    uint64_t mn = UINT64_MAX, mx = 0;
    for (size_t i = 0; i < n; i++) {
        _Atomic uint64_t *c = window_counter(&w, v[i]);
        if (LLMM__UNLIKELY(!c)) {
            uint64_t bits = llmm__dbits(v[i]) & ~(UINT64_C(1) << 63); /* -0 as 0 */
            llmm_status st = value_counter(sh, v[i], &c);
            if (st != LLMM_OK)
                return st;
            mn = bits < mn ? bits : mn;
            mx = bits > mx ? bits : mx;
        }
        ctr[i % BATCH_CHUNK] = c;
    }
    *lo = mn;
    *hi = mx;
    return LLMM_OK;
}

/* The counter of a value of a located batch (valid, its page made: nothing can fail). */
static inline _Atomic uint64_t *located_counter(llmm_shard *sh, const window *w, double v)
{
    _Atomic uint64_t *c = window_counter(w, v);
    if (LLMM__UNLIKELY(!c))
        (void)value_counter(sh, v, &c);
    return c;
}

/* Pass 2: count the values, at the counters pass 1 noted or (past BATCH_CHUNK values) found
 * again, and add each to the sum lane of its position's parity: two lanes, so that
 * consecutive additions do not wait on each other (the snapshot adds both). */
static void count_batch(llmm_shard *sh, const double *v, size_t n, _Atomic uint64_t *const *ctr)
{
    window w = window_of(sh);
    double even = sh->sums[0], odd = sh->sums[1];
    size_t i = 0;
    if (n <= BATCH_CHUNK) {
        for (; i + 1 < n; i += 2) {
            bump(ctr[i], 1);
            bump(ctr[i + 1], 1);
            even += v[i];
            odd += v[i + 1];
        }
    } else {
        for (; i + 1 < n; i += 2) {
            bump(located_counter(sh, &w, v[i]), 1);
            bump(located_counter(sh, &w, v[i + 1]), 1);
            even += v[i];
            odd += v[i + 1];
        }
    }
    if (i < n) {
        bump(n <= BATCH_CHUNK ? ctr[i] : located_counter(sh, &w, v[i]), 1);
        even += v[i];
    }
    sh->sums[0] = even;
    sh->sums[1] = odd;
    publish_sum(sh, 0);
    publish_sum(sh, 1);
}

llmm_status llmm_shard_add_many(llmm_shard *sh, const double *v, size_t n)
{
    _Atomic uint64_t *ctr[BATCH_CHUNK];
    uint64_t lo, hi;
    llmm_status st;
    if (!sh || (!v && n))
        return LLMM_E_INVALID;
    if (n == 0)
        return LLMM_OK;
    /* the whole batch is checked before any of it is counted, so a concurrent snapshot never
     * sees part of a batch that then fails */
    st = locate(sh, v, n, ctr, &lo, &hi);
    if (st != LLMM_OK)
        return st;
    /* extremes first, so a concurrent snapshot never counts a value beyond its min / max */
    if (lo <= hi)
        note_extremes(sh, lo, hi);
    count_batch(sh, v, n, ctr);
    return LLMM_OK;
}

llmm_status llmm_recorder_snapshot(llmm_recorder *r, llmm_sketch *into)
{
    llmm_shard *sh, *head;
    uint64_t total = 0, zero = 0, under = 0, over = 0, minb = UINT64_MAX, maxb = 0;
    size_t np = 0, p, k, lo_page = SIZE_MAX, hi_page = 0, cap;
    double sum = 0.0;
    llmm__store st = {NULL, NULL, 0, 0};
    llmm_status rc;

    if (!r || !into)
        return LLMM_E_INVALID;
    head = atomic_load_explicit(&r->shards, memory_order_acquire);
    for (sh = head; sh; sh = atomic_load_explicit(&sh->next, memory_order_acquire)) {
        np = sh->npages;
        for (p = 0; p < np; p++) {
            if (atomic_load_explicit(&sh->pages[p], memory_order_acquire)) {
                if (p < lo_page)
                    lo_page = p;
                if (p > hi_page)
                    hi_page = p;
            }
        }
    }
    if (lo_page != SIZE_MAX) {
        /* pages made after the scan above are simply not in this snapshot */
        int64_t first = r->idx_lo + (int64_t)(lo_page * PAGE_SIZE);
        cap = (hi_page - lo_page + 1) * PAGE_SIZE;
        if (first + (int64_t)cap - 1 > r->idx_hi) /* the last page may stick out of the range */
            cap = (size_t)(r->idx_hi - first + 1);
        rc = llmm__store_make(into->ctx, first, cap, 1, &st);
        if (rc != LLMM_OK)
            return rc;
        for (sh = head; sh; sh = atomic_load_explicit(&sh->next, memory_order_acquire)) {
            for (p = lo_page; p <= hi_page; p++) {
                page *pg = atomic_load_explicit(&sh->pages[p], memory_order_acquire);
                if (!pg)
                    continue;
                for (k = 0; k < PAGE_SIZE && (p - lo_page) * PAGE_SIZE + k < cap; k++) {
                    uint64_t c = atomic_load_explicit(&pg->c[k], memory_order_acquire);
                    st.counts64[(p - lo_page) * PAGE_SIZE + k] += c;
                    total += c;
                }
            }
        }
    }
    for (sh = head; sh; sh = atomic_load_explicit(&sh->next, memory_order_acquire)) {
        uint64_t b;
        zero += atomic_load_explicit(&sh->zero, memory_order_acquire);
        under += atomic_load_explicit(&sh->under, memory_order_acquire);
        over += atomic_load_explicit(&sh->over, memory_order_acquire);
        sum += from_bits(atomic_load_explicit(&sh->sum_bits[0], memory_order_relaxed));
        sum += from_bits(atomic_load_explicit(&sh->sum_bits[1], memory_order_relaxed));
        b = atomic_load_explicit(&sh->min_bits, memory_order_relaxed);
        if (b < minb)
            minb = b;
        b = atomic_load_explicit(&sh->max_bits, memory_order_relaxed);
        if (b > maxb)
            maxb = b;
    }
    /* commit into `into` (its context stays); nothing below fails */
    llmm__store_adopt(into, &st, r->scale);
    into->range_lo = r->range_lo;
    into->range_hi = r->range_hi;
    into->idx_lo = r->idx_lo;
    into->idx_hi = r->idx_hi;
    into->zero = zero;
    into->under = under;
    into->over = over;
    into->count = total + zero + under + over;
    into->sum = into->count ? sum : 0.0;
    into->min = into->count ? from_bits(minb) : 0.0;
    into->max = into->count ? from_bits(maxb) : 0.0;
    if (into->count && into->min > into->max)
        into->min = into->max;
    llmm__sketch_refresh_fast(into);
    return LLMM_OK;
}

void llmm_recorder_free(llmm_recorder *r)
{
    llmm_shard *sh, *next;
    size_t p;
    if (!r)
        return;
    for (sh = atomic_load_explicit(&r->shards, memory_order_acquire); sh; sh = next) {
        next = atomic_load_explicit(&sh->next, memory_order_acquire);
        for (p = 0; p < sh->npages; p++) {
            page *pg = atomic_load_explicit(&sh->pages[p], memory_order_acquire);
            if (pg)
                llmm__free(r->ctx, pg, sizeof *pg);
        }
        llmm__free(r->ctx, (void *)sh->pages, sh->npages * sizeof *sh->pages);
        llmm__free(r->ctx, sh, sizeof *sh);
    }
    pthread_mutex_destroy(&r->lock);
    llmm__free(r->ctx, r, sizeof *r);
}
