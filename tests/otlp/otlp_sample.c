/* Writes sample OTLP requests for tests/otlp/decode_otlp.js: a metrics request and a traces
 * request, each in protobuf and in JSON, the raw values every sketch was built from, and the
 * inputs (ids, times, attributes) the decoder checks the spans and exemplars against.
 *
 * usage: otlp_sample DIR      writes DIR/{metrics,traces}.{pb,json}, DIR/values_*.txt,
 *                             DIR/inputs.json
 * The values are random (fixed seed) but never within 1e-6 (relative, in log2 · 2^scale) of
 * a bucket bound, so the decoder may compute each value's bucket with floating-point log2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#define N 2000
#define SCALE 4

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A log-uniform value in [2^-8, 2^6] not near a bucket bound of SCALE. */
static double value(void)
{
    for (;;) {
        double v = exp2(-8.0 + 14.0 * uniform());
        double x = log2(v) * (1 << SCALE);
        if (fabs(x - nearbyint(x)) > 1e-6)
            return v;
    }
}

static void die(const char *what, llmm_status st)
{
    fprintf(stderr, "otlp_sample: %s: %s\n", what, llmm_status_name(st));
    exit(1);
}

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "wb")) || fwrite(p, 1, n, f) != n || fclose(f)) {
        fprintf(stderr, "otlp_sample: cannot write %s\n", path);
        exit(1);
    }
}

static void write_values(const char *dir, const char *name, const double *v, size_t n)
{
    char path[4096];
    FILE *f;
    size_t i;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "otlp_sample: cannot write %s\n", path);
        exit(1);
    }
    for (i = 0; i < n; i++)
        fprintf(f, "%.17g\n", v[i]);
    fclose(f);
}

typedef llmm_status (*encode_fn)(const void *req, llmm_otlp_encoding enc, uint8_t *buf, size_t cap,
                                 size_t *len);

static llmm_status enc_metrics(const void *r, llmm_otlp_encoding e, uint8_t *b, size_t c, size_t *n)
{
    return llmm_export_otlp_metrics(r, e, b, c, n);
}

static llmm_status enc_traces(const void *r, llmm_otlp_encoding e, uint8_t *b, size_t c, size_t *n)
{
    return llmm_export_otlp_traces(r, e, b, c, n);
}

/* Size query, then the real call into a buffer of exactly that size. */
static void encode(const char *dir, const char *name, encode_fn fn, const void *req,
                   llmm_otlp_encoding enc)
{
    size_t n = 0, m = 0;
    uint8_t *buf;
    llmm_status st = fn(req, enc, NULL, 0, &n);
    if (st != LLMM_E_BUFFER)
        die(name, st);
    if (!(buf = malloc(n)))
        exit(1);
    if ((st = fn(req, enc, buf, n, &m)) != LLMM_OK || m != n)
        die(name, st);
    write_file(dir, name, buf, n);
    free(buf);
}

static void fill_id(uint8_t *id, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        id[i] = (uint8_t)(uniform() * 256);
}

static void hex(FILE *f, const uint8_t *id, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        fprintf(f, "%02x", id[i]);
}

