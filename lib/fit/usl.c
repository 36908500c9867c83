/* Universal Scalability Law: X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).
 *
 * Fit by Levenberg–Marquardt on the throughput residuals. Each damped step solves
 * min ||J δ + r||² + μ Σ d_j² δ_j² by the same streaming Householder QR as polyfit (the damping
 * terms are just extra rows), because the κ column (∝ N³) and the λ column (∝ N) differ by
 * many orders of magnitude and normal equations would square that. κ ≥ 0 is kept by an active
 * set: a step that would make κ negative is recomputed with κ held at 0. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "fit_internal.h"

#define USL_MAX_ITS 500
#define USL_MIN_POINTS 6

void llmm__usl_defaults(void *full)
{
    llmm_usl *m = full;
    m->quality = LLMM_KNEE_NONE;
    m->lambda = m->sigma = m->kappa = NAN;
    m->n_max = m->x_max = m->r2 = m->rss = NAN;
}

static double denom(double sigma, double kappa, double n)
{
    return 1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0);
}

/* Sum of squared residuals at θ, or -1 if the denominator is not positive at some N. */
static double usl_cost(const double *x, const double *y, size_t n, const double th[3])
{
    double s = 0.0;
    size_t i;
    for (i = 0; i < n; i++) {
        double d = denom(th[1], th[2], x[i]), r;
        if (!(d > 0.0))
            return -1.0;
        r = th[0] * x[i] / d - y[i];
        s += r * r;
    }
    return s;
}

/* Starting point from the linearisation N/X = a + b(N − 1) + cN(N − 1), a = 1/λ, b = σ/λ,
 * c = κ/λ, solved by least squares in the basis 1, (N − 1)/s, N(N − 1)/s² (s a power of two
 * ≥ max N keeps the columns of comparable size). Falls back to σ = κ = 0. */
static void usl_start(const double *x, const double *y, size_t n, double xmax, double th[3])
{
    llmm__qr q;
    double u[3], s = ldexp(1.0, (int)ceil(log2(xmax))), row[4], cost;
    size_t i;

    llmm__qr_init(&q, 4);
    for (i = 0; i < n; i++) {
        row[0] = 1.0;
        row[1] = (x[i] - 1.0) / s;
        row[2] = x[i] * (x[i] - 1.0) / (s * s);
        row[3] = x[i] / y[i];
        llmm__qr_add(&q, row);
    }
    if (llmm__qr_solve(&q, u) && u[0] > 0.0) {
        th[0] = 1.0 / u[0];
        th[1] = (u[1] / s) * th[0];
        th[2] = fmax(0.0, (u[2] / (s * s)) * th[0]);
        cost = usl_cost(x, y, n, th);
        if (cost >= 0.0 && llmm__is_finite(th[0]) && llmm__is_finite(th[1]) &&
            llmm__is_finite(th[2]))
            return;
    }
    /* Linear scaling through the mean ratio: always feasible. */
    th[0] = 0.0;
    for (i = 0; i < n; i++)
        th[0] += y[i] / x[i];
    th[0] /= (double)n;
    th[1] = 0.0;
    th[2] = 0.0;
}

/* Damped Gauss–Newton step for the free parameters (np = 3, or 2 with κ held at 0). */
static int usl_step(const double *x, const double *y, size_t n, const double th[3], int np,
                    double mu, const double dscale[3], double delta[3])
{
    llmm__qr q;
    double row[4];
    size_t i;
    int j;

    llmm__qr_init(&q, (uint32_t)np + 1);
    for (i = 0; i < n; i++) {
        double d = denom(th[1], th[2], x[i]), g = th[0] * x[i] / (d * d);
        row[0] = x[i] / d;
        row[1] = -g * (x[i] - 1.0);
        row[2] = -g * x[i] * (x[i] - 1.0);
        row[np] = -(th[0] * x[i] / d - y[i]);
        llmm__qr_add(&q, row);
    }
    for (j = 0; j < np; j++) {
        memset(row, 0, sizeof row);
        row[j] = sqrt(mu) * dscale[j];
        llmm__qr_add(&q, row);
    }
    delta[2] = 0.0;
    return llmm__qr_solve(&q, delta);
}

