/* Compiled, never run: the released struct sizes of lib/core/abi_sizes.h against the headers,
 * on a foreign target (check_sizes_models.py compiles it with clang --target=… -ffreestanding).
 * With the current headers each struct's newest released size must be its sizeof; with the
 * frozen 1.0 headers (-DFROZEN_1_0) each 1.0 size must be the 1.0 sizeof. */
#include "core/abi_sizes.h"

#ifdef FROZEN_1_0
#define ASSERT_1_0(kind, type, defaults)                                                     \
    _Static_assert(LLMM__FIRST(LLMM__SIZES_##type) == sizeof(type),                         \
                   #type ": the recorded 1.0 size is not the 1.0 headers' sizeof");
LLMM__STRUCTS_1_0(ASSERT_1_0)
#else
LLMM__STRUCTS(LLMM__ASSERT_NEWEST)
#endif

typedef int llmm_sizes_models_nonempty_;
