/* otlp.h: `llmm bench --otlp URL` (otlp.c): the running level's client-side sketches and
 * requests by outcome, and one client span per request, pushed to an OTLP/HTTP collector
 * through tools/otlp. The event loop only takes snapshots (llmm_bench_otlp_tick(), at a
 * 50 ms sample past the interval, and llmm_bench_otlp_level_end()); a thread of its own
 * encodes and posts them, so a slow or absent collector never delays a request's timestamps.
 * Failures are said on stderr and counted, never the run's exit status. */
#ifndef LLMM_BENCH_OTLP_H
#define LLMM_BENCH_OTLP_H

#include <stddef.h>

#include "bench/client.h"

typedef struct llmm_bench_otlp llmm_bench_otlp;

typedef struct llmm_bench_otlp_options {
    const char *url; /* the collector's base URL */
    double every;    /* seconds between pushes of a level */
    int json;        /* OTLP/JSON (else protobuf) */
    const char *const *headers;
    size_t nheaders;
    const uint8_t *parent; /* --traceparent's span id (8 bytes), the spans' parent, or NULL */
    int spans_at_end;      /* --bpf: a level's spans go with its last push only, once its
                              kernel events are attributed (they are known at its end) */
} llmm_bench_otlp_options;

/* Start the pusher: NULL out of memory (said). */
llmm_bench_otlp *llmm_bench_otlp_open(const llmm_bench_otlp_options *o);
/* A level starts: its name ("c8") and its result (its records and recorders). */
void llmm_bench_otlp_level_start(llmm_bench_otlp *p, const char *level, const llmm_bench_result *r);
/* From the event loop at time now (CLOCK_MONOTONIC): when the interval has passed, snapshot
 * the sketches and counts and the spans of the requests ended since, and hand them over. */
void llmm_bench_otlp_tick(llmm_bench_otlp *p, double now);
/* The level ended: with push (its records are final), its last snapshot and spans. */
void llmm_bench_otlp_level_end(llmm_bench_otlp *p, int push);
/* Push what is left, stop the thread, say on stderr what failed, free. */
void llmm_bench_otlp_close(llmm_bench_otlp *p);

#endif /* LLMM_BENCH_OTLP_H */
