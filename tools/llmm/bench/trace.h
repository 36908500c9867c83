/* trace.h: the W3C trace context `llmm bench` sends with every request (trace.c): fresh ids
 * from a generator seeded by the kernel's random source, as roots of their own traces or as
 * children of --traceparent; and the run's slowest requests, named by trace id at the end. */
#ifndef LLMM_BENCH_TRACE_H
#define LLMM_BENCH_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/client.h"
#include "synth/rng.h"

/* The ids' generator: xoshiro256** seeded from getrandom(2) (the clock and the process id
 * when the kernel has none to give). Each level has its own. */
void llmm_bench_ids_seed(llmm_cli_rng *g);
/* Fresh ids for one request: a new trace id (or the parent's, with t->tp_given) and a new
 * span id, never all zero. */
void llmm_bench_ids_next(llmm_cli_rng *g, const llmm_bench_target *t, uint8_t trace[16],
                         uint8_t span[8]);
/* The `traceparent: ...` header line of a request's ids into buf (at least 72 bytes): the
 * flags of --traceparent, else 01 (sampled). */
void llmm_bench_traceparent_header(const llmm_bench_target *t, const uint8_t trace[16],
                                   const uint8_t span[8], char *buf, size_t cap);
/* Lowercase hex of n bytes into out (2n + 1 bytes). */
void llmm_bench_hex(const uint8_t *b, size_t n, char *out);

/* The slowest requests of the run (measured and successful), per figure. */
#define LLMM_BENCH_SLOWEST 5
enum { LLMM_BENCH_SLOW_E2E, LLMM_BENCH_SLOW_TTFT, LLMM_BENCH_NSLOW };
typedef struct llmm_bench_slow {
    double v;       /* seconds */
    char level[16]; /* "c8" */
    size_t index;   /* the request's number in its level (X-Request-Id: bench-N) */
    uint8_t trace_id[16], span_id[8];
} llmm_bench_slow;
typedef struct llmm_bench_slowest {
    llmm_bench_slow top[LLMM_BENCH_NSLOW][LLMM_BENCH_SLOWEST]; /* largest first */
    size_t n[LLMM_BENCH_NSLOW];
    /* every measured request's TTFT at its first token, for the spikes (all levels) */
    struct llmm_bench_ttft_at *at;
    size_t nat, capat;
    int nomem;
} llmm_bench_slowest;
/* Add a level's measured requests. */
void llmm_bench_slowest_add(llmm_bench_slowest *s, const llmm_bench_result *r);
/* "Slowest requests" lines to f (nothing when there is none), then the TTFT spikes as the
 * closing report's spikes section finds them (llmm_spike with its defaults over the measured
 * requests of every level in the order of their first tokens) with the trace id of each
 * request a spike hit (the first LLMM_BENCH_SPIKES_SHOWN). */
#define LLMM_BENCH_SPIKES_SHOWN 20
void llmm_bench_slowest_print(FILE *f, const llmm_bench_slowest *s);
void llmm_bench_slowest_free(llmm_bench_slowest *s);

#endif /* LLMM_BENCH_TRACE_H */
