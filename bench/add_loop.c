/* Calls llmm_sketch_add (or, with the word `shard`, llmm_shard_add on one recorder shard) N
 * times through the shared library; with `shard_many`, records the same N values through
 * llmm_shard_add_many in batches of ADD_LOOP_BATCH. Run under callgrind to count instructions
 * per call or per value (bench/callgrind_add.py and the 'perf' test suite).
 * Usage: add_loop [shard|shard_many] [N] */
#include "bench_common.h"
#include "llmmetrics/sketch.h"

#define ADD_LOOP_BATCH 1024

int main(int argc, char **argv)
{
    int many = argc > 1 && strcmp(argv[1], "shard_many") == 0;
    int shard = many || (argc > 1 && strcmp(argv[1], "shard") == 0);
    size_t n = argc > 1 + shard ? (size_t)strtoull(argv[1 + shard], NULL, 10) : 1000000;
    double *v = malloc(n * sizeof *v);
    llmm_sketch *s = NULL;
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    if (!v || llmm_sketch_new(NULL, 6, &s) != LLMM_OK || llmm_recorder_new(NULL, 6, &rec) != LLMM_OK ||
        llmm_recorder_shard(rec, &sh) != LLMM_OK)
        return 1;
    bench_lognormal(v, n, 0.2, 1.0, 7);
    if (many) {
        for (size_t i = 0; i < n; i += ADD_LOOP_BATCH)
            llmm_shard_add_many(sh, v + i, n - i < ADD_LOOP_BATCH ? n - i : ADD_LOOP_BATCH);
        llmm_recorder_snapshot(rec, s);
    } else if (shard) {
        for (size_t i = 0; i < n; i++)
            llmm_shard_add(sh, v[i]);
        llmm_recorder_snapshot(rec, s);
    } else {
        for (size_t i = 0; i < n; i++)
            llmm_sketch_add(s, v[i]);
    }
    printf("%llu\n", (unsigned long long)llmm_sketch_count(s));
    llmm_shard_release(sh);
    llmm_recorder_free(rec);
    llmm_sketch_free(s);
    free(v);
    return 0;
}
