/* knee_svg.c: `llmm knee --svg`: QPS against concurrency with the fitted cubic and USL
 * curves and every knee estimate marked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "render/knee.h"
#include "render/svg.h"

#define CURVE_POINTS 200

static int has_knee(llmm_status st, const llmm_knee *k)
{
    return st == LLMM_OK && k->quality != LLMM_KNEE_NONE && isfinite(k->knee);
}

static void knee_mark(llmm_cli_plot *p, llmm_status st, const llmm_knee *k, const char *name,
                      llmm_cli_shape shape, const char *color)
{
    char label[96];
    if (!has_knee(st, k))
        return;
    snprintf(label, sizeof label, "%s knee N = %.1f (%s)", name, k->knee,
             llmm_cli_quality_name(k->quality));
    llmm_cli_plot_vline(p, k->knee, color, NULL, "knee-line");
    llmm_cli_plot_markers(p, &k->knee, &k->qps, 1, shape, 7, color, label, "knee-marker");
}

int llmm_cli_knee_svg(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *dir,
                      char *path, size_t cap, llmm_cli_error *err)
{
    llmm_cli_plot p;
    llmm_cli_axis ax, ay;
    double xmax = s->conc[s->n - 1], ymax = 0, cx[CURVE_POINTS], cy[CURVE_POINTS];
    double ux[CURVE_POINTS], uy[CURVE_POINTS];
    char sub[200];
    int usl = k->st_usl == LLMM_OK, peak;
    if (llmm_cli_path_in(dir, "qps_vs_concurrency.svg", path, cap, err) != LLMM_CLI_OK)
        return LLMM_CLI_EIO;
    peak = usl && isfinite(k->usl.n_max) && k->usl.n_max <= 3 * xmax;
    if (peak && k->usl.n_max > xmax)
        xmax = k->usl.n_max * 1.05;
    for (size_t i = 0; i < s->n; i++)
        if (s->qps[i] > ymax)
            ymax = s->qps[i];
    llmm_cli_axis_linear(&ax, 0, xmax, "concurrency N (requests in flight)");
    for (int i = 0; i < CURVE_POINTS; i++) {
        double t = (double)i / (CURVE_POINTS - 1);
        ux[i] = ax.hi * (0.005 + 0.995 * t); /* the model across the whole axis */
        uy[i] = NAN;
        if (usl && llmm_usl_throughput(&k->usl, ux[i], &uy[i]) != LLMM_OK)
            uy[i] = NAN;
        if (isfinite(uy[i]) && uy[i] > ymax && uy[i] < 10 * ymax)
            ymax = uy[i];
        cx[i] = cy[i] = NAN;
        if (k->has_cubic) {
            double a = s->conc[k->trim_lo], b = s->conc[k->trim_hi - 1];
            cx[i] = a + (b - a) * t;
            llmm_poly_eval(k->cubic, 3, cx[i], &cy[i]);
        }
    }
    llmm_cli_axis_linear(&ay, 0, ymax * 1.08, "throughput (QPS)");
    snprintf(sub, sizeof sub, "%zu concurrency levels from %zu rows; repeats averaged", s->n,
             s->rows);
    p.legend_pos = 2;
    if (llmm_cli_plot_open(&p, path, "Throughput vs concurrency: fits and knees", sub, &ax,
                           &ay) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    if (k->has_cubic)
        llmm_cli_plot_line(&p, cx, cy, CURVE_POINTS, llmm_cli_palette[4], 1,
                           "cubic fit (trimmed points)", "fit-cubic");
    if (usl) {
        char label[96];
        snprintf(label, sizeof label, "USL fit (R2 %.3f), extrapolated", k->usl.r2);
        llmm_cli_plot_line(&p, ux, uy, CURVE_POINTS, llmm_cli_palette[0], 0, label, "fit-usl");
    }
    llmm_cli_plot_markers(&p, s->conc, s->qps, s->n, LLMM_CLI_SHAPE_CIRCLE, 3.5, "#444444",
                          "measured QPS (mean per level)", "point");
    knee_mark(&p, k->st_inflection, &k->inflection, "cubic inflection", LLMM_CLI_SHAPE_DIAMOND,
              llmm_cli_palette[4]);
    knee_mark(&p, k->st_collapse, &k->collapse, "growth collapse", LLMM_CLI_SHAPE_TRIANGLE,
              llmm_cli_palette[1]);
    knee_mark(&p, k->st_kneedle, &k->kneedle, "kneedle", LLMM_CLI_SHAPE_SQUARE,
              llmm_cli_palette[2]);
    if (peak) {
        char label[96];
        snprintf(label, sizeof label, "USL peak N_max = %.0f (%s)", k->usl.n_max,
                 llmm_cli_quality_name(k->usl.quality));
        llmm_cli_plot_vline(&p, k->usl.n_max, llmm_cli_palette[0], NULL, "knee-line");
        llmm_cli_plot_markers(&p, &k->usl.n_max, &k->usl.x_max, 1, LLMM_CLI_SHAPE_CROSS, 7,
                              llmm_cli_palette[0], label, "knee-marker");
    }
    if (!isnan(k->slo_ms)) {
        char label[96];
        if (isfinite(k->slo_usl_n) && k->slo_usl_n > 0 && k->slo_usl_n <= ax.hi) {
            snprintf(label, sizeof label, "SLO %g ms: USL latency N = %g", k->slo_ms,
                     k->slo_usl_n);
            llmm_cli_plot_vline(&p, k->slo_usl_n, llmm_cli_palette[3], label, "slo-line");
        }
        if (k->slo_measured_n > 0) {
            snprintf(label, sizeof label, "SLO %g ms: measured P99 N = %g", k->slo_ms,
                     k->slo_measured_n);
            llmm_cli_plot_vline(&p, k->slo_measured_n, llmm_cli_palette[5], label, "slo-line");
        }
    }
    if (llmm_cli_plot_close(&p) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    return LLMM_CLI_OK;
}
