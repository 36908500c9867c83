/* numbers.c: decimal numbers, sorting, exact percentiles, sketch error bounds (numbers.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "common/error.h"
#include "common/numbers.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

void llmm_cli_sort(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_double);
}

/* numpy (>= 1.22) 'linear' method, step by step as numpy does it, so that the result is the
 * same double: q = p / 100, virtual index h = (n - 1)·q, neighbours floor(h) and floor(h) + 1
 * (both the last element when h ≥ n − 1), weight t = h − floor(h), and numpy's two-sided
 * interpolation: a + (b − a)·t for t < 0.5, b − (b − a)·(1 − t) otherwise. */
double llmm_cli_linear_percentile(const double *sorted, size_t n, double p)
{
    double q = p / 100.0;
    double h = (double)(n - 1) * q;
    double lo_f = floor(h);
    size_t lo, hi;
    double t, a, b, d;
    if (h >= (double)(n - 1))
        return sorted[n - 1];
    if (h < 0)
        return sorted[0];
    lo = (size_t)lo_f;
    hi = lo + 1;
    t = h - lo_f;
    a = sorted[lo];
    b = sorted[hi];
    d = b - a;
    if (t >= 0.5)
        return b - d * (1.0 - t);
    return a + d * t;
}

double llmm_cli_nearest_rank(const double *sorted, size_t n, double q)
{
    double r = q * (double)n;
    double rr = nearbyint(r);
    size_t rank;
    if (fabs(r - rr) <= 1e-9)
        r = rr;
    r = ceil(r);
    rank = r < 1.0 ? 1 : (r >= (double)n ? n : (size_t)r);
    return sorted[rank - 1];
}

/* ---- decimal numbers ----------------------------------------------------------------------- */

/* Clinger's fast path: a decimal with at most 19 significant digits whose integer mantissa m
 * is at most 2^53 and whose power of ten 10^e has |e| <= 22 is m * 10^e or m / 10^-e, one
 * correctly rounded IEEE operation on two exactly representable doubles, so the result is the
 * correctly rounded value strtod() returns. Everything else goes to strtod(). On a build that
 * evaluates doubles in extended precision the fast path would round twice: it is off there. */
int llmm_cli_number(const char *s, size_t len, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    int neg = 0, sig = 0, any = 0;
    long exp10 = 0;
    uint64_t m = 0;
    double v;
    if (i < len && s[i] == '-') {
        neg = 1;
        i++;
    }
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = 1) {
        if (m || s[i] != '0') {
            if (++sig > 19)
                goto slow;
            m = m * 10 + (uint64_t)(s[i] - '0');
        }
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = 1) {
            if (m || s[i] != '0') {
                if (++sig > 19)
                    goto slow;
                m = m * 10 + (uint64_t)(s[i] - '0');
            }
            exp10--;
        }
    }
    if (!any)
        goto slow;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0;
        long e = 0;
        size_t start;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        start = i;
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            if (e > 100000)
                goto slow;
            e = e * 10 + (s[i] - '0');
        }
        if (i == start)
            goto slow;
        exp10 += eneg ? -e : e;
    }
    if (i != len || m > ((uint64_t)1 << 53))
        goto slow;
    if (m == 0)
        v = 0.0;
    else if (exp10 >= 0 && exp10 <= 22)
        v = (double)m * p10[exp10];
    else if (exp10 < 0 && exp10 >= -22)
        v = (double)m / p10[-exp10];
    else
        goto slow;
    *out = neg ? -v : v;
    return isfinite(*out) ? LLMM_CLI_OK : LLMM_CLI_EPARSE;
slow:
#endif
    {
        char buf[1024]; /* a JSON token (input/json.h) is at most 512 bytes */
        char *end;
        if (len == 0 || len >= sizeof buf)
            return LLMM_CLI_EPARSE;
        memcpy(buf, s, len);
        buf[len] = '\0';
        *out = strtod(buf, &end);
        return end == buf + len && isfinite(*out) ? LLMM_CLI_OK : LLMM_CLI_EPARSE;
    }
}

double llmm_cli_rel_error(int32_t scale)
{
    double b = pow(2.0, pow(2.0, -(double)scale));
    return (b - 1) / (b + 1);
}
