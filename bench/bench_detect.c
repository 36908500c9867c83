/* Detect-module benchmarks beyond the spike detector: ns per llmm_collapse_observe (target
 * ≤ 50 ns, doc/spec.md §10), per llmm_collapse_observe_ex, per llmm_saturation_observe, per
 * llmm_stability_add, per event-log add and look-back, and correlation cost per pair.
 * Usage: bench_detect [--json]. Fixed-seed log-normal latencies (median 200 ms, σ = 1 and
 * σ = 2, in ms), batches 2 ms apart with a weight switch every 1000 batches; best of 5 runs,
 * timed in thread CPU time. */
#include "bench_common.h"

#include "llmmetrics/llmmetrics.h"

#define N_VALUES 65536u   /* distinct latencies, cycled */
#define N_OBSERVE 2000000u
#define N_EVENTS 1000000u
#define N_LOOKBACK 200000u
#define N_CORR 10000u
#define RUNS 5
#define MS UINT64_C(1000000)

static volatile double sink;

/* CPU time of this thread: the machines running the benchmarks are shared, and time spent
 * descheduled is not the library's. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, llmm_status st)
{
    fprintf(stderr, "bench_detect: %s: %s\n", what, llmm_strerror(st));
    exit(1);
}

static double collapse_ns(const double *v, uint32_t window, int ex)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_collapse *c;
        llmm_collapse_verdict vd;
        uint64_t now = 0, flags = 0;
        int32_t f = 0;
        double t0, t1;
        llmm_status st = llmm_collapse_new(NULL, &c);
        if (st != LLMM_OK)
            die("llmm_collapse_new", st);
        if ((st = llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, window)) != LLMM_OK)
            die("llmm_collapse_set_u64", st);
        llmm_collapse_verdict_init(&vd);
        t0 = cpu_now();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            now += 2 * MS;
            if (i % 1000 == 999)
                llmm_collapse_mark_switch(c, now);
            if (ex) {
                llmm_collapse_observe_ex(c, now, v[i & (N_VALUES - 1)], &vd);
                f = vd.collapsed;
            } else {
                llmm_collapse_observe(c, now, v[i & (N_VALUES - 1)], &f);
            }
            flags += (uint64_t)f;
        }
        t1 = cpu_now();
        sink = (double)flags;
        llmm_collapse_free(c);
        if ((t1 - t0) * 1e9 / N_OBSERVE < best)
            best = (t1 - t0) * 1e9 / N_OBSERVE;
    }
    return best;
}

static double saturation_ns(const double *v, uint32_t window)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_saturation *s;
        uint64_t now = 0, flags = 0;
        int32_t f = 0;
        double t0, t1;
        llmm_status st = llmm_saturation_new(NULL, &s);
        if (st != LLMM_OK)
            die("llmm_saturation_new", st);
        if ((st = llmm_saturation_set_u64(s, LLMM_SATURATION_WINDOW, window)) != LLMM_OK)
            die("llmm_saturation_set_u64", st);
        t0 = cpu_now();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            now += 2 * MS;
            llmm_saturation_observe(s, now, v[i & (N_VALUES - 1)], (double)(i & 63), &f);
            flags += (uint64_t)f;
        }
        t1 = cpu_now();
        sink = (double)flags;
        llmm_saturation_free(s);
        if ((t1 - t0) * 1e9 / N_OBSERVE < best)
            best = (t1 - t0) * 1e9 / N_OBSERVE;
    }
    return best;
}

static double stability_ns(const double *v)
{
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        llmm_stability *s;
        int32_t f = 0;
        uint64_t flags = 0;
        double t0, t1;
        llmm_status st = llmm_stability_new(NULL, &s);
        if (st != LLMM_OK)
            die("llmm_stability_new", st);
        t0 = cpu_now();
        for (uint32_t i = 0; i < N_OBSERVE; i++) {
            llmm_stability_add(s, v[i & (N_VALUES - 1)], &f);
            flags += (uint64_t)f;
        }
        t1 = cpu_now();
        sink = (double)flags;
        llmm_stability_free(s);
        if ((t1 - t0) * 1e9 / N_OBSERVE < best)
            best = (t1 - t0) * 1e9 / N_OBSERVE;
    }
    return best;
}

/* ns per add, and ns per look-back of 5 ms over a full 1024-event ring with an event every
 * 100 µs (51 events per look-back). */
