/* client.h: the load generator of `llmm bench`: what one level of load is (a concurrency or a
 * rate), the prompts, the requests' records and the run of one level (loop.c) on libcurl's
 * multi-socket interface and epoll, one thread. */
#ifndef LLMM_BENCH_CLIENT_H
#define LLMM_BENCH_CLIENT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <llmmetrics/llmmetrics.h>

#include "common/error.h"

/* Why a request failed (0: it did not). */
enum {
    LLMM_BENCH_OK = 0,
    LLMM_BENCH_HTTP,      /* an HTTP status other than 200 */
    LLMM_BENCH_CONNECT,   /* could not connect */
    LLMM_BENCH_RESET,     /* the connection broke mid-stream (reset, closed, nothing sent) */
    LLMM_BENCH_TRUNCATED, /* the stream ended without data: [DONE] */
    LLMM_BENCH_MALFORMED, /* an event's data was not a JSON object, or the SSE broke limits */
    LLMM_BENCH_ERROR_EVENT, /* the server sent an error object in the stream */
    LLMM_BENCH_NO_OUTPUT, /* [DONE] without any output chunk */
    LLMM_BENCH_TIMEOUT,   /* --timeout passed */
    LLMM_BENCH_TLS,       /* TLS handshake or certificate */
    LLMM_BENCH_CANCELLED, /* still running when the grace period after Ctrl-C ended */
    LLMM_BENCH_OTHER,     /* another libcurl error */
    LLMM_BENCH_NREASONS
};
/* The longest message kept of a failure (the server's words, first bytes). */
#define LLMM_BENCH_MSG_MAX 200

/* "http", "connect", ... */
const char *llmm_bench_reason_name(int reason);

/* One prompt: its body fragment (the JSON value of "prompt", or of the user message's
 * content for chat) and its lengths. */
typedef struct llmm_bench_prompt {
    char *json;      /* a JSON value: a list of token IDs or a string */
    int64_t in_len;  /* input tokens (exact for token IDs, estimated for text) */
    int64_t out_len; /* max_tokens */
    int estimated;   /* in_len is an estimate (text) */
} llmm_bench_prompt;

typedef struct llmm_bench_prompts {
    llmm_bench_prompt *v;
    size_t n;
} llmm_bench_prompts;
void llmm_bench_prompts_free(llmm_bench_prompts *p);

/* What every request of the run shares. */
typedef struct llmm_bench_target {
    const char *url;          /* the endpoint's full URL */
    int chat;                 /* /v1/chat/completions (else /v1/completions) */
    const char *model;
    const char *api_key;      /* NULL: none; never printed */
    const char *const *headers; /* extra "Name: value" lines */
    size_t nheaders;
    const char *cacert;       /* NULL: the system's */
    int insecure;             /* do not verify the server's certificate */
    int ignore_eos;
    double timeout;           /* seconds per request, 0: none */
    /* --traceparent: every request is a child of it (its trace id, a fresh span id, the
     * parent its span); else each request starts a trace of its own (bench/trace.h) */
    int tp_given;
    uint8_t tp_trace[16], tp_span[8], tp_flags;
} llmm_bench_target;

/* One level of load. */
typedef struct llmm_bench_level {
    int open;              /* open loop at rate (else closed at concurrency) */
    uint32_t concurrency;  /* closed: requests in flight; open: the most in flight (0: no cap) */
    double rate;           /* open: requests per second */
    int poisson;           /* open: exponential gaps (else constant) */
    uint64_t num_requests; /* 0: until duration */
    double duration;       /* seconds, 0: until num_requests */
    double warmup;         /* share of the requests sent first that is not measured */
    uint64_t seed;         /* arrivals and the prompt order */
    uint64_t first_prompt; /* request k uses prompt order[(first_prompt + k) % n]: each level
                              of a sweep starts where the one before ended */
} llmm_bench_level;

/* One request's record. Times are CLOCK_MONOTONIC seconds. */
typedef struct llmm_bench_rec {
    double intended, sent, first, last; /* first/last: output chunks (NaN: none) */
    double first_sent;                  /* the first attempt's send time (sent: the attempt
                                           the server answered) */
    uint32_t resends;                   /* 0, or 1: re-sent after a reused connection died
                                           before a byte of response */
    double end;                         /* the transfer ended */
    int64_t in_tokens, out_tokens;      /* input_lens: the asked length of a token-ID prompt,
                                           usage's when sent for text, else the estimate;
                                           output: usage when sent, else output chunks */
    int64_t asked_in, served_in;        /* the prompt's length as sent, and usage's
                                           prompt_tokens (-1: not sent) */
    int asked_exact;                    /* asked_in is exact (token IDs) */
    char *msg;                          /* a failure's words: the server's (the first
                                           LLMM_BENCH_MSG_MAX bytes) or libcurl's; NULL */
    uint32_t chunks;                    /* output chunks */
    uint32_t nitl;
    size_t itl;                         /* its ITLs at llmm_bench_result.itl[itl..] */
    int reason, http_status;
    int usage;                          /* token counts from the server's usage */
    int windowed;                       /* sent after the warm-up, ended before the cool-down */
    int phase;                          /* LLMM_BENCH_WARMUP, _WINDOW or _COOLDOWN */
    int measured;                       /* windowed and successful: in the sketches */
    uint8_t trace_id[16], span_id[8];   /* its W3C trace context, sent as `traceparent`
                                           (all zero: none sent) */
    uint16_t local_port;                /* its connection's local TCP port (0: unknown) */
    /* The kernel events `llmm bench --bpf` attributed to it (all 0 without --bpf; doc/bpf.md):
     * retransmits of its own connection between its send and its last byte, and the server
     * threads' major faults and run-queue waits above the threshold (sched.jitter) that
     * overlap its largest gap (TTFT or an ITL). */
    uint32_t kev_retrans, kev_major_faults, kev_sched_jitter;
} llmm_bench_rec;

