/* Error-share trigger: "5xx share over the last 5 min > 5 %" with a configurable window,
 * threshold and minimum request count, on a ratio window of (errors, requests). */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
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
    t->min_requests = 1;
    t->max_share = LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT;
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

llmm_status llmm_error_trigger_set_f64(llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       double value)
{
    if (!t || !llmm__is_finite(value))
        return LLMM_E_INVALID;
    if (opt != LLMM_ERROR_TRIGGER_MAX_SHARE)
        return LLMM_E_UNKNOWN_OPTION;
    if (value < 0.0 || value > 1.0)
        return LLMM_E_RANGE;
    t->max_share = value;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_get_f64(const llmm_error_trigger *t,
                                       llmm_error_trigger_option opt, double *value)
{
    if (!t || !value)
        return LLMM_E_INVALID;
    if (opt != LLMM_ERROR_TRIGGER_MAX_SHARE)
        return LLMM_E_UNKNOWN_OPTION;
    *value = t->max_share;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_set_u64(llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       uint64_t value)
{
    if (!t)
        return LLMM_E_INVALID;
    if (opt != LLMM_ERROR_TRIGGER_MIN_REQUESTS)
        return LLMM_E_UNKNOWN_OPTION;
    if (value == 0)
        return LLMM_E_RANGE;
    t->min_requests = value;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_get_u64(const llmm_error_trigger *t,
                                       llmm_error_trigger_option opt, uint64_t *value)
{
    if (!t || !value)
        return LLMM_E_INVALID;
    if (opt != LLMM_ERROR_TRIGGER_MIN_REQUESTS)
        return LLMM_E_UNKNOWN_OPTION;
    *value = t->min_requests;
    return LLMM_OK;
}

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
