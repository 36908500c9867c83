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

#include "common/pow5.h"

/* The high and low 64 bits of a * b. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

static int leading_zeros(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* m * 10^e10 by a 128-bit product (the method of Eisel and Lemire): with w = m shifted to
 * its top bit and 5^e10 ~= t * 2^e (pow5.h, t rounded to nearest: |error| <= 1/2), the top
 * 128 bits X of w * t are within 2 of those of the exact product, so the value's 54 leading
 * bits (53 and the rounding bit) are right unless the 73 or 74 bits below them are within 3
 * of a boundary, where rounding could go either way (this covers exact ties): then 0, and the
 * caller asks strtod(). */
static int decimal_wide(uint64_t m, long e10, int neg, double *out)
{
    uint64_t w, h1, l1, h2, l2, hi, lo, mask, m54, mant, bits;
    int lz, shift;
    long exp2, biased;
    if (e10 < LLMM_CLI_POW5_MIN || e10 > LLMM_CLI_POW5_MAX)
        return 0;
    lz = leading_zeros(m);
    w = m << lz;
    mul64(w, pow5[e10 - LLMM_CLI_POW5_MIN].hi, &h1, &l1);
    mul64(w, pow5[e10 - LLMM_CLI_POW5_MIN].lo, &h2, &l2);
    lo = l1 + h2;
    hi = h1 + (lo < l1);
    shift = (int)(hi >> 63) + 9; /* X's top bit is 127 or 126: keep 54 bits of hi */
    mask = ((uint64_t)1 << shift) - 1;
    if (((hi & mask) == 0 && lo < 3) || ((hi & mask) == mask && lo > UINT64_MAX - 3))
        return 0;
    m54 = hi >> shift;
    mant = (m54 + 1) >> 1;
    exp2 = (long)shift + 117 - 52 + 64 + pow5[e10 - LLMM_CLI_POW5_MIN].e + e10 - lz;
    if (mant >> 53) { /* rounded up to 2^53 */
        mant >>= 1;
        exp2++;
    }
    biased = exp2 + 52 + 1023;
    if (biased < 1 || biased > 2046)
        return 0;
    bits = ((uint64_t)neg << 63) | ((uint64_t)biased << 52) | (mant & (((uint64_t)1 << 52) - 1));
    memcpy(out, &bits, sizeof *out);
    return 1;
}

/* Clinger's fast path first: a mantissa m <= 2^53 and a power of ten 10^e with |e| <= 22 are
 * exact doubles, and m * 10^e or m / 10^-e is one correctly rounded IEEE operation, so the
 * result is the correctly rounded value strtod() returns. On a build that evaluates doubles
 * in extended precision it would round twice: both fast paths are off there. */
int llmm_cli_decimal(uint64_t m, long e10, int neg, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double v;
    if (m == 0) {
        *out = neg ? -0.0 : 0.0;
        return 1;
    }
    if (m <= ((uint64_t)1 << 53) && e10 >= -22 && e10 <= 22) {
        v = e10 >= 0 ? (double)m * p10[e10] : (double)m / p10[-e10];
        *out = neg ? -v : v;
        return 1;
    }
    return decimal_wide(m, e10, neg, out);
#else
    (void)m;
    (void)e10;
    (void)neg;
    (void)out;
    return 0;
#endif
}

/* strtod on s: 1 for a finite number, 2 for one whose digits are not all 0 that rounds to 0
 * (1e-400), else 0. */
static int slow_number(const char *s, size_t len, double *out)
{
    char buf[1024]; /* a JSON token (input/json.h) is at most 512 bytes */
    char *end;
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    *out = strtod(buf, &end);
    if (end != buf + len || !isfinite(*out))
        return 0;
    if (*out != 0.0)
        return 1;
    return strcspn(buf, "123456789") < strcspn(buf, "eE") ? 2 : 1;
}

/* At most 19 significant digits go to llmm_cli_decimal(); everything else, and what it
 * declines, to strtod(). */
int llmm_cli_number(const char *s, size_t len, double *out)
{
    size_t i = 0;
    int neg = 0, sig = 0, any = 0;
    long exp10 = 0;
    uint64_t m = 0;
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
    if (i != len || !llmm_cli_decimal(m, exp10, neg, out))
        goto slow;
    return LLMM_CLI_OK;
slow:
    return slow_number(s, len, out) == 1 ? LLMM_CLI_OK : LLMM_CLI_EPARSE;
}

int llmm_cli_number_underflows(const char *s, size_t len)
{
    double v;
    return slow_number(s, len, &v) == 2;
}

double llmm_cli_rel_error(int32_t scale)
{
    double b = pow(2.0, pow(2.0, -(double)scale));
    return (b - 1) / (b + 1);
}

int llmm_cli_token_count_ok(double v)
{
    return v == floor(v) && v <= 9.0e15;
}