/* Where a request falls: sent in the warm-up, in the measured window (sent after the warm-up
 * and ended while the load was whole), or ended in the cool-down (after sending stopped). */
enum { LLMM_BENCH_WARMUP, LLMM_BENCH_WINDOW, LLMM_BENCH_COOLDOWN, LLMM_BENCH_NPHASES };

/* The sketches of a level: TTFT, ITL, E2E from the send time, and TTFT and E2E from the
 * intended send time (open loop: coordinated omission corrected). */
enum { LLMM_BENCH_TTFT, LLMM_BENCH_ITL, LLMM_BENCH_E2E, LLMM_BENCH_TTFT_CO, LLMM_BENCH_E2E_CO,
       LLMM_BENCH_NSKETCH };

/* What one level measured. */
typedef struct llmm_bench_result {
    llmm_bench_level level;
    llmm_bench_rec *rec;  /* every request sent, in send order */
    size_t n, cap;
    double *itl;
    size_t nitl, capitl;
    double t0, t_end;     /* first send, last completion */
    double w0, w1;        /* the measured window */
    uint64_t measured_done; /* successful completions inside the window */
    uint64_t failed[LLMM_BENCH_NREASONS];
    uint64_t http_status[6]; /* failures by status class: [4] 4xx, [5] 5xx, [0] other */
    uint32_t max_in_flight;
    uint64_t connects;    /* connections opened (the rest of the requests reused one) */
    uint64_t resends;     /* requests sent again (llmm_bench_req_should_resend) */
    int interrupted;      /* Ctrl-C */
    llmm_recorder *rc[LLMM_BENCH_NSKETCH];
    llmm_shard *sh[LLMM_BENCH_NSKETCH];
    /* the 50 ms series: time since t0, requests in flight, completions so far */
    double *series;       /* triples */
    size_t nseries, capseries;
    struct llmm_bench_kevents *kev; /* --bpf: the kernel events attributed (bench/bpf.h) */
} llmm_bench_result;

void llmm_bench_result_free(llmm_bench_result *r);
/* A snapshot of sketch k of the level (a new sketch; NULL out of memory). */
llmm_sketch *llmm_bench_result_sketch(const llmm_bench_result *r, int k);

/* How the run reports while it goes: a progress line on a terminal, else a line every
 * `every` seconds; `label` names the level. */
typedef struct llmm_bench_progress {
    int tty;
    double every;
    const char *label;
    int quiet;                           /* no lines */
    struct llmm_bench_metrics *metrics;  /* --metrics-port, or NULL */
    /* --host-signals: sampled with every 50 ms sample of the series, one line of host_file
     * each (t: CLOCK_MONOTONIC seconds, the clock of the result files' start_times); a
     * write error sets *host_failed */
    llmm_host_sampler *host;
    FILE *host_file;
    int *host_failed;
    struct llmm_bench_bpf *bpf; /* --bpf (bench/bpf.h): read with every sample; NULL: none */
    /* --otlp: handed a snapshot at the 50 ms samples once its interval passed (bench/otlp.h),
     * or NULL */
    struct llmm_bench_otlp *otlp;
} llmm_bench_progress;

/* Set by the SIGINT handler (cmd/bench.c): stop sending, wait `grace` seconds. */
extern volatile sig_atomic_t llmm_bench_interrupted;

/* Does the server answer? One real request, prompt p with one output token, that must
 * succeed: LLMM_CLI_OK, or LLMM_CLI_EIO with the reason, the HTTP status and the first line of
 * what the server said. */
int llmm_bench_preflight(const llmm_bench_target *t, const llmm_bench_prompt *p,
                         llmm_cli_error *err);

/* The first model of the server's list (GET .../v1/models beside the endpoint, as vLLM's
 * client asks it without --model) into out[0, cap): 0, or -1 when there is none fit to send
 * (no answer, not 200, no data[0].id, or an id with a quote, a backslash or a non-printable
 * byte). */
int llmm_bench_first_model(const llmm_bench_target *t, char *out, size_t cap);

/* Run one level: prompts in the order llmm_bench_prompt_order(p->n, lv->seed). LLMM_CLI_OK, ENOMEM, or EIO (the
 * event loop itself failed) with a message; failed requests are data in *out. */
int llmm_bench_run(const llmm_bench_target *t, const llmm_bench_prompts *p,
                   const llmm_bench_level *lv, double grace, const llmm_bench_progress *pr,
                   llmm_bench_result *out, llmm_cli_error *err);

#endif /* LLMM_BENCH_CLIENT_H */
