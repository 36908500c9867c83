/* Real roots of a polynomial: eigenvalues of the balanced companion matrix by the Francis
 * double-shift QR iteration, then Newton polishing on the original coefficients.
 *
 * Why eigenvalues: they find every root at once with backward stability (the roots found are
 * exact for coefficients perturbed by a few ulps, after balancing), with no starting guesses
 * and no deflation of the polynomial, which is what makes successive-Newton schemes fragile.
 * The companion matrix is already upper Hessenberg, so the iteration starts at once. */
#include <float.h>
#include <math.h>

#include "fit_internal.h"

#define MAXN LLMM_POLY_MAX_DEGREE
/* Iterations allowed for one eigenvalue (or pair) before giving up; 10 and 20 use
 * exceptional shifts to break cycles. */
#define MAX_ITS 60

/* Diagonal similarity by powers of two (exact) so that each row and column have comparable
 * norms (Parlett–Reinsch); eigenvalues unchanged, rounding errors no longer dominated by the
 * largest coefficient ratio. */
static void balance(double a[MAXN][MAXN], int n)
{
    int sweep, i, j, changed = 1;
    for (sweep = 0; changed && sweep < 100; sweep++) {
        changed = 0;
        for (i = 0; i < n; i++) {
            double c = 0.0, r = 0.0, f = 1.0, s, g;
            for (j = 0; j < n; j++) {
                if (j == i)
                    continue;
                c += fabs(a[j][i]);
                r += fabs(a[i][j]);
            }
            if (c == 0.0 || r == 0.0)
                continue;
            s = c + r;
            g = r / 2.0;
            while (c < g) {
                f *= 2.0;
                c *= 4.0;
            }
            g = r * 2.0;
            while (c >= g) {
                f /= 2.0;
                c /= 4.0;
            }
            if ((c + r) / f < 0.95 * s) {
                changed = 1;
                for (j = 0; j < n; j++)
                    a[i][j] /= f;
                for (j = 0; j < n; j++)
                    a[j][i] *= f;
            }
        }
    }
}

/* Eigenvalues of [[a, b], [c, d]]. */
static void eig2(double a, double b, double c, double d, double *wr, double *wi)
{
    double p = 0.5 * (a - d), disc = p * p + b * c;
    if (disc >= 0.0) {
        double z = p + copysign(sqrt(disc), p);
        wr[0] = d + z;
        wr[1] = z != 0.0 ? d - (b * c) / z : d;
        wi[0] = wi[1] = 0.0;
    } else {
        wr[0] = wr[1] = d + p;
        wi[0] = sqrt(-disc);
        wi[1] = -wi[0];
    }
}

/* Reflector I − τ·v·vᵀ with v = (1, v1, v2) mapping (x, y, z) to (β, 0, 0). Returns 0 when
 * (y, z) is already zero (nothing to do). */
static int reflector(double x, double y, double z, double *v1, double *v2, double *tau)
{
    double s = sqrt(x * x + y * y + z * z), beta, v0;
    if (y == 0.0 && z == 0.0)
        return 0;
    beta = x > 0.0 ? -s : s;
    v0 = x - beta;
    *v1 = y / v0;
    *v2 = z / v0;
    *tau = -v0 / beta;
    return 1;
}

/* One Francis double-shift sweep over the active block l … nn (nn − l ≥ 2). */
static void francis_step(double h[MAXN][MAXN], int l, int nn, double tr, double det)
{
    double x, y, z, v1 = 0.0, v2 = 0.0, tau = 0.0;
    int k, i, j;

    x = h[l][l] * h[l][l] + h[l][l + 1] * h[l + 1][l] - tr * h[l][l] + det;
    y = h[l + 1][l] * (h[l][l] + h[l + 1][l + 1] - tr);
    z = h[l + 1][l] * h[l + 2][l + 1];
    for (k = l; k <= nn - 1; k++) {
        int last = k == nn - 1; /* the final reflector acts on two rows only */
        int c0 = k > l ? k - 1 : l, rmax = k + 3 < nn ? k + 3 : nn;
        if (last)
            z = 0.0;
        if (reflector(x, y, z, &v1, &v2, &tau)) {
            for (j = c0; j <= nn; j++) {
                double w = h[k][j] + v1 * h[k + 1][j] + (last ? 0.0 : v2 * h[k + 2][j]);
                w *= tau;
                h[k][j] -= w;
                h[k + 1][j] -= w * v1;
                if (!last)
                    h[k + 2][j] -= w * v2;
            }
            for (i = l; i <= rmax; i++) {
                double w = h[i][k] + v1 * h[i][k + 1] + (last ? 0.0 : v2 * h[i][k + 2]);
                w *= tau;
                h[i][k] -= w;
                h[i][k + 1] -= w * v1;
                if (!last)
                    h[i][k + 2] -= w * v2;
            }
            if (k > l) { /* the bulge below the subdiagonal is gone exactly */
                h[k + 1][k - 1] = 0.0;
                if (!last)
                    h[k + 2][k - 1] = 0.0;
            }
        }
        if (!last) {
            x = h[k + 1][k];
            y = h[k + 2][k];
            z = k + 3 <= nn ? h[k + 3][k] : 0.0;
        }
    }
}

