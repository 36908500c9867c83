/* file.c: reading a whole file, file names and output directories (file.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/array.h"
#include "common/file.h"

static int read_stream(FILE *f, const char *path, size_t max, char **buf, size_t *len,
                       llmm_cli_error *err)
{
    char *b = NULL;
    size_t n = 0, cap = 0;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: larger than %zu MiB", path, max >> 20);
    for (;;) { /* at most max + 1 bytes: one more than max tells a file that is too large */
        size_t want, got;
        if (n == cap && llmm_cli_grow(&b, &cap, n + 1, 1, 65536) != LLMM_CLI_OK) {
            free(b);
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        }
        want = cap - n < max + 1 - n ? cap - n : max + 1 - n;
        got = fread(b + n, 1, want, f);
        n += got;
        if (n > max) {
            free(b);
            return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: larger than %zu MiB", path,
                                 max >> 20);
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(b);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: read error", path);
    }
    *buf = b;
    *len = n;
    return LLMM_CLI_OK;
}

int llmm_cli_read_all(const char *path, int stdin_ok, size_t max, char **buf, size_t *len,
                      llmm_cli_error *err)
{
    int is_stdin = stdin_ok && strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    int rc;
    *buf = NULL;
    *len = 0;
    if (!f)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", path, strerror(errno));
    rc = read_stream(f, path, max, buf, len, err);
    if (!is_stdin)
        fclose(f);
    return rc;
}

int llmm_cli_path_in(const char *dir, const char *name, char *buf, size_t cap,
                     llmm_cli_error *err)
{
    int n;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "cannot create %s: %s", dir, strerror(errno));
    n = snprintf(buf, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "path too long: %s/%s", dir, name);
    return LLMM_CLI_OK;
}

const char *llmm_cli_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
