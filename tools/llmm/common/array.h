/* array.h: growable arrays. */
#ifndef LLMM_CLI_ARRAY_H
#define LLMM_CLI_ARRAY_H

#include <stddef.h>

/* Make room for `need` elements of `size` bytes in the array *pp points to (pp is the address
 * of a `T *`; *cap counts elements): the capacity doubles, from `first` for an empty array.
 * LLMM_CLI_OK, or LLMM_CLI_ENOMEM with the array untouched. */
int llmm_cli_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first);

/* Growable array of doubles. */
typedef struct llmm_cli_vec {
    double *v;
    size_t n, cap;
} llmm_cli_vec;

int llmm_cli_vec_push(llmm_cli_vec *a, double x);
void llmm_cli_vec_free(llmm_cli_vec *a);

#endif /* LLMM_CLI_ARRAY_H */