static void events_ns(double *add_ns, double *lookback_ns, double *returned)
{
    static llmm_event out[1024];
    double best_add = 1e30, best_lb = 1e30, found = 0;
    for (int run = 0; run < RUNS; run++) {
        llmm_event_log *log;
        uint64_t now = 0;
        size_t n, total = 0;
        double t0, t1;
        llmm_status st = llmm_event_log_new(NULL, 1024, &log);
        if (st != LLMM_OK)
            die("llmm_event_log_new", st);
        t0 = cpu_now();
        for (uint32_t i = 0; i < N_EVENTS; i++) {
            now += 100000;
            llmm_event_log_add(log, now, (int32_t)(1 + i % 6), (double)i);
        }
        t1 = cpu_now();
        if ((t1 - t0) * 1e9 / N_EVENTS < best_add)
            best_add = (t1 - t0) * 1e9 / N_EVENTS;
        t0 = cpu_now();
        for (uint32_t i = 0; i < N_LOOKBACK; i++) {
            llmm_event_log_lookback(log, now - (i & 1023) * 10000, 5 * MS, out, 1024, &n);
            total += n;
        }
        t1 = cpu_now();
        found = (double)total / N_LOOKBACK;
        if ((t1 - t0) * 1e9 / N_LOOKBACK < best_lb)
            best_lb = (t1 - t0) * 1e9 / N_LOOKBACK;
        llmm_event_log_free(log);
    }
    *add_ns = best_add;
    *lookback_ns = best_lb;
    *returned = found;
}

static double correlation_ns(const double *x, const double *y, llmm_correlation_method m)
{
    double best = 1e30, r = 0;
    for (int run = 0; run < RUNS; run++) {
        double t0 = cpu_now(), t1;
        llmm_status st = llmm_correlation(NULL, x, y, N_CORR, m, &r);
        t1 = cpu_now();
        if (st != LLMM_OK)
            die("llmm_correlation", st);
        sink = r;
        if ((t1 - t0) * 1e9 / N_CORR < best)
            best = (t1 - t0) * 1e9 / N_CORR;
    }
    return best;
}

int main(int argc, char **argv)
{
    static double v1[N_VALUES], v2[N_VALUES];
    bench_out o;
    double add_ns, lb_ns, found;

    bench_lognormal(v1, N_VALUES, 200.0, 1.0, 42);
    bench_lognormal(v2, N_VALUES, 200.0, 2.0, 43);
    bench_begin(&o, argc, argv, "detect");
    bench_row(&o, "collapse observe, W = 8, sigma 1 (ns/sample)", collapse_ns(v1, 8, 0), "ns",
              "<= 50");
    bench_row(&o, "collapse observe, W = 8, sigma 2 (ns/sample)", collapse_ns(v2, 8, 0), "ns",
              "<= 50");
    bench_row(&o, "collapse observe, W = 256, sigma 1 (ns/sample)", collapse_ns(v1, 256, 0),
              "ns", "<= 50");
    bench_row(&o, "collapse observe_ex, W = 8, sigma 1 (ns/sample)", collapse_ns(v1, 8, 1),
              "ns", "<= 50");
    bench_row(&o, "saturation observe, N = 64 (ns/sample)", saturation_ns(v1, 64), "ns",
              "O(1)");
    bench_row(&o, "saturation observe, N = 4096 (ns/sample)", saturation_ns(v1, 4096), "ns",
              "O(1)");
    bench_row(&o, "stability add, k = 5 (ns/mean)", stability_ns(v1), "ns", "");
    events_ns(&add_ns, &lb_ns, &found);
    bench_row(&o, "event log add, ring 1024 (ns/event)", add_ns, "ns", "");
    bench_row(&o, "event log lookback 5 ms (ns/query)", lb_ns, "ns", "");
    bench_row(&o, "event log lookback: events returned per query", found, "events", "");
    bench_row(&o, "correlation Pearson, n = 10000 (ns/pair)",
              correlation_ns(v1, v2, LLMM_CORRELATION_PEARSON), "ns", "");
    bench_row(&o, "correlation Spearman, n = 10000 (ns/pair)",
              correlation_ns(v1, v2, LLMM_CORRELATION_SPEARMAN), "ns", "");
    bench_end(&o);
    return 0;
}
