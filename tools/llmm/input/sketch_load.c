/* sketch_load.c: reading a .llmm sketch file (sketch.h). */
#include <stdlib.h>

#include "common/file.h"
#include "input/sketch.h"

int llmm_cli_sketch_load(const char *path, llmm_sketch **out, llmm_cli_error *err)
{
    char *buf;
    size_t len;
    llmm_status st;
    int rc = llmm_cli_read_all(path, 0, LLMM_CLI_SKETCH_FILE_MAX, &buf, &len, err);
    *out = NULL;
    if (rc != LLMM_CLI_OK)
        return rc;
    if (len == 0) {
        free(buf);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty file, not an llmm sketch", path);
    }
    st = llmm_sketch_deserialize(NULL, (const uint8_t *)buf, len, out);
    free(buf);
    if (st == LLMM_E_CORRUPT)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: not an intact llmm sketch file (damaged, truncated or another "
                             "format)",
                             path);
    if (st == LLMM_E_VERSION)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: an llmm sketch of a format version newer than %d (this "
                             "library's)",
                             path, LLMM_SKETCH_FORMAT_VERSION);
    if (st != LLMM_OK)
        return llmm_cli_fail(err, st == LLMM_E_NOMEM ? LLMM_CLI_ENOMEM : LLMM_CLI_EPARSE,
                             "%s: %s", path, llmm_strerror(st));
    return LLMM_CLI_OK;
}
