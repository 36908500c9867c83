/* report_svg.c: `llmm report --svg DIR`: the latency percentile curves of every metric with
 * the --slo bounds, and the P99 of the watched metric over time with the spikes marked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/events.h"
#include "common/file.h"
#include "common/numbers.h"
#include "render/report.h"
#include "render/svg.h"

#define CURVE_POINTS 80
#define TIME_BINS_TARGET 60

/* The percentile axis: x = -log10(1 - q), so P90 = 1, P99 = 2, P99.9 = 3. */
static double nines(double q)
{
    return -log10(1.0 - q);
}

static int percentiles(const llmm_cli_report *r, const char *path, llmm_cli_error *err)
{
    static const double tq[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
    static const char *const tl[] = {"P50", "P90", "P99", "P99.9", "P99.99"};
    static const int slo_metric[3] = {LLMM_CLI_M_TTFT, LLMM_CLI_M_TPOT, LLMM_CLI_M_E2E};
    double q[CURVE_POINTS], x[CURVE_POINTS], y[LLMM_CLI_M_COUNT][CURVE_POINTS];
    double lo = INFINITY, hi = 0, tx[5];
    int have[LLMM_CLI_M_COUNT] = {0};
    llmm_cli_axis ax, ay;
    llmm_cli_plot p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < CURVE_POINTS; i++) {
        x[i] = nines(0.5) + (4.0 - nines(0.5)) * i / (CURVE_POINTS - 1);
        q[i] = 1.0 - pow(10.0, -x[i]);
    }
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        if (llmm_sketch_count(r->trace.sk[m]) == 0 ||
            llmm_sketch_quantiles(r->trace.sk[m], q, CURVE_POINTS, y[m]) != LLMM_OK)
            continue;
        have[m] = 1;
        for (int i = 0; i < CURVE_POINTS; i++) {
            y[m][i] *= 1000.0;
            if (y[m][i] > 0 && y[m][i] < lo)
                lo = y[m][i];
            if (y[m][i] > hi)
                hi = y[m][i];
        }
    }
    for (int k = 0; k < 3; k++) {
        double b = r->slo[k] * 1000.0;
        if (!isnan(b) && b > 0) {
            lo = b < lo ? b : lo;
            hi = b > hi ? b : hi;
        }
    }
    for (int i = 0; i < 5; i++)
        tx[i] = nines(tq[i]);
    llmm_cli_axis_linear(&ax, nines(0.5), 4.0, "percentile (log scale of 1 - q)");
    ax.lo = nines(0.5) - 0.05;
    ax.hi = 4.05;
    llmm_cli_axis_ticks(&ax, tx, tl, 5);
    llmm_cli_axis_log(&ay, lo, hi, "latency (ms, log scale)");
    p.legend_pos = 3;
    if (llmm_cli_plot_open(&p, path, "Latency percentiles",
                           "successful requests; dashed lines are the --slo bounds", &ax,
                           &ay) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        double mx[5], my[5];
        if (!have[m])
            continue;
        llmm_cli_plot_line(&p, x, y[m], CURVE_POINTS, llmm_cli_palette[m], 0,
                           llmm_cli_metric_label[m], "pct-curve");
        for (int i = 0; i < 5; i++) {
            mx[i] = tx[i];
            my[i] = NAN;
            if (llmm_sketch_quantile(r->trace.sk[m], tq[i], &my[i]) == LLMM_OK)
                my[i] *= 1000.0;
        }
        llmm_cli_plot_markers(&p, mx, my, 5, LLMM_CLI_SHAPE_CIRCLE, 3.5, llmm_cli_palette[m],
                              NULL, "pct-marker");
    }
    for (int k = 0; k < 3; k++) {
        char label[96];
        if (isnan(r->slo[k]))
            continue;
        snprintf(label, sizeof label, "%s SLO %g ms", llmm_cli_metric_label[slo_metric[k]],
                 r->slo[k] * 1000.0);
        llmm_cli_plot_hline(&p, r->slo[k] * 1000.0, llmm_cli_palette[slo_metric[k]], label,
                            "slo-line");
    }
    if (llmm_cli_plot_close(&p) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    return LLMM_CLI_OK;
}

static double nice_bin(double span)
{
    static const double steps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900,
                                   1800, 3600, 7200, 21600, 43200, 86400};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (span / steps[i] <= TIME_BINS_TARGET)
            return steps[i];
    return ceil(span / TIME_BINS_TARGET / 86400.0) * 86400.0;
}

