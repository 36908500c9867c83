/* 1.0 families: polynomial fits and polynomials, knee estimators and the knee report, the
 * USL model, capacity formulas. */
#include "v1_0.h"

#define NPTS 8

static void polyfit(void)
{
    static const double x[6] = {0, 1, 2, 3, 4, 5}, w[6] = {1, 1, 1, 1, 1, 1};
    static const double quad[3] = {1.0, -3.0, 2.0}; /* x² − 3x + 2 = (x − 1)(x − 2) */
    double y[6], c[3], d[2], roots[2], res[6], v, rss;
    uint32_t dd;
    size_t n = 0;
    int i;
    GUARDED(llmm_fit_stats, st);
    for (i = 0; i < 6; i++)
        y[i] = 2.0 * x[i] * x[i] + 3.0 * x[i] + 1.0;
    CHECK_OK(llmm_polyfit(x, y, 6, 2, c, st));
    INTACT(st);
    CHECK_NEAR(c[0], 2.0, 1e-12);
    CHECK_NEAR(c[1], 3.0, 1e-12);
    CHECK_NEAR(c[2], 1.0, 1e-12);
    CHECK(st->rank == 3 && st->n == 6 && st->r2 == 1.0 - st->rss / st->tss);
    CHECK(st->rss < 1e-18 * st->tss);
    CHECK_OK(llmm_polyfit_weighted(x, y, w, 6, 2, c, st));
    INTACT(st);
    CHECK_NEAR(c[1], 3.0, 1e-12);
    st->struct_size += 1;
    CHECK(llmm_polyfit(x, y, 6, 2, c, st) == LLMM_E_ABI);
    CHECK_OK(llmm_poly_eval(c, 2, 2.0, &v));
    CHECK_NEAR(v, 15.0, 1e-12);
    CHECK_OK(llmm_poly_residuals(c, 2, x, y, 6, res, &rss));
    CHECK(rss < 1e-18);
    CHECK_OK(llmm_poly_deriv(c, 2, 1, d, &dd));
    CHECK(dd == 1);
    CHECK_NEAR(d[0], 4.0, 1e-12);
    CHECK_OK(llmm_poly_roots(quad, 2, roots, 2, &n));
    CHECK(n == 2 && fabs(roots[0] - 1.0) < 1e-12 && fabs(roots[1] - 2.0) < 1e-12);
}

/* A sweep on the USL curve λ = 100, σ = 0.05, κ = 0.001: peak at floor(sqrt(0.95/0.001)) = 30. */
static double usl_x(double n)
{
    return 100.0 * n / (1.0 + 0.05 * (n - 1.0) + 0.001 * n * (n - 1.0));
}

static void knees_usl(void)
{
    double conc[NPTS], qps[NPTS], v;
    int i;
    GUARDED(llmm_knee, k);
    GUARDED(llmm_usl, u);
    GUARDED(llmm_knee_options, o);
    GUARDED(llmm_knee, ki);
    GUARDED(llmm_knee, kc);
    GUARDED(llmm_knee, kk);
    GUARDED(llmm_usl, ur);
    for (i = 0; i < NPTS; i++) {
        conc[i] = (double)(1 << i); /* 1 … 128 */
        qps[i] = usl_x(conc[i]);
    }
    CHECK(isnan(k->knee) && k->quality == LLMM_KNEE_NONE);
    CHECK(isnan(u->lambda) && u->quality == LLMM_KNEE_NONE);
    CHECK(o->trim == 0.1 && o->collapse_fraction == 0.5 && o->kneedle_sensitivity == 1.0);
    CHECK_OK(llmm_usl_fit(conc, qps, NPTS, u));
    INTACT(u);
    CHECK_NEAR(u->lambda, 100.0, 1e-6);
    CHECK_NEAR(u->sigma, 0.05, 1e-6);
    CHECK_NEAR(u->kappa, 0.001, 1e-6);
    CHECK(u->n_max == 30.0);
    CHECK_OK(llmm_usl_throughput(u, 10.0, &v));
    CHECK_NEAR(v, usl_x(10.0), 1e-6);
    CHECK_OK(llmm_usl_latency(u, 10.0, &v));
    CHECK_NEAR(v, (1.0 + 0.05 * 9.0 + 0.001 * 90.0) / 100.0, 1e-6);
    CHECK_OK(llmm_usl_slo_concurrency(u, 0.1, &v));
    CHECK(v >= 1.0);
    CHECK_OK(llmm_knee_kneedle(conc, qps, NPTS, 1.0, k));
    INTACT(k);
    CHECK(k->quality != LLMM_KNEE_NONE && k->knee > 1.0 && k->knee < 128.0);
    CHECK_OK(llmm_knee_collapse(conc, qps, NPTS, 0.5, 0, k));
    INTACT(k);
    v = 0.0;
    CHECK(llmm_knee_inflection(conc, qps, NPTS, 0.0, &v) != LLMM_E_ABI);
    CHECK_OK(llmm_knee_inflection_ex(conc, qps, NPTS, 0.0, k));
    INTACT(k);
    o->trim = 0.0;
    CHECK_OK(llmm_knee_report(conc, qps, NPTS, o, ki, kc, kk, ur));
    INTACT(ki);
    INTACT(kc);
    INTACT(kk);
    INTACT(ur);
    CHECK_NEAR(ur->lambda, 100.0, 1e-6);
    CHECK(kk->quality != LLMM_KNEE_NONE);
}

static void capacity(void)
{
    double v;
    CHECK_OK(llmm_roofline(100.0, 10.0, 5.0, &v));
    CHECK(v == 50.0);
    CHECK_OK(llmm_roofline_critical_intensity(100.0, 10.0, &v));
    CHECK(v == 10.0);
    CHECK_OK(llmm_arithmetic_intensity(2048.0, 128.0, &v));
    CHECK(v == 16.0);
    CHECK_OK(llmm_decay_rate(80.0, 100.0, &v));
    CHECK_NEAR(v, 0.2, 1e-15);
    CHECK_OK(llmm_scaling_decay(100.0, 75.0, &v));
    CHECK(v == 0.25);
    CHECK_OK(llmm_scaling_decay_devices(50.0, 2, 75.0, &v));
    CHECK(v == 0.25);
    CHECK_OK(llmm_seqlen_decay(1127.0, 693.0, &v));
    CHECK_NEAR(v, 0.3851, 1e-4);
    CHECK_OK(llmm_comm_share(0.82, 4.1, &v));
    CHECK_NEAR(v, 0.2, 1e-12);
    CHECK_OK(llmm_littles_law_tps(150.0, 45.0, 0.85, &v));
    CHECK_NEAR(v, 255.0, 1e-12);
}

void v1_fit_capacity(void)
{
    polyfit();
    knees_usl();
    capacity();
}
