/* The sizes every size-prefixed public struct has been released with: the one record the
 * library checks a caller's struct_size against (doc/abi.md, "Caller-sized structs").
 *
 * Why literals and not sizeof: sizeof of a struct moves when a field is appended, but a
 * program built against 1.0 keeps passing the 1.0 size forever. Each released size is written
 * down as numbers, one per data model, and never edited once its release has shipped.
 *
 * This header is self-contained (public headers, stddef.h, stdint.h) so that the abi suite
 * can compile it freestanding for foreign targets and for the frozen 1.0 headers. */
#ifndef LLMM_CORE_ABI_SIZES_H
#define LLMM_CORE_ABI_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "llmmetrics/llmmetrics.h"

/* ---- data models ------------------------------------------------------------------------
 * A struct's size depends on the pointer width and on the alignment of 64-bit scalars
 * (uint64_t, double) inside structs. Three combinations exist among the platforms C11 runs
 * on, and a released size is recorded for each:
 *   p64   64-bit pointers, 8-aligned 64-bit scalars: x86-64, aarch64, s390x, ppc64, riscv64
 *         (LP64), Windows x64 (LLP64: no public type is `long`, so the two agree);
 *   p32   32-bit pointers, 4-aligned 64-bit scalars: i386 System V (Linux, BSD);
 *   p32a8 32-bit pointers, 8-aligned 64-bit scalars: arm (EABI), ppc32, mips32, Windows x86.
 * Any other model fails to compile here rather than guess. */
struct llmm__u64_probe {
    char c;
    uint64_t v;
};
struct llmm__f64_probe {
    char c;
    double v;
};
#define LLMM__ALIGN64 offsetof(struct llmm__u64_probe, v)

_Static_assert(sizeof(void *) == 8
                   ? LLMM__ALIGN64 == 8
                   : sizeof(void *) == 4 && (LLMM__ALIGN64 == 4 || LLMM__ALIGN64 == 8),
               "a data model without recorded struct sizes: add a column to LLMM__SZ");
_Static_assert(offsetof(struct llmm__f64_probe, v) == LLMM__ALIGN64,
               "double and uint64_t aligned differently: add a data model to LLMM__SZ");
_Static_assert(sizeof(void (*)(void)) == sizeof(void *), "function pointers wider than data");

/* One released size, as the three data models' numbers. */
#define LLMM__SZ(p64, p32, p32a8)                                                                  \
    ((uint32_t)(sizeof(void *) == 8 ? (p64) : LLMM__ALIGN64 == 4 ? (p32) : (p32a8)))

/* ---- the structs ------------------------------------------------------------------------
 * X(kind, type, defaults) for every size-prefixed struct, in the release that introduced it.
 * `kind` is its ::llmm_struct_kind, `defaults` a `void f(void *full)` filling the non-zero
 * defaults of a zeroed full-size struct (declared in core/abi.h), or NULL when all are 0. A
 * struct of 1.0 also keeps its exported 1.0 `<type>_init` symbol (core/abi.c). */
#define LLMM__STRUCTS_1_0(X)                                                                       \
    X(LLMM_STRUCT_ALLOCATOR, llmm_allocator, llmm__allocator_defaults)                             \
    X(LLMM_STRUCT_SPIKE_STATS, llmm_spike_stats, NULL)                                             \
    X(LLMM_STRUCT_COLLAPSE_VERDICT, llmm_collapse_verdict, NULL)                                   \
    X(LLMM_STRUCT_COLLAPSE_REPORT, llmm_collapse_report, NULL)                                     \
    X(LLMM_STRUCT_STABILITY_READING, llmm_stability_reading, NULL)                                 \
    X(LLMM_STRUCT_SATURATION_READING, llmm_saturation_reading, NULL)                               \
    X(LLMM_STRUCT_OTLP_OPTIONS, llmm_otlp_options, llmm__otlp_options_defaults)                    \
    X(LLMM_STRUCT_FIT_STATS, llmm_fit_stats, NULL)                                                 \
    X(LLMM_STRUCT_KNEE, llmm_knee, llmm__knee_defaults)                                            \
    X(LLMM_STRUCT_USL, llmm_usl, llmm__usl_defaults)                                               \
    X(LLMM_STRUCT_KNEE_OPTIONS, llmm_knee_options, llmm__knee_options_defaults)                    \
    X(LLMM_STRUCT_LII_READING, llmm_lii_reading, NULL)                                             \
    X(LLMM_STRUCT_KV_OCCUPANCY_RESULT, llmm_kv_occupancy_result, NULL)                             \
    X(LLMM_STRUCT_KV_HIT_READING, llmm_kv_hit_reading, NULL)                                       \
    X(LLMM_STRUCT_TLB_READING, llmm_tlb_reading, NULL)                                             \
    X(LLMM_STRUCT_SCORE_RESULT, llmm_score_result, NULL)                                           \
    X(LLMM_STRUCT_SLO_RESULT, llmm_slo_result, NULL)                                               \
    X(LLMM_STRUCT_GOODPUT_RESULT, llmm_goodput_result, NULL)                                       \
    X(LLMM_STRUCT_BURN_RESULT, llmm_burn_result, NULL)                                             \
    X(LLMM_STRUCT_ERROR_TRIGGER_READING, llmm_error_trigger_reading, NULL)
