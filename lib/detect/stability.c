/* Stability gate: stable when the last k window means lie within a factor 1 + ε of each other.
 * The last LLMM_STABILITY_WINDOWS_MAX means are kept inline, so changing k never allocates and
 * judges the means already added. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "detect_internal.h"

struct llmm_stability {
    llmm_ctx *ctx;
    double ring[LLMM_STABILITY_WINDOWS_MAX]; /* newest at head − 1 */
    uint32_t head;                           /* next entry to write */
    uint32_t avail; /* entries holding a mean, <= LLMM_STABILITY_WINDOWS_MAX */
    uint32_t k;
    double eps;
    uint64_t total;
};

llmm_status llmm_stability_new(llmm_ctx *ctx, llmm_stability **out)
{
    llmm_stability *s;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    s = llmm__calloc(ctx, 1, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    s->ctx = ctx;
    llmm__option_defaults(&llmm__stability_options, s);
    *out = s;
    return LLMM_OK;
}

void llmm_stability_free(llmm_stability *s)
{
    if (s)
        llmm__free(s->ctx, s, sizeof *s);
}

static const llmm__option stability_opts[] = {
    LLMM__OPTION_U64(llmm_stability, LLMM_STABILITY_WINDOWS, "windows", 0, 2,
                     LLMM_STABILITY_WINDOWS_MAX, LLMM_STABILITY_WINDOWS_DEFAULT, k),
    LLMM__OPTION_F64(llmm_stability, LLMM_STABILITY_EPSILON, "epsilon", 0, 0.0, 10.0, 0.05, eps),
};

const llmm__option_kind llmm__stability_options = {
    LLMM__KIND_OF(stability_opts), 0, NULL, NULL, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_stability, llmm_stability_option, &llmm__stability_options)
LLMM__OPTION_CALLS_U64(llmm_stability, llmm_stability_option, &llmm__stability_options)

/* The verdict over the last min(k, avail) means. */
static void stability_judge(const llmm_stability *s, llmm_stability_reading *r)
{
    uint32_t n = s->avail < s->k ? s->avail : s->k;
    uint32_t i, j = s->head;
    double lo = 0.0, hi = 0.0;

    for (i = 0; i < n; i++) {
        double v;
        j = j == 0 ? LLMM_STABILITY_WINDOWS_MAX - 1 : j - 1;
        v = s->ring[j];
        if (i == 0 || v < lo)
            lo = v;
        if (i == 0 || v > hi)
            hi = v;
    }
    r->held = n;
    r->windows = s->k;
    r->min = lo;
    r->max = hi;
    r->ratio = n > 0 ? hi / lo : 0.0;
    r->stable = n == s->k && r->ratio <= 1.0 + s->eps;
    r->total = s->total;
}

llmm_status llmm_stability_add(llmm_stability *s, double mean, int32_t *stable)
{
    llmm_stability_reading r;
    llmm_status st;

    if (!s)
        return LLMM_E_INVALID;
    st = llmm__detect_value_check(mean);
    if (st != LLMM_OK)
        return st;
    if (mean == 0.0)
        return LLMM_E_INVALID;
    s->ring[s->head] = mean;
    if (++s->head == LLMM_STABILITY_WINDOWS_MAX)
        s->head = 0;
    if (s->avail < LLMM_STABILITY_WINDOWS_MAX)
        s->avail++;
    s->total++;
    if (stable) {
        stability_judge(s, &r);
        *stable = r.stable;
    }
    return LLMM_OK;
}

llmm_status llmm_stability_read(const llmm_stability *s, llmm_stability_reading *r)
{
    llmm_stability_reading o;

    if (!s || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_stability_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    LLMM__SIZED_DEFAULTS(llmm_stability_reading, &o);
    stability_judge(s, &o);
    LLMM__SIZED_PUT(llmm_stability_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_stability_reset(llmm_stability *s)
{
    if (!s)
        return LLMM_E_INVALID;
    s->head = 0;
    s->avail = 0;
    s->total = 0;
    return LLMM_OK;
}
