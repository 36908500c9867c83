/* Option tables. Every object with tunables declares its options once, as a table of
 * llmm__option next to its struct: key, name, type, bounds, default, flags and where the value
 * lives. The typed setters and getters of the public API are thin calls into
 * llmm__option_set() / llmm__option_get(), which validate through the table;
 * llmm_option_describe() publishes the same tables (lib/core/option_list.c). */
#ifndef LLMM_CORE_OPTIONS_H
#define LLMM_CORE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "llmmetrics/core.h"

/* A value of any option type; which member is live is the option's type. */
typedef union llmm__optval {
    double f;
    uint64_t u;
    int32_t i;
} llmm__optval;

/* Flags of one option. The first five are published (llmm_option_info). */
enum {
    LLMM__OPT_MIN_OPEN = 1u << 0,   /* the minimum itself is refused */
    LLMM__OPT_MAX_OPEN = 1u << 1,   /* the maximum itself is refused */
    LLMM__OPT_FIXED = 1u << 2,      /* only while the object holds no data */
    LLMM__OPT_CROSS = 1u << 3,      /* also checked by the kind's cross() */
    LLMM__OPT_NO_DEFAULT = 1u << 4, /* set from a constructor argument */
    LLMM__OPT_HOOKED = 1u << 5      /* written by the kind's apply(), not stored directly */
};

/* Both bounds open. */
#define LLMM__OPT_OPEN (LLMM__OPT_MIN_OPEN | LLMM__OPT_MAX_OPEN)

typedef struct llmm__option {
    int32_t key;
    llmm_option_type type;
    const char *name;
    uint32_t flags;
    llmm__optval min;
    llmm__optval max;
    llmm__optval def;
    size_t offset; /* of the value in the object, when width != 0 */
    size_t width;  /* bytes of the field (4 or 8); 0: read through the kind's load() */
} llmm__option;

/* Flags of a kind: how its f64 setters treat non-finite values, and whether a fixed option
 * may be "set" to its current value once the object holds data. */
enum {
    LLMM__KIND_NAN_INVALID = 1u << 0,       /* NaN: LLMM_E_INVALID, before the key is looked at */
    LLMM__KIND_NONFINITE_INVALID = 1u << 1, /* NaN and ±Inf: likewise */
    LLMM__KIND_SAME_VALUE_OK = 1u << 2      /* a fixed option's current value is accepted */
};

typedef struct llmm__option_kind {
    const llmm__option *opts;
    size_t count;
    uint32_t flags;
    /* 1 when the object holds data (fixed options refuse changes); NULL if none is fixed. */
    int (*started)(const void *obj);
    /* The constraints a table cannot state (LLMM__OPT_CROSS options): LLMM_E_RANGE or OK. */
    llmm_status (*cross)(const void *obj, const llmm__option *o, llmm__optval v);
    /* Writes a LLMM__OPT_HOOKED option after every check passed; may fail (NOMEM). */
    llmm_status (*apply)(void *obj, const llmm__option *o, llmm__optval v);
    /* Reads an option without a field (width 0). */
    llmm__optval (*load)(const void *obj, const llmm__option *o);
} llmm__option_kind;

/* Table entries. T is the object's struct type, F the field holding the value. */
#define LLMM__OPT_FIELD(T, F) offsetof(T, F), sizeof(((T *)0)->F)
#define LLMM__OPTION_F64(T, key, name, flags, lo, hi, def, F)                                      \
    {                                                                                              \
        (key), LLMM_OPTION_F64, (name), (flags), {.f = (lo)}, {.f = (hi)}, {.f = (def)},           \
            LLMM__OPT_FIELD(T, F)                                                                  \
    }
#define LLMM__OPTION_U64(T, key, name, flags, lo, hi, def, F)                                      \
    {                                                                                              \
        (key), LLMM_OPTION_U64, (name), (flags), {.u = (lo)}, {.u = (hi)}, {.u = (def)},           \
            LLMM__OPT_FIELD(T, F)                                                                  \
    }
#define LLMM__OPTION_I32(T, key, name, flags, lo, hi, def, F)                                      \
    {                                                                                              \
        (key), LLMM_OPTION_I32, (name), (flags), {.i = (lo)}, {.i = (hi)}, {.i = (def)},           \
            LLMM__OPT_FIELD(T, F)                                                                  \
    }
/* A u64 option without a field of its own: read by load(), written by apply(). */
#define LLMM__OPTION_U64_HOOKED(key, name, flags, lo, hi, def)                                     \
    {                                                                                              \
        (key), LLMM_OPTION_U64, (name), (flags) | LLMM__OPT_HOOKED, {.u = (lo)}, {.u = (hi)},      \
            {.u = (def)}, 0, 0                                                                     \
    }

