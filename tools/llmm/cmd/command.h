/* command.h: the tool's commands and what their files share.
 *
 * Each command is one file of this folder that defines `const llmm_cli_command
 * llmm_cli_command_NAME`: its name, its lines in `llmm help`, its entry point and its --help.
 * commands.c makes the table from LLMM_CLI_COMMANDS, and main.c, `llmm help` and the overview
 * go through it. Adding a command: its file (and its line in tools/llmm/meson.build), one word
 * in LLMM_CLI_COMMANDS.
 *
 * A command is thin: it parses its options (llmm_cli_parse_options), calls the readers
 * (input/), the analysis (analysis/) and the renderers (render/), and turns their return codes
 * into the exit status: 0 success, 1 a bad input or a failed computation, 2 a usage error.
 */
#ifndef LLMM_CLI_COMMAND_H
#define LLMM_CLI_COMMAND_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

typedef struct llmm_cli_command {
    const char *name;
    const char *alias[2]; /* other spellings ("--version"), matched by main.c only */
    const char *overview; /* its lines in `llmm help`, laid out as printed */
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
    void (*usage)(FILE *f);            /* its --help */
} llmm_cli_command;

/* Defines command `name` from the file's own `run` and `usage`, with no other spelling;
 * overview: its lines in `llmm help`. */
#define LLMM_CLI_DEFINE_COMMAND(name, overview)                                                    \
    const llmm_cli_command llmm_cli_command_##name = {#name, {NULL, NULL}, overview, run, usage}

/* Every command, in the order `llmm help` lists them. */
#define LLMM_CLI_COMMANDS(X) \
    X(report) X(compare) X(knee) X(merge) X(quantiles) X(capacity) X(bench) X(host) X(sim)    \
        X(demo) X(help) X(version)

#define LLMM_CLI_DECLARE_COMMAND(name) extern const llmm_cli_command llmm_cli_command_##name;
LLMM_CLI_COMMANDS(LLMM_CLI_DECLARE_COMMAND)
#undef LLMM_CLI_DECLARE_COMMAND

/* The command called name (or, with aliases, spelled so). NULL: none. */
const llmm_cli_command *llmm_cli_command_find(const char *name, int aliases);
/* `llmm help`: every command's overview. */
void llmm_cli_overview(FILE *f);
/* "llmm: unknown command 'name'" and the overview on stderr; returns 2. */
int llmm_cli_unknown_command(const char *name);

/* ---- options ----------------------------------------------------------------------------- */

/* A command's options, as one string of space-separated words: `name` (a flag) or `name=`
 * (it takes a value), either followed by `/c` when -c spells it too. An option's id is its
 * letter, else LLMM_CLI_OPT + its position in the string. -h and --help are added to every
 * command. */
#define LLMM_CLI_OPT 1000
#define LLMM_CLI_OPTIONS_MAX 64

/* One option of the command line: its id, its long name, its value (NULL for a flag). Returns
 * -1 when it is fine, else the exit status (after a message). */
typedef int (*llmm_cli_option_fn)(void *ctx, int id, const char *name, const char *arg);

/* The option loop of a command (getopt_long: options and operands in any order, "--" ends
 * the options): each option goes to fn; --help prints the command's usage; an unknown option
 * or a missing value is a usage error. Returns -1 when the command goes on with its operands
 * at argv[optind], else the exit status: 0 after --help, 2 after a bad option. */
int llmm_cli_parse_options(const llmm_cli_command *c, const char *spec, int argc, char **argv,
                           llmm_cli_option_fn fn, void *ctx);

/* "llmm NAME: message" on stderr; returns status. */
int llmm_cli_say(const llmm_cli_command *c, int status, const char *fmt, ...)
    LLMM_CLI_PRINTF(3, 4);
/* The same followed by "Try 'llmm NAME --help'."; returns 2. */
int llmm_cli_usage_error(const llmm_cli_command *c, const char *fmt, ...) LLMM_CLI_PRINTF(2, 3);

/* ---- option values ----------------------------------------------------------------------- */

/* A duration such as "250ms", "0.25s", "250us", "1.5" (bare number: milliseconds, as vLLM's
 * --goodput), >= 0. Result in seconds. */
int llmm_cli_parse_duration(const char *s, double *seconds);
/* A quantile: 0.99, p99, p99.9 or 99% → a number in [0, 1]. */
int llmm_cli_quantile_arg(const char *s, double *q);
/* --slo LIST: ttft=DUR,tpot=DUR,e2e=DUR into slo[0..2] (seconds), and err=RATE into *err_max
 * when err_max is not NULL. LLMM_CLI_EUSAGE with a message on a bad value. */
int llmm_cli_slo_arg(const char *arg, double slo[3], double *err_max, llmm_cli_error *err);
/* A whole decimal number in [0, max] (no sign); 1 if it is one. */
int llmm_cli_u64_arg(const char *s, uint64_t max, uint64_t *out);

#endif /* LLMM_CLI_COMMAND_H */
