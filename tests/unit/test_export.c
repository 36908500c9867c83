/* Export: Prometheus text (golden lines made by hand), Prometheus protobuf (decoded by an
 * independent minimal decoder written here, every field checked; native buckets rebuilt from
 * spans and deltas and compared with counts derived from the raw values), classic buckets
 * against brute-force counts, content negotiation, OTLP JSON (hand-made golden strings),
 * buffer rules, errors, allocation failures. */
#include <float.h>

#include "helpers.h"

/* ---- data ------------------------------------------------------------------------------- */


static llmm_sketch *mk(int scale, const double *v, size_t n)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(NULL, scale, &s));
    if (n)
        assert_ok(llmm_sketch_add_many(s, v, n));
    return s;
}

/* Output of a one-shot exporter as a NUL-terminated heap string (checks the size rules). */
typedef llmm_status (*export_fn)(void *arg, uint8_t *buf, size_t cap, size_t *len);

static char *run_export(export_fn fn, void *arg)
{
    size_t need = 0, len = 0;
    char *buf;
    assert_status(fn(arg, NULL, 0, &need), LLMM_E_BUFFER);
    assert_true(need > 0);
    buf = calloc(need + 1, 1);
    assert_non_null(buf);
    if (need > 1) {
        assert_status(fn(arg, (uint8_t *)buf, need - 1, &len), LLMM_E_BUFFER);
        assert_int_equal(len, need);
    }
    assert_ok(fn(arg, (uint8_t *)buf, need, &len));
    assert_int_equal(len, need);
    buf[len] = '\0';
    return buf;
}

static void assert_text(const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        print_error("--- got ---\n%s--- want ---\n%s", got, want);
        fail();
    }
}

/* ---- label escaping ---------------------------------------------------------------------- */

static void test_label_escape(void **state)
{
    uint8_t buf[64];
    size_t len = 0;
    (void)state;
    assert_ok(llmm_prom_label_escape("plain", buf, sizeof buf, &len));
    assert_int_equal(len, 5);
    assert_memory_equal(buf, "plain", 5);
    assert_ok(llmm_prom_label_escape("a\\b\"c\nd", buf, sizeof buf, &len));
    assert_int_equal(len, 10);
    assert_memory_equal(buf, "a\\\\b\\\"c\\nd", 10);
    assert_ok(llmm_prom_label_escape("", buf, sizeof buf, &len));
    assert_int_equal(len, 0);
    assert_ok(llmm_prom_label_escape("caf\xc3\xa9", buf, sizeof buf, &len));
    assert_int_equal(len, 5);
    /* size query and exact fit */
    assert_status(llmm_prom_label_escape("\"\"", NULL, 0, &len), LLMM_E_BUFFER);
    assert_int_equal(len, 4);
    assert_status(llmm_prom_label_escape("\"\"", buf, 3, &len), LLMM_E_BUFFER);
    assert_ok(llmm_prom_label_escape("\"\"", buf, 4, &len));
    assert_memory_equal(buf, "\\\"\\\"", 4);
    /* errors */
    assert_status(llmm_prom_label_escape("\xff", buf, sizeof buf, &len), LLMM_E_INVALID);
    assert_status(llmm_prom_label_escape("\xed\xa0\x80", buf, sizeof buf, &len), LLMM_E_INVALID);
    assert_status(llmm_prom_label_escape(NULL, buf, sizeof buf, &len), LLMM_E_INVALID);
    assert_status(llmm_prom_label_escape("x", buf, sizeof buf, NULL), LLMM_E_INVALID);
    assert_status(llmm_prom_label_escape("x", NULL, 4, &len), LLMM_E_INVALID);
}

/* ---- one-call text export ---------------------------------------------------------------- */

typedef struct {
    const llmm_sketch *s;
    const char *name, *labels;
    double f;
} text_arg;

static llmm_status text_fn(void *a, uint8_t *buf, size_t cap, size_t *len)
{
    text_arg *t = (text_arg *)a;
    return llmm_export_prometheus_text(t->s, t->name, t->labels, t->f, buf, cap, len);
}

static void test_text_simple(void **state)
{
    /* scale 0: bucket i = (2^i, 2^(i+1)]. 0.375 → -2, 0.75 → -1, 1.5 → 0, 3 → 1: one run,
     * le = 0.25 (lower bound of the run), then the upper bounds 0.5 .. 4. */
    const double v[] = {0, 0.375, 0.75, 1.5, 3};
    llmm_sketch *s = mk(0, v, 5);
    text_arg a = {s, "lat_seconds", "model=\"a\\\"b\"", 1.0};
    char *out = run_export(text_fn, &a);
    (void)state;
    assert_text(out,
                "# HELP lat_seconds libllmmetrics sketch (scale 0) at its own bucket bounds\n"
                "# TYPE lat_seconds histogram\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"0.25\"} 1\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"0.5\"} 2\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"1.0\"} 3\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"2.0\"} 4\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"4.0\"} 5\n"
                "lat_seconds_bucket{model=\"a\\\"b\",le=\"+Inf\"} 5\n"
                "lat_seconds_sum{model=\"a\\\"b\"} 5.625\n"
                "lat_seconds_count{model=\"a\\\"b\"} 5\n");
    free(out);
    llmm_sketch_free(s);

    /* a gap: every bucket between the first and the last non-empty one is written (a
     * stable, contiguous grid); no labels, milliseconds exported as seconds (factor 1e-3) */
    const double ms[] = {375, 3000};
    s = mk(0, ms, 2);
    a = (text_arg){s, "x", NULL, 1e-3};
    out = run_export(text_fn, &a);
    assert_text(out, "# HELP x libllmmetrics sketch (scale 0) at its own bucket bounds\n"
                     "# TYPE x histogram\n"
                     "x_bucket{le=\"0.256\"} 0\n"
                     "x_bucket{le=\"0.512\"} 1\n"
                     "x_bucket{le=\"1.024\"} 1\n"
                     "x_bucket{le=\"2.048\"} 1\n"
                     "x_bucket{le=\"4.096\"} 2\n"
                     "x_bucket{le=\"+Inf\"} 2\n"
                     "x_sum 3.375\n"
                     "x_count 2\n");
    free(out);
    llmm_sketch_free(s);

    /* empty sketch: only +Inf, sum and count */
    s = mk(6, NULL, 0);
    a = (text_arg){s, "e", "", 1.0};
    out = run_export(text_fn, &a);
    assert_text(out, "# HELP e libllmmetrics sketch (scale 6) at its own bucket bounds\n"
                     "# TYPE e histogram\n"
                     "e_bucket{le=\"+Inf\"} 0\n"
                     "e_sum 0\n"
                     "e_count 0\n");
    free(out);
    llmm_sketch_free(s);
}

static void test_text_simple_errors(void **state)
{
    llmm_sketch *s = mk(6, NULL, 0);
    uint8_t buf[512];
    size_t len;
    static const char *bad_labels[] = {"a", "a=\"x\",", "le=\"1\"", "__x=\"1\"", "a=\"\\q\"",
                                       "a=\"x\",a=\"y\"", "a=\"x\" ", "9=\"x\""};
    (void)state;
    assert_status(llmm_export_prometheus_text(NULL, "x", NULL, 1, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, NULL, NULL, 1, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "1x", NULL, 1, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "a-b", NULL, 1, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, 0, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, -1, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, NAN, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, INFINITY, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, 1, buf, sizeof buf, NULL),
                  LLMM_E_INVALID);
    assert_status(llmm_export_prometheus_text(s, "x", NULL, 1, NULL, 5, &len), LLMM_E_INVALID);
    for (size_t i = 0; i < sizeof bad_labels / sizeof *bad_labels; i++)
        assert_status(llmm_export_prometheus_text(s, "x", bad_labels[i], 1, buf, sizeof buf,
                                                  &len),
                      LLMM_E_INVALID);
    assert_ok(llmm_export_prometheus_text(s, "ns:x_y", "a=\"\",b_2=\"\\n\\\\\"", 1, buf,
                                          sizeof buf, &len));
    llmm_sketch_free(s);
}

/* ---- writer: text ------------------------------------------------------------------------ */

static llmm_sketch *summary_a, *summary_b, *hist, *nat;
static const double QS[] = {0, 0.5, 1};
static const double EDGES[] = {0.5, 1, 2.5};

