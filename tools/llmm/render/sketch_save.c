/* sketch_save.c: writing a .llmm sketch file (sketch.h). */
#include <stdlib.h>

#include "common/output.h"
#include "render/sketch.h"

int llmm_cli_sketch_save(const char *path, const llmm_sketch *s, llmm_cli_error *err)
{
    size_t len = 0;
    uint8_t *buf;
    int rc;
    if (llmm_sketch_serialize(s, NULL, 0, &len) != LLMM_E_BUFFER)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: cannot encode the sketch", path);
    buf = malloc(len);
    if (!buf)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    if (llmm_sketch_serialize(s, buf, len, &len) != LLMM_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: cannot encode the sketch", path);
    else
        rc = llmm_cli_out_write_file(path, buf, len, err);
    free(buf);
    return rc;
}
