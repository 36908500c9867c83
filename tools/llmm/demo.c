/* demo.c: `llmm demo`: write the synthetic vLLM trace (gen.c) and print its report, write
 * a synthetic load sweep (sweep.c) and print its knee analysis, and write the SVG charts of
 * both. What `./dev.sh demo` runs, so that a fresh clone shows the tool at work with no data
 * at hand. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "report_opts.h"
#include "sweep.h"

enum { OPT_DIR = OPT_LAST_REPORT_OPTION + 1, OPT_SEED, OPT_REQUESTS, OPT_KEEP };

#define TRACE_NAME "llmm-demo-vllm.json"
#define SWEEP_NAME "llmm-demo-sweep.csv"
#define SWEEP_SLO_MS 1000.0

void llmm_cli_demo_usage(FILE *f)
{
    fputs("usage: llmm demo [--dir DIR] [--seed N] [--requests N] [REPORT OPTIONS]\n"
          "\n"
          "Write a synthetic vLLM benchmark result (`vllm bench serve --save-result\n"
          "--save-detailed` format) and print `llmm report` on it; then write a synthetic\n"
          "load sweep (" SWEEP_NAME ") and print `llmm knee --slo-ms 1000` on it. The\n"
          "charts of both (latency_percentiles.svg, p99_over_time.svg,\n"
          "qps_vs_concurrency.svg) go into the same directory. The trace is generated\n"
          "from a fixed seed by a toy serving model: Poisson arrivals, an FP16 -> INT8 weight\n"
          "switch halfway (95 s of 180) that stalls the engine for 1.5 s, recorded in the\n"
          "file's \"llmm_events\" list, TTFT storms injected at a third and near the end\n"
          "(60 s and 160 s), 0.6 % rejected requests and one stream broken half-way. It is\n"
          "synthetic data, not a measurement of any system.\n"
          "\n"
          "Options:\n"
          "  --dir DIR        write the files into DIR (default: a new temporary\n"
          "                   directory, named in the output and kept)\n"
          "  --seed N         random seed (default 42); the same seed gives the same file\n"
          "  --requests N     number of requests (default 3600, at 20 per second)\n"
          "  -h, --help       this text\n"
          "\n"
          "Report options (see llmm report --help) apply to the demo's report; without any,\n"
          "the demo uses --slo ttft=500ms,tpot=50ms,e2e=8s,err=1% --scenario customer-service\n"
          "and two example --metric values for the layers a trace cannot measure.\n",
          f);
}

static const char *const default_args[] = {
    "--slo=ttft=500ms,tpot=50ms,e2e=8s,err=1%",
    "--scenario=customer-service",
    "--metric=capability:factual_consistency=0.91:0.95:0.70",
    "--metric=business:review_pass_rate=0.88:0.95:0.60",
};

static int apply_defaults(llmm_cli_report *r)
{
    llmm_cli_error err;
    for (size_t i = 0; i < sizeof default_args / sizeof default_args[0]; i++) {
        const char *a = default_args[i] + 2, *eq = strchr(a, '=');
        int opt = strncmp(a, "slo", 3) == 0 ? OPT_SLO
                  : strncmp(a, "scenario", 8) == 0 ? OPT_SCENARIO
                                                   : OPT_METRIC;
        if (llmm_cli_report_option(r, opt, eq + 1, &err) != LLMM_CLI_OK) {
            fprintf(stderr, "llmm demo: %s\n", err.msg);
            return 1;
        }
    }
    return 0;
}

/* The load-sweep half: write the sweep, print its knee analysis, write its chart. */
static int demo_sweep(const char *dir, uint64_t seed, FILE *out, int json)
{
    char path[4200], svg[4200];
    llmm_cli_sweep s;
    llmm_cli_knee_eval k;
    llmm_cli_error err;
    FILE *f;
    int rc;
    snprintf(path, sizeof path, "%s/%s", dir, SWEEP_NAME);
    f = fopen(path, "w");
    if (!f || llmm_cli_sweep_generate(f, seed) != LLMM_CLI_OK || fclose(f) != 0) {
        fprintf(stderr, "llmm demo: cannot write %s\n", path);
        return 1;
    }
    rc = llmm_cli_sweep_read(path, &s, &err);
    if (rc == LLMM_CLI_OK) {
        rc = llmm_cli_knee_run(&s, NULL, SWEEP_SLO_MS, &k, &err);
        if (rc == LLMM_CLI_OK) {
            if (!json) {
                fprintf(out, "\nllmm demo: a SYNTHETIC load sweep (USL-shaped server, seed "
                             "%llu) written to %s\n\n",
                        (unsigned long long)seed, path);
                llmm_cli_knee_print(&s, &k, SWEEP_NAME, out);
            }
            rc = llmm_cli_knee_svg(&s, &k, dir, svg, sizeof svg, &err);
        }
        llmm_cli_sweep_free(&s);
    }
    if (rc != LLMM_CLI_OK) {
        fprintf(stderr, "llmm demo: %s\n", err.msg);
        return 1;
    }
    fprintf(out, "\nFiles in %s:\n  %s\n  %s\n  latency_percentiles.svg\n  p99_over_time.svg\n"
                 "  %s\n",
            dir, TRACE_NAME, SWEEP_NAME, llmm_cli_basename(svg));
    return 0;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (end == s || *end != '\0' || errno || v > max || s[0] == '-')
        return 0;
    *out = v;
    return 1;
}

