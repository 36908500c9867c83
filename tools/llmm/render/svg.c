/* svg.c: the SVG plot writer of svg.h. Coordinates are written with two decimals; data
 * outside the axis range is clipped by a clipPath on the plot area. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/svg.h"

const char *const llmm_cli_palette[8] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                         "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* ---- axes ------------------------------------------------------------------------------- */

static double nice_step(double span, double target)
{
    double raw = span / target, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    double s = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0;
    return s * mag;
}

static void tick_text(char *buf, size_t cap, double v, double step)
{
    double a = fabs(v);
    int dec = 0;
    if (a != 0 && (a >= 1e7 || a < 1e-4)) {
        snprintf(buf, cap, "%.3g", v);
        return;
    }
    while (dec < 8 && fabs(step * pow(10.0, dec) - round(step * pow(10.0, dec))) > 1e-6)
        dec++;
    if (fabs(v) < step * 1e-9)
        v = 0;
    snprintf(buf, cap, "%.*f", dec, v);
}

void llmm_cli_axis_linear(llmm_cli_axis *a, double lo, double hi, const char *label)
{
    double step;
    memset(a, 0, sizeof *a);
    a->label = label;
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    if (hi < lo) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (hi - lo <= fabs(hi) * 1e-12) {
        double d = lo == 0 ? 1.0 : fabs(lo) * 0.1;
        lo -= d;
        hi += d;
    }
    step = nice_step(hi - lo, 6.0);
    a->lo = floor(lo / step + 1e-9) * step;
    a->hi = ceil(hi / step - 1e-9) * step;
    for (double t = a->lo; t <= a->hi + step * 1e-6 && a->nticks < LLMM_CLI_SVG_TICKS_MAX;
         t += step) {
        a->tick[a->nticks] = t;
        tick_text(a->tick_label[a->nticks], sizeof a->tick_label[0], t, step);
        a->nticks++;
    }
}

void llmm_cli_axis_log(llmm_cli_axis *a, double lo, double hi, const char *label)
{
    double e0, e1;
    static const double mult[3] = {1, 2, 5};
    memset(a, 0, sizeof *a);
    a->label = label;
    a->log = 1;
    if (!(lo > 0) || !isfinite(lo))
        lo = hi > 0 && isfinite(hi) ? hi / 10 : 1;
    if (!(hi > lo) || !isfinite(hi))
        hi = lo * 10;
    e0 = floor(log10(lo) + 1e-9);
    e1 = ceil(log10(hi) - 1e-9);
    if (e1 <= e0)
        e1 = e0 + 1;
    a->lo = pow(10.0, e0);
    a->hi = pow(10.0, e1);
    for (double e = e0; e <= e1 + 0.5 && a->nticks < LLMM_CLI_SVG_TICKS_MAX; e += 1) {
        for (int k = 0; k < 3; k++) {
            double t = mult[k] * pow(10.0, e);
            if ((k > 0 && e1 - e0 > 3) || t > a->hi * (1 + 1e-9) ||
                a->nticks == LLMM_CLI_SVG_TICKS_MAX)
                continue;
            a->tick[a->nticks] = t;
            snprintf(a->tick_label[a->nticks], sizeof a->tick_label[0], "%g", t);
            a->nticks++;
        }
    }
}

void llmm_cli_axis_ticks(llmm_cli_axis *a, const double *at, const char *const *labels,
                         size_t n)
{
    if (n > LLMM_CLI_SVG_TICKS_MAX)
        n = LLMM_CLI_SVG_TICKS_MAX;
    for (size_t i = 0; i < n; i++) {
        a->tick[i] = at[i];
        snprintf(a->tick_label[i], sizeof a->tick_label[0], "%s", labels[i]);
    }
    a->nticks = n;
}

/* ---- coordinates -------------------------------------------------------------------------- */

static double frac(const llmm_cli_axis *a, double v)
{
    if (a->log)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static double sx(const llmm_cli_plot *p, double v)
{
    return p->px0 + frac(&p->x, v) * (p->px1 - p->px0);
}

static double sy(const llmm_cli_plot *p, double v)
{
    return p->py1 - frac(&p->y, v) * (p->py1 - p->py0);
}

static int drawable(const llmm_cli_plot *p, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!p->x.log || x > 0) && (!p->y.log || y > 0);
}

