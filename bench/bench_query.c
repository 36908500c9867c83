/* Query benchmarks: five quantiles (and five ranks) on an unchanged sketch, which reuses the
 * cumulative view, against the first query after an add, which scans, and both against an
 * always-present baseline: the exact answer from a plain qsort of the same values plus
 * nearest-rank lookups. Log-normal latencies (median 200 ms, sigma 1 and 2, fixed seed),
 * calling through the shared library.
 *
 * The quantile levels change from call to call (64 sets of five, jittered around P50, P90,
 * P99, P99.9 and P99.99), so no answer is ever the previous call's. Timed figures are the best
 * of REPS rounds; the figures compared in a ratio are measured in alternating rounds of the
 * same run, so machine load shifts both alike.
 * Usage: bench_query [--json] [N] */
#include "bench_common.h"
#include "llmmetrics/llmmetrics.h"

#define REPS 25
#define CALLS 4000 /* queries per timed round */
#define NSETS 64

static double levels[NSETS][5];
static double probes[NSETS][5]; /* values for the rank queries */

static void make_levels(const double *sorted, size_t n)
{
    static const double base[5] = {0.5, 0.9, 0.99, 0.999, 0.9999};
    uint64_t x = 99;
    for (int j = 0; j < NSETS; j++) {
        for (int k = 0; k < 5; k++) {
            /* within +-10 % of the distance to 1: every set asks for other ranks */
            double tail = 1.0 - base[k];
            levels[j][k] = 1.0 - tail * (0.9 + 0.2 * bench_unit(&x));
            probes[j][k] = sorted[(size_t)(levels[j][k] * (double)(n - 1))];
        }
    }
}

static volatile double sink;

/* ns for one call of five quantiles (rank = 0) or five ranks (rank = 1); with `add`, a value
 * is added before each call (so each call is the first one after a change). */
static double query_round(llmm_sketch *s, const double *v, size_t n, int rank, int add)
{
    double out[5], t0, t1, acc = 0.0;
    t0 = bench_now();
    for (int i = 0; i < CALLS; i++) {
        const double *lv = levels[i % NSETS];
        if (add)
            llmm_sketch_add(s, v[(size_t)i % n]);
        if (rank) {
            for (int k = 0; k < 5; k++)
                llmm_sketch_rank(s, probes[i % NSETS][k], &out[k]);
        } else {
            llmm_sketch_quantiles(s, lv, 5, out);
        }
        acc += out[4];
    }
    t1 = bench_now();
    sink = acc;
    return (t1 - t0) * 1e9 / CALLS;
}

/* ns for five nearest-rank lookups on the sorted values (what an exact sorted view costs) */
static double sorted_round(const double *sorted, size_t n)
{
    double t0, t1, acc = 0.0;
    t0 = bench_now();
    for (int i = 0; i < CALLS; i++)
        for (int k = 0; k < 5; k++)
            acc += exact_q(sorted, n, levels[i % NSETS][k]);
    t1 = bench_now();
    sink = acc;
    return (t1 - t0) * 1e9 / CALLS;
}

/* ns for the exact baseline: copy, qsort, five nearest-rank lookups */
static double qsort_once(const double *v, double *sorted, size_t n)
{
    double t0, t1, acc = 0.0;
    t0 = bench_now();
    memcpy(sorted, v, n * sizeof *v);
    qsort(sorted, n, sizeof *v, cmp_dbl);
    for (int k = 0; k < 5; k++)
        acc += exact_q(sorted, n, levels[0][k]);
    t1 = bench_now();
    sink = acc;
    return (t1 - t0) * 1e9;
}

static void min_into(double *best, double t)
{
    if (t < *best)
        *best = t;
}

static void ratio_row(bench_out *o, const char *fig, double num, double den, const char *target)
{
    bench_row(o, fig, num / den, "x", target);
}

int main(int argc, char **argv)
{
    size_t n = 10000000;
    bench_out o;
    double *v, *sorted;
    char fig[160];
    bench_begin(&o, argc, argv, "query");
    n = bench_size_arg(argc, argv, n);
    v = malloc(n * sizeof *v);
    sorted = malloc(n * sizeof *v);
    if (!v || !sorted || n < 2)
        return 1;
    for (int sigma = 1; sigma <= 2; sigma++) {
        llmm_sketch *s;
        double first = 1e18, cached = 1e18, rfirst = 1e18, rcached = 1e18, exact = 1e18;
        double lookups = 1e18;
        bench_lognormal(v, n, 0.2, (double)sigma, 42 + (uint64_t)sigma);
        for (int rep = 0; rep < 3; rep++)
            min_into(&exact, qsort_once(v, sorted, n));
        make_levels(sorted, n);
        if (llmm_sketch_new(NULL, 6, &s) != LLMM_OK || llmm_sketch_add_many(s, v, n) != LLMM_OK)
            return 1;
        for (int rep = 0; rep < REPS; rep++) {
            min_into(&first, query_round(s, v, n, 0, 1));
            min_into(&cached, query_round(s, v, n, 0, 0));
            min_into(&rfirst, query_round(s, v, n, 1, 1));
            min_into(&rcached, query_round(s, v, n, 1, 0));
            min_into(&lookups, sorted_round(sorted, n));
        }
#define ROW(what, val, unit, target)                                                         \
    do {                                                                                     \
        snprintf(fig, sizeof fig, "sigma=%d %s", sigma, what);                               \
        bench_row(&o, fig, val, unit, target);                                               \
    } while (0)
#define RATIO(what, num, den, target)                                                        \
    do {                                                                                     \
        snprintf(fig, sizeof fig, "sigma=%d %s", sigma, what);                               \
        ratio_row(&o, fig, num, den, target);                                                \
    } while (0)
        ROW("exact baseline: qsort + 5 nearest-rank", exact, "ns", "");
        ROW("5 nearest-rank lookups on the sorted values", lookups, "ns", "");
        ROW("5 quantiles, first query after an add", first, "ns", "");
        ROW("5 quantiles, unchanged sketch (view)", cached, "ns", "");
        RATIO("5 quantiles: unchanged / first after an add", cached, first, "<= 0.2");
        RATIO("exact baseline / 5 quantiles first after an add", exact, first, "");
        RATIO("5 quantiles: unchanged / sorted lookups", cached, lookups, "");
        ROW("5 rank calls, first after an add", rfirst, "ns", "");
        ROW("5 rank calls, unchanged sketch", rcached, "ns", "");
        RATIO("5 rank calls: unchanged / first after an add", rcached, rfirst, "");
#undef ROW
#undef RATIO
        llmm_sketch_free(s);
    }
    bench_end(&o);
    free(v);
    free(sorted);
    return 0;
}
