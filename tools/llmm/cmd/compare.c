/* compare.c: `llmm compare A B ...`: every run of the inputs side by side (analysis/compare.h),
 * as a table, JSON or charts (render/compare.h). */
#include <math.h>
#include <stdlib.h>

#include "cmd/command.h"
#include "render/compare.h"

#define SELF (&llmm_cli_command_compare)

#define OPTIONS "json format= slo= svg="
enum { OPT_JSON = LLMM_CLI_OPT, OPT_FORMAT, OPT_SLO, OPT_SVG };

static void usage(FILE *f)
{
    fputs("usage: llmm compare [OPTIONS] FILE...\n"
          "\n"
          "One table over several runs (servers, configurations, sequence lengths): for each\n"
          "run, throughput, TTFT / TPOT / E2E at P50, P99 and P99.9, goodput (with --slo),\n"
          "error rate, and the sequence-length decay between runs that differ in input length.\n"
          "Every run of every FILE is a column: a file of one run, each document of a vLLM\n"
          "--append-result or SGLang JSONL file, each GuideLLM benchmark, each genai-perf\n"
          "experiment. FILE is in any format `llmm report` reads (detected from its content).\n"
          "A run that holds statistics only (a genai-perf summary, SGLang without\n"
          "--output-details) shows the tool's own figures, marked '*'.\n"
          "\n"
          "Sequence-length decay (doc/spec.md, section 3): 1 - T_long / T_short with T the\n"
          "output tokens per second, each run against the run with the shortest mean input,\n"
          "for runs whose mean input is at least 5 % longer.\n"
          "\n"
          "Options:\n"
          "  --slo LIST       goodput limits, e.g. ttft=500ms,tpot=50ms,e2e=10s\n"
          "  --format F       read every FILE as format F (see llmm report --help)\n"
          "  --json           one JSON object instead of the table\n"
          "  --svg DIR        write DIR/compare_latency.svg (grouped bars: each latency\n"
          "                   quantile, a bar per run) and DIR/compare_p99_vs_throughput.svg\n"
          "                   (P99 TTFT and E2E against throughput, a point per run)\n"
          "  -h, --help       this text\n"
          "\n"
          "Exit status: 0 done, 1 unreadable or malformed input, 2 usage error.\n",
          f);
}

typedef struct compare_args {
    llmm_cli_compare c;
    int json;
    const char *svg;
} compare_args;

static int option(void *ctx, int id, const char *name, const char *arg)
{
    compare_args *a = ctx;
    llmm_cli_error err;
    char names[256];
    (void)name;
    switch (id) {
    case OPT_JSON:
        a->json = 1;
        return -1;
    case OPT_FORMAT:
        if (llmm_cli_format_parse(arg, &a->c.fmt) != LLMM_CLI_OK)
            return llmm_cli_say(SELF, 2, "--format: '%s' is not one of %s", arg,
                                llmm_cli_format_names(names, sizeof names));
        return -1;
    case OPT_SLO:
        if (llmm_cli_slo_arg(arg, a->c.slo, NULL, &err) != LLMM_CLI_OK)
            return llmm_cli_say(SELF, 2, "%s", err.msg);
        return -1;
    default: /* OPT_SVG */
        a->svg = arg;
        return -1;
    }
}

static int compare(compare_args *a, char **files, size_t n)
{
    llmm_cli_error err;
    int rc;
    err.msg[0] = '\0';
    if (llmm_cli_compare_build(&a->c, files, n, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    if (a->json)
        rc = llmm_cli_compare_json(&a->c, stdout);
    else
        llmm_cli_compare_text(&a->c, stdout), rc = LLMM_CLI_OK;
    if (rc == LLMM_CLI_OK && a->svg) {
        if (!a->json)
            fputc('\n', stdout);
        rc = llmm_cli_compare_svg(&a->c, a->svg, a->json ? stderr : stdout, &err);
        if (rc != LLMM_CLI_OK)
            llmm_cli_say(SELF, 1, "%s", err.msg);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        rc = LLMM_CLI_EIO;
    return rc == LLMM_CLI_OK ? 0 : 1;
}

static int run(int argc, char **argv)
{
    compare_args a = {.json = 0};
    int status;
    llmm_cli_compare_init(&a.c);
    status = llmm_cli_parse_options(SELF, OPTIONS, argc, argv, option, &a);
    if (status < 0 && optind >= argc)
        status = llmm_cli_usage_error(SELF, "no input FILE");
    if (status < 0)
        status = compare(&a, argv + optind, (size_t)(argc - optind));
    llmm_cli_compare_free(&a.c);
    return status;
}

LLMM_CLI_DEFINE_COMMAND(compare,
    "  compare FILE...  one table over several runs: throughput, latency percentiles,\n"
    "                   goodput, error rate, sequence-length decay\n");
