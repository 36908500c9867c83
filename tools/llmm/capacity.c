/* capacity.c: `llmm capacity`: the closed-form capacity figures of doc/spec.md §3 (capacity.h). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

#define LMAX 32

enum {
    O_P999 = 1000, O_CONC, O_SAFETY, O_ACTUAL, O_PEAK, O_PEAK_FLOPS, O_BW, O_INTENSITY,
    O_FLOPS, O_BYTES, O_IDEAL, O_MEASURED, O_SINGLE, O_DEVICES, O_COMM, O_STEP, O_SHORT,
    O_LONG, O_JSON, O_COUNT
};

void llmm_cli_capacity_usage(FILE *f)
{
    fputs("usage: llmm capacity [--json] FIGURE OPTIONS...\n"
          "\n"
          "Closed-form capacity figures (doc/spec.md, section 3). Give the options of one or\n"
          "more figures; each prints with its formula. Numbers take SI suffixes k, M, G, T, P (2039G =\n"
          "2.039e12); options marked LIST take comma-separated values.\n"
          "\n"
          "Little's-law capacity, tps = max(1, L / W * safety), W = P99.9 in seconds:\n"
          "  --p999-ms LIST       P99.9 latency in milliseconds\n"
          "  --concurrency L      mean requests in flight\n"
          "  --safety S           safety factor in (0, 1] (default 0.85)\n"
          "Throughput decay, eta = 1 - actual / peak:\n"
          "  --actual T --peak T\n"
          "Roofline, T = min(peak, B * I), and critical intensity I_crit = peak / B:\n"
          "  --peak-flops F       peak compute, FLOP/s (e.g. 312T)\n"
          "  --bandwidth B        memory bandwidth, bytes/s (e.g. 2039G)\n"
          "  --intensity I        arithmetic intensity, FLOPs/byte, or --flops F --bytes B\n"
          "Multi-GPU scaling decay, 1 - measured / ideal:\n"
          "  --ideal LIST --measured LIST, or --single T --devices N --measured LIST\n"
          "Communication share of a step, comm / step:\n"
          "  --comm-ms C --step-ms S\n"
          "Sequence-length decay, 1 - long / short:\n"
          "  --tps-short T --tps-long T\n"
          "\n"
          "  --json               one JSON object instead of text\n"
          "  -h, --help           this text\n"
          "\n"
          "Exit status: 0 done, 1 a figure's inputs are out of its domain, 2 usage error.\n",
          f);
}

static int si_number(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end), m = 1;
    if (end == s)
        return 0;
    switch (*end) {
    case 'k':
    case 'K':
        m = 1e3;
        end++;
        break;
    case 'M':
        m = 1e6;
        end++;
        break;
    case 'G':
        m = 1e9;
        end++;
        break;
    case 'T':
        m = 1e12;
        end++;
        break;
    case 'P':
        m = 1e15;
        end++;
        break;
    default:
        break;
    }
    if (*end != '\0' || !isfinite(v))
        return 0;
    *out = v * m;
    return 1;
}

static int parse_list(const char *name, const char *arg, double *v, size_t *n)
{
    char buf[1024], *save = NULL, *tok;
    if (strlen(arg) >= sizeof buf)
        goto bad;
    strcpy(buf, arg);
    *n = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == LMAX || !si_number(tok, &v[*n]))
            goto bad;
        (*n)++;
    }
    if (*n > 0)
        return 1;
bad:
    fprintf(stderr, "llmm capacity: --%s: '%s' is not a number%s\n", name, arg,
            strchr(arg, ',') ? " list" : "");
    return 0;
}

typedef struct opts {
    double p999[LMAX], ideal[LMAX], measured[LMAX];
    size_t np999, nideal, nmeasured;
    double v[O_COUNT]; /* single values by option id; NaN = not given */
} opts;

static int given(const opts *o, int id)
{
    return !isnan(o->v[id]);
}

static int fail(llmm_status st, const char *what)
{
    fprintf(stderr, "llmm capacity: %s: %s\n", what, llmm_strerror(st));
    return 1;
}

