/* knee_eval.c: every knee estimator and the USL fit on one sweep, side by side, with the
 * SLO-constrained capacity; the text and JSON renderings of `llmm knee`. */
#include <math.h>
#include <string.h>

#include "jsonw.h"
#include "sweep.h"

static const char *const def_inflection =
    "inflection of a least-squares cubic after dropping the first and last trim share of the "
    "points: N* = -b/(3a), where the curvature changes sign (no queueing meaning)";
static const char *const def_collapse =
    "first concurrency where the smoothed marginal gain dQPS/dN falls below the collapse "
    "fraction of its initial value";
static const char *const def_kneedle =
    "Kneedle: the point of the min-max normalised curve farthest above its chord, confirmed "
    "when the difference then drops by S/(n-1)";
static const char *const def_usl =
    "Universal Scalability Law X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)); peak at "
    "N_max = floor(sqrt((1-sigma)/kappa))";
static const char *const def_slo =
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

/* ---- text ------------------------------------------------------------------------------- */

static void knee_row(FILE *out, const char *name, llmm_status st, const llmm_knee *kn,
                     const char *support)
{
    if (st != LLMM_OK && !(st == LLMM_E_EMPTY && kn->quality == LLMM_KNEE_NONE)) {
        fprintf(out, "  %-18s %12s %12s  %-7s %s\n", name, "-", "-", "n/a", llmm_strerror(st));
        return;
    }
    if (kn->quality == LLMM_KNEE_NONE) {
        fprintf(out, "  %-18s %12s %12s  %-7s %s\n", name, "-", "-", "none",
                "no knee inside the measured range");
        return;
    }
    fprintf(out, "  %-18s %12.2f %12.2f  %-7s %s %.4f\n", name, kn->knee, kn->qps,
            llmm_cli_quality_name(kn->quality), support, kn->strength);
}