static void make_writer_sketches(void)
{
    const double a[] = {2, 2, 2}, b[] = {0.375, 3}, h[] = {0.375, 0.75, 1.5, 3};
    summary_a = mk(6, a, 3);
    summary_b = mk(6, b, 2);
    hist = mk(6, h, 4);
    nat = mk(0, b, 2);
}

static void free_writer_sketches(void)
{
    llmm_sketch_free(summary_a);
    llmm_sketch_free(summary_b);
    llmm_sketch_free(hist);
    llmm_sketch_free(nat);
}

static llmm_status fill_writer(llmm_prom_writer *w)
{
    llmm_status st;
#define TRY(x)                                                                                \
    do {                                                                                      \
        if ((st = (x)) != LLMM_OK)                                                            \
            return st;                                                                        \
    } while (0)
    TRY(llmm_prom_writer_family(w, "llm_requests_total", "Requests served.\nBy model \\ route",
                                LLMM_PROM_COUNTER, NULL, 0));
    TRY(llmm_prom_writer_value(w, "model=\"a\",route=\"/v1\"", 3));
    TRY(llmm_prom_writer_value(w, "model=\"b\\\"c\"", 0.5));
    TRY(llmm_prom_writer_family(w, "llm_queue_depth", NULL, LLMM_PROM_GAUGE, NULL, 0));
    TRY(llmm_prom_writer_value(w, NULL, -2.25));
    TRY(llmm_prom_writer_family(w, "llm_ttft_seconds", "TTFT.", LLMM_PROM_SUMMARY, QS, 3));
    TRY(llmm_prom_writer_sketch(w, "model=\"a\"", summary_a, 1.0));
    TRY(llmm_prom_writer_sketch(w, "model=\"b\"", summary_b, 1.0));
    TRY(llmm_prom_writer_family(w, "llm_e2e_seconds", "E2E.", LLMM_PROM_HISTOGRAM, EDGES, 3));
    TRY(llmm_prom_writer_sketch(w, NULL, hist, 1.0));
    TRY(llmm_prom_writer_family(w, "llm_tpot_seconds", "TPOT.", LLMM_PROM_NATIVE_HISTOGRAM,
                                NULL, 0));
    TRY(llmm_prom_writer_sketch(w, "gpu=\"0\"", nat, 1.0));
    TRY(llmm_prom_writer_family(w, "llm_unused", "no series", LLMM_PROM_GAUGE, NULL, 0));
#undef TRY
    return LLMM_OK;
}

/* Hand-made: summary_a has only 2s (every quantile is 2); summary_b = {0.375, 3}: q=0 is the
 * minimum, q=0.5 is rank 1 (the minimum), q=1 the maximum. hist = {0.375, 0.75, 1.5, 3} at
 * scale 6: buckets just above each value have upper bounds 0.377.., 0.754.., 1.508..,
 * 3.016..; le 0.5 → 1, le 1 → 2, le 2.5 → 3. nat = {0.375, 3} at scale 0 in text: the
 * default list (OTel GenAI durations 0.01 · 2^k); 0.375 is in (0.25, 0.5] and counts from
 * le 0.64 on, 3 is in (2, 4] and counts from 5.12 on (3.0 is the maximum). */
static const char WRITER_TEXT[] =
    "# HELP llm_requests_total Requests served.\\nBy model \\\\ route\n"
    "# TYPE llm_requests_total counter\n"
    "llm_requests_total{model=\"a\",route=\"/v1\"} 3\n"
    "llm_requests_total{model=\"b\\\"c\"} 0.5\n"
    "# TYPE llm_queue_depth gauge\n"
    "llm_queue_depth -2.25\n"
    "# HELP llm_ttft_seconds TTFT.\n"
    "# TYPE llm_ttft_seconds summary\n"
    "llm_ttft_seconds{model=\"a\",quantile=\"0.0\"} 2\n"
    "llm_ttft_seconds{model=\"a\",quantile=\"0.5\"} 2\n"
    "llm_ttft_seconds{model=\"a\",quantile=\"1.0\"} 2\n"
    "llm_ttft_seconds_sum{model=\"a\"} 6\n"
    "llm_ttft_seconds_count{model=\"a\"} 3\n"
    "llm_ttft_seconds{model=\"b\",quantile=\"0.0\"} 0.375\n"
    "llm_ttft_seconds{model=\"b\",quantile=\"0.5\"} 0.375\n"
    "llm_ttft_seconds{model=\"b\",quantile=\"1.0\"} 3\n"
    "llm_ttft_seconds_sum{model=\"b\"} 3.375\n"
    "llm_ttft_seconds_count{model=\"b\"} 2\n"
    "# HELP llm_e2e_seconds E2E.\n"
    "# TYPE llm_e2e_seconds histogram\n"
    "llm_e2e_seconds_bucket{le=\"0.5\"} 1\n"
    "llm_e2e_seconds_bucket{le=\"1.0\"} 2\n"
    "llm_e2e_seconds_bucket{le=\"2.5\"} 3\n"
    "llm_e2e_seconds_bucket{le=\"+Inf\"} 4\n"
    "llm_e2e_seconds_sum 5.625\n"
    "llm_e2e_seconds_count 4\n"
    "# HELP llm_tpot_seconds TPOT.\n"
    "# TYPE llm_tpot_seconds histogram\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.01\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.02\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.04\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.08\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.16\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.32\"} 0\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"0.64\"} 1\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"1.28\"} 1\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"2.56\"} 1\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"5.12\"} 2\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"10.24\"} 2\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"20.48\"} 2\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"40.96\"} 2\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"81.92\"} 2\n"
    "llm_tpot_seconds_bucket{gpu=\"0\",le=\"+Inf\"} 2\n"
    "llm_tpot_seconds_sum{gpu=\"0\"} 3.375\n"
    "llm_tpot_seconds_count{gpu=\"0\"} 2\n"
    "# HELP llm_unused no series\n"
    "# TYPE llm_unused gauge\n";

static void test_writer_text(void **state)
{
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len, len2;
    char *buf;
    (void)state;
    make_writer_sketches();
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    assert_ok(fill_writer(w));
    assert_status(llmm_prom_writer_finish(w, NULL, 0, &len), LLMM_E_BUFFER);
    assert_int_equal(len, strlen(WRITER_TEXT));
    buf = calloc(len + 1, 1);
    assert_status(llmm_prom_writer_finish(w, (uint8_t *)buf, len - 1, &len2), LLMM_E_BUFFER);
    assert_ok(llmm_prom_writer_finish(w, (uint8_t *)buf, len, &len2));
    assert_int_equal(len2, len);
    assert_text(buf, WRITER_TEXT);
    assert_ok(llmm_prom_writer_data(w, &data, &len2));
    assert_int_equal(len2, len);
    assert_memory_equal(data, WRITER_TEXT, len);
    /* the family is ended: no more series, but new families continue */
    assert_status(llmm_prom_writer_value(w, NULL, 1), LLMM_E_STATE);
    /* reset: same content again from scratch, memory kept */
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_TEXT));
    assert_ok(llmm_prom_writer_data(w, &data, &len2));
    assert_int_equal(len2, 0);
    assert_ok(fill_writer(w));
    assert_ok(llmm_prom_writer_data(w, &data, &len2));
    assert_int_equal(len2, len);
    assert_memory_equal(data, WRITER_TEXT, len);
    free(buf);
    llmm_prom_writer_free(w);
    free_writer_sketches();
}