/* Each figure: compute, then print as text or JSON. */
static int littles(const opts *o, llmm_cli_jw *w)
{
    double safety = given(o, O_SAFETY) ? o->v[O_SAFETY] : LLMM_LITTLES_LAW_SAFETY_DEFAULT;
    if (!w)
        printf("Little's-law capacity: tps = max(1, L / W * safety), L = %g, safety %g\n",
               o->v[O_CONC], safety);
    else {
        llmm_cli_jw_key(w, "littles_law");
        llmm_cli_jw_arr(w);
    }
    for (size_t i = 0; i < o->np999; i++) {
        double tps;
        llmm_status st = llmm_littles_law_tps(o->p999[i], o->v[O_CONC], safety, &tps);
        if (st != LLMM_OK)
            return fail(st, "Little's law (--p999-ms, --concurrency, --safety)");
        if (!w) {
            printf("  P99.9 %g ms -> %.6g requests/s\n", o->p999[i], tps);
            continue;
        }
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv(w, "p999_ms", o->p999[i]);
        llmm_cli_jw_kv(w, "concurrency", o->v[O_CONC]);
        llmm_cli_jw_kv(w, "safety", safety);
        llmm_cli_jw_kv(w, "tps", tps);
        llmm_cli_jw_map_end(w);
    }
    if (w)
        llmm_cli_jw_arr_end(w);
    return 0;
}

static int decay(const opts *o, llmm_cli_jw *w)
{
    double eta;
    llmm_status st = llmm_decay_rate(o->v[O_ACTUAL], o->v[O_PEAK], &eta);
    if (st != LLMM_OK)
        return fail(st, "throughput decay (--actual, --peak)");
    if (!w) {
        printf("Throughput decay: eta = 1 - %g / %g = %.6g\n", o->v[O_ACTUAL], o->v[O_PEAK],
               eta);
        return 0;
    }
    llmm_cli_jw_key(w, "decay");
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv(w, "actual", o->v[O_ACTUAL]);
    llmm_cli_jw_kv(w, "peak", o->v[O_PEAK]);
    llmm_cli_jw_kv(w, "eta", eta);
    llmm_cli_jw_map_end(w);
    return 0;
}

static int roofline(const opts *o, llmm_cli_jw *w)
{
    double crit, in = NAN, att = NAN, eta = NAN;
    llmm_status st = llmm_roofline_critical_intensity(o->v[O_PEAK_FLOPS], o->v[O_BW], &crit);
    if (st != LLMM_OK)
        return fail(st, "roofline (--peak-flops, --bandwidth)");
    if (given(o, O_INTENSITY))
        in = o->v[O_INTENSITY];
    else if (given(o, O_FLOPS) || given(o, O_BYTES)) {
        st = llmm_arithmetic_intensity(o->v[O_FLOPS], o->v[O_BYTES], &in);
        if (st != LLMM_OK)
            return fail(st, "arithmetic intensity (--flops, --bytes)");
    }
    if (!isnan(in)) {
        st = llmm_roofline(o->v[O_PEAK_FLOPS], o->v[O_BW], in, &att);
        if (st == LLMM_OK)
            st = llmm_decay_rate(att, o->v[O_PEAK_FLOPS], &eta);
        if (st != LLMM_OK)
            return fail(st, "roofline (--intensity)");
    }
    if (!w) {
        printf("Roofline: peak %.6g FLOP/s, bandwidth %.6g bytes/s\n", o->v[O_PEAK_FLOPS],
               o->v[O_BW]);
        printf("  critical intensity I_crit = peak / B = %.6g FLOPs/byte\n", crit);
        if (!isnan(in))
            printf("  intensity %.6g FLOPs/byte: attainable min(peak, B * I) = %.6g FLOP/s "
                   "(%s-bound), decay against the peak %.6g\n",
                   in, att, in < crit ? "memory" : "compute", eta);
        return 0;
    }
    llmm_cli_jw_key(w, "roofline");
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv(w, "peak_flops", o->v[O_PEAK_FLOPS]);
    llmm_cli_jw_kv(w, "bandwidth", o->v[O_BW]);
    llmm_cli_jw_kv(w, "critical_intensity", crit);
    llmm_cli_jw_kv(w, "intensity", in);
    llmm_cli_jw_kv(w, "attainable_flops", att);
    llmm_cli_jw_kv(w, "decay", eta);
    llmm_cli_jw_key(w, "bound");
    if (isnan(in))
        llmm_cli_jw_null(w);
    else
        llmm_cli_jw_str(w, in < crit ? "memory" : "compute");
    llmm_cli_jw_map_end(w);
    return 0;
}

