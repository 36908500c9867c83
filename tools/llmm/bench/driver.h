/* driver.h: a whole `llmm bench` run (driver.c): the levels one after the other, their files,
 * the summary, the final report and knee table. cmd/bench.c parses the options into this. */
#ifndef LLMM_BENCH_DRIVER_H
#define LLMM_BENCH_DRIVER_H

#include "bench/client.h"
#include "bench/prompts.h"

#define LLMM_BENCH_LEVELS_MAX 64
#define LLMM_BENCH_HEADERS_MAX 16
/* The most prompts made: one per request up to this many, then used again (said). */
#define LLMM_BENCH_PROMPTS_MAX 100000

typedef struct llmm_bench_args {
    llmm_bench_target t;
    const char *base_url;
    const char *headers[LLMM_BENCH_HEADERS_MAX];
    uint32_t conc[LLMM_BENCH_LEVELS_MAX];
    size_t nconc;
    int conc_given;        /* --concurrency was given */
    llmm_bench_level lv;   /* the shape every level shares */
    llmm_bench_synth synth;
    const char *dataset;   /* NULL: synthetic prompts */
    int out_given;         /* --output-len was given */
    int model_given;       /* --model was given (else the server's first, or "default") */
    const char *out_dir;
    const char *label;
    double grace, progress_every;
    int metrics_port;      /* -1: none */
    const char *metrics_address; /* the numeric address it listens on (127.0.0.1) */
    const char *host_signals; /* --host-signals FILE, or NULL */
    int bpf;               /* --bpf (bench/bpf.h) */
    uint32_t server_pid;   /* --server-pid, 0: none */
    double runq_above;     /* --runq-above, seconds */
    int quiet, no_report;
    const char *otlp_url;  /* --otlp, or NULL */
    double otlp_every;     /* --otlp-interval, seconds */
    int otlp_json;
    const char *otlp_headers[LLMM_BENCH_HEADERS_MAX];
    size_t otlp_nheaders;
} llmm_bench_args;

/* Run it; returns the exit status (0, 1 a failure before or outside the requests). */
int llmm_bench_main(llmm_bench_args *a);

#endif /* LLMM_BENCH_DRIVER_H */
