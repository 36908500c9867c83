/* record.h: what every reader delivers, and to whom.
 *
 * Flow: a reader (one per format in this folder) turns bytes into request records,
 * inter-token latencies, events and, at the end of each run, what the run states about
 * itself (its duration, the load it ran at, the tool's own figures); it hands them to a sink.
 * The trace accumulator (analysis/trace.c) is the sink the report uses; `llmm compare` and
 * `llmm knee` use one per run. Readers work on any buffer split into any chunks, so the same
 * code serves files, tests and fuzzers.
 */
#ifndef LLMM_CLI_RECORD_H
#define LLMM_CLI_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* One request as every input format describes it. Times in seconds.
 * A successful request has a finite E2E >= 0 and a TTFT that is NaN (the input has no
 * per-token times: pooling runs, vLLM files saved without --save-detailed) or finite and at
 * most E2E. A failed request has NaN for both. */
typedef struct llmm_cli_record {
    double start_s;        /* send time on the run's own clock; NaN when the input has none */
    double ttft_s;         /* time to first token */
    double e2e_s;          /* end-to-end latency */
    int64_t input_tokens;  /* -1 when unknown */
    int64_t output_tokens; /* -1 when unknown */
    int32_t failed;        /* 1: counts in the error rate, never in latency percentiles */
} llmm_cli_record;

/* ---- the tools' own figures ------------------------------------------------------------------ */

/* What a figure measures, in our terms: the four latencies (the LLMM_CLI_M_* of trace.h),
 * then run-level figures. */
enum {
    LLMM_CLI_FM_TTFT = 0,
    LLMM_CLI_FM_TPOT,
    LLMM_CLI_FM_ITL,
    LLMM_CLI_FM_E2E,
    LLMM_CLI_FM_REQ_RATE,       /* completed requests per second */
    LLMM_CLI_FM_OUT_TOK_RATE,   /* output tokens per second */
    LLMM_CLI_FM_TOTAL_TOK_RATE, /* input + output tokens per second */
    LLMM_CLI_FM_GOODPUT,        /* good requests per second */
    LLMM_CLI_FM_COMPLETED,      /* successful requests */
    LLMM_CLI_FM_FAILED,         /* failed requests */
    LLMM_CLI_FM_DURATION,       /* benchmark duration */
    LLMM_CLI_FM_OUT_TOKENS,     /* output tokens of successful requests */
    LLMM_CLI_FM_IN_TOKENS,      /* input tokens of successful requests */
    LLMM_CLI_FM_OTHER,          /* a figure we have no counterpart for */
    LLMM_CLI_FM_COUNT
};

/* Which statistic. */
enum {
    LLMM_CLI_ST_VALUE = 0, /* a single number (a rate, a count) */
    LLMM_CLI_ST_MEAN,
    LLMM_CLI_ST_MEDIAN,
    LLMM_CLI_ST_STD,
    LLMM_CLI_ST_MIN,
    LLMM_CLI_ST_MAX,
    LLMM_CLI_ST_QUANTILE, /* q below */
    LLMM_CLI_ST_COUNT_OF  /* the number of samples behind a distribution */
};

/* One figure a tool wrote, as it wrote it. */
typedef struct llmm_cli_figure {
    char name[64];    /* the tool's own name: "p99_ttft_ms", "time_to_first_token.p99" */
    int32_t metric;   /* LLMM_CLI_FM_* */
    int32_t stat;     /* LLMM_CLI_ST_* */
    double q;         /* the quantile of LLMM_CLI_ST_QUANTILE (0.99), else NaN */
    double value;     /* in the tool's unit */
    char unit[16];    /* that unit: "ms", "s", "req/s", "tok/s", "count", "" */
    double si;        /* the value in seconds (latencies), per second (rates) or a count */
} llmm_cli_figure;

/* How a tool defines what it measures, next to ours (a reader's static description). */
typedef struct llmm_cli_tool {
    const char *name;        /* "vLLM", "SGLang", "genai-perf", "GuideLLM", "LLMPerf" */
    const char *percentiles; /* how its percentiles are computed */
    /* per LLMM_CLI_FM_* (the latencies and the rates): how the tool's figure relates to
     * ours; NULL where it states none */
    const char *relation[LLMM_CLI_FM_GOODPUT + 1];
} llmm_cli_tool;

/* What one run (one benchmark: a vLLM or SGLang result document, a GuideLLM benchmark, a
 * genai-perf experiment, a CSV or JSONL file) states about itself. NaN, -1 or NULL where it
 * states nothing. */
