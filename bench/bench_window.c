/* Window and spike-detector benchmarks: ns per llmm_spike_observe (amortised over slot closes,
 * at several arrival rates), ns per llmm_window_add, ns per 60-slot 5-quantile window query,
 * ns per llmm_ratio_window_add. Usage: bench_window [--json]. Fixed-seed synthetic log-normal
 * latencies (median 200 ms, σ = 1 and σ = 2, in ms); best of 5 runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

#define N_VALUES 65536u    /* distinct latencies, cycled */
#define N_OBSERVE 4000000u /* samples per run */
#define N_QUERIES 20000u
#define RUNS 5
#define SEC 1000000000ull

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static double next_unit(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double next_lognormal(double median, double sigma)
{
    double u1 = next_unit(), u2 = next_unit();
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static volatile double sink;

static void die(const char *what, llmm_status st)
{
    fprintf(stderr, "bench_window: %s: %s\n", what, llmm_strerror(st));
    exit(1);
}

/* ns per observe on a default detector (1 s × 60) with `per_sec` samples per second of the
 * caller's clock: slot closes (baseline updates) are included, amortised. */
static double bench_observe(const double *v, uint64_t per_sec)
{
    const uint64_t gap = SEC / per_sec;
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_spike *d;
        llmm_spike_level lv;
        uint64_t t0, t1, now = 0, levels = 0;
        llmm_status st = llmm_spike_new(NULL, &d);
        if (st != LLMM_OK)
            die("llmm_spike_new", st);
        t0 = llmm_now_ns();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            now += gap;
            llmm_spike_observe(d, now, v[i & (N_VALUES - 1)], &lv);
            levels += (uint64_t)lv;
        }
        t1 = llmm_now_ns();
        sink = (double)levels;
        llmm_spike_free(d);
        if ((double)(t1 - t0) / N_OBSERVE < best)
            best = (double)(t1 - t0) / N_OBSERVE;
    }
    return best;
}

static double bench_window_add(const double *v)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_window *w;
        uint64_t t0, t1, now = 0;
        llmm_status st = llmm_window_new(NULL, 0, 0, LLMM_SCALE_DEFAULT, &w);
        if (st != LLMM_OK)
            die("llmm_window_new", st);
        t0 = llmm_now_ns();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            now += SEC / 10000;
            llmm_window_add(w, now, v[i & (N_VALUES - 1)]);
        }
        t1 = llmm_now_ns();
        llmm_window_free(w);
        if ((double)(t1 - t0) / N_OBSERVE < best)
            best = (double)(t1 - t0) / N_OBSERVE;
    }
    return best;
}

/* A full default window (60 s at 1000 samples/s), P50 / P90 / P95 / P99 / P99.9 over all 60
 * slots: one merge of 60 sketches and one five-quantile pass per query. */
static double bench_query(const double *v)
{
    static const double q[5] = {0.5, 0.9, 0.95, 0.99, 0.999};
    double out[5], best = 1e30, acc = 0;
    llmm_window *w;
    uint64_t now = 0;
    llmm_status st = llmm_window_new(NULL, 0, 0, LLMM_SCALE_DEFAULT, &w);
    if (st != LLMM_OK)
        die("llmm_window_new", st);
    for (uint32_t i = 0; i < 60000; i++) {
        now += SEC / 1000;
        llmm_window_add(w, now, v[i & (N_VALUES - 1)]);
    }
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = llmm_now_ns(), t1;
        for (uint32_t i = 0; i < N_QUERIES; i++) {
            st = llmm_window_quantiles(w, now, 60 * SEC, q, 5, out);
            if (st != LLMM_OK)
                die("llmm_window_quantiles", st);
            acc += out[4];
        }
        t1 = llmm_now_ns();
        if ((double)(t1 - t0) / N_QUERIES < best)
            best = (double)(t1 - t0) / N_QUERIES;
    }
    sink = acc;
    llmm_window_free(w);
    return best;
}

static double bench_ratio_add(void)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_ratio_window *rw;
        uint64_t t0, t1, now = 0;
        llmm_status st = llmm_ratio_window_new(NULL, 0, 0, &rw);
        if (st != LLMM_OK)
            die("llmm_ratio_window_new", st);
        t0 = llmm_now_ns();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            now += SEC / 10000;
            llmm_ratio_window_add(rw, now, (i & 63) == 0, 1);
        }
        t1 = llmm_now_ns();
        llmm_ratio_window_free(rw);
        if ((double)(t1 - t0) / N_OBSERVE < best)
            best = (double)(t1 - t0) / N_OBSERVE;
    }
    return best;
}

int main(int argc, char **argv)
{
    static double v1[N_VALUES], v2[N_VALUES];
    int json = argc > 1 && strcmp(argv[1], "--json") == 0;
    for (uint32_t i = 0; i < N_VALUES; i++) {
        v1[i] = next_lognormal(200.0, 1.0);
        v2[i] = next_lognormal(200.0, 2.0);
    }
    double obs1k = bench_observe(v1, 1000);
    double obs10k = bench_observe(v1, 10000);
    double obs100k = bench_observe(v1, 100000);
    double obs10k_s2 = bench_observe(v2, 10000);
    double wadd = bench_window_add(v1);
    double query = bench_query(v1);
    double query_s2 = bench_query(v2);
    double radd = bench_ratio_add();
    if (json) {
        printf("{\"spike_observe_1k_per_s_ns\": %.3f, \"spike_observe_10k_per_s_ns\": %.3f, "
               "\"spike_observe_100k_per_s_ns\": %.3f, \"spike_observe_10k_per_s_sigma2_ns\": %.3f, "
               "\"window_add_ns\": %.3f, \"window_query_60_slots_5_quantiles_ns\": %.3f, "
               "\"window_query_60_slots_5_quantiles_sigma2_ns\": %.3f, "
               "\"ratio_window_add_ns\": %.3f}\n",
               obs1k, obs10k, obs100k, obs10k_s2, wadd, query, query_s2, radd);
    } else {
        printf("%-52s %10s\n", "figure (log-normal median 200, sigma 1 unless noted)", "ns");
        printf("%-52s %10.3f\n", "llmm_spike_observe, 1 000 samples/s", obs1k);
        printf("%-52s %10.3f\n", "llmm_spike_observe, 10 000 samples/s", obs10k);
        printf("%-52s %10.3f\n", "llmm_spike_observe, 100 000 samples/s", obs100k);
        printf("%-52s %10.3f\n", "llmm_spike_observe, 10 000 samples/s, sigma 2", obs10k_s2);
        printf("%-52s %10.3f\n", "llmm_window_add, 10 000 samples/s", wadd);
        printf("%-52s %10.3f\n", "llmm_window_quantiles, 60 slots, 5 quantiles", query);
        printf("%-52s %10.3f\n", "llmm_window_quantiles, 60 slots, 5 q, sigma 2", query_s2);
        printf("%-52s %10.3f\n", "llmm_ratio_window_add", radd);
    }
    return 0;
}
