/* Sketch codec: encoded size and serialize / deserialize time for log-normal latencies
 * (median 200 ms, sigma 1 and 2, 10 M values, scale 6, fixed seed), through the shared library.
 *
 * Usage: bench_codec [--json] [N]
 *
 * doc/spec.md §10: the typical (sigma = 1) series must encode in at most 2 KiB. */
#include "bench_common.h"

#include "llmmetrics/llmmetrics.h"

#define MIN_RUN_S 0.2 /* time each operation for at least this long */

static void check(llmm_status st, const char *what)
{
    if (st != LLMM_OK) {
        fprintf(stderr, "bench_codec: %s: %s\n", what, llmm_strerror(st));
        exit(1);
    }
}

/* Mean time of one serialize into a buffer of the right size. */
static double serialize_ns(const llmm_sketch *s, uint8_t *buf, size_t len)
{
    double t0 = bench_now(), t1;
    size_t iters = 0, got;
    do {
        for (int i = 0; i < 100; i++)
            check(llmm_sketch_serialize(s, buf, len, &got), "serialize");
        iters += 100;
        t1 = bench_now();
    } while (t1 - t0 < MIN_RUN_S);
    return (t1 - t0) * 1e9 / (double)iters;
}

/* Mean time of one deserialize plus the free of the result. */
static double deserialize_ns(const uint8_t *buf, size_t len)
{
    double t0 = bench_now(), t1;
    size_t iters = 0;
    do {
        for (int i = 0; i < 100; i++) {
            llmm_sketch *d;
            check(llmm_sketch_deserialize(NULL, buf, len, &d), "deserialize");
            llmm_sketch_free(d);
        }
        iters += 100;
        t1 = bench_now();
    } while (t1 - t0 < MIN_RUN_S);
    return (t1 - t0) * 1e9 / (double)iters;
}

int main(int argc, char **argv)
{
    bench_out o;
    size_t n = 10000000;
    int argi = 1;
    double *v;
    if (argi < argc && strcmp(argv[argi], "--json") == 0)
        argi++;
    if (argi < argc)
        n = (size_t)strtoull(argv[argi], NULL, 10);
    v = malloc(n * sizeof *v);
    if (!v || n == 0) {
        fprintf(stderr, "bench_codec: cannot allocate %zu values\n", n);
        return 1;
    }
    bench_begin(&o, argc, argv, "codec");
    for (int sigma = 1; sigma <= 2; sigma++) {
        llmm_sketch *s;
        uint8_t *buf;
        size_t len;
        char fig[128];
        bench_lognormal(v, n, 0.2, (double)sigma, 42 + (uint64_t)sigma);
        check(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s), "new");
        check(llmm_sketch_add_many(s, v, n), "add_many");
        if (llmm_sketch_serialize(s, NULL, 0, &len) != LLMM_E_BUFFER)
            check(LLMM_E_INVALID, "sizing");
        buf = malloc(len);
        if (!buf)
            check(LLMM_E_NOMEM, "malloc");
        snprintf(fig, sizeof fig, "serialized size, sigma %d, %zu values, scale 6", sigma, n);
        bench_row(&o, fig, (double)len, "bytes", sigma == 1 ? "<= 2048" : "");
        snprintf(fig, sizeof fig, "llmm_sketch_serialize, sigma %d", sigma);
        bench_row(&o, fig, serialize_ns(s, buf, len), "ns", "");
        snprintf(fig, sizeof fig, "llmm_sketch_deserialize + free, sigma %d", sigma);
        bench_row(&o, fig, deserialize_ns(buf, len), "ns", "");
        free(buf);
        llmm_sketch_free(s);
    }
    bench_end(&o);
    free(v);
    return 0;
}
