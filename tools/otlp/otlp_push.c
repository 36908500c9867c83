/* otlp_push.c: sketches and counters, or spans, into one OTLP request each (otlp_push.h). */
#include "otlp_push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RESOURCE "service.name=\"llmm\""

/* Encode with a size query, then into an exact buffer. */
static int encode(const llmm_otlp_metrics_request *m, const llmm_otlp_traces_request *t,
                  llmm_otlp_encoding enc, uint8_t **out, size_t *n, llmm_push_result *r)
{
    llmm_status st;
    size_t need = 0;
    st = m ? llmm_export_otlp_metrics(m, enc, NULL, 0, &need)
           : llmm_export_otlp_traces(t, enc, NULL, 0, &need);
    if (st == LLMM_E_BUFFER) {
        if (!(*out = malloc(need ? need : 1))) {
            snprintf(r->error, sizeof r->error, "out of memory");
            return -1;
        }
        st = m ? llmm_export_otlp_metrics(m, enc, *out, need, n)
               : llmm_export_otlp_traces(t, enc, *out, need, n);
    }
    if (st != LLMM_OK) {
        snprintf(r->error, sizeof r->error, "encoding: %s", llmm_status_name(st));
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

static int push_request(const llmm_push_config *c, const llmm_otlp_metrics_request *m,
                        const llmm_otlp_traces_request *t, const char *path, llmm_push_result *r)
{
    uint8_t *body = NULL;
    size_t n = 0;
    int rc;
    memset(r, 0, sizeof *r);
    if (encode(m, t, c->json ? LLMM_OTLP_JSON : LLMM_OTLP_PROTOBUF, &body, &n, r) != 0)
        return -1;
    rc = llmm_push_post(c, path, body, n, r);
    free(body);
    return rc;
}

/* Metrics in the order given: a new metric wherever the name changes. */
static size_t count_runs(const char *const *names, size_t n)
{
    size_t i, runs = 0;
    for (i = 0; i < n; i++)
        if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
            runs++;
    return runs;
}

int llmm_push_metrics(const llmm_push_config *c, uint64_t start_ns, uint64_t time_ns,
                      const llmm_push_histogram *h, size_t nh, const llmm_push_counter *k,
                      size_t nk, llmm_push_result *r)
{
    llmm_otlp_metrics_request req;
    llmm_otlp_metric *m = NULL;
    llmm_otlp_point *p = NULL;
    const char **names = NULL;
    size_t i, nm = 0, total = nh + nk;
    int rc = -1;

    memset(r, 0, sizeof *r);
    if (!(names = calloc(total ? total : 1, sizeof *names)) ||
        !(p = calloc(total ? total : 1, sizeof *p))) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto out;
    }
    for (i = 0; i < total; i++)
        names[i] = i < nh ? h[i].name : k[i - nh].name;
    if (!(m = calloc(count_runs(names, nh) + count_runs(names + nh, nk) + 1, sizeof *m))) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto out;
    }
    for (i = 0; i < total; i++) {
        int hist = i < nh;
        llmm_otlp_point_init(&p[i]);
        p[i].start_time_unix_nano = start_ns;
        p[i].time_unix_nano = time_ns;
        if (hist) {
            p[i].attributes = h[i].attributes;
            p[i].sketch = h[i].sketch;
            p[i].exemplars = h[i].exemplars;
            p[i].exemplar_count = h[i].exemplar_count;
        } else {
            p[i].attributes = k[i - nh].attributes;
            p[i].value = k[i - nh].value;
        }
        if (i == 0 || i == nh || strcmp(names[i], names[i - 1]) != 0) {
            llmm_otlp_metric *x = &m[nm++];
            llmm_otlp_metric_init(x);
            x->name = names[i];
            x->points = &p[i];
            x->temporality = LLMM_OTLP_CUMULATIVE;
            if (hist) {
                x->type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
                x->unit = h[i].unit;
                x->unit_to_seconds = h[i].unit_to_seconds > 0 ? h[i].unit_to_seconds : 1.0;
                x->max_buckets = 160; /* the OpenTelemetry SDKs' default max_size */
            } else {
                x->type = LLMM_OTLP_SUM;
                x->unit = k[i - nh].unit;
                x->monotonic = 1;
            }
        }
        m[nm - 1].point_count++;
    }
    llmm_otlp_metrics_request_init(&req);
    req.resource_attributes = c->resource_attributes ? c->resource_attributes : DEFAULT_RESOURCE;
    req.scope_name = c->scope_name;
    req.metrics = m;
    req.metric_count = nm;
    rc = push_request(c, &req, NULL, "/v1/metrics", r);
out:
    free(names);
    free(p);
    free(m);
    return rc;
}

size_t llmm_push_exemplars_from_store(const llmm_exemplars *ex, double unit_to_seconds,
                                      llmm_exemplar *held, llmm_otlp_exemplar *out, size_t cap)
{
    uint32_t slots;
    size_t n = 0;
    double f = unit_to_seconds > 0 ? unit_to_seconds : 1.0;
    if (!ex || !held || !out)
        return 0;
    slots = llmm_exemplars_slots(ex);
    for (uint32_t s = 0; s < slots && n < cap; s++) {
        llmm_exemplar *e = &held[n];
        llmm_otlp_exemplar *o = &out[n];
        llmm_exemplar_init(e);
        if (llmm_exemplars_get(ex, s, e) != LLMM_OK)
            continue; /* empty */
        llmm_otlp_exemplar_init(o);
        o->value = e->value * f;
        o->time_unix_nano = e->time_unix_nano;
        memcpy(o->trace_id, e->trace_id, sizeof o->trace_id);
        memcpy(o->span_id, e->span_id, sizeof o->span_id);
        o->attributes = e->labels[0] ? e->labels : NULL;
        n++;
    }
    return n;
}

int llmm_push_spans(const llmm_push_config *c, const llmm_otlp_span *spans, size_t n,
                    llmm_push_result *r)
{
    llmm_otlp_traces_request req;
    llmm_otlp_traces_request_init(&req);
    req.resource_attributes = c->resource_attributes ? c->resource_attributes : DEFAULT_RESOURCE;
    req.scope_name = c->scope_name;
    req.spans = spans;
    req.span_count = n;
    return push_request(c, NULL, &req, "/v1/traces", r);
}