int llmm_cli_cmd_demo(int argc, char **argv)
{
    static const struct option longopts[] = {
        LLMM_CLI_REPORT_LONGOPTS,
        {"dir", required_argument, NULL, OPT_DIR},
        {"seed", required_argument, NULL, OPT_SEED},
        {"requests", required_argument, NULL, OPT_REQUESTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    llmm_cli_report r;
    llmm_cli_gen_opts go;
    llmm_cli_gen_facts facts;
    llmm_cli_error err;
    const char *dir = NULL;
    char tmpl[4096], path[4200], *file;
    int opt, status, report_opts = 0;
    FILE *f;
    uint64_t v;
    llmm_cli_report_init(&r);
    llmm_cli_gen_defaults(&go);
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h':
            llmm_cli_demo_usage(stdout);
            return 0;
        case OPT_DIR:
            dir = optarg;
            break;
        case OPT_SEED:
            if (!parse_u64(optarg, UINT64_MAX, &go.seed)) {
                fprintf(stderr, "llmm demo: --seed: '%s' is not a number\n", optarg);
                return 2;
            }
            break;
        case OPT_REQUESTS:
            if (!parse_u64(optarg, 10000000, &v) || v == 0) {
                fprintf(stderr, "llmm demo: --requests: '%s' is not 1 ... 10000000\n", optarg);
                return 2;
            }
            go.requests = (uint32_t)v;
            llmm_cli_gen_place(&go);
            break;
        case '?':
        case ':':
            fprintf(stderr, "llmm demo: %s option '%s'\nTry 'llmm demo --help'.\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            return 2;
        default:
            if (llmm_cli_report_option(&r, opt, optarg, &err) != LLMM_CLI_OK) {
                fprintf(stderr, "llmm demo: %s\n", err.msg);
                return 2;
            }
            if (opt != OPT_JSON && opt != OPT_EXACT && opt != OPT_SVG && opt != OPT_SAVE_SKETCH)
                report_opts = 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "llmm demo: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!report_opts && apply_defaults(&r) != 0)
        return 1;
    if (!dir) {
        const char *tmp = getenv("TMPDIR");
        snprintf(tmpl, sizeof tmpl, "%s/llmm-demo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(tmpl)) {
            fprintf(stderr, "llmm demo: cannot create a directory from %s: %s\n", tmpl,
                    strerror(errno));
            return 1;
        }
        dir = tmpl;
    } else if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "llmm demo: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, TRACE_NAME);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "llmm demo: %s: %s\n", path, strerror(errno));
        status = 1;
        goto out;
    }
    status = llmm_cli_gen_vllm(f, &go, &facts) != LLMM_CLI_OK;
    if (fclose(f) != 0 || status) {
        fprintf(stderr, "llmm demo: cannot write %s\n", path);
        status = 1;
        goto out;
    }
    if (!r.json)
        printf("llmm demo: a SYNTHETIC vLLM benchmark trace (seed %llu, %u requests over "
               "%.1f s; FP16 -> INT8 weight switch at %.1f s, TTFT storms at %.1f s and %.1f s)\n"
               "written to %s\n\n",
               (unsigned long long)go.seed, facts.requests, facts.duration, go.switch_at,
               go.spike_at[0], go.spike_at[1], path);
    fflush(stdout);
    file = path;
    if (!r.svg_dir)
        r.svg_dir = dir;
    r.files_out = r.json ? stderr : stdout;
    status = llmm_cli_report_run(&r, &file, 1, stdout);
    if (status == 0)
        status = demo_sweep(dir, go.seed, r.json ? stderr : stdout, r.json);
out:
    llmm_cli_report_free(&r);
    return status;
}
