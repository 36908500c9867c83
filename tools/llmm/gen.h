/* gen.h: the synthetic benchmark trace behind `llmm demo`. */
#ifndef LLMM_CLI_GEN_H
#define LLMM_CLI_GEN_H

#include "cli.h"

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

#endif /* LLMM_CLI_GEN_H */
