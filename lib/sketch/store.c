/* The bucket store: a dense run of counters over the touched part of the range.
 *
 * Counters are 32-bit while every bucket fits (half the memory, and the hot path's increment
 * detects the wrap); the first bucket that would pass 2^32 - 1 widens the store to 64-bit, after
 * which the fast path stays off. The store only ever covers indices inside the range.
 *
 * This file is the only one that assigns the store's fields and the fast-path fields that
 * depend on them: a new store (grown, rebuilt by a merge, copied, snapshotted) is made apart
 * with llmm__store_make and put in place by llmm__store_adopt, which frees the old one and
 * keeps the fast window off until llmm__sketch_refresh_fast recomputes it. */
#include "sketch_internal.h"

static void fast_off(llmm_sketch *s)
{
    s->fast_span = 0;
    s->fast_counts = NULL;
    s->wide_span = 0;
    s->wide_counts = NULL;
}

void llmm__range_indices(int32_t scale, double lo, double hi, int64_t *ilo, int64_t *ihi)
{
    *ilo = llmm__map_index(scale, lo);
    *ihi = llmm__map_index(scale, hi);
}

void llmm__sketch_refresh_fast(llmm_sketch *s)
{
    int64_t lo, hi, mn, mx;
    s->gen++;
    fast_off(s);
    /* The fast path counts without an overflow check. Between two refreshes it can add at
     * most fast_span * 2^32 values (a bucket counter that wraps takes the slow path), far
     * below 2^63, so with the count under 2^63 the total cannot wrap; above it, every add
     * takes the checked slow path. (The wide window's 64-bit counters cannot pass the count.) */
    if ((!s->counts32 && !s->counts64) || s->count == 0 || s->count >= (UINT64_C(1) << 63))
        return;
    /* strictly inside the buckets of min and max, so the fast path never changes them */
    mn = s->min > 0.0 ? llmm__map_index(s->scale, s->min) : INT64_MIN / 4;
    if (!(s->max > 0.0))
        return; /* only zeros so far */
    mx = llmm__map_index(s->scale, s->max);
    lo = mn + 1;
    hi = mx - 1;
    if (lo < s->idx_lo)
        lo = s->idx_lo;
    if (hi > s->idx_hi)
        hi = s->idx_hi;
    if (lo < s->base)
        lo = s->base;
    if (hi > s->base + (int64_t)s->cap - 1)
        hi = s->base + (int64_t)s->cap - 1;
    if (hi < lo)
        return;
    if (s->counts64) {
        s->wide_lo = (uint64_t)(lo + llmm__bias(s->scale));
        s->wide_span = (uint64_t)(hi - lo + 1);
        s->wide_counts = s->counts64 + (lo - s->base);
        return;
    }
    s->fast_lo = (uint64_t)(lo + llmm__bias(s->scale));
    s->fast_span = (uint64_t)(hi - lo + 1);
    s->fast_counts = s->counts32 + (lo - s->base);
}

int llmm__store_span(const llmm_sketch *s, int64_t *lo, int64_t *hi)
{
    size_t a = 0, b = s->cap;
    if (s->counts64) {
        while (a < b && s->counts64[a] == 0)
            a++;
        while (b > a && s->counts64[b - 1] == 0)
            b--;
    } else if (s->counts32) {
        while (a < b && s->counts32[a] == 0)
            a++;
        while (b > a && s->counts32[b - 1] == 0)
            b--;
    } else {
        return 0;
    }
    if (a == b)
        return 0;
    *lo = s->base + (int64_t)a;
    *hi = s->base + (int64_t)b - 1;
    return 1;
}

/* Size of a store of cap counters and where its view starts (8-aligned after the counters).
 * 0 on overflow. */
/* Counters a store of cap slots allocates: whole view blocks, so that a query may read every
 * slot of a block; the slots past cap stay zero (nothing writes there). */
static size_t padded(size_t cap)
{
    return llmm__view_blocks(cap) * LLMM__VIEW_BLOCK;
}

