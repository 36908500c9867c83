/* rng.h: deterministic pseudo-random numbers for the synthetic data (xoshiro256**, seeded by
 * splitmix64): the same seed gives the same trace on every machine. */
#ifndef LLMM_CLI_RNG_H
#define LLMM_CLI_RNG_H

#include <stdint.h>

typedef struct llmm_cli_rng {
    uint64_t s[4];
} llmm_cli_rng;

void llmm_cli_rng_seed(llmm_cli_rng *r, uint64_t seed);
uint64_t llmm_cli_rng_next(llmm_cli_rng *r);
double llmm_cli_rng_uniform(llmm_cli_rng *r); /* (0, 1) */
double llmm_cli_rng_normal(llmm_cli_rng *r);  /* N(0, 1) */
double llmm_cli_rng_exp(llmm_cli_rng *r, double mean);

#endif /* LLMM_CLI_RNG_H */
