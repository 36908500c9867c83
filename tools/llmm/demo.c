/* demo.c: `llmm demo`: write the synthetic vLLM trace (gen.c) and print its report. What
 * `./dev.sh demo` runs, so that a fresh clone shows the tool at work with no data at hand. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "report_opts.h"

enum { OPT_DIR = OPT_LAST_REPORT_OPTION + 1, OPT_SEED, OPT_REQUESTS, OPT_KEEP };

#define TRACE_NAME "llmm-demo-vllm.json"

void llmm_cli_demo_usage(FILE *f)
{
    fputs("usage: llmm demo [--dir DIR] [--seed N] [--requests N] [REPORT OPTIONS]\n"
          "\n"
          "Write a synthetic vLLM benchmark result (`vllm bench serve --save-result\n"
          "--save-detailed` format) and print `llmm report` on it. The trace is generated\n"
          "from a fixed seed by a toy serving model: Poisson arrivals, an FP16 -> INT8 weight\n"
          "switch halfway (95 s of 180) that stalls the engine for 1.5 s, recorded in the\n"
          "file's \"llmm_events\" list, TTFT storms injected at a third and near the end\n"
          "(60 s and 160 s), 0.6 % rejected requests and one stream broken half-way. It is\n"
          "synthetic data, not a measurement of any system.\n"
          "\n"
          "Options:\n"
          "  --dir DIR        write " TRACE_NAME " into DIR and keep it (default: a\n"
          "                   temporary directory, removed afterwards)\n"
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
    int opt, status, report_opts = 0, made_tmp = 0;
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
            if (opt != OPT_JSON && opt != OPT_EXACT)
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
        made_tmp = 1;
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
               "written to %s%s\n\n",
               (unsigned long long)go.seed, facts.requests, facts.duration, go.switch_at,
               go.spike_at[0], go.spike_at[1], path, made_tmp ? " (removed afterwards)" : "");
    fflush(stdout);
    file = path;
    status = llmm_cli_report_run(&r, &file, 1, stdout);
out:
    if (made_tmp) {
        remove(path);
        rmdir(tmpl);
    }
    llmm_cli_report_free(&r);
    return status;
}
