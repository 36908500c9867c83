/* Polynomial evaluation, residuals and derivatives (coefficients highest power first). */
#include <math.h>

#include "fit_internal.h"

llmm_status llmm_poly_eval(const double *coeffs, uint32_t degree, double x, double *y)
{
    double s;
    uint32_t i;
    if (!coeffs || !y || !llmm__is_finite(x))
        return LLMM_E_INVALID;
    if (!llmm__all_finite(coeffs, (size_t)degree + 1))
        return LLMM_E_INVALID;
    s = coeffs[0];
    for (i = 1; i <= degree; i++)
        s = s * x + coeffs[i];
    *y = s;
    return LLMM_OK;
}

/* Horner's rule with the rounding error of every step carried along (error-free
 * transformations), then added back once: as accurate as Horner in twice the precision. */
static double comp_horner(const double *a, uint32_t degree, double x)
{
    double s = a[0], e = 0.0;
    uint32_t i;
    for (i = 1; i <= degree; i++) {
        llmm__dd p = llmm__two_prod(s, x);
        llmm__dd t = llmm__two_sum(p.hi, a[i]);
        s = t.hi;
        e = e * x + (p.lo + t.lo);
    }
    return s + e;
}

llmm_status llmm_poly_residuals(const double *coeffs, uint32_t degree, const double *x,
                                const double *y, size_t n, double *residuals, double *rss)
{
    double sum = 0.0;
    size_t i;
    if (!residuals && !rss)
        return LLMM_E_INVALID;
    if (!coeffs || !llmm__all_finite(coeffs, (size_t)degree + 1))
        return LLMM_E_INVALID;
    if (n > 0 && (!x || !y || !llmm__all_finite(x, n) || !llmm__all_finite(y, n)))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++) {
        double r = y[i] - comp_horner(coeffs, degree, x[i]);
        if (residuals)
            residuals[i] = r;
        sum += r * r;
    }
    if (rss)
        *rss = sum;
    return LLMM_OK;
}

llmm_status llmm_poly_deriv(const double *coeffs, uint32_t degree, uint32_t order, double *out,
                            uint32_t *out_degree)
{
    uint32_t i, j, nd;
    if (!coeffs || !out || !llmm__all_finite(coeffs, (size_t)degree + 1))
        return LLMM_E_INVALID;
    if (order > degree) {
        out[0] = 0.0;
        if (out_degree)
            *out_degree = 0;
        return LLMM_OK;
    }
    nd = degree - order;
    /* out[i] multiplies x^(nd − i); it came from x^(degree − i), whose order-th derivative has
     * the falling factorial (degree − i)(degree − i − 1)…(nd − i + 1). Reading coeffs[i] before
     * writing out[i] keeps the in-place case correct. */
    for (i = 0; i <= nd; i++) {
        double f = 1.0;
        for (j = 0; j < order; j++)
            f *= (double)(degree - i - j);
        out[i] = coeffs[i] * f;
    }
    if (out_degree)
        *out_degree = nd;
    return LLMM_OK;
}
