/* Merge, subtract and downscale: exact bucket arithmetic at a common scale. */
#include "sketch_internal.h"

static int64_t shift_down(int64_t i, int32_t k)
{
    /* arithmetic shift = floor division by 2^k, also for negative indices */
    return k ? (i >> k) : i;
}

/* Rebuild dst's store at scale t (<= dst->scale), adding src (nullable, scale >= t).
 * All or nothing. */
static llmm_status rebuild(llmm_sketch *dst, const llmm_sketch *src, int32_t t)
{
    int32_t kd = dst->scale - t, ks = src ? src->scale - t : 0;
    int64_t rlo = shift_down(dst->idx_lo, kd), rhi = shift_down(dst->idx_hi, kd);
    int64_t lo = INT64_MAX, hi = INT64_MIN, a, b, i;
    uint64_t extra_under = 0, extra_over = 0, peak = 0;
    llmm__store wide = {NULL, NULL, 0, 0}, narrow = {NULL, NULL, 0, 0};
    size_t k;
    llmm_status st;
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
        st = llmm__store_make(dst->ctx, lo, (size_t)(hi - lo + 1), 1, &wide);
        if (st != LLMM_OK)
            return st;
        if (have_d) {
            for (i = dst->base; i < dst->base + (int64_t)dst->cap; i++) {
                uint64_t c = llmm__store_get(dst, i);
                if (c)
                    wide.counts64[shift_down(i, kd) - lo] += c;
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
                wide.counts64[j - lo] += c;
        }
    }
    for (k = 0; k < wide.cap; k++)
        if (wide.counts64[k] > peak)
            peak = wide.counts64[k];
    if (wide.cap && !dst->counts64 && peak <= UINT32_MAX) {
        st = llmm__store_make(dst->ctx, lo, wide.cap, 0, &narrow);
        if (st != LLMM_OK) {
            llmm__store_drop(dst->ctx, &wide);
            return st;
        }
        for (k = 0; k < wide.cap; k++)
            narrow.counts32[k] = (uint32_t)wide.counts64[k];
        llmm__store_drop(dst->ctx, &wide);
        wide = narrow;
    }
    /* commit: nothing below can fail */
    llmm__store_adopt(dst, &wide, t);
    dst->idx_lo = rlo;
    dst->idx_hi = rhi;
    if (src) {
        dst->under += src->under + extra_under;
        dst->over += src->over + extra_over;
    }
    return LLMM_OK;
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
                llmm__store_add_run(dst, src, a, b);
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

/* Whatever the operands were (an `earlier` that is no snapshot of dst, extremes a recorder
 * published ahead of its counts), the result's extremes enclose what it counts, as every
 * sketch's must (doc/format.md 3.4, which the decoder checks): a zero makes the min 0, the
 * lowest non-empty bucket bounds the min from above and the highest bounds the max from
 * below. A snapshot subtracted from a later one never needs this. */
static void enclose_counts(llmm_sketch *s)
{
    int64_t lo, hi;
    if (s->zero)
        s->min = 0.0;
    if (llmm__store_span(s, &lo, &hi)) {
        if (s->min > 0.0 && llmm__map_index(s->scale, s->min) > lo)
            s->min = llmm__bucket_rep(s->scale, lo);
        if (!(s->max > 0.0) || llmm__map_index(s->scale, s->max) < hi)
            s->max = llmm__bucket_rep(s->scale, hi);
    }
    if (s->count > s->zero && !(s->max > 0.0))
        s->max = extreme_rep(s, -1);
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
    if (earlier->count > dst->count || earlier->zero > dst->zero || earlier->under > dst->under ||
        earlier->over > dst->over)
        return LLMM_E_STATE;
    have = llmm__store_span(earlier, &a, &b);
    for (i = a; have && i <= b; i++)
        if (llmm__store_get(earlier, i) > llmm__store_get(dst, i))
            return LLMM_E_STATE;
    /* contained: subtract in place, nothing can fail now */
    for (i = a; have && i <= b; i++) {
        uint64_t c = llmm__store_get(earlier, i);
        if (c)
            llmm__store_sub(dst, i, c);
    }
    dst->count -= earlier->count;
    dst->zero -= earlier->zero;
    dst->under -= earlier->under;
    dst->over -= earlier->over;
    dst->sum -= earlier->sum;
    if (dst->sum < 0.0)
        dst->sum = 0.0; /* rounding (a sum of values >= 0 is never negative) */
    old_min = dst->min;
    old_max = dst->max;
    if (!dst->count) {
        dst->min = dst->max = 0.0;
        dst->sum = 0.0;
    } else {
        int min_exact = old_min<earlier->min, max_exact = old_max> earlier->max;
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
        enclose_counts(dst);
    }
    llmm__sketch_refresh_fast(dst);
    return LLMM_OK;
}
