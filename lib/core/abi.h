/* Caller-sized structs: the one way every call reads and writes a size-prefixed struct.
 *
 * The rule (doc/abi.md): a call accepts exactly the struct sizes released for that struct
 * (core/abi_sizes.h), refuses any other with LLMM_E_ABI before it changes anything, reads and
 * writes only the caller's prefix, and gives fields the caller's version lacks their defaults.
 * A call works on a full-size local copy of the library's own struct:
 *
 *     llmm_slo_result o;                       output struct
 *     if (LLMM__SIZED_CHECK(llmm_slo_result, r) != LLMM_OK) return LLMM_E_ABI;
 *     ... fill o ...
 *     LLMM__SIZED_PUT(llmm_slo_result, r, &o);
 *
 *     llmm_knee_options o;                     input struct (NULL-able ones: check first)
 *     rc = LLMM__SIZED_GET(llmm_knee_options, &o, opt);
 */
#ifndef LLMM_CORE_ABI_H
#define LLMM_CORE_ABI_H

#include "core/abi_sizes.h"

/* Defaults of the structs whose defaults are not all zero (see LLMM__STRUCTS_1_0). */
void llmm__allocator_defaults(void *full);
void llmm__otlp_options_defaults(void *full);
void llmm__knee_defaults(void *full);
void llmm__usl_defaults(void *full);
void llmm__knee_options_defaults(void *full);
void llmm__otlp_metric_defaults(void *full);
void llmm__otlp_span_defaults(void *full);

/* The kind of each struct type, for the macros below: LLMM__KIND(llmm_usl). */
#define LLMM__KIND(type) ((llmm_struct_kind)LLMM__KIND_##type)
#define LLMM__KIND_ENUMERATOR(kind, type, defaults) LLMM__KIND_##type = kind,
enum { LLMM__STRUCTS(LLMM__KIND_ENUMERATOR) LLMM__KIND_END_ };

/* `p` converted to `type *`; a pointer of another struct type does not compile. */
#define LLMM__TYPED(type, p) (1 ? (p) : (type *)0)

/* What the library knows of one size-prefixed struct. */
typedef struct llmm__sized_desc {
    llmm_struct_kind kind;
    uint32_t full;                /* the library's own sizeof */
    const uint32_t *sizes;        /* released sizes, oldest first, 0-terminated */
    void (*defaults)(void *full); /* the non-zero defaults of a zeroed full struct, or NULL */
} llmm__sized_desc;

/* The description of `kind`, or NULL when this library does not know it. */
const llmm__sized_desc *llmm__sized_find(llmm_struct_kind kind);
/* LLMM_OK when `p->struct_size` is a released size of `d` (NULL: none is); LLMM_E_ABI
 * otherwise; LLMM_E_INVALID for a NULL `p`. */
llmm_status llmm__desc_check(const llmm__sized_desc *d, const void *p);
/* Check `p`, then fill the full-size `full` with the defaults and overlay the caller's prefix;
 * full's struct_size becomes the library's own size. `full` is untouched on failure. */
llmm_status llmm__desc_get(const llmm__sized_desc *d, void *full, const void *p);
/* Copy the caller's prefix of `full` (beyond struct_size) into `p`, whose size was checked. */
void llmm__sized_put(void *p, const void *full);
/* Write the defaults into `p` as a struct of `size` bytes, which must be a released size;
 * LLMM_E_INVALID for a NULL `p`, LLMM_E_ABI (nothing written) for another size. */
llmm_status llmm__desc_init(const llmm__sized_desc *d, void *p, uint32_t size);

/* The same by kind. */
#define llmm__sized_check(kind, p) llmm__desc_check(llmm__sized_find(kind), p)
#define llmm__sized_get(kind, full, p) llmm__desc_get(llmm__sized_find(kind), full, p)
#define llmm__sized_init(kind, p, size) llmm__desc_init(llmm__sized_find(kind), p, size)

#define LLMM__SIZED_CHECK(type, p) llmm__sized_check(LLMM__KIND(type), LLMM__TYPED(const type, p))
#define LLMM__SIZED_GET(type, full, p)                                                             \
    llmm__sized_get(LLMM__KIND(type), LLMM__TYPED(type, full), LLMM__TYPED(const type, p))
#define LLMM__SIZED_PUT(type, p, full)                                                             \
    llmm__sized_put(LLMM__TYPED(type, p), LLMM__TYPED(const type, full))
/* A full-size struct of the library's own version with its defaults (never fails). */
#define LLMM__SIZED_DEFAULTS(type, full)                                                           \
    ((void)llmm__sized_init(LLMM__KIND(type), LLMM__TYPED(type, full), (uint32_t)sizeof(type)))

#endif
