/**
 * @file core.h
 * @brief Status codes, version, allocation context and clock: the base every module uses.
 *
 * Thread safety: nothing in this header touches mutable global state. A ::llmm_ctx is
 * immutable after llmm_ctx_new() and may be shared by any number of threads and handles.
 */
#ifndef LLMMETRICS_CORE_H
#define LLMMETRICS_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "llmmetrics/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @cond LLMM_INTERNAL */
#if defined(__GNUC__)
#define LLMM_API __attribute__((visibility("default")))
#else
#define LLMM_API
#endif
/** @endcond */

/**
 * @defgroup core Core: status codes, version, context, clock
 * @{
 */

/**
 * @brief The one list of status codes: `X(NAME, value, message)`.
 *
 * Values are pinned forever: a code is never renumbered and never reused, new codes are only
 * appended. The list generates ::llmm_status, llmm_status_name() and llmm_strerror(), so the
 * three can never disagree.
 *
 * | code | value | meaning |
 * |---|---|---|
 * | LLMM_OK | 0 | success |
 * | LLMM_E_INVALID | -1 | bad argument (NULL handle, NaN, negative latency, time going backwards, ...) |
 * | LLMM_E_NOMEM | -2 | the allocator failed; nothing was changed |
 * | LLMM_E_RANGE | -3 | value outside a configured range |
 * | LLMM_E_EMPTY | -4 | no data to answer from |
 * | LLMM_E_CORRUPT | -5 | damaged or truncated encoding |
 * | LLMM_E_VERSION | -6 | unknown format version |
 * | LLMM_E_BUFFER | -7 | caller buffer too small; the needed size is in `*len` |
 * | LLMM_E_UNKNOWN_OPTION | -8 | option key not known to this object |
 * | LLMM_E_STATE | -9 | call not valid in the object's current state |
 * | LLMM_E_NOT_CONVERGED | -10 | an iterative method did not converge |
 * | LLMM_E_ABI | -11 | `struct_size` of a caller struct not understood |
 *
 * @since 1.0.0
 */
#define LLMM_STATUS_LIST(X)                                                          \
    X(LLMM_OK, 0, "success")                                                         \
    X(LLMM_E_INVALID, -1, "invalid argument")                                        \
    X(LLMM_E_NOMEM, -2, "out of memory")                                             \
    X(LLMM_E_RANGE, -3, "value outside the configured range")                        \
    X(LLMM_E_EMPTY, -4, "no data")                                                   \
    X(LLMM_E_CORRUPT, -5, "damaged or truncated encoding")                           \
    X(LLMM_E_VERSION, -6, "unknown format version")                                  \
    X(LLMM_E_BUFFER, -7, "buffer too small")                                         \
    X(LLMM_E_UNKNOWN_OPTION, -8, "unknown option")                                   \
    X(LLMM_E_STATE, -9, "call not valid in the current state")                       \
    X(LLMM_E_NOT_CONVERGED, -10, "iteration did not converge")                       \
    X(LLMM_E_ABI, -11, "struct_size not understood")

/** @cond LLMM_INTERNAL */
#define LLMM_STATUS_ENUMERATOR_(name, value, text) name = (value),
/** @endcond */

/**
 * @brief Result of every fallible call: 0 is success, errors are negative.
 *
 * The enumerators are generated from #LLMM_STATUS_LIST, which documents each of them.
 * The type is int-sized.
 * @since 1.0.0
 */
typedef enum llmm_status {
    LLMM_STATUS_LIST(LLMM_STATUS_ENUMERATOR_)
    LLMM_STATUS_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_status;

/**
 * @brief Symbolic name of a status, e.g. `"LLMM_E_INVALID"`.
 * @param[in] s any value, also one this version does not know
 * @return a static string, never NULL (`"LLMM_E_UNKNOWN_STATUS"` for unknown values)
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_status_name(llmm_status s);

/**
 * @brief Human-readable message for a status, e.g. `"invalid argument"`.
 * @param[in] s any value, also one this version does not know
 * @return a static string, never NULL (`"unknown status"` for unknown values)
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_strerror(llmm_status s);

/**
 * @brief Version of the library actually loaded, as major·10000 + minor·100 + patch.
 *
 * Compare with #LLMM_VERSION_NUMBER (the headers compiled against) to detect a mismatch.
 * @return the version number, e.g. 10000 for 1.0.0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API uint32_t llmm_version(void);

/**
 * @brief Version of the library actually loaded, as a static string such as `"1.0.0"`.
 * @return a static string, never NULL
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_version_string(void);

/**
 * @brief Allocation hooks. Every allocation the library makes for a handle goes through the
 * allocator of the context the handle was made with.
 *
 * Fill it with llmm_allocator_init() (which installs libc-backed defaults), then replace the
 * hooks you want. `alloc` must return memory aligned for any standard type (like `malloc`),
 * or NULL on failure; `realloc` receives the old size and `free` the size that was allocated,
 * so size-tracking allocators need no header. The library never passes a size of 0 and never
 * frees NULL through the hook.
 * @since 1.0.0
 */
typedef struct llmm_allocator {
    uint32_t struct_size;  /**< sizeof(llmm_allocator), set by llmm_allocator_init() */
    void *user;            /**< passed unchanged to every hook */
    /** Allocate `size` bytes; NULL on failure. */
    void *(*alloc)(void *user, size_t size);
    /** Resize `ptr` from `old_size` to `new_size` bytes; NULL on failure (ptr stays valid). */
    void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
    /** Release `ptr`, which was allocated with `size` bytes. */
    void (*free)(void *user, void *ptr, size_t size);
} llmm_allocator;

/**
 * @brief Initialise an allocator struct with libc-backed hooks and the correct struct_size.
 * @param[out] a the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `a` is NULL
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_allocator_init(llmm_allocator *a);

/**
 * @brief An immutable library context: holds the allocator.
 *
 * Passing NULL wherever a context is taken means "libc allocator". A context may be shared by
 * any number of threads and handles; free it only after every object made from it is freed.
 * @since 1.0.0
 */
typedef struct llmm_ctx llmm_ctx;

/**
 * @brief Create a context.
 * @param[in] a allocator hooks (copied), or NULL for libc; the context itself is allocated
 *              through `a`
 * @param[out] out the new context, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL, or a hook of `a` is NULL
 * @retval LLMM_E_ABI `a->struct_size` is smaller than the 1.0 struct or larger than this
 *         library knows
 * @retval LLMM_E_NOMEM the allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_ctx_new(const llmm_allocator *a, llmm_ctx **out);

/**
 * @brief Free a context. NULL is a no-op.
 * @param[in] ctx the context; every object made from it must have been freed already
 * @since 1.0.0
 * @note Not thread-safe with respect to other uses of the same context.
 */
LLMM_API void llmm_ctx_free(llmm_ctx *ctx);

/**
 * @brief Read the monotonic clock (CLOCK_MONOTONIC) in nanoseconds.
 *
 * A convenience for callers: every time-dependent call of the library takes the time as an
 * argument instead, so that detectors are deterministic under test.
 * @return nanoseconds since an unspecified start point
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API uint64_t llmm_now_ns(void);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_CORE_H */
