/* sketchfile.c: reading and writing .llmm sketch files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sketchfile.h"

int llmm_cli_sketch_load(const char *path, llmm_sketch **out, llmm_cli_error *err)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    llmm_status st;
    *out = NULL;
    if (!f)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", path, strerror(errno));
    for (;;) {
        size_t got;
        if (len == cap) {
            uint8_t *t;
            if (cap >= LLMM_CLI_SKETCH_FILE_MAX) {
                free(buf);
                fclose(f);
                return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                                     "%s: larger than any sketch file (%zu MiB)", path,
                                     LLMM_CLI_SKETCH_FILE_MAX >> 20);
            }
            t = realloc(buf, cap ? cap * 2 : 65536);
            if (!t) {
                free(buf);
                fclose(f);
                return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
            }
            buf = t;
            cap = cap ? cap * 2 : 65536;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: read error", path);
    }
    fclose(f);
    if (len == 0) {
        free(buf);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty file, not an llmm sketch", path);
    }
    st = llmm_sketch_deserialize(NULL, buf, len, out);
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

double llmm_cli_sketch_rel_error(int32_t scale)
{
    double b = pow(2.0, pow(2.0, -(double)scale));
    return (b - 1) / (b + 1);
}

int llmm_cli_quantile_arg(const char *s, double *q)
{
    char *end;
    double v;
    int pct = 0;
    if (s[0] == 'p' || s[0] == 'P') {
        s++;
        pct = 1;
    }
    v = strtod(s, &end);
    if (end == s)
        return LLMM_CLI_EUSAGE;
    if (*end == '%' && !pct) {
        pct = 1;
        end++;
    }
    if (*end != '\0')
        return LLMM_CLI_EUSAGE;
    if (pct)
        v /= 100.0;
    if (!(v >= 0 && v <= 1))
        return LLMM_CLI_EUSAGE;
    *q = v;
    return LLMM_CLI_OK;
}
