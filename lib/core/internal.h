/* Internal helpers shared by every module: allocation through the context, checks. */
#ifndef LLMM_CORE_INTERNAL_H
#define LLMM_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "llmmetrics/core.h"

struct llmm_ctx {
    llmm_allocator alloc;
};

/* Allocation through ctx (NULL = libc). Sizes of 0 are rounded up to 1 so hooks never see 0. */
void *llmm__alloc(const llmm_ctx *ctx, size_t size);
void *llmm__calloc(const llmm_ctx *ctx, size_t count, size_t size);
void *llmm__realloc(const llmm_ctx *ctx, void *ptr, size_t old_size, size_t new_size);
void llmm__free(const llmm_ctx *ctx, void *ptr, size_t size);

/* Overflow-checked count * size; returns 0 and leaves *out untouched on overflow. */
static inline int llmm__mul_size(size_t count, size_t size, size_t *out)
{
    if (size != 0 && count > SIZE_MAX / size)
        return 0;
    *out = count * size;
    return 1;
}

/* Finite and not NaN, without pulling math.h into every file. */
static inline int llmm__is_finite(double v)
{
    return v - v == 0.0;
}

#endif
