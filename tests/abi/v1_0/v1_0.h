/* The 1.0 program: built against the frozen 1.0 headers (tests/abi/1.0), run against the
 * current library and against the test-only grown library (tests/abi/grown). Each part uses
 * one group of 1.0 call families and every 1.0 struct among them, and checks results that do
 * not depend on the library's version.
 *
 * Every size-prefixed struct lives in a guarded buffer: the struct, then GUARD_BYTES bytes of
 * a known pattern. The exported 1.0 `_init` must write this program's 1.0 sizeof, and no call
 * may write past it (a library that wrote its own, larger, struct would). */
#ifndef LLMM_ABI_V1_0_H
#define LLMM_ABI_V1_0_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#if LLMM_VERSION_NUMBER != 10000
#error "the 1.0 program must be built against the frozen 1.0 headers"
#endif

#define GUARD_BYTES 64
#define GUARD_BYTE 0xA5

/* Failures of the current part; each failed check prints one TAP comment. */
extern int v1_failures;
int v1_check(int ok, const char *what, const char *file, int line);
int v1_guard_ok(const unsigned char *bytes, size_t size);

#define CHECK(cond) v1_check(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_OK(expr) v1_check((expr) == LLMM_OK, #expr " == LLMM_OK", __FILE__, __LINE__)
#define CHECK_NEAR(a, b, rel) CHECK(fabs((a) - (b)) <= (rel) * fabs(b))

/* A guarded struct `name` of `type`, set up by the exported 1.0 `type_init`. */
#define GUARDED(type, name)                                                                  \
    union {                                                                                  \
        type s;                                                                              \
        unsigned char bytes[sizeof(type) + GUARD_BYTES];                                     \
    } name##_g;                                                                              \
    type *name = &name##_g.s;                                                                \
    memset(&name##_g, GUARD_BYTE, sizeof name##_g);                                          \
    CHECK_OK(type##_init(name));                                                             \
    CHECK(name->struct_size == sizeof(type));                                                \
    CHECK(v1_guard_ok(name##_g.bytes, sizeof(type)))

/* After a call that wrote `name`: nothing beyond the 1.0 struct changed. */
#define INTACT(name) CHECK(v1_guard_ok(name##_g.bytes, sizeof *name))

/* The parts; each returns after running all its checks. */
void v1_core_sketch(void);
void v1_window_detect(void);
void v1_fit_capacity(void);
void v1_resource_slo(void);
void v1_score_export(void);

#endif
