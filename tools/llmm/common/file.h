/* file.h: reading a whole file, file names and output directories. */
#ifndef LLMM_CLI_FILE_H
#define LLMM_CLI_FILE_H

#include <stddef.h>

#include "common/error.h"

/* Read all of path into *buf (malloc'ed, *len bytes, not NUL-terminated; the caller frees it;
 * NULL when empty). "-" is standard input when stdin_ok. A file of more than max bytes is
 * LLMM_CLI_EPARSE. */
int llmm_cli_read_all(const char *path, int stdin_ok, size_t max, char **buf, size_t *len,
                      llmm_cli_error *err);

/* dir + "/" + name into buf, creating dir when it does not exist; on failure the message says
 * which directory or that the path is too long. */
int llmm_cli_path_in(const char *dir, const char *name, char *buf, size_t cap,
                     llmm_cli_error *err);

/* The part of path after the last '/'. */
const char *llmm_cli_basename(const char *path);

#endif /* LLMM_CLI_FILE_H */
