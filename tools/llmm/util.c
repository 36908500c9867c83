/* util.c: errors, growable arrays, sorting, exact percentiles, the demo's random numbers. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

int llmm_cli_fail(llmm_cli_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

int llmm_cli_vec_push(llmm_cli_vec *a, double x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        double *v;
        if (cap > SIZE_MAX / sizeof *v)
            return LLMM_CLI_ENOMEM;
        v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return LLMM_CLI_ENOMEM;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return LLMM_CLI_OK;
}

void llmm_cli_vec_free(llmm_cli_vec *a)
{
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

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

/* ---- random numbers ---------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void llmm_cli_rng_seed(llmm_cli_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t llmm_cli_rng_next(llmm_cli_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double llmm_cli_rng_uniform(llmm_cli_rng *r)
{
    /* 53 random bits, shifted by half a step so that 0 and 1 never occur. */
    return ((double)(llmm_cli_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double llmm_cli_rng_normal(llmm_cli_rng *r)
{
    double u1 = llmm_cli_rng_uniform(r), u2 = llmm_cli_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double llmm_cli_rng_exp(llmm_cli_rng *r, double mean)
{
    return -mean * log(llmm_cli_rng_uniform(r));
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
        char buf[128];
        char *end;
        if (len == 0 || len >= sizeof buf)
            return LLMM_CLI_EPARSE;
        memcpy(buf, s, len);
        buf[len] = '\0';
        *out = strtod(buf, &end);
        return end == buf + len && isfinite(*out) ? LLMM_CLI_OK : LLMM_CLI_EPARSE;
    }
}

/* ---- parsing helpers --------------------------------------------------------------------- */

int llmm_cli_parse_duration(const char *s, double *seconds)
{
    char *end;
    double v, scale = 1e-3;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
        return LLMM_CLI_EUSAGE;
    if (*end == '\0' || strcmp(end, "ms") == 0)
        scale = 1e-3;
    else if (strcmp(end, "s") == 0)
        scale = 1.0;
    else if (strcmp(end, "us") == 0)
        scale = 1e-6;
    else
        return LLMM_CLI_EUSAGE;
    *seconds = v * scale;
    return LLMM_CLI_OK;
}

const char *llmm_cli_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const char *llmm_cli_format_name(llmm_cli_format f)
{
    switch (f) {
    case LLMM_CLI_FORMAT_VLLM:
        return "vllm";
    case LLMM_CLI_FORMAT_CSV:
        return "csv";
    case LLMM_CLI_FORMAT_JSONL:
        return "jsonl";
    default:
        return "auto";
    }
}

int llmm_cli_format_parse(const char *s, llmm_cli_format *out)
{
    static const llmm_cli_format all[] = {LLMM_CLI_FORMAT_AUTO, LLMM_CLI_FORMAT_VLLM,
                                          LLMM_CLI_FORMAT_CSV, LLMM_CLI_FORMAT_JSONL};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcasecmp(s, llmm_cli_format_name(all[i])) == 0) {
            *out = all[i];
            return LLMM_CLI_OK;
        }
    }
    return LLMM_CLI_EUSAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

llmm_cli_format llmm_cli_format_guess(const char *name, const char *head, size_t len)
{
    size_t i = 0, line_end;
    if (name && (ends_with(name, ".jsonl") || ends_with(name, ".ndjson")))
        return LLMM_CLI_FORMAT_JSONL;
    if (name && ends_with(name, ".csv"))
        return LLMM_CLI_FORMAT_CSV;
    if (name && ends_with(name, ".json"))
        return LLMM_CLI_FORMAT_VLLM;
    /* Content: a JSON object whose first line closes by itself and names a generic column is
     * JSONL; any other leading '{' is a vLLM document; anything else is CSV. */
    if (len >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB &&
        (unsigned char)head[2] == 0xBF)
        i = 3;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    if (i >= len || head[i] != '{')
        return LLMM_CLI_FORMAT_CSV;
    for (line_end = i; line_end < len && head[line_end] != '\n'; line_end++)
        ;
    for (size_t j = i; j + 8 <= line_end; j++) {
        if (memcmp(head + j, "\"ttft_s\"", 8) == 0)
            return LLMM_CLI_FORMAT_JSONL;
    }
    return LLMM_CLI_FORMAT_VLLM;
}
