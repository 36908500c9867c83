/* llmm: the libllmmetrics command-line tool. One file per subcommand (report.c, knee.c, merge.c,
 * quantiles.c, capacity.c, demo.c). */
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: llmm COMMAND [ARGS]\n"
          "\n"
          "Commands:\n"
          "  report FILE...   latency, throughput, goodput and score report of benchmark traces\n"
          "                   (vLLM bench serve JSON, CSV or JSONL)\n"
          "  knee SWEEP.csv   knee estimators, USL fit and SLO capacity of a load sweep\n"
          "  merge A.llmm ... -o OUT.llmm   merge binary sketch files exactly\n"
          "  quantiles X.llmm [Q...]        quantiles and counts of a sketch file\n"
          "  capacity         Little's-law, roofline, decay and scaling figures\n"
          "  demo             write a synthetic vLLM trace and load sweep, print their\n"
          "                   reports and write their SVG charts\n"
          "  help [COMMAND]   this text, or a command's --help\n"
          "  version          the tool's and the loaded library's version\n"
          "\n"
          "Run 'llmm COMMAND --help' for a command's options.\n",
          f);
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *f);
} commands[] = {
    {"report", llmm_cli_cmd_report, llmm_cli_report_usage},
    {"knee", llmm_cli_cmd_knee, llmm_cli_knee_usage},
    {"merge", llmm_cli_cmd_merge, llmm_cli_merge_usage},
    {"quantiles", llmm_cli_cmd_quantiles, llmm_cli_quantiles_usage},
    {"capacity", llmm_cli_cmd_capacity, llmm_cli_capacity_usage},
    {"demo", llmm_cli_cmd_demo, llmm_cli_demo_usage},
};

static int version(void)
{
    printf("llmm %s (libllmmetrics %s loaded)\n", LLMM_VERSION_STRING, llmm_version_string());
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (llmm_version() / 10000 != LLMM_VERSION_MAJOR) {
        fprintf(stderr, "llmm: libllmmetrics %s loaded, but built against %s\n",
                llmm_version_string(), LLMM_VERSION_STRING);
        return 1;
    }
    if (!cmd) {
        usage(stderr);
        return 2;
    }
    if (strcmp(cmd, "report") == 0)
        return llmm_cli_cmd_report(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
            puts("usage: llmm version\n\nPrint the tool's version and that of the "
                 "libllmmetrics it loaded.");
            return 0;
        }
        if (argc > 2) {
            fprintf(stderr, "llmm version: unexpected argument '%s'\n", argv[2]);
            return 2;
        }
        return version();
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        const char *sub = argc > 2 ? argv[2] : NULL;
        for (size_t i = 0; sub && i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(sub, commands[i].name) == 0) {
                commands[i].usage(stdout);
                return 0;
            }
        if (sub && strcmp(sub, "version") != 0 && strcmp(sub, "help") != 0) {
            fprintf(stderr, "llmm: unknown command '%s'\n", sub);
            usage(stderr);
            return 2;
        } else
            usage(stdout);
        return 0;
    }
    fprintf(stderr, "llmm: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
