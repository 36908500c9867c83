/* OTLP requests (llmmetrics/otlp.h): golden OTLP/JSON and protobuf bytes written out by hand
 * from the proto definitions, the buffer rules, struct defaults and sizes, arrays of
 * caller-sized structs, every refused input, and allocation failures of delta points.
 * Decoding by OpenTelemetry's own definitions is tests/otlp/decode_otlp.js. */
#include "helpers.h"

typedef struct req_arg {
    const void *req;
    int traces;
    llmm_otlp_encoding enc;
} req_arg;

static llmm_status run(const req_arg *a, uint8_t *buf, size_t cap, size_t *len)
{
    return a->traces ? llmm_export_otlp_traces(a->req, a->enc, buf, cap, len)
                     : llmm_export_otlp_metrics(a->req, a->enc, buf, cap, len);
}

/* The output as a heap buffer; checks the size query and that one byte less is refused. */
static uint8_t *encode(const void *req, int traces, llmm_otlp_encoding enc, size_t *n)
{
    req_arg a = {req, traces, enc};
    size_t need = 0, len = 0;
    uint8_t *buf;
    assert_status(run(&a, NULL, 0, &need), LLMM_E_BUFFER);
    buf = calloc(need + 1, 1);
    assert_non_null(buf);
    assert_status(run(&a, buf, need - 1, &len), LLMM_E_BUFFER);
    assert_int_equal(len, need);
    assert_ok(run(&a, buf, need, &len));
    assert_int_equal(len, need);
    *n = len;
    return buf;
}

static void gauge_request(llmm_otlp_metrics_request *r, llmm_otlp_metric *m, llmm_otlp_point *p)
{
    llmm_otlp_point_init(p);
    p->value = 1.5;
    p->time_unix_nano = 7;
    p->attributes = "a=\"x\"";
    llmm_otlp_metric_init(m);
    m->name = "g";
    m->type = LLMM_OTLP_GAUGE;
    m->points = p;
    m->point_count = 1;
    llmm_otlp_metrics_request_init(r);
    r->scope_name = "s";
    r->metrics = m;
    r->metric_count = 1;
}

static void test_golden_gauge(void **state)
{
    llmm_otlp_metrics_request r;
    llmm_otlp_metric m;
    llmm_otlp_point p;
    size_t n;
    uint8_t *out;
    /* Gauge point: start 2 / time 3 (fixed64), as_double 4, attributes 7 (KeyValue: key 1,
     * value 2 {string_value 1}); Metric: name 1, gauge 5 {data_points 1}; ScopeMetrics:
     * scope 1 {name 1, no version for a caller's name}, metrics 2; ResourceMetrics:
     * resource 1 {}, scope_metrics 2; request: resource_metrics 1. */
    static const uint8_t pb[] = {
        0x0a, 0x37,                                    /* resource_metrics (55 bytes) */
        0x0a, 0x00,                                    /* resource {} */
        0x12, 0x33,                                    /* scope_metrics (51) */
        0x0a, 0x03, 0x0a, 0x01, 's',                   /* scope {name "s"} */
        0x12, 0x2c,                                    /* metrics (44) */
        0x0a, 0x01, 'g',                               /* name */
        0x2a, 0x27, 0x0a, 0x25,                        /* gauge (39) {data_points (37) */
        0x11, 0,    0,    0,    0,   0, 0, 0,    0,    /* start_time_unix_nano 0 */
        0x19, 7,    0,    0,    0,   0, 0, 0,    0,    /* time_unix_nano 7 */
        0x21, 0,    0,    0,    0,   0, 0, 0xf8, 0x3f, /* as_double 1.5 */
        0x3a, 0x08, 0x0a, 0x01, 'a',                   /* attributes {key "a" */
        0x12, 0x03, 0x0a, 0x01, 'x',                   /* value {string_value "x"}} */
    };
    (void)state;
    gauge_request(&r, &m, &p);
    out = encode(&r, 0, LLMM_OTLP_JSON, &n);
    assert_string_equal((char *)out,
                        "{\"resourceMetrics\":[{\"resource\":{},\"scopeMetrics\":[{\"scope\":{"
                        "\"name\":\"s\"},\"metrics\":[{\"name\":\"g\",\"gauge\":{\"dataPoints\":"
                        "[{\"startTimeUnixNano\":\"0\",\"timeUnixNano\":\"7\",\"asDouble\":1.5,"
                        "\"attributes\":[{\"key\":\"a\",\"value\":{\"stringValue\":\"x\"}}]}]}}"
                        "]}]}]}");
    free(out);
    out = encode(&r, 0, LLMM_OTLP_PROTOBUF, &n);
    assert_int_equal(n, sizeof pb);
    assert_memory_equal(out, pb, n);
    free(out);
}

