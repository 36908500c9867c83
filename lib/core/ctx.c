/* The immutable context: an allocator and nothing else, so it can be shared freely. */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "internal.h"

static void *libc_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void *libc_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    (void)user;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void libc_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

void llmm__allocator_defaults(void *full)
{
    llmm_allocator *a = full;
    a->alloc = libc_alloc;
    a->realloc = libc_realloc;
    a->free = libc_free;
}

llmm_status llmm_ctx_new(const llmm_allocator *a, llmm_ctx **out)
{
    llmm_allocator copy;
    llmm_ctx *ctx;
    llmm_status rc;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (a) {
        if ((rc = LLMM__SIZED_GET(llmm_allocator, &copy, a)) != LLMM_OK)
            return rc;
        if (!copy.alloc || !copy.realloc || !copy.free)
            return LLMM_E_INVALID;
    } else {
        LLMM__SIZED_DEFAULTS(llmm_allocator, &copy);
    }
    ctx = copy.alloc(copy.user, sizeof *ctx);
    if (!ctx)
        return LLMM_E_NOMEM;
    ctx->alloc = copy;
    *out = ctx;
    return LLMM_OK;
}

void llmm_ctx_free(llmm_ctx *ctx)
{
    llmm_allocator a;
    if (!ctx)
        return;
    a = ctx->alloc;
    a.free(a.user, ctx, sizeof *ctx);
}

void *llmm__alloc(const llmm_ctx *ctx, size_t size)
{
    if (size == 0)
        size = 1;
    if (!ctx)
        return malloc(size);
    return ctx->alloc.alloc(ctx->alloc.user, size);
}

void *llmm__calloc(const llmm_ctx *ctx, size_t count, size_t size)
{
    size_t total;
    void *p;
    if (!llmm__mul_size(count, size, &total))
        return NULL;
    p = llmm__alloc(ctx, total);
    if (p)
        memset(p, 0, total ? total : 1);
    return p;
}

void *llmm__realloc(const llmm_ctx *ctx, void *ptr, size_t old_size, size_t new_size)
{
    if (!ptr)
        return llmm__alloc(ctx, new_size);
    if (new_size == 0)
        new_size = 1;
    if (old_size == 0)
        old_size = 1;
    if (!ctx)
        return realloc(ptr, new_size);
    return ctx->alloc.realloc(ctx->alloc.user, ptr, old_size, new_size);
}

void llmm__free(const llmm_ctx *ctx, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (size == 0)
        size = 1;
    if (!ctx) {
        free(ptr);
        return;
    }
    ctx->alloc.free(ctx->alloc.user, ptr, size);
}
