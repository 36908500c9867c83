/* fit module: least squares, polynomials and roots, knee estimators, USL. Public API only.
 * References: numpy vectors (reference_data.h), exact polynomials, closed-form knees. */
#include <float.h>

#include "helpers.h"
#include "reference_data.h"

#define SENTINEL 12345.678
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- small independent helpers ---------------------------------------------------------- */

/* p(x) in long double, highest power first: an evaluation independent of the library's. */
static long double eval_ld(const double *c, unsigned degree, double x)
{
    long double s = c[0];
    unsigned i;
    for (i = 1; i <= degree; i++)
        s = s * (long double)x + (long double)c[i];
    return s;
}

static double rss_ld(const double *c, unsigned degree, const double *x, const double *y, size_t n)
{
    long double s = 0.0L;
    size_t i;
    for (i = 0; i < n; i++) {
        long double r = (long double)y[i] - eval_ld(c, degree, x[i]);
        s += r * r;
    }
    return (double)s;
}

/* Deterministic normal deviates: xorshift64* and Box–Muller. */
static uint64_t rng_state;
static double uniform01(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}
static double gauss(void)
{
    double u = uniform01(), v = uniform01();
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Expand Π (x − r_i) into coefficients, highest first (c has n + 1 entries). */
static void from_roots(const double *r, unsigned n, double *c)
{
    unsigned i, j;
    c[0] = 1.0;
    for (i = 0; i < n; i++) {
        c[i + 1] = 0.0;
        for (j = i + 1; j > 0; j--)
            c[j] -= r[i] * c[j - 1];
    }
}

/* ---- polyfit ---------------------------------------------------------------------------- */

static void test_polyfit_numpy_vectors(void **state)
{
    int c;
    (void)state;
    LLMM_TEST_NEEDS_LONG_DOUBLE(); /* rss_ld */
    for (c = 0; c < REF_POLYFIT_COUNT; c++) {
        const ref_polyfit *r = &ref_polyfit_cases[c];
        double coeffs[LLMM_POLY_MAX_DEGREE + 1], scale = 0.0, ours;
        llmm_fit_stats st;
        unsigned k;

        assert_ok(llmm_fit_stats_init(&st));
        assert_ok(llmm_polyfit(r->x, r->y, r->n, r->degree, coeffs, &st));
        assert_int_equal(st.rank, r->degree + 1);
        assert_int_equal(st.n, r->n);
        ours = rss_ld(coeffs, r->degree, r->x, r->y, r->n);
        if (r->coeffs_are_residual) {
            /* numpy is far from the optimum here; the exact optimum is the reference. */
            assert_close(st.rss, r->rss_exact, 1e-4, 0.0);
            assert_close(ours, r->rss_exact, 1e-4, 0.0);
            assert_true(ours >= r->rss_exact * (1.0 - 1e-12));
            assert_true(ours < r->rss); /* and better than numpy's own coefficients */
            continue;
        }
        for (k = 0; k <= r->degree; k++)
            scale = fmax(scale, fabs(r->coeffs[k]));
        for (k = 0; k <= r->degree; k++)
            assert_close(coeffs[k], r->coeffs[k], 1e-9, 1e-13 * scale);
        /* rss: relative where it is meaningful, absolute at the rounding floor of y². */
        assert_close(st.rss, r->rss, 1e-9, 1e-20);
        assert_close(ours, r->rss, 1e-9, 1e-20);
    }
}

/* Data from an exact polynomial with small coefficients are fitted back exactly for every
 * degree up to 8 where the problem is well posed (x around 0). Away from 0 the power-basis
 * coefficients of high degree are not determined by data rounded to double (any method, even
 * exact arithmetic, moves them), so there the test is optimality: the fit's residual, computed
 * independently, is no larger than that of the true coefficients. */
static void test_polyfit_exact_recovery(void **state)
{
    static const double base[9] = {3.0, -2.0, 0.5, 1.0, -0.25, 0.125, -1.0, 2.0, 0.75};
    unsigned d, k;
    (void)state;
    LLMM_TEST_NEEDS_LONG_DOUBLE(); /* eval_ld, rss_ld */
    for (d = 0; d <= 8; d++) {
        double x[64], y[64], got[9];
        const double offsets[3] = {0.0, 3.0, 40.0};
        int o;
        for (o = 0; o < 3; o++) {
            size_t i;
            llmm_fit_stats st;
            for (i = 0; i < 64; i++) {
                x[i] = offsets[o] + (double)i * 0.05 - 1.5; /* 0.05 is inexact on purpose */
                y[i] = (double)eval_ld(base, d, x[i]);
            }
            llmm_fit_stats_init(&st);
            assert_ok(llmm_polyfit(x, y, 64, d, got, &st));
            if (o == 0 || (o == 1 && d <= 4)) {
                for (k = 0; k <= d; k++)
                    assert_close(got[k], base[k], 1e-9, 1e-12);
            } else {
                double rt = rss_ld(base, d, x, y, 64), rg = rss_ld(got, d, x, y, 64);
                double ymax = 0.0, floor_;
                for (i = 0; i < 64; i++)
                    ymax = fmax(ymax, fabs(y[i]));
                floor_ = 64.0 * (ymax * DBL_EPSILON) * (ymax * DBL_EPSILON);
                assert_true(rg <= 1.01 * rt + floor_);
            }
            assert_true(st.r2 > 1.0 - 1e-12);
        }
    }
}

static void test_polyfit_stats(void **state)
{
    const ref_polyfit *r = &ref_polyfit_cases[0];
    double c[4];
    long double mean = 0.0L, tss = 0.0L;
    llmm_fit_stats st;
    size_t i;
    (void)state;
    assert_ok(llmm_fit_stats_init(&st));
    assert_int_equal(st.struct_size, sizeof st);
    assert_ok(llmm_polyfit(r->x, r->y, r->n, 3, c, &st));
    for (i = 0; i < r->n; i++)
        mean += r->y[i];
    mean /= (long double)r->n;
    for (i = 0; i < r->n; i++)
        tss += (r->y[i] - mean) * (r->y[i] - mean);
    assert_close(st.tss, (double)tss, 1e-10, 0.0);
    assert_close(st.rss, rss_ld(c, 3, r->x, r->y, r->n), 1e-10, 0.0);
    assert_close(st.r2, 1.0 - st.rss / (double)tss, 1e-12, 0.0);
    assert_close(st.residual_std, sqrt(st.rss / (double)(r->n - 4)), 1e-12, 0.0);
    assert_true(st.condition >= 1.0 && st.condition < 1e3);
    /* the abscissa map: centre at the midpoint, scale a power of two covering the half-range */
    assert_close(st.centre, 300.5, 0.0, 1e-12);
    {
        int e;
        assert_true(frexp(st.scale, &e) == 0.5);
        assert_true(st.scale >= 299.5 && st.scale < 2.0 * 299.5);
    }
    /* a perfect fit of constant data: tss = 0 gives r2 = 1 */
    {
        double x[5] = {1, 2, 3, 4, 5}, y[5] = {7, 7, 7, 7, 7}, k[2];
        assert_ok(llmm_polyfit(x, y, 5, 1, k, &st));
        assert_close(k[0], 0.0, 0.0, 1e-15);
        assert_close(k[1], 7.0, 1e-15, 0.0);
        assert_true(st.r2 == 1.0);
        assert_close(st.rss, 0.0, 0.0, 1e-25);
    }
    /* n = degree + 1: interpolation, residual_std is 0 */
    {
        double x[3] = {0, 1, 2}, y[3] = {1, 2, 5}, k[3];
        assert_ok(llmm_polyfit(x, y, 3, 2, k, &st));
        assert_close(k[0], 1.0, 1e-14, 0.0);
        assert_close(k[1], 0.0, 0.0, 1e-14);
        assert_close(k[2], 1.0, 1e-14, 0.0);
        assert_true(st.residual_std == 0.0);
    }
}

static void test_polyfit_high_degree(void **state)
{
    /* degree 16 on Chebyshev nodes of a smooth function: full rank, tiny residual */
    double x[200], y[200], c[17], r;
    llmm_fit_stats st;
    size_t i;
    (void)state;
    for (i = 0; i < 200; i++) {
        x[i] = 2.0 * cos(M_PI * ((double)i + 0.5) / 200.0) + 3.0;
        y[i] = exp(0.5 * x[i]);
    }
    llmm_fit_stats_init(&st);
    assert_ok(llmm_polyfit(x, y, 200, LLMM_POLY_MAX_DEGREE, c, &st));
    assert_int_equal(st.rank, 17);
    assert_ok(llmm_poly_residuals(c, 16, x, y, 200, NULL, &r));
    assert_true(r < 1e-20);
    assert_status(llmm_polyfit(x, y, 200, LLMM_POLY_MAX_DEGREE + 1, c, &st), LLMM_E_RANGE);
}

static void test_polyfit_weighted(void **state)
{
    /* integer weights are repeat counts: equal to the fit of the duplicated data */
    double x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, y[8] = {1.0, 2.5, 2.9, 4.8, 4.1, 7.7, 6.0, 9.3};
    double w[8] = {1, 3, 2, 1, 4, 1, 2, 5}, xd[19], yd[19], cw[3], cd[3], cs[3];
    llmm_fit_stats sw, sd;
    size_t i, m = 0, k;
    (void)state;
    for (i = 0; i < 8; i++)
        for (k = 0; k < (size_t)w[i]; k++) {
            xd[m] = x[i];
            yd[m++] = y[i];
        }
    assert_int_equal(m, 19);
    llmm_fit_stats_init(&sw);
    llmm_fit_stats_init(&sd);
    assert_ok(llmm_polyfit_weighted(x, y, w, 8, 2, cw, &sw));
    assert_ok(llmm_polyfit(xd, yd, 19, 2, cd, &sd));
    for (k = 0; k < 3; k++)
        assert_close(cw[k], cd[k], 1e-12, 1e-14);
    assert_close(sw.rss, sd.rss, 1e-10, 0.0);
    assert_close(sw.tss, sd.tss, 1e-10, 0.0);
    assert_close(sw.r2, sd.r2, 1e-12, 0.0);
    assert_int_equal(sw.n, 8);

    /* scaling every weight by 2^-40 changes nothing but the weighted sums */
    for (i = 0; i < 8; i++)
        w[i] = ldexp(w[i], -40);
    assert_ok(llmm_polyfit_weighted(x, y, w, 8, 2, cs, &sw));
    for (k = 0; k < 3; k++)
        assert_close(cs[k], cd[k], 1e-12, 1e-14);
    assert_close(sw.rss, ldexp(sd.rss, -40), 1e-10, 0.0);

    /* a zero weight removes the point, even a wild one */
    {
        double xz[4] = {0, 1, 2, 3}, yz[4] = {1, 3, 1e6, 7}, wz[4] = {1, 1, 0, 1}, c1[2], c2[2];
        double xr[3] = {0, 1, 3}, yr[3] = {1, 3, 7};
        assert_ok(llmm_polyfit_weighted(xz, yz, wz, 4, 1, c1, &sw));
        assert_ok(llmm_polyfit(xr, yr, 3, 1, c2, NULL));
        assert_close(c1[0], c2[0], 1e-14, 0.0);
        assert_close(c1[1], c2[1], 1e-14, 0.0);
        assert_int_equal(sw.n, 3);
        /* too few positive weights for the degree */
        wz[0] = 0.0;
        wz[1] = 0.0;
        assert_status(llmm_polyfit_weighted(xz, yz, wz, 4, 2, c1, NULL), LLMM_E_INVALID);
        wz[0] = -1.0;
        assert_status(llmm_polyfit_weighted(xz, yz, wz, 4, 1, c1, NULL), LLMM_E_INVALID);
        wz[0] = NAN;
        assert_status(llmm_polyfit_weighted(xz, yz, wz, 4, 1, c1, NULL), LLMM_E_INVALID);
        wz[0] = INFINITY;
        assert_status(llmm_polyfit_weighted(xz, yz, wz, 4, 1, c1, NULL), LLMM_E_INVALID);
        assert_status(llmm_polyfit_weighted(xz, yz, NULL, 4, 1, c1, NULL), LLMM_E_INVALID);
    }
}

static void test_polyfit_errors_leave_outputs(void **state)
{
    double x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {2, 4, 5, 4, 5, 7};
    double c[4] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL};
    llmm_fit_stats st, before;
    int k;
    (void)state;
    llmm_fit_stats_init(&st);
    st.rss = SENTINEL;
    before = st;
#define EXPECT_UNTOUCHED(call, status)                                                       \
    do {                                                                                     \
        assert_status(call, status);                                                         \
        for (k = 0; k < 4; k++)                                                              \
            assert_true(c[k] == SENTINEL);                                                   \
        assert_memory_equal(&st, &before, sizeof st);                                        \
    } while (0)
    EXPECT_UNTOUCHED(llmm_polyfit(NULL, y, 6, 3, c, &st), LLMM_E_INVALID);
    EXPECT_UNTOUCHED(llmm_polyfit(x, NULL, 6, 3, c, &st), LLMM_E_INVALID);
    assert_status(llmm_polyfit(x, y, 6, 3, NULL, &st), LLMM_E_INVALID);
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 0, 3, c, &st), LLMM_E_EMPTY);
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 3, 3, c, &st), LLMM_E_INVALID); /* n < degree + 1 */
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 6, 17, c, &st), LLMM_E_RANGE);
    x[2] = NAN;
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 6, 3, c, &st), LLMM_E_INVALID);
    x[2] = INFINITY;
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 6, 3, c, &st), LLMM_E_INVALID);
    x[2] = 3.0;
    y[5] = -INFINITY;
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 6, 3, c, &st), LLMM_E_INVALID);
    y[5] = 7.0;
    /* degenerate: three distinct abscissae cannot determine a cubic */
    {
        double xd[6] = {1, 1, 2, 2, 3, 3};
        EXPECT_UNTOUCHED(llmm_polyfit(xd, y, 6, 3, c, &st), LLMM_E_INVALID);
        double xs[6] = {4, 4, 4, 4, 4, 4};
        EXPECT_UNTOUCHED(llmm_polyfit(xs, y, 6, 1, c, &st), LLMM_E_INVALID);
        /* but a constant through one repeated abscissa is fine */
        assert_ok(llmm_polyfit(xs, y, 6, 0, c, NULL));
        assert_close(c[0], 27.0 / 6.0, 1e-15, 0.0);
        c[0] = SENTINEL;
    }
    /* coefficients outside the double range: x ~ 1e200 makes the cubic term ~ y·1e-600 */
    {
        double xb[6], xt[6];
        for (k = 0; k < 6; k++) {
            xb[k] = 1e200 * (1.0 + 0.01 * k);
            xt[k] = 1e-300 * (1.0 + 0.5 * k);
        }
        EXPECT_UNTOUCHED(llmm_polyfit(xb, y, 6, 3, c, &st), LLMM_E_RANGE);
        EXPECT_UNTOUCHED(llmm_polyfit(xt, y, 6, 2, c, &st), LLMM_E_RANGE);
        /* a straight line through the same far abscissae is representable: slope ~ 1e-198 */
        for (k = 0; k < 6; k++)
            y[k] = 3.0 + 2.0 * k;
        assert_ok(llmm_polyfit(xb, y, 6, 1, c, NULL));
        assert_close(c[0], 2.0 / (0.01 * 1e200), 1e-9, 0.0);
        assert_close(c[1], 3.0 - 2.0 / 0.01, 1e-9, 0.0);
        for (k = 0; k < 4; k++)
            c[k] = SENTINEL;
        y[0] = 2, y[1] = 4, y[2] = 5, y[3] = 4, y[4] = 5, y[5] = 7;
    }
    st.struct_size = 8;
    before = st;
    EXPECT_UNTOUCHED(llmm_polyfit(x, y, 6, 3, c, &st), LLMM_E_ABI);
    assert_status(llmm_fit_stats_init(NULL), LLMM_E_INVALID);
