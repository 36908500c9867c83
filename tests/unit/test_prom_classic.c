/* Bounded classic layouts of the Prometheus exporters: the writer's named-list and
 * downscaled-grid settings and the one-shot text export. Counts are checked against a
 * brute-force count of the raw values (`v <= le` in double arithmetic), bucket numbers
 * against the configured bound; protobuf classic buckets are counted by a minimal walker
 * written here. */
#include <float.h>

#include "helpers.h"

/* ---- data -------------------------------------------------------------------------------- */

/* `n` values on a geometric ladder from lo to hi, each repeated (k % 3) + 1 times, plus
 * `zeros` exact zeros: many touched buckets, values on both sides of 1. */
static size_t ladder(double *v, size_t cap, double lo, double hi, size_t n, size_t zeros)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        double x = lo * pow(hi / lo, (double)k / (double)(n - 1));
        for (size_t r = 0; r <= k % 3 && m < cap; r++)
            v[m++] = x;
    }
    for (size_t z = 0; z < zeros && m < cap; z++)
        v[m++] = 0.0;
    return m;
}

static size_t touched(const llmm_sketch *s)
{
    int32_t first, last;
    size_t k = 0;
    if (llmm_sketch_bucket_span(s, &first, &last) != LLMM_OK)
        return 0;
    for (int64_t i = first; i <= last; i++)
        k += llmm_sketch_bucket_count(s, (int32_t)i) > 0;
    return k;
}

static uint64_t count_le(const double *v, size_t n, double f, double b)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += v[i] * f <= b;
    return c;
}

/* ---- reading a text exposition ----------------------------------------------------------- */

typedef struct {
    double le[4096];
    uint64_t cum[4096];
    size_t n; /* finite bounds */
    uint64_t inf;
} buckets;

/* The `name_bucket` lines of a NUL-terminated exposition. */
static void read_buckets(const char *text, const char *name, buckets *b)
{
    char prefix[128];
    const char *p = text;
    snprintf(prefix, sizeof prefix, "%s_bucket{", name);
    memset(b, 0, sizeof *b);
    while ((p = strstr(p, prefix)) != NULL) {
        const char *le = strstr(p, "le=\"");
        const char *val = strstr(p, "} ");
        assert_non_null(le);
        assert_non_null(val);
        if (strncmp(le + 4, "+Inf", 4) == 0) {
            b->inf = strtoull(val + 2, NULL, 10);
        } else {
            assert_true(b->n < sizeof b->le / sizeof *b->le);
            b->le[b->n] = strtod(le + 4, NULL);
            b->cum[b->n++] = strtoull(val + 2, NULL, 10);
        }
        p = val;
    }
}

static char *writer_text(llmm_prom_writer *w)
{
    const uint8_t *data;
    size_t len;
    char *out;
    assert_ok(llmm_prom_writer_data(w, &data, &len));
    out = calloc(len + 1, 1);
    assert_non_null(out);
    memcpy(out, data, len);
    return out;
}

/* One histogram family `h` without bounds, one series, in text. */
static void export_one(llmm_prom_writer *w, const llmm_sketch *s, double f, buckets *b)
{
    char *text;
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_TEXT));
    assert_ok(llmm_prom_writer_family(w, "h", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
    assert_ok(llmm_prom_writer_sketch(w, "a=\"1\"", s, f));
    text = writer_text(w);
    read_buckets(text, "h", b);
    free(text);
}

/* Every finite bound exact, ascending, on one grid, at most `max` of them. */
static void check_grid(const buckets *b, const double *v, size_t n, double f, uint32_t max)
{
    /* f is 1 or a power of two here: the grid's bounds are exact powers of two times f */
    assert_true(b->n >= 2 && b->n <= max);
    assert_int_equal(b->inf, n);
    for (size_t i = 0; i < b->n; i++) {
        if (b->cum[i] != count_le(v, n, f, b->le[i]))
            fail_msg("le %.17g: %llu, exact %llu", b->le[i], (unsigned long long)b->cum[i],
                     (unsigned long long)count_le(v, n, f, b->le[i]));
        if (i) {
            /* one grid: consecutive bounds differ by the same power-of-two exponent step */
            double step = log2(b->le[i] / b->le[i - 1]), step0 = log2(b->le[1] / b->le[0]);
            assert_close(step, step0, 1e-9, 0);
        }
    }
    {
        /* the grid of a scale: the step is 2^-scale and every bound an integer multiple */
        double step = log2(b->le[1] / b->le[0]);
        assert_close(exp2(round(log2(step))), step, 1e-9, 0);
        for (size_t i = 0; i < b->n; i++) {
            double m = log2(b->le[i] / f) / step;
            assert_close(m, round(m), 0, 1e-6);
        }
    }
}

/* ---- acceptance: 400 touched buckets, bounded output -------------------------------------- */

static void test_400_buckets_bounded(void **state)
{
    static double v[2000];
    size_t n = ladder(v, 2000, 1e-3, 1e3, 900, 5);
    llmm_sketch *s = NULL;
    llmm_prom_writer *w = NULL;
    static buckets b;
    static const uint32_t caps[] = {3, 4, 10, 40, 160, 399, 5000};
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add_many(s, v, n));
    assert_true(touched(s) >= 400);
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));

    /* the default: the OpenTelemetry GenAI duration list, 14 bounds */
    export_one(w, s, 1.0, &b);
    assert_int_equal(b.n, 14);
    assert_close(b.le[0], 0.01, 0, 0);
    assert_close(b.le[13], 81.92, 0, 0);

    for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
        assert_ok(llmm_prom_writer_set_classic_max(w, caps[c]));
        export_one(w, s, 1.0, &b);
        check_grid(&b, v, n, 1.0, caps[c]);
        /* the smallest downscaling that fits: one step finer needs at most 2·(buckets) + 1
         * bounds, so it would not have fitted */
        if (caps[c] < 5000)
            assert_true(2 * (b.n - 1) + 1 > caps[c]);
    }
    /* unlimited enough: the sketch's own scale, every bucket from first to last */
    {
        int32_t first, last;
        assert_ok(llmm_sketch_bucket_span(s, &first, &last));
        assert_int_equal(b.n, (size_t)(last - first) + 2);
    }
    /* a power-of-two factor keeps every count exact */
    assert_ok(llmm_prom_writer_set_classic_max(w, 50));
    export_one(w, s, 0x1p-10, &b);
    check_grid(&b, v, n, 0x1p-10, 50);
    /* any factor: still bounded, cumulative and complete */
    export_one(w, s, 1e-3, &b);
    assert_true(b.n <= 50);
    for (size_t i = 1; i < b.n; i++)
        assert_true(b.le[i] > b.le[i - 1] && b.cum[i] >= b.cum[i - 1]);
    assert_int_equal(b.inf, n);

    /* back to a list: the vLLM TTFT list, 22 bounds */
    assert_ok(llmm_prom_writer_set_classic_list(w, LLMM_BUCKETS_VLLM_TTFT));
    export_one(w, s, 1.0, &b);
    assert_int_equal(b.n, 22);
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

