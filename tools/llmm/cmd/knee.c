/* knee.c: `llmm knee SWEEP.csv | FILE...`: every knee estimator and the USL fit on a load
 * sweep (analysis/knee.h) read from a table or built from result files
 * (analysis/sweep_build.h), as text, JSON or a chart (render/knee.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sweep_build.h"
#include "analysis/trace.h"
#include "cmd/command.h"
#include "render/knee.h"

#define SELF (&llmm_cli_command_knee)

/* The options, in the order of their ids. */
#define OPTIONS                                                                                \
    "json slo-ms= trim= collapse-fraction= smooth= sensitivity= svg= format= latency= series "  \
    "window="
enum {
    OPT_JSON = LLMM_CLI_OPT, OPT_SLO_MS, OPT_TRIM, OPT_FRACTION, OPT_SMOOTH, OPT_SENS, OPT_SVG,
    OPT_FORMAT, OPT_LATENCY, OPT_SERIES, OPT_WINDOW
};

static void usage(FILE *f)
{
    fputs("usage: llmm knee [OPTIONS] SWEEP.csv\n"
          "       llmm knee [OPTIONS] RESULT...\n"
          "\n"
          "Find the throughput knee of a load sweep with every estimator of the library side\n"
          "by side, fit the Universal Scalability Law, and give the SLO-constrained capacity.\n"
          "\n"
          "Input, one of:\n"
          "  a table: CSV lines concurrency,qps[,p99_ms] (a header line is optional; '#' lines\n"
          "    are comments); '-' reads stdin;\n"
          "  the result files of one sweep, in any format `llmm report` reads (vLLM runs at\n"
          "    --max-concurrency 1 ... 256, a GuideLLM sweep): a row per\n"
          "    run: its concurrency as the run states it (else the mean in flight, sum of E2E /\n"
          "    duration; else, for every run, its request rate), QPS = completed requests /\n"
          "    duration, P99 of --latency; files of statistics only (vLLM without\n"
          "    --save-detailed, SGLang, genai-perf and LLMPerf summaries) give their own\n"
          "    counts, duration and p99 (without --latency: of the first of E2E, TTFT, TPOT,\n"
          "    ITL that every run states);\n"
          "  one run with send times (or --series): the in-run series (doc/spec.md, section\n"
          "    4): every 50 ms the requests in flight and the completions per second over the\n"
          "    last --window, the first and last 10 % of the samples dropped.\n"
          "Rows with the same concurrency are averaged first: the estimators need strictly\n"
          "increasing concurrency. Each estimator says when the sweep has too few points for\n"
          "it (needs >= K points) and where its knee lies: at a measured level, interpolated\n"
          "between two, or extrapolated outside them.\n"
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
          "  --latency M          result files: the P99 column is of ttft, tpot or e2e\n"
          "                       (default e2e)\n"
          "  --series             result files: the in-run series even of several runs (laid\n"
          "                       end to end)\n"
          "  --window DUR         in-run series: completions counted over DUR (default 1s)\n"
          "  --format F           result files: read as format F (default: detected)\n"
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
    llmm_cli_sweep_opts so;
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
    case OPT_FORMAT:
        if (llmm_cli_format_parse(arg, &a->so.fmt) != LLMM_CLI_OK) {
            char names[256];
            return llmm_cli_say(SELF, 2, "--format: '%s' is not one of %s", arg,
                                llmm_cli_format_names(names, sizeof names));
        }
        return -1;
    case OPT_LATENCY:
        if (strcmp(arg, "ttft") == 0)
            a->so.latency = LLMM_CLI_M_TTFT;
        else if (strcmp(arg, "tpot") == 0)
            a->so.latency = LLMM_CLI_M_TPOT;
        else if (strcmp(arg, "e2e") == 0)
            a->so.latency = LLMM_CLI_M_E2E;
        else
            return llmm_cli_say(SELF, 2, "--latency: '%s' is not ttft, tpot or e2e", arg);
        a->so.latency_given = 1;
        return -1;
    case OPT_SERIES:
        a->so.series = 1;
        return -1;
    case OPT_WINDOW:
        if (llmm_cli_parse_duration(arg, &v) != LLMM_CLI_OK || !(v > 0))
            return llmm_cli_say(SELF, 2, "--window: '%s' is not a duration > 0", arg);
        a->so.window_s = v;
        return -1;
    default: /* OPT_SVG */
        a->svg = arg;
        return -1;
    }
}

/* Is path a sweep table? Its first bytes tell: concurrency,qps rows or header, or (alone: lax)
 * nothing a result reader takes, so that the table's parser says what is wrong. Stdin is read
 * as one. */
static int is_table(const char *path, int lax)
{
    char head[1 << 16];
    size_t n;
    llmm_cli_format f;
    llmm_cli_error err;
    FILE *in;
    if (strcmp(path, "-") == 0)
        return 1;
    if (!(in = fopen(path, "rb")))
        return lax; /* a reader reports it */
    n = fread(head, 1, sizeof head, in);
    fclose(in);
    return llmm_cli_sweep_looks_csv(head, n) ||
           (lax && llmm_cli_format_detect(path, head, n, n < sizeof head, &f, &err) != LLMM_CLI_OK);
}

/* One operand that is a sweep table, or result files. */
static int read_sweep(const knee_args *a, char **files, size_t n, llmm_cli_sweep *s,
                      llmm_cli_error *err)
{
    if (n == 1 && a->so.fmt == LLMM_CLI_FORMAT_AUTO && is_table(files[0], 1))
        return llmm_cli_sweep_read(files[0], s, err);
    for (size_t i = 0; n > 1 && a->so.fmt == LLMM_CLI_FORMAT_AUTO && i < n; i++)
        if (is_table(files[i], 0))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "%s is a sweep table: a table goes alone; several operands "
                                 "are result files of one sweep",
                                 files[i]);
    return llmm_cli_sweep_build(files, n, &a->so, s, err);
}

/* The analysis of the sweep of files, written as the options ask. */
static int knee(const knee_args *a, char **files, size_t n)
{
    llmm_cli_sweep s;
    llmm_cli_knee_eval k;
    llmm_cli_error err;
    const char *path = files[0];
    int rc;
    if ((rc = read_sweep(a, files, n, &s, &err)) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, rc == LLMM_CLI_EUSAGE ? 2 : 1, "%s", err.msg);
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
    return rc == LLMM_CLI_OK ? 0 : 1; /* a failed standard output: main() says so */
}

static int run(int argc, char **argv)
{
    knee_args a = {.slo = NAN};
    int status;
    llmm_knee_options_init(&a.ko);
    llmm_cli_sweep_opts_init(&a.so);
    status = llmm_cli_parse_options(SELF, OPTIONS, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind >= argc)
        return llmm_cli_usage_error(SELF, "%s", "no SWEEP.csv or result FILE");
    return knee(&a, argv + optind, (size_t)(argc - optind));
}

LLMM_CLI_DEFINE_COMMAND(knee,
    "  knee SWEEP|FILE...  knee estimators, USL fit and SLO capacity of a load sweep (a\n"
    "                   table, the result files of a sweep, or one run's in-run series)\n");
