/* Calls a detector's observe N times through the shared library (run under callgrind to count
 * instructions per sample: the 'perf' suite's guards).
 * usage: observe_loop spike|collapse N */
#include "bench_common.h"
#include "llmmetrics/detect.h"

int main(int argc, char **argv)
{
    size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 100000;
    double *v = malloc(n * sizeof *v);
    const uint64_t gap = 1000000; /* 1 ms: 1000 samples per 1 s slot */
    if (!v || argc < 2)
        return 2;
    bench_lognormal(v, n, 0.2, 1.0, 11);
    if (!strcmp(argv[1], "spike")) {
        llmm_spike *d;
        llmm_spike_level level;
        if (llmm_spike_new(NULL, &d) != LLMM_OK)
            return 1;
        for (size_t i = 0; i < n; i++)
            llmm_spike_observe(d, (uint64_t)(i + 1) * gap, v[i], &level);
        llmm_spike_free(d);
    } else {
        llmm_collapse *c;
        int32_t flag;
        if (llmm_collapse_new(NULL, &c) != LLMM_OK)
            return 1;
        for (size_t i = 0; i < n; i++)
            llmm_collapse_observe(c, (uint64_t)(i + 1) * gap, v[i], &flag);
        llmm_collapse_free(c);
    }
    free(v);
    return 0;
}
