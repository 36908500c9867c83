/* Queries: nearest-rank quantiles (doc/spec.md §5), rank, summary statistics, bucket cursor.
 * Quantiles and ranks are found in the cumulative view (view.c) when it holds the sketch's
 * current state, else by scanning the buckets; both give the same answer. */
#include <math.h>

#include "sketch_internal.h"

static double clamp(const llmm_sketch *s, double v)
{
    if (v < s->min)
        return s->min;
    if (v > s->max)
        return s->max;
    return v;
}

/* Slots are scanned on the raw counter arrays: this loop is the whole cost of a query. */
static size_t scan_up(const llmm_sketch *s, size_t i, uint64_t *cum, uint64_t target)
{
    uint64_t c = *cum;
    if (s->counts64) {
        for (; i < s->cap; i++)
            if ((c += s->counts64[i]) >= target)
                break;
    } else {
        const uint32_t *a = s->counts32;
        /* blocks of 16 first: one branch per block, sums the compiler vectorises */
        for (; i + 16 <= s->cap; i += 16) {
            uint64_t b = 0;
            for (size_t k = 0; k < 16; k++)
                b += a[i + k];
            if (c + b >= target)
                break;
            c += b;
        }
        for (; i < s->cap; i++)
            if ((c += a[i]) >= target)
                break;
    }
    *cum = c;
    return i;
}

/* Downward: slots i-1, i-2, ...; returns the slot where the count from the top reaches target,
 * or (size_t)-1 when the slots are exhausted. */
static size_t scan_down(const llmm_sketch *s, size_t i, uint64_t *cum, uint64_t target)
{
    uint64_t c = *cum;
    if (s->counts64) {
        while (i-- > 0)
            if ((c += s->counts64[i]) >= target)
                break;
    } else {
        const uint32_t *a = s->counts32;
        for (; i >= 16; i -= 16) {
            uint64_t b = 0;
            for (size_t k = 1; k <= 16; k++)
                b += a[i - k];
            if (c + b >= target)
                break;
            c += b;
        }
        while (i-- > 0)
            if ((c += a[i]) >= target)
                break;
    }
    *cum = c;
    return i;
}

/* The buckets of the range bounds also hold the values between the bound and the bucket
 * edge; their representative is kept inside the range so that it never passes the answer
 * for the underflow (range_lo) or the overflow (range_hi): quantiles stay monotone in q. */
static double slot_value(const llmm_sketch *s, size_t slot)
{
    double v = llmm__bucket_rep(s->scale, s->base + (int64_t)slot);
    if (v < s->range_lo)
        v = s->range_lo;
    else if (v > s->range_hi)
        v = s->range_hi;
    return clamp(s, v);
}

/* Ranks in (1, count) counted from the bottom, ascending; out[order[j]] receives each. */
static void walk_up(const llmm_sketch *s, const uint64_t *ranks, const size_t *order, size_t m,
                    double *out)
{
    size_t j = 0, i = 0;
    uint64_t cum = s->zero;
    int at_slot = 0; /* cum includes slot i */
    for (; j < m && ranks[j] <= cum; j++)
        out[order[j]] = clamp(s, 0.0);
    cum += s->under;
    for (; j < m && ranks[j] <= cum; j++)
        out[order[j]] = clamp(s, s->range_lo);
    for (; j < m; j++) {
        if (!at_slot || ranks[j] > cum) {
            if (at_slot)
                i++;
            i = scan_up(s, i, &cum, ranks[j]);
            at_slot = 1;
            if (i >= s->cap)
                break;
        }
        out[order[j]] = slot_value(s, i);
    }
    for (; j < m; j++) /* the rest lie in the overflow */
        out[order[j]] = clamp(s, s->range_hi);
}

/* Ranks counted from the top (t = count - rank + 1), ascending in t. */
static void walk_down(const llmm_sketch *s, const uint64_t *tops, const size_t *order, size_t m,
                      double *out)
{
    size_t j = 0, i = s->cap;
    uint64_t cum = s->over;
    int at_slot = 0;
    for (; j < m && tops[j] <= cum; j++)
        out[order[j]] = clamp(s, s->range_hi);
    for (; j < m; j++) {
        if (!at_slot || tops[j] > cum) {
            i = scan_down(s, i, &cum, tops[j]);
            at_slot = 1;
            if (i == (size_t)-1)
                break;
        }
        out[order[j]] = slot_value(s, i);
    }
    for (; j < m && tops[j] <= cum + s->under; j++)
        out[order[j]] = clamp(s, s->range_lo);
    for (; j < m; j++)
        out[order[j]] = clamp(s, 0.0);
}

/* Value of ranks[0..m) (ascending), written to out[order[j]]. Ranks 1 and count are the exact
 * min and max; the lower half is found walking up from the smallest bucket, the upper half
 * walking down from the largest, so a P50…P99.99 set touches about half of the buckets. */
static void walk_ranks(const llmm_sketch *s, const uint64_t *ranks, const size_t *order, size_t m,
                       double *out)
{
    uint64_t tops[64];
    size_t tord[64];
    size_t lo = 0, hi = m, k;
    while (lo < m && ranks[lo] == 1)
        out[order[lo++]] = s->min;
    while (hi > lo && ranks[hi - 1] == s->count)
        out[order[--hi]] = s->max;
    k = lo;
    while (k < hi && ranks[k] <= s->count / 2)
        k++;
    walk_up(s, ranks + lo, order + lo, k - lo, out);
    /* upper part, re-expressed from the top and reversed so it is ascending */
    for (size_t j = 0; j < hi - k; j++) {
        tops[j] = s->count - ranks[hi - 1 - j] + 1;
        tord[j] = order[hi - 1 - j];
    }
    walk_down(s, tops, tord, hi - k, out);
}

