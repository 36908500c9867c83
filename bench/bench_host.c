/* bench_host: the cost of one host sample on this machine's real /proc and /sys, against its
 * budget of 1 % of a 50 ms sampling interval on one core (500 µs). A sampler is made once;
 * 2000 samples are taken back to back (each re-reads every available file) in five rounds,
 * and the median round's mean per sample is reported, with the number of signals the host
 * exposes (the cost grows with the files read, and /proc/stat and /proc/net/snmp with the
 * CPU count), and CPU time as well as wall time (the machine is shared). */
#include "bench_common.h"

#include <llmmetrics/llmmetrics.h>

#define ROUNDS 5
#define SAMPLES 2000

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double wall[ROUNDS], cpu[ROUNDS], v;
    llmm_host_sampler *s = NULL;
    uint64_t t = 1;
    int available = 0;
    bench_out o;

    if (llmm_host_sampler_new(NULL, NULL, &s) != LLMM_OK) {
        fprintf(stderr, "bench_host: no sampler\n");
        return 1;
    }
    for (int sig = 1; llmm_host_signal_name((llmm_host_signal)sig); sig++)
        available += llmm_host_signal_rate(s, (llmm_host_signal)sig, &v) != LLMM_E_STATE;
    for (int r = 0; r < ROUNDS; r++) {
        double w0 = bench_now(), c0 = cpu_now();
        for (int i = 0; i < SAMPLES; i++)
            llmm_host_sample(s, t++, NULL);
        wall[r] = (bench_now() - w0) / SAMPLES;
        cpu[r] = (cpu_now() - c0) / SAMPLES;
    }
    llmm_host_sampler_free(s);
    qsort(wall, ROUNDS, sizeof wall[0], cmp_dbl);
    qsort(cpu, ROUNDS, sizeof cpu[0], cmp_dbl);

    bench_begin(&o, argc, argv, "host");
    bench_row(&o, "signals this host exposes (of the library's)", available, "signals", "");
    bench_row(&o, "llmm_host_sample, real /proc and /sys: wall time", wall[ROUNDS / 2] * 1e6,
              "us", "");
    bench_row(&o, "llmm_host_sample: CPU time", cpu[ROUNDS / 2] * 1e6, "us", "");
    bench_row(&o, "  as a share of a 50 ms interval (CPU time)", 100.0 * cpu[ROUNDS / 2] / 0.05,
              "%", "<= 1 %");
    bench_end(&o);
    return 0;
}
