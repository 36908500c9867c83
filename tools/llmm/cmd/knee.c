/* knee.c: `llmm knee SWEEP.csv`: every knee estimator and the USL fit on a load sweep
 * (analysis/knee.h), as text, JSON or a chart (render/knee.h). */
#include <math.h>
#include <stdlib.h>

#include "cmd/command.h"
#include "render/knee.h"

#define SELF (&llmm_cli_command_knee)

/* The options, in the order of their ids. */
#define OPTIONS "json slo-ms= trim= collapse-fraction= smooth= sensitivity= svg="
enum { OPT_JSON = LLMM_CLI_OPT, OPT_SLO_MS, OPT_TRIM, OPT_FRACTION, OPT_SMOOTH, OPT_SENS, OPT_SVG };

static void usage(FILE *f)
{
    fputs("usage: llmm knee [OPTIONS] SWEEP.csv\n"
          "\n"
          "Find the throughput knee of a load sweep with every estimator of the library side\n"
          "by side, fit the Universal Scalability Law, and give the SLO-constrained capacity.\n"
          "\n"
          "Input: CSV lines concurrency,qps[,p99_ms] (a header line is optional; '#' lines are\n"
          "comments). Rows with the same concurrency are averaged first: the estimators need\n"
          "strictly increasing concurrency. SWEEP.csv may be '-' for stdin.\n"
          "\n"
          "Estimators:\n"
          "  cubic inflection  inflection of a least-squares cubic after trimming\n"
          "  growth collapse   where the smoothed marginal gain dQPS/dN collapses\n"
          "  kneedle           farthest point above the chord of the normalised curve\n"
          "  USL               X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)), N_max\n"
          "\n"
          "Options:\n"
          "  --slo-ms MS          latency SLO: the largest concurrency whose USL latency\n"
          "                       N/X(N) meets it, and with a p99_ms column the largest\n"
          "                       measured concurrency up to which every P99 meets it\n"
          "  --trim SHARE         inflection: share dropped at each end (default 0.1)\n"
          "  --collapse-fraction F  growth collapse threshold, share of the initial gain\n"
          "                       (default 0.5)\n"
          "  --smooth W           growth collapse moving-average width, odd (default auto)\n"
          "  --sensitivity S      Kneedle S (default 1)\n"
          "  --json               one JSON object instead of text\n"
          "  --svg DIR            write DIR/qps_vs_concurrency.svg: the points, the fitted\n"
          "                       cubic and USL curves and every knee marked\n"
          "  -h, --help           this text\n"
          "\n"
          "Exit status: 0 done, 1 unreadable or malformed input, 2 usage error.\n",
          f);
}

typedef struct knee_args {
    llmm_knee_options ko;
    double slo;      /* NaN: none */
    int json;
    const char *svg; /* NULL: no chart */
} knee_args;

/* A number option in [lo, hi]: -1 when it is one, else 2 after a message. */
static int num_opt(const char *name, const char *arg, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || !(v >= lo && v <= hi))
        return llmm_cli_say(SELF, 2, "--%s: '%s' is not a number in [%g, %g]", name, arg, lo,
                            hi);
    *out = v;
    return -1;
}

/* One option (command.h's llmm_cli_option_fn). */
static int option(void *ctx, int id, const char *name, const char *arg)
{
    knee_args *a = ctx;
    double v;
    switch (id) {
    case OPT_JSON:
        a->json = 1;
        return -1;
    case OPT_SLO_MS:
        return num_opt(name, arg, 1e-9, 1e12, &a->slo);
    case OPT_TRIM:
        return num_opt(name, arg, 0, 0.45, &a->ko.trim);
    case OPT_FRACTION:
        return num_opt(name, arg, 1e-9, 1 - 1e-9, &a->ko.collapse_fraction);
    case OPT_SENS:
        return num_opt(name, arg, 0, 1e6, &a->ko.kneedle_sensitivity);
    case OPT_SMOOTH:
        if (num_opt(name, arg, 0, 100001, &v) != -1)
            return 2;
        if (v != floor(v) || (v > 0 && fmod(v, 2) == 0))
            return llmm_cli_say(SELF, 2, "--smooth: '%s' is not 0 or an odd width", arg);
        a->ko.smooth = (uint32_t)v;
        return -1;
    default: /* OPT_SVG */
        a->svg = arg;
        return -1;
    }
}

/* The analysis of the sweep at path, written as the options ask. */
static int knee(const knee_args *a, const char *path)
{
    llmm_cli_sweep s;
    llmm_cli_knee_eval k;
    llmm_cli_error err;
    int rc;
    if (llmm_cli_sweep_read(path, &s, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    rc = llmm_cli_knee_run(&s, &a->ko, a->slo, &k, &err);
    if (rc != LLMM_CLI_OK) {
        llmm_cli_sweep_free(&s);
        return llmm_cli_say(SELF, rc == LLMM_CLI_EUSAGE ? 2 : 1, "%s", err.msg);
    }
    if (a->json)
        rc = llmm_cli_knee_json(&s, &k, path, stdout);
    else
        llmm_cli_knee_text(&s, &k, path, stdout);
    if (rc == LLMM_CLI_OK && a->svg) {
        char svg[4200];
        rc = llmm_cli_knee_svg(&s, &k, a->svg, svg, sizeof svg, &err);
        if (rc == LLMM_CLI_OK)
            fprintf(a->json ? stderr : stdout, "%swrote %s\n", a->json ? "llmm knee: " : "\n",
                    svg);
        else
            llmm_cli_say(SELF, 1, "%s", err.msg);
    }
    llmm_cli_sweep_free(&s);
    if (fflush(stdout) != 0 || ferror(stdout))
        rc = LLMM_CLI_EIO;
    return rc == LLMM_CLI_OK ? 0 : 1;
}

static int run(int argc, char **argv)
{
    knee_args a = {.slo = NAN};
    int status;
    llmm_knee_options_init(&a.ko);
    status = llmm_cli_parse_options(SELF, OPTIONS, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind != argc - 1)
        return llmm_cli_usage_error(SELF, "%s",
                                    optind >= argc ? "no SWEEP.csv" : "one SWEEP.csv at a time");
    return knee(&a, argv[optind]);
}

const llmm_cli_command llmm_cli_command_knee = {
    "knee", {NULL, NULL},
    "  knee SWEEP.csv   knee estimators, USL fit and SLO capacity of a load sweep\n",
    run, usage};
