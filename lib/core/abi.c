/* Caller-sized structs: the released sizes of each struct, the checks every call makes,
 * llmm_struct_init() and the exported 1.0 `_init` symbols (doc/abi.md). */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"

LLMM__STRUCTS(LLMM__ASSERT_NEWEST)

/* A grown test build accepts its own (unrecorded) size too, as a real new release would. */
#ifdef LLMM__ABI_GROWN_TEST
#define GROWN(type) , (uint32_t)sizeof(type)
#else
#define GROWN(type)
#endif

#define SIZES_ARRAY(kind, type, defaults)                                                          \
    static const uint32_t sizes_##type[] = {LLMM__SIZES_##type GROWN(type), 0};
LLMM__STRUCTS(SIZES_ARRAY)

#define DESC_ROW(kind, type, defaults) {kind, (uint32_t)sizeof(type), sizes_##type, defaults},
static const llmm__sized_desc descs[] = {LLMM__STRUCTS(DESC_ROW)};

/* Room for the library's own copy of any of them. */
#define MEMBER(kind, type, defaults) type m_##type;
typedef union any_struct {
    LLMM__STRUCTS(MEMBER)
} any_struct;

const llmm__sized_desc *llmm__sized_find(llmm_struct_kind kind)
{
    size_t i;
    for (i = 0; i < sizeof descs / sizeof descs[0]; i++)
        if (descs[i].kind == kind)
            return &descs[i];
    return NULL;
}

static int released(const llmm__sized_desc *d, uint32_t size)
{
    const uint32_t *s;
    for (s = d->sizes; *s; s++)
        if (*s == size)
            return 1;
    return 0;
}

static uint32_t size_of(const void *p)
{
    uint32_t size;
    memcpy(&size, p, sizeof size);
    return size;
}

llmm_status llmm__desc_check(const llmm__sized_desc *d, const void *p)
{
    if (!p)
        return LLMM_E_INVALID;
    return d && released(d, size_of(p)) ? LLMM_OK : LLMM_E_ABI;
}

/* The library's full struct with the defaults, struct_size = its own size. */
static void fill_defaults(const llmm__sized_desc *d, void *full)
{
    memset(full, 0, d->full);
    memcpy(full, &d->full, sizeof d->full);
    if (d->defaults)
        d->defaults(full);
}

/* Bytes [4, size) of src into dst: everything of a struct of `size` bytes but its size. */
static void copy_fields(void *dst, const void *src, uint32_t size)
{
    memcpy((char *)dst + sizeof size, (const char *)src + sizeof size, size - sizeof size);
}

llmm_status llmm__desc_get(const llmm__sized_desc *d, void *full, const void *p)
{
    llmm_status rc = llmm__desc_check(d, p);
    if (rc != LLMM_OK)
        return rc;
    fill_defaults(d, full);
    /* Released sizes never exceed the library's own (LLMM__ASSERT_NEWEST). */
    copy_fields(full, p, size_of(p));
    return LLMM_OK;
}

void llmm__sized_put(void *p, const void *full)
{
    copy_fields(p, full, size_of(p));
}

llmm_status llmm__desc_init(const llmm__sized_desc *d, void *p, uint32_t size)
{
    any_struct full;
    if (!p)
        return LLMM_E_INVALID;
    if (!d || !released(d, size))
        return LLMM_E_ABI;
    if (d->full > sizeof full) /* a test's own description of a larger struct */
        return LLMM_E_ABI;
    fill_defaults(d, &full);
    memcpy(p, &size, sizeof size);
    copy_fields(p, &full, size);
    return LLMM_OK;
}

llmm_status llmm_struct_init(llmm_struct_kind kind, void *s, uint32_t size)
{
    return llmm__sized_init(kind, s, size);
}

/* The exported 1.0 `<type>_init` symbols: they write the 1.0 size, whatever the headers the
 * library was built with say, because a 1.0 program's buffer is that large and no larger.
 * (The parentheses keep the headers' same-named macros from expanding.) */
#define INIT_1_0(kind, type, defaults)                                                             \
    llmm_status(type##_init)(type * p)                                                             \
    {                                                                                              \
        return llmm__sized_init(kind, p, LLMM__FIRST(LLMM__SIZES_##type));                         \
    }
LLMM__STRUCTS_1_0(INIT_1_0)