/* s as XML text: the markup characters as entities, control characters dropped. */
static void text_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *entity = *s == '<'   ? "&lt;"
                             : *s == '>' ? "&gt;"
                             : *s == '&' ? "&amp;"
                             : *s == '"' ? "&quot;"
                                         : NULL;
        if (entity)
            fputs(entity, f);
        else if ((unsigned char)*s >= 0x20 || *s == '\t')
            fputc(*s, f);
    }
}

static void legend_add(llmm_cli_plot *p, const char *label, const char *color, int dashed,
                       int marker, llmm_cli_shape shape)
{
    llmm_cli_legend_item *it;
    if (!label || p->nlegend == LLMM_CLI_SVG_LEGEND_MAX)
        return;
    it = &p->legend[p->nlegend++];
    snprintf(it->label, sizeof it->label, "%s", label);
    it->color = color;
    it->dashed = dashed;
    it->marker = marker;
    it->shape = shape;
}

/* ---- the document ------------------------------------------------------------------------- */

int llmm_cli_plot_open(llmm_cli_plot *p, const char *path, const char *title,
                       const char *subtitle, const llmm_cli_axis *x, const llmm_cli_axis *y)
{
    FILE *f;
    int pos = p->legend_pos;
    memset(p, 0, sizeof *p);
    p->legend_pos = pos;
    p->width = 960;
    p->height = 600;
    p->px0 = 90;
    p->px1 = p->width - (pos == 3 ? 315 : 30);
    p->py0 = subtitle ? 78 : 60;
    p->py1 = p->height - 70;
    p->x = *x;
    p->y = *y;
    if (llmm_cli_out_open(&p->out, path, &p->err) != LLMM_CLI_OK)
        return -1;
    p->f = f = p->out.f;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, "
            "sans-serif\">\n",
            p->width, p->height, p->width, p->height);
    fputs("<title>", f);
    text_escaped(f, title);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            p->width, p->height);
    fprintf(f, "<defs><clipPath id=\"plotarea\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
               "height=\"%.2f\"/></clipPath></defs>\n",
            p->px0, p->py0, p->px1 - p->px0, p->py1 - p->py0);
    fprintf(f, "<text class=\"title\" x=\"%.2f\" y=\"30\" text-anchor=\"middle\" "
               "font-size=\"19\" font-weight=\"bold\">",
            p->width / 2);
    text_escaped(f, title);
    fputs("</text>\n", f);
    if (subtitle) {
        fprintf(f, "<text class=\"subtitle\" x=\"%.2f\" y=\"52\" text-anchor=\"middle\" "
                   "font-size=\"13\" fill=\"#555555\">",
                p->width / 2);
        text_escaped(f, subtitle);
        fputs("</text>\n", f);
    }
    /* grid and ticks */
    fputs("<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
    for (size_t i = 0; i < p->x.nticks; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                sx(p, p->x.tick[i]), p->py0, sx(p, p->x.tick[i]), p->py1);
    for (size_t i = 0; i < p->y.nticks; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", p->px0,
                sy(p, p->y.tick[i]), p->px1, sy(p, p->y.tick[i]));
    fputs("</g>\n", f);
    fprintf(f, "<g class=\"axes\" stroke=\"#222222\" stroke-width=\"1.5\">\n"
               "<line class=\"x-axis\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n"
               "<line class=\"y-axis\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
            p->px0, p->py1, p->px1, p->py1, p->px0, p->py0, p->px0, p->py1);
    for (size_t i = 0; i < p->x.nticks; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                sx(p, p->x.tick[i]), p->py1, sx(p, p->x.tick[i]), p->py1 + 6);
    for (size_t i = 0; i < p->y.nticks; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", p->px0 - 6,
                sy(p, p->y.tick[i]), p->px0, sy(p, p->y.tick[i]));
    fputs("</g>\n<g font-size=\"12\" fill=\"#222222\">\n", f);
    for (size_t i = 0; i < p->x.nticks; i++) {
        fprintf(f, "<text class=\"tick-label x-tick\" x=\"%.2f\" y=\"%.2f\" "
                   "text-anchor=\"middle\">",
                sx(p, p->x.tick[i]), p->py1 + 21);
        text_escaped(f, p->x.tick_label[i]);
        fputs("</text>\n", f);
    }
    for (size_t i = 0; i < p->y.nticks; i++) {
        fprintf(f, "<text class=\"tick-label y-tick\" x=\"%.2f\" y=\"%.2f\" "
                   "text-anchor=\"end\">",
                p->px0 - 10, sy(p, p->y.tick[i]) + 4);
        text_escaped(f, p->y.tick_label[i]);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
    fprintf(f, "<text class=\"axis-label x-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
               "font-size=\"14\">",
            (p->px0 + p->px1) / 2, p->height - 22);
    text_escaped(f, p->x.label ? p->x.label : "");
    fputs("</text>\n", f);
    fprintf(f, "<text class=\"axis-label y-label\" x=\"0\" y=\"0\" text-anchor=\"middle\" "
               "font-size=\"14\" transform=\"translate(24 %.2f) rotate(-90)\">",
            (p->py0 + p->py1) / 2);
    text_escaped(f, p->y.label ? p->y.label : "");
    fputs("</text>\n<g clip-path=\"url(#plotarea)\">\n", f);
    return 0;
}

void llmm_cli_plot_line(llmm_cli_plot *p, const double *x, const double *y, size_t n,
                        const char *color, int dashed, const char *label, const char *cls)
{
    size_t i = 0;
    while (i < n) {
        size_t k = 0;
        while (i < n && !drawable(p, x[i], y[i]))
            i++;
        if (i == n)
            break;
        fprintf(p->f, "<polyline class=\"series%s%s\" fill=\"none\" stroke=\"%s\" "
                      "stroke-width=\"2.2\"%s points=\"",
                cls ? " " : "", cls ? cls : "", color,
                dashed ? " stroke-dasharray=\"7 5\"" : "");
        for (; i < n && drawable(p, x[i], y[i]); i++, k++)
            fprintf(p->f, "%s%.2f,%.2f", k ? " " : "", sx(p, x[i]), sy(p, y[i]));
        fputs("\"/>\n", p->f);
    }
    legend_add(p, label, color, dashed, 0, LLMM_CLI_SHAPE_CIRCLE);
}

static void shape_at(FILE *f, double cx, double cy, llmm_cli_shape shape, double s,
                     const char *color, const char *cls)
{
    const char *c = cls ? cls : "";
    const char *sp = cls ? " " : "";
    switch (shape) {
    case LLMM_CLI_SHAPE_CIRCLE:
        fprintf(f, "<circle class=\"marker%s%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
                   "stroke=\"#ffffff\" stroke-width=\"0.8\"/>\n",
                sp, c, cx, cy, s, color);
        break;
    case LLMM_CLI_SHAPE_SQUARE:
        fprintf(f, "<rect class=\"marker%s%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                   "height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"0.8\"/>\n",
                sp, c, cx - s, cy - s, 2 * s, 2 * s, color);
        break;
    case LLMM_CLI_SHAPE_DIAMOND:
        fprintf(f, "<path class=\"marker%s%s\" d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" "
                   "fill=\"%s\" stroke=\"#222222\" stroke-width=\"1\"/>\n",
                sp, c, cx, cy - 1.4 * s, cx + 1.4 * s, cy, cx, cy + 1.4 * s, cx - 1.4 * s, cy,
                color);
        break;
    case LLMM_CLI_SHAPE_TRIANGLE:
        fprintf(f, "<path class=\"marker%s%s\" d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" "
                   "fill=\"%s\" stroke=\"#222222\" stroke-width=\"1\"/>\n",
                sp, c, cx, cy - 1.4 * s, cx + 1.3 * s, cy + 0.9 * s, cx - 1.3 * s,
                cy + 0.9 * s, color);
        break;
    case LLMM_CLI_SHAPE_CROSS:
        fprintf(f, "<path class=\"marker%s%s\" d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2f\" "
                   "stroke=\"%s\" stroke-width=\"2.5\" fill=\"none\"/>\n",
                sp, c, cx - s, cy - s, cx + s, cy + s, cx - s, cy + s, cx + s, cy - s, color);
        break;
    }
}

void llmm_cli_plot_markers(llmm_cli_plot *p, const double *x, const double *y, size_t n,
                           llmm_cli_shape shape, double size, const char *color,
                           const char *label, const char *cls)
{
    for (size_t i = 0; i < n; i++) {
        if (!drawable(p, x[i], y[i]))
            continue;
        shape_at(p->f, sx(p, x[i]), sy(p, y[i]), shape, size, color, cls);
        p->markers++;
    }
    legend_add(p, label, color, 0, 1, shape);
}

void llmm_cli_plot_bar(llmm_cli_plot *p, double x0, double x1, double y, const char *color,
                       const char *label, const char *cls)
{
    double top, bottom = p->py1;
    if (drawable(p, x0, y) && drawable(p, x1, y)) {
        top = sy(p, y < p->y.hi ? y : p->y.hi);
        if (top > bottom)
            top = bottom;
        fprintf(p->f, "<rect class=\"bar%s%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                      "height=\"%.2f\" fill=\"%s\"/>\n",
                cls ? " " : "", cls ? cls : "", sx(p, x0), top, sx(p, x1) - sx(p, x0),
                bottom - top, color);
        p->markers++;
    }
    legend_add(p, label, color, 0, 1, LLMM_CLI_SHAPE_SQUARE);
}

void llmm_cli_plot_hline(llmm_cli_plot *p, double y, const char *color, const char *label,
                         const char *cls)
{
    if (drawable(p, p->x.lo, y))
        fprintf(p->f, "<line class=\"refline%s%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
                      "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.6\" "
                      "stroke-dasharray=\"7 5\"/>\n",
                cls ? " " : "", cls ? cls : "", p->px0, sy(p, y), p->px1, sy(p, y), color);
    legend_add(p, label, color, 1, 0, LLMM_CLI_SHAPE_CIRCLE);
}

void llmm_cli_plot_vline(llmm_cli_plot *p, double x, const char *color, const char *label,
                         const char *cls)
{
    if (drawable(p, x, p->y.hi))
        fprintf(p->f, "<line class=\"refline%s%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
                      "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.3\" "
                      "stroke-dasharray=\"3 4\"/>\n",
                cls ? " " : "", cls ? cls : "", sx(p, x), p->py0, sx(p, x), p->py1, color);
    legend_add(p, label, color, 1, 0, LLMM_CLI_SHAPE_CIRCLE);
}

void llmm_cli_plot_note(llmm_cli_plot *p, double x, double y, const char *text,
                        const char *color)
{
    double cx, cy;
    if (!drawable(p, x, y))
        return;
    cx = sx(p, x) + 8;
    cy = sy(p, y) - 10;
    if (cx > p->px1 - 120)
        cx = p->px1 - 120;
    if (cy < p->py0 + 14)
        cy = p->py0 + 14;
    fprintf(p->f, "<text class=\"note\" x=\"%.2f\" y=\"%.2f\" font-size=\"12\" fill=\"%s\">",
            cx, cy, color);
    text_escaped(p->f, text);
    fputs("</text>\n", p->f);
}

int llmm_cli_plot_close(llmm_cli_plot *p)
{
    FILE *f = p->f;
    fputs("</g>\n", f);
    if (p->nlegend) {
        double w = 0, x0, y0 = p->py0 + 10, lh = 20;
        for (size_t i = 0; i < p->nlegend; i++) {
            double tw = 7.0 * (double)strlen(p->legend[i].label);
            if (tw > w)
                w = tw;
        }
        w += 50;
        x0 = p->legend_pos == 1 ? p->px0 + 10 : p->px1 - 10 - w;
        if (p->legend_pos == 2)
            y0 = p->py1 - 18 - lh * (double)p->nlegend;
        if (p->legend_pos == 3) {
            x0 = p->px1 + 15;
            y0 = p->py0;
        }
        fprintf(f, "<g class=\"legend\">\n<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                   "height=\"%.2f\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#999999\"/>\n",
                x0, y0, w, lh * (double)p->nlegend + 8);
        for (size_t i = 0; i < p->nlegend; i++) {
            const llmm_cli_legend_item *it = &p->legend[i];
            double cy = y0 + 14 + lh * (double)i;
            if (it->marker)
                shape_at(f, x0 + 20, cy, it->shape, 4.5, it->color, "legend-marker");
            else
                fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                           "stroke-width=\"2.2\"%s/>\n",
                        x0 + 8, cy, x0 + 34, cy, it->color,
                        it->dashed ? " stroke-dasharray=\"6 4\"" : "");
            fprintf(f, "<text class=\"legend-entry\" x=\"%.2f\" y=\"%.2f\" font-size=\"12\">",
                    x0 + 42, cy + 4);
            text_escaped(f, it->label);
            fputs("</text>\n", f);
        }
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
    p->f = NULL;
    return llmm_cli_out_close(&p->out, &p->err) == LLMM_CLI_OK ? 0 : -1;
}
