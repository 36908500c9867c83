/* timeline.c: the watched metric of every request with a send time, in the order it became
 * known (timeline.h). TTFT is known at send + TTFT, TPOT and E2E at send + E2E. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"

static int cmp_obs(const void *pa, const void *pb)
{
    const llmm_cli_obs *a = pa, *b = pb;
    return (a->t > b->t) - (a->t < b->t);
}

int llmm_cli_timeline(const llmm_cli_trace *t, int metric, llmm_cli_obs **out, size_t *n,
                      const char **why_not, llmm_cli_error *err)
{
    llmm_cli_obs *o;
    size_t k = 0;
    *out = NULL;
    *n = 0;
    if (why_not)
        *why_not = t->npts ? "no request has this metric"
                           : "the inputs carry no request start times";
    if (t->npts == 0)
        return LLMM_CLI_OK;
    o = malloc(t->npts * sizeof *o);
    if (!o)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->npts; i++) {
        const llmm_cli_point *p = &t->pts[i];
        double v = metric == LLMM_CLI_M_TTFT ? p->ttft : metric == LLMM_CLI_M_TPOT ? p->tpot : p->e2e;
        double when = p->t + (metric == LLMM_CLI_M_TTFT ? p->ttft : p->e2e);
        if (isnan(v))
            continue;
        o[k].t = when < 0 ? 0 : when;
        o[k].v = v;
        k++;
    }
    qsort(o, k, sizeof *o, cmp_obs);
    if (k == 0) {
        free(o);
        o = NULL;
    }
    *out = o;
    *n = k;
    return LLMM_CLI_OK;
}

uint64_t llmm_cli_ns(double seconds)
{
    if (!(seconds > 0))
        return 0;
    if (seconds >= 1.8e10)
        return UINT64_MAX / 2;
    return (uint64_t)llround(seconds * 1e9);
}
