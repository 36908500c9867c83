/* Online saturation signal: least-squares slopes of latency and of in-flight requests over
 * the last N samples, against time; saturated when both are confidently positive. The sums
 * behind the two fits slide in O(1) per sample and are recomputed exactly every N samples. */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "detect_internal.h"

/* A fitted rise over the window must exceed this share of the series' mean: rounding in the
 * sums of a flat series gives slopes of order 1e-16 relative, never a trend. */
#define SATURATION_REL_GUARD 1e-9

typedef struct sat_sample {
    uint64_t t;
    double y[2]; /* latency, in flight */
} sat_sample;

/* Sums of one series: y is taken relative to ref. */
typedef struct sat_sums {
    double ref;
    double sy;  /* sum of (y - ref) */
    double syy; /* sum of (y - ref)^2 */
    double sxy; /* sum of x (y - ref) */
} sat_sums;

struct llmm_saturation {
    llmm_ctx *ctx;
    sat_sample *ring; /* when full, ring[head] is the oldest */
    uint32_t window;  /* N */
    uint32_t head;    /* next entry to write */
    uint32_t count;   /* samples held, <= N */
    uint64_t t_ref;   /* time origin: x = (t - t_ref) seconds, never negative */
    double sx;        /* sum of x */
    double sxx;       /* sum of x^2 */
    sat_sums f[2];    /* latency, in flight */
    double z;
    uint64_t last_ns;
    uint64_t total;
};

/* A fitted line: slope, its squared standard error and whether it is confidently positive. */
typedef struct sat_fit {
    double slope;
    double se2;
    int rising;
} sat_fit;