int main(int argc, char **argv)
{
    static double a[N], b[N];
    static const double pow2_bounds[] = {0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8};
    static const double quantiles[] = {0, 0.5, 0.9, 0.99, 1};
    llmm_sketch *sa, *sb_early, *sb, *empty;
    llmm_otlp_exemplar ex[2];
    llmm_otlp_point p_exp[2], p_delta, p_hist, p_sum[2], p_gauge, p_summary[2];
    llmm_otlp_metric m[6];
    llmm_otlp_metrics_request req;
    llmm_otlp_attribute attr[4];
    llmm_otlp_span sp[3];
    llmm_otlp_traces_request treq;
    FILE *in;
    char path[4096];
    size_t i;
    llmm_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: otlp_sample DIR\n");
        return 2;
    }
    for (i = 0; i < N; i++)
        a[i] = value();
    for (i = 0; i < N; i++)
        b[i] = value();
    if ((st = llmm_sketch_new(NULL, SCALE, &sa)) != LLMM_OK ||
        (st = llmm_sketch_new(NULL, SCALE, &sb)) != LLMM_OK ||
        (st = llmm_sketch_new(NULL, SCALE, &sb_early)) != LLMM_OK ||
        (st = llmm_sketch_new(NULL, SCALE, &empty)) != LLMM_OK)
        die("sketch_new", st);
    if ((st = llmm_sketch_add_many(sa, a, N)) != LLMM_OK ||
        (st = llmm_sketch_add_many(sb_early, b, N / 2)) != LLMM_OK ||
        (st = llmm_sketch_add_many(sb, b, N)) != LLMM_OK)
        die("sketch_add_many", st);
    write_values(argv[1], "values_a.txt", a, N);
    write_values(argv[1], "values_b_late.txt", b + N / 2, N - N / 2);

    for (i = 0; i < 2; i++) {
        llmm_otlp_exemplar_init(&ex[i]);
        ex[i].value = a[i];
        ex[i].time_unix_nano = 1700000000000000000ull + i;
        fill_id(ex[i].trace_id, 16);
        fill_id(ex[i].span_id, 8);
    }
    ex[1].attributes = "gen_ai.request.model=\"m\\\"x\\\\y\"";
    memset(ex[1].span_id, 0, 8); /* no span id: the field is left out */

    /* exponential histogram, cumulative: two points (attributes differ), exemplars on one */
    for (i = 0; i < 2; i++) {
        llmm_otlp_point_init(&p_exp[i]);
        p_exp[i].start_time_unix_nano = 1000;
        p_exp[i].time_unix_nano = 2000 + i;
    }
    p_exp[0].sketch = sa;
    p_exp[0].attributes = "outcome=\"ok\"";
    p_exp[0].exemplars = ex;
    p_exp[0].exemplar_count = 2;
    p_exp[1].sketch = empty;
    p_exp[1].attributes = "outcome=\"error\"";
    /* exponential histogram, delta: the second half of b */
    llmm_otlp_point_init(&p_delta);
    p_delta.sketch = sb;
    p_delta.earlier = sb_early;
    p_delta.start_time_unix_nano = 3000;
    p_delta.time_unix_nano = 4000;
    /* explicit-bucket histogram of a, bounds on bucket bounds */
    llmm_otlp_point_init(&p_hist);
    p_hist.sketch = sa;
    p_hist.time_unix_nano = 5000;
    p_hist.exemplars = ex;
    p_hist.exemplar_count = 1;
    /* sums (monotonic, delta) and a gauge */
    for (i = 0; i < 2; i++) {
        llmm_otlp_point_init(&p_sum[i]);
        p_sum[i].value = i ? 3.0 : (double)N;
        p_sum[i].attributes = i ? "outcome=\"error\"" : "outcome=\"ok\"";
        p_sum[i].time_unix_nano = 6000;
    }
    llmm_otlp_point_init(&p_gauge);
    p_gauge.value = -0.25;
    p_gauge.time_unix_nano = 7000;
    p_gauge.exemplars = ex + 1;
    p_gauge.exemplar_count = 1;
    /* summary of a, and of an empty sketch (NaN quantiles) */
    for (i = 0; i < 2; i++) {
        llmm_otlp_point_init(&p_summary[i]);
        p_summary[i].sketch = i ? empty : sa;
        p_summary[i].time_unix_nano = 8000;
    }

    for (i = 0; i < 6; i++)
        llmm_otlp_metric_init(&m[i]);
    m[0].name = "gen_ai.client.operation.duration";
    m[0].description = "end to end, \"quoted\"";
    m[0].unit = "s";
    m[0].type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
    m[0].points = p_exp;
    m[0].point_count = 2;
    m[1].name = "delta.duration";
    m[1].type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
    m[1].temporality = LLMM_OTLP_DELTA;
    m[1].points = &p_delta;
    m[1].point_count = 1;
    m[2].name = "explicit.duration";
    m[2].type = LLMM_OTLP_HISTOGRAM;
    m[2].bounds = pow2_bounds;
    m[2].bound_count = sizeof pow2_bounds / sizeof pow2_bounds[0];
    m[2].points = &p_hist;
    m[2].point_count = 1;
    m[3].name = "requests";
    m[3].unit = "{request}";
    m[3].type = LLMM_OTLP_SUM;
    m[3].monotonic = 1;
    m[3].temporality = LLMM_OTLP_DELTA;
    m[3].points = p_sum;
    m[3].point_count = 2;
    m[4].name = "level";
    m[4].type = LLMM_OTLP_GAUGE;
    m[4].points = &p_gauge;
    m[4].point_count = 1;
    m[5].name = "summary.duration";
    m[5].type = LLMM_OTLP_SUMMARY;
    m[5].bounds = quantiles;
    m[5].bound_count = sizeof quantiles / sizeof quantiles[0];
    m[5].points = p_summary;
    m[5].point_count = 2;
    llmm_otlp_metrics_request_init(&req);
    req.resource_attributes = "service.name=\"llmm\",host.name=\"h\\n1\"";
    req.scope_attributes = "k=\"v\"";
    req.metrics = m;
    req.metric_count = 6;
    encode(argv[1], "metrics.pb", enc_metrics, &req, LLMM_OTLP_PROTOBUF);
    encode(argv[1], "metrics.json", enc_metrics, &req, LLMM_OTLP_JSON);
    {
        /* the 1.0 single-point JSON request of the same point, for comparison */
        llmm_otlp_options o;
        static uint8_t legacy[1 << 16];
        size_t n;
        llmm_otlp_options_init(&o);
        o.start_time_unix_nano = 1000;
        o.time_unix_nano = 2000;
        o.attributes = p_exp[0].attributes;
        if ((st = llmm_export_otlp_json(sa, NULL, m[0].name, &o, legacy, sizeof legacy, &n)) !=
            LLMM_OK)
            die("llmm_export_otlp_json", st);
        write_file(argv[1], "legacy.json", legacy, n);
    }

    /* spans: a root and two children, typed attributes on one */
    for (i = 0; i < 4; i++)
        llmm_otlp_attribute_init(&attr[i]);
    attr[0].key = "gen_ai.usage.output_tokens";
    attr[0].type = LLMM_OTLP_INT;
    attr[0].int_value = 128;
    attr[1].key = "net.tcp.retrans";
    attr[1].type = LLMM_OTLP_INT;
    attr[1].int_value = -3;
    attr[2].key = "ttft_s";
    attr[2].type = LLMM_OTLP_DOUBLE;
    attr[2].double_value = 0.125;
    attr[3].key = "outcome";
    attr[3].type = LLMM_OTLP_STRING;
    attr[3].string_value = "ok \"\xc3\xa9\"";
    for (i = 0; i < 3; i++) {
        llmm_otlp_span_init(&sp[i]);
        fill_id(sp[i].trace_id, 16);
        fill_id(sp[i].span_id, 8);
        sp[i].name = "chat";
        sp[i].start_time_unix_nano = 1700000000000000000ull + 1000 * i;
        sp[i].end_time_unix_nano = sp[i].start_time_unix_nano + 123456789;
    }
    memcpy(sp[1].trace_id, sp[0].trace_id, 16);
    memcpy(sp[1].parent_span_id, sp[0].span_id, 8);
    sp[0].kind = LLMM_OTLP_SPAN_SERVER;
    sp[1].attributes = attr;
    sp[1].attribute_count = 4;
    sp[1].status_code = LLMM_OTLP_STATUS_OK;
    sp[2].status_code = LLMM_OTLP_STATUS_ERROR;
    sp[2].status_message = "HTTP 503";
    llmm_otlp_traces_request_init(&treq);
    treq.resource_attributes = "service.name=\"llmm\"";
    treq.scope_name = "llmm bench";
    treq.scope_version = "1";
    treq.spans = sp;
    treq.span_count = 3;
    encode(argv[1], "traces.pb", enc_traces, &treq, LLMM_OTLP_PROTOBUF);
    encode(argv[1], "traces.json", enc_traces, &treq, LLMM_OTLP_JSON);

    /* the inputs the decoder checks ids and times against */
    snprintf(path, sizeof path, "%s/inputs.json", argv[1]);
    if (!(in = fopen(path, "w")))
        return 1;
    fprintf(in, "{\"scale\":%d,\"version\":\"%s\",\"exemplars\":[", SCALE, llmm_version_string());
    for (i = 0; i < 2; i++) {
        fprintf(in, "%s{\"value\":%.17g,\"time\":\"%llu\",\"trace\":\"", i ? "," : "", ex[i].value,
                (unsigned long long)ex[i].time_unix_nano);
        hex(in, ex[i].trace_id, 16);
        fprintf(in, "\",\"span\":\"");
        hex(in, ex[i].span_id, 8);
        fprintf(in, "\"}");
    }
    fprintf(in, "],\"spans\":[");
    for (i = 0; i < 3; i++) {
        fprintf(in, "%s{\"trace\":\"", i ? "," : "");
        hex(in, sp[i].trace_id, 16);
        fprintf(in, "\",\"span\":\"");
        hex(in, sp[i].span_id, 8);
        fprintf(in, "\",\"parent\":\"");
        hex(in, sp[i].parent_span_id, 8);
        fprintf(in, "\",\"start\":\"%llu\",\"end\":\"%llu\"}",
                (unsigned long long)sp[i].start_time_unix_nano,
                (unsigned long long)sp[i].end_time_unix_nano);
    }
    fprintf(in, "]}\n");
    fclose(in);
    llmm_sketch_free(sa);
    llmm_sketch_free(sb);
    llmm_sketch_free(sb_early);
    llmm_sketch_free(empty);
    return 0;
}