static void test_golden_span(void **state)
{
    llmm_otlp_traces_request r;
    llmm_otlp_span s;
    llmm_otlp_attribute a[2];
    size_t n;
    uint8_t *out;
    (void)state;
    llmm_otlp_attribute_init(&a[0]);
    a[0].key = "n";
    a[0].type = LLMM_OTLP_INT;
    a[0].int_value = -1;
    llmm_otlp_attribute_init(&a[1]);
    a[1].key = "d";
    a[1].type = LLMM_OTLP_DOUBLE;
    a[1].double_value = INFINITY;
    llmm_otlp_span_init(&s);
    assert_int_equal(s.kind, LLMM_OTLP_SPAN_CLIENT);
    memset(s.trace_id, 0xab, 16);
    memset(s.span_id, 0x01, 8);
    s.parent_span_id[7] = 2;
    s.name = "r\"q";
    s.start_time_unix_nano = 5;
    s.end_time_unix_nano = 18446744073709551615ull;
    s.attributes = a;
    s.attribute_count = 2;
    s.status_code = LLMM_OTLP_STATUS_ERROR;
    s.status_message = "m";
    llmm_otlp_traces_request_init(&r);
    r.resource_attributes = "service.name=\"b\"";
    r.spans = &s;
    r.span_count = 1;
    out = encode(&r, 1, LLMM_OTLP_JSON, &n);
    assert_string_equal(
        (char *)out,
        "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{"
        "\"stringValue\":\"b\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"libllmmetrics\","
        "\"version\":\"" LLMM_VERSION_STRING "\"},\"spans\":[{\"traceId\":"
        "\"abababababababababababababababab\",\"spanId\":\"0101010101010101\",\"parentSpanId\":"
        "\"0000000000000002\",\"name\":\"r\\\"q\",\"kind\":3,\"startTimeUnixNano\":\"5\","
        "\"endTimeUnixNano\":\"18446744073709551615\",\"attributes\":[{\"key\":\"n\",\"value\":{"
        "\"intValue\":\"-1\"}},{\"key\":\"d\",\"value\":{\"doubleValue\":\"Infinity\"}}],"
        "\"status\":{\"message\":\"m\",\"code\":2}}]}]}]}");
    free(out);
    /* protobuf: int64 −1 is a ten-byte varint; kind 3 and code 2 plain varints */
    out = encode(&r, 1, LLMM_OTLP_PROTOBUF, &n);
    {
        static const uint8_t int_m1[] = {0x18, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0x01};
        static const uint8_t kind[] = {0x30, 0x03};
        static const uint8_t status[] = {0x7a, 0x05, 0x12, 0x01, 'm', 0x18, 0x02};
        int found = 0;
        for (size_t i = 0; i + sizeof int_m1 <= n; i++)
            found |= !memcmp(out + i, int_m1, sizeof int_m1) ? 1 : 0;
        for (size_t i = 0; i + sizeof kind <= n; i++)
            found |= !memcmp(out + i, kind, sizeof kind) ? 2 : 0;
        assert_int_equal(found, 3);
        assert_memory_equal(out + n - sizeof status, status, sizeof status);
    }
    free(out);
}

