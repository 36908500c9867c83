/* Error-share trigger: "5xx share over the last 5 min > 5 %" with a configurable window,
 * threshold and minimum request count, on a ratio window of (errors, requests). */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "llmmetrics/slo.h"
#include "window/rate_monitor.h"

_Static_assert(LLMM_ERROR_TRIGGER_SLOTS == LLMM__RATE_MONITOR_SLOTS,
               "the documented slot count is the rate monitor's");

struct llmm_error_trigger {
    llmm_ctx *ctx;
    llmm__rate_monitor mon; /* errors over requests */
    uint64_t min_requests;
    double max_share;
};

llmm_status llmm_error_trigger_new(llmm_ctx *ctx, uint64_t window_ns, llmm_error_trigger **out)
{
    llmm_error_trigger *t;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (window_ns == 0)
        window_ns = LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT;
    t = llmm__calloc(ctx, 1, sizeof *t);
    if (!t)
        return LLMM_E_NOMEM;
    st = llmm__rate_monitor_init(&t->mon, ctx, window_ns);
    if (st != LLMM_OK) {
        llmm__free(ctx, t, sizeof *t);
        return st;
    }
    t->ctx = ctx;
    llmm__option_defaults(&llmm__error_trigger_options, t);
    *out = t;
    return LLMM_OK;
}

void llmm_error_trigger_free(llmm_error_trigger *t)
{
    if (!t)
        return;
    llmm__rate_monitor_fini(&t->mon);
    llmm__free(t->ctx, t, sizeof *t);
}

static const llmm__option error_trigger_opts[] = {
    LLMM__OPTION_F64(llmm_error_trigger, LLMM_ERROR_TRIGGER_MAX_SHARE, "max_share", 0, 0.0, 1.0,
                     LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT, max_share),
    LLMM__OPTION_U64(llmm_error_trigger, LLMM_ERROR_TRIGGER_MIN_REQUESTS, "min_requests", 0, 1,
                     UINT64_MAX, 1, min_requests),
};

const llmm__option_kind llmm__error_trigger_options = {
    LLMM__KIND_OF(error_trigger_opts), LLMM__KIND_NONFINITE_INVALID, NULL, NULL, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_error_trigger, llmm_error_trigger_option, &llmm__error_trigger_options)
LLMM__OPTION_CALLS_U64(llmm_error_trigger, llmm_error_trigger_option, &llmm__error_trigger_options)

llmm_status llmm_error_trigger_add(llmm_error_trigger *t, uint64_t now_ns, uint64_t errors,
                                   uint64_t requests)
{
    if (!t)
        return LLMM_E_INVALID;
    return llmm__rate_monitor_add(&t->mon, now_ns, errors, requests);
}

llmm_status llmm_error_trigger_check(llmm_error_trigger *t, uint64_t now_ns,
                                     llmm_error_trigger_reading *r)
{
    llmm_error_trigger_reading o;
    uint64_t errors, requests;
    double share;
    llmm_status st;

    if (!t || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_error_trigger_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    st = llmm__rate_monitor_read(&t->mon, now_ns, &errors, &requests, &share);
    if (st != LLMM_OK)
        return st;
    LLMM__SIZED_DEFAULTS(llmm_error_trigger_reading, &o);
    o.errors = errors;
    o.requests = requests;
    o.share = share;
    o.fired = requests >= t->min_requests && share > t->max_share;
    LLMM__SIZED_PUT(llmm_error_trigger_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_error_trigger_reset(llmm_error_trigger *t)
{
    if (!t)
        return LLMM_E_INVALID;
    llmm__rate_monitor_reset(&t->mon);
    return LLMM_OK;
}