static int scaling(const opts *o, llmm_cli_jw *w)
{
    int by_devices = given(o, O_SINGLE);
    if (!by_devices && o->nideal != o->nmeasured) {
        fprintf(stderr, "llmm capacity: --ideal and --measured need as many values\n");
        return 2;
    }
    if (!w)
        printf("Scaling decay against linear scaling: 1 - measured / ideal\n");
    else {
        llmm_cli_jw_key(w, "scaling");
        llmm_cli_jw_arr(w);
    }
    for (size_t i = 0; i < o->nmeasured; i++) {
        double d, ideal;
        llmm_status st;
        if (by_devices) {
            double dev = o->v[O_DEVICES];
            if (!(dev >= 1 && dev <= 4294967295.0 && dev == floor(dev))) {
                fprintf(stderr, "llmm capacity: --devices: not a whole number >= 1\n");
                return 2;
            }
            ideal = o->v[O_SINGLE] * dev;
            st = llmm_scaling_decay_devices(o->v[O_SINGLE], (uint32_t)dev, o->measured[i], &d);
        } else {
            ideal = o->ideal[i];
            st = llmm_scaling_decay(ideal, o->measured[i], &d);
        }
        if (st != LLMM_OK)
            return fail(st, "scaling decay (--ideal/--single, --measured)");
        if (!w) {
            printf("  ideal %g, measured %g -> %.4f\n", ideal, o->measured[i], d);
            continue;
        }
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv(w, "ideal", ideal);
        llmm_cli_jw_kv(w, "measured", o->measured[i]);
        llmm_cli_jw_kv(w, "decay", d);
        llmm_cli_jw_map_end(w);
    }
    if (w)
        llmm_cli_jw_arr_end(w);
    return 0;
}

static int pair(const opts *o, llmm_cli_jw *w, int comm)
{
    double a = o->v[comm ? O_COMM : O_SHORT], b = o->v[comm ? O_STEP : O_LONG], r;
    llmm_status st = comm ? llmm_comm_share(a, b, &r) : llmm_seqlen_decay(a, b, &r);
    if (st != LLMM_OK)
        return fail(st, comm ? "communication share (--comm-ms, --step-ms)"
                             : "sequence-length decay (--tps-short, --tps-long)");
    if (!w) {
        if (comm)
            printf("Communication share: %g ms of a %g ms step = %.4f\n", a, b, r);
        else
            printf("Sequence-length decay: 1 - %g / %g = %.4f\n", b, a, r);
        return 0;
    }
    llmm_cli_jw_key(w, comm ? "comm_share" : "seqlen_decay");
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv(w, comm ? "comm_ms" : "tps_short", a);
    llmm_cli_jw_kv(w, comm ? "step_ms" : "tps_long", b);
    llmm_cli_jw_kv(w, comm ? "share" : "decay", r);
    llmm_cli_jw_map_end(w);
    return 0;
}

static int need(const opts *o, int a, int b, const char *an, const char *bn)
{
    if (given(o, a) != given(o, b)) {
        fprintf(stderr, "llmm capacity: --%s needs --%s\n", given(o, a) ? an : bn,
                given(o, a) ? bn : an);
        return 0;
    }
    return 1;
}

