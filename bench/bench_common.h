/* Shared helpers for the benchmarks: clock, fixed-seed generators, result printing. */
#ifndef LLMM_BENCH_COMMON_H
#define LLMM_BENCH_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* exact_q, cmp_dbl: the unit tests' exact reference, one copy for tests and benchmarks */
#include "../tests/unit/exact_q.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline uint64_t bench_rng(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

static inline double bench_unit(uint64_t *x)
{
    return ((double)(bench_rng(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* log-normal with the given median and sigma (Box-Muller), fixed seed */
static inline void bench_lognormal(double *v, size_t n, double median, double sigma, uint64_t seed)
{
    uint64_t x = seed ? seed : 1;
    for (size_t i = 0; i + 1 < n; i += 2) {
        double u1 = bench_unit(&x), u2 = bench_unit(&x);
        double r = sqrt(-2.0 * log(u1));
        v[i] = median * exp(sigma * r * cos(6.283185307179586 * u2));
        v[i + 1] = median * exp(sigma * r * sin(6.283185307179586 * u2));
    }
    if (n & 1)
        v[n - 1] = median;
}

/* One result row: printed as a table line, or collected as JSON. */
typedef struct {
    int json;
    int first;
} bench_out;

static inline void bench_begin(bench_out *o, int argc, char **argv, const char *name)
{
    o->json = argc > 1 && strcmp(argv[1], "--json") == 0;
    o->first = 1;
    if (o->json)
        printf("{\"bench\": \"%s\", \"results\": [", name);
    else
        printf("%-58s %14s %-10s %s\n", name, "value", "unit", "target");
}

static inline void bench_row(bench_out *o, const char *figure, double value, const char *unit,
                             const char *target)
{
    if (o->json) {
        printf("%s\n  {\"figure\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"target\": \"%s\"}",
               o->first ? "" : ",", figure, value, unit, target ? target : "");
    } else {
        printf("%-58s %14.4f %-10s %s\n", figure, value, unit, target ? target : "");
    }
    o->first = 0;
    fflush(stdout);
}

static inline void bench_end(bench_out *o)
{
    if (o->json)
        printf("\n]}\n");
}

/* N of a benchmark's command line `[--json] [N]`, or `dflt`. */
static inline size_t bench_size_arg(int argc, char **argv, size_t dflt)
{
    int argi = argc > 1 && strcmp(argv[1], "--json") == 0 ? 2 : 1;
    return argc > argi ? (size_t)strtoull(argv[argi], NULL, 10) : dflt;
}

#endif
