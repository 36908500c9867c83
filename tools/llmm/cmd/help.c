/* help.c: `llmm help [COMMAND]`: the overview, or a command's --help. */
#include "cmd/command.h"

static int run(int argc, char **argv)
{
    const llmm_cli_command *c;
    if (argc < 2) {
        llmm_cli_overview(stdout);
        return 0;
    }
    c = llmm_cli_command_find(argv[1], 0);
    if (!c)
        return llmm_cli_unknown_command(argv[1]);
    c->usage(stdout);
    return 0;
}

const llmm_cli_command llmm_cli_command_help = {
    "help", {"--help", "-h"},
    "  help [COMMAND]   this text, or a command's --help\n",
    run, llmm_cli_overview};
