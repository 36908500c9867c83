/* Calls llmm_sketch_quantiles (five levels, a different set each call) N times on an
 * unchanged sketch of 1 M log-normal values through the shared library; run under callgrind
 * to count instructions per call of the cached query path (bench/callgrind_add.py and the
 * 'perf' suite). The first two calls (the scan, then the one that fills the view) are in
 * every run, so the difference between two runs counts only calls answered from the view.
 * With the word `scan`, a value is added before each call, so every call scans instead.
 * Usage: query_loop [scan] [N] */
#include "bench_common.h"
#include "llmmetrics/sketch.h"

int main(int argc, char **argv)
{
    int scan = argc > 1 && strcmp(argv[1], "scan") == 0;
    size_t n = argc > 1 + scan ? (size_t)strtoull(argv[1 + scan], NULL, 10) : 100000;
    size_t nv = 1000000;
    double *v = malloc(nv * sizeof *v), out[5], acc = 0.0, q[64][5];
    uint64_t x = 5;
    llmm_sketch *s = NULL;
    if (!v || llmm_sketch_new(NULL, 6, &s) != LLMM_OK)
        return 1;
    bench_lognormal(v, nv, 0.2, 1.0, 7);
    if (llmm_sketch_add_many(s, v, nv) != LLMM_OK)
        return 1;
    for (int j = 0; j < 64; j++) {
        static const double base[5] = {0.5, 0.9, 0.99, 0.999, 0.9999};
        for (int k = 0; k < 5; k++)
            q[j][k] = 1.0 - (1.0 - base[k]) * (0.9 + 0.2 * bench_unit(&x));
    }
    for (size_t i = 0; i < n; i++) {
        if (scan)
            llmm_sketch_add(s, v[i % nv]);
        if (llmm_sketch_quantiles(s, q[i % 64], 5, out) != LLMM_OK)
            return 1;
        acc += out[4];
    }
    printf("%g\n", acc / (double)n);
    llmm_sketch_free(s);
    free(v);
    return 0;
}
