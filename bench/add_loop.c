/* Calls llmm_sketch_add N times through the shared library; run under callgrind to count
 * instructions per add (bench/callgrind_add.sh and the 'perf' test suite). */
#include "bench_common.h"
#include "llmmetrics/sketch.h"

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    double *v = malloc(n * sizeof *v);
    llmm_sketch *s;
    if (!v || llmm_sketch_new(NULL, 6, &s) != LLMM_OK)
        return 1;
    bench_lognormal(v, n, 0.2, 1.0, 7);
    for (size_t i = 0; i < n; i++)
        llmm_sketch_add(s, v[i]);
    printf("%llu\n", (unsigned long long)llmm_sketch_count(s));
    llmm_sketch_free(s);
    free(v);
    return 0;
}
