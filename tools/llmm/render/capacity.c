/* capacity.c: the figures of `llmm capacity` (capacity.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#include "common/error.h"
#include "common/jsonw.h"
#include "render/capacity.h"

int llmm_cli_capacity_given(const llmm_cli_capacity *o, int id)
{
    return !isnan(o->v[id]);
}

#define given llmm_cli_capacity_given

static int fail(llmm_status st, const char *what)
{
    fprintf(stderr, "llmm capacity: %s: %s\n", what, llmm_strerror(st));
    return 1;
}

/* A figure with one line per value of a list: its title line, or "key": [ in JSON. */
static void list_open(llmm_cli_jw *w, const char *key, const char *title)
{
    if (w)
        llmm_cli_jw_key_arr(w, key);
    else
        fputs(title, stdout);
}

static int list_close(llmm_cli_jw *w)
{
    if (w)
        llmm_cli_jw_arr_end(w);
    return 0;
}

/* Each figure: compute, then write as text (w NULL) or JSON. */
static int littles(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    double safety = given(o, O_SAFETY) ? o->v[O_SAFETY] : LLMM_LITTLES_LAW_SAFETY_DEFAULT;
    char title[160];
    snprintf(title, sizeof title,
             "Little's-law capacity: tps = max(1, L / W * safety), L = %g, safety %g\n",
             o->v[O_CONC], safety);
    list_open(w, "littles_law", title);
    for (size_t i = 0; i < o->np999; i++) {
        double tps;
        llmm_status st = llmm_littles_law_tps(o->p999[i], o->v[O_CONC], safety, &tps);
        if (st != LLMM_OK)
            return fail(st, "Little's law (--p999-ms, --concurrency, --safety)");
        if (w)
            LLMM_CLI_JW_NUM_MAP(w, NULL, {"p999_ms", o->p999[i]}, {"concurrency", o->v[O_CONC]},
                                {"safety", safety}, {"tps", tps});
        else
            printf("  P99.9 %g ms -> %.6g requests/s\n", o->p999[i], tps);
    }
    return list_close(w);
}

static int decay(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    double eta;
    llmm_status st = llmm_decay_rate(o->v[O_ACTUAL], o->v[O_PEAK], &eta);
    if (st != LLMM_OK)
        return fail(st, "throughput decay (--actual, --peak)");
    if (w)
        LLMM_CLI_JW_NUM_MAP(w, "decay", {"actual", o->v[O_ACTUAL]}, {"peak", o->v[O_PEAK]},
                            {"eta", eta});
    else
        printf("Throughput decay: eta = 1 - %g / %g = %.6g\n", o->v[O_ACTUAL], o->v[O_PEAK],
               eta);
    return 0;
}

/* The arithmetic intensity the options give: --intensity, or --flops / --bytes; NaN if none. */
static int intensity(const llmm_cli_capacity *o, double *in)
{
    llmm_status st;
    *in = NAN;
    if (given(o, O_INTENSITY)) {
        *in = o->v[O_INTENSITY];
    } else if (given(o, O_FLOPS) || given(o, O_BYTES)) {
        st = llmm_arithmetic_intensity(o->v[O_FLOPS], o->v[O_BYTES], in);
        if (st != LLMM_OK)
            return fail(st, "arithmetic intensity (--flops, --bytes)");
    }
    return 0;
}

static void roofline_text(const llmm_cli_capacity *o, double crit, double in, double att,
                          double eta)
{
    printf("Roofline: peak %.6g FLOP/s, bandwidth %.6g bytes/s\n", o->v[O_PEAK_FLOPS],
           o->v[O_BW]);
    printf("  critical intensity I_crit = peak / B = %.6g FLOPs/byte\n", crit);
    if (!isnan(in))
        printf("  intensity %.6g FLOPs/byte: attainable min(peak, B * I) = %.6g FLOP/s "
               "(%s-bound), decay against the peak %.6g\n",
               in, att, in < crit ? "memory" : "compute", eta);
}

static int roofline(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    double crit, in, att = NAN, eta = NAN;
    llmm_status st = llmm_roofline_critical_intensity(o->v[O_PEAK_FLOPS], o->v[O_BW], &crit);
    if (st != LLMM_OK)
        return fail(st, "roofline (--peak-flops, --bandwidth)");
    if (intensity(o, &in) != 0)
        return 1;
    if (!isnan(in)) {
        st = llmm_roofline(o->v[O_PEAK_FLOPS], o->v[O_BW], in, &att);
        if (st == LLMM_OK)
            st = llmm_decay_rate(att, o->v[O_PEAK_FLOPS], &eta);
        if (st != LLMM_OK)
            return fail(st, "roofline (--intensity)");
    }
    if (!w) {
        roofline_text(o, crit, in, att, eta);
        return 0;
    }
    llmm_cli_jw_key_map(w, "roofline");
    LLMM_CLI_JW_NUMS(w, {"peak_flops", o->v[O_PEAK_FLOPS]}, {"bandwidth", o->v[O_BW]},
                     {"critical_intensity", crit}, {"intensity", in}, {"attainable_flops", att},
                     {"decay", eta});
    llmm_cli_jw_key(w, "bound");
    if (isnan(in))
        llmm_cli_jw_null(w);
    else
        llmm_cli_jw_str(w, in < crit ? "memory" : "compute");
    llmm_cli_jw_map_end(w);
    return 0;
}

