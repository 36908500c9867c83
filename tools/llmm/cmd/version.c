/* version.c: `llmm version`: the tool's version and that of the library it loaded. */
#include <string.h>

#include <llmmetrics/llmmetrics.h>

#include "cmd/command.h"

static void usage(FILE *f)
{
    fputs("usage: llmm version\n\nPrint the tool's version and that of the libllmmetrics it "
          "loaded.\n",
          f);
}

static int run(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "llmm version: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    printf("llmm %s (libllmmetrics %s loaded)\n", LLMM_VERSION_STRING, llmm_version_string());
    return 0;
}

const llmm_cli_command llmm_cli_command_version = {
    "version", {"--version", NULL},
    "  version          the tool's and the loaded library's version\n",
    run, usage};