/* Chunks of this many quantiles are answered together, their ranks kept on the stack. */
#define QCHUNK 64

double llmm__special_value(const llmm_sketch *s, uint64_t r)
{
    if (r == 1)
        return s->min;
    if (r == s->count)
        return s->max;
    if (r <= s->zero)
        return clamp(s, 0.0);
    if (r <= s->zero + s->under)
        return clamp(s, s->range_lo);
    return clamp(s, s->range_hi);
}

static int valid_q(double q)
{
    return q >= 0.0 && q <= 1.0;
}

/* The scan: ranks sorted in chunks, walked over the buckets. Out of line, so that the view's
 * path does not carry its stack frame. */
static LLMM__NOINLINE void scan_quantiles(const llmm_sketch *s, const double *q, size_t n,
                                          double *out)
{
    for (size_t start = 0; start < n; start += QCHUNK) {
        uint64_t ranks[QCHUNK];
        size_t order[QCHUNK];
        double tmp[QCHUNK];
        size_t m = n - start < QCHUNK ? n - start : QCHUNK, a, b;
        for (a = 0; a < m; a++) {
            uint64_t r = llmm__rank_of(q[start + a], (double)s->count, s->count);
            /* insertion sort by rank, carrying the original position */
            for (b = a; b > 0 && ranks[b - 1] > r; b--) {
                ranks[b] = ranks[b - 1];
                order[b] = order[b - 1];
            }
            ranks[b] = r;
            order[b] = a;
        }
        walk_ranks(s, ranks, order, m, tmp);
        memcpy(out + start, tmp, m * sizeof *tmp);
    }
}

llmm_status llmm_sketch_quantile(const llmm_sketch *s, double q, double *out)
{
    if (!s || !out || !valid_q(q))
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    if (!llmm__view_quantiles(s, &q, 1, out))
        scan_quantiles(s, &q, 1, out);
    return LLMM_OK;
}

llmm_status llmm_sketch_quantiles(const llmm_sketch *s, const double *q, size_t n, double *out)
{
    if (!s || (!q && n) || (!out && n))
        return LLMM_E_INVALID;
    for (size_t i = 0; i < n; i++)
        if (!valid_q(q[i]))
            return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    if (!llmm__view_quantiles(s, q, n, out))
        scan_quantiles(s, q, n, out);
    return LLMM_OK;
}

/* Values counted in the store's buckets up to index vi (the view's or a scan's count). */
static uint64_t stored_through(const llmm_sketch *s, int64_t vi)
{
    int64_t lo, hi, i;
    uint64_t le = 0;
    if (!s->cap || vi < s->base)
        return 0;
    if (vi >= s->base + (int64_t)s->cap)
        return s->count - s->zero - s->under - s->over;
    if (llmm__view_open(s))
        return llmm__view_through(s, (size_t)(vi - s->base));
    if (llmm__store_span(s, &lo, &hi)) {
        if (vi > hi)
            vi = hi;
        for (i = lo; i <= vi; i++)
            le += llmm__store_get(s, i);
    }
    return le;
}

llmm_status llmm_sketch_rank(const llmm_sketch *s, double v, double *fraction_le)
{
    uint64_t le;
    if (!s || !fraction_le || isnan(v))
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    if (v < s->min) {
        *fraction_le = 0.0;
        return LLMM_OK;
    }
    if (v >= s->max) {
        *fraction_le = 1.0;
        return LLMM_OK;
    }
    /* here min <= v < max, so v >= 0 and finite */
    le = s->zero;
    if (v > 0.0)
        le += s->under + stored_through(s, llmm__map_index(s->scale, v));
    *fraction_le = (double)le / (double)s->count;
    return LLMM_OK;
}

uint64_t llmm_sketch_count(const llmm_sketch *s)
{
    return s ? s->count : 0;
}

llmm_status llmm_sketch_sum(const llmm_sketch *s, double *out)
{
    if (!s || !out)
        return LLMM_E_INVALID;
    *out = s->sum;
    return LLMM_OK;
}

llmm_status llmm_sketch_min(const llmm_sketch *s, double *out)
{
    if (!s || !out)
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    *out = s->min;
    return LLMM_OK;
}

llmm_status llmm_sketch_max(const llmm_sketch *s, double *out)
{
    if (!s || !out)
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    *out = s->max;
    return LLMM_OK;
}

llmm_status llmm_sketch_mean(const llmm_sketch *s, double *out)
{
    if (!s || !out)
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    *out = s->sum / (double)s->count;
    return LLMM_OK;
}

llmm_status llmm_sketch_special_counts(const llmm_sketch *s, uint64_t *zero, uint64_t *under,
                                       uint64_t *over)
{
    if (!s)
        return LLMM_E_INVALID;
    if (zero)
        *zero = s->zero;
    if (under)
        *under = s->under;
    if (over)
        *over = s->over;
    return LLMM_OK;
}

int32_t llmm_sketch_scale(const llmm_sketch *s)
{
    return s ? s->scale : -1;
}

llmm_status llmm_sketch_bucket_span(const llmm_sketch *s, int32_t *first, int32_t *last)
{
    int64_t lo, hi;
    if (!s || !first || !last)
        return LLMM_E_INVALID;
    if (!llmm__store_span(s, &lo, &hi))
        return LLMM_E_EMPTY;
    *first = (int32_t)lo;
    *last = (int32_t)hi;
    return LLMM_OK;
}

uint64_t llmm_sketch_bucket_count(const llmm_sketch *s, int32_t index)
{
    return s ? llmm__store_get(s, index) : 0;
}
