/* knee.c: `llmm knee SWEEP.csv`: every knee estimator and the USL fit on a load sweep. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

enum { OPT_JSON = 1000, OPT_SLO_MS, OPT_TRIM, OPT_FRACTION, OPT_SMOOTH, OPT_SENS, OPT_SVG };

void llmm_cli_knee_usage(FILE *f)
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

static int num_opt(const char *name, const char *arg, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || !(v >= lo && v <= hi)) {
        fprintf(stderr, "llmm knee: --%s: '%s' is not a number in [%g, %g]\n", name, arg, lo,
                hi);
        return 0;
    }
    *out = v;
    return 1;
}

int llmm_cli_cmd_knee(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"slo-ms", required_argument, NULL, OPT_SLO_MS},
        {"trim", required_argument, NULL, OPT_TRIM},
        {"collapse-fraction", required_argument, NULL, OPT_FRACTION},
        {"smooth", required_argument, NULL, OPT_SMOOTH},
        {"sensitivity", required_argument, NULL, OPT_SENS},
        {"svg", required_argument, NULL, OPT_SVG},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    llmm_knee_options ko;
    llmm_cli_sweep s;
    llmm_cli_knee_eval k;
    llmm_cli_error err;
    const char *svg = NULL;
    double slo = NAN, v;
    int opt, json = 0, rc;
    llmm_knee_options_init(&ko);
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h':
            llmm_cli_knee_usage(stdout);
            return 0;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_SLO_MS:
            if (!num_opt("slo-ms", optarg, 1e-9, 1e12, &slo))
                return 2;
            break;
        case OPT_TRIM:
            if (!num_opt("trim", optarg, 0, 0.45, &ko.trim))
                return 2;
            break;
        case OPT_FRACTION:
            if (!num_opt("collapse-fraction", optarg, 1e-9, 1 - 1e-9, &ko.collapse_fraction))
                return 2;
            break;
        case OPT_SENS:
            if (!num_opt("sensitivity", optarg, 0, 1e6, &ko.kneedle_sensitivity))
                return 2;
            break;
        case OPT_SMOOTH:
            if (!num_opt("smooth", optarg, 0, 100001, &v) || v != floor(v) ||
                (v > 0 && fmod(v, 2) == 0)) {
                fprintf(stderr, "llmm knee: --smooth: '%s' is not 0 or an odd width\n", optarg);
                return 2;
            }
            ko.smooth = (uint32_t)v;
            break;
        case OPT_SVG:
            svg = optarg;
            break;
        default:
            fprintf(stderr, "llmm knee: %s option '%s'\nTry 'llmm knee --help'.\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "llmm knee: %s\nTry 'llmm knee --help'.\n",
                optind >= argc ? "no SWEEP.csv" : "one SWEEP.csv at a time");
        return 2;
    }
    if (llmm_cli_sweep_read(argv[optind], &s, &err) != LLMM_CLI_OK) {
        fprintf(stderr, "llmm knee: %s\n", err.msg);
        return 1;
    }
    rc = llmm_cli_knee_run(&s, &ko, slo, &k, &err);
    if (rc != LLMM_CLI_OK) {
        fprintf(stderr, "llmm knee: %s\n", err.msg);
        llmm_cli_sweep_free(&s);
        return rc == LLMM_CLI_EUSAGE ? 2 : 1;
    }
    if (json)
        rc = llmm_cli_knee_json(&s, &k, argv[optind], stdout);
    else
        llmm_cli_knee_print(&s, &k, argv[optind], stdout);
    if (rc == LLMM_CLI_OK && svg) {
        char path[4200];
        rc = llmm_cli_knee_svg(&s, &k, svg, path, sizeof path, &err);
        if (rc == LLMM_CLI_OK)
            fprintf(json ? stderr : stdout, "%swrote %s\n", json ? "llmm knee: " : "\n", path);
        else
            fprintf(stderr, "llmm knee: %s\n", err.msg);
    }
    llmm_cli_sweep_free(&s);
    if (fflush(stdout) != 0 || ferror(stdout))
        rc = LLMM_CLI_EIO;
    return rc == LLMM_CLI_OK ? 0 : 1;
}
