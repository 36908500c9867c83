/* Exemplars (issue 43): the store's layout and keep rules, writers on many threads against a
 * concurrent reader (no torn exemplar, the latest kept), the OpenMetrics and protobuf output
 * of the writer, OpenMetrics negotiation, and W3C traceparent parsing and formatting against
 * the specification's own example. */
#include <pthread.h>
#include <stdatomic.h>

#include "helpers.h"

static const uint8_t TRACE[16] = {0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6,
                                  0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36};
static const uint8_t SPAN[8] = {0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7};
static const char TP[] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

static llmm_exemplars *store(const double *b, size_t n, llmm_exemplar_keep keep)
{
    llmm_exemplars *ex = NULL;
    assert_ok(llmm_exemplars_new(NULL, b, n, keep, &ex));
    return ex;
}

static double slot_value(const llmm_exemplars *ex, uint32_t i)
{
    llmm_exemplar e;
    llmm_exemplar_init(&e);
    assert_ok(llmm_exemplars_get(ex, i, &e));
    return e.value;
}

static void test_new_invalid(void **state)
{
    static const double bad[] = {1, 1}, nan_b[] = {1, NAN};
    static double many[LLMM_EXEMPLAR_BOUNDS_MAX + 1];
    llmm_exemplars *ex = (llmm_exemplars *)1;
    (void)state;
    for (size_t i = 0; i < LLMM_EXEMPLAR_BOUNDS_MAX + 1; i++)
        many[i] = (double)i;
    assert_status(llmm_exemplars_new(NULL, NULL, 0, LLMM_EXEMPLAR_LATEST, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplars_new(NULL, bad, 2, LLMM_EXEMPLAR_LATEST, &ex), LLMM_E_INVALID);
    assert_null(ex);
    assert_status(llmm_exemplars_new(NULL, nan_b, 2, LLMM_EXEMPLAR_LATEST, &ex), LLMM_E_INVALID);
    assert_status(llmm_exemplars_new(NULL, NULL, 1, LLMM_EXEMPLAR_LATEST, &ex), LLMM_E_INVALID);
    assert_status(
        llmm_exemplars_new(NULL, many, LLMM_EXEMPLAR_BOUNDS_MAX + 1, LLMM_EXEMPLAR_LATEST, &ex),
        LLMM_E_INVALID);
    assert_status(llmm_exemplars_new(NULL, NULL, 0, (llmm_exemplar_keep)2, &ex), LLMM_E_INVALID);
    ex = store(many, LLMM_EXEMPLAR_BOUNDS_MAX, LLMM_EXEMPLAR_MAX);
    assert_int_equal(llmm_exemplars_slots(ex), LLMM_EXEMPLAR_BOUNDS_MAX + 1);
    llmm_exemplars_free(ex);
    assert_int_equal(llmm_exemplars_slots(NULL), 0);
    llmm_exemplars_free(NULL);
    llmm_exemplar_shard_release(NULL);
}

static void test_layout_latest(void **state)
{
    static const double b[] = {1, 2, 4};
    llmm_exemplars *ex = store(b, 3, LLMM_EXEMPLAR_LATEST);
    llmm_exemplar_shard *sh;
    llmm_exemplar e, before;
    (void)state;
    assert_ok(llmm_exemplars_shard(ex, &sh));
    assert_int_equal(llmm_exemplars_slots(ex), 4);
    /* (−inf, 1], (1, 2], (2, 4], (4, inf): a bound belongs to the slot it closes */
    assert_ok(llmm_exemplar_shard_record(sh, 1.0, TRACE, SPAN, 10, NULL));
    assert_ok(llmm_exemplar_shard_record(sh, 1.5, TRACE, NULL, 11, "a=\"x\""));
    assert_ok(llmm_exemplar_shard_record(sh, 100.0, NULL, NULL, 0, NULL));
    assert_close(slot_value(ex, 0), 1.0, 0, 0);
    assert_close(slot_value(ex, 1), 1.5, 0, 0);
    assert_close(slot_value(ex, 3), 100.0, 0, 0);
    memset(&before, 0x5a, sizeof before);
    before.struct_size = sizeof before;
    e = before;
    assert_status(llmm_exemplars_get(ex, 2, &e), LLMM_E_EMPTY);
    assert_memory_equal(&e, &before, sizeof e);
    assert_status(llmm_exemplars_get(ex, 4, &e), LLMM_E_INVALID);
    /* latest: a smaller value replaces a larger one */
    assert_ok(llmm_exemplar_shard_record(sh, 0.25, TRACE, SPAN, 12, "k=\"v\\\"q\""));
    llmm_exemplar_init(&e);
    assert_ok(llmm_exemplars_get(ex, 0, &e));
    assert_close(e.value, 0.25, 0, 0);
    assert_memory_equal(e.trace_id, TRACE, 16);
    assert_memory_equal(e.span_id, SPAN, 8);
    assert_int_equal(e.time_unix_nano, 12);
    assert_string_equal(e.labels, "k=\"v\\\"q\"");
    assert_ok(llmm_exemplars_get(ex, 1, &e));
    assert_string_equal(e.labels, "a=\"x\"");
    for (int i = 0; i < 8; i++)
        assert_int_equal(e.span_id[i], 0);
    /* the struct size rule */
    e.struct_size = 8;
    assert_status(llmm_exemplars_get(ex, 0, &e), LLMM_E_ABI);
    assert_int_equal(llmm_struct_init(LLMM_STRUCT_EXEMPLAR, &e, sizeof e), LLMM_OK);
    assert_int_equal(e.struct_size, sizeof e);
    llmm_exemplar_shard_release(sh);
    llmm_exemplars_free(ex);
}

static void test_keep_max_roll(void **state)
{
    static const double b[] = {10};
    llmm_exemplars *ex = store(b, 1, LLMM_EXEMPLAR_MAX);
    llmm_exemplar_shard *sh, *sh2;
    (void)state;
    assert_ok(llmm_exemplars_shard(ex, &sh));
    assert_ok(llmm_exemplar_shard_record(sh, 5, TRACE, SPAN, 1, NULL));
    assert_ok(llmm_exemplar_shard_record(sh, 3, TRACE, SPAN, 2, NULL));
    assert_close(slot_value(ex, 0), 5, 0, 0);
    assert_ok(llmm_exemplar_shard_record(sh, 7, TRACE, SPAN, 3, NULL));
    assert_close(slot_value(ex, 0), 7, 0, 0);
    /* a second shard with a smaller value: the reader keeps the larger */
    assert_ok(llmm_exemplars_shard(ex, &sh2));
    assert_true(sh2 != sh);
    assert_ok(llmm_exemplar_shard_record(sh2, 6, TRACE, SPAN, 4, NULL));
    assert_close(slot_value(ex, 0), 7, 0, 0);
    /* a roll erases nothing; the next exemplar of the new interval wins whatever its value */
    assert_ok(llmm_exemplars_roll(ex));
    assert_close(slot_value(ex, 0), 7, 0, 0);
    assert_ok(llmm_exemplar_shard_record(sh2, 2, TRACE, SPAN, 5, NULL));
    assert_close(slot_value(ex, 0), 2, 0, 0);
    assert_ok(llmm_exemplar_shard_record(sh, 1, TRACE, SPAN, 6, NULL));
    assert_close(slot_value(ex, 0), 2, 0, 0);
    assert_ok(llmm_exemplar_shard_record(sh, 4, TRACE, SPAN, 7, NULL));
    assert_close(slot_value(ex, 0), 4, 0, 0);
    assert_status(llmm_exemplars_roll(NULL), LLMM_E_INVALID);
    /* a released shard is handed out again, its exemplars kept */
    llmm_exemplar_shard_release(sh2);
    {
        llmm_exemplar_shard *again;
        assert_ok(llmm_exemplars_shard(ex, &again));
        assert_ptr_equal(again, sh2);
    }
    llmm_exemplars_free(ex);
}

static void test_record_invalid(void **state)
{
    static const uint8_t zero[16] = {0};
    llmm_exemplars *ex = store(NULL, 0, LLMM_EXEMPLAR_LATEST);
    llmm_exemplar_shard *sh;
    llmm_exemplar e;
    char longest[LLMM_EXEMPLAR_LABELS_MAX + 1];
    (void)state;
    assert_ok(llmm_exemplars_shard(ex, &sh));
    assert_status(llmm_exemplar_shard_record(NULL, 1, TRACE, SPAN, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, NAN, TRACE, SPAN, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, INFINITY, TRACE, SPAN, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, 1, zero, SPAN, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, 1, TRACE, zero, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, 1, TRACE, SPAN, 1, "a=b"), LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, 1, TRACE, SPAN, 1, "trace_id=\"x\""),
                  LLMM_E_INVALID);
    assert_status(llmm_exemplar_shard_record(sh, 1, NULL, NULL, 1, "span_id=\"x\""),
                  LLMM_E_INVALID);
    /* 63 bytes fit, 64 do not */
    memset(longest, 0, sizeof longest);
    memcpy(longest, "a=\"", 3);
    memset(longest + 3, 'v', LLMM_EXEMPLAR_LABELS_MAX - 5);
    longest[LLMM_EXEMPLAR_LABELS_MAX - 2] = '"';
    assert_int_equal(strlen(longest), LLMM_EXEMPLAR_LABELS_MAX - 1);
    llmm_exemplar_init(&e);
    assert_status(llmm_exemplars_get(ex, 0, &e), LLMM_E_EMPTY); /* nothing recorded so far */
    assert_ok(llmm_exemplar_shard_record(sh, 1, TRACE, SPAN, 1, longest));
    assert_ok(llmm_exemplars_get(ex, 0, &e));
    assert_string_equal(e.labels, longest);
    longest[LLMM_EXEMPLAR_LABELS_MAX - 2] = 'v';
    longest[LLMM_EXEMPLAR_LABELS_MAX - 1] = '"';
    assert_status(llmm_exemplar_shard_record(sh, 2, TRACE, SPAN, 2, longest), LLMM_E_INVALID);
    assert_close(slot_value(ex, 0), 1, 0, 0);
    llmm_exemplars_free(ex);
}