/* Column norms of the Jacobian, kept as running maxima (Moré's scaling). */
static void update_scale(const double *x, size_t n, const double th[3], double dscale[3])
{
    double c[3] = {0.0, 0.0, 0.0};
    size_t i;
    int j;
    for (i = 0; i < n; i++) {
        double d = denom(th[1], th[2], x[i]), g = th[0] * x[i] / (d * d);
        double v[3] = {x[i] / d, g * (x[i] - 1.0), g * x[i] * (x[i] - 1.0)};
        for (j = 0; j < 3; j++)
            c[j] += v[j] * v[j];
    }
    for (j = 0; j < 3; j++) {
        double s = sqrt(c[j]);
        if (s > dscale[j])
            dscale[j] = s;
        if (dscale[j] == 0.0)
            dscale[j] = 1.0;
    }
}

/* Levenberg–Marquardt from th; returns iterations used, or 0 if not converged. */
static uint32_t usl_lm(const double *x, const double *y, size_t n, double th[3], double *rss)
{
    double mu = 1e-3, cost = usl_cost(x, y, n, th), dscale[3] = {0.0, 0.0, 0.0};
    uint32_t it;

    for (it = 1; it <= USL_MAX_ITS; it++) {
        double delta[3], trial[3], tcost = -1.0;
        int accepted = 0, j;
        update_scale(x, n, th, dscale);
        while (!accepted) {
            int np = 3;
            if (!usl_step(x, y, n, th, 3, mu, dscale, delta))
                return 0;
            if (th[2] + delta[2] < 0.0) { /* κ would go negative: hold it at its bound */
                np = 2;
                if (!usl_step(x, y, n, th, 2, mu, dscale, delta))
                    return 0;
            }
            for (j = 0; j < 3; j++)
                trial[j] = th[j] + delta[j];
            if (np == 2)
                trial[2] = 0.0;
            if (trial[0] > 0.0 && llmm__is_finite(trial[1]) && llmm__is_finite(trial[2]))
                tcost = usl_cost(x, y, n, trial);
            if (tcost >= 0.0 && tcost <= cost) {
                accepted = 1;
            } else {
                mu *= 10.0;
                if (mu > 1e20) { /* no descent left even along the gradient: stationary */
                    *rss = cost;
                    return it;
                }
            }
        }
        {
            int small = 1;
            double drop = cost - tcost;
            for (j = 0; j < 3; j++)
                if (fabs(trial[j] - th[j]) > 1e-10 * fabs(trial[j]) && trial[j] != th[j])
                    small = 0;
            memcpy(th, trial, sizeof trial);
            cost = tcost;
            mu = fmax(mu * 0.1, 1e-15);
            if (small || drop <= 1e-15 * cost) {
                *rss = cost;
                return it;
            }
        }
    }
    return 0;
}

static int model_valid(const llmm_usl *m)
{
    return llmm__is_finite(m->lambda) && m->lambda > 0.0 && llmm__is_finite(m->sigma) &&
           llmm__is_finite(m->kappa) && m->kappa >= 0.0;
}

/* Peak position and height, from the fitted parameters. */
static void usl_peak(llmm_usl *m)
{
    double l = m->lambda, s = m->sigma, k = m->kappa;
    if (k > 0.0) {
        double nstar = sqrt(fmax(0.0, 1.0 - s) / k);
        m->n_max = fmax(1.0, floor(nstar));
        m->x_max = l * m->n_max / denom(s, k, m->n_max);
    } else if (s >= 1.0) {
        m->n_max = 1.0; /* throughput never rises above X(1) */
        m->x_max = l;
    } else {
        m->n_max = INFINITY;
        m->x_max = s > 0.0 ? l / s : INFINITY;
    }
}