static void test_writer_errors(void **state)
{
    llmm_prom_writer *w = NULL;
    llmm_sketch *s = mk(6, NULL, 0);
    const double bad_q[] = {0.5, 0.5}, bad_q2[] = {1.5}, bad_b[] = {1, 1}, bad_b2[] = {1, NAN},
                 inf_b[] = {1, INFINITY}, ok_b[] = {-1, 0, 1};
    const uint8_t *data;
    size_t len;
    (void)state;
    assert_status(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, NULL), LLMM_E_INVALID);
    w = (llmm_prom_writer *)1;
    assert_status(llmm_prom_writer_new(NULL, (llmm_prom_format)7, &w), LLMM_E_INVALID);
    assert_null(w);
    llmm_prom_writer_free(NULL);
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    /* series before any family */
    assert_status(llmm_prom_writer_value(w, NULL, 1), LLMM_E_STATE);
    assert_status(llmm_prom_writer_sketch(w, NULL, s, 1), LLMM_E_STATE);
    /* family arguments */
    assert_status(llmm_prom_writer_family(NULL, "a", NULL, LLMM_PROM_GAUGE, NULL, 0),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a b", NULL, LLMM_PROM_GAUGE, NULL, 0),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", "\xff", LLMM_PROM_GAUGE, NULL, 0),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, (llmm_prom_type)9, NULL, 0),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_GAUGE, ok_b, 1),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_SUMMARY, NULL, 0),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_SUMMARY, bad_q, 2),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_SUMMARY, bad_q2, 1),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_HISTOGRAM, bad_b, 2),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_HISTOGRAM, bad_b2, 2),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_NATIVE_HISTOGRAM, inf_b, 2),
                  LLMM_E_INVALID);
    assert_status(llmm_prom_writer_family(w, "a", NULL, LLMM_PROM_HISTOGRAM, NULL, 2),
                  LLMM_E_INVALID);
    /* nothing was written by the failed calls */
    assert_ok(llmm_prom_writer_data(w, &data, &len));
    assert_int_equal(len, 0);

    assert_ok(llmm_prom_writer_family(w, "c_total", NULL, LLMM_PROM_COUNTER, NULL, 0));
    assert_status(llmm_prom_writer_value(w, NULL, -1), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_value(w, NULL, NAN), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_value(w, NULL, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_value(w, "a=", 1), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_sketch(w, NULL, s, 1), LLMM_E_STATE);
    assert_status(llmm_prom_writer_family(w, "c_total", NULL, LLMM_PROM_GAUGE, NULL, 0),
                  LLMM_E_STATE);
    assert_ok(llmm_prom_writer_family(w, "h", NULL, LLMM_PROM_HISTOGRAM, ok_b, 3));
    assert_status(llmm_prom_writer_value(w, NULL, 1), LLMM_E_STATE);
    assert_status(llmm_prom_writer_sketch(w, "le=\"1\"", s, 1), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_sketch(w, NULL, NULL, 1), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_sketch(w, NULL, s, 0), LLMM_E_INVALID);
    assert_ok(llmm_prom_writer_sketch(w, "quantile=\"x\"", s, 1)); /* only reserved in summaries */
    assert_ok(llmm_prom_writer_family(w, "s", NULL, LLMM_PROM_SUMMARY, QS, 1));
    assert_status(llmm_prom_writer_sketch(w, "quantile=\"1\"", s, 1), LLMM_E_INVALID);
    assert_ok(llmm_prom_writer_sketch(w, "le=\"x\"", s, 1));
    assert_status(llmm_prom_writer_reset(w, (llmm_prom_format)3), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_reset(NULL, LLMM_PROM_TEXT), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_finish(w, NULL, 1, &len), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_finish(w, NULL, 0, NULL), LLMM_E_INVALID);
    assert_status(llmm_prom_writer_data(w, NULL, &len), LLMM_E_INVALID);
    /* after a reset the names may be used again */
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_PROTOBUF));
    assert_ok(llmm_prom_writer_family(w, "c_total", NULL, LLMM_PROM_COUNTER, NULL, 0));
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

/* ---- an independent protobuf decoder ----------------------------------------------------- */

typedef struct {
    const uint8_t *p, *end;
} rd;

static uint64_t rd_varint(rd *r)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t b;
        assert_true(r->p < r->end);
        b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            /* minimal encoding: no trailing zero group (except the value 0 itself) */
            assert_true(shift == 0 || b != 0);
            return v;
        }
    }
    fail_msg("varint too long");
    return 0;
}

static int64_t unzig(uint64_t u)
{
    return (u & 1) ? -(int64_t)(u >> 1) - 1 : (int64_t)(u >> 1);
}

static int rd_field(rd *r, uint32_t *field, uint32_t *wire)
{
    uint64_t t;
    if (r->p >= r->end)
        return 0;
    t = rd_varint(r);
    *field = (uint32_t)(t >> 3);
    *wire = (uint32_t)(t & 7);
    assert_true(*field > 0);
    return 1;
}

static rd rd_sub(rd *r, uint32_t wire)
{
    rd s;
    uint64_t n;
    assert_int_equal(wire, 2);
    n = rd_varint(r);
    assert_true(n <= (uint64_t)(r->end - r->p));
    s.p = r->p;
    s.end = r->p + n;
    r->p += n;
    return s;
}

