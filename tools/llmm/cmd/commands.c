/* commands.c: the table of commands and `llmm help`'s overview (command.h). */
#include <string.h>

#include "cmd/command.h"

#define LLMM_CLI_COMMAND_ENTRY(name) &llmm_cli_command_##name,
static const llmm_cli_command *const commands[] = {LLMM_CLI_COMMANDS(LLMM_CLI_COMMAND_ENTRY)};
#undef LLMM_CLI_COMMAND_ENTRY

const llmm_cli_command *llmm_cli_command_find(const char *name, int aliases)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const llmm_cli_command *c = commands[i];
        if (strcmp(name, c->name) == 0)
            return c;
        for (size_t k = 0; aliases && k < 2 && c->alias[k]; k++)
            if (strcmp(name, c->alias[k]) == 0)
                return c;
    }
    return NULL;
}

int llmm_cli_unknown_command(const char *name)
{
    fprintf(stderr, "llmm: unknown command '%s'\n", name);
    llmm_cli_overview(stderr);
    return 2;
}

void llmm_cli_overview(FILE *f)
{
    fputs("usage: llmm COMMAND [ARGS]\n\nCommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fputs(commands[i]->overview, f);
    fputs("\nRun 'llmm COMMAND --help' for a command's options.\n", f);
}
