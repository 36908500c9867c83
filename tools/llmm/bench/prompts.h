/* prompts.h: the prompts `llmm bench` sends (prompts.c): synthetic ones of given input and
 * output lengths, seeded, and the order requests use the prompts in. Needs no libcurl. */
#ifndef LLMM_BENCH_PROMPTS_H
#define LLMM_BENCH_PROMPTS_H

#include "bench/client.h"

/* --vocab-size's default: 32000 is the smallest vocabulary of the common model families
 * (Llama 2, Mistral); a smaller model needs --vocab-size. */
#define LLMM_BENCH_VOCAB_DEFAULT 32000

typedef struct llmm_bench_synth {
    int64_t in_len, out_len; /* means */
    double range;            /* lengths uniform in mean * [1 - range, 1 + range] */
    int text;                /* words (chat, --text-prompts), else token-ID lists (exact) */
    size_t n;                /* prompts made */
    uint64_t seed;
    uint64_t vocab;        /* token IDs below this (--vocab-size) */
    int64_t shared_prefix; /* tokens every prompt starts with (--shared-prefix), 0: none */
} llmm_bench_synth;

/* Make the prompts: LLMM_CLI_OK or LLMM_CLI_ENOMEM. Prompt i starts with the shared prefix,
 * then a prefix unique to it (its number i: token IDs in base vocab - low, or a word), then
 * seeded random tokens; its length is at least the two prefixes'. Token IDs are drawn from
 * [low, vocab), low = 1000 (below: the special and byte tokens of common vocabularies), or
 * vocab / 4 for vocabularies under 4000. */
int llmm_bench_prompts_synth(const llmm_bench_synth *s, llmm_bench_prompts *out,
                             llmm_cli_error *err);

/* The order of n prompts for the requests: a seeded permutation (request k uses prompt
 * order[k % n]: every prompt once before any twice). NULL out of memory. */
size_t *llmm_bench_prompt_order(size_t n, uint64_t seed);

#endif /* LLMM_BENCH_PROMPTS_H */
