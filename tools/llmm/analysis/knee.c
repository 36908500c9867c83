/* knee.c: every knee estimator and the USL fit on one sweep, side by side, with the
 * SLO-constrained capacity (knee.h). */
#include <math.h>
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
    return LLMM_CLI_OK;
}
