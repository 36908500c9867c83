/* Goodput as vLLM's serving benchmark defines it: a completed request is good when every
 * per-request SLO given holds (value <= bound); the rate is good requests per second of the
 * run's duration. */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "llmmetrics/slo.h"

enum { GP_TTFT, GP_TPOT, GP_E2E, GP_BOUNDS };

struct llmm_goodput {
    llmm_ctx *ctx;
    double bound[GP_BOUNDS]; /* +Inf = not checked */
    uint64_t completed;
    uint64_t good;
    uint64_t failed;
};

static int latency_ok(double v)
{
    return llmm__is_finite(v) && v >= 0.0;
}

llmm_status llmm_goodput_tpot(double e2e, double ttft, uint64_t output_tokens, double *tpot)
{
    if (!tpot || !latency_ok(e2e) || !latency_ok(ttft) || e2e < ttft)
        return LLMM_E_INVALID;
    *tpot = output_tokens > 1 ? (e2e - ttft) / (double)(output_tokens - 1) : 0.0;
    return LLMM_OK;
}

llmm_status llmm_goodput_new(llmm_ctx *ctx, llmm_goodput **out)
{
    llmm_goodput *g;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    g = llmm__calloc(ctx, 1, sizeof *g);
    if (!g)
        return LLMM_E_NOMEM;
    g->ctx = ctx;
    llmm__option_defaults(&llmm__goodput_options, g);
    *out = g;
    return LLMM_OK;
}

void llmm_goodput_free(llmm_goodput *g)
{
    if (g)
        llmm__free(g->ctx, g, sizeof *g);
}

static uint64_t requests_of(const llmm_goodput *g)
{
    return g->completed + g->failed; /* kept below 2^64 by the add paths */
}

/* Every request counted is judged by the same bounds. */
static int goodput_started(const void *obj)
{
    return requests_of(obj) > 0;
}

#define GOODPUT_BOUND(key, name, i)                                                                \
    LLMM__OPTION_F64(llmm_goodput, key, name, LLMM__OPT_FIXED, 0.0, INFINITY, INFINITY, bound[i])

static const llmm__option goodput_opts[] = {
    GOODPUT_BOUND(LLMM_GOODPUT_TTFT_MAX, "ttft_max", GP_TTFT),
    GOODPUT_BOUND(LLMM_GOODPUT_TPOT_MAX, "tpot_max", GP_TPOT),
    GOODPUT_BOUND(LLMM_GOODPUT_E2E_MAX, "e2e_max", GP_E2E),
};

const llmm__option_kind llmm__goodput_options = {
    LLMM__KIND_OF(goodput_opts), LLMM__KIND_NAN_INVALID, goodput_started, NULL, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_goodput, llmm_goodput_option, &llmm__goodput_options)

llmm_status llmm_goodput_observe(llmm_goodput *g, double ttft, double tpot, double e2e,
                                 int32_t *good)
{
    int is_good;
    if (!g || !latency_ok(ttft) || !latency_ok(tpot) || !latency_ok(e2e))
        return LLMM_E_INVALID;
    if (requests_of(g) == UINT64_MAX)
        return LLMM_E_RANGE;
    is_good = ttft <= g->bound[GP_TTFT] && tpot <= g->bound[GP_TPOT] && e2e <= g->bound[GP_E2E];
    g->completed++;
    g->good += (uint64_t)is_good;
    if (good)
        *good = is_good;
    return LLMM_OK;
}

llmm_status llmm_goodput_add_failures(llmm_goodput *g, uint64_t n)
{
    if (!g)
        return LLMM_E_INVALID;
    if (n > UINT64_MAX - requests_of(g))
        return LLMM_E_RANGE;
    g->failed += n;
    return LLMM_OK;
}

llmm_status llmm_goodput_read(const llmm_goodput *g, uint64_t duration_ns, llmm_goodput_result *r)
{
    llmm_goodput_result o;
    double seconds;
    if (!g || !r || duration_ns == 0)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_goodput_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    if (requests_of(g) == 0)
        return LLMM_E_EMPTY;
    /* The duration converts exactly below 2^53 ns (about 104 days); the seconds and each
     * quotient are rounded once. */
    seconds = (double)duration_ns / 1e9;
    LLMM__SIZED_DEFAULTS(llmm_goodput_result, &o);
    o.requests = requests_of(g);
    o.completed = g->completed;
    o.good = g->good;
    o.fraction = (double)g->good / (double)o.requests;
    o.rate_per_s = (double)g->good / seconds;
    o.throughput_per_s = (double)g->completed / seconds;
    LLMM__SIZED_PUT(llmm_goodput_result, r, &o);
    return LLMM_OK;
}

llmm_status llmm_goodput_reset(llmm_goodput *g)
{
    if (!g)
        return LLMM_E_INVALID;
    g->completed = 0;
    g->good = 0;
    g->failed = 0;
    return LLMM_OK;
}