llmm_status llmm_saturation_new(llmm_ctx *ctx, llmm_saturation **out)
{
    llmm_saturation *s;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    s = llmm__calloc(ctx, 1, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    llmm__option_defaults(&llmm__saturation_options, s);
    s->ring = llmm__calloc(ctx, s->window, sizeof *s->ring);
    if (!s->ring) {
        llmm__free(ctx, s, sizeof *s);
        return LLMM_E_NOMEM;
    }
    s->ctx = ctx;
    *out = s;
    return LLMM_OK;
}

void llmm_saturation_free(llmm_saturation *s)
{
    if (!s)
        return;
    llmm__free(s->ctx, s->ring, (size_t)s->window * sizeof *s->ring);
    llmm__free(s->ctx, s, sizeof *s);
}

/* Replace the ring by one of N entries (the only hooked option). All or nothing. */
static llmm_status saturation_apply(void *obj, const llmm__option *o, llmm__optval v)
{
    llmm_saturation *s = obj;
    void *ring = s->ring;
    llmm_status st =
        llmm__option_resize_ring(s->ctx, &ring, &s->window, &s->head, sizeof *s->ring, v.u);
    (void)o;
    s->ring = ring;
    return st;
}

static int saturation_started(const void *obj)
{
    return ((const llmm_saturation *)obj)->count != 0;
}

static const llmm__option saturation_opts[] = {
    LLMM__OPTION_U64(llmm_saturation, LLMM_SATURATION_WINDOW, "window",
                     LLMM__OPT_FIXED | LLMM__OPT_HOOKED, 3, LLMM_SATURATION_WINDOW_MAX,
                     LLMM_SATURATION_WINDOW_DEFAULT, window),
    LLMM__OPTION_F64(llmm_saturation, LLMM_SATURATION_CONFIDENCE, "confidence", LLMM__OPT_MIN_OPEN,
                     0.0, 100.0, 3.0, z),
};

const llmm__option_kind llmm__saturation_options = {
    LLMM__KIND_OF(saturation_opts),
    LLMM__KIND_SAME_VALUE_OK,
    saturation_started,
    NULL,
    saturation_apply,
    NULL,
};

LLMM__OPTION_CALLS_F64(llmm_saturation, llmm_saturation_option, &llmm__saturation_options)
LLMM__OPTION_CALLS_U64(llmm_saturation, llmm_saturation_option, &llmm__saturation_options)

static double x_of(const llmm_saturation *s, uint64_t t)
{
    return (double)(t - s->t_ref) * 1e-9;
}

/* Recompute every sum from the full ring: time origin at the oldest sample, each series
 * centred on its mean. */
static void sat_resum(llmm_saturation *s)
{
    uint32_t i, c, n = s->window;

    s->t_ref = s->ring[s->head].t;
    for (c = 0; c < 2; c++) {
        double m = 0.0;
        for (i = 0; i < n; i++)
            m += s->ring[i].y[c];
        s->f[c].ref = m / (double)n;
        s->f[c].sy = s->f[c].syy = s->f[c].sxy = 0.0;
    }
    s->sx = s->sxx = 0.0;
    for (i = 0; i < n; i++) {
        double x = x_of(s, s->ring[i].t);
        s->sx += x;
        s->sxx += x * x;
        for (c = 0; c < 2; c++) {
            double d = s->ring[i].y[c] - s->f[c].ref;
            s->f[c].sy += d;
            s->f[c].syy += d * d;
            s->f[c].sxy += x * d;
        }
    }
}

static void sat_push(llmm_saturation *s, uint64_t t, const double y[2])
{
    sat_sample *e = &s->ring[s->head];
    double x;
    uint32_t c;

    if (s->count == 0) {
        s->t_ref = t;
        s->f[0].ref = y[0];
        s->f[1].ref = y[1];
    }
    if (s->count == s->window) {
        double xo = x_of(s, e->t);
        s->sx -= xo;
        s->sxx -= xo * xo;
        for (c = 0; c < 2; c++) {
            double d = e->y[c] - s->f[c].ref;
            s->f[c].sy -= d;
            s->f[c].syy -= d * d;
            s->f[c].sxy -= xo * d;
        }
    } else {
        s->count++;
    }
    x = x_of(s, t);
    e->t = t;
    s->sx += x;
    s->sxx += x * x;
    for (c = 0; c < 2; c++) {
        double d = y[c] - s->f[c].ref;
        e->y[c] = y[c];
        s->f[c].sy += d;
        s->f[c].syy += d * d;
        s->f[c].sxy += x * d;
    }
    if (++s->head == s->window) {
        s->head = 0;
        sat_resum(s); /* once per N samples: amortised O(1) */
    }
}

/* Time of the oldest and newest samples held (count >= 1). */
static uint64_t sat_span_ns(const llmm_saturation *s)
{
    uint32_t oldest = s->count == s->window ? s->head : 0;
    uint32_t newest = s->head == 0 ? s->window - 1 : s->head - 1;
    return s->ring[newest].t - s->ring[oldest].t;
}

static sat_fit sat_fit_of(const llmm_saturation *s, int c)
{
    const sat_sums *f = &s->f[c];
    double n = (double)s->count, sxx, sxy, syy, rss, mean;
    sat_fit r = {0.0, 0.0, 0};

    if (s->count < 2)
        return r;
    sxx = s->sxx - s->sx * s->sx / n;
    if (!(sxx > 0.0))
        return r; /* every sample at one time stamp: no slope */
    sxy = f->sxy - s->sx * f->sy / n;
    syy = f->syy - f->sy * f->sy / n;
    r.slope = sxy / sxx;
    if (s->count < 3)
        return r;
    rss = syy - r.slope * sxy;
    r.se2 = rss > 0.0 ? rss / ((n - 2.0) * sxx) : 0.0;
    mean = fabs(f->ref + f->sy / n);
    /* slope > z·se, compared squared (both sides are >= 0 once slope > 0) */
    r.rising = r.slope > 0.0 && r.slope * r.slope > s->z * s->z * r.se2 &&
               r.slope * ((double)sat_span_ns(s) * 1e-9) > SATURATION_REL_GUARD * mean;
    return r;
}

static int sat_saturated(const llmm_saturation *s)
{
    return s->count == s->window && sat_fit_of(s, 0).rising && sat_fit_of(s, 1).rising;
}

llmm_status llmm_saturation_observe(llmm_saturation *s, uint64_t now_ns, double latency,
                                    double in_flight, int32_t *saturated)
{
    double y[2];
    llmm_status st, st2;

    if (!s || now_ns < s->last_ns)
        return LLMM_E_INVALID;
    st = llmm__detect_value_check(latency);
    st2 = llmm__detect_value_check(in_flight);
    if (st == LLMM_E_INVALID || st2 == LLMM_E_INVALID)
        return LLMM_E_INVALID;
    if (st != LLMM_OK || st2 != LLMM_OK)
        return LLMM_E_RANGE;
    y[0] = latency;
    y[1] = in_flight;
    sat_push(s, now_ns, y);
    s->total++;
    s->last_ns = now_ns;
    if (saturated)
        *saturated = sat_saturated(s);
    return LLMM_OK;
}

llmm_status llmm_saturation_read(const llmm_saturation *s, llmm_saturation_reading *r)
{
    llmm_saturation_reading o;
    sat_fit a, b;

    if (!s || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_saturation_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    a = sat_fit_of(s, 0);
    b = sat_fit_of(s, 1);
    LLMM__SIZED_DEFAULTS(llmm_saturation_reading, &o);
    o.ready = s->count == s->window;
    o.latency_rising = a.rising;
    o.inflight_rising = b.rising;
    o.saturated = o.ready && a.rising && b.rising;
    o.samples = s->count;
    o.latency_slope = a.slope;
    o.latency_slope_se = sqrt(a.se2);
    o.inflight_slope = b.slope;
    o.inflight_slope_se = sqrt(b.se2);
    o.total = s->total;
    LLMM__SIZED_PUT(llmm_saturation_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_saturation_reset(llmm_saturation *s)
{
    if (!s)
        return LLMM_E_INVALID;
    s->head = 0;
    s->count = 0;
    s->t_ref = 0;
    s->sx = s->sxx = 0.0;
    memset(s->f, 0, sizeof s->f);
    s->last_ns = 0;
    s->total = 0;
    return LLMM_OK;
}
