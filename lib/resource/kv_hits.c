/* KV-cache hit rate over a time window, with the TTL that rate gives. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "llmmetrics/resource.h"
#include "window/rate_monitor.h"

_Static_assert(LLMM_RESOURCE_WINDOW_SLOTS == LLMM__RATE_MONITOR_SLOTS,
               "the documented slot count is the rate monitor's");

struct llmm_kv_hit_tracker {
    llmm_ctx *ctx;
    llmm__rate_monitor mon;
};

llmm_status llmm_kv_hit_tracker_new(llmm_ctx *ctx, uint64_t window_ns, llmm_kv_hit_tracker **out)
{
    llmm_kv_hit_tracker *t;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (window_ns == 0)
        window_ns = LLMM_KV_HIT_WINDOW_NS_DEFAULT;
    t = llmm__calloc(ctx, 1, sizeof *t);
    if (!t)
        return LLMM_E_NOMEM;
    st = llmm__rate_monitor_init(&t->mon, ctx, window_ns);
    if (st != LLMM_OK) {
        llmm__free(ctx, t, sizeof *t);
        return st;
    }
    t->ctx = ctx;
    *out = t;
    return LLMM_OK;
}

void llmm_kv_hit_tracker_free(llmm_kv_hit_tracker *t)
{
    if (!t)
        return;
    llmm__rate_monitor_fini(&t->mon);
    llmm__free(t->ctx, t, sizeof *t);
}

llmm_status llmm_kv_hit_tracker_add(llmm_kv_hit_tracker *t, uint64_t now_ns, uint64_t hits,
                                    uint64_t lookups)
{
    if (!t)
        return LLMM_E_INVALID;
    return llmm__rate_monitor_add(&t->mon, now_ns, hits, lookups);
}

llmm_status llmm_kv_hit_tracker_read(llmm_kv_hit_tracker *t, uint64_t now_ns,
                                     llmm_kv_hit_reading *r)
{
    llmm_kv_hit_reading o;
    uint64_t hits, lookups;
    double rate;
    int64_t ttl;
    llmm_status st;

    if (!t || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_kv_hit_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    st = llmm__rate_monitor_read(&t->mon, now_ns, &hits, &lookups, &rate);
    if (st != LLMM_OK)
        return st;
    /* A ratio of two counts is in [0, 1], the TTL formula's domain: this cannot fail. */
    st = llmm_kv_ttl(rate, &ttl);
    if (st != LLMM_OK)
        return st;
    LLMM__SIZED_DEFAULTS(llmm_kv_hit_reading, &o);
    o.hits = hits;
    o.lookups = lookups;
    o.hit_rate = rate;
    o.ttl = ttl;
    LLMM__SIZED_PUT(llmm_kv_hit_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_kv_hit_tracker_reset(llmm_kv_hit_tracker *t)
{
    if (!t)
        return LLMM_E_INVALID;
    llmm__rate_monitor_reset(&t->mon);
    return LLMM_OK;
}
