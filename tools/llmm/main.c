/* llmm: the libllmmetrics command-line tool. One file per subcommand (report.c, demo.c). */
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: llmm COMMAND [ARGS]\n"
          "\n"
          "Commands:\n"
          "  report FILE...   latency, throughput, goodput and score report of benchmark traces\n"
          "                   (vLLM bench serve JSON, CSV or JSONL)\n"
          "  demo             write a synthetic vLLM trace and print its report\n"
          "  help [COMMAND]   this text, or a command's --help\n"
          "  version          the tool's and the loaded library's version\n"
          "\n"
          "Run 'llmm COMMAND --help' for a command's options.\n",
          f);
}

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
    if (strcmp(cmd, "demo") == 0)
        return llmm_cli_cmd_demo(argc - 1, argv + 1);
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
        if (sub && strcmp(sub, "report") == 0)
            llmm_cli_report_usage(stdout);
        else if (sub && strcmp(sub, "demo") == 0)
            llmm_cli_demo_usage(stdout);
        else if (sub && strcmp(sub, "version") != 0 && strcmp(sub, "help") != 0) {
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
