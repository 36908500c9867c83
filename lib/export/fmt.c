/* Float spelling that matches Prometheus (Go) byte for byte.
 *
 * Go's strconv.FormatFloat(v, 'g', -1, 64) prints the shortest decimal that reads back as
 * v (the closest one when several have that length), in %e form when the decimal exponent is
 * below -4 or at least 6 (two-digit exponent at least: 1e+06, 5e-05), in %f form otherwise.
 * Prometheus labels (`le`, `quantile`) use that string with ".0" appended when it has neither
 * '.' nor 'e'. The same `le` must come out of our text exposition as out of Prometheus'
 * decoding of our protobuf, or the series would split in two.
 *
 * The shortest digits come from C's correctly rounded printf / strtod: the closest p-digit
 * decimal reads back as v for every p from some p0 on (a closer decimal cannot leave the
 * rounding interval), so a binary search finds p0. Just below a power of two the interval
 * is lopsided and a p0-1 digit neighbour of the closest decimal may still read back; that
 * case is checked too. Everything goes through the C locale's printf output as produced, so
 * a non-'.' radix character of the current locale is carried into the strtod check and
 * replaced by '.' in the output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_internal.h"

typedef struct decimal {
    char d[24]; /* significant digits, no leading zero */
    int nd;     /* number of digits */
    int dp;     /* value = 0.d[0]d[1]... × 10^dp */
} decimal;

/* printf "%.*e" split into digits and exponent; the radix text is copied to `radix`. */
static void sci_digits(double v, int p, decimal *out, char *radix, size_t radix_cap)
{
    char buf[64];
    int i = 0, e = 0, neg = 0, r = 0;

    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    out->nd = 0;
    out->d[out->nd++] = buf[i++];
    while (buf[i] && (buf[i] < '0' || buf[i] > '9') && buf[i] != 'e') {
        if ((size_t)r + 1 < radix_cap)
            radix[r++] = buf[i];
        i++;
    }
    if (radix_cap)
        radix[r] = '\0';
    while (buf[i] >= '0' && buf[i] <= '9')
        out->d[out->nd++] = buf[i++];
    if (buf[i] == 'e') {
        i++;
        if (buf[i] == '-')
            neg = 1;
        if (buf[i] == '-' || buf[i] == '+')
            i++;
        while (buf[i] >= '0' && buf[i] <= '9')
            e = e * 10 + (buf[i++] - '0');
    }
    out->dp = (neg ? -e : e) + 1;
}

/* Does the decimal read back as v? Built as d.ddd e(dp-1) with the locale's radix. */
static int reads_back(const decimal *dec, double v, const char *radix)
{
    char buf[64];
    size_t n = 0;
    int i;

    buf[n++] = dec->d[0];
    if (dec->nd > 1) {
        size_t rl = strlen(radix);
        memcpy(buf + n, rl ? radix : ".", rl ? rl : 1);
        n += rl ? rl : 1;
        for (i = 1; i < dec->nd; i++)
            buf[n++] = dec->d[i];
    }
    snprintf(buf + n, sizeof buf - n, "e%d", dec->dp - 1);
    return strtod(buf, NULL) == v;
}

/* The decimal one unit away in the last digit (dir = +1 or -1); 0 when it does not exist. */
static int neighbour(const decimal *in, int dir, decimal *out)
{
    int i;
    *out = *in;
    if (dir > 0) {
        for (i = out->nd - 1; i >= 0 && out->d[i] == '9'; i--)
            out->d[i] = '0';
        if (i < 0) { /* 99..9 + 1 = 100..0 */
            out->d[0] = '1';
            memset(out->d + 1, '0', (size_t)in->nd);
            out->nd = in->nd + 1;
            out->dp = in->dp + 1;
        } else {
            out->d[i]++;
        }
    } else {
        for (i = out->nd - 1; i >= 0 && out->d[i] == '0'; i--)
            out->d[i] = '9';
        if (i < 0)
            return 0;
        out->d[i]--;
        if (out->d[0] == '0') { /* 10..0 - 1 = 9..9, one digit shorter */
            if (out->nd == 1)
                return 0;
            memmove(out->d, out->d + 1, (size_t)out->nd - 1);
            out->nd--;
            out->dp--;
        }
    }
    return 1;
}