/* All eigenvalues of the upper Hessenberg h (n×n). Returns 0 if the iteration stalls. */
static int hessenberg_eig(double h[MAXN][MAXN], int n, double *wr, double *wi)
{
    int nn = n - 1, its = 0;
    double anorm = 0.0;
    int i, j;

    for (i = 0; i < n; i++)
        for (j = i > 0 ? i - 1 : 0; j < n; j++)
            anorm += fabs(h[i][j]);
    while (nn >= 0) {
        int l;
        double tr, det;
        for (l = nn; l > 0; l--) {
            double s = fabs(h[l - 1][l - 1]) + fabs(h[l][l]);
            if (s == 0.0)
                s = anorm;
            if (fabs(h[l][l - 1]) <= DBL_EPSILON * s) {
                h[l][l - 1] = 0.0;
                break;
            }
        }
        if (l == nn) {
            wr[nn] = h[nn][nn];
            wi[nn] = 0.0;
            nn--;
            its = 0;
            continue;
        }
        if (l == nn - 1) {
            eig2(h[nn - 1][nn - 1], h[nn - 1][nn], h[nn][nn - 1], h[nn][nn], wr + nn - 1,
                 wi + nn - 1);
            nn -= 2;
            its = 0;
            continue;
        }
        if (++its > MAX_ITS)
            return 0;
        if (its % 10 == 0) {
            /* Exceptional shift: a complex pair near the bottom corner, off any cycle. */
            double v = fabs(h[nn][nn - 1]) + fabs(h[nn - 1][nn - 2]);
            double re = h[nn][nn] + 0.75 * v, im = 0.4375 * v;
            tr = 2.0 * re;
            det = re * re + im * im;
        } else {
            tr = h[nn - 1][nn - 1] + h[nn][nn];
            det = h[nn - 1][nn - 1] * h[nn][nn] - h[nn - 1][nn] * h[nn][nn - 1];
        }
        francis_step(h, l, nn, tr, det);
    }
    return 1;
}

/* p(x) and p'(x) by Horner; *bound = Σ|a_i||x|^(m−i), the scale of p's rounding error. */
static double horner2(const double *a, int m, double x, double *dp, double *bound)
{
    double p = a[0], d = 0.0, b = fabs(a[0]), ax = fabs(x);
    int i;
    for (i = 1; i <= m; i++) {
        d = d * x + p;
        p = p * x + a[i];
        b = b * ax + fabs(a[i]);
    }
    if (dp)
        *dp = d;
    if (bound)
        *bound = b;
    return p;
}

/* Newton's method from x0, each step kept only if it lowers |p|, never moving farther than
 * radius from x0 (so it cannot jump to a neighbouring root). */
static double polish(const double *a, int m, double x0, double radius)
{
    double x = x0, dp, px = fabs(horner2(a, m, x0, &dp, NULL));
    int it;
    for (it = 0; it < 8 && px > 0.0 && dp != 0.0; it++) {
        double step = horner2(a, m, x, &dp, NULL) / dp, xn = x - step, pn, dpn;
        if (!llmm__is_finite(xn) || fabs(xn - x0) > radius)
            break;
        pn = fabs(horner2(a, m, xn, &dpn, NULL));
        if (pn >= px)
            break;
        x = xn;
        px = pn;
        dp = dpn;
        if (fabs(step) <= 2.0 * DBL_EPSILON * fabs(x))
            break;
    }
    return x;
}

llmm_status llmm_poly_roots(const double *coeffs, uint32_t degree, double *roots, size_t cap,
                            size_t *nroots)
{
    double h[MAXN][MAXN], wr[MAXN], wi[MAXN], found[MAXN + 1];
    const double *a;
    int m, i, j, count = 0;
    uint32_t lead = 0;

    if (!coeffs || !nroots || (!roots && cap > 0))
        return LLMM_E_INVALID;
    if (!llmm__all_finite(coeffs, (size_t)degree + 1))
        return LLMM_E_INVALID;
    while (lead <= degree && coeffs[lead] == 0.0)
        lead++;
    if (lead > degree)
        return LLMM_E_INVALID; /* the zero polynomial */
    if (degree - lead > MAXN)
        return LLMM_E_RANGE;
    a = coeffs + lead;
    m = (int)(degree - lead);
    while (m > 0 && a[m] == 0.0) { /* x^k factors: exact roots at 0 */
        m--;
        found[count++] = 0.0;
    }

    if (m > 0) {
        for (i = 0; i < m; i++)
            for (j = 0; j < m; j++)
                h[i][j] = 0.0;
        for (j = 0; j < m; j++) {
            h[0][j] = -a[j + 1] / a[0];
            if (!llmm__is_finite(h[0][j]))
                return LLMM_E_RANGE;
        }
        for (i = 1; i < m; i++)
            h[i][i - 1] = 1.0;
        balance(h, m);
        if (!hessenberg_eig(h, m, wr, wi))
            return LLMM_E_NOT_CONVERGED;
        for (i = 0; i < m; i++) {
            double x = wr[i], bound, radius;
            if (wi[i] != 0.0) {
                /* A complex pair counts only if its real part is a root to working precision:
                 * a multiple real root split by rounding. */
                double px = fabs(horner2(a, m, x, NULL, &bound));
                if (px > 8.0 * (double)m * DBL_EPSILON * bound)
                    continue;
            }
            radius = 1e-3 * fmax(1.0, fabs(x)) + 2.0 * fabs(wi[i]);
            found[count++] = polish(a, m, x, radius);
        }
    }

    /* insertion sort, ascending */
    for (i = 1; i < count; i++) {
        double v = found[i];
        for (j = i; j > 0 && found[j - 1] > v; j--)
            found[j] = found[j - 1];
        found[j] = v;
    }
    *nroots = (size_t)count;
    if ((size_t)count > cap)
        return LLMM_E_BUFFER;
    for (i = 0; i < count; i++)
        roots[i] = found[i];
    return LLMM_OK;
}
