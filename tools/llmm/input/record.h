/* record.h: what every reader delivers, and to whom.
 *
 * Flow: a reader (input/vllm.c, csv.c, jsonl.c, one per format) turns bytes into request
 * records, inter-token latencies and events and hands them to a sink; the trace accumulator
 * (analysis/trace.c) is the sink the report uses. Readers work on any buffer split into any
 * chunks, so the same code serves files, tests and fuzzers.
 */
#ifndef LLMM_CLI_RECORD_H
#define LLMM_CLI_RECORD_H

#include <stdint.h>

#include "common/error.h"

/* One request as every input format describes it. Times in seconds. */
typedef struct llmm_cli_record {
    double start_s;        /* send time on the run's own clock; NaN when the input has none */
    double ttft_s;         /* time to first token; NaN for a failed request */
    double e2e_s;          /* end-to-end latency; NaN for a failed request */
    int64_t input_tokens;  /* -1 when unknown */
    int64_t output_tokens; /* -1 when unknown */
    int32_t failed;        /* 1: counts in the error rate, never in latency percentiles */
} llmm_cli_record;

/* Where readers deliver what they read. Every callback returns LLMM_CLI_OK or an error code
 * (after filling err through the reader); any callback may be NULL. */
typedef struct llmm_cli_sink {
    void *user;
    /* One request. Records of a run arrive in the input's order. */
    int (*record)(void *user, const llmm_cli_record *r);
    /* One inter-token latency (seconds) of a successful request. */
    int (*itl)(void *user, double v);
    /* Forget every ITL delivered since the current input began (called before a second pass
     * over the input; see llmm_cli_reader.replay_flags). */
    int (*itl_reset)(void *user);
    /* A run (one benchmark: a vLLM result document, a CSV or JSONL file) ended.
     * duration_s: the run's own benchmark duration if the input states it, else NaN. */
    int (*run_end)(void *user, double duration_s);
    /* A remark about the input that is not an error (printed to stderr by the tool). */
    void (*note)(void *user, const char *msg);
    /* An event the input records (vLLM: the "llmm_events" list), t_s on the run's clock (the
     * clock of its start times), type an event attribute name such as "model.weight_switch";
     * delivered before the run's records. */
    int (*event)(void *user, double t_s, const char *type, double value);
} llmm_cli_sink;

/* Statistics about what a reader read, for the report's input table. */
typedef struct llmm_cli_input_info {
    uint64_t requests;           /* records delivered */
    uint64_t runs;               /* vLLM documents (several with --append-result), else 1 */
    uint64_t e2e_from_latencies; /* vLLM: successful requests whose E2E is 'latencies' */
    uint64_t e2e_from_itls;      /* vLLM: successful requests whose E2E is TTFT + sum(ITL) */
    int32_t has_start_times;
    int32_t has_itls;
    int32_t replayed;            /* vLLM: a second pass dropped ITLs of failed requests */
} llmm_cli_input_info;

#endif /* LLMM_CLI_RECORD_H */