static void test_defaults_and_sizes(void **state)
{
    llmm_otlp_metric m;
    llmm_otlp_metrics_request r;
    llmm_otlp_point p;
    size_t n;
    (void)state;
    llmm_otlp_metric_init(&m);
    assert_int_equal(m.struct_size, sizeof m);
    assert_int_equal(m.temporality, LLMM_OTLP_CUMULATIVE);
    assert_true(m.unit_to_seconds == 1.0);
    assert_null(m.name);
    /* wrong sizes: refused before anything is written */
    gauge_request(&r, &m, &p);
    r.struct_size = 8;
    assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, NULL, 0, &n), LLMM_E_ABI);
    r.struct_size = sizeof r;
    m.struct_size = sizeof m + 8;
    assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, NULL, 0, &n), LLMM_E_ABI);
    m.struct_size = sizeof m;
    p.struct_size = 4;
    assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, NULL, 0, &n), LLMM_E_ABI);
    assert_status(llmm_struct_init(LLMM_STRUCT_OTLP_SPAN, &p, 12), LLMM_E_ABI);
}

/* Arrays: the stride is the elements' struct_size; elements that differ are refused. */
static void test_arrays(void **state)
{
    llmm_otlp_metrics_request r;
    llmm_otlp_metric m[2];
    llmm_otlp_point p;
    uint8_t a[4096], b[4096];
    size_t na, nb;
    (void)state;
    gauge_request(&r, &m[0], &p);
    llmm_otlp_metric_init(&m[1]);
    m[1] = m[0];
    m[1].name = "h";
    r.metric_count = 2;
    assert_ok(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, a, sizeof a, &na));
    assert_non_null(strstr((char *)a, "\"name\":\"h\""));
    m[1].struct_size = 4;
    assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, b, sizeof b, &nb), LLMM_E_INVALID);
    m[1].struct_size = sizeof m[1];
    r.metrics = NULL;
    assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, b, sizeof b, &nb), LLMM_E_INVALID);
    r.metric_count = 0; /* NULL with no elements: an empty scope */
    assert_ok(llmm_export_otlp_metrics(&r, LLMM_OTLP_PROTOBUF, b, sizeof b, &nb));
}