/* Structs introduced in 1.1 (shipped). */
#define LLMM__STRUCTS_1_1(X) X(LLMM_STRUCT_OPTION_INFO, llmm_option_info, NULL)
/* Structs introduced in 1.2 (open until 1.2 ships); one X(...) per struct. */
#define LLMM__STRUCTS_1_2(X)                                                                       \
    X(LLMM_STRUCT_OTLP_EXEMPLAR, llmm_otlp_exemplar, NULL)                                         \
    X(LLMM_STRUCT_OTLP_POINT, llmm_otlp_point, NULL)                                               \
    X(LLMM_STRUCT_OTLP_METRIC, llmm_otlp_metric, llmm__otlp_metric_defaults)                       \
    X(LLMM_STRUCT_OTLP_METRICS_REQUEST, llmm_otlp_metrics_request, NULL)                           \
    X(LLMM_STRUCT_OTLP_ATTRIBUTE, llmm_otlp_attribute, NULL)                                       \
    X(LLMM_STRUCT_OTLP_SPAN, llmm_otlp_span, llmm__otlp_span_defaults)                             \
    X(LLMM_STRUCT_OTLP_TRACES_REQUEST, llmm_otlp_traces_request, NULL)                             \
    X(LLMM_STRUCT_EXEMPLAR, llmm_exemplar, NULL)                                                   \
    X(LLMM_STRUCT_DECODE_INFO, llmm_decode_info, NULL)                                             \
    X(LLMM_STRUCT_TRACED_EVENT, llmm_traced_event, NULL)
#define LLMM__STRUCTS(X) LLMM__STRUCTS_1_0(X) LLMM__STRUCTS_1_1(X) LLMM__STRUCTS_1_2(X)

/* ---- the released sizes -----------------------------------------------------------------
 * LLMM__SIZES_<type>: one LLMM__SZ per release that introduced or grew the struct, oldest
 * first, each marked with its release. A release's entry is edited only while that release is
 * open (1.2 now); 1.0's and 1.1's are frozen. `python3 tools/abi/struct_sizes.py` prints the numbers. */
