/* Writes serialised sample sketches and, on stdout, what the C library reads in them: the
 * independent Python reader (tests/unit/test_codec_reader.py) decodes the files and compares.
 * The same program generated the golden files of tests/data/golden (once, with --golden).
 *
 *   codec_sample --list              names of the samples, one per line
 *   codec_sample NAME FILE           write sample NAME to FILE, its description to stdout
 *   codec_sample --golden DIR        write every golden sample to DIR/NAME.llmms + DIR/NAME.txt
 *   codec_sample --check FILE...     decode each file, print one verdict per line: ok, corrupt,
 *                                    version or error (what the Python reader must agree with)
 *
 * Description ("sidecar") format, one item per line, doubles as C99 hex floats (exact):
 *   name N | format V | scale S | range LO HI | count N | zero N | under N | over N
 *   | min X | max X | sum X | bucket INDEX COUNT (each non-empty bucket, ascending)
 *   | quantile Q VALUE (what llmm_sketch_quantile answers)
 *   | exact Q VALUE (the exact nearest-rank quantile of the recorded data; only for samples
 *     whose values all lie in the range, where the sketch's relative-error bound applies) */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

typedef struct {
    double v;
    uint64_t n;
} point;

/* A sample under construction: the sketch and, while exact quantiles apply, its data. */
typedef struct {
    llmm_sketch *s;
    point *pts;
    size_t npts, cap;
    int exact; /* 0 once a value outside the range (or a merge / subtract) is involved */
} sample;

static void die(const char *what)
{
    fprintf(stderr, "codec_sample: %s\n", what);
    exit(1);
}

