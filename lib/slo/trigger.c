/* Error-share trigger: "5xx share over the last 5 min > 5 %" with a configurable window,
 * threshold and minimum request count, on a ratio window of (errors, requests). */
#include <string.h>

#include "core/internal.h"
#include "llmmetrics/slo.h"

struct llmm_error_trigger {
    llmm_ctx *ctx;
    llmm_ratio_window *rw;
    uint64_t window_ns;
    uint64_t requests;     /* since creation or reset: bounds every sum of the ring */
    uint64_t min_requests;
    double max_share;
};

llmm_status llmm_error_trigger_reading_init(llmm_error_trigger_reading *r)
{
    if (!r)
        return LLMM_E_INVALID;
    memset(r, 0, sizeof *r);
    r->struct_size = (uint32_t)sizeof *r;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_new(llmm_ctx *ctx, uint64_t window_ns, llmm_error_trigger **out)
{
    const uint64_t n = LLMM_ERROR_TRIGGER_SLOTS;
    llmm_error_trigger *t;
    uint64_t slot_ns, slots;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (window_ns == 0)
        window_ns = LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT;
    /* n slots of ceil(window / n) ns, fewer when that covers the window already (a window
     * shorter than n ns gets 1 ns slots). The ring, slot_ns * slots <= window_ns + n - 1,
     * fits in 64 bits unless the window is within n - 1 ns of 2^64. */
    if (window_ns > UINT64_MAX - (n - 1))
        return LLMM_E_RANGE;
    slot_ns = window_ns / n + (window_ns % n != 0);
    slots = window_ns / slot_ns + (window_ns % slot_ns != 0);
    t = llmm__calloc(ctx, 1, sizeof *t);
    if (!t)
        return LLMM_E_NOMEM;
    st = llmm_ratio_window_new(ctx, slot_ns, (uint32_t)slots, &t->rw);
    if (st != LLMM_OK) {
        llmm__free(ctx, t, sizeof *t);
        return st;
    }
    t->ctx = ctx;
    t->window_ns = window_ns;
    t->min_requests = 1;
    t->max_share = LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT;
    *out = t;
    return LLMM_OK;
}

void llmm_error_trigger_free(llmm_error_trigger *t)
{
    if (!t)
        return;
    llmm_ratio_window_free(t->rw);
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
    llmm_status st;
    if (!t || errors > requests)
        return LLMM_E_INVALID;
    if (requests > UINT64_MAX - t->requests)
        return LLMM_E_RANGE;
    st = llmm_ratio_window_add(t->rw, now_ns, errors, requests); /* checks the time */
    if (st != LLMM_OK)
        return st;
    t->requests += requests;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_check(llmm_error_trigger *t, uint64_t now_ns,
                                     llmm_error_trigger_reading *r)
{
    uint64_t errors, requests;
    double share;
    llmm_status st;

    if (!t || !r)
        return LLMM_E_INVALID;
    if (r->struct_size != sizeof *r)
        return LLMM_E_ABI;
    /* The ratio call fails (time, empty window) without moving the ring's clock; after it the
     * counts over the same span cannot fail: sums are bounded by t->requests. */
    st = llmm_ratio_window_ratio(t->rw, now_ns, t->window_ns, &share);
    if (st != LLMM_OK)
        return st;
    st = llmm_ratio_window_counts(t->rw, now_ns, t->window_ns, &errors, &requests);
    if (st != LLMM_OK)
        return st;
    r->errors = errors;
    r->requests = requests;
    r->share = share;
    r->fired = requests >= t->min_requests && share > t->max_share;
    return LLMM_OK;
}

llmm_status llmm_error_trigger_reset(llmm_error_trigger *t)
{
    if (!t)
        return LLMM_E_INVALID;
    llmm_ratio_window_reset(t->rw);
    t->requests = 0;
    return LLMM_OK;
}
