/* compare_svg.c: `llmm compare --svg DIR`: the latencies of every run as grouped bars, and
 * P99 latency against throughput, a point per run (compare.h). */
#include <math.h>
#include <string.h>

#include "common/file.h"
#include "render/compare.h"
#include "render/svg.h"

#define NGROUPS (LLMM_CLI_CMP_NM * LLMM_CLI_CMP_NQ)

/* A bar per run in each group (TTFT P50 ... E2E P99.9), on a log axis of milliseconds. */
static int bars(const llmm_cli_compare *c, const char *path, llmm_cli_error *err)
{
    llmm_cli_plot p;
    llmm_cli_axis ax, ay;
    double lo = INFINITY, hi = 0, at[NGROUPS];
    char labels[NGROUPS][24];
    const char *lp[NGROUPS];
    for (size_t i = 0; i < c->n; i++)
        for (int m = 0; m < LLMM_CLI_CMP_NM; m++)
            for (int q = 0; q < LLMM_CLI_CMP_NQ; q++) {
                double v = 1e3 * c->runs[i].lat[m][q];
                if (v > 0 && isfinite(v)) {
                    lo = v < lo ? v : lo;
                    hi = v > hi ? v : hi;
                }
            }
    if (!(hi > 0)) /* nothing measured: an empty chart that says so */
        lo = 1, hi = 10;
    for (int g = 0; g < NGROUPS; g++) {
        snprintf(labels[g], sizeof labels[g], "%s %s",
                 llmm_cli_metric_label[llmm_cli_cmp_metric[g / LLMM_CLI_CMP_NQ]],
                 llmm_cli_cmp_q_label[g % LLMM_CLI_CMP_NQ]);
        at[g] = g + 0.5;
        lp[g] = labels[g];
    }
    llmm_cli_axis_linear(&ax, 0, NGROUPS, "latency and quantile");
    llmm_cli_axis_ticks(&ax, at, lp, NGROUPS);
    llmm_cli_axis_log(&ay, lo / 1.5, hi * 1.5, "latency (ms, log scale)");
    p.legend_pos = 3;
    if (llmm_cli_plot_open(&p, path, "Latency by run", "nearest-rank percentiles; a bar per run",
                           &ax, &ay) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot create", path);
    for (size_t i = 0; i < c->n; i++) {
        double w = 0.8 / (double)c->n;
        char name[128];
        const char *color = llmm_cli_palette[i % 8];
        llmm_cli_cmp_run_name(&c->runs[i], name, sizeof name);
        for (int g = 0; g < NGROUPS; g++) {
            double x0 = g + 0.1 + w * (double)i;
            llmm_cli_plot_bar(&p, x0, x0 + w * 0.9,
                              1e3 * c->runs[i].lat[g / LLMM_CLI_CMP_NQ][g % LLMM_CLI_CMP_NQ],
                              color, g == 0 ? name : NULL, "run-bar");
        }
    }
    if (llmm_cli_plot_close(&p) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: write error", path);
    return LLMM_CLI_OK;
}

/* P99 TTFT and E2E against request throughput, each run named at its point. */
static int scatter(const llmm_cli_compare *c, const char *path, llmm_cli_error *err)
{
    llmm_cli_plot p;
    llmm_cli_axis ax, ay;
    double xmax = 0, ymax = 0;
    for (size_t i = 0; i < c->n; i++) {
        double x = c->runs[i].sum.req_per_s, y = 1e3 * c->runs[i].lat[2][1];
        double t = 1e3 * c->runs[i].lat[0][1];
        xmax = x > xmax ? x : xmax;
        ymax = y > ymax ? y : ymax;
        ymax = t > ymax ? t : ymax;
    }
    llmm_cli_axis_linear(&ax, 0, xmax > 0 ? xmax * 1.1 : 1, "throughput (completed requests/s)");
    llmm_cli_axis_linear(&ay, 0, ymax > 0 ? ymax * 1.1 : 1, "P99 latency (ms)");
    p.legend_pos = 1;
    if (llmm_cli_plot_open(&p, path, "P99 latency vs throughput", "a point per run", &ax,
                           &ay) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot create", path);
    for (size_t i = 0; i < c->n; i++) {
        const llmm_cli_cmp_run *r = &c->runs[i];
        double x = r->sum.req_per_s, e2e = 1e3 * r->lat[2][1], ttft = 1e3 * r->lat[0][1];
        char name[128];
        llmm_cli_cmp_run_name(r, name, sizeof name);
        llmm_cli_plot_markers(&p, &x, &e2e, 1, LLMM_CLI_SHAPE_CIRCLE, 5, llmm_cli_palette[0],
                              i == 0 ? "E2E P99" : NULL, "point-e2e");
        llmm_cli_plot_markers(&p, &x, &ttft, 1, LLMM_CLI_SHAPE_DIAMOND, 5, llmm_cli_palette[1],
                              i == 0 ? "TTFT P99" : NULL, "point-ttft");
        llmm_cli_plot_note(&p, x, isfinite(e2e) ? e2e : ttft, name, "#444444");
    }
    if (llmm_cli_plot_close(&p) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: write error", path);
    return LLMM_CLI_OK;
}

int llmm_cli_compare_svg(const llmm_cli_compare *c, const char *dir, FILE *files_out,
                         llmm_cli_error *err)
{
    static const char *const names[2] = {"compare_latency.svg", "compare_p99_vs_throughput.svg"};
    for (int k = 0; k < 2; k++) {
        char path[4200];
        int rc = llmm_cli_path_in(dir, names[k], path, sizeof path, err);
        if (rc == LLMM_CLI_OK)
            rc = k == 0 ? bars(c, path, err) : scatter(c, path, err);
        if (rc != LLMM_CLI_OK)
            return rc;
        fprintf(files_out, "wrote %s\n", path);
    }
    return LLMM_CLI_OK;
}
