/* model.h: the simulated engine's cost model and its per-request draws (model.c), apart from
 * any socket so that the unit tests check the arithmetic. doc/sim.md derives the knee.
 *
 * The engine runs in steps. A step holds b sequences (the running ones, at most max_batch,
 * whose reserved KV tokens fit kv_tokens) and the prompts of the sequences admitted at its
 * start; it lasts
 *
 *     step = step_base + step_per_seq * b + prefill_per_token * (prompt tokens admitted)
 *
 * and ends with one output token for each of its b sequences (a newly admitted one gets its
 * first token at the end of its first step). Requests that arrive during a step wait for the
 * next one; those that find no room (batch full, or prompt + max_tokens more KV tokens than
 * are free) queue in arrival order. */
#ifndef LLMM_CLI_SIM_MODEL_H
#define LLMM_CLI_SIM_MODEL_H

#include <stdint.h>

#include "synth/rng.h"

typedef struct llmm_sim_params {
    double step_base_ms;      /* fixed cost of a decode step */
    double step_per_seq_ms;   /* added per sequence in the batch */
    double prefill_ms_per_token;
    uint32_t max_batch;       /* sequences in one step */
    uint64_t kv_tokens;       /* KV capacity: prompt + max output reserved per sequence */
    uint32_t default_max_tokens; /* when the request gives none */
    double mean_output;       /* mean of the output-length draw without ignore_eos */
    /* faults: probabilities per request, in [0, 1] */
    double error_rate, stall_rate, drop_rate, malformed_rate;
    double stall_ms;
    uint64_t seed;
    /* connection and stream faults (doc/sim.md), drawn from a generator of their own so that
     * the plans above stay those of the seed */
    int close_after_stream;      /* close each connection once its stream is sent, while the
                                   response said keep-alive (llama-server's behaviour) */
    double idle_close_rate;      /* after a response, the connection is closed when the next
                                   request arrives on it, unanswered (an idle close the request
                                   crossed) */
    double stream_error_rate;    /* a stream ends with an in-stream error ... */
    int stream_error_dialect;    /* ... written in this dialect (llmm_sim_error_dialect) ... */
    uint32_t stream_error_after; /* ... after this many tokens (0: before any output) */
    uint32_t error_status;       /* the status of --error-rate's errors (0: 500 or 429) */
    uint64_t vocab_size;         /* token IDs from vocab_size on are refused (400); 0: any */
    uint64_t max_prompt_tokens;  /* longer prompts are truncated to this (usage says so); 0 */
    int empty_finish_chunk;      /* end each stream with a chunk of its own that carries the
                                    finish_reason and no text (llama.cpp's last chunk) */
} llmm_sim_params;

/* How an in-stream error is written: `event: error` + data, a data object {"error": ...},
 * or llama.cpp's field line `error: {...}`. */
typedef enum llmm_sim_error_dialect {
    LLMM_SIM_ERR_EVENT,
    LLMM_SIM_ERR_OBJECT,
    LLMM_SIM_ERR_FIELD,
} llmm_sim_error_dialect;

/* The defaults (doc/cli.md lists them). */
void llmm_sim_params_default(llmm_sim_params *p);

/* Duration of a step of b sequences admitting prompt_tokens prompt tokens, in ns. */
uint64_t llmm_sim_step_ns(const llmm_sim_params *p, uint32_t b, uint64_t prompt_tokens);

/* What a request will do, drawn from the seeded generator in arrival order. */
typedef enum llmm_sim_fault {
    LLMM_SIM_FAULT_NONE,
    LLMM_SIM_FAULT_ERROR_500,
    LLMM_SIM_FAULT_ERROR_429,
    LLMM_SIM_FAULT_STALL,
    LLMM_SIM_FAULT_DROP,
    LLMM_SIM_FAULT_MALFORMED,
} llmm_sim_fault;

typedef struct llmm_sim_plan {
    uint32_t output_tokens; /* tokens it will produce (>= 1) */
    llmm_sim_fault fault;
    uint32_t fault_at;      /* stall, drop, malformed: the token (1-based) after which the
                               stall or the drop happens (before the last), or which is
                               garbled; a one-token stream has no stall or drop */
} llmm_sim_plan;

/* The plan of a request asking for max_tokens (0: the default) with or without ignore_eos.
 * The draws are made in a fixed order whatever the rates, so the same seed gives the same
 * plans: error (then 500 or 429 with equal odds), output length, stall, drop, malformed (the
 * first fault drawn wins). */
void llmm_sim_plan_request(const llmm_sim_params *p, llmm_cli_rng *rng, uint32_t max_tokens,
                           int ignore_eos, llmm_sim_plan *plan);

/* The sequences that fit in one step at once for prompts of prompt_tokens and outputs of
 * output_tokens: min(max_batch, floor(kv_tokens / (prompt + output))). */
double llmm_sim_batch_limit(const llmm_sim_params *p, double prompt_tokens,
                            double output_tokens);
/* Closed-loop throughput (requests/s) the model predicts at concurrency c for prompts of
 * prompt_tokens and outputs of output_tokens (ignore_eos), the network neglected (doc/sim.md).
 * wait_steps in [0, 1]: the steps a resubmitted request waits before it is admitted (1 when
 * the clients are out of phase, 0 when they run in lockstep). */
double llmm_sim_closed_loop_qps(const llmm_sim_params *p, double c, double prompt_tokens,
                                double output_tokens, double wait_steps);
/* The concurrency where requests start to queue, the knee of QPS vs concurrency:
 * batch_limit * (output + wait_steps) / output. */
double llmm_sim_knee_concurrency(const llmm_sim_params *p, double prompt_tokens,
                                 double output_tokens, double wait_steps);

#endif /* LLMM_CLI_SIM_MODEL_H */