static void test_metric_errors(void **state)
{
    static const double bad_bounds[] = {1, 1};
    static const double bad_q[] = {1.5};
    llmm_otlp_metrics_request r;
    llmm_otlp_metric m;
    llmm_otlp_point p;
    llmm_otlp_exemplar e;
    llmm_sketch *s = NULL, *s2 = NULL, *s3 = NULL;
    uint8_t buf[4096];
    size_t n;
    (void)state;
    assert_ok(llmm_sketch_new(NULL, 6, &s));
    assert_ok(llmm_sketch_add(s, 1.0));
    assert_ok(llmm_sketch_new(NULL, 5, &s2));
    assert_ok(llmm_sketch_new(NULL, 6, &s3));
#define BAD(what, expected)                                                                        \
    do {                                                                                           \
        gauge_request(&r, &m, &p);                                                                 \
        what;                                                                                      \
        assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_PROTOBUF, buf, sizeof buf, &n),       \
                      expected);                                                                   \
    } while (0)
    BAD((void)0, LLMM_OK);
    assert_status(llmm_export_otlp_metrics(NULL, LLMM_OTLP_JSON, buf, sizeof buf, &n),
                  LLMM_E_INVALID);
    BAD(assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, buf, sizeof buf, NULL),
                      LLMM_E_INVALID),
        LLMM_OK);
    BAD(assert_status(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, NULL, 5, &n), LLMM_E_INVALID),
        LLMM_OK);
    BAD(assert_status(llmm_export_otlp_metrics(&r, (llmm_otlp_encoding)3, buf, sizeof buf, &n),
                      LLMM_E_INVALID),
        LLMM_OK);
    BAD(m.name = NULL, LLMM_E_INVALID);
    BAD(m.name = "", LLMM_E_INVALID);
    BAD(m.name = "\xff", LLMM_E_INVALID);
    BAD(m.unit = "\xc3", LLMM_E_INVALID);
    BAD(m.description = "\xc3(", LLMM_E_INVALID);
    BAD(m.type = (llmm_otlp_metric_type)0, LLMM_E_INVALID);
    BAD(m.type = (llmm_otlp_metric_type)6, LLMM_E_INVALID);
    BAD(m.temporality = (llmm_otlp_temporality)3, LLMM_E_INVALID);
    BAD(m.unit_to_seconds = 0, LLMM_E_INVALID);
    BAD(m.unit_to_seconds = NAN, LLMM_E_INVALID);
    BAD(m.points = NULL, LLMM_E_INVALID);
    BAD(p.attributes = "a=x", LLMM_E_INVALID);
    BAD(p.attributes = "a=\"x\",a=\"y\"", LLMM_E_INVALID);
    BAD(r.resource_attributes = "1a=\"x\"", LLMM_E_INVALID);
    BAD(r.scope_attributes = "a=\"x\",", LLMM_E_INVALID);
    BAD(r.scope_name = "\xff", LLMM_E_INVALID);
    BAD(r.scope_version = "\xff", LLMM_E_INVALID);
    /* histograms and summaries need a sketch */
    BAD(m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM, LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_SUMMARY, p.sketch = s), LLMM_OK);
    BAD(m.type = LLMM_OTLP_SUMMARY, LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_HISTOGRAM, p.sketch = s), LLMM_OK);
    BAD((m.type = LLMM_OTLP_HISTOGRAM, p.sketch = s, m.bounds = bad_bounds, m.bound_count = 2),
        LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_HISTOGRAM, p.sketch = s, m.bound_count = 2), LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_SUMMARY, p.sketch = s, m.bounds = bad_q, m.bound_count = 1),
        LLMM_E_INVALID);
    /* earlier: delta histograms only, same scale, contained */
    BAD((m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM, p.sketch = s, p.earlier = s), LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM, m.temporality = LLMM_OTLP_DELTA, p.sketch = s,
         p.earlier = s2),
        LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_SUM, m.temporality = LLMM_OTLP_DELTA, p.earlier = s), LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM, m.temporality = LLMM_OTLP_DELTA, p.sketch = s3,
         p.earlier = s),
        LLMM_E_STATE);
    /* exemplars */
    llmm_otlp_exemplar_init(&e);
    BAD((p.exemplars = &e, p.exemplar_count = 1), LLMM_OK);
    BAD(p.exemplar_count = 1, LLMM_E_INVALID);
    BAD((p.exemplars = &e, p.exemplar_count = 1, e.attributes = "x"), LLMM_E_INVALID);
    BAD((m.type = LLMM_OTLP_SUMMARY, p.sketch = s, p.exemplars = &e, p.exemplar_count = 1),
        LLMM_E_INVALID);
    e.attributes = NULL;
    BAD((p.exemplars = &e, p.exemplar_count = 1, e.struct_size = 3), LLMM_E_ABI);
#undef BAD
    llmm_sketch_free(s);
    llmm_sketch_free(s2);
    llmm_sketch_free(s3);
}