typedef struct llmm_cli_run {
    double duration_s;    /* the benchmark's own duration */
    double concurrency;   /* the concurrency it ran at (vLLM/SGLang max_concurrency, GuideLLM
                             concurrent streams or synchronous = 1, genai-perf concurrency) */
    double request_rate;  /* the request rate it aimed at, per second (+inf: all at once) */
    int64_t completed;    /* the tool's own counts */
    int64_t failed;
    int stats_only;       /* no per-request samples: the figures below are all there is */
    int sampled;          /* the records are a sample of the run's requests (GuideLLM's
                             sample_requests): its counts are completed and failed above, its
                             tokens its figures; the records give percentiles only */
    /* a run with statistics only: its output and input token totals when they follow from
     * its figures without being one (LLMPerf: mean x completed), else -1 */
    int64_t out_tokens, in_tokens;
    const char *tokens_from; /* how those totals follow (static), NULL: stated or -1 */
    /* how duration_s follows from the run's figures when the run states none (LLMPerf:
     * "completed / results_num_completed_requests_per_min"), NULL: stated as such */
    const char *duration_from;
    const char *label;    /* a short description ("constant 2 req/s"), NULL: none */
    const char *model;    /* the model it ran against, NULL: unstated */
    const llmm_cli_figure *fig; /* the tool's own figures of this run */
    size_t nfig;
} llmm_cli_run;

/* A run with nothing stated. */
void llmm_cli_run_init(llmm_cli_run *r);

/* ---- the sink ------------------------------------------------------------------------------ */

/* Where readers deliver what they read. Every callback returns LLMM_CLI_OK or an error code
 * (after filling err through the reader); any callback may be NULL. */
typedef struct llmm_cli_sink {
    void *user;
    /* One request. Records of a run arrive in the input's order (GuideLLM's: by send time). */
    int (*record)(void *user, const llmm_cli_record *r);
    /* One inter-token latency (seconds) of a successful request. */
    int (*itl)(void *user, double v);
    /* Forget every ITL delivered since the current input began (called before a second pass
     * over the input; see llmm_cli_reader.replay). */
    int (*itl_reset)(void *user);
    /* A run ended (after its records); *run and what it points to live only during the call. */
    int (*run_end)(void *user, const llmm_cli_run *run);
    /* A remark about the input that is not an error (printed to stderr by the tool). */
    void (*note)(void *user, const char *msg);
    /* An event the input records (vLLM: the "llmm_events" list), t_s on the run's clock (the
     * clock of its start times), type an event attribute name such as "model.weight_switch";
     * delivered before the run's records. */
    int (*event)(void *user, double t_s, const char *type, double value);
    /* The kind of failure of the failed request just delivered, as its input names it (a
     * vLLM errors entry up to its first ':', "http 404" or "reset" in `llmm bench`'s files;
     * len bytes, not NUL-terminated); only for inputs that say. */
    int (*failure)(void *user, const char *kind, size_t len);
} llmm_cli_sink;

/* The most kinds of failure a report tells apart (the rest are counted together). */
#define LLMM_CLI_FAILURE_KINDS 16
#define LLMM_CLI_FAILURE_KIND_MAX 24 /* bytes of a kind, its NUL included */
typedef struct llmm_cli_failure_kinds {
    char name[LLMM_CLI_FAILURE_KINDS][LLMM_CLI_FAILURE_KIND_MAX];
    uint64_t n[LLMM_CLI_FAILURE_KINDS];
    size_t nkinds;
    uint64_t other; /* failures of further kinds */
} llmm_cli_failure_kinds;

/* Statistics about what a reader read, for the report's input table. */
typedef struct llmm_cli_input_info {
    uint64_t requests;           /* records delivered */
    uint64_t runs;               /* runs (vLLM documents, GuideLLM benchmarks, ...) */
    uint64_t stats_only_runs;    /* runs that hold statistics but no per-request samples */
    uint64_t e2e_from_latencies; /* vLLM: successful requests whose E2E is 'latencies' */
    uint64_t e2e_from_itls;      /* vLLM, SGLang: successful requests whose E2E is TTFT +
                                    sum(ITL) */
    uint64_t not_delivered;      /* requests the tool lists but we leave out (GuideLLM:
                                    cancelled at the benchmark's end or outside its measured
                                    window) */
    int32_t has_start_times;
    int32_t has_itls;
    int32_t has_ttft;            /* some record has a TTFT (0: end-to-end latencies only) */
    int32_t replayed;            /* vLLM: a second pass dropped ITLs of failed requests */
    const llmm_cli_tool *tool;   /* the tool that wrote the input (NULL: CSV, JSONL) */
    char layout[96];             /* which of the tool's layouts ("vllm bench serve, 2025") */
} llmm_cli_input_info;

#endif /* LLMM_CLI_RECORD_H */