static double rd_double(rd *r, uint32_t wire)
{
    uint64_t bits = 0;
    double v;
    assert_int_equal(wire, 1);
    assert_true(r->end - r->p >= 8);
    for (int i = 0; i < 8; i++)
        bits |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static void rd_string(rd *r, uint32_t wire, char *out, size_t cap)
{
    rd s = rd_sub(r, wire);
    size_t n = (size_t)(s.end - s.p);
    assert_true(n < cap);
    memcpy(out, s.p, n);
    out[n] = '\0';
}

#define MAXB 4096
typedef struct {
    char lname[8][64], lvalue[8][128];
    int nlabels;
    int kind; /* 2 gauge, 3 counter, 4 summary, 7 histogram */
    double value;
    uint64_t count;
    double sum;
    int has_count, has_sum;
    double q[16], qv[16];
    int nq;
    double le[MAXB];
    uint64_t cum[MAXB];
    int nb;
    int has_schema, has_thr, has_zc;
    int32_t schema;
    double thr;
    uint64_t zc;
    int64_t span_off[MAXB];
    uint64_t span_len[MAXB];
    int nspans;
    int64_t delta[MAXB];
    int nd;
} t_metric;

typedef struct {
    char name[128], help[256];
    int has_help;
    uint64_t type;
    t_metric *m;
    int nm;
} t_family;

static void dec_histogram(rd r, t_metric *m)
{
    uint32_t f, w;
    while (rd_field(&r, &f, &w)) {
        switch (f) {
        case 1: assert_int_equal(w, 0); m->count = rd_varint(&r); m->has_count = 1; break;
        case 2: m->sum = rd_double(&r, w); m->has_sum = 1; break;
        case 3: {
            rd b = rd_sub(&r, w);
            uint32_t bf, bw;
            int seen_c = 0, seen_u = 0;
            assert_true(m->nb < MAXB);
            while (rd_field(&b, &bf, &bw)) {
                if (bf == 1) {
                    assert_int_equal(bw, 0);
                    m->cum[m->nb] = rd_varint(&b);
                    seen_c = 1;
                } else if (bf == 2) {
                    m->le[m->nb] = rd_double(&b, bw);
                    seen_u = 1;
                } else {
                    fail_msg("unexpected Bucket field %u", bf);
                }
            }
            assert_true(seen_c && seen_u);
            m->nb++;
            break;
        }
        case 5: assert_int_equal(w, 0); m->schema = (int32_t)unzig(rd_varint(&r)); m->has_schema = 1; break;
        case 6: m->thr = rd_double(&r, w); m->has_thr = 1; break;
        case 7: assert_int_equal(w, 0); m->zc = rd_varint(&r); m->has_zc = 1; break;
        case 12: {
            rd s = rd_sub(&r, w);
            uint32_t sf, sw;
            assert_true(m->nspans < MAXB);
            m->span_off[m->nspans] = 0;
            m->span_len[m->nspans] = 0;
            while (rd_field(&s, &sf, &sw)) {
                assert_int_equal(sw, 0);
                if (sf == 1)
                    m->span_off[m->nspans] = unzig(rd_varint(&s));
                else if (sf == 2)
                    m->span_len[m->nspans] = rd_varint(&s);
                else
                    fail_msg("unexpected BucketSpan field %u", sf);
            }
            m->nspans++;
            break;
        }
        case 13: {
            if (w == 2) { /* packed */
                rd d = rd_sub(&r, w);
                while (d.p < d.end) {
                    assert_true(m->nd < MAXB);
                    m->delta[m->nd++] = unzig(rd_varint(&d));
                }
            } else {
                assert_int_equal(w, 0);
                m->delta[m->nd++] = unzig(rd_varint(&r));
            }
            break;
        }
        default: fail_msg("unexpected Histogram field %u", f);
        }
    }
}

static void dec_metric(rd r, t_metric *m)
{
    uint32_t f, w;
    memset(m, 0, sizeof *m);
    while (rd_field(&r, &f, &w)) {
        if (f == 1) {
            rd l = rd_sub(&r, w);
            uint32_t lf, lw;
            assert_true(m->nlabels < 8);
            while (rd_field(&l, &lf, &lw)) {
                if (lf == 1)
                    rd_string(&l, lw, m->lname[m->nlabels], 64);
                else if (lf == 2)
                    rd_string(&l, lw, m->lvalue[m->nlabels], 128);
                else
                    fail_msg("unexpected LabelPair field %u", lf);
            }
            m->nlabels++;
        } else if (f == 2 || f == 3) {
            rd v = rd_sub(&r, w);
            uint32_t vf, vw;
            m->kind = (int)f;
            while (rd_field(&v, &vf, &vw)) {
                assert_int_equal(vf, 1);
                m->value = rd_double(&v, vw);
            }
        } else if (f == 4) {
            rd s = rd_sub(&r, w);
            uint32_t sf, sw;
            m->kind = 4;
            while (rd_field(&s, &sf, &sw)) {
                if (sf == 1) {
                    assert_int_equal(sw, 0);
                    m->count = rd_varint(&s);
                    m->has_count = 1;
                } else if (sf == 2) {
                    m->sum = rd_double(&s, sw);
                    m->has_sum = 1;
                } else if (sf == 3) {
                    rd q = rd_sub(&s, sw);
                    uint32_t qf, qw;
                    while (rd_field(&q, &qf, &qw)) {
                        if (qf == 1)
                            m->q[m->nq] = rd_double(&q, qw);
                        else if (qf == 2)
                            m->qv[m->nq] = rd_double(&q, qw);
                        else
                            fail_msg("unexpected Quantile field %u", qf);
                    }
                    m->nq++;
                } else {
                    fail_msg("unexpected Summary field %u", sf);
                }
            }
        } else if (f == 7) {
            m->kind = 7;
            dec_histogram(rd_sub(&r, w), m);
        } else {
            fail_msg("unexpected Metric field %u", f);
        }
    }
}

/* Decode a delimited MetricFamily stream. */
static int dec_stream(const uint8_t *p, size_t n, t_family *fam, int maxf)
{
    rd all = {p, p + n};
    int nf = 0;
    while (all.p < all.end) {
        uint64_t len = rd_varint(&all);
        rd r;
        uint32_t f, w;
        t_family *F = &fam[nf];
        assert_true(nf < maxf);
        assert_true(len <= (uint64_t)(all.end - all.p));
        r.p = all.p;
        r.end = all.p + len;
        all.p += len;
        memset(F, 0, sizeof *F);
        F->m = calloc(8, sizeof *F->m);
        while (rd_field(&r, &f, &w)) {
            switch (f) {
            case 1: rd_string(&r, w, F->name, sizeof F->name); break;
            case 2: rd_string(&r, w, F->help, sizeof F->help); F->has_help = 1; break;
            case 3: assert_int_equal(w, 0); F->type = rd_varint(&r); break;
            case 4:
                assert_true(F->nm < 8);
                dec_metric(rd_sub(&r, w), &F->m[F->nm++]);
                break;
            default: fail_msg("unexpected MetricFamily field %u", f);
            }
        }
        nf++;
    }
    return nf;
}

static void free_families(t_family *fam, int n)
{
    for (int i = 0; i < n; i++)
        free(fam[i].m);
}

/* Rebuild (Prometheus index, count) pairs from spans and deltas. */
static int rebuild(const t_metric *m, int64_t *idx, uint64_t *cnt)
{
    int64_t at = 0, c = 0;
    int k = 0;
    uint64_t total_len = 0;
    for (int s = 0; s < m->nspans; s++)
        total_len += m->span_len[s];
    assert_int_equal(total_len, (uint64_t)m->nd); /* Prometheus rejects a mismatch */
    for (int s = 0; s < m->nspans; s++) {
        if (s > 0)
            assert_true(m->span_off[s] >= 0);
        at += m->span_off[s];
        for (uint64_t j = 0; j < m->span_len[s]; j++) {
            c += m->delta[k];
            assert_true(c >= 0); /* no negative bucket counts */
            idx[k] = at;
            cnt[k] = (uint64_t)c;
            k++;
            at++;
        }
    }
    return k;
}

/* ---- writer: protobuf -------------------------------------------------------------------- */

static void test_writer_protobuf(void **state)
{
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len;
    t_family fam[8];
    int nf;
    int64_t idx[16];
    uint64_t cnt[16];
    (void)state;
    make_writer_sketches();
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    assert_ok(fill_writer(w));
    assert_ok(llmm_prom_writer_data(w, &data, &len));
    nf = dec_stream(data, len, fam, 8);
    assert_int_equal(nf, 5); /* the family without series is left out */

    assert_string_equal(fam[0].name, "llm_requests_total");
    assert_true(fam[0].has_help);
    assert_string_equal(fam[0].help, "Requests served.\nBy model \\ route"); /* raw, unescaped */
    assert_int_equal(fam[0].type, 0);
    assert_int_equal(fam[0].nm, 2);
    assert_int_equal(fam[0].m[0].kind, 3);
    assert_true(fam[0].m[0].value == 3);
    assert_int_equal(fam[0].m[0].nlabels, 2);
    assert_string_equal(fam[0].m[0].lname[0], "model");
    assert_string_equal(fam[0].m[0].lvalue[0], "a");
    assert_string_equal(fam[0].m[0].lname[1], "route");
    assert_string_equal(fam[0].m[0].lvalue[1], "/v1");
    assert_string_equal(fam[0].m[1].lvalue[0], "b\"c");
    assert_true(fam[0].m[1].value == 0.5);

    assert_string_equal(fam[1].name, "llm_queue_depth");
    assert_false(fam[1].has_help);
    assert_int_equal(fam[1].type, 1);
    assert_int_equal(fam[1].nm, 1);
    assert_int_equal(fam[1].m[0].kind, 2);
    assert_int_equal(fam[1].m[0].nlabels, 0);
    assert_true(fam[1].m[0].value == -2.25);

    assert_string_equal(fam[2].name, "llm_ttft_seconds");
    assert_int_equal(fam[2].type, 2);
    assert_int_equal(fam[2].nm, 2);
    {
        const t_metric *a = &fam[2].m[0], *b = &fam[2].m[1];
        assert_int_equal(a->kind, 4);
        assert_true(a->has_count && a->has_sum);
        assert_int_equal(a->count, 3);
        assert_true(a->sum == 6);
        assert_int_equal(a->nq, 3);
        for (int i = 0; i < 3; i++) {
            assert_true(a->q[i] == QS[i]);
            assert_true(a->qv[i] == 2);
        }
        assert_int_equal(b->count, 2);
        assert_true(b->sum == 3.375);
        assert_true(b->qv[0] == 0.375 && b->qv[1] == 0.375 && b->qv[2] == 3);
        assert_string_equal(b->lvalue[0], "b");
    }

    assert_string_equal(fam[3].name, "llm_e2e_seconds");
    assert_int_equal(fam[3].type, 4);
    {
        const t_metric *h = &fam[3].m[0];
        assert_int_equal(h->kind, 7);
        assert_int_equal(h->count, 4);
        assert_true(h->sum == 5.625);
        assert_int_equal(h->nb, 3); /* +Inf implied by sample_count */
        assert_true(h->le[0] == 0.5 && h->le[1] == 1 && h->le[2] == 2.5);
        assert_int_equal(h->cum[0], 1);
        assert_int_equal(h->cum[1], 2);
        assert_int_equal(h->cum[2], 3);
        /* a classic histogram carries no native fields */
        assert_false(h->has_schema || h->has_thr || h->has_zc || h->nspans || h->nd);
    }

    /* native: scale-0 sketch {0.375, 3}: OTel buckets -2 and 1 → Prometheus -1 and 2 */
    assert_string_equal(fam[4].name, "llm_tpot_seconds");
    assert_int_equal(fam[4].type, 4);
    {
        const t_metric *h = &fam[4].m[0];
        int k;
        assert_int_equal(h->kind, 7);
        assert_string_equal(h->lname[0], "gpu");
        assert_int_equal(h->count, 2);
        assert_true(h->sum == 3.375);
        assert_true(h->has_schema && h->has_thr && h->has_zc);
        assert_int_equal(h->schema, 0);
        assert_int_equal(h->zc, 0);
        assert_true(h->thr == ldexp(1.0, -30)); /* lower bound of 1e-9's bucket at scale 0 */
        assert_int_equal(h->nb, 0);
        assert_int_equal(h->nspans, 2);
        assert_int_equal(h->span_off[0], -1);
        assert_int_equal(h->span_len[0], 1);
        assert_int_equal(h->span_off[1], 2); /* gap: indices 0 and 1 are empty */
        assert_int_equal(h->span_len[1], 1);
        assert_int_equal(h->nd, 2);
        assert_int_equal(h->delta[0], 1);
        assert_int_equal(h->delta[1], 0);
        k = rebuild(h, idx, cnt);
        assert_int_equal(k, 2);
        assert_int_equal(idx[0], -1);
        assert_int_equal(idx[1], 2);
    }
    free_families(fam, nf);
    llmm_prom_writer_free(w);
    free_writer_sketches();
}

/* Native export of random data against counts derived from the raw values. */
static void check_native(const double *v, size_t n, int scale, double f, int exact)
{
    llmm_sketch *s = mk(scale, v, n);
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len;
    t_family fam[1];
    int nf, k, e = scale > 8 ? 8 : scale;
    int64_t *idx = calloc(MAXB, sizeof *idx);
    uint64_t *cnt = calloc(MAXB, sizeof *cnt);
    int32_t lo_i = INT32_MAX, hi_i = INT32_MIN;
    uint64_t *truth;
    double sum = 0, lo, hi;

    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    assert_ok(llmm_prom_writer_family(w, "n", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
    assert_ok(llmm_prom_writer_sketch(w, "a=\"1\"", s, f));
    assert_ok(llmm_prom_writer_data(w, &data, &len));
    nf = dec_stream(data, len, fam, 1);
    assert_int_equal(nf, 1);
    const t_metric *h = &fam[0].m[0];
    assert_int_equal(h->schema, e);
    assert_int_equal(h->count, n);
    assert_int_equal(h->zc, 0);
    assert_ok(llmm_sketch_sum(s, &sum));
    assert_true(h->sum == sum * f);
    assert_ok(llmm_sketch_range(s, &lo, &hi));
    assert_true(h->thr > 0 && h->thr <= lo * f * (1 + 1e-15) && h->thr > lo * f / 2.0001);
    k = rebuild(h, idx, cnt);

    /* truth: the bucket of every value times the factor, at the exported scale */
    for (size_t i = 0; i < n; i++) {
        int32_t j;
        assert_ok(llmm_sketch_index(e, v[i] * f, &j));
        lo_i = j < lo_i ? j : lo_i;
        hi_i = j > hi_i ? j : hi_i;
    }
    truth = calloc((size_t)(hi_i - lo_i + 3), sizeof *truth);
    for (size_t i = 0; i < n; i++) {
        int32_t j;
        llmm_sketch_index(e, v[i] * f, &j);
        truth[j - lo_i + 1]++;
    }
    if (exact) {
        uint64_t total = 0;
        for (int i = 0; i < k; i++) {
            int64_t otel = idx[i] - 1; /* Prometheus index = OTel index + 1 */
            assert_true(otel >= lo_i && otel <= hi_i);
            assert_int_equal(cnt[i], truth[otel - lo_i + 1]);
            total += cnt[i];
        }
        assert_int_equal(total, n);
        for (int32_t j = lo_i; j <= hi_i; j++) { /* and nothing was left out */
            int found = truth[j - lo_i + 1] == 0;
            for (int i = 0; i < k && !found; i++)
                found = idx[i] - 1 == j;
            assert_true(found);
        }
    } else {
        /* within one bucket: C_exp(<= j) lies between C_true(<= j-1) and C_true(<= j+1) */
        uint64_t ce = 0, ct_prev = 0, ct = 0, ct_next;
        int i = 0;
        for (int32_t j = lo_i - 1; j <= hi_i + 1; j++) {
            while (i < k && idx[i] - 1 <= j)
                ce += cnt[i++];
            ct_prev = ct;
            if (j >= lo_i && j <= hi_i)
                ct += truth[j - lo_i + 1];
            ct_next = ct + (j + 1 >= lo_i && j + 1 <= hi_i ? truth[j + 1 - lo_i + 1] : 0);
            assert_true(ce >= (j == lo_i - 1 ? 0 : ct_prev) && ce <= ct_next);
        }
        assert_int_equal(ce, n);
    }
    free(truth);
    free(idx);
    free(cnt);
    free_families(fam, nf);
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

static void test_native_lossless(void **state)
{
    uint64_t x = 42;
    size_t n = 20000;
    double *v = malloc(n * sizeof *v);
    (void)state;
    for (size_t i = 0; i < n; i++)
        v[i] = lognormal(&x, 0.2, 1.0);
    check_native(v, n, 6, 1.0, 1);
    check_native(v, n, 6, 0.0009765625, 1); /* 2^-10: exact index shift */
    check_native(v, n, 6, 1024.0, 1);
    check_native(v, n, 0, 1.0, 1);
    check_native(v, n, 3, 0.5, 1);
    check_native(v, n, 8, 1.0, 1);
    check_native(v, n, 9, 1.0, 1);  /* downscaled to schema 8 */
    check_native(v, n, 10, 4.0, 1); /* downscaled and shifted */
    check_native(v, n, 6, 1e-3, 0); /* not a power of two: within one bucket */
    check_native(v, n, 10, 1e-3, 0);
    check_native(v, n, 2, 3.7, 0);
    free(v);
}

static void test_native_special_counts(void **state)
{
    /* range 1e-3 .. 1e3: 0 and 1e-5 go to the zero bucket, 1e5 (x2) to the bucket of 1e3 */
    llmm_sketch *s = mk(6, NULL, 0);
    const double v[] = {0, 1e-5, 1, 1e5, 1e5};
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len;
    t_family fam[2];
    int64_t idx[8];
    uint64_t cnt[8];
    int32_t i1, ihi;
    double lower_lo;
    int k;
    (void)state;
    assert_ok(llmm_sketch_set_range(s, 1e-3, 1e3));
    assert_ok(llmm_sketch_add_many(s, v, 5));
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    assert_ok(llmm_prom_writer_family(w, "n", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
    assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
    assert_ok(llmm_prom_writer_family(w, "empty", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
    {
        llmm_sketch *e = mk(6, NULL, 0);
        assert_ok(llmm_prom_writer_sketch(w, NULL, e, 1.0));
        llmm_sketch_free(e);
    }
    assert_ok(llmm_prom_writer_data(w, &data, &len));
    assert_int_equal(dec_stream(data, len, fam, 2), 2);
    const t_metric *h = &fam[0].m[0];
    assert_int_equal(h->count, 5);
    assert_true(h->sum == 0 + 1e-5 + 1 + 1e5 + 1e5);
    assert_int_equal(h->zc, 2);
    /* threshold: lower bound of the bucket holding 1e-3 = base^i with base^i < 1e-3 */
    assert_true(h->thr < 1e-3 && h->thr > 1e-3 / exp2(1.0 / 64) * (1 - 1e-12));
    assert_ok(llmm_sketch_index(6, 1e-3, &i1));
    assert_ok(llmm_sketch_bucket_bounds(6, i1, &lower_lo, NULL));
    assert_true(h->thr == lower_lo);
    k = rebuild(h, idx, cnt);
    assert_int_equal(k, 2);
    assert_ok(llmm_sketch_index(6, 1.0, &i1));
    assert_ok(llmm_sketch_index(6, 1e3, &ihi));
    assert_int_equal(idx[0], i1 + 1);
    assert_int_equal(cnt[0], 1);
    assert_int_equal(idx[1], ihi + 1);
    assert_int_equal(cnt[1], 2);
    /* the empty histogram: valid, native (threshold > 0, one no-op span), no deltas */
    const t_metric *z = &fam[1].m[0];
    assert_int_equal(z->count, 0);
    assert_true(z->sum == 0);
    assert_true(z->has_schema && z->schema == 6);
    assert_true(z->thr > 0);
    assert_int_equal(z->zc, 0);
    assert_int_equal(z->nspans, 1);
    assert_int_equal(z->span_off[0], 0);
    assert_int_equal(z->span_len[0], 0);
    assert_int_equal(z->nd, 0);
    free_families(fam, 2);
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
}

/* ---- classic buckets ---------------------------------------------------------------------- */

static uint64_t count_le(const double *v, size_t n, double f, double b)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += v[i] * f <= b;
    return c;
}

static void test_classic_counts(void **state)
{
    uint64_t x = 7;
    size_t n = 5000;
    double *v = malloc(n * sizeof *v);
    double pow2[20], vllm[32];
    size_t nv = 0;
    llmm_sketch *s;
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len;
    t_family fam[2];
    (void)state;
    for (size_t i = 0; i < n; i++)
        v[i] = i % 50 == 0 ? 0.0 : lognormal(&x, 0.3, 1.2);
    for (int i = 0; i < 20; i++)
        pow2[i] = ldexp(1.0, i - 10); /* 2^-10 .. 2^9: bucket bounds at every scale */
    assert_ok(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, vllm, 32, &nv));
    for (int scale = 0; scale <= 10; scale += 2) {
        s = mk(scale, v, n);
        assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
        assert_ok(llmm_prom_writer_family(w, "p", NULL, LLMM_PROM_HISTOGRAM, pow2, 20));
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        assert_ok(llmm_prom_writer_family(w, "v", NULL, LLMM_PROM_HISTOGRAM, vllm, nv));
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        assert_ok(llmm_prom_writer_data(w, &data, &len));
        assert_int_equal(dec_stream(data, len, fam, 2), 2);
        /* bounds on bucket bounds: exact */
        for (int i = 0; i < 20; i++) {
            assert_true(fam[0].m[0].le[i] == pow2[i]);
            assert_int_equal(fam[0].m[0].cum[i], count_le(v, n, 1.0, pow2[i]));
        }
        /* other bounds: short by at most the values of the bucket holding the bound */
        for (size_t i = 0; i < nv; i++) {
            double lower, upper;
            int32_t j;
            uint64_t exact = count_le(v, n, 1.0, vllm[i]);
            assert_ok(llmm_sketch_index(scale, vllm[i], &j));
            assert_ok(llmm_sketch_bucket_bounds(scale, j, &lower, &upper));
            assert_true(fam[1].m[0].cum[i] <= exact);
            assert_true(fam[1].m[0].cum[i] >= count_le(v, n, 1.0, lower));
        }
        free_families(fam, 2);
        llmm_prom_writer_free(w);
        llmm_sketch_free(s);
    }
    free(v);
}

static void test_bucket_lists(void **state)
{
    double b[32];
    size_t n = 0;
    (void)state;
    /* first and last bound and length of each list, as published (see classic.c) */
    static const struct {
        llmm_bucket_list id;
        size_t n;
        double first, last;
    } want[] = {
        {LLMM_BUCKETS_VLLM_TTFT, 22, 0.001, 2560},
        {LLMM_BUCKETS_VLLM_INTER_TOKEN, 19, 0.01, 80},
        {LLMM_BUCKETS_VLLM_REQUEST_LATENCY, 21, 0.3, 7680},
        {LLMM_BUCKETS_OTEL_GENAI_DURATION, 14, 0.01, 81.92},
        {LLMM_BUCKETS_OTEL_GENAI_TTFT, 16, 0.001, 10},
        {LLMM_BUCKETS_OTEL_GENAI_TPOT, 13, 0.01, 2.5},
        {LLMM_BUCKETS_OTEL_GENAI_TOKENS, 14, 1, 67108864},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_status(llmm_prom_buckets(want[i].id, NULL, 0, &n), LLMM_E_BUFFER);
        assert_int_equal(n, want[i].n);
        assert_status(llmm_prom_buckets(want[i].id, b, n - 1, &n), LLMM_E_BUFFER);
        assert_ok(llmm_prom_buckets(want[i].id, b, 32, &n));
        assert_int_equal(n, want[i].n);
        assert_true(b[0] == want[i].first && b[n - 1] == want[i].last);
        for (size_t k = 1; k < n; k++)
            assert_true(b[k] > b[k - 1]);
    }
    /* the GenAI duration list is 0.01·2^k, the token list 4^k */
    assert_ok(llmm_prom_buckets(LLMM_BUCKETS_OTEL_GENAI_DURATION, b, 32, &n));
    for (size_t k = 0; k < n; k++)
        assert_close(b[k], 0.01 * ldexp(1.0, (int)k), 1e-15, 0);
    assert_ok(llmm_prom_buckets(LLMM_BUCKETS_OTEL_GENAI_TOKENS, b, 32, &n));
    for (size_t k = 0; k < n; k++)
        assert_true(b[k] == ldexp(1.0, 2 * (int)k));
    assert_status(llmm_prom_buckets((llmm_bucket_list)99, b, 32, &n), LLMM_E_INVALID);
    assert_status(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, b, 32, NULL), LLMM_E_INVALID);
    assert_status(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, NULL, 32, &n), LLMM_E_INVALID);
}

/* ---- negotiation -------------------------------------------------------------------------- */

static void test_negotiate(void **state)
{
    llmm_prom_format f;
    const char *ct = NULL;
    static const char *proto_ct =
        "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
        "encoding=delimited";
    static const char *text_ct = "text/plain; version=0.0.4; charset=utf-8";
    static const struct {
        const char *accept;
        llmm_prom_format want;
    } cases[] = {
        /* Prometheus 2.42 with --enable-feature=native-histograms */
        {"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
         "encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,"
         "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,"
         "*/*;q=0.1",
         LLMM_PROM_PROTOBUF},
        /* without the flag */
        {"application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
         "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
         LLMM_PROM_TEXT},
        {NULL, LLMM_PROM_TEXT},
        {"", LLMM_PROM_TEXT},
        {"*/*", LLMM_PROM_TEXT},
        {"application/json", LLMM_PROM_TEXT},
        {"garbage;;;==", LLMM_PROM_TEXT},
        /* protobuf without the delimited encoding or the right message is not ours */
        {"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily",
         LLMM_PROM_TEXT},
        {"application/vnd.google.protobuf;proto=other.Msg;encoding=delimited", LLMM_PROM_TEXT},
        /* qualities decide; ties go to the first */
        {"text/plain;q=0.9, application/vnd.google.protobuf; "
         "proto=io.prometheus.client.MetricFamily; encoding=delimited; q=0.8",
         LLMM_PROM_TEXT},
        {"text/plain;q=0.5, application/vnd.google.protobuf; "
         "proto=io.prometheus.client.MetricFamily; encoding=delimited; q=0.8",
         LLMM_PROM_PROTOBUF},
        {"APPLICATION/VND.GOOGLE.PROTOBUF;PROTO=io.prometheus.client.MetricFamily;"
         "ENCODING=DELIMITED;q=1.0",
         LLMM_PROM_PROTOBUF},
        {"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
         "encoding=delimited;q=0",
         LLMM_PROM_TEXT},
        {"application/vnd.google.protobuf;proto=\"io.prometheus.client.MetricFamily\";"
         "encoding=\"delimited\";q=0.7,text/*;q=0.6",
         LLMM_PROM_PROTOBUF},
        {"text/plain;version=0.0.4;q=0.5,application/vnd.google.protobuf;"
         "proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5",
         LLMM_PROM_TEXT},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        f = (llmm_prom_format)-1;
        assert_ok(llmm_prom_negotiate(cases[i].accept, &f, &ct));
        if (f != cases[i].want) {
            print_error("case %zu: [%s] gave %d\n", i, cases[i].accept ? cases[i].accept : "NULL",
                        (int)f);
            fail();
        }
        assert_string_equal(ct, f == LLMM_PROM_PROTOBUF ? proto_ct : text_ct);
    }
    assert_ok(llmm_prom_negotiate("*/*", &f, NULL));
    assert_status(llmm_prom_negotiate("*/*", NULL, &ct), LLMM_E_INVALID);
    assert_string_equal(llmm_prom_content_type(LLMM_PROM_TEXT), text_ct);
    assert_string_equal(llmm_prom_content_type(LLMM_PROM_PROTOBUF), proto_ct);
    assert_null(llmm_prom_content_type((llmm_prom_format)5));
}

/* ---- OTLP JSON ---------------------------------------------------------------------------- */

typedef struct {
    const llmm_sketch *s, *earlier;
    const char *name;
    const llmm_otlp_options *o;
} otlp_arg;

static llmm_status otlp_point_fn(void *a, uint8_t *buf, size_t cap, size_t *len)
{
    otlp_arg *t = (otlp_arg *)a;
    return llmm_export_otlp_json_point(t->s, t->earlier, t->o, buf, cap, len);
}

static llmm_status otlp_req_fn(void *a, uint8_t *buf, size_t cap, size_t *len)
{
    otlp_arg *t = (otlp_arg *)a;
    return llmm_export_otlp_json(t->s, t->earlier, t->name, t->o, buf, cap, len);
}

static void test_otlp_golden(void **state)
{
    /* scale 0: 0.375 → bucket -2, 0.75 → -1, 3 → 1; one zero. Threshold: 1e-9 lies in
     * (2^-30, 2^-29], lower bound 2^-30 = 9.313225746154785e-10. */
    const double v[] = {0, 0.375, 0.75, 3};
    llmm_sketch *s = mk(0, v, 4);
    llmm_otlp_options o;
    otlp_arg a = {s, NULL, "gen_ai.server.request.duration", &o};
    char *out;
    (void)state;
    assert_ok(llmm_otlp_options_init(&o));
    o.start_time_unix_nano = 1000;
    o.time_unix_nano = 18446744073709551615ull; /* 64-bit values travel as strings */
    o.attributes = "gen_ai.request.model=\"m\\\"1\",gpu=\"\\\\0\"";
    out = run_export(otlp_point_fn, &a);
    assert_text(out, "{\"attributes\":[{\"key\":\"gen_ai.request.model\",\"value\":"
                     "{\"stringValue\":\"m\\\"1\"}},{\"key\":\"gpu\",\"value\":"
                     "{\"stringValue\":\"\\\\0\"}}],"
                     "\"startTimeUnixNano\":\"1000\",\"timeUnixNano\":\"18446744073709551615\","
                     "\"count\":\"4\",\"sum\":4.125,\"scale\":0,\"zeroCount\":\"1\","
                     "\"positive\":{\"offset\":-2,\"bucketCounts\":[\"1\",\"1\",\"0\",\"1\"]},"
                     "\"min\":0,\"max\":3,\"zeroThreshold\":9.313225746154785e-10}");
    free(out);

    /* factor 2^-10: every index moves by -10 (scale 0), values and threshold scale exactly */
    o.unit_to_seconds = 0.0009765625;
    o.attributes = NULL;
    o.temporality = LLMM_OTLP_DELTA;
    o.description = "Time \"per\" request";
    o.unit = NULL;
    o.resource_attributes = "service.name=\"llm\"";
    out = run_export(otlp_req_fn, &a);
    assert_text(out,
                "{\"resourceMetrics\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
                "\"value\":{\"stringValue\":\"llm\"}}]},\"scopeMetrics\":[{\"scope\":{\"name\":"
                "\"libllmmetrics\",\"version\":\"" LLMM_VERSION_STRING "\"},\"metrics\":[{"
                "\"name\":\"gen_ai.server.request.duration\",\"description\":"
                "\"Time \\\"per\\\" request\",\"unit\":\"s\",\"exponentialHistogram\":{"
                "\"dataPoints\":[{\"attributes\":[],\"startTimeUnixNano\":\"1000\","
                "\"timeUnixNano\":\"18446744073709551615\",\"count\":\"4\","
                "\"sum\":0.0040283203125,\"scale\":0,\"zeroCount\":\"1\",\"positive\":{"
                "\"offset\":-12,\"bucketCounts\":[\"1\",\"1\",\"0\",\"1\"]},\"min\":0,"
                "\"max\":0.0029296875,\"zeroThreshold\":9.094947017729282e-13}],"
                "\"aggregationTemporality\":1}}]}]}]}");
    free(out);

    /* empty sketch: no buckets, no min / max */
    llmm_sketch_free(s);
    s = mk(6, NULL, 0);
    a.s = s;
    out = run_export(otlp_point_fn, &a);
    assert_non_null(strstr(out, "\"count\":\"0\",\"sum\":0,\"scale\":6,\"zeroCount\":\"0\","
                                "\"positive\":{\"offset\":0,\"bucketCounts\":[]},"
                                "\"zeroThreshold\":"));
    assert_null(strstr(out, "\"min\""));
    free(out);
    llmm_sketch_free(s);
}

static void test_otlp_max_buckets(void **state)
{
    uint64_t x = 99;
    size_t n = 3000;
    double *v = malloc(n * sizeof *v);
    llmm_sketch *s;
    llmm_otlp_options o;
    otlp_arg a;
    (void)state;
    for (size_t i = 0; i < n; i++)
        v[i] = lognormal(&x, 0.2, 1.0);
    s = mk(6, v, n);
    a = (otlp_arg){s, NULL, NULL, &o};
    /* the data straddle 1.0, the bound between buckets -1 and 0 at every scale down to -10:
     * one bucket is impossible */
    assert_ok(llmm_otlp_options_init(&o));
    o.max_buckets = 1;
    {
        uint8_t buf[16];
        size_t len;
        assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, &len),
                      LLMM_E_RANGE);
    }
    for (uint32_t maxb = 2; maxb <= 400; maxb = maxb * 3 + 1) {
        char *out, *p;
        int scale, nb = 0;
        uint64_t total = 0;
        assert_ok(llmm_otlp_options_init(&o));
        o.max_buckets = maxb;
        out = run_export(otlp_point_fn, &a);
        p = strstr(out, "\"scale\":");
        assert_non_null(p);
        scale = atoi(p + 8);
        p = strstr(out, "\"bucketCounts\":[");
        assert_non_null(p);
        p += 16;
        while (*p == '"') {
            total += strtoull(p + 1, &p, 10);
            nb++;
            p += 1;
            if (*p == ',')
                p++;
        }
        assert_true(nb <= (int)maxb);
        assert_int_equal(total, n);
        /* the largest scale that fits: one scale finer would need more buckets */
        if (scale < 6 && scale >= -1) {
            double mn, mx;
            int32_t i0, i1;
            int fine = scale + 1;
            assert_ok(llmm_sketch_min(s, &mn));
            assert_ok(llmm_sketch_max(s, &mx));
            assert_ok(llmm_sketch_index(fine < 0 ? 0 : fine, mn, &i0));
            assert_ok(llmm_sketch_index(fine < 0 ? 0 : fine, mx, &i1));
            if (fine >= 0)
                assert_true(i1 - i0 + 1 > (int)maxb);
        }
        if (maxb == 2)
            assert_true(scale < 0);
        free(out);
    }
    llmm_sketch_free(s);
    free(v);
}

static void test_otlp_delta(void **state)
{
    /* values in eighths: every sum is exact. The interval extends both extremes, so its min
     * and max are exact too, and the delta point equals the point of the interval alone. */
    const double before[] = {0.5, 0.625, 1, 2, 0}, extra[] = {0.125, 0.5, 1.5, 8, 0};
    llmm_sketch *s1 = mk(6, before, 5), *s2 = NULL, *only = mk(6, extra, 5);
    llmm_otlp_options o;
    otlp_arg a;
    char *d, *want;
    uint8_t buf[64];
    size_t len;
    (void)state;
    assert_ok(llmm_sketch_clone(s1, &s2));
    assert_ok(llmm_sketch_add_many(s2, extra, 5));
    assert_ok(llmm_otlp_options_init(&o));
    o.temporality = LLMM_OTLP_DELTA;
    a = (otlp_arg){s2, s1, NULL, &o};
    d = run_export(otlp_point_fn, &a);
    a = (otlp_arg){only, NULL, NULL, &o};
    want = run_export(otlp_point_fn, &a);
    assert_text(d, want);
    free(d);
    free(want);
    /* errors */
    o.temporality = LLMM_OTLP_CUMULATIVE;
    assert_status(llmm_export_otlp_json_point(s2, s1, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.temporality = LLMM_OTLP_DELTA;
    assert_status(llmm_export_otlp_json_point(s1, s2, &o, buf, sizeof buf, &len),
                  LLMM_E_STATE);
    llmm_sketch_free(s1);
    llmm_sketch_free(s2);
    llmm_sketch_free(only);
}

static void test_otlp_errors(void **state)
{
    llmm_sketch *s = mk(6, NULL, 0), *other = mk(5, NULL, 0);
    llmm_otlp_options o;
    uint8_t buf[1024];
    size_t len;
    (void)state;
    assert_status(llmm_otlp_options_init(NULL), LLMM_E_INVALID);
    assert_ok(llmm_otlp_options_init(&o));
    assert_int_equal(o.struct_size, sizeof o);
    assert_true(o.unit_to_seconds == 1.0);
    assert_int_equal(o.temporality, LLMM_OTLP_CUMULATIVE);
    assert_int_equal(o.max_buckets, 0);
    assert_ok(llmm_export_otlp_json_point(s, NULL, NULL, buf, sizeof buf, &len));
    assert_status(llmm_export_otlp_json_point(NULL, NULL, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, NULL),
                  LLMM_E_INVALID);
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, NULL, 3, &len), LLMM_E_INVALID);
    o.struct_size = 8;
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, &len), LLMM_E_ABI);
    assert_ok(llmm_otlp_options_init(&o));
    o.unit_to_seconds = 0;
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.unit_to_seconds = 1;
    o.temporality = (llmm_otlp_temporality)0;
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.temporality = LLMM_OTLP_DELTA;
    o.attributes = "a=\"x\",";
    assert_status(llmm_export_otlp_json_point(s, NULL, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.attributes = NULL;
    o.resource_attributes = "a b";
    assert_status(llmm_export_otlp_json(s, NULL, "m", &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.resource_attributes = NULL;
    o.description = "\xfe";
    assert_status(llmm_export_otlp_json(s, NULL, "m", &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    o.description = NULL;
    assert_status(llmm_export_otlp_json(s, NULL, NULL, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_otlp_json(s, NULL, "", &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    assert_status(llmm_export_otlp_json_point(s, other, &o, buf, sizeof buf, &len),
                  LLMM_E_INVALID);
    llmm_sketch_free(s);
    llmm_sketch_free(other);
}

/* ---- allocation failures ------------------------------------------------------------------- */

static char *writer_reference;
static size_t writer_reference_len;

static llmm_status step_writer(llmm_ctx *ctx, void *arg)
{
    llmm_prom_writer *w = NULL;
    llmm_status st;
    const uint8_t *data;
    size_t len;
    (void)arg;
    if ((st = llmm_prom_writer_new(ctx, LLMM_PROM_PROTOBUF, &w)) != LLMM_OK)
        return st;
    st = fill_writer(w);
    if (st == LLMM_OK) {
        assert_ok(llmm_prom_writer_data(w, &data, &len));
        assert_int_equal(len, writer_reference_len);
        assert_memory_equal(data, writer_reference, len);
    }
    llmm_prom_writer_free(w);
    return st;
}

static void test_writer_nomem(void **state)
{
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t allocs;
    (void)state;
    make_writer_sketches();
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    assert_ok(fill_writer(w));
    assert_ok(llmm_prom_writer_data(w, &data, &writer_reference_len));
    writer_reference = malloc(writer_reference_len);
    memcpy(writer_reference, data, writer_reference_len);
    llmm_prom_writer_free(w);
    allocs = llmm_test_each_failure(step_writer, NULL);
    assert_true(allocs >= 2);
    free(writer_reference);
    free_writer_sketches();
}

/* A failed call leaves the output exactly as it was (both formats). */
static void test_writer_atomic(void **state)
{
    (void)state;
    make_writer_sketches();
    for (int fmt = 0; fmt < 2; fmt++) {
        for (size_t k = 1; k < 200; k++) {
            llmm_test_alloc t;
            llmm_ctx *ctx = llmm_test_ctx(&t, k);
            llmm_prom_writer *w = NULL;
            int failed = 0;
            if (llmm_prom_writer_new(ctx, (llmm_prom_format)fmt, &w) != LLMM_OK) {
                llmm_ctx_free(ctx);
                continue;
            }
            /* many series in one family so the buffer has to grow mid-family */
            for (int i = 0; i < 60 && !failed; i++) {
                const uint8_t *d;
                size_t after_len;
                char lab[32];
                llmm_status st;
                if (i % 20 == 0) {
                    snprintf(lab, sizeof lab, "fam_%d", i);
                    st = llmm_prom_writer_family(w, lab, "help", LLMM_PROM_NATIVE_HISTOGRAM,
                                                 EDGES, 3);
                } else {
                    snprintf(lab, sizeof lab, "i=\"%d\"", i);
                    st = llmm_prom_writer_sketch(w, lab, hist, 1.0);
                }
                if (st == LLMM_OK)
                    continue;
                assert_int_equal(st, LLMM_E_NOMEM);
                failed = 1;
                /* compare with the same calls replayed on a writer that does not fail */
                assert_ok(llmm_prom_writer_data(w, &d, &after_len));
                {
                    llmm_prom_writer *r = NULL;
                    const uint8_t *rd_;
                    size_t rl;
                    assert_ok(llmm_prom_writer_new(NULL, (llmm_prom_format)fmt, &r));
                    for (int j = 0; j < i; j++) {
                        if (j % 20 == 0) {
                            snprintf(lab, sizeof lab, "fam_%d", j);
                            assert_ok(llmm_prom_writer_family(r, lab, "help",
                                                              LLMM_PROM_NATIVE_HISTOGRAM,
                                                              EDGES, 3));
                        } else {
                            snprintf(lab, sizeof lab, "i=\"%d\"", j);
                            assert_ok(llmm_prom_writer_sketch(r, lab, hist, 1.0));
                        }
                    }
                    assert_ok(llmm_prom_writer_data(r, &rd_, &rl));
                    assert_int_equal(rl, after_len);
                    assert_memory_equal(rd_, d, rl);
                    llmm_prom_writer_free(r);
                }
            }
            llmm_prom_writer_free(w);
            assert_int_equal(t.size_mismatch, 0);
            llmm_ctx_free(ctx);
            assert_int_equal(t.live_bytes, 0);
            if (!failed && t.failures == 0)
                break;
        }
    }
    free_writer_sketches();
}

static llmm_status step_otlp_delta(llmm_ctx *ctx, void *arg)
{
    const double a[] = {1, 2}, b[] = {3};
    llmm_sketch *s1 = NULL, *s2 = NULL;
    llmm_otlp_options o;
    uint8_t buf[1024];
    size_t len;
    llmm_status st;
    (void)arg;
    if ((st = llmm_sketch_new(ctx, 6, &s1)) != LLMM_OK)
        return st;
    if ((st = llmm_sketch_add_many(s1, a, 2)) != LLMM_OK ||
        (st = llmm_sketch_clone(s1, &s2)) != LLMM_OK ||
        (st = llmm_sketch_add_many(s2, b, 1)) != LLMM_OK)
        goto out;
    llmm_otlp_options_init(&o);
    o.temporality = LLMM_OTLP_DELTA;
    st = llmm_export_otlp_json_point(s2, s1, &o, buf, sizeof buf, &len);
    if (st == LLMM_OK)
        assert_non_null(strstr((char *)buf, "\"count\":\"1\""));
out:
    llmm_sketch_free(s1);
    llmm_sketch_free(s2);
    return st;
}

static void test_otlp_nomem(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(step_otlp_delta, NULL) >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_label_escape),
        cmocka_unit_test(test_text_simple),
        cmocka_unit_test(test_text_simple_errors),
        cmocka_unit_test(test_writer_text),
        cmocka_unit_test(test_writer_errors),
        cmocka_unit_test(test_writer_protobuf),
        cmocka_unit_test(test_native_lossless),
        cmocka_unit_test(test_native_special_counts),
        cmocka_unit_test(test_classic_counts),
        cmocka_unit_test(test_bucket_lists),
        cmocka_unit_test(test_negotiate),
        cmocka_unit_test(test_otlp_golden),
        cmocka_unit_test(test_otlp_max_buckets),
        cmocka_unit_test(test_otlp_delta),
        cmocka_unit_test(test_otlp_errors),
        cmocka_unit_test(test_writer_nomem),
        cmocka_unit_test(test_writer_atomic),
        cmocka_unit_test(test_otlp_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
