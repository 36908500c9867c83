/* Golden files (tests/data/golden): sketches serialised by format version 1 that every later
 * version of the library must read to the same fields, buckets and quantiles. Each NAME.llmms
 * has a sidecar NAME.txt written with it (format: tests/codec/codec_sample.c); the quantiles
 * are also checked against the exact quantiles of the recorded data where the sidecar has them. */
#include "helpers.h"

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) {
        print_error("cannot open %s\n", path);
        fail();
    }
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n >= 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static double rel_bound(int scale)
{
    double base = exp2(ldexp(1.0, -scale));
    return (base - 1.0) / (base + 1.0) * (1.0 + 1e-12);
}

/* Check a decoded golden sketch against its sidecar (format written by codec_sample). */
static void check_sidecar(const llmm_sketch *s, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512], key[32];
    uint64_t z, u, o, bucket_total = 0, listed = 0;
    int32_t first = INT32_MAX, last = INT32_MIN;
    size_t nq = 0;
    assert_non_null(f);
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    while (fgets(line, sizeof line, f)) {
        char *rest;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        assert_int_equal(sscanf(line, "%31s", key), 1);
        rest = line + strlen(key);
        if (!strcmp(key, "format")) {
            assert_int_equal(strtol(rest, NULL, 10), 1);
        } else if (!strcmp(key, "scale")) {
            assert_int_equal(llmm_sketch_scale(s), strtol(rest, NULL, 10));
        } else if (!strcmp(key, "range")) {
            double lo, hi, a, b;
            char *e;
            a = strtod(rest, &e);
            b = strtod(e, NULL);
            assert_ok(llmm_sketch_range(s, &lo, &hi));
            assert_true(bits_of(lo) == bits_of(a) && bits_of(hi) == bits_of(b));
        } else if (!strcmp(key, "count") || !strcmp(key, "zero") || !strcmp(key, "under") ||
                   !strcmp(key, "over")) {
            uint64_t v = strtoull(rest, NULL, 10);
            uint64_t have = key[0] == 'c' ? llmm_sketch_count(s) : key[0] == 'z' ? z
                          : key[0] == 'u' ? u : o;
            assert_true(v == have);
        } else if (!strcmp(key, "min") || !strcmp(key, "max") || !strcmp(key, "sum")) {
            double v = strtod(rest, NULL), have = 0.0;
            if (key[1] == 'i')
                assert_ok(llmm_sketch_min(s, &have));
            else if (key[1] == 'a')
                assert_ok(llmm_sketch_max(s, &have));
            else
                assert_ok(llmm_sketch_sum(s, &have));
            assert_true(bits_of(v) == bits_of(have));
        } else if (!strcmp(key, "bucket")) {
            char *e;
            long idx = strtol(rest, &e, 10);
            uint64_t c = strtoull(e, NULL, 10);
            assert_true(c > 0);
            assert_true(llmm_sketch_bucket_count(s, (int32_t)idx) == c);
            bucket_total += c;
            listed++;
            if (idx < first)
                first = (int32_t)idx;
            if (idx > last)
                last = (int32_t)idx;
        } else if (!strcmp(key, "quantile") || !strcmp(key, "exact")) {
            char *e;
            double q = strtod(rest, &e), v = strtod(e, NULL), got;
            assert_ok(llmm_sketch_quantile(s, q, &got));
            if (key[0] == 'q')
                assert_close(got, v, 1e-12, 0.0); /* the same answer as when written */
            else
                assert_close(got, v, rel_bound(llmm_sketch_scale(s)), 0.0); /* the data's */
            nq++;
        } else if (!strcmp(key, "name")) {
            continue;
        } else {
            print_error("%s: unknown key %s\n", path, key);
            fail();
        }
    }
    fclose(f);
    /* the listed buckets are all there is */
    assert_true(bucket_total + z + u + o == llmm_sketch_count(s));
    if (listed) {
        int32_t a, b;
        assert_ok(llmm_sketch_bucket_span(s, &a, &b));
        assert_int_equal(a, first);
        assert_int_equal(b, last);
    }
    if (llmm_sketch_count(s))
        assert_true(nq > 0);
}

static void test_golden_files(void **state)
{
    /* format version 1, written by libllmmetrics 1.0.0; every later version must read them */
    const char *names[] = {"v1-sigma1", "v1-sigma2", "v1-special", "v1-empty",
                           "v1-scale0", "v1-scale10", "v1-wide"};
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[1024];
        size_t len;
        uint8_t *b;
        llmm_sketch *s = NULL;
        snprintf(path, sizeof path, "%s/golden/%s.llmms", llmm_test_data_dir(), names[i]);
        b = read_file(path, &len);
        assert_ok(llmm_sketch_deserialize(NULL, b, len, &s));
        snprintf(path, sizeof path, "%s/golden/%s.txt", llmm_test_data_dir(), names[i]);
        check_sidecar(s, path);
        free(b);
        llmm_sketch_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_files),
    };
    return cmocka_run_group_tests_name("test_codec_golden", tests, NULL, NULL);
}
