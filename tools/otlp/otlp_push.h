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

/* The exemplars of a store (llmm_exemplars_get(), slot by slot, the empty ones skipped) as
 * OTLP exemplars for a histogram point: values times unit_to_seconds (0 means 1: the
 * histogram's exported unit), wall-clock times, trace and span ids, and the labels as
 * filtered_attributes. held[i] receives the store's exemplar that out[i] was made of, and out[i]
 * points into it (its labels): keep held until the push is done. Returns how many were written
 * (at most cap, in slot order), or 0 on a NULL argument. */
size_t llmm_push_exemplars_from_store(const llmm_exemplars *ex, double unit_to_seconds,
                                      llmm_exemplar *held, llmm_otlp_exemplar *out, size_t cap);

/* Encode and POST one traces request of `n` spans. */
int llmm_push_spans(const llmm_push_config *c, const llmm_otlp_span *spans, size_t n,
                    llmm_push_result *r);

#endif
