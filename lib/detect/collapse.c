/* Throughput-collapse detection (doc/spec.md §7): a latency above mean + k·σ of the W latencies
 * before it, shortly after a weight switch. Running sums make each sample O(1). */
#include <math.h>
#include <string.h>

#include "collapse_internal.h"
#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"

void llmm__collapse_clear(llmm_collapse *c)
{
    c->head = 0;
    c->count = 0;
    c->ref = 0.0;
    c->sum = 0.0;
    c->sum2 = 0.0;
    c->last_ns = 0;
    memset(&c->sw, 0, sizeof c->sw);
    c->tps_last = 0.0;
    c->has_tps = 0;
    c->samples = 0;
    c->collapsed = 0;
    c->switches = 0;
}

llmm_status llmm_collapse_new(llmm_ctx *ctx, llmm_collapse **out)
{
    llmm_collapse *c;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    c = llmm__calloc(ctx, 1, sizeof *c);
    if (!c)
        return LLMM_E_NOMEM;
    llmm__option_defaults(&llmm__collapse_options, c);
    c->ring = llmm__calloc(ctx, c->window, sizeof *c->ring);
    if (!c->ring) {
        llmm__free(ctx, c, sizeof *c);
        return LLMM_E_NOMEM;
    }
    c->ctx = ctx;
    llmm__collapse_clear(c);
    *out = c;
    return LLMM_OK;
}

void llmm_collapse_free(llmm_collapse *c)
{
    if (!c)
        return;
    llmm__free(c->ctx, c->ring, (size_t)c->window * sizeof *c->ring);
    llmm__free(c->ctx, c, sizeof *c);
}

llmm_status llmm_collapse_mark_switch(llmm_collapse *c, uint64_t now_ns)
{
    if (!c || now_ns < c->last_ns)
        return LLMM_E_INVALID;
    memset(&c->sw, 0, sizeof c->sw);
    c->sw.marked = 1;
    c->sw.at_ns = now_ns;
    c->sw.has_before = c->has_tps;
    c->sw.tps_before = c->tps_last;
    c->switches++;
    c->last_ns = now_ns;
    return LLMM_OK;
}

/* Recompute the sums exactly from the full ring, centred on its mean: rounding from the
 * running updates never accumulates past W samples, and a large common offset (latencies of
 * 10^6 ± 1) does not cancel the variance. */
static void collapse_resum(llmm_collapse *c)
{
    double s = 0.0, s2 = 0.0, m;
    uint32_t i, w = c->window;

    for (i = 0; i < w; i++)
        s += c->ring[i];
    m = s / (double)w;
    s = 0.0;
    for (i = 0; i < w; i++) {
        double d = c->ring[i] - m;
        s += d;
        s2 += d * d;
    }
    c->ref = m;
    c->sum = s;
    c->sum2 = s2;
}

/* Add a latency to the ring, replacing the oldest when full. */
static void collapse_push(llmm_collapse *c, double x)
{
    double d;

    if (c->count == 0)
        c->ref = x;
    d = x - c->ref;
    if (c->count == c->window) {
        double o = c->ring[c->head] - c->ref;
        c->sum -= o;
        c->sum2 -= o * o;
    } else {
        c->count++;
    }
    c->ring[c->head] = x;
    c->sum += d;
    c->sum2 += d * d;
    if (++c->head == c->window) {
        c->head = 0;
        collapse_resum(c); /* once per W samples: amortised O(1) */
    }
}

/* Judge x against the baseline (the ring must be full), filling the verdict's numbers. */
static int collapse_outlier(llmm_collapse *c, double x, llmm_collapse_verdict *v)
{
    double w = (double)c->window;
    double m = c->sum / w;
    double s2 = c->sum2 / w;
    double var = s2 - m * m;
    double mean, sigma, lo;

    if (var < 0x1p-12 * s2) {
        /* Cancellation: the window sits far from ref compared with its spread (ref was
         * centred on a window that held a stall that has left since; or the level moved),
         * so most digits of sum2 / W - m^2 are rounding, and σ could be off by per cents
         * until the next rebuild. Recentre now; afterwards ref is the window's mean, so this
         * happens once per such event. */
        collapse_resum(c);
        m = c->sum / w;
        s2 = c->sum2 / w;
        var = s2 - m * m;
    }
    mean = c->ref + m;

    if (mean < 0.0)
        mean = 0.0; /* rounding only: every latency is >= 0 */
    sigma = var > 0.0 ? sqrt(var) : 0.0;
    lo = c->floor * mean;
    v->floored = sigma < lo;
    if (v->floored)
        sigma = lo;
    v->mean = mean;
    v->sigma = sigma;
    v->threshold = mean + c->k * sigma;
    return x > v->threshold;
}

static void collapse_step(llmm_collapse *c, uint64_t now_ns, double latency,
                          llmm_collapse_verdict *v)
{
    int matched = c->sw.marked && now_ns - c->sw.at_ns <= c->switch_ns;

    v->ready = c->count == c->window;
    v->outlier = v->ready && collapse_outlier(c, latency, v);
    v->after_switch = matched;
    v->collapsed = v->outlier && (matched || !c->require_switch);
    v->since_switch_ns = c->sw.marked ? now_ns - c->sw.at_ns : UINT64_MAX;

    collapse_push(c, latency);
    c->samples++;
    c->collapsed += (uint64_t)v->collapsed;
    if (matched) {
        c->sw.latencies++;
        c->sw.flagged += (uint64_t)v->collapsed;
    }
    c->last_ns = now_ns;
    v->samples = c->samples;
}

llmm_status llmm_collapse_observe(llmm_collapse *c, uint64_t now_ns, double latency,
                                  int32_t *collapsed)
{
    llmm_collapse_verdict v;
    llmm_status st;

    if (!c || now_ns < c->last_ns)
        return LLMM_E_INVALID;
    st = llmm__detect_value_check(latency);
    if (st != LLMM_OK)
        return st;
    v.mean = v.sigma = v.threshold = 0.0;
    v.floored = 0;
    collapse_step(c, now_ns, latency, &v);
    if (collapsed)
        *collapsed = v.collapsed;
    return LLMM_OK;
}

llmm_status llmm_collapse_observe_ex(llmm_collapse *c, uint64_t now_ns, double latency,
                                     llmm_collapse_verdict *v)
{
    llmm_collapse_verdict r;
    llmm_status st;

    if (!c || !v || now_ns < c->last_ns)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_collapse_verdict, v) != LLMM_OK)
        return LLMM_E_ABI;
    st = llmm__detect_value_check(latency);
    if (st != LLMM_OK)
        return st;
    LLMM__SIZED_DEFAULTS(llmm_collapse_verdict, &r);
    collapse_step(c, now_ns, latency, &r);
    LLMM__SIZED_PUT(llmm_collapse_verdict, v, &r);
    return LLMM_OK;
}

llmm_status llmm_collapse_counts(const llmm_collapse *c, uint64_t *samples, uint64_t *collapsed,
                                 uint64_t *switches)
{
    if (!c)
        return LLMM_E_INVALID;
    if (samples)
        *samples = c->samples;
    if (collapsed)
        *collapsed = c->collapsed;
    if (switches)
        *switches = c->switches;
    return LLMM_OK;
}

llmm_status llmm_collapse_reset(llmm_collapse *c)
{
    if (!c)
        return LLMM_E_INVALID;
    llmm__collapse_clear(c);
    return LLMM_OK;
}
