/* Resource benchmarks: streaming LII monitor cost per sample, batch llmm_lii cost per sample.
 * Usage: bench_resource [--json]. Fixed-seed synthetic utilisations; best of 5 runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#define N_SAMPLES 4096u   /* distinct samples, cycled (fits in L1/L2) */
#define N_ADDS 20000000u  /* monitor adds per run */
#define RUNS 5

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static double next_util(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static volatile double sink;

static double bench_monitor(const double *cpu, const double *gpu, uint32_t window)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_lii_monitor *m;
        llmm_lii_reading r;
        uint64_t t0, t1;
        if (llmm_lii_monitor_new(NULL, window, &m) != LLMM_OK)
            exit(1);
        t0 = llmm_now_ns();
        for (uint32_t i = 0; i < N_ADDS; i++)
            llmm_lii_monitor_add(m, cpu[i & (N_SAMPLES - 1)], gpu[i & (N_SAMPLES - 1)]);
        t1 = llmm_now_ns();
        llmm_lii_reading_init(&r);
        llmm_lii_monitor_read(m, &r);
        sink = r.lii;
        llmm_lii_monitor_free(m);
        if ((double)(t1 - t0) / N_ADDS < best)
            best = (double)(t1 - t0) / N_ADDS;
    }
    return best;
}

static double bench_read(const double *cpu, const double *gpu)
{
    double best = 1e30;
    llmm_lii_monitor *m;
    llmm_lii_reading r;
    if (llmm_lii_monitor_new(NULL, 0, &m) != LLMM_OK)
        exit(1);
    for (uint32_t i = 0; i < 64; i++)
        llmm_lii_monitor_add(m, cpu[i], gpu[i]);
    llmm_lii_reading_init(&r);
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = llmm_now_ns(), t1;
        double acc = 0.0;
        for (uint32_t i = 0; i < N_ADDS; i++) {
            llmm_lii_monitor_read(m, &r);
            acc += r.lii;
        }
        t1 = llmm_now_ns();
        sink = acc;
        if ((double)(t1 - t0) / N_ADDS < best)
            best = (double)(t1 - t0) / N_ADDS;
    }
    llmm_lii_monitor_free(m);
    return best;
}

static double bench_batch(const double *cpu, const double *gpu)
{
    double best = 1e30;
    const uint32_t reps = N_ADDS / N_SAMPLES;
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = llmm_now_ns(), t1;
        double v, acc = 0.0;
        for (uint32_t k = 0; k < reps; k++) {
            llmm_lii(cpu, gpu, N_SAMPLES, &v);
            acc += v;
        }
        t1 = llmm_now_ns();
        sink = acc;
        if ((double)(t1 - t0) / ((double)reps * N_SAMPLES) < best)
            best = (double)(t1 - t0) / ((double)reps * N_SAMPLES);
    }
    return best;
}

int main(int argc, char **argv)
{
    static double cpu[N_SAMPLES], gpu[N_SAMPLES];
    int json = argc > 1 && strcmp(argv[1], "--json") == 0;
    for (uint32_t i = 0; i < N_SAMPLES; i++) {
        cpu[i] = next_util();
        gpu[i] = next_util();
    }
    double add64 = bench_monitor(cpu, gpu, 64);
    double add4096 = bench_monitor(cpu, gpu, 4096);
    double rd = bench_read(cpu, gpu);
    double batch = bench_batch(cpu, gpu);
    if (json) {
        printf("{\"lii_monitor_add_w64_ns\": %.3f, \"lii_monitor_add_w4096_ns\": %.3f, "
               "\"lii_monitor_read_ns\": %.3f, \"lii_batch_ns_per_sample\": %.3f}\n",
               add64, add4096, rd, batch);
    } else {
        printf("%-36s %10s\n", "figure", "ns");
        printf("%-36s %10.3f\n", "lii_monitor_add (W = 64)", add64);
        printf("%-36s %10.3f\n", "lii_monitor_add (W = 4096)", add4096);
        printf("%-36s %10.3f\n", "lii_monitor_read", rd);
        printf("%-36s %10.3f\n", "llmm_lii batch, per sample", batch);
    }
    return 0;
}
