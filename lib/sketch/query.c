/* Queries: nearest-rank quantiles (SPEC §5), rank, summary statistics, bucket cursor. */
#include <math.h>

#include "sketch_internal.h"

/* Rank r = max(1, ceil(q·n)); q·n within 1e-9 of an integer counts as that integer. */
static uint64_t rank_of(double q, uint64_t n)
{
    double qn = q * (double)n;
    double r = nearbyint(qn);
    uint64_t rank;
    if (fabs(qn - r) > 1e-9)
        r = ceil(qn);
    rank = r < 1.0 ? 1 : (uint64_t)r;
    return rank > n ? n : rank;
}

static double clamp(const llmm_sketch *s, double v)
{
    if (v < s->min)
        return s->min;
    if (v > s->max)
        return s->max;
    return v;
}

/* Value of ranks[0..m) (ascending), written to out[order[j]]; one walk over the buckets. */
static void walk_ranks(const llmm_sketch *s, const uint64_t *ranks, const size_t *order,
                       size_t m, double *out)
{
    size_t j = 0;
    uint64_t cum = 0;
    int64_t lo, hi, i;
    while (j < m && ranks[j] == 1)
        out[order[j++]] = s->min;
    cum = s->zero;
    while (j < m && ranks[j] <= cum && ranks[j] < s->count)
        out[order[j++]] = clamp(s, 0.0);
    cum += s->under;
    while (j < m && ranks[j] <= cum && ranks[j] < s->count)
        out[order[j++]] = clamp(s, s->range_lo);
    if (j < m && llmm__store_span(s, &lo, &hi)) {
        for (i = lo; i <= hi && j < m; i++) {
            uint64_t c = llmm__store_get(s, i);
            if (!c)
                continue;
            cum += c;
            if (ranks[j] <= cum && ranks[j] < s->count) {
                double rep = clamp(s, llmm__bucket_rep(s->scale, i));
                while (j < m && ranks[j] <= cum && ranks[j] < s->count)
                    out[order[j++]] = rep;
            }
        }
    }
    while (j < m && ranks[j] < s->count)
        out[order[j++]] = clamp(s, s->range_hi);
    while (j < m)
        out[order[j++]] = s->max;
}

static int valid_q(double q)
{
    return q >= 0.0 && q <= 1.0;
}

llmm_status llmm_sketch_quantile(const llmm_sketch *s, double q, double *out)
{
    uint64_t r;
    size_t zero = 0;
    if (!s || !out || !valid_q(q))
        return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    r = rank_of(q, s->count);
    walk_ranks(s, &r, &zero, 1, out);
    return LLMM_OK;
}

/* Chunks of this many quantiles are sorted on the stack and answered in one walk each. */
#define QCHUNK 64

llmm_status llmm_sketch_quantiles(const llmm_sketch *s, const double *q, size_t n, double *out)
{
    size_t i, start;
    if (!s || (!q && n) || (!out && n))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++)
        if (!valid_q(q[i]))
            return LLMM_E_INVALID;
    if (!s->count)
        return LLMM_E_EMPTY;
    for (start = 0; start < n; start += QCHUNK) {
        uint64_t ranks[QCHUNK];
        size_t order[QCHUNK];
        double tmp[QCHUNK];
        size_t m = n - start < QCHUNK ? n - start : QCHUNK, a, b;
        for (a = 0; a < m; a++) {
            uint64_t r = rank_of(q[start + a], s->count);
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
    return LLMM_OK;
}

llmm_status llmm_sketch_rank(const llmm_sketch *s, double v, double *fraction_le)
{
    uint64_t le;
    int64_t lo, hi, i, vi;
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
    if (v > 0.0) {
        le += s->under;
        vi = llmm__map_index(s->scale, v);
        if (llmm__store_span(s, &lo, &hi)) {
            if (vi > hi)
                vi = hi;
            for (i = lo; i <= vi; i++)
                le += llmm__store_get(s, i);
        }
    }
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