/* The scaling decay of measured value i against its ideal. */
static int scaling_one(const llmm_cli_capacity *o, size_t i, double *ideal, double *d)
{
    llmm_status st;
    if (given(o, O_SINGLE)) {
        double dev = o->v[O_DEVICES];
        if (!(dev >= 1 && dev <= 4294967295.0 && dev == floor(dev))) {
            fprintf(stderr, "llmm capacity: --devices: not a whole number >= 1\n");
            return 2;
        }
        *ideal = o->v[O_SINGLE] * dev;
        st = llmm_scaling_decay_devices(o->v[O_SINGLE], (uint32_t)dev, o->measured[i], d);
    } else {
        *ideal = o->ideal[i];
        st = llmm_scaling_decay(*ideal, o->measured[i], d);
    }
    return st == LLMM_OK ? 0 : fail(st, "scaling decay (--ideal/--single, --measured)");
}

static int scaling(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    if (!given(o, O_SINGLE) && o->nideal != o->nmeasured) {
        fprintf(stderr, "llmm capacity: --ideal and --measured need as many values\n");
        return 2;
    }
    list_open(w, "scaling", "Scaling decay against linear scaling: 1 - measured / ideal\n");
    for (size_t i = 0; i < o->nmeasured; i++) {
        double d, ideal;
        int rc = scaling_one(o, i, &ideal, &d);
        if (rc != 0)
            return rc;
        if (w)
            LLMM_CLI_JW_NUM_MAP(w, NULL, {"ideal", ideal}, {"measured", o->measured[i]},
                                {"decay", d});
        else
            printf("  ideal %g, measured %g -> %.4f\n", ideal, o->measured[i], d);
    }
    return list_close(w);
}

/* The two figures of two values a, b and their ratio r: communication share and
 * sequence-length decay. */
static int ratio(const llmm_cli_capacity *o, llmm_cli_jw *w, int comm)
{
    double a = o->v[comm ? O_COMM : O_SHORT], b = o->v[comm ? O_STEP : O_LONG], r;
    llmm_status st = comm ? llmm_comm_share(a, b, &r) : llmm_seqlen_decay(a, b, &r);
    if (st != LLMM_OK)
        return fail(st, comm ? "communication share (--comm-ms, --step-ms)"
                             : "sequence-length decay (--tps-short, --tps-long)");
    if (w && comm)
        LLMM_CLI_JW_NUM_MAP(w, "comm_share", {"comm_ms", a}, {"step_ms", b}, {"share", r});
    else if (w)
        LLMM_CLI_JW_NUM_MAP(w, "seqlen_decay", {"tps_short", a}, {"tps_long", b}, {"decay", r});
    else if (comm)
        printf("Communication share: %g ms of a %g ms step = %.4f\n", a, b, r);
    else
        printf("Sequence-length decay: 1 - %g / %g = %.4f\n", b, a, r);
    return 0;
}

static int comm_share(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    return ratio(o, w, 1);
}

static int seqlen_decay(const llmm_cli_capacity *o, llmm_cli_jw *w)
{
    return ratio(o, w, 0);
}

static int want_littles(const llmm_cli_capacity *o)
{
    return o->np999 > 0;
}

static int want_scaling(const llmm_cli_capacity *o)
{
    return o->nmeasured > 0;
}

/* Every figure, in the order they print: asked for by a list or by one option. */
static const struct figure {
    int (*wanted)(const llmm_cli_capacity *o); /* NULL: when option `id` is given */
    int id;
    int (*write)(const llmm_cli_capacity *o, llmm_cli_jw *w); /* NULL w: text */
} figures[] = {
    {want_littles, 0, littles},     {NULL, O_ACTUAL, decay},    {NULL, O_PEAK_FLOPS, roofline},
    {want_scaling, 0, scaling},     {NULL, O_COMM, comm_share}, {NULL, O_SHORT, seqlen_decay},
};

#define NFIGURES (sizeof figures / sizeof figures[0])

static int wanted(const llmm_cli_capacity *o, const struct figure *f)
{
    return f->wanted ? f->wanted(o) : given(o, f->id);
}

int llmm_cli_capacity_wanted(const llmm_cli_capacity *o)
{
    for (size_t i = 0; i < NFIGURES; i++)
        if (wanted(o, &figures[i]))
            return 1;
    return 0;
}

int llmm_cli_capacity_write(const llmm_cli_capacity *o, int json)
{
    llmm_cli_jw jw, *w = NULL;
    int rc = 0, any = 0;
    if (json) {
        if (llmm_cli_jw_open(&jw) != 0)
            return 1;
        w = &jw;
        llmm_cli_jw_map(w);
    }
    for (size_t i = 0; rc == 0 && i < NFIGURES; i++) {
        if (!wanted(o, &figures[i]))
            continue;
        if (any && !w)
            putchar('\n');
        rc = figures[i].write(o, w);
        any = 1;
    }
    if (!w)
        return rc;
    llmm_cli_jw_map_end(w);
    if (rc != 0) {
        llmm_cli_jw_discard(w);
        return rc;
    }
    return llmm_cli_jw_finish_line(w, stdout) == LLMM_CLI_OK ? 0 : 1;
}