/* Size of a store of cap counters; its view follows the (padded) counters, 8-aligned. 0 on
 * overflow. */
static int store_size(size_t cap, int wide, size_t *total)
{
    size_t counters;
    if (cap > SIZE_MAX / 16 ||
        !llmm__mul_size(padded(cap), wide ? sizeof(uint64_t) : sizeof(uint32_t), &counters))
        return 0;
    /* the view: 4 bytes per block of LLMM__VIEW_BLOCK counters and the guide, no overflow
     * either */
    *total = counters + sizeof(llmm__view) + (llmm__view_blocks(cap) + 1) * sizeof(uint32_t) +
             llmm__view_guide_bytes(llmm__view_blocks(cap));
    return 1;
}

static llmm__view *view_of(const llmm__store *st)
{
    /* the store exists, so its size did not overflow; padded(cap) is even */
    if (st->counts64)
        return (llmm__view *)(void *)(st->counts64 + padded(st->cap));
    if (st->counts32)
        return (llmm__view *)(void *)(st->counts32 + padded(st->cap));
    return NULL;
}

llmm_status llmm__store_make(const llmm_ctx *ctx, int64_t base, size_t cap, int wide,
                             llmm__store *out)
{
    size_t total;
    void *buf;
    llmm__view *v;
    memset(out, 0, sizeof *out);
    out->base = base;
    if (cap == 0)
        return LLMM_OK;
    if (!store_size(cap, wide, &total))
        return LLMM_E_NOMEM;
    buf = llmm__calloc(ctx, 1, total);
    if (!buf)
        return LLMM_E_NOMEM;
    if (wide)
        out->counts64 = buf;
    else
        out->counts32 = buf;
    out->cap = cap;
    v = view_of(out);
    atomic_init(&v->seq, 0);
    atomic_init(&v->gen, 0); /* holds nothing yet */
    atomic_init(&v->count, 0);
    atomic_init(&v->seen_gen, 0);
    atomic_init(&v->seen_count, 0);
    return LLMM_OK;
}

void llmm__store_drop(const llmm_ctx *ctx, llmm__store *st)
{
    size_t total;
    void *counters = st->counts64 ? (void *)st->counts64 : (void *)st->counts32;
    if (counters && store_size(st->cap, st->counts64 != NULL, &total))
        llmm__free(ctx, counters, total);
    memset(st, 0, sizeof *st);
}

llmm_status llmm__store_dup(const llmm_ctx *ctx, const llmm_sketch *s, llmm__store *out)
{
    int wide = s->counts64 != NULL;
    llmm_status st = llmm__store_make(ctx, s->base, s->cap, wide, out);
    if (st == LLMM_OK && s->cap)
        memcpy(wide ? (void *)out->counts64 : (void *)out->counts32,
               wide ? (const void *)s->counts64 : (const void *)s->counts32,
               s->cap * (wide ? sizeof(uint64_t) : sizeof(uint32_t)));
    return st;
}

/* The store as a detached llmm__store (the sketch's fields are left as they are). */
static llmm__store detach(const llmm_sketch *s)
{
    llmm__store st = {s->counts32, s->counts64, s->base, s->cap};
    return st;
}

void llmm__store_adopt(llmm_sketch *s, llmm__store *st, int32_t scale)
{
    llmm__store old = detach(s);
    llmm__store_drop(s->ctx, &old);
    s->counts32 = st->counts32;
    s->counts64 = st->counts64;
    s->base = st->cap ? st->base : 0;
    s->cap = st->cap;
    s->view = view_of(st);
    s->scale = scale;
    s->cells = llmm__map_cells[scale];
    s->key_shift = llmm__key_shift(scale);
    s->cell_mask = llmm__cell_mask(scale);
    fast_off(s); /* (the new store's view holds nothing yet: no stale view can follow) */
    memset(st, 0, sizeof *st);
}

