/* knee.c: every knee estimator and the USL fit on one sweep, side by side, with the
 * SLO-constrained capacity (knee.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/knee.h"

const char *const llmm_cli_knee_def_inflection =
    "inflection of a least-squares cubic after dropping the first and last trim share of the "
    "points: N* = -b/(3a), where the curvature changes sign (no queueing meaning)";
const char *const llmm_cli_knee_def_collapse =
    "first concurrency where the smoothed marginal gain dQPS/dN falls below the collapse "
    "fraction of its initial value";
const char *const llmm_cli_knee_def_kneedle =
    "Kneedle: the point of the min-max normalised curve farthest above its chord, confirmed "
    "when the difference then drops by S/(n-1)";
const char *const llmm_cli_knee_def_usl =
    "Universal Scalability Law X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)); peak at "
    "N_max = floor(sqrt((1-sigma)/kappa))";
const char *const llmm_cli_knee_def_slo =
    "largest concurrency whose USL latency N/X(N) (Little's law, a mean) meets the SLO; with a "
    "p99_ms column, also the largest measured concurrency up to which every P99 meets it";

const char *const llmm_cli_knee_def_where =
    "measured: at a level of the sweep; interpolated: between two measured levels (a level "
    "never run); extrapolated: outside the measured levels. The quality is the library's grade "
    "as documented (its USL rule accepts a peak up to twice the largest level)";

const char *llmm_cli_quality_name(llmm_knee_quality q)
{
    return q == LLMM_KNEE_OK ? "ok" : q == LLMM_KNEE_WEAK ? "weak" : "none";
}

static void cubic_for_plot(const llmm_cli_sweep *s, llmm_cli_knee_eval *k)
{
    size_t cut = (size_t)floor(k->opt.trim * (double)s->n);
    k->trim_lo = cut;
    k->trim_hi = s->n - cut;
    if (k->trim_hi > k->trim_lo + 3 &&
        llmm_polyfit(s->conc + cut, s->qps + cut, k->trim_hi - k->trim_lo, 3, k->cubic, NULL) ==
            LLMM_OK)
        k->has_cubic = 1;
}

static void slo_capacity(const llmm_cli_sweep *s, llmm_cli_knee_eval *k)
{
    k->slo_usl_n = k->slo_usl_x = k->slo_measured_n = k->slo_measured_qps = NAN;
    if (isnan(k->slo_ms))
        return;
    if (k->st_usl == LLMM_OK &&
        llmm_usl_slo_concurrency(&k->usl, k->slo_ms / 1000.0, &k->slo_usl_n) == LLMM_OK &&
        k->slo_usl_n >= 1 && isfinite(k->slo_usl_n))
        llmm_usl_throughput(&k->usl, k->slo_usl_n, &k->slo_usl_x);
    if (s->has_p99) {
        k->slo_measured_n = 0;
        for (size_t i = 0; i < s->n && s->p99_ms[i] <= k->slo_ms; i++) {
            k->slo_measured_n = s->conc[i];
            k->slo_measured_qps = s->qps[i];
        }
    }
}

const char *llmm_cli_knee_where(const llmm_cli_sweep *s, double n)
{
    double lo = s->conc[0], hi = s->conc[s->n - 1];
    if (!(n >= lo - 1e-12 * fabs(lo)) || !(n <= hi + 1e-12 * fabs(hi)))
        return "extrapolated";
    for (size_t i = 0; i < s->n; i++)
        if (fabs(n - s->conc[i]) <= 1e-9 * fabs(s->conc[i]))
            return "measured";
    return "interpolated";
}

/* The library's trim count (lib/fit/knee.c): trim x n, rounded down unless it is an integer
 * to 1e-9. */
static size_t trim_count(double trim, size_t n)
{
    double v = trim * (double)n, r = nearbyint(v);
    return fabs(v - r) <= 1e-9 * fmax(1.0, v) ? (size_t)r : (size_t)floor(v);
}

/* The fewest points each estimator takes (the library's rules: a cubic on at least 4 points
 * left after the trim; the collapse's smoothing window and one more gain; Kneedle 3; the USL
 * 6). */
static void needs(llmm_cli_knee_eval *k)
{
    size_t n;
    for (n = 4; n < 100000 && n - 2 * trim_count(k->opt.trim, n) < 4; n++)
        ;
    k->need[LLMM_CLI_KE_INFLECTION] = n;
    for (n = 3; n < 100000; n++) {
        size_t h = k->opt.smooth ? k->opt.smooth / 2 : (n - 1) / 40;
        if (n - 1 >= 2 * h + 2)
            break;
    }
    k->need[LLMM_CLI_KE_COLLAPSE] = n;
    k->need[LLMM_CLI_KE_KNEEDLE] = 3;
    k->need[LLMM_CLI_KE_USL] = 6;
}

const char *llmm_cli_knee_short(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, int e,
                                llmm_status st, char *buf, size_t cap)
{
    if (st != LLMM_E_INVALID || s->n >= k->need[e])
        return NULL;
    snprintf(buf, cap, "needs >= %zu points (has %zu)", k->need[e], s->n);
    return buf;
}

/* Where each knee lies, NULL when there is none. */
static void places(const llmm_cli_sweep *s, llmm_cli_knee_eval *k)
{
    const llmm_knee *kn[3] = {&k->inflection, &k->collapse, &k->kneedle};
    const llmm_status st[3] = {k->st_inflection, k->st_collapse, k->st_kneedle};
    for (int e = 0; e < 3; e++)
        if (st[e] == LLMM_OK && kn[e]->quality != LLMM_KNEE_NONE)
            k->where[e] = llmm_cli_knee_where(s, kn[e]->knee);
    if (k->st_usl == LLMM_OK)
        k->where[LLMM_CLI_KE_USL] = llmm_cli_knee_where(s, k->usl.n_max);
}

int llmm_cli_knee_run(const llmm_cli_sweep *s, const llmm_knee_options *opt, double slo_ms,
                      llmm_cli_knee_eval *k, llmm_cli_error *err)
{
    memset(k, 0, sizeof *k);
    if (opt)
        k->opt = *opt;
    else
        llmm_knee_options_init(&k->opt);
    llmm_knee_init(&k->inflection);
    llmm_knee_init(&k->collapse);
    llmm_knee_init(&k->kneedle);
    llmm_usl_init(&k->usl);
    k->slo_ms = slo_ms;
    /* Each estimator on its own, so that one refusing the data (too few points for its
     * smoothing width, say) does not hide the others. */
    k->st_inflection = llmm_knee_inflection_ex(s->conc, s->qps, s->n, k->opt.trim,
                                               &k->inflection);
    k->st_collapse = llmm_knee_collapse(s->conc, s->qps, s->n, k->opt.collapse_fraction,
                                        k->opt.smooth, &k->collapse);
    k->st_kneedle = llmm_knee_kneedle(s->conc, s->qps, s->n, k->opt.kneedle_sensitivity,
                                      &k->kneedle);
    k->st_usl = llmm_usl_fit(s->conc, s->qps, s->n, &k->usl);
    if (k->st_inflection == LLMM_E_RANGE || k->st_collapse == LLMM_E_RANGE ||
        k->st_kneedle == LLMM_E_RANGE)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "an estimator option is out of range");
    cubic_for_plot(s, k);
    slo_capacity(s, k);
    needs(k);
    places(s, k);
    return LLMM_CLI_OK;
}
