/* Merge, subtract and downscale: exact bucket arithmetic at a common scale. */
#include "sketch_internal.h"

static int64_t shift_down(int64_t i, int32_t k)
{
    /* arithmetic shift = floor division by 2^k, also for negative indices */
    return k ? (i >> k) : i;
}

static void set_scale(llmm_sketch *s, int32_t scale)
{
    s->scale = scale;
    s->cells = llmm__map_cells[scale];
    s->key_shift = llmm__key_shift(scale);
    s->cell_mask = llmm__cell_mask(scale);
}

/* Rebuild dst's store at scale t (<= dst->scale), adding src (nullable, scale >= t).
 * All or nothing. */
static llmm_status rebuild(llmm_sketch *dst, const llmm_sketch *src, int32_t t)
{
    int32_t kd = dst->scale - t, ks = src ? src->scale - t : 0;
    int64_t rlo = shift_down(dst->idx_lo, kd), rhi = shift_down(dst->idx_hi, kd);
    int64_t lo = INT64_MAX, hi = INT64_MIN, a, b, i;
    uint64_t extra_under = 0, extra_over = 0, *tmp = NULL, peak = 0;
    uint32_t *narrow = NULL;
    size_t cap = 0, k;
    int have_d = llmm__store_span(dst, &a, &b);

    if (have_d) {
        lo = shift_down(a, kd);
        hi = shift_down(b, kd);
    }
    if (src && llmm__store_span(src, &a, &b)) {
        a = shift_down(a, ks);
        b = shift_down(b, ks);
        if (a < rlo)
            a = rlo;
        if (b > rhi)
            b = rhi;
        if (a <= b) {
            if (a < lo)
                lo = a;
            if (b > hi)
                hi = b;
        }
    }
    if (lo <= hi) {
        cap = (size_t)(hi - lo + 1);
        tmp = llmm__calloc(dst->ctx, cap, sizeof *tmp);
        if (!tmp)
            return LLMM_E_NOMEM;
        if (have_d) {
            for (i = dst->base; i < dst->base + (int64_t)dst->cap; i++) {
                uint64_t c = llmm__store_get(dst, i);
                if (c)
                    tmp[shift_down(i, kd) - lo] += c;
            }
        }
    }
    if (src && src->cap) {
        for (i = src->base; i < src->base + (int64_t)src->cap; i++) {
            uint64_t c = llmm__store_get(src, i);
            int64_t j = shift_down(i, ks);
            if (!c)
                continue;
            if (j < rlo)
                extra_under += c;
            else if (j > rhi)
                extra_over += c;
            else
                tmp[j - lo] += c;
        }
    }
    for (k = 0; k < cap; k++)
        if (tmp[k] > peak)
            peak = tmp[k];
    if (tmp && !dst->counts64 && peak <= UINT32_MAX) {
        narrow = llmm__alloc(dst->ctx, cap * sizeof *narrow);
        if (!narrow) {
            llmm__free(dst->ctx, tmp, cap * sizeof *tmp);
            return LLMM_E_NOMEM;
        }
        for (k = 0; k < cap; k++)
            narrow[k] = (uint32_t)tmp[k];
        llmm__free(dst->ctx, tmp, cap * sizeof *tmp);
        tmp = NULL;
    }
    /* commit: nothing below can fail */
    llmm__sketch_release_store(dst);
    dst->counts32 = narrow;
    dst->counts64 = tmp;
    dst->base = lo <= hi ? lo : 0;
    dst->cap = cap;
    if (kd)
        set_scale(dst, t);
    dst->idx_lo = rlo;
    dst->idx_hi = rhi;
    if (src) {
        dst->under += src->under + extra_under;
        dst->over += src->over + extra_over;
    }
    return LLMM_OK;
}

/* dst[i] += src[i] for i in [a, b], both stores covering it; plain loops the compiler
 * vectorises. */
static void add_run(llmm_sketch *dst, const llmm_sketch *src, int64_t a, int64_t b)
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

/* Counts, extremes and sum of src join dst's. An empty src is merged like any other: a
 * coarser one still lowers dst's scale (llmm_sketch_merge) and its sum is still added (a
 * decoded or subtracted sketch may carry one), so the result is a function of the two
 * operands alone and merges in any grouping agree. */
static void merge_stats(llmm_sketch *dst, const llmm_sketch *src)
{
    dst->sum += src->sum;
    if (!src->count)
        return;
    if (!dst->count) {
        dst->min = src->min;
        dst->max = src->max;
    } else {
        if (src->min < dst->min)
            dst->min = src->min;
        if (src->max > dst->max)
            dst->max = src->max;
    }
    dst->count += src->count;
    dst->zero += src->zero;
}

