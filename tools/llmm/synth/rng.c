/* rng.c: deterministic pseudo-random numbers for the synthetic data (rng.h): xoshiro256**,
 * seeded by splitmix64. */
#include <math.h>

#include "synth/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void llmm_cli_rng_seed(llmm_cli_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t llmm_cli_rng_next(llmm_cli_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double llmm_cli_rng_uniform(llmm_cli_rng *r)
{
    /* 53 random bits, shifted by half a step so that 0 and 1 never occur. */
    return ((double)(llmm_cli_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double llmm_cli_rng_normal(llmm_cli_rng *r)
{
    double u1 = llmm_cli_rng_uniform(r), u2 = llmm_cli_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double llmm_cli_rng_exp(llmm_cli_rng *r, double mean)
{
    return -mean * log(llmm_cli_rng_uniform(r));
}