void llmm__sketch_release_store(llmm_sketch *s)
{
    llmm__store none = {NULL, NULL, 0, 0};
    llmm__store_adopt(s, &none, s->scale);
}

llmm_status llmm__store_reserve(llmm_sketch *s, int64_t lo, int64_t hi, int wide)
{
    int64_t nlo = lo, nhi = hi, margin;
    size_t i;
    llmm__store st;
    llmm_status rc;
    int now_wide = s->counts64 != NULL;

    if (s->cap) {
        if (lo >= s->base && hi < s->base + (int64_t)s->cap && (now_wide || !wide))
            return LLMM_OK;
        if (s->base < nlo)
            nlo = s->base;
        if (s->base + (int64_t)s->cap - 1 > nhi)
            nhi = s->base + (int64_t)s->cap - 1;
    }
    wide = wide || now_wide;
    /* grow in steps of a quarter of the span (at least 16 buckets) on the side that grew */
    margin = (nhi - nlo + 1) / 4;
    if (margin < 16)
        margin = 16;
    if (!s->cap || lo < s->base)
        nlo -= margin;
    if (!s->cap || hi >= s->base + (int64_t)s->cap)
        nhi += margin;
    if (nlo < s->idx_lo)
        nlo = s->idx_lo;
    if (nhi > s->idx_hi)
        nhi = s->idx_hi;
    rc = llmm__store_make(s->ctx, nlo, (size_t)(nhi - nlo + 1), wide, &st);
    if (rc != LLMM_OK)
        return rc;
    for (i = 0; i < s->cap; i++) {
        size_t at = (size_t)(s->base - nlo) + i;
        if (wide)
            st.counts64[at] = now_wide ? s->counts64[i] : s->counts32[i];
        else
            st.counts32[at] = s->counts32[i];
    }
    llmm__store_adopt(s, &st, s->scale);
    llmm__sketch_refresh_fast(s);
    return LLMM_OK;
}

void llmm__store_add(llmm_sketch *s, int64_t i, uint64_t n)
{
    size_t off = (size_t)(i - s->base);
    if (s->counts64)
        s->counts64[off] += n;
    else
        s->counts32[off] += (uint32_t)n;
}

void llmm__store_sub(llmm_sketch *s, int64_t i, uint64_t n)
{
    size_t off = (size_t)(i - s->base);
    if (s->counts64)
        s->counts64[off] -= n;
    else
        s->counts32[off] -= (uint32_t)n;
}

/* plain loops the compiler vectorises */
void llmm__store_add_run(llmm_sketch *dst, const llmm_sketch *src, int64_t a, int64_t b)
{
    size_t n = (size_t)(b - a + 1), k;
    size_t so = (size_t)(a - src->base), d0 = (size_t)(a - dst->base);
    if (dst->counts32 && src->counts32) {
        uint32_t *restrict d = dst->counts32 + d0;
        const uint32_t *restrict x = src->counts32 + so;
        for (k = 0; k < n; k++)
            d[k] += x[k];
    } else if (dst->counts64 && src->counts32) {
        uint64_t *restrict d = dst->counts64 + d0;
        const uint32_t *restrict x = src->counts32 + so;
        for (k = 0; k < n; k++)
            d[k] += x[k];
    } else if (dst->counts64) {
        uint64_t *restrict d = dst->counts64 + d0;
        const uint64_t *restrict x = src->counts64 + so;
        for (k = 0; k < n; k++)
            d[k] += x[k];
    } else {
        /* narrow dst, wide src: the caller checked the totals fit in 32 bits */
        uint32_t *restrict d = dst->counts32 + d0;
        const uint64_t *restrict x = src->counts64 + so;
        for (k = 0; k < n; k++)
            d[k] += (uint32_t)x[k];
    }
}

void llmm__store_clear(llmm_sketch *s)
{
    if (s->counts32)
        memset(s->counts32, 0, s->cap * sizeof(uint32_t));
    if (s->counts64)
        memset(s->counts64, 0, s->cap * sizeof(uint64_t));
}
