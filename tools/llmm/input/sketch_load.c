/* sketch_load.c: reading a .llmm sketch file (sketch.h). */
#include <stdio.h>
#include <stdlib.h>

#include "common/file.h"
#include "input/sketch.h"

/* What doc/format.md section 3.4 says each rule is, for the messages that name one. */
static const char *const rule_text[] = {
    "",
    "the counts do not add up to the count",
    "an empty sketch with a min, max or sum",
    "min and max out of order or not finite",
    "values other than 0 with a max of 0",
    "a zero counted with a min above 0",
    "min or max contradict the buckets",
    "a negative sum",
};

int llmm_cli_sketch_load(const char *path, llmm_sketch **out, llmm_cli_error *err)
{
    char *buf;
    size_t len;
    llmm_status st;
    llmm_decode_info info;
    int rc = llmm_cli_read_all(path, 0, LLMM_CLI_SKETCH_FILE_MAX, &buf, &len, err);
    *out = NULL;
    if (rc != LLMM_CLI_OK)
        return rc;
    if (len == 0) {
        free(buf);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty file, not an llmm sketch", path);
    }
    llmm_decode_info_init(&info);
    st = llmm_sketch_deserialize_ex(NULL, (const uint8_t *)buf, len, out, &info);
    free(buf);
    if (st == LLMM_OK && info.repaired)
        fprintf(stderr,
                "llmm: warning: %s: written by llmm 1.0 with a known bug (doc/format.md 3.4, "
                "rule 6: %s); read with its min and max repaired (were %.17g and %.17g)\n",
                path, rule_text[6], info.message_min, info.message_max);
    if (st == LLMM_E_CORRUPT && !info.intact)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: not an intact llmm sketch file (damaged, truncated or another "
                             "format)",
                             path);
    if (st == LLMM_E_CORRUPT && info.rule >= 1 && info.rule <= 7)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: an intact llmm sketch file whose fields contradict each other "
                             "(doc/format.md 3.4, rule %d: %s)",
                             path, (int)info.rule, rule_text[info.rule]);
    if (st == LLMM_E_CORRUPT)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: an intact llmm sketch file with a field out of its bounds "
                             "(doc/format.md section 3)",
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
