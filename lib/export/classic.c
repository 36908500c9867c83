/* Classic (cumulative `le`) buckets computed from a sketch, and the named bucket lists.
 *
 * Each sketch bucket is attributed by its upper bound: its values count at `le = b` when
 * upper × factor ≤ b. Zeros count everywhere (every bound the data reaches is ≥ 0), the
 * underflow count from the lower bound of the range's first bucket on, and the exact
 * minimum and maximum settle the bounds outside the data (0 below the minimum, everything
 * at or above the maximum, which is also where the overflow count appears). A bound on a
 * bucket bound is exact; a bound inside a bucket misses at most that bucket's values.
 *
 * Two layouts: an explicit list of bounds, or the sketch's own grid downscaled by k (bucket
 * j at the lower scale merges buckets j·2^k … (j+1)·2^k − 1) until the lower bound of the
 * first non-empty bucket and the upper bound of every bucket from there to the last
 * non-empty one fit in `max_bounds`. Every grid bound is the upper bound of an original
 * bucket, computed by the same call as the attribution, so the buckets alone give its exact
 * count: zeros and underflow count at every bound, overflow only at +Inf (as in the native
 * form, the minimum and maximum are not consulted). */
#include <math.h>
#include <string.h>

#include "export/export_internal.h"

int llmm__bounds_valid(const double *b, size_t n)
{
    size_t i;
    if (n && !b)
        return 0;
    for (i = 0; i < n; i++) {
        if (!llmm__is_finite(b[i]))
            return 0;
        if (i && !(b[i] > b[i - 1]))
            return 0;
    }
    return 1;
}

/* Floor of i / 2^k (an arithmetic shift written portably). */
static int64_t shift_down(int64_t i, int32_t k)
{
    int64_t d = (int64_t)1 << k;
    return i >= 0 ? i / d : -((-i + d - 1) / d);
}

/* Upper bound (× factor) of grid bucket j, which is that of original bucket (j+1)·2^k − 1. */
static int grid_upper(const llmm__classic *c, int64_t j, double *out)
{
    int64_t i = (j + 1) * ((int64_t)1 << c->shift) - 1;
    double upper;
    if (i < INT32_MIN || i > INT32_MAX ||
        llmm_sketch_bucket_bounds(llmm_sketch_scale(c->s), (int32_t)i, NULL, &upper) != LLMM_OK)
        return 0;
    *out = upper * c->f;
    return 1;
}

/* The smallest downscaling that fits: at most max_bounds − 1 grid buckets. Indices meet at
 * −1 and 0 as k grows, so any max_bounds ≥ 3 is reached by k ≤ 32. */
static void grid_init(llmm__classic *c, uint32_t max_bounds)
{
    int32_t k = 0;
    while (k < 40 && shift_down(c->last, k) - shift_down(c->first, k) + 2 > (int64_t)max_bounds)
        k++;
    c->shift = k;
    c->gj = shift_down(c->first, k) - 1; /* the anchor is the upper bound of bucket gj */
    c->gj_last = shift_down(c->last, k);
}

llmm_status llmm__classic_init(llmm__classic *c, const llmm_sketch *s, double f,
                               const double *bounds, size_t nb, uint32_t max_bounds)
{
    uint64_t over = 0;
    double sum, lo, hi, lower;
    int32_t ilo;

    memset(c, 0, sizeof *c);
    c->s = s;
    c->f = f;
    c->bounds = bounds;
    c->nb = nb;
    llmm__sketch_totals(s, f, &c->n, &sum, &c->minf, &c->maxf);
    llmm_sketch_special_counts(s, &c->zero, &c->under, &over);
    c->has_range = llmm_sketch_bucket_span(s, &c->first, &c->last) == LLMM_OK;
    c->cur = c->has_range ? c->first : 0;
    c->grid = !bounds && c->has_range;
    if (c->grid)
        grid_init(c, max_bounds);
    if (c->under) {
        llmm_sketch_range(s, &lo, &hi);
        if (llmm_sketch_index(llmm_sketch_scale(s), lo, &ilo) != LLMM_OK ||
            llmm_sketch_bucket_bounds(llmm_sketch_scale(s), ilo, &lower, NULL) != LLMM_OK)
            return LLMM_E_RANGE;
        c->under_le = lower * f;
    }
    return LLMM_OK;
}

