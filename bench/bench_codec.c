/* Sketch codec: encoded size and serialize / deserialize time for log-normal latencies
 * (median 200 ms, sigma 1 and 2, 10 M values, scale 6, fixed seed).
 *
 *   bench_codec [--json]
 *
 * DESIGN.md §5: the typical (sigma = 1) series must encode in at most 2 KiB. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#define NVALUES 10000000u
#define MIN_RUN_NS 200000000u /* time each operation for at least 0.2 s */

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

static double lognormal(uint64_t *x, double median, double sigma)
{
    double u1 = ((double)(rng_next(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    double u2 = ((double)(rng_next(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static void check(llmm_status st, const char *what)
{
    if (st != LLMM_OK) {
        fprintf(stderr, "bench_codec: %s: %s\n", what, llmm_strerror(st));
        exit(1);
    }
}

typedef struct {
    double sigma;
    size_t bytes;
    double serialize_ns, deserialize_ns;
} result;

static llmm_sketch *build(double sigma, uint64_t seed)
{
    static double chunk[65536];
    llmm_sketch *s;
    uint64_t x = seed;
    check(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s), "new");
    for (unsigned done = 0; done < NVALUES;) {
        unsigned k = NVALUES - done < 65536u ? NVALUES - done : 65536u;
        for (unsigned i = 0; i < k; i++)
            chunk[i] = lognormal(&x, 0.2, sigma);
        check(llmm_sketch_add_many(s, chunk, k), "add_many");
        done += k;
    }
    return s;
}

static void measure(double sigma, uint64_t seed, result *r)
{
    llmm_sketch *s = build(sigma, seed), *d;
    uint8_t *buf;
    size_t len;
    uint64_t t0, t1, iters;

    if (llmm_sketch_serialize(s, NULL, 0, &len) != LLMM_E_BUFFER)
        check(LLMM_E_INVALID, "sizing");
    buf = malloc(len);
    if (!buf)
        check(LLMM_E_NOMEM, "malloc");
    r->sigma = sigma;
    r->bytes = len;

    iters = 0;
    t0 = llmm_now_ns();
    do {
        for (int i = 0; i < 100; i++)
            check(llmm_sketch_serialize(s, buf, len, &len), "serialize");
        iters += 100;
        t1 = llmm_now_ns();
    } while (t1 - t0 < MIN_RUN_NS);
    r->serialize_ns = (double)(t1 - t0) / (double)iters;

    iters = 0;
    t0 = llmm_now_ns();
    do {
        for (int i = 0; i < 100; i++) {
            check(llmm_sketch_deserialize(NULL, buf, len, &d), "deserialize");
            llmm_sketch_free(d);
        }
        iters += 100;
        t1 = llmm_now_ns();
    } while (t1 - t0 < MIN_RUN_NS);
    r->deserialize_ns = (double)(t1 - t0) / (double)iters;

    free(buf);
    llmm_sketch_free(s);
}

int main(int argc, char **argv)
{
    int json = argc > 1 && !strcmp(argv[1], "--json");
    result r[2];
    measure(1.0, 12345, &r[0]);
    measure(2.0, 67890, &r[1]);
    if (json) {
        printf("{\"benchmark\": \"codec\", \"values\": %u, \"scale\": %d, \"median\": 0.2, "
               "\"series\": [",
               NVALUES, LLMM_SCALE_DEFAULT);
        for (int i = 0; i < 2; i++)
            printf("%s{\"sigma\": %g, \"bytes\": %zu, \"serialize_ns\": %.0f, "
                   "\"deserialize_ns\": %.0f, \"target_bytes\": %s}",
                   i ? ", " : "", r[i].sigma, r[i].bytes, r[i].serialize_ns,
                   r[i].deserialize_ns, r[i].sigma == 1.0 ? "2048" : "null");
        printf("]}\n");
    } else {
        printf("sketch codec: %u log-normal values (median 0.2), scale %d\n", NVALUES,
               LLMM_SCALE_DEFAULT);
        printf("%-6s %10s %10s %16s %16s\n", "sigma", "bytes", "target", "serialize ns",
               "deserialize ns");
        for (int i = 0; i < 2; i++)
            printf("%-6g %10zu %10s %16.0f %16.0f\n", r[i].sigma, r[i].bytes,
                   r[i].sigma == 1.0 ? "<= 2048" : "-", r[i].serialize_ns,
                   r[i].deserialize_ns);
    }
    return 0;
}