#define LLMM__SIZES_llmm_allocator LLMM__SZ(40, 20, 20)             /* 1.0 */
#define LLMM__SIZES_llmm_spike_stats LLMM__SZ(96, 96, 96)           /* 1.0 */
#define LLMM__SIZES_llmm_collapse_verdict LLMM__SZ(64, 64, 64)      /* 1.0 */
#define LLMM__SIZES_llmm_collapse_report LLMM__SZ(88, 88, 88)       /* 1.0 */
#define LLMM__SIZES_llmm_stability_reading LLMM__SZ(48, 48, 48)     /* 1.0 */
#define LLMM__SIZES_llmm_saturation_reading LLMM__SZ(64, 64, 64)    /* 1.0 */
#define LLMM__SIZES_llmm_otlp_options LLMM__SZ(72, 52, 56)          /* 1.0 */
#define LLMM__SIZES_llmm_fit_stats LLMM__SZ(72, 72, 72)             /* 1.0 */
#define LLMM__SIZES_llmm_knee LLMM__SZ(32, 32, 32)                  /* 1.0 */
#define LLMM__SIZES_llmm_usl LLMM__SZ(72, 72, 72)                   /* 1.0 */
#define LLMM__SIZES_llmm_knee_options LLMM__SZ(32, 32, 32)          /* 1.0 */
#define LLMM__SIZES_llmm_lii_reading LLMM__SZ(40, 40, 40)           /* 1.0 */
#define LLMM__SIZES_llmm_kv_occupancy_result LLMM__SZ(48, 48, 48)   /* 1.0 */
#define LLMM__SIZES_llmm_kv_hit_reading LLMM__SZ(40, 40, 40)        /* 1.0 */
#define LLMM__SIZES_llmm_tlb_reading LLMM__SZ(48, 48, 48)           /* 1.0 */
#define LLMM__SIZES_llmm_score_result LLMM__SZ(200, 200, 200)       /* 1.0 */
#define LLMM__SIZES_llmm_slo_result LLMM__SZ(56, 56, 56)            /* 1.0 */
#define LLMM__SIZES_llmm_goodput_result LLMM__SZ(56, 56, 56)        /* 1.0 */
#define LLMM__SIZES_llmm_burn_result LLMM__SZ(144, 144, 144)        /* 1.0 */
#define LLMM__SIZES_llmm_error_trigger_reading LLMM__SZ(32, 32, 32) /* 1.0 */
#define LLMM__SIZES_llmm_option_info LLMM__SZ(104, 100, 104)        /* 1.1 */
#define LLMM__SIZES_llmm_otlp_exemplar LLMM__SZ(56, 48, 56)         /* 1.2 */
#define LLMM__SIZES_llmm_otlp_point LLMM__SZ(72, 48, 48)            /* 1.2 */
#define LLMM__SIZES_llmm_otlp_metric LLMM__SZ(96, 56, 64)           /* 1.2 */
#define LLMM__SIZES_llmm_otlp_metrics_request LLMM__SZ(56, 28, 28)  /* 1.2 */
#define LLMM__SIZES_llmm_otlp_attribute LLMM__SZ(48, 32, 32)        /* 1.2 */
#define LLMM__SIZES_llmm_otlp_span LLMM__SZ(104, 76, 80)            /* 1.2 */
#define LLMM__SIZES_llmm_otlp_traces_request LLMM__SZ(56, 28, 28)   /* 1.2 */
#define LLMM__SIZES_llmm_exemplar LLMM__SZ(112, 112, 112)           /* 1.2 */
#define LLMM__SIZES_llmm_decode_info LLMM__SZ(40, 36, 40)           /* 1.2 */
#define LLMM__SIZES_llmm_traced_event LLMM__SZ(56, 56, 56)          /* 1.2 */

/* ---- first and last of a size list (up to four releases per struct; add LLMM__LAST_5 …
 * when a struct grows a fourth time) --------------------------------------------------- */
#define LLMM__FIRST(...) LLMM__FIRST_(__VA_ARGS__, 0)
#define LLMM__FIRST_(a, ...) a
#define LLMM__COUNT(...) LLMM__COUNT_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define LLMM__COUNT_(a, b, c, d, n, ...) n
#define LLMM__CAT(a, b) LLMM__CAT_(a, b)
#define LLMM__CAT_(a, b) a##b
#define LLMM__LAST(...) LLMM__CAT(LLMM__LAST_, LLMM__COUNT(__VA_ARGS__))(__VA_ARGS__)
#define LLMM__LAST_1(a) a
#define LLMM__LAST_2(a, b) b
#define LLMM__LAST_3(a, b, c) c
#define LLMM__LAST_4(a, b, c, d) d

/* The newest released size of each struct is the size these headers give it: forgetting to
 * record an appended field fails the build on every data model. The test-only grown build
 * (tests/abi/grown) appends a field to every struct without recording it, and checks the
 * opposite: the struct really grew past its newest release. */
#ifdef LLMM__ABI_GROWN_TEST
#define LLMM__ASSERT_NEWEST(kind, type, defaults)                                                  \
    _Static_assert(sizeof(type) > LLMM__LAST(LLMM__SIZES_##type), #type " did not grow");
#else
#define LLMM__ASSERT_NEWEST(kind, type, defaults)                                                  \
    _Static_assert(LLMM__LAST(LLMM__SIZES_##type) == sizeof(type),                                 \
                   #type ": record its new size in LLMM__SIZES_" #type);
#endif

#endif
