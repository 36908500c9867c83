/* llmm: the libllmmetrics command-line tool. Every command is a file of cmd/ and an entry of
 * its table (cmd/command.h); the source layout is described in doc/cli.md. */
#include <llmmetrics/llmmetrics.h>

#include "cmd/command.h"
#include "common/output.h"

int main(int argc, char **argv)
{
    const llmm_cli_command *c;
    if (llmm_version() / 10000 != LLMM_VERSION_MAJOR) {
        fprintf(stderr, "llmm: libllmmetrics %s loaded, but built against %s\n",
                llmm_version_string(), LLMM_VERSION_STRING);
        return 1;
    }
    if (argc < 2) {
        llmm_cli_overview(stderr);
        return 2;
    }
    c = llmm_cli_command_find(argv[1], 1);
    /* every command's output ends here: a standard output that could not be written fails
     * the command (common/output.h) */
    return llmm_cli_stdout_close(c ? c->run(argc - 1, argv + 1)
                                   : llmm_cli_unknown_command(argv[1]));
}
