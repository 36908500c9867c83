/* Sketch and recorder benchmarks: the figures of doc/spec.md §10 on log-normal latencies
 * (median 200 ms, sigma 1 and 2, fixed seed, 10 M values), calling through the shared library.
 * Every timed figure is the best of REPS runs (each on a fresh sketch or recorder): on a shared
 * machine the minimum is the figure least disturbed by other load.
 * Usage: bench_sketch [--json] [N] */
#include <pthread.h>

#include "bench_common.h"
#include "llmmetrics/llmmetrics.h"

/* counting allocator for heap figures */
typedef struct {
    size_t live, peak;
} counter;
static void *c_alloc(void *u, size_t n)
{
    counter *c = u;
    c->live += n;
    if (c->live > c->peak)
        c->peak = c->live;
    return malloc(n);
}
static void *c_realloc(void *u, void *p, size_t o, size_t n)
{
    counter *c = u;
    c->live += n - o;
    if (c->live > c->peak)
        c->peak = c->live;
    return realloc(p, n);
}
static void c_free(void *u, void *p, size_t n)
{
    ((counter *)u)->live -= n;
    free(p);
}

static const double QS[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
#define NQ (sizeof QS / sizeof *QS)

static double worst_err(const llmm_sketch *s, const double *sorted, size_t n)
{
    double worst = 0.0;
    for (size_t j = 0; j < NQ; j++) {
        double got, want = exact_q(sorted, n, QS[j]);
        llmm_sketch_quantile(s, QS[j], &got);
        if (fabs(got - want) / want > worst)
            worst = fabs(got - want) / want;
    }
    return worst;
}

typedef struct {
    llmm_recorder *rec;
    const double *v;
    size_t n;
    int batch;
} wr_arg;

static void *wr(void *p)
{
    wr_arg *a = p;
    llmm_shard *sh;
    llmm_recorder_shard(a->rec, &sh);
    if (a->batch) {
        for (size_t i = 0; i < a->n; i += 1024)
            llmm_shard_add_many(sh, a->v + i, a->n - i < 1024 ? a->n - i : 1024);
    } else {
        for (size_t i = 0; i < a->n; i++)
            llmm_shard_add(sh, a->v[i]);
    }
    llmm_shard_release(sh);
    return NULL;
}

#define REPS 5

static double recorder_once(const double *v, size_t n, int threads, int batch)
{
    llmm_recorder *rec;
    pthread_t th[8];
    wr_arg args[8];
    double t0, t1;
    size_t per = n / (size_t)threads;
    llmm_recorder_new(NULL, 6, &rec);
    t0 = bench_now();
    for (int t = 0; t < threads; t++) {
        args[t] = (wr_arg){rec, v + (size_t)t * per, per, batch};
        pthread_create(&th[t], NULL, wr, &args[t]);
    }
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    t1 = bench_now();
    llmm_recorder_free(rec);
    return (t1 - t0) * 1e9 / (double)(per * (size_t)threads);
}

/* Best of REPS rounds each, alternating: ns per value of shard_add (*single) and of
 * shard_add_many in batches of 1024 (*many), so machine load shifts both alike. */
static void recorder_pair(const double *v, size_t n, int threads, double *single, double *many)
{
    *single = *many = 1e9;
    for (int rep = 0; rep < REPS; rep++) {
        double a = recorder_once(v, n, threads, 0), b = recorder_once(v, n, threads, 1);
        *single = a < *single ? a : *single;
        *many = b < *many ? b : *many;
    }
}

/* The floor of any add: a plain running sum in a struct, `s->sum += v` (an add that counts
 * nothing). Best of REPS, ns per value. */
typedef struct {
    double sum;
} plain_sum;

static volatile double floor_sink; /* keeps the loop's result alive */

static double floor_ns(const double *v, size_t n)
{
    double best = 1e9;
    plain_sum *s = malloc(sizeof *s);
    for (int rep = 0; rep < REPS; rep++) {
        double t0, t1;
        s->sum = 0.0;
        t0 = bench_now();
        for (size_t i = 0; i < n; i++)
            s->sum += v[i];
        t1 = bench_now();
        floor_sink = s->sum;
        if ((t1 - t0) * 1e9 / (double)n < best)
            best = (t1 - t0) * 1e9 / (double)n;
    }
    free(s);
    return best;
}

/* Best of REPS: ns per value of llmm_sketch_add (batch 0) or add_many in calls of `batch`. */
static double add_ns(const double *v, size_t n, int scale, size_t batch)
{
    double best = 1e9;
    for (int rep = 0; rep < REPS; rep++) {
        llmm_sketch *s;
        double t0, t1;
        llmm_sketch_new(NULL, scale, &s);
        t0 = bench_now();
        if (batch == 0) {
            for (size_t i = 0; i < n; i++)
                llmm_sketch_add(s, v[i]);
        } else {
            for (size_t i = 0; i < n; i += batch)
                llmm_sketch_add_many(s, v + i, n - i < batch ? n - i : batch);
        }
        t1 = bench_now();
        if ((t1 - t0) * 1e9 / (double)n < best)
            best = (t1 - t0) * 1e9 / (double)n;
        llmm_sketch_free(s);
    }
    return best;
}

int main(int argc, char **argv)
{
    size_t n = 10000000;
    bench_out o;
    double *v = NULL, *sorted = NULL;
    char fig[128];
    bench_begin(&o, argc, argv, "sketch");
    n = bench_size_arg(argc, argv, n);
    v = malloc(n * sizeof *v);
    sorted = malloc(n * sizeof *v);
    if (!v || !sorted)
        return 1;
    for (int sigma = 1; sigma <= 2; sigma++) {
        bench_lognormal(v, n, 0.2, (double)sigma, 42 + (uint64_t)sigma);
        memcpy(sorted, v, n * sizeof *v);
        qsort(sorted, n, sizeof *v, cmp_dbl);
        for (int scale = 6; scale >= 5; scale--) {
            llmm_sketch *s, *m, *parts[16];
            llmm_allocator a;
            llmm_ctx *ctx;
            counter cnt = {0, 0};
            double t0, t1, best = 1e9, q5[5], qout[5] = {0}, add1, addf, addm;
            const double qs5[5] = {0.5, 0.9, 0.99, 0.999, 0.9999};
            llmm_allocator_init(&a);
            a.user = &cnt;
            a.alloc = c_alloc;
            a.realloc = c_realloc;
            a.free = c_free;
            llmm_ctx_new(&a, &ctx);
            cnt.live = cnt.peak = 0;
            llmm_sketch_new(ctx, scale, &s);
            for (size_t i = 0; i < n; i++)
                llmm_sketch_add(s, v[i]);
            snprintf(fig, sizeof fig, "sigma=%d scale=%d add", sigma, scale);
            add1 = add_ns(v, n, scale, 0);
            addf = floor_ns(v, n);
            bench_row(&o, fig, add1, "ns/value", scale == 6 ? "<= 3.5" : "");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d add floor: a plain s->sum += v loop", sigma,
                     scale);
            bench_row(&o, fig, addf, "ns/value", "");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d add / add floor", sigma, scale);
            bench_row(&o, fig, add1 / addf, "x", "");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d heap bytes (live / peak)", sigma, scale);
            bench_row(&o, fig, (double)cnt.live, "bytes", sigma == 1 ? "<= 8192" : "<= 16384");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d heap peak during growth", sigma, scale);
            bench_row(&o, fig, (double)cnt.peak, "bytes", "");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d worst rel. error P50..P99.99", sigma, scale);
            bench_row(&o, fig, worst_err(s, sorted, n) * 100, "%", scale == 6 ? "<= 0.542" : "<= 1.083");
            /* add_many */
            llmm_sketch_new(NULL, scale, &m);
            for (size_t i = 0; i < n; i += 4096)
                llmm_sketch_add_many(m, v + i, n - i < 4096 ? n - i : 4096);
            snprintf(fig, sizeof fig, "sigma=%d scale=%d add_many (4096 per call)", sigma, scale);
            addm = add_ns(v, n, scale, 4096);
            bench_row(&o, fig, addm, "ns/value", scale == 6 ? "<= 2.5" : "");
            snprintf(fig, sizeof fig, "sigma=%d scale=%d add_many / add floor", sigma, scale);
            bench_row(&o, fig, addm / addf, "x", "");
            /* five quantiles */
            for (int rep = 0; rep < 5; rep++) {
                t0 = bench_now();
                for (int k = 0; k < 10000; k++)
                    llmm_sketch_quantiles(s, qs5, 5, q5);
                t1 = bench_now();
                if ((t1 - t0) / 10000 < best)
                    best = (t1 - t0) / 10000;
            }
            qout[0] = q5[0];
            (void)qout;
            snprintf(fig, sizeof fig, "sigma=%d scale=%d five quantiles in one call", sigma, scale);
            bench_row(&o, fig, best * 1e9, "ns", scale == 6 ? "<= 1000" : "");
            /* merge of two full-range sketches (both hold the 10 M values) */
            best = 1e9;
            for (int rep = 0; rep < 200; rep++) {
                llmm_sketch *d;
                llmm_sketch_clone(s, &d);
                t0 = bench_now();
                llmm_sketch_merge(d, m);
                t1 = bench_now();
                if (t1 - t0 < best)
                    best = t1 - t0;
                llmm_sketch_free(d);
            }
            snprintf(fig, sizeof fig, "sigma=%d scale=%d merge", sigma, scale);
            bench_row(&o, fig, best * 1e9, "ns", scale == 6 ? "<= 2000" : "");
            /* accuracy after merging 16 partial sketches */
            {
                llmm_sketch *all;
                llmm_sketch_new(NULL, scale, &all);
                for (int p = 0; p < 16; p++) {
                    size_t lo = n * (size_t)p / 16, hi = n * (size_t)(p + 1) / 16;
                    llmm_sketch_new(NULL, scale, &parts[p]);
                    llmm_sketch_add_many(parts[p], v + lo, hi - lo);
                }
                for (int p = 15; p >= 0; p--) {
                    llmm_sketch_merge(all, parts[p]);
                    llmm_sketch_free(parts[p]);
                }
                snprintf(fig, sizeof fig, "sigma=%d scale=%d worst rel. error after 16-way merge",
                         sigma, scale);
                bench_row(&o, fig, worst_err(all, sorted, n) * 100, "%",
                          scale == 6 ? "<= 0.542" : "<= 1.083");
                llmm_sketch_free(all);
            }
            llmm_sketch_free(m);
            llmm_sketch_free(s);
            llmm_ctx_free(ctx);
        }
    }
    /* recorder: aggregate ns per value with 1 and 2 writer threads, single and batched */
    bench_lognormal(v, n, 0.2, 1.0, 43);
    for (int threads = 1; threads <= 2; threads++) {
        double single, many;
        recorder_pair(v, n, threads, &single, &many);
        snprintf(fig, sizeof fig, "recorder %d writer%s, shard_add%s", threads,
                 threads > 1 ? "s" : "", threads > 1 ? " (aggregate)" : "");
        bench_row(&o, fig, single, "ns/value", threads > 1 ? "<= 3" : "");
        snprintf(fig, sizeof fig, "recorder %d writer%s, shard_add_many%s", threads,
                 threads > 1 ? "s" : "", threads > 1 ? " (aggregate)" : "");
        bench_row(&o, fig, many, "ns/value", threads > 1 ? "<= 3" : "");
        snprintf(fig, sizeof fig, "recorder %d writer%s: shard_add_many / shard_add", threads,
                 threads > 1 ? "s" : "");
        bench_row(&o, fig, many / single, "x", "<= 1.0");
    }
    bench_end(&o);
    free(v);
    free(sorted);
    return 0;
}
