/* otlp_push.h: push a set of sketches and counters, or spans, to an OTLP collector.
 *
 * What `llmm bench --otlp` (and a server) calls every interval: each histogram becomes a
 * point of an exponential histogram metric, each counter a point of a monotonic sum, all
 * cumulative over [start_ns, time_ns]; entries in a row with the same name are the points of
 * one metric (e.g. one per outcome). The request is encoded by the library
 * (llmm_export_otlp_metrics() / llmm_export_otlp_traces()) and sent by llmm_push_post(). */
#ifndef LLMM_OTLP_PUSH_H
#define LLMM_OTLP_PUSH_H

#include "otlp_http.h"

typedef struct llmm_push_histogram {
    const char *name;       /* metric name, e.g. "gen_ai.client.time_to_first_token" */
    const char *unit;       /* e.g. "s" */
    const char *attributes; /* point attributes as a label list, or NULL */
    const llmm_sketch *sketch;
    double unit_to_seconds;              /* 0 means 1 */
    const llmm_otlp_exemplar *exemplars; /* or NULL */
    size_t exemplar_count;
} llmm_push_histogram;

typedef struct llmm_push_counter {
    const char *name;       /* e.g. "llmm.bench.requests" */
    const char *unit;       /* e.g. "{request}" */
    const char *attributes; /* e.g. outcome="ok" */
    double value;           /* cumulative count */
} llmm_push_counter;

/* Encode and POST one metrics request; 0 on success, -1 with r->error otherwise. */
int llmm_push_metrics(const llmm_push_config *c, uint64_t start_ns, uint64_t time_ns,
                      const llmm_push_histogram *h, size_t nh, const llmm_push_counter *k,
                      size_t nk, llmm_push_result *r);

/* Encode and POST one traces request of `n` spans. */
int llmm_push_spans(const llmm_push_config *c, const llmm_otlp_span *spans, size_t n,
                    llmm_push_result *r);

#endif
