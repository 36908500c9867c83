/* Knee estimators over a (concurrency, QPS) sweep: cubic inflection, growth collapse, Kneedle,
 * and the side-by-side report. Definitions are in fit.h; comments here say why. */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "fit_internal.h"

#define TRIM_MAX 0.45
#define WEAK_R2 0.9
#define EDGE_SHARE 0.05

void llmm__knee_defaults(void *full)
{
    llmm_knee *k = full;
    k->quality = LLMM_KNEE_NONE;
    k->knee = k->qps = k->strength = NAN;
}

void llmm__knee_options_defaults(void *full)
{
    llmm_knee_options *o = full;
    o->smooth = 0;
    o->trim = 0.1;
    o->collapse_fraction = 0.5;
    o->kneedle_sensitivity = 1.0;
}

static int strictly_increasing(const double *x, size_t n)
{
    size_t i;
    for (i = 1; i < n; i++)
        if (!(x[i] > x[i - 1]))
            return 0;
    return 1;
}

/* y interpolated linearly at position v of the increasing x (clamped to the ends). */
static double interp(const double *x, const double *y, size_t n, double v)
{
    size_t lo = 0, hi = n - 1;
    if (v <= x[0])
        return y[0];
    if (v >= x[n - 1])
        return y[n - 1];
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return y[lo] + (y[hi] - y[lo]) * (v - x[lo]) / (x[hi] - x[lo]);
}

/* ⌊trim·n⌋, where a product within 1e-9 of an integer counts as that integer (0.29 × 100 is
 * 29, not 28), as for quantile ranks. */
static size_t trim_count(double trim, size_t n)
{
    double v = trim * (double)n, r = nearbyint(v);
    if (fabs(v - r) <= 1e-9 * fmax(1.0, v))
        return (size_t)r;
    return (size_t)floor(v);
}

/* ---- cubic inflection ------------------------------------------------------------------ */

llmm_status llmm_knee_inflection_ex(const double *conc, const double *qps, size_t n, double trim,
                                    llmm_knee *out)
{
    double c[4], lo = INFINITY, hi = -INFINITY, a, b, at, span;
    size_t cut, m, i;
    llmm_fit_stats st;
    llmm_knee k;
    llmm_status rc;

    if (!conc || !qps || !out)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_knee, out) != LLMM_OK)
        return LLMM_E_ABI;
    if (!(trim >= 0.0 && trim <= TRIM_MAX))
        return LLMM_E_RANGE;
    if (n == 0)
        return LLMM_E_EMPTY;
    if (!llmm__all_finite(conc, n) || !llmm__all_finite(qps, n))
        return LLMM_E_INVALID;
    cut = trim_count(trim, n);
    m = n - 2 * cut;
    if (2 * cut >= n || m < 4)
        return LLMM_E_INVALID;
    LLMM__SIZED_DEFAULTS(llmm_fit_stats, &st);
    rc = llmm_polyfit(conc + cut, qps + cut, m, 3, c, &st);
    if (rc != LLMM_OK)
        return rc;
    for (i = cut; i < cut + m; i++) {
        lo = fmin(lo, conc[i]);
        hi = fmax(hi, conc[i]);
    }

    LLMM__SIZED_DEFAULTS(llmm_knee, &k);
    a = c[0];
    b = c[1];
    at = a != 0.0 ? -b / (3.0 * a) : NAN; /* p''(N) = 6aN + 2b */
    if (llmm__is_finite(at) && at >= lo && at <= hi) {
        span = hi - lo;
        k.knee = at;
        k.qps = ((c[0] * at + c[1]) * at + c[2]) * at + c[3];
        k.strength = st.r2;
        k.quality = (st.r2 < WEAK_R2 || at - lo < EDGE_SHARE * span || hi - at < EDGE_SHARE * span)
                        ? LLMM_KNEE_WEAK
                        : LLMM_KNEE_OK;
    }
    LLMM__SIZED_PUT(llmm_knee, out, &k);
    return LLMM_OK;
}

llmm_status llmm_knee_inflection(const double *conc, const double *qps, size_t n, double trim,
                                 double *knee)
{
    llmm_knee k;
    llmm_status rc;
    if (!knee)
        return LLMM_E_INVALID;
    LLMM__SIZED_DEFAULTS(llmm_knee, &k);
    rc = llmm_knee_inflection_ex(conc, qps, n, trim, &k);
    if (rc != LLMM_OK)
        return rc;
    if (k.quality == LLMM_KNEE_NONE)
        return LLMM_E_EMPTY;
    *knee = k.knee;
    return LLMM_OK;
}

/* ---- growth collapse ------------------------------------------------------------------- */