/* The one-shot text export: the downscaled grid, at most 160 bounds. */
static void test_one_shot_bounded(void **state)
{
    static double v[2000];
    size_t n = ladder(v, 2000, 1e-4, 1e4, 1000, 0), len = 0;
    llmm_sketch *s = NULL;
    static buckets b;
    char *text;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 8, &s));
    assert_ok(llmm_sketch_add_many(s, v, n));
    assert_true(touched(s) >= 400);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, 1.0, NULL, 0, &len), LLMM_E_BUFFER);
    text = calloc(len + 1, 1);
    assert_ok(llmm_export_prometheus_text(s, "x", NULL, 1.0, (uint8_t *)text, len, &len));
    read_buckets(text, "x", &b);
    check_grid(&b, v, n, 1.0, 160);
    assert_true(b.n > 80); /* the finest grid that fits 160 */
    free(text);
    llmm_sketch_free(s);
}

/* Extreme spans: the smallest bound (3) fits any data, underflow and overflow included. */
static void test_grid_extremes(void **state)
{
    const double v[] = {1e-300, 1e-9, 0.5, 1.0, 2.0, 1e15, 1e300, 0.0};
    const size_t n = sizeof v / sizeof *v;
    llmm_sketch *s = NULL;
    llmm_prom_writer *w = NULL;
    static buckets b;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 10, &s));
    assert_ok(llmm_sketch_add_many(s, v, n));
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    for (uint32_t max = 3; max <= 12; max++) {
        assert_ok(llmm_prom_writer_set_classic_max(w, max));
        export_one(w, s, 1.0, &b);
        assert_true(b.n >= 2 && b.n <= max);
        assert_int_equal(b.inf, n);
        for (size_t i = 1; i < b.n; i++)
            assert_true(b.le[i] > b.le[i - 1] && b.cum[i] >= b.cum[i - 1]);
    }
    /* an empty sketch and one with zeros only: no finite bound, +Inf only */
    {
        llmm_sketch *e = NULL;
        const double z[] = {0.0, 0.0};
        assert_ok(llmm_sketch_new(NULL, 6, &e));
        export_one(w, e, 1.0, &b);
        assert_int_equal(b.n, 0);
        assert_int_equal(b.inf, 0);
        assert_ok(llmm_sketch_add_many(e, z, 2));
        export_one(w, e, 1.0, &b);
        assert_int_equal(b.n, 0);
        assert_int_equal(b.inf, 2);
        llmm_sketch_free(e);
    }
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

/* ---- settings: errors, scope, persistence ------------------------------------------------- */