#undef EXPECT_UNTOUCHED
}

/* ---- evaluation, residuals, derivatives --------------------------------------------------- */

static void test_poly_eval_residuals(void **state)
{
    const double c[4] = {2.0, -3.0, 0.5, 7.0}; /* 2x³ − 3x² + 0.5x + 7 */
    double y = SENTINEL, x[3] = {0.0, 1.0, -2.0}, yy[3] = {7.0, 7.0, -20.0}, res[3], rss;
    (void)state;
    assert_ok(llmm_poly_eval(c, 3, 2.0, &y));
    assert_true(y == 16.0 - 12.0 + 1.0 + 7.0);
    assert_ok(llmm_poly_eval(c, 0, 123.0, &y));
    assert_true(y == 2.0);
    y = SENTINEL;
    assert_status(llmm_poly_eval(c, 3, NAN, &y), LLMM_E_INVALID);
    assert_status(llmm_poly_eval(NULL, 3, 1.0, &y), LLMM_E_INVALID);
    assert_status(llmm_poly_eval(c, 3, 1.0, NULL), LLMM_E_INVALID);
    {
        double bad[2] = {1.0, INFINITY};
        assert_status(llmm_poly_eval(bad, 1, 1.0, &y), LLMM_E_INVALID);
    }
    assert_true(y == SENTINEL);

    /* p(0) = 7, p(1) = 6.5, p(−2) = −16 − 12 − 1 + 7 = −22 */
    assert_ok(llmm_poly_residuals(c, 3, x, yy, 3, res, &rss));
    assert_true(res[0] == 0.0 && res[1] == 0.5 && res[2] == 2.0);
    assert_true(rss == 4.25);
    assert_ok(llmm_poly_residuals(c, 3, x, yy, 3, NULL, &rss));
    assert_true(rss == 4.25);
    assert_ok(llmm_poly_residuals(c, 3, NULL, NULL, 0, NULL, &rss));
    assert_true(rss == 0.0);
    assert_status(llmm_poly_residuals(c, 3, x, yy, 3, NULL, NULL), LLMM_E_INVALID);
    yy[1] = NAN;
    rss = SENTINEL;
    assert_status(llmm_poly_residuals(c, 3, x, yy, 3, NULL, &rss), LLMM_E_INVALID);
    assert_true(rss == SENTINEL);

    /* compensated evaluation: (x − 1)^7 expanded, near x = 1, where plain Horner keeps no
     * correct digit (condition Σ|aᵢ||x|ⁱ / |p| ≈ 2⁷/1e-14 ≈ 1e16) */
    {
        const double r7[7] = {1, 1, 1, 1, 1, 1, 1};
        double p[8], xs = 1.01, ys = 0.0, r;
        from_roots(r7, 7, p);
        assert_ok(llmm_poly_residuals(p, 7, &xs, &ys, 1, &r, NULL));
        assert_close(-r, pow(xs - 1.0, 7), 1e-12, 0.0); /* xs − 1 is exact (Sterbenz) */
    }
}

