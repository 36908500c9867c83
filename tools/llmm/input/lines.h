/* lines.h: the line assembler of the line-oriented readers (CSV, JSONL): feed chunks of any
 * size, get whole lines (without the '\n' and a '\r' before it) with their numbers. */
#ifndef LLMM_CLI_LINES_H
#define LLMM_CLI_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

typedef struct llmm_cli_lines llmm_cli_lines;
/* One line, NUL-terminated in place (len bytes before the NUL); lineno from 1. */
typedef int (*llmm_cli_line_fn)(void *user, char *line, size_t len, uint64_t lineno,
                                llmm_cli_error *err);

int llmm_cli_lines_new(const char *name, llmm_cli_line_fn fn, void *user,
                       llmm_cli_lines **out, llmm_cli_error *err);
int llmm_cli_lines_feed(llmm_cli_lines *l, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_lines_finish(llmm_cli_lines *l, llmm_cli_error *err);
void llmm_cli_lines_free(llmm_cli_lines *l);

/* The first line of text[0..len) that is neither blank nor a '#' comment, without its leading
 * blanks and trailing blanks and '\r': its start and *n bytes, or NULL. */
const char *llmm_cli_first_line(const char *text, size_t len, size_t *n);

/* Longest accepted line (bytes), the one limit of every line-oriented format (CSV, JSONL). */
#define LLMM_CLI_LINE_MAX ((size_t)64 << 20)

#endif /* LLMM_CLI_LINES_H */
