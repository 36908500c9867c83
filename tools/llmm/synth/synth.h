/* synth.h: synthetic inputs, seeded, for `llmm demo`: a vLLM benchmark trace (trace.c) and a
 * load sweep (sweep.c). Synthetic data, not a measurement of any system. */
#ifndef LLMM_CLI_SYNTH_H
#define LLMM_CLI_SYNTH_H

#include <stdint.h>
#include <stdio.h>

typedef struct llmm_cli_gen_opts {
    uint64_t seed;
    uint32_t requests;
    double rate;            /* arrivals per second (Poisson) */
    double switch_at;       /* FP16 -> INT8 weight switch, seconds after the first send */
    double spike_at[2];     /* injected TTFT storms, seconds after the first send */
    double spike_len;       /* seconds each storm lasts */
    double fail_share;      /* requests rejected before any token */
} llmm_cli_gen_opts;

void llmm_cli_gen_defaults(llmm_cli_gen_opts *o);
/* Place the switch and the storms for o->requests and o->rate. */
void llmm_cli_gen_place(llmm_cli_gen_opts *o);

/* What was generated, for the demo's header and for tests. */
typedef struct llmm_cli_gen_facts {
    uint32_t requests, failed, completed;
    double duration;
} llmm_cli_gen_facts;

/* Write one vLLM `bench serve --save-result --save-detailed` style document. */
int llmm_cli_gen_vllm(FILE *out, const llmm_cli_gen_opts *o, llmm_cli_gen_facts *facts);

/* Write a synthetic, seeded sweep as CSV (the demo's): a USL-shaped server (λ = 9 QPS,
 * σ = 0.02, κ = 0.0001) measured at 4 … 160 concurrent requests in steps of 4, three noisy
 * repeats per step, with a P99 column growing as queueing sets in. */
int llmm_cli_sweep_generate(FILE *out, uint64_t seed);

#endif /* LLMM_CLI_SYNTH_H */