static void test_poly_deriv(void **state)
{
    const double c[5] = {1.0, -2.0, 3.0, -4.0, 5.0}; /* x⁴ − 2x³ + 3x² − 4x + 5 */
    double d[5], inplace[5];
    uint32_t nd = 99;
    (void)state;
    assert_ok(llmm_poly_deriv(c, 4, 1, d, &nd));
    assert_int_equal(nd, 3);
    assert_true(d[0] == 4.0 && d[1] == -6.0 && d[2] == 6.0 && d[3] == -4.0);
    assert_ok(llmm_poly_deriv(c, 4, 2, d, &nd));
    assert_int_equal(nd, 2);
    assert_true(d[0] == 12.0 && d[1] == -12.0 && d[2] == 6.0);
    assert_ok(llmm_poly_deriv(c, 4, 4, d, &nd));
    assert_int_equal(nd, 0);
    assert_true(d[0] == 24.0);
    assert_ok(llmm_poly_deriv(c, 4, 5, d, &nd));
    assert_int_equal(nd, 0);
    assert_true(d[0] == 0.0);
    assert_ok(llmm_poly_deriv(c, 4, 0, d, NULL));
    assert_memory_equal(d, c, sizeof c);
    /* repeated first derivatives equal one third derivative, in place */
    memcpy(inplace, c, sizeof c);
    assert_ok(llmm_poly_deriv(inplace, 4, 1, inplace, NULL));
    assert_ok(llmm_poly_deriv(inplace, 3, 1, inplace, NULL));
    assert_ok(llmm_poly_deriv(inplace, 2, 1, inplace, NULL));
    assert_ok(llmm_poly_deriv(c, 4, 3, d, NULL));
    assert_true(inplace[0] == d[0] && inplace[1] == d[1]);
    assert_true(d[0] == 24.0 && d[1] == -12.0);
    assert_status(llmm_poly_deriv(NULL, 4, 1, d, NULL), LLMM_E_INVALID);
    assert_status(llmm_poly_deriv(c, 4, 1, NULL, NULL), LLMM_E_INVALID);
    {
        double bad[2] = {NAN, 1.0};
        d[0] = SENTINEL;
        assert_status(llmm_poly_deriv(bad, 1, 1, d, NULL), LLMM_E_INVALID);
        assert_true(d[0] == SENTINEL);
    }
}

/* ---- roots -------------------------------------------------------------------------------- */