/* ---- many writers, one reader ----------------------------------------------------------- */

#define WRITERS 3
#define PER_WRITER 60000

typedef struct {
    llmm_exemplars *ex;
    int id;
    _Atomic int *done;
} writer_arg;

/* Every field derives from (writer, k): a reader can tell a torn exemplar. */
static void fields(int id, uint64_t k, double *v, uint8_t tr[16], uint8_t sp[8], uint64_t *t)
{
    uint64_t a = k * 0x9E3779B97F4A7C15u + (uint64_t)id, b = ~a, c = a ^ 0x5555u;
    *v = (double)(k % 50) + 0.5 + id * 0.001;
    memcpy(tr, &a, 8);
    memcpy(tr + 8, &b, 8);
    memcpy(sp, &c, 8);
    *t = k * WRITERS + (uint64_t)id + 1;
}

static void *writer(void *p)
{
    writer_arg *a = p;
    llmm_exemplar_shard *sh;
    if (llmm_exemplars_shard(a->ex, &sh) != LLMM_OK)
        return NULL;
    for (uint64_t k = 0; k < PER_WRITER; k++) {
        double v;
        uint8_t tr[16], sp[8];
        uint64_t t;
        char lab[32];
        fields(a->id, k, &v, tr, sp, &t);
        snprintf(lab, sizeof lab, "k=\"%llu\"", (unsigned long long)t);
        llmm_exemplar_shard_record(sh, v, tr, sp, t, lab);
    }
    atomic_fetch_add(a->done, 1);
    return NULL;
}

