/* error.h: the tool's return codes and error messages.
 *
 * The tool is the library's first real user: it includes only <llmmetrics/llmmetrics.h> and
 * links only the public shared library. Names here are the tool's own (`llmm_cli_`), never
 * exported by the library.
 */
#ifndef LLMM_CLI_ERROR_H
#define LLMM_CLI_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* Return codes of the tool's internal calls (the process exit status of `llmm` is 0 for
 * success, 1 for a bad input or failed computation, 2 for a usage error). */
enum {
    LLMM_CLI_OK = 0,
    LLMM_CLI_EPARSE = 1, /* malformed input; the message names file:line[:column] */
    LLMM_CLI_ENOMEM = 2,
    LLMM_CLI_EIO = 3,
    LLMM_CLI_EUSAGE = 4
};

#if defined(__GNUC__)
#define LLMM_CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LLMM_CLI_PRINTF(f, a)
#endif

#define LLMM_CLI_ERR_MAX 1024

typedef struct llmm_cli_error {
    char msg[LLMM_CLI_ERR_MAX];
} llmm_cli_error;

/* Format a message into err (always NUL-terminated, truncated if needed; err may be NULL);
 * returns code. */
int llmm_cli_fail(llmm_cli_error *err, int code, const char *fmt, ...) LLMM_CLI_PRINTF(3, 4);

/* The error a parser's callback raised inside YAJL, reported with its position once YAJL
 * returns. */
typedef struct llmm_cli_cb_error {
    int code;
    char msg[LLMM_CLI_ERR_MAX / 2];
} llmm_cli_cb_error;

/* Record code and message in e; returns 0, the YAJL callback result that stops the parse. */
int llmm_cli_cb_vfail(llmm_cli_cb_error *e, int code, const char *fmt, va_list ap)
    LLMM_CLI_PRINTF(3, 0);

#endif /* LLMM_CLI_ERROR_H */