static void check(llmm_status st, const char *what)
{
    if (st != LLMM_OK) {
        fprintf(stderr, "codec_sample: %s: %s\n", what, llmm_strerror(st));
        exit(1);
    }
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

static double lognormal(uint64_t *x, double median, double sigma)
{
    double u1 = ((double)(rng_next(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    double u2 = ((double)(rng_next(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static void begin(sample *sm, int scale, double lo, double hi)
{
    memset(sm, 0, sizeof *sm);
    check(llmm_sketch_new(NULL, scale, &sm->s), "new");
    if (lo > 0)
        check(llmm_sketch_set_range(sm->s, lo, hi), "set_range");
    sm->exact = 1;
}

static void add_n(sample *sm, double v, uint64_t n)
{
    double lo, hi;
    check(llmm_sketch_add_n(sm->s, v, n), "add_n");
    check(llmm_sketch_range(sm->s, &lo, &hi), "range");
    if (v != 0.0 && (v < lo || v > hi))
        sm->exact = 0;
    if (sm->npts == sm->cap) {
        sm->cap = sm->cap ? 2 * sm->cap : 1024;
        sm->pts = realloc(sm->pts, sm->cap * sizeof *sm->pts);
        if (!sm->pts)
            die("out of memory");
    }
    sm->pts[sm->npts].v = v;
    sm->pts[sm->npts].n = n;
    sm->npts++;
}

static void add_lognormal(sample *sm, size_t n, double median, double sigma, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++)
        add_n(sm, lognormal(&x, median, sigma), 1);
}

/* ---- the samples ------------------------------------------------------------------------ */

static void s_sigma1(sample *sm)
{
    begin(sm, 6, 0, 0);
    add_lognormal(sm, 20000, 0.2, 1.0, 101);
}

static void s_sigma2(sample *sm)
{
    begin(sm, 6, 0, 0);
    add_lognormal(sm, 20000, 0.2, 2.0, 102);
}

static void s_special(sample *sm)
{
    begin(sm, 4, 1e-3, 1e3);
    add_n(sm, 0.0, 7);
    add_n(sm, 1e-5, 1);
    add_n(sm, 4.9e-324, 1);
    add_n(sm, 5e-4, 2);
    add_n(sm, 2e3, 1);
    add_n(sm, 1e300, 3);
    add_lognormal(sm, 2000, 1.0, 1.0, 103);
}

static void s_empty(sample *sm)
{
    begin(sm, 6, 0, 0);
}

static void s_scale0(sample *sm)
{
    begin(sm, 0, 0, 0);
    add_lognormal(sm, 5000, 0.2, 1.0, 104);
}

static void s_scale10(sample *sm)
{
    begin(sm, 10, 0, 0);
    add_lognormal(sm, 5000, 0.2, 0.05, 105);
}

static void s_wide(sample *sm)
{
    begin(sm, 6, 0, 0);
    add_n(sm, 0.5, UINT64_C(6000000000));
    add_n(sm, 0.75, 3);
    add_n(sm, 1.0, UINT64_C(1) << 40);
    add_n(sm, 1.01, 1);
    add_n(sm, 0.0, 2);
}

static void s_sparse(sample *sm)
{
    const int gaps[] = {1, 2, 3, 4, 5, 100, 1};
    int32_t at = -40;
    begin(sm, 6, 0, 0);
    for (size_t i = 0; i <= sizeof gaps / sizeof *gaps; i++) {
        double lo, hi;
        check(llmm_sketch_bucket_bounds(6, at, &lo, &hi), "bounds");
        add_n(sm, sqrt(lo * hi), (uint64_t)(i * 300 + 1));
        if (i < sizeof gaps / sizeof *gaps)
            at += gaps[i] + 1;
    }
}

/* counts next to 2^64: the count deltas wrap modulo 2^64 */
static void s_huge(sample *sm)
{
    begin(sm, 6, 0, 0);
    add_n(sm, 0.0, 5);
    add_n(sm, 1.0, UINT64_MAX - (UINT64_C(1) << 33) - 40);
    add_n(sm, 1.02, 7);
    add_n(sm, 1.03, UINT64_C(1) << 33);
    add_n(sm, 1e20, 8);
    sm->exact = 0;
}

static void s_merged(sample *sm)
{
    llmm_sketch *fine;
    uint64_t x = 106;
    begin(sm, 4, 0, 0);
    add_lognormal(sm, 3000, 0.2, 1.0, 107);
    check(llmm_sketch_new(NULL, 9, &fine), "new");
    for (int i = 0; i < 3000; i++)
        check(llmm_sketch_add(fine, lognormal(&x, 2.0, 0.5)), "add");
    check(llmm_sketch_merge(sm->s, fine), "merge");
    llmm_sketch_free(fine);
    sm->exact = 0;
}

static void s_interval(sample *sm)
{
    llmm_sketch *earlier;
    begin(sm, 7, 0, 0);
    add_lognormal(sm, 3000, 0.2, 1.0, 108);
    check(llmm_sketch_clone(sm->s, &earlier), "clone");
    add_lognormal(sm, 3000, 0.5, 0.7, 109);
    check(llmm_sketch_subtract(sm->s, earlier), "subtract");
    llmm_sketch_free(earlier);
    sm->exact = 0;
}

static void s_widest(sample *sm)
{
    begin(sm, 10, LLMM_SKETCH_RANGE_MIN_LIMIT, LLMM_SKETCH_RANGE_MAX_LIMIT);
    add_n(sm, 1e-299, 2);
    add_n(sm, 3.5, 1);
    add_n(sm, 1e299, 4);
}

static void s_inf_sum(sample *sm)
{
    begin(sm, 6, 0, 0);
    add_n(sm, DBL_MAX, 2);
    add_n(sm, 0.1, 5);
}

static const struct {
    const char *name;
    void (*build)(sample *);
    int golden;
} samples[] = {
    {"v1-sigma1", s_sigma1, 1},   {"v1-sigma2", s_sigma2, 1},   {"v1-special", s_special, 1},
    {"v1-empty", s_empty, 1},     {"v1-scale0", s_scale0, 1},   {"v1-scale10", s_scale10, 1},
    {"v1-wide", s_wide, 1},       {"sparse", s_sparse, 0},      {"huge", s_huge, 0},
    {"merged", s_merged, 0},      {"interval", s_interval, 0},  {"widest", s_widest, 0},
    {"inf-sum", s_inf_sum, 0},
};
#define NSAMPLES (sizeof samples / sizeof *samples)

/* ---- description ------------------------------------------------------------------------- */

static int cmp_point(const void *a, const void *b)
{
    double x = ((const point *)a)->v, y = ((const point *)b)->v;
    return (x > y) - (x < y);
}

/* doc/spec.md §5: rank r = max(1, ceil(q·n)), q·n within 1e-9 of an integer counts as that
 * integer */
static uint64_t rank_of(double q, uint64_t n)
{
    double qn = q * (double)n, r = nearbyint(qn);
    uint64_t rank;
    if (fabs(qn - r) > 1e-9)
        r = ceil(qn);
    rank = r < 1.0 ? 1 : (uint64_t)r;
    return rank > n ? n : rank;
}

static double exact_quantile(const point *sorted, size_t npts, uint64_t total, double q)
{
    uint64_t r = rank_of(q, total), cum = 0;
    for (size_t i = 0; i < npts; i++) {
        cum += sorted[i].n;
        if (r <= cum)
            return sorted[i].v;
    }
    return sorted[npts - 1].v;
}

static const double qs[] = {0.0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5,
                            0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0};

static void describe(FILE *f, const char *name, sample *sm)
{
    const llmm_sketch *s = sm->s;
    uint64_t z, u, o, count = llmm_sketch_count(s);
    double lo, hi, v;
    int32_t first, last;
    fprintf(f, "# libllmmetrics sketch codec sample (tests/codec/codec_sample.c)\n");
    fprintf(f, "name %s\nformat %d\nscale %d\n", name, LLMM_SKETCH_FORMAT_VERSION,
            (int)llmm_sketch_scale(s));
    check(llmm_sketch_range(s, &lo, &hi), "range");
    fprintf(f, "range %a %a\n", lo, hi);
    check(llmm_sketch_special_counts(s, &z, &u, &o), "special counts");
    fprintf(f, "count %llu\nzero %llu\nunder %llu\nover %llu\n", (unsigned long long)count,
            (unsigned long long)z, (unsigned long long)u, (unsigned long long)o);
    if (count) {
        check(llmm_sketch_min(s, &v), "min");
        fprintf(f, "min %a\n", v);
        check(llmm_sketch_max(s, &v), "max");
        fprintf(f, "max %a\n", v);
    }
    check(llmm_sketch_sum(s, &v), "sum");
    fprintf(f, "sum %a\n", v);
    if (llmm_sketch_bucket_span(s, &first, &last) == LLMM_OK) {
        for (int32_t i = first; i <= last; i++) {
            uint64_t c = llmm_sketch_bucket_count(s, i);
            if (c)
                fprintf(f, "bucket %d %llu\n", (int)i, (unsigned long long)c);
        }
    }
    /* ranks past 2^62 are beyond what a double rank computation represents: not compared */
    if (!count || count > (UINT64_C(1) << 62))
        return;
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        check(llmm_sketch_quantile(s, qs[i], &v), "quantile");
        fprintf(f, "quantile %a %a\n", qs[i], v);
    }
    if (sm->exact && sm->npts) {
        qsort(sm->pts, sm->npts, sizeof *sm->pts, cmp_point);
        for (size_t i = 0; i < sizeof qs / sizeof *qs; i++)
            fprintf(f, "exact %a %a\n", qs[i], exact_quantile(sm->pts, sm->npts, count, qs[i]));
    }
}

static void write_sample(size_t k, const char *file, FILE *desc)
{
    sample sm;
    size_t len;
    uint8_t *buf;
    FILE *f;
    samples[k].build(&sm);
    if (llmm_sketch_serialize(sm.s, NULL, 0, &len) != LLMM_E_BUFFER)
        die("sizing failed");
    buf = malloc(len);
    if (!buf)
        die("out of memory");
    check(llmm_sketch_serialize(sm.s, buf, len, &len), "serialize");
    f = fopen(file, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
        die("cannot write the sample file");
    describe(desc, samples[k].name, &sm);
    free(buf);
    free(sm.pts);
    llmm_sketch_free(sm.s);
}

/* --check: the C library's verdict on each file. */
static int check_files(int n, char **paths)
{
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(paths[i], "rb");
        uint8_t buf[1 << 16];
        size_t len;
        llmm_sketch *s = NULL;
        llmm_status st;
        if (!f)
            die("cannot read a file to check");
        len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        st = llmm_sketch_deserialize(NULL, buf, len, &s);
        llmm_sketch_free(s);
        puts(st == LLMM_OK ? "ok" : st == LLMM_E_CORRUPT ? "corrupt"
                                  : st == LLMM_E_VERSION ? "version" : "error");
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--check"))
        return check_files(argc - 2, argv + 2);
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (size_t k = 0; k < NSAMPLES; k++)
            printf("%s\n", samples[k].name);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--golden")) {
        for (size_t k = 0; k < NSAMPLES; k++) {
            char bin[1024], txt[1024];
            FILE *d;
            if (!samples[k].golden)
                continue;
            snprintf(bin, sizeof bin, "%s/%s.llmms", argv[2], samples[k].name);
            snprintf(txt, sizeof txt, "%s/%s.txt", argv[2], samples[k].name);
            d = fopen(txt, "w");
            if (!d)
                die("cannot write a sidecar file");
            write_sample(k, bin, d);
            if (fclose(d) != 0)
                die("cannot write a sidecar file");
        }
        return 0;
    }
    if (argc == 3) {
        for (size_t k = 0; k < NSAMPLES; k++) {
            if (!strcmp(argv[1], samples[k].name)) {
                write_sample(k, argv[2], stdout);
                return fflush(stdout) == 0 ? 0 : 1;
            }
        }
        die("unknown sample name");
    }
    fprintf(stderr, "usage: codec_sample --list | NAME FILE | --golden DIR | --check FILE...\n");
    return 2;
}