static int consistent(const llmm_exemplar *e)
{
    uint64_t t = e->time_unix_nano - 1, k = t / WRITERS;
    int id = (int)(t % WRITERS);
    double v;
    uint8_t tr[16], sp[8];
    uint64_t tt;
    char lab[32];
    fields(id, k, &v, tr, sp, &tt);
    snprintf(lab, sizeof lab, "k=\"%llu\"", (unsigned long long)tt);
    return v == e->value && memcmp(tr, e->trace_id, 16) == 0 && memcmp(sp, e->span_id, 8) == 0 &&
           strcmp(lab, e->labels) == 0;
}

static void test_many_writers(void **state)
{
    double b[49];
    llmm_exemplars *ex;
    pthread_t th[WRITERS];
    writer_arg args[WRITERS];
    _Atomic int done = 0;
    uint64_t reads = 0;
    (void)state;
    for (int i = 0; i < 49; i++)
        b[i] = i + 1;
    ex = store(b, 49, LLMM_EXEMPLAR_LATEST);
    for (int i = 0; i < WRITERS; i++) {
        args[i] = (writer_arg){ex, i, &done};
        assert_int_equal(pthread_create(&th[i], NULL, writer, &args[i]), 0);
    }
    while (atomic_load(&done) < WRITERS) {
        for (uint32_t s = 0; s < 50; s++) {
            llmm_exemplar e;
            llmm_exemplar_init(&e);
            if (llmm_exemplars_get(ex, s, &e) == LLMM_OK) {
                assert_true(consistent(&e));
                assert_true(e.value > (double)s && e.value <= (double)s + 1);
                reads++;
            }
        }
    }
    for (int i = 0; i < WRITERS; i++)
        pthread_join(th[i], NULL);
    /* each slot holds the latest (largest time) offer of all writers: k = last with k%50 = s */
    for (uint32_t s = 0; s < 50; s++) {
        llmm_exemplar e;
        uint64_t k = PER_WRITER - 1 - ((PER_WRITER - 1 - s) % 50);
        llmm_exemplar_init(&e);
        assert_ok(llmm_exemplars_get(ex, s, &e));
        assert_true(consistent(&e));
        assert_int_equal(e.time_unix_nano, k * WRITERS + WRITERS);
    }
    print_message("# %llu concurrent reads, none torn\n", (unsigned long long)reads);
    llmm_exemplars_free(ex);
}

