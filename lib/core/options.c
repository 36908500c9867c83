/* The one validator of option values: every typed setter of the public API checks its key,
 * bounds, cross constraint and state here, against its object's table (core/options.h). */
#include <string.h>

#include "core/internal.h"
#include "core/options.h"

const llmm__option *llmm__option_find(const llmm__option_kind *k, int32_t key)
{
    size_t i;
    for (i = 0; i < k->count; i++)
        if (k->opts[i].key == key)
            return &k->opts[i];
    return NULL;
}

/* Whether v lies within the bounds of o; false for NaN. */
static int in_bounds(const llmm__option *o, llmm__optval v)
{
    int lo_open = (o->flags & LLMM__OPT_MIN_OPEN) != 0;
    int hi_open = (o->flags & LLMM__OPT_MAX_OPEN) != 0;

    switch (o->type) {
    case LLMM_OPTION_F64:
        return (lo_open ? v.f > o->min.f : v.f >= o->min.f) &&
               (hi_open ? v.f < o->max.f : v.f <= o->max.f);
    case LLMM_OPTION_U64:
        return (lo_open ? v.u > o->min.u : v.u >= o->min.u) &&
               (hi_open ? v.u < o->max.u : v.u <= o->max.u);
    default:
        return (lo_open ? v.i > o->min.i : v.i >= o->min.i) &&
               (hi_open ? v.i < o->max.i : v.i <= o->max.i);
    }
}

static int same_value(const llmm__option *o, llmm__optval a, llmm__optval b)
{
    switch (o->type) {
    case LLMM_OPTION_F64:
        return a.f == b.f;
    case LLMM_OPTION_U64:
        return a.u == b.u;
    default:
        return a.i == b.i;
    }
}

/* Fields are 8 bytes (double, uint64_t) or 4 (uint32_t or int32_t holding a u64 or i32
 * option); memcpy keeps the accesses free of aliasing questions. */
static llmm__optval load(const llmm__option_kind *k, const void *obj, const llmm__option *o)
{
    llmm__optval v;
    const unsigned char *p = (const unsigned char *)obj + o->offset;

    memset(&v, 0, sizeof v);
    if (o->width == 0)
        return k->load(obj, o);
    if (o->type == LLMM_OPTION_F64) {
        memcpy(&v.f, p, sizeof v.f);
    } else if (o->type == LLMM_OPTION_I32) {
        memcpy(&v.i, p, sizeof v.i);
    } else if (o->width == sizeof(uint32_t)) {
        uint32_t u32;
        memcpy(&u32, p, sizeof u32);
        v.u = u32;
    } else {
        memcpy(&v.u, p, sizeof v.u);
    }
    return v;
}

static void store(void *obj, const llmm__option *o, llmm__optval v)
{
    unsigned char *p = (unsigned char *)obj + o->offset;

    if (o->type == LLMM_OPTION_F64) {
        memcpy(p, &v.f, sizeof v.f);
    } else if (o->type == LLMM_OPTION_I32) {
        memcpy(p, &v.i, sizeof v.i);
    } else if (o->width == sizeof(uint32_t)) {
        uint32_t u32 = (uint32_t)v.u; /* the bounds keep it below 2^32 */
        memcpy(p, &u32, sizeof u32);
    } else {
        memcpy(p, &v.u, sizeof v.u);
    }
}

/* Kinds whose f64 setters answer a NaN (or any non-finite value) with LLMM_E_INVALID do so
 * before they look at the key. */
static int nonfinite_refused(const llmm__option_kind *k, llmm_option_type type, llmm__optval v)
{
    if (type != LLMM_OPTION_F64)
        return 0;
    if (k->flags & LLMM__KIND_NONFINITE_INVALID)
        return !llmm__is_finite(v.f);
    return (k->flags & LLMM__KIND_NAN_INVALID) && v.f != v.f;
}

llmm_status llmm__option_set(const llmm__option_kind *k, void *obj, int32_t key,
                             llmm_option_type type, llmm__optval v)
{
    const llmm__option *o;
    llmm_status st;

    if (!obj || nonfinite_refused(k, type, v))
        return LLMM_E_INVALID;
    o = llmm__option_find(k, key);
    if (!o || o->type != type)
        return LLMM_E_UNKNOWN_OPTION;
    if (!in_bounds(o, v))
        return LLMM_E_RANGE;
    if (o->flags & LLMM__OPT_CROSS) {
        st = k->cross(obj, o, v);
        if (st != LLMM_OK)
            return st;
    }
    if ((o->flags & LLMM__OPT_FIXED) && k->started(obj) &&
        !((k->flags & LLMM__KIND_SAME_VALUE_OK) && same_value(o, load(k, obj, o), v)))
        return LLMM_E_STATE;
    if (o->flags & LLMM__OPT_HOOKED)
        return k->apply(obj, o, v);
    store(obj, o, v);
    return LLMM_OK;
}

llmm_status llmm__option_get(const llmm__option_kind *k, const void *obj, int32_t key,
                             llmm_option_type type, llmm__optval *out)
{
    const llmm__option *o;

    if (!obj || !out)
        return LLMM_E_INVALID;
    o = llmm__option_find(k, key);
    if (!o || o->type != type)
        return LLMM_E_UNKNOWN_OPTION;
    *out = load(k, obj, o);
    return LLMM_OK;
}

void llmm__option_defaults(const llmm__option_kind *k, void *obj)
{
    size_t i;
    for (i = 0; i < k->count; i++) {
        const llmm__option *o = &k->opts[i];
        if (o->width != 0 && !(o->flags & LLMM__OPT_NO_DEFAULT))
            store(obj, o, o->def);
    }
}

llmm_status llmm__option_resize_ring(llmm_ctx *ctx, void **ring, uint32_t *len, uint32_t *head,
                                     size_t elem, uint64_t n)
{
    void *fresh;

    if (n == *len)
        return LLMM_OK;
    fresh = llmm__calloc(ctx, (size_t)n, elem);
    if (!fresh)
        return LLMM_E_NOMEM;
    llmm__free(ctx, *ring, (size_t)*len * elem);
    *ring = fresh;
    *len = (uint32_t)n;
    *head = 0;
    return LLMM_OK;
}