/* Load bucket `cur` (the next non-empty one) into the cache; 0 when none is left. */
static int load(llmm__classic *c)
{
    double upper;
    if (c->have_cur)
        return 1;
    while (c->has_range && c->cur <= c->last) {
        uint64_t k = llmm_sketch_bucket_count(c->s, (int32_t)c->cur);
        if (k == 0) {
            c->cur++;
            continue;
        }
        if (llmm_sketch_bucket_bounds(llmm_sketch_scale(c->s), (int32_t)c->cur, NULL, &upper) !=
            LLMM_OK)
            return 0;
        c->cur_upper = upper * c->f;
        c->cur_cnt = k;
        c->have_cur = 1;
        return 1;
    }
    return 0;
}

/* The values of every bucket whose upper bound is at or below b. */
static uint64_t buckets_at(llmm__classic *c, double b)
{
    while (load(c) && c->cur_upper <= b) {
        c->acc += c->cur_cnt;
        c->have_cur = 0;
        c->cur++;
    }
    return c->acc;
}

static uint64_t cum_at(llmm__classic *c, double b)
{
    if (c->n == 0 || b < c->minf)
        return 0;
    if (b >= c->maxf)
        return c->n;
    return c->zero + (c->under && c->under_le <= b ? c->under : 0) + buckets_at(c, b);
}

int llmm__classic_next(llmm__classic *c, double *le, uint64_t *cum)
{
    if (!c->grid) {
        if (c->bi >= c->nb)
            return 0;
        *le = c->bounds[c->bi++];
        *cum = cum_at(c, *le);
        return 1;
    }
    if (c->gj > c->gj_last)
        return 0;
    *cum = 0;
    if (!grid_upper(c, c->gj++, le))
        *le = INFINITY; /* not representable: the caller reports LLMM_E_RANGE */
    else                /* a bucket bound: the buckets alone are exact; overflow only at +Inf */
        *cum = c->zero + c->under + buckets_at(c, *le);
    return 1;
}

/* ---- named lists --------------------------------------------------------------------------
 * vLLM: vllm/v1/metrics/loggers.py (PrometheusStatLogger, v1 engine, 2025).
 * OpenTelemetry: semantic-conventions docs/gen-ai/gen-ai-metrics.md ("SHOULD be specified
 * with ExplicitBucketBoundaries of ..."). */
static const double vllm_ttft[] = {0.001, 0.005, 0.01, 0.02,  0.04,  0.06,  0.08, 0.1,
                                   0.25,  0.5,   0.75, 1.0,   2.5,   5.0,   7.5,  10.0,
                                   20.0,  40.0,  80.0, 160.0, 640.0, 2560.0};
static const double vllm_itl[] = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                  0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
static const double vllm_request[] = {0.3,  0.5,   0.8,   1.0,   1.5,   2.0,    2.5,
                                      5.0,  10.0,  15.0,  20.0,  30.0,  40.0,   50.0,
                                      60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
static const double otel_duration[] = {0.01, 0.02, 0.04, 0.08,  0.16,  0.32,  0.64,
                                       1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
static const double otel_ttft[] = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,
                                   0.25,  0.5,   0.75, 1.0,  2.5,  5.0,  7.5,  10.0};
static const double otel_tpot[] = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,
                                   0.3,  0.4,   0.5,  0.75,  1.0, 2.5};
static const double otel_tokens[] = {1,     4,     16,     64,      256,     1024,     4096,
                                     16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};

#define LIST(x) (*b = (x), *n = sizeof(x) / sizeof *(x), 1)

int llmm__bucket_list(llmm_bucket_list which, const double **b, size_t *n)
{
    switch (which) {
    case LLMM_BUCKETS_VLLM_TTFT:
        return LIST(vllm_ttft);
    case LLMM_BUCKETS_VLLM_INTER_TOKEN:
        return LIST(vllm_itl);
    case LLMM_BUCKETS_VLLM_REQUEST_LATENCY:
        return LIST(vllm_request);
    case LLMM_BUCKETS_OTEL_GENAI_DURATION:
        return LIST(otel_duration);
    case LLMM_BUCKETS_OTEL_GENAI_TTFT:
        return LIST(otel_ttft);
    case LLMM_BUCKETS_OTEL_GENAI_TPOT:
        return LIST(otel_tpot);
    case LLMM_BUCKETS_OTEL_GENAI_TOKENS:
        return LIST(otel_tokens);
    default:
        return 0;
    }
}
#undef LIST

llmm_status llmm_prom_buckets(llmm_bucket_list which, double *out, size_t cap, size_t *n)
{
    const double *b;
    size_t k;

    if (!llmm__bucket_list(which, &b, &k) || !n || (!out && cap))
        return LLMM_E_INVALID;
    *n = k;
    if (cap < k)
        return LLMM_E_BUFFER;
    memcpy(out, b, k * sizeof *b);
    return LLMM_OK;
}