int llmm_cli_cmd_capacity(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"p999-ms", required_argument, NULL, O_P999},
        {"concurrency", required_argument, NULL, O_CONC},
        {"safety", required_argument, NULL, O_SAFETY},
        {"actual", required_argument, NULL, O_ACTUAL},
        {"peak", required_argument, NULL, O_PEAK},
        {"peak-flops", required_argument, NULL, O_PEAK_FLOPS},
        {"bandwidth", required_argument, NULL, O_BW},
        {"intensity", required_argument, NULL, O_INTENSITY},
        {"flops", required_argument, NULL, O_FLOPS},
        {"bytes", required_argument, NULL, O_BYTES},
        {"ideal", required_argument, NULL, O_IDEAL},
        {"measured", required_argument, NULL, O_MEASURED},
        {"single", required_argument, NULL, O_SINGLE},
        {"devices", required_argument, NULL, O_DEVICES},
        {"comm-ms", required_argument, NULL, O_COMM},
        {"step-ms", required_argument, NULL, O_STEP},
        {"tps-short", required_argument, NULL, O_SHORT},
        {"tps-long", required_argument, NULL, O_LONG},
        {"json", no_argument, NULL, O_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    opts o;
    llmm_cli_jw jw, *w = NULL;
    int opt, json = 0, rc = 0, any = 0;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < O_COUNT; i++)
        o.v[i] = NAN;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *name = opt >= 1000 && opt < O_COUNT ? longopts[opt - 1000].name : "";
        if (opt == 'h') {
            llmm_cli_capacity_usage(stdout);
            return 0;
        } else if (opt == O_JSON) {
            json = 1;
        } else if (opt == O_P999) {
            if (!parse_list(name, optarg, o.p999, &o.np999))
                return 2;
        } else if (opt == O_IDEAL) {
            if (!parse_list(name, optarg, o.ideal, &o.nideal))
                return 2;
        } else if (opt == O_MEASURED) {
            if (!parse_list(name, optarg, o.measured, &o.nmeasured))
                return 2;
        } else if (opt >= 1000 && opt < O_COUNT) {
            if (!si_number(optarg, &o.v[opt])) {
                fprintf(stderr, "llmm capacity: --%s: '%s' is not a number\n", name, optarg);
                return 2;
            }
        } else {
            fprintf(stderr, "llmm capacity: %s option '%s'\nTry 'llmm capacity --help'.\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "llmm capacity: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if ((o.np999 > 0) != given(&o, O_CONC)) {
        fprintf(stderr, "llmm capacity: Little's law needs both --p999-ms and --concurrency\n");
        return 2;
    }
    if (!need(&o, O_ACTUAL, O_PEAK, "actual", "peak") ||
        !need(&o, O_PEAK_FLOPS, O_BW, "peak-flops", "bandwidth") ||
        !need(&o, O_COMM, O_STEP, "comm-ms", "step-ms") ||
        !need(&o, O_SHORT, O_LONG, "tps-short", "tps-long") ||
        !need(&o, O_SINGLE, O_DEVICES, "single", "devices") ||
        !need(&o, O_FLOPS, O_BYTES, "flops", "bytes"))
        return 2;
    if ((given(&o, O_INTENSITY) || given(&o, O_FLOPS)) && !given(&o, O_PEAK_FLOPS)) {
        fprintf(stderr, "llmm capacity: an intensity needs --peak-flops and --bandwidth\n");
        return 2;
    }
    if ((o.nmeasured > 0) != (o.nideal > 0 || given(&o, O_SINGLE))) {
        fprintf(stderr, "llmm capacity: scaling decay needs --measured with --ideal or "
                        "--single and --devices\n");
        return 2;
    }
    if (json) {
        if (llmm_cli_jw_open(&jw) != 0)
            return 1;
        w = &jw;
        llmm_cli_jw_map(w);
    }
#define FIGURE(cond, call)                                                                     \
    if (rc == 0 && (cond)) {                                                                   \
        if (any && !w)                                                                         \
            putchar('\n');                                                                     \
        rc = (call);                                                                           \
        any = 1;                                                                               \
    }
    FIGURE(o.np999 > 0, littles(&o, w));
    FIGURE(given(&o, O_ACTUAL), decay(&o, w));
    FIGURE(given(&o, O_PEAK_FLOPS), roofline(&o, w));
    FIGURE(o.nmeasured > 0, scaling(&o, w));
    FIGURE(given(&o, O_COMM), pair(&o, w, 1));
    FIGURE(given(&o, O_SHORT), pair(&o, w, 0));
#undef FIGURE
    if (w) {
        llmm_cli_jw_map_end(w);
        if (rc == 0 && any && llmm_cli_jw_finish(w, stdout) == 0)
            putchar('\n');
        else if (rc == 0 && any)
            rc = 1;
        else
            llmm_cli_jw_discard(w);
    }
    if (rc == 0 && !any) {
        fprintf(stderr, "llmm capacity: nothing to compute\nTry 'llmm capacity --help'.\n");
        return 2;
    }
    return rc;
}
