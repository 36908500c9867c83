/* demo.c: `llmm demo`: write the synthetic vLLM trace (synth/trace.c) and print its report,
 * write a synthetic load sweep (synth/sweep.c) and print its knee analysis, and write the SVG
 * charts of both. What `./dev.sh demo` runs, so that a fresh clone shows the tool at work with
 * no data at hand. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/command.h"
#include "cmd/report_opts.h"
#include "common/file.h"
#include "common/output.h"
#include "render/knee.h"
#include "synth/synth.h"

#define SELF (&llmm_cli_command_demo)

enum { OPT_DIR = OPT_REPORT_END, OPT_SEED, OPT_REQUESTS };

#define TRACE_NAME "llmm-demo-vllm.json"
#define SWEEP_NAME "llmm-demo-sweep.csv"
#define SWEEP_SLO_MS 1000.0

static void usage(FILE *f)
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
        if (llmm_cli_report_option(r, opt, eq + 1, &err) != LLMM_CLI_OK)
            return llmm_cli_say(SELF, 1, "%s", err.msg);
    }
    return 0;
}

/* What the options set. */
typedef struct demo_args {
    llmm_cli_report *r;
    llmm_cli_gen_opts go;
    const char *dir;
    int report_opts; /* an option that changes the report's content was given */
} demo_args;

static int option(void *ctx, int id, const char *name, const char *arg)
{
    demo_args *a = ctx;
    llmm_cli_error err;
    uint64_t v;
    (void)name;
    if (id == OPT_DIR) {
        a->dir = arg;
    } else if (id == OPT_SEED) {
        if (!llmm_cli_u64_arg(arg, UINT64_MAX, &a->go.seed))
            return llmm_cli_say(SELF, 2, "--seed: '%s' is not a number", arg);
    } else if (id == OPT_REQUESTS) {
        if (!llmm_cli_u64_arg(arg, 10000000, &v) || v == 0)
            return llmm_cli_say(SELF, 2, "--requests: '%s' is not 1 ... 10000000", arg);
        a->go.requests = (uint32_t)v;
        llmm_cli_gen_place(&a->go);
    } else {
        if (llmm_cli_report_option(a->r, id, arg, &err) != LLMM_CLI_OK)
            return llmm_cli_say(SELF, 2, "%s", err.msg);
        if (id != OPT_JSON && id != OPT_EXACT && id != OPT_SVG && id != OPT_SAVE_SKETCH)
            a->report_opts = 1;
    }
    return -1;
}

/* The directory the files go into: dir, or a new one in $TMPDIR (tmpl holds its name). */
static int make_dir(const char **dir, char *tmpl, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    if (*dir)
        return 0;
    snprintf(tmpl, cap, "%s/llmm-demo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpl))
        return llmm_cli_say(SELF, 1, "cannot create a directory from %s: %s", tmpl,
                            strerror(errno));
    *dir = tmpl;
    return 0;
}

/* The trace half: write the trace and say what it is. */
static int demo_trace(const char *dir, const llmm_cli_gen_opts *go, int json, char *path,
                      size_t cap)
{
    llmm_cli_gen_facts facts;
    llmm_cli_error err;
    llmm_cli_out o;
    if (llmm_cli_path_in(dir, TRACE_NAME, path, cap, &err) != LLMM_CLI_OK ||
        llmm_cli_out_open(&o, path, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    if (llmm_cli_gen_vllm(o.f, go, &facts) != LLMM_CLI_OK) {
        llmm_cli_out_discard(&o);
        return llmm_cli_say(SELF, 1, "cannot write %s", path);
    }
    if (llmm_cli_out_close(&o, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    if (!json)
        printf("llmm demo: a SYNTHETIC vLLM benchmark trace (seed %llu, %u requests over "
               "%.1f s; FP16 -> INT8 weight switch at %.1f s, TTFT storms at %.1f s and %.1f s)\n"
               "written to %s\n\n",
               (unsigned long long)go->seed, facts.requests, facts.duration, go->switch_at,
               go->spike_at[0], go->spike_at[1], path);
    fflush(stdout);
    return 0;
}

/* The load-sweep half: write the sweep, print its knee analysis, write its chart. */
static int demo_sweep(const char *dir, uint64_t seed, FILE *out, int json)
{
    char path[4200] = "", svg[4200];
    llmm_cli_sweep s;
    llmm_cli_knee_eval k;
    llmm_cli_error err;
    llmm_cli_out o;
    int rc;
    if (llmm_cli_path_in(dir, SWEEP_NAME, path, sizeof path, &err) != LLMM_CLI_OK ||
        llmm_cli_out_open(&o, path, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    if (llmm_cli_sweep_generate(o.f, seed) != LLMM_CLI_OK) {
        llmm_cli_out_discard(&o);
        return llmm_cli_say(SELF, 1, "cannot write %s", path);
    }
    if (llmm_cli_out_close(&o, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    rc = llmm_cli_sweep_read(path, &s, &err);
    if (rc == LLMM_CLI_OK) {
        rc = llmm_cli_knee_run(&s, NULL, SWEEP_SLO_MS, &k, &err);
        if (rc == LLMM_CLI_OK) {
            if (!json) {
                fprintf(out, "\nllmm demo: a SYNTHETIC load sweep (USL-shaped server, seed "
                             "%llu) written to %s\n\n",
                        (unsigned long long)seed, path);
                llmm_cli_knee_text(&s, &k, SWEEP_NAME, out);
            }
            rc = llmm_cli_knee_svg(&s, &k, dir, svg, sizeof svg, &err);
        }
        llmm_cli_sweep_free(&s);
    }
    if (rc != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    fprintf(out, "\nFiles in %s:\n  %s\n  %s\n  latency_percentiles.svg\n  p99_over_time.svg\n"
                 "  %s\n",
            dir, TRACE_NAME, SWEEP_NAME, llmm_cli_basename(svg));
    return 0;
}

/* The demo on options already read (the report is freed here). */
static int demo(demo_args *a)
{
    llmm_cli_report *r = a->r;
    char tmpl[4096], path[4200], *file = path;
    int status = 1;
    if ((a->report_opts || apply_defaults(r) == 0) &&
        (status = make_dir(&a->dir, tmpl, sizeof tmpl)) == 0 &&
        (status = demo_trace(a->dir, &a->go, r->json, path, sizeof path)) == 0) {
        if (!r->svg_dir)
            r->svg_dir = a->dir;
        r->files_out = r->json ? stderr : stdout;
        status = llmm_cli_report_run(r, &file, 1, stdout);
        if (status == 0)
            status = demo_sweep(a->dir, a->go.seed, r->json ? stderr : stdout, r->json);
    }
    llmm_cli_report_free(r);
    return status;
}

static int run(int argc, char **argv)
{
    llmm_cli_report r;
    demo_args a = {&r, {0}, NULL, 0};
    int status;
    llmm_cli_report_init(&r);
    llmm_cli_gen_defaults(&a.go);
    status = llmm_cli_parse_options(SELF, LLMM_CLI_REPORT_OPTIONS " dir= seed= requests=", argc,
                                    argv, option, &a);
    if (status < 0 && optind < argc)
        status = llmm_cli_say(SELF, 2, "unexpected argument '%s'", argv[optind]);
    return status < 0 ? demo(&a) : status;
}

LLMM_CLI_DEFINE_COMMAND(demo,
    "  demo             write a synthetic vLLM trace and load sweep, print their\n"
    "                   reports and write their SVG charts\n");
