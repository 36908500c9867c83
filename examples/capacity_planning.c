/* capacity_planning: from a load sweep to a capacity number.
 *
 * A QPS-vs-concurrency sweep (here simulated from a Universal Scalability Law curve with 2 %
 * noise, fixed seed) goes through every knee estimator and a USL fit side by side; the USL
 * model then gives the largest concurrency that meets a latency SLO, and Little's law turns
 * the P99.9 latency measured at that load (a sketch) into a sustainable tokens-per-second
 * figure. Public API only. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        llmm_status st_ = (call);                                                            \
        if (st_ != LLMM_OK) {                                                                \
            fprintf(stderr, "%s: %s\n", #call, llmm_strerror(st_));                          \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

static uint64_t rng_state = 42;
static double uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((double)((rng_state * UINT64_C(2685821657736338717)) >> 11) + 0.5) / 9007199254740992.0;
}
static double gaussian(void)
{
    return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform());
}

static const char *quality(llmm_knee_quality q)
{
    return q == LLMM_KNEE_OK ? "ok" : q == LLMM_KNEE_WEAK ? "weak" : "none";
}

int main(void)
{
    enum { N = 64 };
    double conc[N], qps[N];
    /* the "true" system: lambda 12 req/s per slot, sigma 0.02, kappa 0.0001 */
    const double lambda = 12.0, sigma = 0.02, kappa = 0.0001;
    llmm_knee infl, coll, kneedle;
    llmm_usl usl;
    double n_slo, x_slo, lat, p999, tps, eta;
    llmm_sketch *latency = NULL;

    for (int i = 0; i < N; i++) {
        double n = 4.0 * (i + 1);
        conc[i] = n;
        qps[i] = lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0)) *
                 (1.0 + 0.02 * gaussian());
    }
    CHECK(llmm_knee_init(&infl));
    CHECK(llmm_knee_init(&coll));
    CHECK(llmm_knee_init(&kneedle));
    CHECK(llmm_usl_init(&usl));
    CHECK(llmm_knee_report(conc, qps, N, NULL, &infl, &coll, &kneedle, &usl));

    printf("sweep: %d points, concurrency %g..%g\n\n", N, conc[0], conc[N - 1]);
    printf("%-28s %10s %10s  %s\n", "estimator", "knee", "qps", "quality");
    printf("%-28s %10.1f %10.1f  %s\n", "cubic inflection (trim 10%)", infl.knee, infl.qps,
           quality(infl.quality));
    printf("%-28s %10.1f %10.1f  %s\n", "growth collapse", coll.knee, coll.qps,
           quality(coll.quality));
    printf("%-28s %10.1f %10.1f  %s\n", "Kneedle (S = 1)", kneedle.knee, kneedle.qps,
           quality(kneedle.quality));
    printf("%-28s %10.1f %10.1f  %s\n", "USL peak N_max", usl.n_max, usl.x_max,
           quality(usl.quality));
    printf("\nUSL fit: lambda %.3f  sigma %.4f  kappa %.6f  R^2 %.4f (true: %g %g %g)\n",
           usl.lambda, usl.sigma, usl.kappa, usl.r2, lambda, sigma, kappa);

    /* the largest concurrency whose USL latency N / X(N) stays within 0.4 s */
    CHECK(llmm_usl_slo_concurrency(&usl, 0.4, &n_slo));
    CHECK(llmm_usl_throughput(&usl, n_slo, &x_slo));
    CHECK(llmm_usl_latency(&usl, n_slo, &lat));
    printf("SLO mean latency <= 0.4 s: up to N = %.0f in flight, %.1f req/s, latency %.3f s\n",
           n_slo, x_slo, lat);

    /* latencies measured at that load (simulated: log-normal around the USL latency) */
    CHECK(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &latency));
    for (int i = 0; i < 100000; i++)
        CHECK(llmm_sketch_add(latency, lat * exp(0.35 * gaussian())));
    CHECK(llmm_sketch_quantile(latency, 0.999, &p999));
    CHECK(llmm_littles_law_tps(p999 * 1000.0, n_slo, 0 /* default safety 0.85 */, &tps));
    printf("P99.9 at that load %.3f s -> Little's-law capacity %.1f req/s (safety 0.85)\n",
           p999, tps);
    CHECK(llmm_decay_rate(qps[N - 1], usl.x_max, &eta));
    printf("throughput decay at N = %g against the USL peak: %.1f %%\n", conc[N - 1], eta * 100);
    llmm_sketch_free(latency);
    return 0;
}