static double gain(const double *x, const double *y, size_t i)
{
    return (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
}

/* Moving average of the gains centred on gain j (half width h). A direct sum: exact enough
 * to place a crossing by interpolation, and O(n·w) is small next to a sweep's length. */
static double smoothed(const double *x, const double *y, size_t j, size_t h)
{
    double s = 0.0;
    size_t i;
    for (i = j - h; i <= j + h; i++)
        s += gain(x, y, i);
    return s / (double)(2 * h + 1);
}

static llmm_status check_sweep(const double *conc, const double *qps, const llmm_knee *out)
{
    if (!conc || !qps || !out)
        return LLMM_E_INVALID;
    return LLMM__SIZED_CHECK(llmm_knee, out);
}

llmm_status llmm_knee_collapse(const double *conc, const double *qps, size_t n, double fraction,
                               uint32_t smooth, llmm_knee *out)
{
    size_t ng, h, j, cross = 0, after = 0;
    double g0, thr, prev, sum_after = 0.0;
    int rises = 0;
    llmm_knee k;
    llmm_status rc = check_sweep(conc, qps, out);

    if (rc != LLMM_OK)
        return rc;
    if (!(fraction > 0.0 && fraction < 1.0) || (smooth != 0 && smooth % 2 == 0))
        return LLMM_E_RANGE;
    if (n == 0)
        return LLMM_E_EMPTY;
    if (!llmm__all_finite(conc, n) || !llmm__all_finite(qps, n) || !strictly_increasing(conc, n))
        return LLMM_E_INVALID;
    if (n < 3)
        return LLMM_E_INVALID;
    ng = n - 1;
    h = smooth ? smooth / 2 : ng / 40;
    if (ng < 2 * h + 2) /* room for the initial value and at least one more */
        return LLMM_E_INVALID;

    LLMM__SIZED_DEFAULTS(llmm_knee, &k);
    g0 = smoothed(conc, qps, h, h);
    thr = fraction * g0;
    prev = g0;
    if (g0 > 0.0) {
        for (j = h + 1; j + h < ng; j++) {
            double s = smoothed(conc, qps, j, h);
            if (!cross && s < thr) {
                double m0 = 0.5 * (conc[j - 1] + conc[j]), m1 = 0.5 * (conc[j] + conc[j + 1]);
                cross = j;
                k.knee = m0 + (m1 - m0) * (prev - thr) / (prev - s);
            } else if (cross && s > thr) {
                rises = 1;
            }
            if (cross) {
                sum_after += s;
                after++;
            }
            prev = s;
        }
    }
    if (cross) {
        k.qps = interp(conc, qps, n, k.knee);
        k.strength = 1.0 - (sum_after / (double)after) / g0;
        k.quality = rises ? LLMM_KNEE_WEAK : LLMM_KNEE_OK;
    }
    LLMM__SIZED_PUT(llmm_knee, out, &k);
    return LLMM_OK;
}

/* ---- Kneedle --------------------------------------------------------------------------- */

typedef struct norm {
    double x0, xs, y0, ys; /* x̂ = (x − x0)/xs, ŷ = (y − y0)/ys */
} norm;

static double diff_at(const norm *nm, const double *x, const double *y, size_t i)
{
    return (y[i] - nm->y0) / nm->ys - (x[i] - nm->x0) / nm->xs;
}

/* Vertex of the parabola through three points, kept inside [x0, x2]. */
static double vertex(double x0, double f0, double x1, double f1, double x2, double f2)
{
    double a = (x1 - x0) * (f1 - f2), b = (x1 - x2) * (f1 - f0);
    double num = (x1 - x0) * a - (x1 - x2) * b, den = a - b, v;
    if (den == 0.0)
        return x1;
    v = x1 - 0.5 * num / den;
    return fmin(x2, fmax(x0, v));
}

llmm_status llmm_knee_kneedle(const double *conc, const double *qps, size_t n, double sensitivity,
                              llmm_knee *out)
{
    double ymin, ymax, best = -INFINITY, cand_d = 0.0, thr = 0.0;
    size_t i, best_i = 0, cand = 0, knee_i = 0;
    norm nm;
    llmm_knee k;
    llmm_status rc = check_sweep(conc, qps, out);

    if (rc != LLMM_OK)
        return rc;
    if (!llmm__is_finite(sensitivity) || sensitivity < 0.0)
        return LLMM_E_RANGE;
    if (n == 0)
        return LLMM_E_EMPTY;
    if (!llmm__all_finite(conc, n) || !llmm__all_finite(qps, n) || n < 3 ||
        !strictly_increasing(conc, n))
        return LLMM_E_INVALID;

    LLMM__SIZED_DEFAULTS(llmm_knee, &k);
    ymin = ymax = qps[0];
    for (i = 1; i < n; i++) {
        ymin = fmin(ymin, qps[i]);
        ymax = fmax(ymax, qps[i]);
    }
    if (ymax > ymin) {
        nm.x0 = conc[0];
        nm.xs = conc[n - 1] - conc[0];
        nm.y0 = ymin;
        nm.ys = ymax - ymin;
        /* The mean spacing of x̂ is exactly 1/(n − 1). */
        for (i = 1; i + 1 < n && !knee_i; i++) {
            double d = diff_at(&nm, conc, qps, i);
            double dl = diff_at(&nm, conc, qps, i - 1), dr = diff_at(&nm, conc, qps, i + 1);
            if (d > best) {
                best = d;
                best_i = i;
            }
            if (d > dl && d >= dr && (!cand || d > cand_d)) {
                cand = i; /* a (higher) local maximum: new candidate and threshold */
                cand_d = d;
                thr = d - sensitivity / (double)(n - 1);
            }
            if (cand && dr < thr)
                knee_i = cand;
        }
        if (!knee_i && best > 0.0)
            k.quality = LLMM_KNEE_WEAK;
        else if (knee_i)
            k.quality = LLMM_KNEE_OK;
        if (knee_i)
            best_i = knee_i;
        if (k.quality != LLMM_KNEE_NONE) {
            i = best_i;
            k.knee =
                vertex(conc[i - 1], diff_at(&nm, conc, qps, i - 1), conc[i],
                       diff_at(&nm, conc, qps, i), conc[i + 1], diff_at(&nm, conc, qps, i + 1));
            k.qps = interp(conc, qps, n, k.knee);
            k.strength = diff_at(&nm, conc, qps, i);
        }
    }
    LLMM__SIZED_PUT(llmm_knee, out, &k);
    return LLMM_OK;
}

/* ---- report ---------------------------------------------------------------------------- */

/* An output the caller may leave out (NULL) and, when given, a size it may not get wrong. */
#define CHECK_OPTIONAL(type, p) ((p) ? LLMM__SIZED_CHECK(type, p) : LLMM_OK)

llmm_status llmm_knee_report(const double *conc, const double *qps, size_t n,
                             const llmm_knee_options *opt, llmm_knee *inflection,
                             llmm_knee *collapse, llmm_knee *kneedle, llmm_usl *usl)
{
    llmm_knee_options o;
    llmm_knee ki, kc, kk;
    llmm_usl u;
    llmm_status rc;
    size_t i;

    if (!conc || !qps || (!inflection && !collapse && !kneedle && !usl))
        return LLMM_E_INVALID;
    if ((rc = CHECK_OPTIONAL(llmm_knee, inflection)) ||
        (rc = CHECK_OPTIONAL(llmm_knee, collapse)) || (rc = CHECK_OPTIONAL(llmm_knee, kneedle)) ||
        (rc = CHECK_OPTIONAL(llmm_usl, usl)))
        return rc;
    if (opt) {
        if ((rc = LLMM__SIZED_GET(llmm_knee_options, &o, opt)) != LLMM_OK)
            return rc;
    } else {
        LLMM__SIZED_DEFAULTS(llmm_knee_options, &o);
    }
    if (!(o.trim >= 0.0 && o.trim <= TRIM_MAX) ||
        !(o.collapse_fraction > 0.0 && o.collapse_fraction < 1.0) ||
        (o.smooth != 0 && o.smooth % 2 == 0) || !llmm__is_finite(o.kneedle_sensitivity) ||
        o.kneedle_sensitivity < 0.0)
        return LLMM_E_RANGE;
    if (n == 0)
        return LLMM_E_EMPTY;
    if (!llmm__all_finite(conc, n) || !llmm__all_finite(qps, n) || !strictly_increasing(conc, n))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++)
        if (!(conc[i] > 0.0))
            return LLMM_E_INVALID;

    LLMM__SIZED_DEFAULTS(llmm_knee, &ki);
    LLMM__SIZED_DEFAULTS(llmm_knee, &kc);
    LLMM__SIZED_DEFAULTS(llmm_knee, &kk);
    LLMM__SIZED_DEFAULTS(llmm_usl, &u);
    if (inflection && (rc = llmm_knee_inflection_ex(conc, qps, n, o.trim, &ki)) != LLMM_OK)
        return rc;
    if (collapse &&
        (rc = llmm_knee_collapse(conc, qps, n, o.collapse_fraction, o.smooth, &kc)) != LLMM_OK)
        return rc;
    if (kneedle && (rc = llmm_knee_kneedle(conc, qps, n, o.kneedle_sensitivity, &kk)) != LLMM_OK)
        return rc;
    if (usl && llmm_usl_fit(conc, qps, n, &u) != LLMM_OK)
        LLMM__SIZED_DEFAULTS(llmm_usl, &u); /* no model is a result of the report, not an error */

    if (inflection)
        LLMM__SIZED_PUT(llmm_knee, inflection, &ki);
    if (collapse)
        LLMM__SIZED_PUT(llmm_knee, collapse, &kc);
    if (kneedle)
        LLMM__SIZED_PUT(llmm_knee, kneedle, &kk);
    if (usl)
        LLMM__SIZED_PUT(llmm_usl, usl, &u);
    return LLMM_OK;
}