static int over_time(const llmm_cli_report *r, const char *path, llmm_cli_error *err)
{
    const llmm_cli_spikes *sp = &r->spikes;
    const llmm_cli_trace *t = &r->trace;
    double *bx = NULL, *by = NULL, *sx = NULL, *sy = NULL, lo = INFINITY, hi = 0, bin;
    size_t nb = 0, ns[2] = {0, 0};
    char title[96], sub[160], ylabel[64], label[96];
    llmm_cli_axis ax, ay;
    llmm_cli_plot p;
    int rc;
    memset(&p, 0, sizeof p);
    if (t->tl.total == 0)
        return 1; /* nothing to draw */
    bin = nice_bin(t->tl.last_t);
    nb = (size_t)floor(t->tl.last_t / bin) + 1;
    if (!(bx = malloc(nb * sizeof *bx)) || !(by = malloc(nb * sizeof *by)) ||
        !(sx = malloc((sp->npts + 1) * sizeof *sx)) || !(sy = malloc((sp->npts + 1) * sizeof *sy)))
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    else
        rc = llmm_cli_timeline_binned(&t->tl, bin, 0.99, by, nb, err);
    if (rc != LLMM_CLI_OK) {
        free(bx);
        free(by);
        free(sx);
        free(sy);
        return rc;
    }
    for (size_t b = 0; b < nb; b++) { /* P99 per bin in ms, at the bin's middle */
        bx[b] = ((double)b + 0.5) * bin;
        by[b] *= 1000.0;
    }
    /* the y range: the binned P99 and the spikes */
    for (size_t i = 0; i < nb + sp->npts; i++) {
        double v = i < nb ? by[i] : sp->pts[i - nb].v * 1000.0;
        if (v > 0 && v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    snprintf(title, sizeof title, "%s P99 over time", llmm_cli_metric_label[r->watch]);
    snprintf(sub, sizeof sub, "P99 per %g s bin; spikes as classified by the spike detector "
                              "(%llu level 1, %llu level 2)",
             bin, (unsigned long long)sp->level1, (unsigned long long)sp->level2);
    snprintf(ylabel, sizeof ylabel, "%s (ms, log scale)", llmm_cli_metric_label[r->watch]);
    llmm_cli_axis_linear(&ax, 0, (double)nb * bin, "time since the first request (s)");
    llmm_cli_axis_log(&ay, lo, hi, ylabel);
    p.legend_pos = 3;
    if (llmm_cli_plot_open(&p, path, title, sub, &ax, &ay) != 0) {
        free(bx);
        free(by);
        free(sx);
        free(sy);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    }
    for (size_t i = 0; i < t->nev; i++) {
        const char *name = llmm_cli_event_name(t->ev[i].type);
        int first = 1;
        for (size_t j = 0; j < i; j++)
            if (t->ev[j].type == t->ev[i].type)
                first = 0;
        snprintf(label, sizeof label, "event %s", name ? name : "?");
        llmm_cli_plot_vline(&p, t->ev[i].t, "#7f7f7f", first ? label : NULL, "event-line");
    }
    snprintf(label, sizeof label, "P99 per %g s", bin);
    llmm_cli_plot_line(&p, bx, by, nb, llmm_cli_palette[0], 0, label, "p99-curve");
    for (int level = 1; level <= 2; level++) {
        size_t k = 0;
        for (size_t i = 0; i < sp->npts; i++)
            if (sp->pts[i].level == level) {
                sx[k] = sp->pts[i].t;
                sy[k] = sp->pts[i].v * 1000.0;
                k++;
            }
        ns[level - 1] = k;
        snprintf(label, sizeof label, "%s (%zu)",
                 level == 1 ? "spike (> P99 in force)" : "severe spike (> 1.2 x P99.9)",
                 k);
        llmm_cli_plot_markers(&p, sx, sy, k,
                              level == 1 ? LLMM_CLI_SHAPE_TRIANGLE : LLMM_CLI_SHAPE_DIAMOND,
                              level == 1 ? 3.5 : 5, level == 1 ? llmm_cli_palette[4] : "#d62728",
                              label, level == 1 ? "spike-marker spike-level1"
                                                : "spike-marker spike-level2");
    }
    free(bx);
    free(by);
    free(sx);
    free(sy);
    (void)ns;
    if (llmm_cli_plot_close(&p) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s", p.err.msg);
    return LLMM_CLI_OK;
}

int llmm_cli_report_svg(const llmm_cli_report *r, llmm_cli_error *err)
{
    FILE *names = r->files_out ? r->files_out : stderr;
    char path[4200];
    llmm_cli_error e;
    int rc = llmm_cli_path_in(r->svg_dir, "latency_percentiles.svg", path, sizeof path, &e);
    if (rc != LLMM_CLI_OK)
        return llmm_cli_fail(err, rc, "--svg: %s", e.msg);
    if ((rc = percentiles(r, path, err)) != LLMM_CLI_OK)
        return rc;
    fprintf(names, "llmm: wrote %s\n", path);
    llmm_cli_path_in(r->svg_dir, "p99_over_time.svg", path, sizeof path, &e);
    rc = over_time(r, path, err);
    if (rc == 1) {
        fprintf(names, "llmm: no P99-over-time chart: the inputs carry no request start "
                       "times\n");
        return LLMM_CLI_OK;
    }
    if (rc == LLMM_CLI_OK)
        fprintf(names, "llmm: wrote %s\n", path);
    return rc;
}