/* ---- the writer -------------------------------------------------------------------------- */

static const char *finish(llmm_prom_writer *w)
{
    const uint8_t *d;
    size_t n;
    static char out[8192];
    assert_ok(llmm_prom_writer_data(w, &d, &n));
    assert_true(n < sizeof out);
    memcpy(out, d, n);
    out[n] = '\0';
    return out;
}

static void test_openmetrics_text(void **state)
{
    static const double b[] = {1, 2, 4}, v[] = {0.5, 1.5, 3, 3.5, 9};
    llmm_sketch *s;
    llmm_exemplars *ex = store(b, 3, LLMM_EXEMPLAR_LATEST);
    llmm_exemplar_shard *sh;
    llmm_prom_writer *w;
    llmm_exemplar e;
    size_t n;
    uint8_t buf[4096];
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add_many(s, v, 5));
    assert_ok(llmm_exemplars_shard(ex, &sh));
    assert_ok(llmm_exemplar_shard_record(sh, 0.5, TRACE, SPAN, 1733300000461000000u, NULL));
    assert_ok(llmm_exemplar_shard_record(sh, 3.5, TRACE, NULL, 1733300001000000000u, "m=\"a\""));
    assert_ok(llmm_exemplar_shard_record(sh, 9, NULL, NULL, 0, NULL));
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_OPENMETRICS, &w));
    assert_ok(llmm_prom_writer_family(w, "lat_seconds", "say \"hi\"", LLMM_PROM_HISTOGRAM, b, 3));
    /* values are exported times the factor, exemplars too: 0.5 s → 500 ms */
    assert_ok(llmm_prom_writer_sketch_exemplars(w, "x=\"1\"", s, 1.0, ex));
    assert_ok(llmm_prom_writer_family(w, "req_total", NULL, LLMM_PROM_COUNTER, NULL, 0));
    llmm_exemplar_init(&e);
    assert_ok(llmm_exemplars_get(ex, 0, &e));
    assert_ok(llmm_prom_writer_value_exemplar(w, NULL, 5, &e));
    assert_ok(llmm_prom_writer_family(w, "g", NULL, LLMM_PROM_GAUGE, NULL, 0));
    assert_status(llmm_prom_writer_value_exemplar(w, NULL, 5, &e), LLMM_E_STATE);
    assert_ok(llmm_prom_writer_value(w, NULL, 2));
    assert_string_equal(
        finish(w),
        "# HELP lat_seconds say \\\"hi\\\"\n"
        "# TYPE lat_seconds histogram\n"
        "lat_seconds_bucket{x=\"1\",le=\"1.0\"} 1 # {trace_id=\"4bf92f3577b34da6a3ce929d0e0e4736\","
        "span_id=\"00f067aa0ba902b7\"} 0.5 1733300000.461\n"
        "lat_seconds_bucket{x=\"1\",le=\"2.0\"} 2\n"
        "lat_seconds_bucket{x=\"1\",le=\"4.0\"} 4 # {trace_id=\"4bf92f3577b34da6a3ce929d0e0e4736\","
        "m=\"a\"} 3.5 1733300001\n"
        "lat_seconds_bucket{x=\"1\",le=\"+Inf\"} 5 # {} 9\n"
        "lat_seconds_sum{x=\"1\"} 17.5\n"
        "lat_seconds_count{x=\"1\"} 5\n"
        "# TYPE req counter\n"
        "req_total 5 # {trace_id=\"4bf92f3577b34da6a3ce929d0e0e4736\","
        "span_id=\"00f067aa0ba902b7\"} 0.5 1733300000.461\n"
        "# TYPE g gauge\n"
        "g 2\n"
        "# EOF\n");
    /* one terminator, at the end, however often the exposition is read or extended */
    assert_ok(llmm_prom_writer_finish(w, buf, sizeof buf, &n));
    assert_int_equal(n, strlen(finish(w)));
    assert_ok(llmm_prom_writer_family(w, "h", NULL, LLMM_PROM_GAUGE, NULL, 0));
    assert_ok(llmm_prom_writer_value(w, NULL, 1));
    {
        const char *t = finish(w);
        size_t len = strlen(t);
        assert_string_equal(t + len - 20, "E h gauge\nh 1\n# EOF\n"); /* the last 20 */
        assert_null(strstr(t, "# EOF\n#"));
    }
    /* 0.0.4 text: the same calls, no exemplar, no EOF */
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_TEXT));
    assert_ok(llmm_prom_writer_family(w, "req_total", NULL, LLMM_PROM_COUNTER, NULL, 0));
    assert_ok(llmm_prom_writer_value_exemplar(w, NULL, 5, &e));
    assert_string_equal(finish(w), "# TYPE req_total counter\nreq_total 5\n");
    /* an empty OpenMetrics exposition is just the terminator */
    assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_OPENMETRICS));
    assert_string_equal(finish(w), "# EOF\n");
    assert_string_equal(llmm_prom_content_type(LLMM_PROM_OPENMETRICS),
                        "application/openmetrics-text; version=1.0.0; charset=utf-8");
    /* a bad exemplar changes nothing */
    assert_ok(llmm_prom_writer_family(w, "c_total", NULL, LLMM_PROM_COUNTER, NULL, 0));
    e.value = NAN;
    assert_status(llmm_prom_writer_value_exemplar(w, NULL, 5, &e), LLMM_E_INVALID);
    e.value = 1;
    e.struct_size = 3;
    assert_status(llmm_prom_writer_value_exemplar(w, NULL, 5, &e), LLMM_E_ABI);
    assert_string_equal(finish(w), "# TYPE c counter\n# EOF\n");
    llmm_prom_writer_free(w);
    llmm_exemplars_free(ex);
    llmm_sketch_free(s);
}