#define LLMM__KIND_OF(table) (table), sizeof(table) / sizeof((table)[0])

/* Set option `key` of type `type`: LLMM_E_INVALID for a NULL object (or a non-finite value
 * where the kind says so), LLMM_E_UNKNOWN_OPTION for a key the kind has not with this type,
 * LLMM_E_RANGE outside the bounds or the cross constraint, LLMM_E_STATE for a fixed option of
 * an object holding data, else what apply() returns. Nothing changes on error. */
llmm_status llmm__option_set(const llmm__option_kind *k, void *obj, int32_t key,
                             llmm_option_type type, llmm__optval v);

/* Read option `key` of type `type`: LLMM_E_INVALID for a NULL argument, LLMM_E_UNKNOWN_OPTION
 * for a key the kind has not with this type. */
llmm_status llmm__option_get(const llmm__option_kind *k, const void *obj, int32_t key,
                             llmm_option_type type, llmm__optval *out);

/* Store the default of every option that has a field and a default (constructors). */
void llmm__option_defaults(const llmm__option_kind *k, void *obj);

/* For an option that sizes a ring holding no data: replace *ring (*len elements of `elem`
 * bytes, allocated through ctx) by n zeroed elements and rewind *head; nothing happens when n
 * is *len (also while the ring holds data: LLMM__KIND_SAME_VALUE_OK). LLMM_E_NOMEM changes
 * nothing. */
llmm_status llmm__option_resize_ring(llmm_ctx *ctx, void **ring, uint32_t *len, uint32_t *head,
                                     size_t elem, uint64_t n);

/* The option of `k` with this key, or NULL. */
const llmm__option *llmm__option_find(const llmm__option_kind *k, int32_t key);

/* The public typed setter and getter of one type, for object type T, key enum K and kind
 * descriptor KIND: e.g. LLMM__OPTION_CALLS(llmm_spike, llmm_spike_option, &kind, f64, double,
 * F64, f) defines llmm_spike_set_f64() and llmm_spike_get_f64(). */
#define LLMM__OPTION_CALLS(T, K, KIND, sfx, ctype, TYPE, member)                                   \
    llmm_status T##_set_##sfx(T *obj, K key, ctype value)                                          \
    {                                                                                              \
        llmm__optval v;                                                                            \
        v.member = value;                                                                          \
        return llmm__option_set((KIND), obj, (int32_t)key, LLMM_OPTION_##TYPE, v);                 \
    }                                                                                              \
    llmm_status T##_get_##sfx(const T *obj, K key, ctype *value)                                   \
    {                                                                                              \
        llmm__optval v;                                                                            \
        llmm_status st;                                                                            \
        if (!value)                                                                                \
            return LLMM_E_INVALID;                                                                 \
        st = llmm__option_get((KIND), obj, (int32_t)key, LLMM_OPTION_##TYPE, &v);                  \
        if (st == LLMM_OK)                                                                         \
            *value = v.member;                                                                     \
        return st;                                                                                 \
    }
#define LLMM__OPTION_CALLS_F64(T, K, KIND) LLMM__OPTION_CALLS(T, K, KIND, f64, double, F64, f)
#define LLMM__OPTION_CALLS_U64(T, K, KIND) LLMM__OPTION_CALLS(T, K, KIND, u64, uint64_t, U64, u)
#define LLMM__OPTION_CALLS_I32(T, K, KIND) LLMM__OPTION_CALLS(T, K, KIND, i32, int32_t, I32, i)

/* The kinds, in llmm_object_kind order: X(enumerator, descriptor). Each descriptor is defined
 * next to its object. */
#define LLMM__OPTION_KINDS(X)                                                                      \
    X(LLMM_KIND_SPIKE, llmm__spike_options)                                                        \
    X(LLMM_KIND_COLLAPSE, llmm__collapse_options)                                                  \
    X(LLMM_KIND_STABILITY, llmm__stability_options)                                                \
    X(LLMM_KIND_SATURATION, llmm__saturation_options)                                              \
    X(LLMM_KIND_LII_MONITOR, llmm__lii_options)                                                    \
    X(LLMM_KIND_SCORECARD, llmm__scorecard_options)                                                \
    X(LLMM_KIND_GOODPUT, llmm__goodput_options)                                                    \
    X(LLMM_KIND_BURN, llmm__burn_options)                                                          \
    X(LLMM_KIND_ERROR_TRIGGER, llmm__error_trigger_options)                                        \
    X(LLMM_KIND_HOST_SAMPLER, llmm__host_options)

#define LLMM__OPTION_KIND_DECL_(kind, desc) extern const llmm__option_kind desc;
LLMM__OPTION_KINDS(LLMM__OPTION_KIND_DECL_)
#undef LLMM__OPTION_KIND_DECL_

#endif
