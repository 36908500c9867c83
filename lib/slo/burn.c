/* Multi-window, multi-burn-rate alerts on the error budget (Google SRE workbook, "Alerting on
 * SLOs"): an alert fires when the burn rate of both its long and its short window exceeds its
 * factor. */
#include <float.h>
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "llmmetrics/slo.h"

#define NS_PER_MIN UINT64_C(60000000000)
/* The default slow long window, the longest: every ring must hold it. */
#define SLOW_LONG_DEFAULT_NS (360 * NS_PER_MIN)

struct llmm_burn {
    llmm_ctx *ctx;
    llmm_ratio_window *rw; /* (errors, requests) */
    uint64_t ring_ns;      /* slot length x slots */
    uint64_t requests;     /* since creation or reset: bounds every sum of the ring */
    double target;
    double factor[2]; /* fast, slow */
    uint64_t win[LLMM_BURN_WINDOWS];
};

static int target_ok(double t)
{
    return t > 0.0 && t < 1.0;
}

llmm_status llmm_burn_rate(double error_rate, double slo_target, double *burn)
{
    if (!burn || !(error_rate >= 0.0 && error_rate <= 1.0) || !target_ok(slo_target))
        return LLMM_E_INVALID;
    *burn = error_rate / (1.0 - slo_target);
    return LLMM_OK;
}

llmm_status llmm_burn_budget_spent(double burn_rate, uint64_t window_ns, uint64_t period_ns,
                                   double *spent)
{
    if (!spent || !llmm__is_finite(burn_rate) || burn_rate < 0.0 || period_ns == 0)
        return LLMM_E_INVALID;
    *spent = burn_rate * ((double)window_ns / (double)period_ns);
    return LLMM_OK;
}

/* Resolve the ring geometry: defaults, the 6 h it must hold, the window-module limits. */
static llmm_status ring_geometry(uint64_t *slot_ns, uint32_t *slots)
{
    const uint64_t need = SLOW_LONG_DEFAULT_NS;
    if (*slot_ns == 0)
        *slot_ns = LLMM_BURN_SLOT_NS_DEFAULT;
    if (*slots == 0) {
        uint64_t k = need / *slot_ns + (need % *slot_ns != 0);
        if (k > LLMM_WINDOW_SLOTS_MAX)
            return LLMM_E_RANGE;
        *slots = (uint32_t)k;
    }
    if (*slots > LLMM_WINDOW_SLOTS_MAX || *slot_ns > UINT64_MAX / *slots ||
        *slot_ns * *slots < need)
        return LLMM_E_RANGE;
    return LLMM_OK;
}

llmm_status llmm_burn_new(llmm_ctx *ctx, double slo_target, uint64_t slot_ns, uint32_t slots,
                          llmm_burn **out)
{
    llmm_burn *b;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (slo_target != slo_target)
        return LLMM_E_INVALID;
    if (!target_ok(slo_target))
        return LLMM_E_RANGE;
    st = ring_geometry(&slot_ns, &slots);
    if (st != LLMM_OK)
        return st;
    b = llmm__calloc(ctx, 1, sizeof *b);
    if (!b)
        return LLMM_E_NOMEM;
    st = llmm_ratio_window_new(ctx, slot_ns, slots, &b->rw);
    if (st != LLMM_OK) {
        llmm__free(ctx, b, sizeof *b);
        return st;
    }
    b->ctx = ctx;
    b->ring_ns = slot_ns * slots;
    b->target = slo_target;
    llmm__option_defaults(&llmm__burn_options, b);
    *out = b;
    return LLMM_OK;
}

void llmm_burn_free(llmm_burn *b)
{
    if (!b)
        return;
    llmm_ratio_window_free(b->rw);
    llmm__free(b->ctx, b, sizeof *b);
}

/* Windows come in (long, short) pairs at even / odd indices of win[]: a long window may not
 * be shorter than its short one, nor longer than the ring. */
static llmm_status burn_cross(const void *obj, const llmm__option *o, llmm__optval v)
{
    const llmm_burn *b = obj;
    /* the keys of the four windows are consecutive, in win[] order (pinned enum values) */
    int i = o->key - LLMM_BURN_FAST_LONG_NS;
    int is_long = (i & 1) == 0;

    if (v.u > b->ring_ns)
        return LLMM_E_RANGE;
    if (is_long ? v.u < b->win[i + 1] : v.u > b->win[i - 1])
        return LLMM_E_RANGE;
    return LLMM_OK;
}