static void test_roots_numpy_vectors(void **state)
{
    int c;
    (void)state;
    for (c = 0; c < REF_ROOTS_COUNT; c++) {
        const ref_roots *r = &ref_roots_cases[c];
        double roots[LLMM_POLY_MAX_DEGREE];
        size_t nr = 99, i;
        assert_ok(llmm_poly_roots(r->coeffs, r->degree, roots, LLMM_POLY_MAX_DEGREE, &nr));
        assert_int_equal(nr, r->nroots);
        for (i = 0; i < nr; i++)
            assert_close(roots[i], r->roots[i], 1e-9, 1e-12);
    }
}

static void check_roots(const double *expect, unsigned n, const double *coeffs, unsigned degree,
                        double rel)
{
    double roots[LLMM_POLY_MAX_DEGREE];
    size_t nr = 0, i;
    assert_ok(llmm_poly_roots(coeffs, degree, roots, LLMM_POLY_MAX_DEGREE, &nr));
    assert_int_equal(nr, n);
    for (i = 0; i < nr; i++)
        assert_close(roots[i], expect[i], rel, 1e-12);
}

static void test_roots_structure(void **state)
{
    double c[LLMM_POLY_MAX_DEGREE + 1];
    (void)state;
    {   /* Wilkinson-like: 1 … 10 */
        double r[10];
        unsigned i;
        for (i = 0; i < 10; i++)
            r[i] = (double)(i + 1);
        from_roots(r, 10, c);
        check_roots(r, 10, c, 10, 1e-9);
    }
    {   /* the maximum degree, well-separated roots */
        double r[16];
        unsigned i;
        for (i = 0; i < 16; i++)
            r[i] = -2.0 + 0.25 * (double)i;
        from_roots(r, 16, c);
        check_roots(r, 16, c, 16, 1e-7);
    }
    {   /* a double root is reported twice */
        const double r[3] = {-2.0, 1.0, 1.0};
        from_roots(r, 3, c);
        check_roots(r, 3, c, 3, 1e-7);
    }
    {   /* complex pairs are left out: (x² + 1)(x − 3)(x + 0.5) */
        const double p[5] = {1.0, -2.5, -0.5, -2.5, -1.5}, r[2] = {-0.5, 3.0};
        check_roots(r, 2, p, 4, 1e-12);
    }
    {   /* a complex pair close to the real axis is not a root: x² − 2x + 1 + 1e-10 */
        const double p[3] = {1.0, -2.0, 1.0 + 1e-10};
        check_roots(NULL, 0, p, 2, 0.0);
    }
    {   /* leading zeros are dropped, trailing zeros are roots at 0: 0·x⁴ + x³ − x² */
        const double p[5] = {0.0, 1.0, -1.0, 0.0, 0.0}, r[3] = {0.0, 0.0, 1.0};
        check_roots(r, 3, p, 4, 1e-15);
    }
    {   /* linear, constant, wide dynamic range */
        const double lin[2] = {4.0, -2.0}, cst[1] = {3.0}, r1[1] = {0.5};
        const double wide[3] = {1e-8, 1.0, -1e8};
        double got[2];
        size_t nr;
        check_roots(r1, 1, lin, 1, 1e-15);
        check_roots(NULL, 0, cst, 0, 0.0);
        assert_ok(llmm_poly_roots(wide, 2, got, 2, &nr));
        assert_int_equal(nr, 2);
        /* roots of 1e-8 x² + x − 1e8: x = (−1 ± sqrt(1 + 4))/(2e-8) */
        assert_close(got[0], (-1.0 - sqrt(5.0)) / 2e-8, 1e-12, 0.0);
        assert_close(got[1], (-1.0 + sqrt(5.0)) / 2e-8, 1e-12, 0.0);
    }
}

static void test_roots_errors(void **state)
{
    const double c[4] = {1.0, -6.0, 11.0, -6.0};
    double roots[3] = {SENTINEL, SENTINEL, SENTINEL};
    size_t nr = 77;
    (void)state;
    assert_status(llmm_poly_roots(c, 3, roots, 2, &nr), LLMM_E_BUFFER);
    assert_int_equal(nr, 3);
    assert_true(roots[0] == SENTINEL && roots[1] == SENTINEL);
    assert_status(llmm_poly_roots(c, 3, NULL, 0, &nr), LLMM_E_BUFFER);
    assert_int_equal(nr, 3);
    assert_status(llmm_poly_roots(c, 3, NULL, 3, &nr), LLMM_E_INVALID);
    assert_status(llmm_poly_roots(NULL, 3, roots, 3, &nr), LLMM_E_INVALID);
    assert_status(llmm_poly_roots(c, 3, roots, 3, NULL), LLMM_E_INVALID);
    {
        const double zero[3] = {0.0, 0.0, 0.0}, nan[3] = {1.0, NAN, 0.0};
        double big[LLMM_POLY_MAX_DEGREE + 2];
        unsigned i;
        assert_status(llmm_poly_roots(zero, 2, roots, 3, &nr), LLMM_E_INVALID);
        assert_status(llmm_poly_roots(nan, 2, roots, 3, &nr), LLMM_E_INVALID);
        for (i = 0; i < LLMM_POLY_MAX_DEGREE + 2; i++)
            big[i] = 1.0;
        assert_status(llmm_poly_roots(big, LLMM_POLY_MAX_DEGREE + 1, roots, 3, &nr),
                      LLMM_E_RANGE);
        big[0] = 0.0; /* a leading zero: the degree is 16 after all */
        assert_ok(llmm_poly_roots(big, LLMM_POLY_MAX_DEGREE + 1, NULL, 0, &nr));
        /* 1 + x + … + x^16 = (x^17 − 1)/(x − 1): the 17th roots of unity but 1, none real */
        assert_int_equal(nr, 0);
    }
    assert_true(roots[0] == SENTINEL && roots[1] == SENTINEL && roots[2] == SENTINEL);
    /* the cap may be exact */
    assert_ok(llmm_poly_roots(c, 3, roots, 3, &nr));
    assert_close(roots[0], 1.0, 1e-14, 0.0);
    assert_close(roots[2], 3.0, 1e-14, 0.0);
}

/* ---- knee: cubic inflection --------------------------------------------------------------- */

/* qps = 1000 + 4(N − 329) − 2e-5 (N − 329)³: convex then concave, inflection at 329. */
static double cubic329(double n)
{
    double u = n - 329.0;
    return 1000.0 + 4.0 * u - 2e-5 * u * u * u;
}

static void test_knee_inflection_exact(void **state)
{
    double conc[300], qps[300], knee = SENTINEL;
    llmm_knee k;
    size_t i;
    (void)state;
    for (i = 0; i < 300; i++) {
        conc[i] = 20.0 + 2.0 * (double)i; /* 20 … 618 */
        qps[i] = cubic329(conc[i]);
    }
    /* transients in the first and last 10 %: trimming must remove them */
    for (i = 0; i < 30; i++) {
        qps[i] *= 0.3;
        qps[299 - i] += 5000.0;
    }
    assert_ok(llmm_knee_inflection(conc, qps, 300, 0.1, &knee));
    assert_close(knee, 329.0, 0.005, 0.0);
    assert_close(knee, 329.0, 1e-9, 0.0); /* exact data: far better than the 0.5 % asked */
    assert_ok(llmm_knee_init(&k));
    assert_ok(llmm_knee_inflection_ex(conc, qps, 300, 0.1, &k));
    assert_int_equal(k.quality, LLMM_KNEE_OK);
    assert_close(k.knee, 329.0, 1e-9, 0.0);
    assert_close(k.qps, 1000.0, 1e-9, 0.0);
    assert_close(k.strength, 1.0, 1e-12, 0.0); /* R² of an exact cubic */
    /* without the trim the transients spoil the fit */
    assert_ok(llmm_knee_inflection_ex(conc, qps, 300, 0.0, &k));
    assert_true(k.quality == LLMM_KNEE_NONE || fabs(k.knee - 329.0) > 1.0);
}

