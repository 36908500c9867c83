/* sketch_save.c: writing a .llmm sketch file (sketch.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/sketch.h"

int llmm_cli_sketch_save(const char *path, const llmm_sketch *s, llmm_cli_error *err)
{
    size_t len = 0, plen = strlen(path);
    uint8_t *buf;
    char *tmp;
    FILE *f;
    int bad;
    if (llmm_sketch_serialize(s, NULL, 0, &len) != LLMM_E_BUFFER)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: cannot encode the sketch", path);
    buf = malloc(len);
    tmp = malloc(plen + 5);
    if (!buf || !tmp) {
        free(buf);
        free(tmp);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    if (llmm_sketch_serialize(s, buf, len, &len) != LLMM_OK) {
        free(buf);
        free(tmp);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: cannot encode the sketch", path);
    }
    f = fopen(tmp, "wb");
    if (!f) {
        llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", tmp, strerror(errno));
        free(buf);
        free(tmp);
        return LLMM_CLI_EIO;
    }
    bad = fwrite(buf, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (!bad && rename(tmp, path) != 0)
        bad = 1;
    if (bad) {
        remove(tmp);
        llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot write: %s", path, strerror(errno));
    }
    free(buf);
    free(tmp);
    return bad ? LLMM_CLI_EIO : LLMM_CLI_OK;
}