#define BURN_WINDOW(key, name, def, i)                                                             \
    LLMM__OPTION_U64(llmm_burn, key, name, LLMM__OPT_CROSS, 1, UINT64_MAX, def, win[i])

static const llmm__option burn_opts[] = {
    LLMM__OPTION_F64(llmm_burn, LLMM_BURN_SLO_TARGET, "slo_target",
                     LLMM__OPT_OPEN | LLMM__OPT_NO_DEFAULT, 0.0, 1.0, 0.0, target),
    LLMM__OPTION_F64(llmm_burn, LLMM_BURN_FAST_FACTOR, "fast_factor", LLMM__OPT_MIN_OPEN, 0.0,
                     DBL_MAX, 14.4, factor[0]),
    LLMM__OPTION_F64(llmm_burn, LLMM_BURN_SLOW_FACTOR, "slow_factor", LLMM__OPT_MIN_OPEN, 0.0,
                     DBL_MAX, 6.0, factor[1]),
    BURN_WINDOW(LLMM_BURN_FAST_LONG_NS, "fast_long_ns", 60 * NS_PER_MIN, LLMM_BURN_FAST_LONG),
    BURN_WINDOW(LLMM_BURN_FAST_SHORT_NS, "fast_short_ns", 5 * NS_PER_MIN, LLMM_BURN_FAST_SHORT),
    BURN_WINDOW(LLMM_BURN_SLOW_LONG_NS, "slow_long_ns", SLOW_LONG_DEFAULT_NS, LLMM_BURN_SLOW_LONG),
    BURN_WINDOW(LLMM_BURN_SLOW_SHORT_NS, "slow_short_ns", 30 * NS_PER_MIN, LLMM_BURN_SLOW_SHORT),
};

const llmm__option_kind llmm__burn_options = {
    LLMM__KIND_OF(burn_opts), LLMM__KIND_NONFINITE_INVALID, NULL, burn_cross, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_burn, llmm_burn_option, &llmm__burn_options)
LLMM__OPTION_CALLS_U64(llmm_burn, llmm_burn_option, &llmm__burn_options)

llmm_status llmm_burn_add(llmm_burn *b, uint64_t now_ns, uint64_t errors, uint64_t requests)
{
    llmm_status st;
    if (!b || errors > requests)
        return LLMM_E_INVALID;
    if (requests > UINT64_MAX - b->requests)
        return LLMM_E_RANGE;
    st = llmm_ratio_window_add(b->rw, now_ns, errors, requests); /* checks the time */
    if (st != LLMM_OK)
        return st;
    b->requests += requests;
    return LLMM_OK;
}

llmm_status llmm_burn_evaluate(llmm_burn *b, uint64_t now_ns, llmm_burn_result *r)
{
    llmm_burn_result o;
    uint64_t ev[LLMM_BURN_WINDOWS], tot[LLMM_BURN_WINDOWS];
    double burn[LLMM_BURN_WINDOWS], rate[LLMM_BURN_WINDOWS];
    double budget;
    int i;
    llmm_status st;

    if (!b || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_burn_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    /* Every span fits the ring and every sum is bounded by b->requests, so only the time
     * stamp can make a count fail, and it does so on the first call, before the ring's clock
     * moves. */
    for (i = 0; i < LLMM_BURN_WINDOWS; i++) {
        st = llmm_ratio_window_counts(b->rw, now_ns, b->win[i], &ev[i], &tot[i]);
        if (st != LLMM_OK)
            return st;
    }
    budget = 1.0 - b->target;
    LLMM__SIZED_DEFAULTS(llmm_burn_result, &o);
    for (i = 0; i < LLMM_BURN_WINDOWS; i++) {
        rate[i] = tot[i] ? (double)ev[i] / (double)tot[i] : 0.0;
        burn[i] = rate[i] / budget;
        o.requests[i] = tot[i];
        o.errors[i] = ev[i];
        o.error_rate[i] = rate[i];
        o.burn_rate[i] = burn[i];
    }
    o.fast_alert =
        burn[LLMM_BURN_FAST_LONG] > b->factor[0] && burn[LLMM_BURN_FAST_SHORT] > b->factor[0];
    o.slow_alert =
        burn[LLMM_BURN_SLOW_LONG] > b->factor[1] && burn[LLMM_BURN_SLOW_SHORT] > b->factor[1];
    LLMM__SIZED_PUT(llmm_burn_result, r, &o);
    return LLMM_OK;
}

llmm_status llmm_burn_reset(llmm_burn *b)
{
    if (!b)
        return LLMM_E_INVALID;
    llmm_ratio_window_reset(b->rw);
    b->requests = 0;
    return LLMM_OK;
}
