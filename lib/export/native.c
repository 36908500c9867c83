/* The exported exponential-bucket view of a sketch, shared by Prometheus native histograms
 * and OTLP exponential histograms.
 *
 * Index arithmetic: at scale s, multiplying by 2 moves a value exactly 2^s buckets up
 * (base^(2^s) = 2), so a factor 2^k maps sketch bucket i to i + k·2^s; lowering the scale
 * from s to e maps index j to floor(j / 2^(s−e)) (the OpenTelemetry downscale rule, which
 * merges whole buckets). Both are exact. Any other factor moves each sketch bucket, whole,
 * to the exported bucket holding its logarithmic midpoint times the factor. */
#include <float.h>
#include <math.h>

#include "export/export_internal.h"

int llmm__factor_valid(double f)
{
    return llmm__is_finite(f) && f > 0;
}

void llmm__sketch_totals(const llmm_sketch *s, double f, uint64_t *n, double *sum, double *mn,
                         double *mx)
{
    double v = 0;
    *n = llmm_sketch_count(s);
    llmm_sketch_sum(s, &v);
    *sum = v * f;
    *mn = *mx = 0;
    if (*n) {
        if (llmm_sketch_min(s, &v) == LLMM_OK)
            *mn = v * f;
        if (llmm_sketch_max(s, &v) == LLMM_OK)
            *mx = v * f;
    }
}

static int64_t floor_shift(int64_t j, int32_t d)
{
    if (d <= 0)
        return j;
    return j >= 0 ? j >> d : -((-(j + 1)) >> d) - 1;
}

/* Exported index of sketch bucket i at scale e. */
static llmm_status map_index(const llmm__native *n, int32_t e, int32_t i, int64_t *out)
{
    if (n->pow2) {
        int64_t j = (int64_t)i + (int64_t)n->k * ((int64_t)1 << n->src_scale);
        *out = floor_shift(j, n->src_scale - e);
        return LLMM_OK;
    } else {
        double lo, hi, v;
        int32_t e0 = e < 0 ? 0 : e, idx;
        llmm_status st = llmm_sketch_bucket_bounds(n->src_scale, i, &lo, &hi);
        if (st != LLMM_OK)
            return LLMM_E_RANGE;
        v = sqrt(lo) * sqrt(hi) * n->f;
        if (!(v > 0) || !llmm__is_finite(v))
            return LLMM_E_RANGE;
        if (llmm_sketch_index(e0, v, &idx) != LLMM_OK)
            return LLMM_E_RANGE;
        *out = floor_shift(idx, e0 - e);
        return LLMM_OK;
    }
}

static llmm_status span_at(const llmm__native *n, int32_t e, int64_t *first, int64_t *last,
                           int64_t *over)
{
    llmm_status st;
    int have = 0;
    if (n->has_range) {
        if ((st = map_index(n, e, n->first, first)) != LLMM_OK ||
            (st = map_index(n, e, n->last, last)) != LLMM_OK)
            return st;
        have = 1;
    }
    if (n->over) {
        double lo, hi;
        int32_t ihi;
        llmm_sketch_range(n->s, &lo, &hi);
        if (llmm_sketch_index(n->src_scale, hi, &ihi) != LLMM_OK)
            return LLMM_E_RANGE;
        if ((st = map_index(n, e, ihi, over)) != LLMM_OK)
            return st;
        if (!have)
            *first = *over;
        if (!have || *over > *last)
            *last = *over;
    }
    return LLMM_OK;
}

llmm_status llmm__native_init(llmm__native *n, const llmm_sketch *s, double f, int32_t max_scale,
                              int32_t min_scale, uint32_t max_buckets)
{
    uint64_t zero = 0, under = 0, over = 0;
    double lo, hi, lower;
    int32_t ilo, e;
    int ex;
    llmm_status st;

    n->s = s;
    n->src_scale = llmm_sketch_scale(s);
    n->f = f;
    n->pow2 = frexp(f, &ex) == 0.5;
    n->k = n->pow2 ? (int32_t)(ex - 1) : 0;
    llmm__sketch_totals(s, f, &n->count, &n->sum, &n->min, &n->max);
    llmm_sketch_special_counts(s, &zero, &under, &over);
    n->zero_count = zero + under;
    n->over = over;

    /* zero threshold: the lower bound of the range's first bucket; every underflow value is
     * at or below it */
    llmm_sketch_range(s, &lo, &hi);
    if (llmm_sketch_index(n->src_scale, lo, &ilo) != LLMM_OK ||
        llmm_sketch_bucket_bounds(n->src_scale, ilo, &lower, NULL) != LLMM_OK)
        return LLMM_E_RANGE;
    n->threshold = n->pow2 ? ldexp(lower, n->k) : lower * f;
    if (!llmm__is_finite(n->threshold))
        return LLMM_E_RANGE;
    if (n->threshold < DBL_MIN)
        n->threshold = DBL_MIN;

    n->has_range = llmm_sketch_bucket_span(s, &n->first, &n->last) == LLMM_OK;
    n->has_buckets = n->has_range || n->over > 0;
    e = n->src_scale < max_scale ? n->src_scale : max_scale;
    n->first_e = n->last_e = n->over_e = 0;
    for (;;) {
        if (n->has_buckets) {
            st = span_at(n, e, &n->first_e, &n->last_e, &n->over_e);
            if (st != LLMM_OK)
                return st;
        }
        if (!n->has_buckets || max_buckets == 0 ||
            (uint64_t)(n->last_e - n->first_e) < (uint64_t)max_buckets)
            break;
        if (e <= min_scale)
            return LLMM_E_RANGE;
        e--;
    }
    n->scale = e;
    llmm__native_rewind(n);
    return LLMM_OK;
}

void llmm__native_rewind(llmm__native *n)
{
    n->cur = n->has_range ? n->first : 0;
    n->over_pending = n->over > 0;
    n->has_pend = 0;
    n->pend_idx = 0;
    n->pend_cnt = 0;
}

int llmm__native_next(llmm__native *n, int64_t *idx, uint64_t *cnt)
{
    for (;;) {
        int64_t e;
        uint64_t c;
        if (n->has_range && n->cur <= n->last) {
            int32_t i = (int32_t)n->cur++;
            c = llmm_sketch_bucket_count(n->s, i);
            if (c == 0)
                continue;
            /* cannot fail: the first and last buckets mapped, and the mapping is monotone */
            if (map_index(n, n->scale, i, &e) != LLMM_OK)
                continue;
        } else if (n->over_pending) {
            n->over_pending = 0;
            e = n->over_e;
            c = n->over;
        } else {
            if (!n->has_pend)
                return 0;
            n->has_pend = 0;
            *idx = n->pend_idx;
            *cnt = n->pend_cnt;
            return 1;
        }
        if (n->has_pend && n->pend_idx == e) {
            n->pend_cnt += c;
            continue;
        }
        if (n->has_pend) {
            *idx = n->pend_idx;
            *cnt = n->pend_cnt;
            n->pend_idx = e;
            n->pend_cnt = c;
            return 1;
        }
        n->has_pend = 1;
        n->pend_idx = e;
        n->pend_cnt = c;
    }
}