static void test_knee_inflection_quality(void **state)
{
    double conc[100], qps[100], knee = SENTINEL;
    llmm_knee k, before;
    size_t i;
    (void)state;
    llmm_knee_init(&k);
    /* inflection outside the data: a cubic whose inflection is at N = −50 */
    for (i = 0; i < 100; i++) {
        double u = (double)i + 50.0;
        conc[i] = (double)i;
        qps[i] = 1e-3 * u * u * u + (double)i;
    }
    assert_status(llmm_knee_inflection(conc, qps, 100, 0.1, &knee), LLMM_E_EMPTY);
    assert_true(knee == SENTINEL);
    assert_ok(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    assert_true(isnan(k.knee) && isnan(k.qps));
    /* a straight line has no inflection at all (a = 0 up to rounding) */
    for (i = 0; i < 100; i++)
        qps[i] = 3.0 * (double)i + 1.0;
    assert_ok(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    /* an inflection in the outer 5 % of the retained range is weak: at 12 in [10, 89] */
    for (i = 0; i < 100; i++) {
        double u = (double)i - 12.0;
        qps[i] = 100.0 + u - 1e-4 * u * u * u;
    }
    assert_ok(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k));
    assert_int_equal(k.quality, LLMM_KNEE_WEAK);
    assert_close(k.knee, 12.0, 1e-9, 0.0);
    /* noise that the cubic cannot explain (R² < 0.9) is weak too */
    rng_state = 7;
    for (i = 0; i < 100; i++)
        qps[i] = cubic329(3.3 * (double)i + 165.0) + 400.0 * gauss();
    for (i = 0; i < 100; i++)
        conc[i] = 3.3 * (double)i + 165.0;
    assert_ok(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k));
    assert_true(k.quality != LLMM_KNEE_OK);
    assert_true(k.quality == LLMM_KNEE_NONE || k.strength < 0.9);

    /* bad input: nothing written */
    k.knee = SENTINEL;
    before = k;
    assert_status(llmm_knee_inflection_ex(conc, qps, 100, -0.1, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_inflection_ex(conc, qps, 100, 0.46, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_inflection_ex(conc, qps, 100, NAN, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_inflection_ex(conc, qps, 0, 0.1, &k), LLMM_E_EMPTY);
    assert_status(llmm_knee_inflection_ex(conc, qps, 5, 0.2, &k), LLMM_E_INVALID); /* 3 left */
    assert_status(llmm_knee_inflection_ex(NULL, qps, 100, 0.1, &k), LLMM_E_INVALID);
    qps[50] = NAN;
    assert_status(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k), LLMM_E_INVALID);
    qps[50] = 1.0;
    k.struct_size = 4;
    assert_status(llmm_knee_inflection_ex(conc, qps, 100, 0.1, &k), LLMM_E_ABI);
    k.struct_size = before.struct_size;
    assert_memory_equal(&k, &before, sizeof k);
    assert_status(llmm_knee_inflection(conc, qps, 100, 0.1, NULL), LLMM_E_INVALID);
    assert_status(llmm_knee_init(NULL), LLMM_E_INVALID);
    /* the trim count treats 0.29 × 100 as 29: 100 − 58 = 42 samples remain, enough */
    assert_ok(llmm_knee_inflection_ex(conc, qps, 100, 0.29, &k));
}

/* ---- knee: growth collapse ---------------------------------------------------------------- */

/* Piecewise linear: slope a1 up to K = 330, slope a2 after; samples every 2 from 100. */
#define PW_N 200
static void piecewise(double *conc, double *qps, double a1, double a2)
{
    size_t i;
    for (i = 0; i < PW_N; i++) {
        double n = 100.0 + 2.0 * (double)i;
        conc[i] = n;
        qps[i] = n <= 330.0 ? a1 * n : a1 * 330.0 + a2 * (n - 330.0);
    }
}

static void test_knee_collapse_exact(void **state)
{
    double conc[PW_N], qps[PW_N];
    const uint32_t widths[4] = {1, 3, 9, 21};
    llmm_knee k;
    int w;
    (void)state;
    piecewise(conc, qps, 10.0, 2.0);
    llmm_knee_init(&k);
    for (w = 0; w < 4; w++) {
        /* threshold halfway between the slopes: the symmetric smoothing ramp crosses it
         * exactly at the kink, whatever the width */
        assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.6, widths[w], &k));
        assert_int_equal(k.quality, LLMM_KNEE_OK);
        assert_close(k.knee, 330.0, 1e-12, 0.0);
        assert_close(k.qps, 3300.0, 1e-12, 0.0);
        assert_true(k.strength > 0.7 && k.strength <= 0.8 + 1e-12); /* gain 10 → 2 */
    }
    /* another threshold: the ramp of width w = 2h + 1 gains runs from the midpoint
     * 330 − (h + 1/2)·2 (all slope 10) to 330 + (h + 1/2)·2 (all slope 2), linearly, so
     * level L is crossed at 330 − (2h + 1) + (10 − L)/8 · 2(2h + 1). */
    for (w = 0; w < 4; w++) {
        double h = (double)(widths[w] / 2), level = 5.0;
        double expect = 330.0 - (2.0 * h + 1.0) + (10.0 - level) / 8.0 * 2.0 * (2.0 * h + 1.0);
        assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, widths[w], &k));
        assert_close(k.knee, expect, 1e-12, 0.0);
    }
    /* auto width: 2⌊199/40⌋ + 1 = 9 */
    {
        llmm_knee k9;
        llmm_knee_init(&k9);
        assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, 0, &k));
        assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, 9, &k9));
        assert_true(k.knee == k9.knee);
    }
}

