/* llmm_option_describe(): the option tables of every object kind, published. */
#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"

#define KIND_ENTRY_(kind, desc) [kind] = &desc,
static const llmm__option_kind *const kinds[] = {LLMM__OPTION_KINDS(KIND_ENTRY_)};
#undef KIND_ENTRY_

static const llmm__option_kind *kind_of(llmm_object_kind kind)
{
    size_t i = (size_t)kind;
    if ((int)kind <= 0 || i >= sizeof kinds / sizeof kinds[0])
        return NULL;
    return kinds[i];
}

static void describe(const llmm__option *o, llmm_option_info *d)
{
    d->key = o->key;
    d->type = o->type;
    d->min_exclusive = (o->flags & LLMM__OPT_MIN_OPEN) != 0;
    d->max_exclusive = (o->flags & LLMM__OPT_MAX_OPEN) != 0;
    d->fixed_once_started = (o->flags & LLMM__OPT_FIXED) != 0;
    d->cross_checked = (o->flags & LLMM__OPT_CROSS) != 0;
    d->has_default = (o->flags & LLMM__OPT_NO_DEFAULT) == 0;
    d->name = o->name;
    switch (o->type) {
    case LLMM_OPTION_F64:
        d->min_f64 = o->min.f;
        d->max_f64 = o->max.f;
        d->default_f64 = d->has_default ? o->def.f : 0.0;
        break;
    case LLMM_OPTION_U64:
        d->min_u64 = o->min.u;
        d->max_u64 = o->max.u;
        d->default_u64 = d->has_default ? o->def.u : 0;
        break;
    default:
        d->min_i32 = o->min.i;
        d->max_i32 = o->max.i;
        d->default_i32 = d->has_default ? o->def.i : 0;
        break;
    }
}

llmm_status llmm_option_describe(llmm_object_kind kind, uint32_t index, llmm_option_info *info)
{
    const llmm__option_kind *k;
    llmm_option_info d;
    llmm_status rc;

    if ((rc = LLMM__SIZED_CHECK(llmm_option_info, info)) != LLMM_OK)
        return rc;
    k = kind_of(kind);
    if (!k)
        return LLMM_E_INVALID;
    if (index >= k->count)
        return LLMM_E_RANGE;
    LLMM__SIZED_DEFAULTS(llmm_option_info, &d);
    describe(&k->opts[index], &d);
    LLMM__SIZED_PUT(llmm_option_info, info, &d); /* the caller's prefix only */
    return LLMM_OK;
}