llmm_status llmm_usl_fit(const double *conc, const double *qps, size_t n, llmm_usl *model)
{
    double th[3], distinct[3], xmax = 0.0, mean = 0.0, tss = 0.0, rss = 0.0;
    size_t i, nd = 0;
    uint32_t its;
    llmm_usl m;

    if (!conc || !qps || !model)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_usl, model) != LLMM_OK)
        return LLMM_E_ABI;
    if (n == 0)
        return LLMM_E_EMPTY;
    if (n < USL_MIN_POINTS)
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++) {
        size_t k;
        if (!llmm__is_finite(conc[i]) || !llmm__is_finite(qps[i]) || !(conc[i] > 0.0) ||
            !(qps[i] > 0.0))
            return LLMM_E_INVALID;
        for (k = 0; k < nd && distinct[k] != conc[i]; k++)
            ;
        if (k == nd && nd < 3)
            distinct[nd++] = conc[i];
        if (conc[i] > xmax)
            xmax = conc[i];
        mean += qps[i];
    }
    if (nd < 3)
        return LLMM_E_INVALID;
    mean /= (double)n;
    for (i = 0; i < n; i++)
        tss += (qps[i] - mean) * (qps[i] - mean);

    usl_start(conc, qps, n, xmax, th);
    its = usl_lm(conc, qps, n, th, &rss);
    if (its == 0)
        return LLMM_E_NOT_CONVERGED;

    LLMM__SIZED_DEFAULTS(llmm_usl, &m);
    m.iterations = its;
    m.lambda = th[0];
    m.sigma = th[1];
    m.kappa = th[2];
    m.kappa_at_bound = th[2] == 0.0;
    m.rss = rss;
    m.r2 = tss > 0.0 ? 1.0 - rss / tss : 1.0;
    usl_peak(&m);
    m.quality = (m.r2 >= 0.9 && llmm__is_finite(m.n_max) && m.n_max <= 2.0 * xmax) ? LLMM_KNEE_OK
                                                                                   : LLMM_KNEE_WEAK;
    LLMM__SIZED_PUT(llmm_usl, model, &m);
    return LLMM_OK;
}

/* The caller's model as a full-size copy `m`, and the evaluation point n, checked. */
static llmm_status check_eval(const llmm_usl *model, double n, const void *out, llmm_usl *m)
{
    llmm_status rc;
    if (!model || !out)
        return LLMM_E_INVALID;
    if ((rc = LLMM__SIZED_GET(llmm_usl, m, model)) != LLMM_OK)
        return rc;
    if (!model_valid(m) || !llmm__is_finite(n) || !(n > 0.0))
        return LLMM_E_INVALID;
    if (!(denom(m->sigma, m->kappa, n) > 0.0))
        return LLMM_E_RANGE;
    return LLMM_OK;
}

llmm_status llmm_usl_throughput(const llmm_usl *model, double n, double *x)
{
    llmm_usl m;
    llmm_status rc = check_eval(model, n, x, &m);
    if (rc == LLMM_OK)
        *x = m.lambda * n / denom(m.sigma, m.kappa, n);
    return rc;
}

llmm_status llmm_usl_latency(const llmm_usl *model, double n, double *latency)
{
    llmm_usl m;
    llmm_status rc = check_eval(model, n, latency, &m);
    if (rc == LLMM_OK)
        *latency = denom(m.sigma, m.kappa, n) / m.lambda;
    return rc;
}

llmm_status llmm_usl_slo_concurrency(const llmm_usl *model, double max_latency, double *n)
{
    double t, s, k, r;
    int guard;
    llmm_usl m;
    llmm_status rc;
    if (!model || !n)
        return LLMM_E_INVALID;
    if ((rc = LLMM__SIZED_GET(llmm_usl, &m, model)) != LLMM_OK)
        return rc;
    if (!model_valid(&m) || !llmm__is_finite(max_latency) || !(max_latency > 0.0))
        return LLMM_E_INVALID;
    t = m.lambda * max_latency; /* latency ≤ SLO ⇔ denominator ≤ t */
    s = m.sigma;
    k = m.kappa;
    if (!(t >= 1.0)) { /* the denominator is 1 at N = 1 */
        *n = 0.0;
        return LLMM_OK;
    }
    if (k == 0.0) {
        *n = s > 0.0 ? floor(1.0 + (t - 1.0) / s) : INFINITY;
        return LLMM_OK;
    }
    {
        /* Upper root of kN² + (s − k)N + (1 − s − t) = 0, in the cancellation-free form. */
        double b = s - k, c = 1.0 - s - t, disc = sqrt(b * b - 4.0 * k * c);
        r = b >= 0.0 ? (2.0 * c) / (-b - disc) : (-b + disc) / (2.0 * k);
    }
    if (!llmm__is_finite(r)) {
        *n = INFINITY;
        return LLMM_OK;
    }
    r = fmax(1.0, floor(r));
    /* The root is rounded: settle the integer against the inequality itself. */
    for (guard = 0; guard < 4 && denom(s, k, r + 1.0) <= t; guard++)
        r += 1.0;
    for (guard = 0; guard < 4 && r > 1.0 && denom(s, k, r) > t; guard++)
        r -= 1.0;
    *n = r;
    return LLMM_OK;
}
