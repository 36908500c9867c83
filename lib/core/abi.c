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

#define SIZES_ARRAY(kind, type, defaults)                                                    \
    static const uint32_t sizes_##type[] = {LLMM__SIZES_##type GROWN(type), 0};
LLMM__STRUCTS(SIZES_ARRAY)

typedef struct desc {
    llmm_struct_kind kind;
    uint32_t full;          /* the library's own sizeof */
    const uint32_t *sizes;  /* released sizes, oldest first, 0-terminated */
    void (*defaults)(void *full);
} desc;

#define DESC_ROW(kind, type, defaults) {kind, (uint32_t)sizeof(type), sizes_##type, defaults},
static const desc descs[] = {LLMM__STRUCTS(DESC_ROW)};

static const desc *find(llmm_struct_kind kind)
{
    size_t i;
    for (i = 0; i < sizeof descs / sizeof descs[0]; i++)
        if (descs[i].kind == kind)
            return &descs[i];
    return NULL;
}

static int released(const desc *d, uint32_t size)
{
    const uint32_t *s;
    for (s = d->sizes; *s; s++)
        if (*s == size)
            return 1;
    return 0;
}

llmm_status llmm__sized_check(llmm_struct_kind kind, const void *p)
{
    const desc *d = find(kind);
    uint32_t size;
    if (!p)
        return LLMM_E_INVALID;
    memcpy(&size, p, sizeof size);
    return d && released(d, size) ? LLMM_OK : LLMM_E_ABI;
}

/* The library's full struct with the defaults, struct_size = its own size. */
static void fill_defaults(const desc *d, void *full)
{
    memset(full, 0, d->full);
    memcpy(full, &d->full, sizeof d->full);
    if (d->defaults)
        d->defaults(full);
}

llmm_status llmm__sized_get(llmm_struct_kind kind, void *full, const void *p)
{
    const desc *d = find(kind);
    uint32_t size;
    llmm_status rc = llmm__sized_check(kind, p);
    if (rc != LLMM_OK)
        return rc;
    memcpy(&size, p, sizeof size);
    fill_defaults(d, full);
    /* Released sizes never exceed the library's own (LLMM__ASSERT_NEWEST). */
    memcpy((char *)full + sizeof size, (const char *)p + sizeof size, size - sizeof size);
    return LLMM_OK;
}

void llmm__sized_put(void *p, const void *full)
{
    uint32_t size;
    memcpy(&size, p, sizeof size);
    memcpy((char *)p + sizeof size, (const char *)full + sizeof size, size - sizeof size);
}

#define MEMBER(kind, type, defaults) type m_##type;

llmm_status llmm__sized_init(llmm_struct_kind kind, void *p, uint32_t size)
{
    const desc *d = find(kind);
    union {
        LLMM__STRUCTS(MEMBER)
    } full; /* room for the library's own copy of any of them */

    if (!p)
        return LLMM_E_INVALID;
    if (!d || !released(d, size))
        return LLMM_E_ABI;
    fill_defaults(d, &full);
    memcpy(p, &size, sizeof size);
    memcpy((char *)p + sizeof size, (const char *)&full + sizeof size, size - sizeof size);
    return LLMM_OK;
}

llmm_status llmm_struct_init(llmm_struct_kind kind, void *s, uint32_t size)
{
    return llmm__sized_init(kind, s, size);
}

/* The exported 1.0 `<type>_init` symbols: they write the 1.0 size, whatever the headers the
 * library was built with say, because a 1.0 program's buffer is that large and no larger.
 * (The parentheses keep the headers' same-named macros from expanding.) */
#define INIT_1_0(kind, type, defaults)                                                       \
    llmm_status(type##_init)(type * p)                                                       \
    {                                                                                        \
        return llmm__sized_init(kind, p, LLMM__FIRST(LLMM__SIZES_##type));                   \
    }
LLMM__STRUCTS_1_0(INIT_1_0)