static void test_span_errors(void **state)
{
    llmm_otlp_traces_request r;
    llmm_otlp_span s;
    llmm_otlp_attribute a;
    uint8_t buf[4096];
    size_t n;
    (void)state;
#define BAD(what, expected)                                                                        \
    do {                                                                                           \
        llmm_otlp_attribute_init(&a);                                                              \
        a.key = "k";                                                                               \
        a.type = LLMM_OTLP_STRING;                                                                 \
        a.string_value = "v";                                                                      \
        llmm_otlp_span_init(&s);                                                                   \
        s.trace_id[0] = 1;                                                                         \
        s.span_id[7] = 1;                                                                          \
        s.name = "n";                                                                              \
        s.attributes = &a;                                                                         \
        s.attribute_count = 1;                                                                     \
        llmm_otlp_traces_request_init(&r);                                                         \
        r.spans = &s;                                                                              \
        r.span_count = 1;                                                                          \
        what;                                                                                      \
        assert_status(llmm_export_otlp_traces(&r, LLMM_OTLP_JSON, buf, sizeof buf, &n), expected); \
    } while (0)
    BAD((void)0, LLMM_OK);
    BAD(s.trace_id[0] = 0, LLMM_E_INVALID);
    BAD(s.span_id[7] = 0, LLMM_E_INVALID);
    BAD(s.name = NULL, LLMM_E_INVALID);
    BAD(s.name = "", LLMM_E_INVALID);
    BAD(s.status_message = "\xfe", LLMM_E_INVALID);
    BAD(s.kind = (llmm_otlp_span_kind)0, LLMM_E_INVALID);
    BAD(s.kind = (llmm_otlp_span_kind)6, LLMM_E_INVALID);
    BAD(s.status_code = (llmm_otlp_status_code)3, LLMM_E_INVALID);
    BAD((s.start_time_unix_nano = 2, s.end_time_unix_nano = 1), LLMM_E_INVALID);
    BAD(s.attributes = NULL, LLMM_E_INVALID);
    BAD(a.key = NULL, LLMM_E_INVALID);
    BAD(a.key = "", LLMM_E_INVALID);
    BAD(a.type = (llmm_otlp_value_type)4, LLMM_E_INVALID);
    BAD(a.string_value = NULL, LLMM_E_INVALID);
    BAD(a.string_value = "\xc0\xaf", LLMM_E_INVALID);
    BAD((a.type = LLMM_OTLP_INT, a.string_value = NULL), LLMM_OK);
    BAD(a.struct_size = 9, LLMM_E_ABI);
    BAD(r.resource_attributes = "a", LLMM_E_INVALID);
    BAD(r.spans = NULL, LLMM_E_INVALID);
    BAD(s.struct_size = 1, LLMM_E_ABI);
    BAD(assert_status(llmm_export_otlp_traces(NULL, LLMM_OTLP_JSON, buf, sizeof buf, &n),
                      LLMM_E_INVALID),
        LLMM_OK);
#undef BAD
}

static llmm_status step_delta(llmm_ctx *ctx, void *arg)
{
    const double a[] = {1, 2}, b[] = {3};
    llmm_sketch *s1 = NULL, *s2 = NULL;
    llmm_otlp_metrics_request r;
    llmm_otlp_metric m;
    llmm_otlp_point p[2];
    uint8_t buf[2048];
    size_t len;
    llmm_status st;
    (void)arg;
    if ((st = llmm_sketch_new(ctx, 6, &s1)) != LLMM_OK)
        return st;
    if ((st = llmm_sketch_add_many(s1, a, 2)) != LLMM_OK ||
        (st = llmm_sketch_clone(s1, &s2)) != LLMM_OK ||
        (st = llmm_sketch_add_many(s2, b, 1)) != LLMM_OK)
        goto out;
    gauge_request(&r, &m, &p[0]);
    m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
    m.temporality = LLMM_OTLP_DELTA;
    p[0].sketch = s2;
    p[0].earlier = s1;
    p[1] = p[0];
    m.point_count = 2;
    st = llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, buf, sizeof buf, &len);
    if (st == LLMM_OK)
        assert_non_null(strstr((char *)buf, "\"count\":\"1\""));
out:
    llmm_sketch_free(s1);
    llmm_sketch_free(s2);
    return st;
}

static void test_nomem(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(step_delta, NULL) >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_gauge),
        cmocka_unit_test(test_golden_span),
        cmocka_unit_test(test_defaults_and_sizes),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_metric_errors),
        cmocka_unit_test(test_span_errors),
        cmocka_unit_test(test_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