llmm_status llmm_sketch_merge(llmm_sketch *dst, const llmm_sketch *src)
{
    int64_t a, b;
    llmm_status st;
    if (!dst || !src || dst == src)
        return LLMM_E_INVALID;
    if (src->count > UINT64_MAX - dst->count)
        return LLMM_E_RANGE;
    /* common case: same scale and range, src's buckets already inside dst's store */
    if (src->scale == dst->scale && src->idx_lo == dst->idx_lo && src->idx_hi == dst->idx_hi) {
        int have = llmm__store_span(src, &a, &b);
        int fits = !have || (dst->cap && a >= dst->base && b < dst->base + (int64_t)dst->cap);
        int narrow_ok = dst->counts64 ||
                        dst->count - dst->zero - dst->under - dst->over + src->count <= UINT32_MAX;
        if (fits && narrow_ok) {
            if (have)
                add_run(dst, src, a, b);
            dst->under += src->under;
            dst->over += src->over;
            merge_stats(dst, src);
            llmm__sketch_refresh_fast(dst);
            return LLMM_OK;
        }
    }
    st = rebuild(dst, src, dst->scale < src->scale ? dst->scale : src->scale);
    if (st != LLMM_OK)
        return st;
    merge_stats(dst, src);
    llmm__sketch_refresh_fast(dst);
    return LLMM_OK;
}

llmm_status llmm_sketch_downscale(llmm_sketch *s, int32_t new_scale)
{
    llmm_status st;
    if (!s || new_scale < LLMM_SCALE_MIN || new_scale > s->scale)
        return LLMM_E_INVALID;
    if (new_scale == s->scale)
        return LLMM_OK;
    st = rebuild(s, NULL, new_scale);
    if (st != LLMM_OK)
        return st;
    llmm__sketch_refresh_fast(s);
    return LLMM_OK;
}

/* Representative of the lowest (dir > 0) or highest (dir < 0) non-empty value class. */
static double extreme_rep(const llmm_sketch *s, int dir)
{
    int64_t lo, hi;
    int have = llmm__store_span(s, &lo, &hi);
    if (dir > 0) {
        if (s->zero)
            return 0.0;
        if (s->under)
            return s->range_lo;
        if (have)
            return llmm__bucket_rep(s->scale, lo);
        return s->range_hi;
    }
    if (s->over)
        return s->range_hi;
    if (have)
        return llmm__bucket_rep(s->scale, hi);
    if (s->under)
        return s->range_lo;
    return 0.0;
}

llmm_status llmm_sketch_subtract(llmm_sketch *dst, const llmm_sketch *earlier)
{
    int64_t a, b, i;
    int have;
    double old_min, old_max;
    if (!dst || !earlier || dst == earlier)
        return LLMM_E_INVALID;
    if (dst->scale != earlier->scale || dst->idx_lo != earlier->idx_lo ||
        dst->idx_hi != earlier->idx_hi)
        return LLMM_E_INVALID;
    if (!earlier->count)
        return LLMM_OK;
    if (earlier->count > dst->count || earlier->zero > dst->zero ||
        earlier->under > dst->under || earlier->over > dst->over)
        return LLMM_E_STATE;
    have = llmm__store_span(earlier, &a, &b);
    for (i = a; have && i <= b; i++)
        if (llmm__store_get(earlier, i) > llmm__store_get(dst, i))
            return LLMM_E_STATE;
    /* contained: subtract in place, nothing can fail now */
    for (i = a; have && i <= b; i++) {
        uint64_t c = llmm__store_get(earlier, i);
        size_t off;
        if (!c)
            continue;
        off = (size_t)(i - dst->base);
        if (dst->counts64)
            dst->counts64[off] -= c;
        else
            dst->counts32[off] -= (uint32_t)c;
    }
    dst->count -= earlier->count;
    dst->zero -= earlier->zero;
    dst->under -= earlier->under;
    dst->over -= earlier->over;
    dst->sum -= earlier->sum;
    old_min = dst->min;
    old_max = dst->max;
    if (!dst->count) {
        dst->min = dst->max = 0.0;
        dst->sum = 0.0;
    } else {
        int min_exact = old_min < earlier->min, max_exact = old_max > earlier->max;
        if (!min_exact)
            dst->min = extreme_rep(dst, 1);
        if (!max_exact)
            dst->max = extreme_rep(dst, -1);
        if (dst->min < old_min)
            dst->min = old_min;
        if (dst->max > old_max)
            dst->max = old_max;
        /* one value left, or estimates that crossed: an exact extreme wins */
        if (dst->count == 1 || dst->min > dst->max) {
            if (max_exact && !min_exact)
                dst->min = dst->max;
            else
                dst->max = dst->min;
        }
    }
    llmm__sketch_refresh_fast(dst);
    return LLMM_OK;
}