static void test_settings(void **state)
{
    const double v[] = {0.003, 0.03, 0.3, 3.0, 30.0};
    llmm_sketch *s = NULL;
    llmm_prom_writer *w = NULL;
    static buckets b;
    char *text;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add_many(s, v, 5));
    assert_status(llmm_prom_writer_set_classic_list(NULL, LLMM_BUCKETS_OTEL_GENAI_TTFT),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_set_classic_max(NULL, 10), LLMM_E_INVALID);
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    assert_ok(llmm_prom_writer_set_classic_list(w, LLMM_BUCKETS_OTEL_GENAI_TTFT));
    /* bad values change nothing */
    assert_status(llmm_prom_writer_set_classic_list(w, (llmm_bucket_list)7), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_set_classic_list(w, (llmm_bucket_list)-1), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_set_classic_max(w, 0), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_set_classic_max(w, 2), LLMM_E_INVALID);
    export_one(w, s, 1.0, &b);
    assert_int_equal(b.n, 16); /* OTel TTFT */

    /* the setting is read when a family starts; given bounds always win */
    {
        const double mine[] = {0.1, 1.0};
        assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_TEXT));
        assert_ok(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_HISTOGRAM, NULL, 0));
        assert_ok(llmm_prom_writer_set_classic_max(w, 4)); /* not for the open family */
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        assert_ok(llmm_prom_writer_family(w, "b", NULL, LLMM_PROM_HISTOGRAM, NULL, 0));
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        assert_ok(llmm_prom_writer_family(w, "c", NULL, LLMM_PROM_HISTOGRAM, mine, 2));
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        text = writer_text(w);
        read_buckets(text, "a", &b);
        assert_int_equal(b.n, 16);
        read_buckets(text, "b", &b);
        check_grid(&b, v, 5, 1.0, 4);
        read_buckets(text, "c", &b);
        assert_int_equal(b.n, 2);
        assert_int_equal(b.cum[0], 2);
        assert_int_equal(b.cum[1], 3);
        free(text);
    }
    /* the setting survives a reset */
    export_one(w, s, 1.0, &b);
    check_grid(&b, v, 5, 1.0, 4);
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

/* ---- protobuf: classic families bounded, native families untouched ------------------------ */

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (int sh = 0; *p < end && sh < 64; sh += 7) {
        uint8_t c = *(*p)++;
        v |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80))
            return v;
    }
    fail_msg("bad varint");
    return 0;
}

/* Number of submessages at field path path[0] / path[1] / ... inside [p, end). */
static size_t count_path(const uint8_t *p, const uint8_t *end, const uint32_t *path, int depth)
{
    size_t k = 0;
    while (p < end) {
        uint64_t key = varint(&p, end), len;
        switch (key & 7) {
        case 0: varint(&p, end); break;
        case 1: p += 8; break;
        case 5: p += 4; break;
        case 2:
            len = varint(&p, end);
            assert_true(len <= (uint64_t)(end - p));
            if ((key >> 3) == path[0])
                k += depth == 1 ? 1 : count_path(p, p + len, path + 1, depth - 1);
            p += len;
            break;
        default: fail_msg("wire type %u", (unsigned)(key & 7));
        }
    }
    return k;
}

/* Classic buckets (MetricFamily.metric / Metric.histogram / Histogram.bucket) of a protobuf
 * exposition of one family. */
static size_t pb_classic_buckets(llmm_prom_writer *w, llmm_prom_type t, const llmm_sketch *s,
                                 const uint8_t **data, size_t *len)
{
    static const uint32_t path[] = {4, 7, 3};
    const uint8_t *p;
    uint64_t n;
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_PROTOBUF));
    assert_ok(llmm_prom_writer_family(w, "h", NULL, t, NULL, 0));
    assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
    assert_ok(llmm_prom_writer_data(w, data, len));
    p = *data;
    n = varint(&p, *data + *len);
    assert_int_equal(n, (uint64_t)(*data + *len - p));
    return count_path(p, p + n, path, 3);
}

static void test_protobuf(void **state)
{
    static double v[2000];
    size_t n = ladder(v, 2000, 1e-3, 1e3, 900, 0), len, len2;
    llmm_sketch *s = NULL;
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    uint8_t *native_default;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add_many(s, v, n));
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    /* a classic family without bounds: the default list, then the grid bound */
    assert_int_equal(pb_classic_buckets(w, LLMM_PROM_HISTOGRAM, s, &data, &len), 14);
    assert_ok(llmm_prom_writer_set_classic_max(w, 25));
    len2 = pb_classic_buckets(w, LLMM_PROM_HISTOGRAM, s, &data, &len);
    assert_true(len2 >= 13 && len2 <= 25);
    /* a native family without bounds: no classic buckets and the same bytes whatever the
     * setting (the lossless path is not touched) */
    assert_int_equal(pb_classic_buckets(w, LLMM_PROM_NATIVE_HISTOGRAM, s, &data, &len), 0);
    native_default = malloc(len);
    memcpy(native_default, data, len);
    assert_ok(llmm_prom_writer_set_classic_list(w, LLMM_BUCKETS_VLLM_TTFT));
    assert_int_equal(pb_classic_buckets(w, LLMM_PROM_NATIVE_HISTOGRAM, s, &data, &len2), 0);
    assert_int_equal(len2, len);
    assert_memory_equal(data, native_default, len);
    free(native_default);
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_400_buckets_bounded),
        cmocka_unit_test(test_one_shot_bounded),
        cmocka_unit_test(test_grid_extremes),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_protobuf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