static void test_knee_collapse_quality(void **state)
{
    double conc[PW_N], qps[PW_N];
    llmm_knee k, before;
    size_t i;
    (void)state;
    llmm_knee_init(&k);
    /* a straight line never collapses */
    for (i = 0; i < PW_N; i++) {
        conc[i] = (double)i + 1.0;
        qps[i] = 5.0 * conc[i];
    }
    assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    assert_true(isnan(k.knee));
    /* falling from the start: no initial growth */
    for (i = 0; i < PW_N; i++)
        qps[i] = 1000.0 - conc[i];
    assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    /* a dip that recovers is weak: slope 10, then 1 on [80, 120), then 10 again */
    for (i = 0; i < PW_N; i++) {
        double n = conc[i];
        qps[i] = n < 80.0 ? 10.0 * n : n < 120.0 ? 800.0 + (n - 80.0) : 840.0 + 10.0 * (n - 120.0);
    }
    assert_ok(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k));
    assert_int_equal(k.quality, LLMM_KNEE_WEAK);
    assert_close(k.knee, 80.0, 0.02, 0.0);

    /* bad input */
    piecewise(conc, qps, 10.0, 2.0);
    k.knee = SENTINEL;
    before = k;
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.0, 5, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 1.0, 5, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_collapse(conc, qps, PW_N, NAN, 5, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 4, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_collapse(conc, qps, 0, 0.5, 5, &k), LLMM_E_EMPTY);
    assert_status(llmm_knee_collapse(conc, qps, 6, 0.5, 5, &k), LLMM_E_INVALID); /* 5 gains */
    assert_status(llmm_knee_collapse(conc, qps, 2, 0.5, 1, &k), LLMM_E_INVALID);
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, NULL), LLMM_E_INVALID);
    conc[10] = conc[9]; /* duplicate concurrency */
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k), LLMM_E_INVALID);
    conc[10] = conc[9] - 1.0; /* unsorted */
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k), LLMM_E_INVALID);
    piecewise(conc, qps, 10.0, 2.0);
    qps[3] = INFINITY;
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k), LLMM_E_INVALID);
    qps[3] = 0.0;
    k.struct_size = 0;
    assert_status(llmm_knee_collapse(conc, qps, PW_N, 0.5, 5, &k), LLMM_E_ABI);
    k.struct_size = before.struct_size;
    assert_memory_equal(&k, &before, sizeof k);
}

/* ---- knee: Kneedle ------------------------------------------------------------------------ */

static void test_knee_kneedle_analytic(void **state)
{
    double conc[101], qps[101];
    llmm_knee k;
    size_t i;
    (void)state;
    llmm_knee_init(&k);
    /* Michaelis–Menten saturation QPS = 5000·N/(N + 100) on N = 0 … 1000: normalised it is
     * ŷ = (1 + k)x̂/(x̂ + k), k = 0.1, a rectangular hyperbola symmetric about x̂ + ŷ = 1, so
     * its maximum-curvature point (the vertex) and the maximum of ŷ − x̂ coincide at
     * x̂ = sqrt(k² + k) − k. */
    for (i = 0; i <= 100; i++) {
        conc[i] = 10.0 * (double)i;
        qps[i] = 5000.0 * conc[i] / (conc[i] + 100.0);
    }
    assert_ok(llmm_knee_kneedle(conc, qps, 101, 1.0, &k));
    assert_int_equal(k.quality, LLMM_KNEE_OK);
    {
        double expect = 1000.0 * (sqrt(0.11) - 0.1);
        assert_close(k.knee, expect, 0.05, 0.0); /* the acceptance figure */
        assert_close(k.knee, expect, 0.005, 0.0); /* and what the refinement achieves */
        assert_close(k.qps, 5000.0 * expect / (expect + 100.0), 0.005, 0.0);
        /* at the vertex ŷ = x̂·sqrt((1 + k)/k), so d = x̂(sqrt(11) − 1) */
        assert_close(k.strength, (sqrt(0.11) - 0.1) * (sqrt(11.0) - 1.0), 0.01, 0.0);
    }
    /* exponential saturation QPS = 1 − exp(−N/τ) on [0, X]: d = ŷ − x̂ peaks where
     * exp(−N/τ)/(τ(1 − exp(−X/τ))) = 1/X, N* = τ ln(X / (τ(1 − exp(−X/τ)))). Non-uniform
     * spacing: the samples are denser early on. */
    {
        const double tau = 120.0, X = 1000.0;
        double expect = tau * log(X / (tau * (1.0 - exp(-X / tau))));
        for (i = 0; i <= 100; i++) {
            double u = (double)i / 100.0;
            conc[i] = X * u * (0.5 + 0.5 * u);
            qps[i] = 1.0 - exp(-conc[i] / tau);
        }
        assert_ok(llmm_knee_kneedle(conc, qps, 101, 1.0, &k));
        assert_int_equal(k.quality, LLMM_KNEE_OK);
        assert_close(k.knee, expect, 0.005, 0.0);
    }
}