/* "  NAME  text" with the text wrapped at 96 columns under itself. */
static void wrapped(FILE *out, const char *name, const char *text)
{
    const size_t indent = 20, width = 96;
    size_t col = indent;
    fprintf(out, "  %-17s ", name);
    while (*text) {
        size_t w = strcspn(text, " ");
        if (col > indent && col + 1 + w > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, w, out);
        col += w;
        text += w;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

void llmm_cli_knee_print(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                         FILE *out)
{
    const llmm_usl *u = &k->usl;
    char buf[512];
    fprintf(out, "Load sweep %s: %zu rows, %zu concurrency levels (%g ... %g)%s%s\n\n", name,
            s->rows, s->n, s->conc[0], s->conc[s->n - 1],
            s->rows > s->n ? ", repeats averaged" : "", s->has_p99 ? ", with P99" : "");
    fprintf(out, "Knee estimators (QPS vs concurrency):\n");
    fprintf(out, "  %-18s %12s %12s  %-7s %s\n", "estimator", "knee N", "QPS there", "quality",
            "support");
    knee_row(out, "cubic inflection", k->st_inflection, &k->inflection, "R2");
    knee_row(out, "growth collapse", k->st_collapse, &k->collapse, "growth lost");
    knee_row(out, "kneedle", k->st_kneedle, &k->kneedle, "max difference");
    if (k->st_usl == LLMM_OK)
        fprintf(out, "  %-18s %12.0f %12.2f  %-7s R2 %.4f\n", "USL peak N_max", u->n_max,
                u->x_max, llmm_cli_quality_name(u->quality), u->r2);
    else
        fprintf(out, "  %-18s %12s %12s  %-7s %s\n", "USL peak N_max", "-", "-", "n/a",
                llmm_strerror(k->st_usl));
    fprintf(out, "\nDefinitions:\n");
    snprintf(buf, sizeof buf, "%s (trim %g)", def_inflection, k->opt.trim);
    wrapped(out, "cubic inflection", buf);
    snprintf(buf, sizeof buf, "%s (fraction %g, smoothing %s)", def_collapse,
             k->opt.collapse_fraction, k->opt.smooth ? "as given" : "auto");
    wrapped(out, "growth collapse", buf);
    snprintf(buf, sizeof buf, "%s (S = %g)", def_kneedle, k->opt.kneedle_sensitivity);
    wrapped(out, "kneedle", buf);
    wrapped(out, "USL", def_usl);
    wrapped(out, "quality", "ok: well supported; weak: an estimate the data support poorly; "
                            "none: no knee in the measured range");
    if (k->st_usl == LLMM_OK)
        fprintf(out, "\nUSL fit: lambda = %.6g QPS, sigma = %.6g, kappa = %.6g%s, R2 = %.6f, "
                     "%u iterations\n",
                u->lambda, u->sigma, u->kappa, u->kappa_at_bound ? " (held at 0)" : "", u->r2,
                u->iterations);
    if (!isnan(k->slo_ms)) {
        fprintf(out, "\nSLO-constrained capacity (latency <= %g ms):\n", k->slo_ms);
        if (k->st_usl != LLMM_OK)
            fprintf(out, "  USL latency N/X(N): no model\n");
        else if (isinf(k->slo_usl_n))
            fprintf(out, "  USL latency N/X(N): never exceeds the SLO (no bound)\n");
        else if (k->slo_usl_n < 1)
            fprintf(out, "  USL latency N/X(N): even N = 1 misses the SLO\n");
        else
            fprintf(out, "  USL latency N/X(N): N = %.0f at %.2f QPS\n", k->slo_usl_n,
                    k->slo_usl_x);
        if (s->has_p99) {
            if (k->slo_measured_n > 0)
                fprintf(out, "  measured P99:       N = %g at %.2f QPS\n", k->slo_measured_n,
                        k->slo_measured_qps);
            else
                fprintf(out, "  measured P99:       no measured concurrency meets it\n");
        }
        wrapped(out, "definition", def_slo);
    }
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void knee_json(llmm_cli_jw *w, const char *key, const char *def, llmm_status st,
                      const llmm_knee *kn, const char *strength)
{
    llmm_cli_jw_key(w, key);
    llmm_cli_jw_map(w);
    llmm_cli_jw_key(w, "definition");
    llmm_cli_jw_str(w, def);
    llmm_cli_jw_key(w, "status");
    llmm_cli_jw_str(w, st == LLMM_OK || st == LLMM_E_EMPTY ? "ok" : llmm_strerror(st));
    llmm_cli_jw_key(w, "quality");
    llmm_cli_jw_str(w, llmm_cli_quality_name(kn->quality));
    llmm_cli_jw_kv(w, "knee", kn->knee);
    llmm_cli_jw_kv(w, "qps", kn->qps);
    llmm_cli_jw_kv(w, "strength", kn->strength);
    llmm_cli_jw_key(w, "strength_is");
    llmm_cli_jw_str(w, strength);
    llmm_cli_jw_map_end(w);
}

int llmm_cli_knee_json(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                       FILE *out)
{
    llmm_cli_jw w;
    const llmm_usl *u = &k->usl;
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_key(&w, "input");
    llmm_cli_jw_map(&w);
    llmm_cli_jw_key(&w, "file");
    llmm_cli_jw_str(&w, name);
    llmm_cli_jw_key(&w, "rows");
    llmm_cli_jw_u64(&w, s->rows);
    llmm_cli_jw_key(&w, "points");
    llmm_cli_jw_u64(&w, s->n);
    llmm_cli_jw_key(&w, "has_p99");
    llmm_cli_jw_bool(&w, s->has_p99);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_key(&w, "options");
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv(&w, "trim", k->opt.trim);
    llmm_cli_jw_kv(&w, "collapse_fraction", k->opt.collapse_fraction);
    llmm_cli_jw_kv(&w, "smooth", k->opt.smooth);
    llmm_cli_jw_kv(&w, "kneedle_sensitivity", k->opt.kneedle_sensitivity);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_key(&w, "estimators");
    llmm_cli_jw_map(&w);
    knee_json(&w, "inflection", def_inflection, k->st_inflection, &k->inflection,
              "R2 of the cubic");
    knee_json(&w, "collapse", def_collapse, k->st_collapse, &k->collapse,
              "share of the initial growth lost after the knee");
    knee_json(&w, "kneedle", def_kneedle, k->st_kneedle, &k->kneedle,
              "largest normalised difference above the chord");
    llmm_cli_jw_key(&w, "usl");
    llmm_cli_jw_map(&w);
    llmm_cli_jw_key(&w, "definition");
    llmm_cli_jw_str(&w, def_usl);
    llmm_cli_jw_key(&w, "status");
    llmm_cli_jw_str(&w, k->st_usl == LLMM_OK ? "ok" : llmm_strerror(k->st_usl));
    llmm_cli_jw_key(&w, "quality");
    llmm_cli_jw_str(&w, llmm_cli_quality_name(u->quality));
    llmm_cli_jw_kv(&w, "lambda", u->lambda);
    llmm_cli_jw_kv(&w, "sigma", u->sigma);
    llmm_cli_jw_kv(&w, "kappa", u->kappa);
    llmm_cli_jw_kv(&w, "n_max", u->n_max);
    llmm_cli_jw_kv(&w, "x_max", u->x_max);
    llmm_cli_jw_kv(&w, "r2", u->r2);
    llmm_cli_jw_kv(&w, "rss", u->rss);
    llmm_cli_jw_kv(&w, "iterations", u->iterations);
    llmm_cli_jw_key(&w, "kappa_at_bound");
    llmm_cli_jw_bool(&w, u->kappa_at_bound);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_key(&w, "slo");
    if (isnan(k->slo_ms)) {
        llmm_cli_jw_null(&w);
    } else {
        llmm_cli_jw_map(&w);
        llmm_cli_jw_key(&w, "definition");
        llmm_cli_jw_str(&w, def_slo);
        llmm_cli_jw_kv(&w, "slo_ms", k->slo_ms);
        llmm_cli_jw_kv(&w, "usl_concurrency", k->slo_usl_n);
        llmm_cli_jw_key(&w, "usl_unbounded");
        llmm_cli_jw_bool(&w, isinf(k->slo_usl_n));
        llmm_cli_jw_kv(&w, "usl_qps", k->slo_usl_x);
        llmm_cli_jw_kv(&w, "measured_concurrency", k->slo_measured_n);
        llmm_cli_jw_kv(&w, "measured_qps", k->slo_measured_qps);
        llmm_cli_jw_map_end(&w);
    }
    llmm_cli_jw_key(&w, "points");
    llmm_cli_jw_arr(&w);
    for (size_t i = 0; i < s->n; i++) {
        llmm_cli_jw_map(&w);
        llmm_cli_jw_kv(&w, "concurrency", s->conc[i]);
        llmm_cli_jw_kv(&w, "qps", s->qps[i]);
        if (s->has_p99)
            llmm_cli_jw_kv(&w, "p99_ms", s->p99_ms[i]);
        llmm_cli_jw_map_end(&w);
    }
    llmm_cli_jw_arr_end(&w);
    llmm_cli_jw_map_end(&w);
    if (llmm_cli_jw_finish(&w, out) != 0)
        return LLMM_CLI_EIO;
    fputc('\n', out);
    return LLMM_CLI_OK;
}