static size_t occurrences(const uint8_t *d, size_t n, const char *z)
{
    size_t k = 0, m = strlen(z);
    for (size_t i = 0; i + m <= n; i++)
        k += memcmp(d + i, z, m) == 0;
    return k;
}

static void test_protobuf_native(void **state)
{
    static const double b[] = {1, 2};
    static const uint8_t t2[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    llmm_sketch *s;
    llmm_exemplars *ex = store(b, 2, LLMM_EXEMPLAR_LATEST);
    llmm_exemplar_shard *sh;
    llmm_prom_writer *w;
    const uint8_t *d;
    size_t n;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add(s, 1.5));
    assert_ok(llmm_exemplars_shard(ex, &sh));
    assert_ok(llmm_exemplar_shard_record(sh, 0.5, TRACE, SPAN, 5, NULL));
    assert_ok(llmm_exemplar_shard_record(sh, 1.5, t2, SPAN, 9, NULL));
    assert_ok(llmm_prom_writer_new(NULL, LLMM_PROM_PROTOBUF, &w));
    assert_ok(llmm_prom_writer_family(w, "n", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
    assert_ok(llmm_prom_writer_sketch_exemplars(w, NULL, s, 1.0, ex));
    assert_ok(llmm_prom_writer_data(w, &d, &n));
    /* the latest (t2) on the +Inf bucket entry and in Histogram.exemplars, the other once */
    assert_int_equal(occurrences(d, n, "0102030405060708090a0b0c0d0e0f10"), 2);
    assert_int_equal(occurrences(d, n, "4bf92f3577b34da6a3ce929d0e0e4736"), 1);
    assert_int_equal(occurrences(d, n, "trace_id"), 3);
    /* without exemplars the bytes are exactly llmm_prom_writer_sketch()'s */
    {
        uint8_t a[512], c[512];
        size_t na, nc;
        assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_PROTOBUF));
        assert_ok(llmm_prom_writer_family(w, "n", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
        assert_ok(llmm_prom_writer_sketch(w, NULL, s, 1.0));
        assert_ok(llmm_prom_writer_finish(w, a, sizeof a, &na));
        assert_ok(llmm_prom_writer_reset(w, LLMM_PROM_PROTOBUF));
        assert_ok(llmm_prom_writer_family(w, "n", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0));
        assert_ok(llmm_prom_writer_sketch_exemplars(w, NULL, s, 1.0, NULL));
        assert_ok(llmm_prom_writer_finish(w, c, sizeof c, &nc));
        assert_int_equal(na, nc);
        assert_memory_equal(a, c, na);
    }
    llmm_prom_writer_free(w);
    llmm_exemplars_free(ex);
    llmm_sketch_free(s);
}

/* ---- negotiation and traceparent ---------------------------------------------------------- */

static llmm_prom_format om(const char *accept)
{
    llmm_prom_format f = LLMM_PROM_FORMAT_FORCE_INT_;
    assert_ok(llmm_prom_negotiate_openmetrics(accept, &f, NULL));
    return f;
}

static void test_negotiate(void **state)
{
    /* what Prometheus 2.42 sends without and with --enable-feature=native-histograms */
    static const char plain[] =
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
        "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    static const char native[] =
        "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
        "encoding=delimited;q=0.9,application/openmetrics-text;version=1.0.0;q=0.8,"
        "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,"
        "*/*;q=0.1";
    llmm_prom_format f;
    const char *ct;
    (void)state;
    assert_int_equal(om(plain), LLMM_PROM_OPENMETRICS);
    assert_int_equal(om(native), LLMM_PROM_PROTOBUF);
    assert_int_equal(om(NULL), LLMM_PROM_TEXT);
    assert_int_equal(om("application/openmetrics-text"), LLMM_PROM_OPENMETRICS);
    assert_int_equal(om("application/openmetrics-text;version=2.0.0"), LLMM_PROM_TEXT);
    assert_int_equal(om("text/plain,application/openmetrics-text"), LLMM_PROM_TEXT); /* tie */
    assert_int_equal(om("text/plain;q=0.4,application/openmetrics-text;q=0.5"),
                     LLMM_PROM_OPENMETRICS);
    /* the 1.0 call keeps its 1.0 answers */
    assert_ok(llmm_prom_negotiate(plain, &f, &ct));
    assert_int_equal(f, LLMM_PROM_TEXT);
    assert_string_equal(ct, "text/plain; version=0.0.4; charset=utf-8");
    assert_ok(llmm_prom_negotiate(native, &f, NULL));
    assert_int_equal(f, LLMM_PROM_PROTOBUF);
    assert_ok(llmm_prom_negotiate_openmetrics(plain, &f, &ct));
    assert_string_equal(ct, "application/openmetrics-text; version=1.0.0; charset=utf-8");
    assert_status(llmm_prom_negotiate_openmetrics(plain, NULL, NULL), LLMM_E_INVALID);
}

static void test_traceparent(void **state)
{
    uint8_t tr[16], sp[8], fl = 0, buf[64];
    size_t n;
    static const char *const bad[] = {
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",   /* upper case */
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   /* version ff */
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",   /* zero trace */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",   /* zero span */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x", /* 00 with more */
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  /* no dash after */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "",
    };
    (void)state;
    assert_ok(llmm_traceparent_parse(TP, tr, sp, &fl));
    assert_memory_equal(tr, TRACE, 16);
    assert_memory_equal(sp, SPAN, 8);
    assert_int_equal(fl, 1);
    assert_ok(llmm_traceparent_format(tr, sp, fl, buf, sizeof buf, &n));
    assert_int_equal(n, 55);
    assert_memory_equal(buf, TP, 55);
    assert_ok(llmm_traceparent_parse(" \t00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00 ",
                                     tr, sp, NULL));
    assert_ok(llmm_traceparent_parse(
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-later", tr, sp, &fl));
    assert_int_equal(fl, 3);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(tr, 0xee, 16);
        assert_status(llmm_traceparent_parse(bad[i], tr, sp, &fl), LLMM_E_INVALID);
        assert_int_equal(tr[0], 0xee); /* unchanged */
    }
    assert_status(llmm_traceparent_parse(NULL, tr, sp, &fl), LLMM_E_INVALID);
    assert_status(llmm_traceparent_format(TRACE, SPAN, 1, buf, 54, &n), LLMM_E_BUFFER);
    assert_int_equal(n, 55);
    assert_status(llmm_traceparent_format(TRACE, SPAN, 1, NULL, 0, &n), LLMM_E_BUFFER);
    memset(tr, 0, 16);
    assert_status(llmm_traceparent_format(tr, SPAN, 1, buf, 64, &n), LLMM_E_INVALID);
    assert_status(llmm_traceparent_format(TRACE, SPAN, 1, NULL, 5, &n), LLMM_E_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_invalid),     cmocka_unit_test(test_layout_latest),
        cmocka_unit_test(test_keep_max_roll),   cmocka_unit_test(test_record_invalid),
        cmocka_unit_test(test_many_writers),    cmocka_unit_test(test_openmetrics_text),
        cmocka_unit_test(test_protobuf_native), cmocka_unit_test(test_negotiate),
        cmocka_unit_test(test_traceparent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
