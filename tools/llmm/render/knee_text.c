/* knee_text.c: `llmm knee` as text: the estimators side by side, their definitions, the USL
 * fit and the SLO-constrained capacity (knee.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/knee.h"
#include "render/text.h"

static void knee_row(FILE *out, const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, int e,
                     const char *name, llmm_status st, const llmm_knee *kn, const char *support)
{
    char why[64];
    const char *need = llmm_cli_knee_short(s, k, e, st, why, sizeof why);
    if (st != LLMM_OK && !(st == LLMM_E_EMPTY && kn->quality == LLMM_KNEE_NONE)) {
        fprintf(out, "  %-18s %12s %12s  %-7s %-12s %s\n", name, "-", "-", "n/a", "-",
                need ? need : llmm_strerror(st));
        return;
    }
    if (kn->quality == LLMM_KNEE_NONE) {
        fprintf(out, "  %-18s %12s %12s  %-7s %-12s %s\n", name, "-", "-", "none", "-",
                "no knee inside the measured range");
        return;
    }
    fprintf(out, "  %-18s %12.2f %12.2f  %-7s %-12s %s %.4f\n", name, kn->knee, kn->qps,
            llmm_cli_quality_name(kn->quality), k->where[e], support, kn->strength);
}

/* "  NAME  text" with the text wrapped under itself. */
static void wrapped(FILE *out, const char *name, const char *text)
{
    llmm_cli_wrapped(out, 2, name, 20, text);
}

void llmm_cli_knee_text(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                         FILE *out)
{
    const llmm_usl *u = &k->usl;
    char buf[512];
    fprintf(out, "Load sweep %s: %zu rows, %zu concurrency levels (%g ... %g)%s%s\n", name,
            s->rows, s->n, s->conc[0], s->conc[s->n - 1],
            s->rows > s->n ? ", repeats averaged" : "", s->has_p99 ? ", with P99" : "");
    if (s->source[0])
        wrapped(out, "built from", s->source);
    fputc('\n', out);
    fprintf(out, "Knee estimators (QPS vs concurrency):\n");
    fprintf(out, "  %-18s %12s %12s  %-7s %-12s %s\n", "estimator", "knee N", "QPS there",
            "quality", "where", "support");
    knee_row(out, s, k, LLMM_CLI_KE_INFLECTION, "cubic inflection", k->st_inflection,
             &k->inflection, "R2");
    knee_row(out, s, k, LLMM_CLI_KE_COLLAPSE, "growth collapse", k->st_collapse, &k->collapse,
             "growth lost");
    knee_row(out, s, k, LLMM_CLI_KE_KNEEDLE, "kneedle", k->st_kneedle, &k->kneedle,
             "max difference");
    if (k->st_usl == LLMM_OK) {
        fprintf(out, "  %-18s %12.0f %12.2f  %-7s %-12s R2 %.4f\n", "USL peak N_max", u->n_max,
                u->x_max, llmm_cli_quality_name(u->quality), k->where[LLMM_CLI_KE_USL], u->r2);
    } else {
        const char *need = llmm_cli_knee_short(s, k, LLMM_CLI_KE_USL, k->st_usl, buf, sizeof buf);
        fprintf(out, "  %-18s %12s %12s  %-7s %-12s %s\n", "USL peak N_max", "-", "-", "n/a", "-",
                need ? need : llmm_strerror(k->st_usl));
    }
    fprintf(out, "\nDefinitions:\n");
    snprintf(buf, sizeof buf, "%s (trim %g)", llmm_cli_knee_def_inflection, k->opt.trim);
    wrapped(out, "cubic inflection", buf);
    snprintf(buf, sizeof buf, "%s (fraction %g, smoothing %s)", llmm_cli_knee_def_collapse,
             k->opt.collapse_fraction, k->opt.smooth ? "as given" : "auto");
    wrapped(out, "growth collapse", buf);
    snprintf(buf, sizeof buf, "%s (S = %g)", llmm_cli_knee_def_kneedle, k->opt.kneedle_sensitivity);
    wrapped(out, "kneedle", buf);
    wrapped(out, "USL", llmm_cli_knee_def_usl);
    wrapped(out, "quality", "ok: well supported; weak: an estimate the data support poorly; "
                            "none: no knee in the measured range");
    snprintf(buf, sizeof buf, "%s; measured levels %g ... %g", llmm_cli_knee_def_where, s->conc[0],
             s->conc[s->n - 1]);
    wrapped(out, "where", buf);
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
        wrapped(out, "definition", llmm_cli_knee_def_slo);
    }
}

