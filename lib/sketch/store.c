/* The bucket store: a dense run of counters over the touched part of the range.
 *
 * Counters are 32-bit while every bucket fits (half the memory, and the hot path's increment
 * detects the wrap); the first bucket that would pass 2^32 - 1 widens the store to 64-bit, after
 * which the fast path stays off. The store only ever covers indices inside the range. */
#include "sketch_internal.h"

void llmm__range_indices(int32_t scale, double lo, double hi, int64_t *ilo, int64_t *ihi)
{
    *ilo = llmm__map_index(scale, lo);
    *ihi = llmm__map_index(scale, hi);
}

void llmm__sketch_refresh_fast(llmm_sketch *s)
{
    int64_t lo, hi, mn, mx;
    s->fast_span = 0;
    s->fast_counts = NULL;
    s->wide_span = 0;
    s->wide_counts = NULL;
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

llmm_status llmm__store_reserve(llmm_sketch *s, int64_t lo, int64_t hi, int wide)
{
    int64_t nlo = lo, nhi = hi, margin;
    size_t ncap, esz, i, total;
    void *buf;
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
    ncap = (size_t)(nhi - nlo + 1);
    esz = wide ? sizeof(uint64_t) : sizeof(uint32_t);
    if (!llmm__mul_size(ncap, esz, &total))
        return LLMM_E_NOMEM;
    buf = llmm__calloc(s->ctx, ncap, esz);
    if (!buf)
        return LLMM_E_NOMEM;
    for (i = 0; i < s->cap; i++) {
        size_t at = (size_t)(s->base - nlo) + i;
        if (wide)
            ((uint64_t *)buf)[at] = now_wide ? s->counts64[i] : s->counts32[i];
        else
            ((uint32_t *)buf)[at] = s->counts32[i];
    }
    llmm__sketch_release_store(s);
    if (wide)
        s->counts64 = buf;
    else
        s->counts32 = buf;
    s->base = nlo;
    s->cap = ncap;
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

void llmm__sketch_release_store(llmm_sketch *s)
{
    if (s->counts32)
        llmm__free(s->ctx, s->counts32, s->cap * sizeof(uint32_t));
    if (s->counts64)
        llmm__free(s->ctx, s->counts64, s->cap * sizeof(uint64_t));
    s->counts32 = NULL;
    s->counts64 = NULL;
    s->cap = 0;
    s->base = 0;
    s->fast_span = 0;
    s->fast_counts = NULL;
    s->wide_span = 0;
    s->wide_counts = NULL;
}
