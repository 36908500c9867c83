/* guidellm.h: the reader of GuideLLM's benchmarks.json (guidellm.c: the file's structure, the
 * tool's figures; guidellm_request.c: the requests of one benchmark). */
#ifndef LLMM_CLI_GUIDELLM_H
#define LLMM_CLI_GUIDELLM_H

#include "input/jreader.h"

/* Which list of a benchmark a request is in. */
enum { GL_SUCCESSFUL = 0, GL_ERRORED, GL_INCOMPLETE, GL_LISTS };

/* One listed request, as GuideLLM timed it (Unix seconds; NaN when not stated). */
typedef struct gl_req {
    double start, first, last, end;
    int64_t out_tokens, in_tokens;
    int list; /* GL_* */
} gl_req;

/* The requests of the benchmark being read, kept until it ends (its measured window is known
 * only then in older layouts). */
typedef struct gl_reqs {
    gl_req *v;
    size_t n, cap;
    gl_req cur; /* the request being read */
} gl_reqs;

typedef struct llmm_cli_guidellm {
    llmm_cli_jreader jr; /* first */
    gl_reqs reqs;
    llmm_cli_run run;
    double win_start, win_end;          /* the measured window (scheduler_metrics) */
    double bench_start, bench_end;      /* the benchmark's start_time, end_time */
    int64_t totals[GL_LISTS];           /* metrics.request_totals, -1 unknown */
    char strategy[24];                  /* config.strategy.type_ */
    double streams, rate, max_conc;
    char dist[48];                      /* the distribution whose figures are being read */
    int cur_list;                       /* the request list being read (GL_*) */
    char pct[8];                        /* the percentile key being read ("p999") */
    double pct_q;                       /* its quantile (0.999) */
    int layout_v03, layout_meta;
    uint64_t sampled_benchmarks;
    /* the model: the root args.model (v0.5, v0.6), a benchmark's config.backend.model (v0.5
     * on) or worker.backend_model (v0.3, v0.4); "" unstated */
    char root_model[128], bench_model[128];
} llmm_cli_guidellm;

void llmm_cli_gl_reqs_free(gl_reqs *r);
/* The request being read is complete: keep it. */
int llmm_cli_gl_keep(llmm_cli_guidellm *p);
/* The benchmark ended: its requests inside the measured window go to the sink, by send time;
 * returns 1, or 0 after an error. */
int llmm_cli_gl_deliver(llmm_cli_guidellm *p);

#endif /* LLMM_CLI_GUIDELLM_H */
