/* prompts.c: synthetic prompts and their order (prompts.h). A text prompt repeats short
 * common words, about one token each. */
#include "bench/prompts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/rng.h"

void llmm_bench_prompts_free(llmm_bench_prompts *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].json);
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

static int64_t draw(llmm_cli_rng *g, int64_t mean, double range)
{
    double lo = (double)mean * (1.0 - range), hi = (double)mean * (1.0 + range);
    int64_t v = (int64_t)floor(lo + (hi - lo) * llmm_cli_rng_uniform(g) + 0.5);
    return v < 1 ? 1 : v;
}

static const char *const words[] = {"the", "of", "and", "to", "in", "is", "it", "on"};

/* The lowest token ID drawn. */
static uint64_t low_id(uint64_t vocab)
{
    return vocab >= 4000 ? 1000 : vocab / 4;
}

/* The token IDs (or word numbers, for text) of the prefix unique to prompt i: its digits in
 * base span, most significant first, ndig of them. */
static void unique_prefix(size_t i, uint64_t span, int ndig, uint64_t *dig)
{
    for (int d = ndig - 1; d >= 0; d--) {
        dig[d] = (uint64_t)i % span;
        i = (size_t)((uint64_t)i / span);
    }
}

/* One prompt of n tokens as JSON: shared[0, nshared), the unique prefix of prompt i, random
 * tokens. NULL out of memory. */
static char *make(llmm_cli_rng *g, const llmm_bench_synth *s, const uint64_t *shared, int64_t n,
                  size_t i, int ndig)
{
    uint64_t lo = low_id(s->vocab), span = s->vocab - lo, dig[8];
    size_t cap = (size_t)n * 22 + 32, at = 0;
    char *b = malloc(cap);
    int64_t k = 0;
    if (!b)
        return NULL;
    unique_prefix(i, span, ndig, dig);
    b[at++] = s->text ? '"' : '[';
    for (; k < n; k++) {
        const char *sep = k ? (s->text ? " " : ",") : "";
        uint64_t r = k < s->shared_prefix          ? shared[k]
                     : k < s->shared_prefix + ndig ? dig[k - s->shared_prefix]
                                                   : llmm_cli_rng_next(g) % span;
        if (s->text && k >= s->shared_prefix && k < s->shared_prefix + ndig)
            at += (size_t)snprintf(b + at, cap - at, "%s%llu", sep, (unsigned long long)r);
        else if (s->text)
            at += (size_t)snprintf(b + at, cap - at, "%s%s", sep, words[r % 8]);
        else
            at += (size_t)snprintf(b + at, cap - at, "%s%llu", sep, (unsigned long long)(lo + r));
    }
    b[at++] = s->text ? '"' : ']';
    b[at] = '\0';
    return b;
}

int llmm_bench_prompts_synth(const llmm_bench_synth *s, llmm_bench_prompts *out,
                             llmm_cli_error *err)
{
    llmm_cli_rng g;
    uint64_t span = s->vocab - low_id(s->vocab), *shared;
    int ndig = 1;
    /* text: one number word is the whole unique prefix */
    for (uint64_t reach = span; !s->text && reach < s->n && ndig < 8; reach *= span)
        ndig++;
    llmm_cli_rng_seed(&g, s->seed);
    out->n = 0;
    out->v = calloc(s->n ? s->n : 1, sizeof *out->v);
    shared = calloc((size_t)s->shared_prefix + 1, sizeof *shared);
    if (!out->v || !shared) {
        free(shared);
        free(out->v);
        out->v = NULL;
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    for (int64_t k = 0; k < s->shared_prefix; k++)
        shared[k] = llmm_cli_rng_next(&g) % span;
    for (size_t i = 0; i < s->n; i++) {
        llmm_bench_prompt *p = &out->v[i];
        p->in_len = draw(&g, s->in_len, s->range);
        if (p->in_len < s->shared_prefix + ndig)
            p->in_len = s->shared_prefix + ndig;
        p->out_len = draw(&g, s->out_len, s->range);
        p->estimated = s->text;
        p->json = make(&g, s, shared, p->in_len, i, ndig);
        if (!p->json) {
            free(shared);
            llmm_bench_prompts_free(out);
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        }
        out->n++;
    }
    free(shared);
    return LLMM_CLI_OK;
}

size_t *llmm_bench_prompt_order(size_t n, uint64_t seed)
{
    size_t *o = malloc((n ? n : 1) * sizeof *o);
    llmm_cli_rng g;
    if (!o)
        return NULL;
    llmm_cli_rng_seed(&g, seed ^ 0xbb67ae8584caa73bull);
    for (size_t i = 0; i < n; i++)
        o[i] = i;
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
        size_t j = (size_t)(llmm_cli_rng_next(&g) % i), t = o[i - 1];
        o[i - 1] = o[j];
        o[j] = t;
    }
    return o;
}
