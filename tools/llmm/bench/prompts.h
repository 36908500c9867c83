/* prompts.h: the prompts `llmm bench` sends (prompts.c): synthetic ones of given input and
 * output lengths, seeded. Needs no libcurl. */
#ifndef LLMM_BENCH_PROMPTS_H
#define LLMM_BENCH_PROMPTS_H

#include "bench/client.h"

typedef struct llmm_bench_synth {
    int64_t in_len, out_len; /* means */
    double range;            /* lengths uniform in mean * [1 - range, 1 + range] */
    int text;                /* words (chat), else token-ID lists (exact input lengths) */
    size_t n;                /* prompts made */
    uint64_t seed;
} llmm_bench_synth;

/* Make the prompts: LLMM_CLI_OK or LLMM_CLI_ENOMEM. */
int llmm_bench_prompts_synth(const llmm_bench_synth *s, llmm_bench_prompts *out,
                             llmm_cli_error *err);

#endif /* LLMM_BENCH_PROMPTS_H */
