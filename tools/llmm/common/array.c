/* array.c: growable arrays (array.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error.h"

int llmm_cli_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
    void *p;
    size_t c = *cap ? *cap : first;
    if (need <= *cap)
        return LLMM_CLI_OK;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return LLMM_CLI_ENOMEM;
        c *= 2;
    }
    if (c > SIZE_MAX / size)
        return LLMM_CLI_ENOMEM;
    memcpy(&p, pp, sizeof p); /* pp holds a T *: copied, not type-punned */
    p = realloc(p, c * size);
    if (!p)
        return LLMM_CLI_ENOMEM;
    memcpy(pp, &p, sizeof p);
    *cap = c;
    return LLMM_CLI_OK;
}

int llmm_cli_vec_push(llmm_cli_vec *a, double x)
{
    if (llmm_cli_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v, 256) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    a->v[a->n++] = x;
    return LLMM_CLI_OK;
}

void llmm_cli_vec_free(llmm_cli_vec *a)
{
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}
