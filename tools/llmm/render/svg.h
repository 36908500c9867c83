/* svg.h: a small SVG plot writer (svg.c) for the tool's charts: a title, two axes with ticks,
 * tick labels and axis labels, grid lines, polylines, markers, reference lines and a legend.
 * Plain SVG 1.1, no scripts, no external resources. Elements carry classes ("title",
 * "axis-label", "tick-label", "legend-entry", "series", "marker" plus a caller-given class)
 * so that tests can find them. */
#ifndef LLMM_CLI_SVG_H
#define LLMM_CLI_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "common/output.h"

#define LLMM_CLI_SVG_TICKS_MAX 24
#define LLMM_CLI_SVG_LEGEND_MAX 16

typedef struct llmm_cli_axis {
    double lo, hi;             /* data range drawn */
    int log;                   /* 1: log10 scale (lo > 0) */
    const char *label;         /* axis title, with its unit */
    size_t nticks;             /* ticks at tick[] with tick_label[] (filled by the fit calls) */
    double tick[LLMM_CLI_SVG_TICKS_MAX];
    char tick_label[LLMM_CLI_SVG_TICKS_MAX][24];
} llmm_cli_axis;

/* Linear axis covering [lo, hi] with "nice" ticks (1, 2, 2.5, 5 x 10^k); the range is widened
 * to whole ticks. lo == hi and non-finite values are handled. */
void llmm_cli_axis_linear(llmm_cli_axis *a, double lo, double hi, const char *label);
/* Log10 axis covering [lo, hi] (both > 0), ticks at 1, 2, 5 x 10^k for short spans, powers of
 * ten otherwise. */
void llmm_cli_axis_log(llmm_cli_axis *a, double lo, double hi, const char *label);
/* Replace the ticks by custom ones (n at most LLMM_CLI_SVG_TICKS_MAX). */
void llmm_cli_axis_ticks(llmm_cli_axis *a, const double *at, const char *const *labels,
                         size_t n);

typedef enum llmm_cli_shape {
    LLMM_CLI_SHAPE_CIRCLE = 0,
    LLMM_CLI_SHAPE_DIAMOND,
    LLMM_CLI_SHAPE_TRIANGLE,
    LLMM_CLI_SHAPE_SQUARE,
    LLMM_CLI_SHAPE_CROSS
} llmm_cli_shape;

typedef struct llmm_cli_legend_item {
    char label[96];
    const char *color;
    int dashed;  /* line style of the entry */
    int marker;  /* 1: show the marker shape instead of a line */
    llmm_cli_shape shape;
} llmm_cli_legend_item;

typedef struct llmm_cli_plot {
    FILE *f;
    llmm_cli_out out;                      /* the file (common/output.h) */
    llmm_cli_error err;                    /* why open or close failed */
    double width, height;                  /* pixels */
    double px0, px1, py0, py1;             /* plot area: left, right, top, bottom */
    llmm_cli_axis x, y;
    llmm_cli_legend_item legend[LLMM_CLI_SVG_LEGEND_MAX];
    size_t nlegend;
    int legend_pos;                        /* 0: legend at the top right, 1 top left,
                                              2 bottom right, 3 outside on the right (set
                                              before llmm_cli_plot_open()) */
    size_t markers;                        /* markers drawn */
} llmm_cli_plot;

/* Colours of the series, in order. */
extern const char *const llmm_cli_palette[8];

/* Open path (common/output.h) and write the header (p->legend_pos is kept, everything else
 * reset), title, grid, axes, ticks and labels. Returns 0, or -1 with the reason in p->err. */
int llmm_cli_plot_open(llmm_cli_plot *p, const char *path, const char *title,
                       const char *subtitle, const llmm_cli_axis *x, const llmm_cli_axis *y);
/* A polyline through the finite points (a gap at NaN), with a legend entry when label is not
 * NULL. cls is added to the element's class. */
void llmm_cli_plot_line(llmm_cli_plot *p, const double *x, const double *y, size_t n,
                        const char *color, int dashed, const char *label, const char *cls);
/* Markers at the finite points; one legend entry when label is not NULL. */
void llmm_cli_plot_markers(llmm_cli_plot *p, const double *x, const double *y, size_t n,
                           llmm_cli_shape shape, double size, const char *color,
                           const char *label, const char *cls);
/* A bar from the x axis up to y (clipped to the plot area) between x0 and x1, with a legend
 * entry when label is not NULL. */
void llmm_cli_plot_bar(llmm_cli_plot *p, double x0, double x1, double y, const char *color,
                       const char *label, const char *cls);
/* Horizontal / vertical reference lines across the plot area, with a legend entry. */
void llmm_cli_plot_hline(llmm_cli_plot *p, double y, const char *color, const char *label,
                         const char *cls);
void llmm_cli_plot_vline(llmm_cli_plot *p, double x, const char *color, const char *label,
                         const char *cls);
/* A short text next to a data point (clamped into the plot area). */
void llmm_cli_plot_note(llmm_cli_plot *p, double x, double y, const char *text,
                        const char *color);
/* Write the legend and the closing tag, close the file. Returns 0, or -1 on a write error
 * (the reason in p->err, the file as it was before). */
int llmm_cli_plot_close(llmm_cli_plot *p);

#endif /* LLMM_CLI_SVG_H */
