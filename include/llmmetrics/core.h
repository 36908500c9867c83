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
/* LLMM_API marks what the library exports. On Windows (DLLs) the library's own build exports
 * (LLMM_BUILDING_LIBRARY), a program using the DLL imports, and a program linking the static
 * library defines LLMM_STATIC (its pkg-config file says so) so that neither applies. Elsewhere
 * the library is built with hidden visibility and LLMM_API makes a symbol visible. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(LLMM_STATIC)
#define LLMM_API
#elif defined(LLMM_BUILDING_LIBRARY)
#define LLMM_API __declspec(dllexport)
#else
#define LLMM_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
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
#define LLMM_STATUS_LIST(X)                                                                        \
    X(LLMM_OK, 0, "success")                                                                       \
    X(LLMM_E_INVALID, -1, "invalid argument")                                                      \
    X(LLMM_E_NOMEM, -2, "out of memory")                                                           \
    X(LLMM_E_RANGE, -3, "value outside the configured range")                                      \
    X(LLMM_E_EMPTY, -4, "no data")                                                                 \
    X(LLMM_E_CORRUPT, -5, "damaged or truncated encoding")                                         \
    X(LLMM_E_VERSION, -6, "unknown format version")                                                \
    X(LLMM_E_BUFFER, -7, "buffer too small")                                                       \
    X(LLMM_E_UNKNOWN_OPTION, -8, "unknown option")                                                 \
    X(LLMM_E_STATE, -9, "call not valid in the current state")                                     \
    X(LLMM_E_NOT_CONVERGED, -10, "iteration did not converge")                                     \
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
/* The list macro expands to enumerators, which clang-format cannot see. */
/* clang-format off */
typedef enum llmm_status {
    LLMM_STATUS_LIST(LLMM_STATUS_ENUMERATOR_)
    LLMM_STATUS_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_status;
/* clang-format on */

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
 * @brief The size-prefixed structs, named for llmm_struct_init().
 *
 * Values are pinned forever and new kinds are only appended, like status codes. The name of
 * each is `LLMM_STRUCT_` followed by its type's name without `llmm_`, in capitals.
 * @since 1.1.0
 */
typedef enum llmm_struct_kind {
    LLMM_STRUCT_ALLOCATOR = 1,               /**< ::llmm_allocator */
    LLMM_STRUCT_SPIKE_STATS = 2,             /**< ::llmm_spike_stats */
    LLMM_STRUCT_COLLAPSE_VERDICT = 3,        /**< ::llmm_collapse_verdict */
    LLMM_STRUCT_COLLAPSE_REPORT = 4,         /**< ::llmm_collapse_report */
    LLMM_STRUCT_STABILITY_READING = 5,       /**< ::llmm_stability_reading */
    LLMM_STRUCT_SATURATION_READING = 6,      /**< ::llmm_saturation_reading */
    LLMM_STRUCT_OTLP_OPTIONS = 7,            /**< ::llmm_otlp_options */
    LLMM_STRUCT_FIT_STATS = 8,               /**< ::llmm_fit_stats */
    LLMM_STRUCT_KNEE = 9,                    /**< ::llmm_knee */
    LLMM_STRUCT_USL = 10,                    /**< ::llmm_usl */
    LLMM_STRUCT_KNEE_OPTIONS = 11,           /**< ::llmm_knee_options */
    LLMM_STRUCT_LII_READING = 12,            /**< ::llmm_lii_reading */
    LLMM_STRUCT_KV_OCCUPANCY_RESULT = 13,    /**< ::llmm_kv_occupancy_result */
    LLMM_STRUCT_KV_HIT_READING = 14,         /**< ::llmm_kv_hit_reading */
    LLMM_STRUCT_TLB_READING = 15,            /**< ::llmm_tlb_reading */
    LLMM_STRUCT_SCORE_RESULT = 16,           /**< ::llmm_score_result */
    LLMM_STRUCT_SLO_RESULT = 17,             /**< ::llmm_slo_result */
    LLMM_STRUCT_GOODPUT_RESULT = 18,         /**< ::llmm_goodput_result */
    LLMM_STRUCT_BURN_RESULT = 19,            /**< ::llmm_burn_result */
    LLMM_STRUCT_ERROR_TRIGGER_READING = 20,  /**< ::llmm_error_trigger_reading */
    LLMM_STRUCT_OPTION_INFO = 21,            /**< ::llmm_option_info (since 1.1.0) */
    LLMM_STRUCT_OTLP_EXEMPLAR = 22,          /**< ::llmm_otlp_exemplar (since 1.2.0) */
    LLMM_STRUCT_OTLP_POINT = 23,             /**< ::llmm_otlp_point (since 1.2.0) */
    LLMM_STRUCT_OTLP_METRIC = 24,            /**< ::llmm_otlp_metric (since 1.2.0) */
    LLMM_STRUCT_OTLP_METRICS_REQUEST = 25,   /**< ::llmm_otlp_metrics_request (since 1.2.0) */
    LLMM_STRUCT_OTLP_ATTRIBUTE = 26,         /**< ::llmm_otlp_attribute (since 1.2.0) */
    LLMM_STRUCT_OTLP_SPAN = 27,              /**< ::llmm_otlp_span (since 1.2.0) */
    LLMM_STRUCT_OTLP_TRACES_REQUEST = 28,    /**< ::llmm_otlp_traces_request (since 1.2.0) */
    LLMM_STRUCT_EXEMPLAR = 29,               /**< ::llmm_exemplar (since 1.2.0) */
    LLMM_STRUCT_DECODE_INFO = 30,            /**< ::llmm_decode_info (since 1.2.0) */
    LLMM_STRUCT_TRACED_EVENT = 31,           /**< ::llmm_traced_event (since 1.2.0) */
    LLMM_STRUCT_KIND_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_struct_kind;

/**
 * @brief Initialise a caller-sized struct of `size` bytes: the rule for every struct that
 * starts with `uint32_t struct_size`.
 *
 * **Caller-sized structs.** A size-prefixed struct is sized by the caller: `struct_size` holds
 * the `sizeof` of the caller's own definition of the struct. A minor release may append fields
 * at the end, never anything else, and each release records the size it gave each struct. A
 * call accepts every size released for its struct (so a program built against 1.0 keeps
 * working with every 1.x), reads and writes only those `struct_size` bytes, gives the fields
 * a shorter struct lacks their defaults, and refuses any other size with #LLMM_E_ABI before it
 * changes anything (a newer caller's struct on an older library, or a wrong size).
 *
 * How to set `struct_size`:
 * - C and C++: call `llmm_<type>_init(&s)`. In the headers each such name is a macro that
 *   passes `sizeof` of your struct to this function, so a program recompiled against newer
 *   headers initialises the newer, larger struct.
 * - Bindings (ctypes, cgo, Rust): call this function with the struct's size in the binding's
 *   own definition (`ctypes.sizeof`, `C.sizeof_…`, `size_of`).
 * - The structs of 1.0 also keep exported functions named `llmm_<type>_init`, which programs
 *   built against 1.0 call; they always write the 1.0 size, whatever the library's version.
 *
 * The defaults are zero except where a struct's init documents otherwise (::llmm_allocator,
 * ::llmm_knee, ::llmm_usl, ::llmm_knee_options, ::llmm_otlp_options, ::llmm_otlp_metric,
 * ::llmm_otlp_span).
 * @param[in] kind which struct `s` is
 * @param[out] s the struct to fill: its first `size` bytes are written, `struct_size` = `size`
 * @param[in] size `sizeof` the caller's struct
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL
 * @retval LLMM_E_ABI `kind` is not a struct this library knows, or `size` is not a size
 *         released for it; nothing was written
 * @since 1.1.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_struct_init(llmm_struct_kind kind, void *s, uint32_t size);

/** @cond LLMM_INTERNAL */
/* What each `llmm_<type>_init(p)` macro expands to: `p` must point to a `type`. */
#define LLMM_SIZED_INIT_(kind, type, p)                                                            \
    llmm_struct_init((kind), (1 ? (p) : (type *)0), (uint32_t)sizeof(type))
/** @endcond */

/**
 * @brief Allocation hooks. Every allocation the library makes for a handle goes through the
 * allocator of the context the handle was made with.
 *
 * Fill it with llmm_allocator_init() (which installs libc-backed defaults), then replace the
 * hooks you want. `alloc` must return memory aligned for any standard type (like `malloc`),
 * or NULL on failure; `realloc` receives the old size and `free` the size that was allocated,
 * so size-tracking allocators need no header. The library never passes a size of 0 and never
 * frees NULL through the hook.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_allocator {
    uint32_t struct_size; /**< caller-sized: set by llmm_allocator_init() */
    void *user;           /**< passed unchanged to every hook */
    /** Allocate `size` bytes; NULL on failure. */
    void *(*alloc)(void *user, size_t size);
    /** Resize `ptr` from `old_size` to `new_size` bytes; NULL on failure (ptr stays valid). */
    void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
    /** Release `ptr`, which was allocated with `size` bytes. */
    void (*free)(void *user, void *ptr, size_t size);
} llmm_allocator;

/**
 * @brief Initialise an ::llmm_allocator: libc-backed hooks, `user` NULL.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] a the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `a` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_allocator_init(llmm_allocator *a);
/** @cond LLMM_INTERNAL */
#define llmm_allocator_init(a) LLMM_SIZED_INIT_(LLMM_STRUCT_ALLOCATOR, llmm_allocator, a)
/** @endcond */

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
 * @retval LLMM_E_ABI `a->struct_size` is not a released size (see llmm_struct_init())
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

/**
 * @defgroup options Option metadata: names, types, bounds and defaults of every tunable
 *
 * Every object with tunables (the detectors, gates, monitors, alerters, counters and the
 * scorecard) declares its options once, in one table inside the library: the key, a stable
 * lower-case name, the type, the bounds, the default and whether the option may change once
 * the object holds data. The typed setters (`llmm_spike_set_f64()` …) validate through that
 * table, and llmm_option_describe() reads it, so a program (or a binding) can list an object
 * kind's options without restating them. The generated page @ref options_reference shows the
 * same table.
 *
 * A value is accepted by a setter when it lies within the bounds (each bound inclusive unless
 * its `*_exclusive` flag is set) and, for an option whose `cross_checked` flag is set, also
 * satisfies the constraint its key's documentation names (an order between two options, or a
 * limit fixed when the object was made). Outside, the setter returns #LLMM_E_RANGE (or
 * #LLMM_E_INVALID for a NaN or infinite value where the setter's documentation says so).
 * @{
 */

/**
 * @brief The object kinds that have options, for llmm_option_describe().
 * @since 1.1.0
 */
typedef enum llmm_object_kind {
    LLMM_KIND_SPIKE = 1,              /**< ::llmm_spike, keys ::llmm_spike_option */
    LLMM_KIND_COLLAPSE = 2,           /**< ::llmm_collapse, keys ::llmm_collapse_option */
    LLMM_KIND_STABILITY = 3,          /**< ::llmm_stability, keys ::llmm_stability_option */
    LLMM_KIND_SATURATION = 4,         /**< ::llmm_saturation, keys ::llmm_saturation_option */
    LLMM_KIND_LII_MONITOR = 5,        /**< ::llmm_lii_monitor, keys ::llmm_lii_option */
    LLMM_KIND_SCORECARD = 6,          /**< ::llmm_scorecard, keys ::llmm_scorecard_option */
    LLMM_KIND_GOODPUT = 7,            /**< ::llmm_goodput, keys ::llmm_goodput_option */
    LLMM_KIND_BURN = 8,               /**< ::llmm_burn, keys ::llmm_burn_option */
    LLMM_KIND_ERROR_TRIGGER = 9,      /**< ::llmm_error_trigger, keys ::llmm_error_trigger_option */
    LLMM_KIND_HOST_SAMPLER = 10,      /**< ::llmm_host_sampler, keys ::llmm_host_option (1.1.0) */
    LLMM_KIND_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_object_kind;

/**
 * @brief The type of an option, which names its setter and getter (`_set_f64`, `_set_u64`,
 * `_set_i32`) and the fields of ::llmm_option_info that hold its bounds and default.
 * @since 1.1.0
 */
typedef enum llmm_option_type {
    LLMM_OPTION_F64 = 1, /**< `double`: `min_f64`, `max_f64`, `default_f64` */
    LLMM_OPTION_U64 = 2, /**< `uint64_t`: `min_u64`, `max_u64`, `default_u64` (exact) */
    LLMM_OPTION_I32 = 3, /**< `int32_t`: `min_i32`, `max_i32`, `default_i32` */
    LLMM_OPTION_TYPE_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_option_type;

/**
 * @brief One option of an object kind (llmm_option_describe()).
 *
 * Caller-sized: see llmm_struct_init() (set up with llmm_option_info_init()). Only the three
 * bound and default fields of the option's `type` are meaningful; the others are 0. Integer
 * bounds and defaults have integer fields, so a u64 value above 2^53 is exact.
 * @since 1.1.0
 */
typedef struct llmm_option_info {
    uint32_t struct_size;       /**< the caller's `sizeof(llmm_option_info)` */
    int32_t key;                /**< the enumerator of the kind's option enum, e.g.
                                     #LLMM_SPIKE_SEVERE_FACTOR */
    llmm_option_type type;      /**< which setter and which fields below */
    int32_t min_exclusive;      /**< 1: the minimum itself is refused */
    int32_t max_exclusive;      /**< 1: the maximum itself is refused */
    int32_t fixed_once_started; /**< 1: may only change while the object holds no data (after
                                     creation or its reset); #LLMM_E_STATE otherwise */
    int32_t cross_checked;      /**< 1: further constrained by another option or by how the
                                     object was made (see the key's documentation) */
    int32_t has_default;        /**< 0: the value comes from a constructor argument */
    const char *name;           /**< stable lower-case name, e.g. `"severe_factor"`; static */
    double min_f64;             /**< smallest value (f64 options) */
    double max_f64;             /**< largest value (f64 options; may be +Inf) */
    double default_f64;         /**< value of a new object (f64 options) */
    uint64_t min_u64;           /**< smallest value (u64 options) */
    uint64_t max_u64;           /**< largest value (u64 options) */
    uint64_t default_u64;       /**< value of a new object (u64 options) */
    int32_t min_i32;            /**< smallest value (i32 options) */
    int32_t max_i32;            /**< largest value (i32 options) */
    int32_t default_i32;        /**< value of a new object (i32 options) */
    int32_t reserved_;          /**< @private padding, always 0 */
} llmm_option_info;

/**
 * @brief Initialise a ::llmm_option_info for llmm_option_describe(): every field 0.
 *
 * Caller-sized: see llmm_struct_init(). A macro only (no exported symbol of this name).
 * @param[out] info the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `info` is NULL
 * @retval LLMM_E_ABI `sizeof` the caller's struct is not a released size
 * @since 1.1.0
 * @note Thread-safe.
 */
#define llmm_option_info_init(info)                                                                \
    LLMM_SIZED_INIT_(LLMM_STRUCT_OPTION_INFO, llmm_option_info, info)

/**
 * @brief Describe the option at position `index` of an object kind: its key, name, type,
 * bounds, default and flags.
 *
 * Options are listed in the order of their keys; call with `index` = 0, 1, 2 … until the call
 * returns #LLMM_E_RANGE to enumerate them all.
 * @param[in] kind the object kind
 * @param[in] index position of the option, from 0
 * @param[in,out] info the description, set up with llmm_option_info_init(); written only on
 *                success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `info` is NULL or `kind` is not a kind this library knows
 * @retval LLMM_E_ABI `info->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_RANGE `index` is not below the kind's number of options
 * @since 1.1.0
 * @note Thread-safe: reads constant tables only.
 */
LLMM_API llmm_status llmm_option_describe(llmm_object_kind kind, uint32_t index,
                                          llmm_option_info *info);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_CORE_H */