static void strip_zeros(decimal *d)
{
    while (d->nd > 1 && d->d[d->nd - 1] == '0')
        d->nd--;
}

/* Shortest digits of a finite v > 0. */
static void shortest(double v, decimal *out)
{
    char radix[8];
    int lo = 1, hi = 17;
    decimal cand, nb;

    if (v < 9007199254740992.0 && v == floor(v)) {
        /* integers below 2^53: the integer's own digits are the shortest */
        char buf[32];
        int n = snprintf(buf, sizeof buf, "%.0f", v);
        memcpy(out->d, buf, (size_t)n);
        out->nd = n;
        out->dp = n;
        strip_zeros(out);
        return;
    }
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        sci_digits(v, mid, &cand, radix, sizeof radix);
        if (reads_back(&cand, v, radix))
            hi = mid;
        else
            lo = mid + 1;
    }
    sci_digits(v, lo, out, radix, sizeof radix);
    if (lo > 1) {
        int dir;
        sci_digits(v, lo - 1, &cand, radix, sizeof radix);
        for (dir = 1; dir >= -1; dir -= 2) {
            if (!neighbour(&cand, dir, &nb))
                continue;
            strip_zeros(&nb);
            if (nb.nd < lo && reads_back(&nb, v, radix)) {
                *out = nb;
                break;
            }
        }
    }
    strip_zeros(out);
}

static size_t put_exp(char *o, int e)
{
    size_t n = 0;
    o[n++] = 'e';
    o[n++] = e < 0 ? '-' : '+';
    if (e < 0)
        e = -e;
    if (e >= 100)
        o[n++] = (char)('0' + e / 100);
    o[n++] = (char)('0' + (e / 10) % 10);
    o[n++] = (char)('0' + e % 10);
    return n;
}

size_t llmm__fmt_double(double v, char *o)
{
    decimal d;
    size_t n = 0;
    int i, exp;

    if (v != v) {
        memcpy(o, "NaN", 3);
        return 3;
    }
    if (!llmm__is_finite(v)) {
        memcpy(o, v > 0 ? "+Inf" : "-Inf", 4);
        return 4;
    }
    if (signbit(v)) {
        o[n++] = '-';
        v = -v;
    }
    if (v == 0) {
        o[n++] = '0';
        return n;
    }
    shortest(v, &d);
    exp = d.dp - 1;
    if (exp < -4 || exp >= 6) {
        o[n++] = d.d[0];
        if (d.nd > 1) {
            o[n++] = '.';
            for (i = 1; i < d.nd; i++)
                o[n++] = d.d[i];
        }
        n += put_exp(o + n, exp);
    } else if (d.dp <= 0) {
        o[n++] = '0';
        o[n++] = '.';
        for (i = 0; i < -d.dp; i++)
            o[n++] = '0';
        for (i = 0; i < d.nd; i++)
            o[n++] = d.d[i];
    } else {
        for (i = 0; i < d.dp; i++)
            o[n++] = i < d.nd ? d.d[i] : '0';
        if (d.nd > d.dp) {
            o[n++] = '.';
            for (i = d.dp; i < d.nd; i++)
                o[n++] = d.d[i];
        }
    }
    return n;
}

size_t llmm__fmt_om_double(double v, char *o)
{
    size_t n, i;

    if (v == 0) {
        memcpy(o, "0.0", 3);
        return 3;
    }
    n = llmm__fmt_double(v, o);
    if (v != v || !llmm__is_finite(v))
        return n;
    for (i = 0; i < n; i++)
        if (o[i] == '.' || o[i] == 'e')
            return n;
    o[n++] = '.';
    o[n++] = '0';
    return n;
}
