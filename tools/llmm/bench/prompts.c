/* prompts.c: synthetic prompts (prompts.h). Token IDs are drawn from [1000, 30000), a range
 * every common vocabulary holds as ordinary tokens; a text prompt repeats short common words,
 * about one token each. */
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

/* One prompt of n tokens as JSON; NULL out of memory. */
static char *make(llmm_cli_rng *g, int64_t n, int text)
{
    static const char *const words[] = {"the", "of", "and", "to", "in", "is", "it", "on"};
    size_t cap = (size_t)n * 7 + 4, at = 0;
    char *b = malloc(cap);
    if (!b)
        return NULL;
    b[at++] = text ? '"' : '[';
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = llmm_cli_rng_next(g);
        if (text)
            at += (size_t)snprintf(b + at, cap - at, "%s%s", i ? " " : "", words[r % 8]);
        else
            at += (size_t)snprintf(b + at, cap - at, "%s%llu", i ? "," : "",
                                   (unsigned long long)(1000 + r % 29000));
    }
    b[at++] = text ? '"' : ']';
    b[at] = '\0';
    return b;
}

int llmm_bench_prompts_synth(const llmm_bench_synth *s, llmm_bench_prompts *out,
                             llmm_cli_error *err)
{
    llmm_cli_rng g;
    llmm_cli_rng_seed(&g, s->seed);
    out->n = 0;
    out->v = calloc(s->n, sizeof *out->v);
    if (!out->v)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->n; i++) {
        llmm_bench_prompt *p = &out->v[i];
        p->in_len = draw(&g, s->in_len, s->range);
        p->out_len = draw(&g, s->out_len, s->range);
        p->json = make(&g, p->in_len, s->text);
        if (!p->json) {
            llmm_bench_prompts_free(out);
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        }
        out->n++;
    }
    return LLMM_CLI_OK;
}