static void test_knee_kneedle_quality(void **state)
{
    double conc[50], qps[50];
    llmm_knee k, before;
    size_t i;
    (void)state;
    llmm_knee_init(&k);
    for (i = 0; i < 50; i++) {
        conc[i] = (double)i + 1.0;
        qps[i] = 2.0 * conc[i] + 1.0;
    }
    assert_ok(llmm_knee_kneedle(conc, qps, 50, 1.0, &k)); /* straight: d ≡ 0 */
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    for (i = 0; i < 50; i++)
        qps[i] = conc[i] * conc[i]; /* convex: d < 0 inside */
    assert_ok(llmm_knee_kneedle(conc, qps, 50, 1.0, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    for (i = 0; i < 50; i++)
        qps[i] = 4.0; /* constant */
    assert_ok(llmm_knee_kneedle(conc, qps, 50, 1.0, &k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    /* a concave curve whose difference never drops by S/(n − 1) after its maximum:
     * the global maximum is reported, weak */
    for (i = 0; i < 50; i++)
        qps[i] = sqrt(conc[i]);
    assert_ok(llmm_knee_kneedle(conc, qps, 50, 1000.0, &k));
    assert_int_equal(k.quality, LLMM_KNEE_WEAK);
    assert_ok(llmm_knee_kneedle(conc, qps, 50, 1.0, &k));
    assert_int_equal(k.quality, LLMM_KNEE_OK);
    /* sqrt on [1, 50]: ŷ − x̂ peaks where 1/(2 sqrt(N)·(sqrt(50) − 1)) = 1/49 */
    {
        double e = 49.0 / (2.0 * (sqrt(50.0) - 1.0));
        assert_close(k.knee, e * e, 0.01, 0.0);
    }
    /* a ripple after the maximum that is lower does not displace the knee */
    {
        double base_knee = k.knee;
        qps[20] += 0.02;
        assert_ok(llmm_knee_kneedle(conc, qps, 50, 1.0, &k));
        assert_close(k.knee, base_knee, 0.05, 0.0);
        qps[20] -= 0.02;
    }

    k.knee = SENTINEL;
    before = k;
    assert_status(llmm_knee_kneedle(conc, qps, 50, -1.0, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_kneedle(conc, qps, 50, INFINITY, &k), LLMM_E_RANGE);
    assert_status(llmm_knee_kneedle(conc, qps, 0, 1.0, &k), LLMM_E_EMPTY);
    assert_status(llmm_knee_kneedle(conc, qps, 2, 1.0, &k), LLMM_E_INVALID);
    assert_status(llmm_knee_kneedle(conc, NULL, 50, 1.0, &k), LLMM_E_INVALID);
    conc[7] = conc[6];
    assert_status(llmm_knee_kneedle(conc, qps, 50, 1.0, &k), LLMM_E_INVALID);
    conc[7] = NAN;
    assert_status(llmm_knee_kneedle(conc, qps, 50, 1.0, &k), LLMM_E_INVALID);
    conc[7] = 8.0;
    k.struct_size = 1000;
    assert_status(llmm_knee_kneedle(conc, qps, 50, 1.0, &k), LLMM_E_ABI);
    k.struct_size = before.struct_size;
    assert_memory_equal(&k, &before, sizeof k);
}

/* ---- USL ---------------------------------------------------------------------------------- */

static double usl_x(double l, double s, double kp, double n)
{
    return l * n / (1.0 + s * (n - 1.0) + kp * n * (n - 1.0));
}

static void usl_data(double *conc, double *qps, size_t n, double l, double s, double kp,
                     double noise)
{
    size_t i;
    for (i = 0; i < n; i++) {
        conc[i] = (double)(i + 1);
        qps[i] = usl_x(l, s, kp, conc[i]) * (1.0 + noise * gauss());
    }
}

static void test_usl_exact(void **state)
{
    double conc[200], qps[200];
    llmm_usl m;
    (void)state;
    assert_ok(llmm_usl_init(&m));
    assert_int_equal(m.struct_size, sizeof m);
    assert_int_equal(m.quality, LLMM_KNEE_NONE);
    usl_data(conc, qps, 200, 10.0, 0.02, 1e-4, 0.0);
    assert_ok(llmm_usl_fit(conc, qps, 200, &m));
    assert_close(m.lambda, 10.0, 1e-8, 0.0);
    assert_close(m.sigma, 0.02, 1e-7, 0.0);
    assert_close(m.kappa, 1e-4, 1e-7, 0.0);
    assert_true(m.n_max == floor(sqrt(0.98 / 1e-4))); /* 98 */
    assert_close(m.x_max, usl_x(10.0, 0.02, 1e-4, 98.0), 1e-8, 0.0);
    assert_close(m.r2, 1.0, 1e-12, 0.0);
    assert_int_equal(m.quality, LLMM_KNEE_OK);
    assert_int_equal(m.kappa_at_bound, 0);
    assert_true(m.iterations >= 1);

    /* batching gains: σ slightly negative */
    usl_data(conc, qps, 120, 3.0, -0.01, 2e-4, 0.0);
    assert_ok(llmm_usl_fit(conc, qps, 120, &m));
    assert_close(m.lambda, 3.0, 1e-8, 0.0);
    assert_close(m.sigma, -0.01, 1e-6, 0.0);
    assert_close(m.kappa, 2e-4, 1e-7, 0.0);
    assert_true(m.n_max == floor(sqrt(1.01 / 2e-4))); /* 71 */

    /* Amdahl: κ = 0, the fit holds κ at its bound; no peak */
    usl_data(conc, qps, 60, 7.0, 0.05, 0.0, 0.0);
    assert_ok(llmm_usl_fit(conc, qps, 60, &m));
    assert_close(m.lambda, 7.0, 1e-8, 0.0);
    assert_close(m.sigma, 0.05, 1e-7, 0.0);
    assert_true(m.kappa == 0.0);
    assert_int_equal(m.kappa_at_bound, 1);
    assert_true(isinf(m.n_max));
    assert_close(m.x_max, 7.0 / 0.05, 1e-7, 0.0);
    assert_int_equal(m.quality, LLMM_KNEE_WEAK);
}

static void test_usl_noisy(void **state)
{
    double conc[200], qps[200];
    llmm_usl m;
    uint64_t seed;
    (void)state;
    llmm_usl_init(&m);
    /* the acceptance case over several seeds: σ = 0.02, κ = 0.0001, λ = 10, 2 % noise */
    for (seed = 1; seed <= 10; seed++) {
        rng_state = seed * 0x9E3779B97F4A7C15ULL;
        usl_data(conc, qps, 200, 10.0, 0.02, 1e-4, 0.02);
        assert_ok(llmm_usl_fit(conc, qps, 200, &m));
        assert_close(m.n_max, 98.0, 0.05, 0.0);
        assert_close(m.lambda, 10.0, 0.05, 0.0);
        assert_close(m.x_max, usl_x(10.0, 0.02, 1e-4, 98.0), 0.02, 0.0);
        assert_true(m.r2 > 0.9);
        assert_int_equal(m.quality, LLMM_KNEE_OK);
    }
}

static void test_usl_model_calls(void **state)
{
    llmm_usl m;
    double x = SENTINEL, lat, n;
    int i;
    (void)state;
    llmm_usl_init(&m);
    m.lambda = 10.0;
    m.sigma = 0.02;
    m.kappa = 1e-4;
    assert_ok(llmm_usl_throughput(&m, 50.0, &x));
    assert_close(x, usl_x(10.0, 0.02, 1e-4, 50.0), 1e-15, 0.0);
    assert_ok(llmm_usl_latency(&m, 50.0, &lat));
    assert_close(lat, 50.0 / x, 1e-15, 0.0);
    /* the SLO concurrency against a brute-force scan of N/X(N) */
    {
        const double slos[5] = {0.05, 0.1, 0.5, 1.0, 3.7};
        int s;
        for (s = 0; s < 5; s++) {
            double best = 0.0;
            for (i = 1; i < 100000; i++)
                if ((double)i / usl_x(10.0, 0.02, 1e-4, (double)i) <= slos[s])
                    best = (double)i;
            assert_ok(llmm_usl_slo_concurrency(&m, slos[s], &n));
            assert_true(n == best);
        }
    }
    /* κ = 0: linear latency growth with σ > 0, unbounded with σ ≤ 0 */
    m.kappa = 0.0;
    assert_ok(llmm_usl_slo_concurrency(&m, 1.0, &n));
    assert_true(n == floor(1.0 + (10.0 - 1.0) / 0.02)); /* 451 */
    m.sigma = 0.0;
    assert_ok(llmm_usl_slo_concurrency(&m, 1.0, &n));
    assert_true(isinf(n));
    m.sigma = 0.02;
    m.kappa = 1e-4;

    /* bad input, outputs untouched */
    x = SENTINEL;
    assert_status(llmm_usl_throughput(&m, 0.0, &x), LLMM_E_INVALID);
    assert_status(llmm_usl_throughput(&m, NAN, &x), LLMM_E_INVALID);
    assert_status(llmm_usl_throughput(NULL, 1.0, &x), LLMM_E_INVALID);
    assert_status(llmm_usl_throughput(&m, 1.0, NULL), LLMM_E_INVALID);
    assert_status(llmm_usl_slo_concurrency(&m, 0.0, &x), LLMM_E_INVALID);
    assert_status(llmm_usl_slo_concurrency(&m, -1.0, &x), LLMM_E_INVALID);
    m.lambda = -1.0;
    assert_status(llmm_usl_latency(&m, 1.0, &x), LLMM_E_INVALID);
    m.lambda = 10.0;
    m.kappa = -1e-4;
    assert_status(llmm_usl_latency(&m, 1.0, &x), LLMM_E_INVALID);
    m.kappa = 0.0;
    m.sigma = -0.5; /* denominator 1 − 0.5(N − 1) ≤ 0 from N = 3 */
    assert_status(llmm_usl_throughput(&m, 3.0, &x), LLMM_E_RANGE);
    m.sigma = 0.02;
    m.struct_size = 3;
    assert_status(llmm_usl_throughput(&m, 3.0, &x), LLMM_E_ABI);
    assert_status(llmm_usl_slo_concurrency(&m, 1.0, &x), LLMM_E_ABI);
    assert_true(x == SENTINEL);
    /* an SLO below the single-request latency 1/λ admits nothing */
    llmm_usl_init(&m);
    m.lambda = 10.0;
    m.sigma = 0.02;
    m.kappa = 1e-4;
    assert_ok(llmm_usl_slo_concurrency(&m, 0.09, &n));
    assert_true(n == 0.0);
    assert_status(llmm_usl_init(NULL), LLMM_E_INVALID);
}

static void test_usl_errors(void **state)
{
    double conc[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, qps[10];
    llmm_usl m, before;
    int i;
    (void)state;
    for (i = 0; i < 10; i++)
        qps[i] = usl_x(10.0, 0.02, 1e-3, conc[i]);
    llmm_usl_init(&m);
    before = m;
    assert_status(llmm_usl_fit(conc, qps, 5, &m), LLMM_E_INVALID);
    assert_status(llmm_usl_fit(conc, qps, 0, &m), LLMM_E_EMPTY);
    assert_status(llmm_usl_fit(NULL, qps, 10, &m), LLMM_E_INVALID);
    assert_status(llmm_usl_fit(conc, qps, 10, NULL), LLMM_E_INVALID);
    qps[3] = 0.0;
    assert_status(llmm_usl_fit(conc, qps, 10, &m), LLMM_E_INVALID);
    qps[3] = NAN;
    assert_status(llmm_usl_fit(conc, qps, 10, &m), LLMM_E_INVALID);
    qps[3] = usl_x(10.0, 0.02, 1e-3, 4.0);
    conc[0] = -1.0;
    assert_status(llmm_usl_fit(conc, qps, 10, &m), LLMM_E_INVALID);
    {
        double two[8] = {1, 2, 1, 2, 1, 2, 1, 2}; /* two distinct concurrencies */
        assert_status(llmm_usl_fit(two, qps, 8, &m), LLMM_E_INVALID);
    }
    conc[0] = 1.0;
    m.struct_size = 16;
    assert_status(llmm_usl_fit(conc, qps, 10, &m), LLMM_E_ABI);
    m.struct_size = before.struct_size;
    assert_memory_equal(&m, &before, sizeof m);
    /* six points are enough */
    assert_ok(llmm_usl_fit(conc, qps, 6, &m));
    assert_close(m.kappa, 1e-3, 1e-6, 0.0);
}

/* ---- report ------------------------------------------------------------------------------- */

static void test_knee_report(void **state)
{
    double conc[200], qps[200];
    llmm_knee ki, kc, kk, one;
    llmm_usl u;
    llmm_knee_options o;
    (void)state;
    assert_ok(llmm_knee_options_init(&o));
    assert_true(o.trim == 0.1 && o.collapse_fraction == 0.5 && o.kneedle_sensitivity == 1.0);
    assert_int_equal(o.smooth, 0);
    llmm_knee_init(&ki);
    llmm_knee_init(&kc);
    llmm_knee_init(&kk);
    llmm_usl_init(&u);
    usl_data(conc, qps, 200, 10.0, 0.02, 1e-4, 0.0);
    assert_ok(llmm_knee_report(conc, qps, 200, NULL, &ki, &kc, &kk, &u));
    /* each result is what the single call gives */
    llmm_knee_init(&one);
    assert_ok(llmm_knee_inflection_ex(conc, qps, 200, 0.1, &one));
    assert_memory_equal(&one, &ki, sizeof one);
    assert_ok(llmm_knee_collapse(conc, qps, 200, 0.5, 0, &one));
    assert_memory_equal(&one, &kc, sizeof one);
    assert_ok(llmm_knee_kneedle(conc, qps, 200, 1.0, &one));
    assert_memory_equal(&one, &kk, sizeof one);
    assert_true(u.n_max == 98.0);
    assert_int_equal(kk.quality, LLMM_KNEE_OK);
    assert_int_equal(kc.quality, LLMM_KNEE_OK);
    /* every estimator puts the knee before the throughput peak */
    assert_true(kc.knee < 98.0 && kk.knee < 98.0);

    /* options are honoured; outputs may be skipped */
    o.trim = 0.2;
    assert_ok(llmm_knee_report(conc, qps, 200, &o, &ki, NULL, NULL, NULL));
    assert_ok(llmm_knee_inflection_ex(conc, qps, 200, 0.2, &one));
    assert_memory_equal(&one, &ki, sizeof one);

    /* too few points for the USL: no model, not an error */
    assert_ok(llmm_knee_report(conc, qps, 5, NULL, NULL, NULL, &kk, &u));
    assert_int_equal(u.quality, LLMM_KNEE_NONE);
    assert_true(isnan(u.lambda));

    /* invalid input writes nothing */
    {
        llmm_knee bk = ki;
        o.trim = 0.5;
        assert_status(llmm_knee_report(conc, qps, 200, &o, &ki, NULL, NULL, NULL), LLMM_E_RANGE);
        o.trim = 0.1;
        o.smooth = 2;
        assert_status(llmm_knee_report(conc, qps, 200, &o, &ki, NULL, NULL, NULL), LLMM_E_RANGE);
        o.smooth = 0;
        o.struct_size = 1;
        assert_status(llmm_knee_report(conc, qps, 200, &o, &ki, NULL, NULL, NULL), LLMM_E_ABI);
        llmm_knee_options_init(&o);
        assert_status(llmm_knee_report(conc, qps, 200, &o, NULL, NULL, NULL, NULL),
                      LLMM_E_INVALID);
        assert_status(llmm_knee_report(conc, qps, 0, &o, &ki, NULL, NULL, NULL), LLMM_E_EMPTY);
        conc[100] = conc[99];
        assert_status(llmm_knee_report(conc, qps, 200, &o, &ki, NULL, NULL, NULL),
                      LLMM_E_INVALID);
        conc[100] = 101.0;
        kc.struct_size = 2;
        assert_status(llmm_knee_report(conc, qps, 200, &o, &ki, &kc, NULL, NULL), LLMM_E_ABI);
        assert_memory_equal(&bk, &ki, sizeof ki);
        assert_status(llmm_knee_options_init(NULL), LLMM_E_INVALID);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polyfit_numpy_vectors),
        cmocka_unit_test(test_polyfit_exact_recovery),
        cmocka_unit_test(test_polyfit_stats),
        cmocka_unit_test(test_polyfit_high_degree),
        cmocka_unit_test(test_polyfit_weighted),
        cmocka_unit_test(test_polyfit_errors_leave_outputs),
        cmocka_unit_test(test_poly_eval_residuals),
        cmocka_unit_test(test_poly_deriv),
        cmocka_unit_test(test_roots_numpy_vectors),
        cmocka_unit_test(test_roots_structure),
        cmocka_unit_test(test_roots_errors),
        cmocka_unit_test(test_knee_inflection_exact),
        cmocka_unit_test(test_knee_inflection_quality),
        cmocka_unit_test(test_knee_collapse_exact),
        cmocka_unit_test(test_knee_collapse_quality),
        cmocka_unit_test(test_knee_kneedle_analytic),
        cmocka_unit_test(test_knee_kneedle_quality),
        cmocka_unit_test(test_usl_exact),
        cmocka_unit_test(test_usl_noisy),
        cmocka_unit_test(test_usl_model_calls),
        cmocka_unit_test(test_usl_errors),
        cmocka_unit_test(test_knee_report),
    };
    return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
