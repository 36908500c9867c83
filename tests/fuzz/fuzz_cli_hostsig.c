/* libFuzzer target: the llmm tool's reader of host-signal files (tools/llmm/input/hostsig.c,
 * the files `llmm host` writes and `llmm report --host-signals` reads) on arbitrary bytes.
 *
 * Input: bytes 0-1 pick a line boundary to split at; the rest is the file, in an exactly sized
 * heap buffer without a terminating NUL (any overread is a sanitizer report). Checked:
 *   - the result is OK, a parse error or out of memory; an error names the input ("fz…") and
 *     leaves the samples as they were (none);
 *   - read samples are in strictly increasing finite time, every value is NaN (none on that
 *     line) or finite and >= 0, the first unknown key's record is NUL-terminated;
 *   - a file read whole, and the same file read as two parts split after a newline into the
 *     same sample list, give the same samples and the same count of unknown keys: the reader
 *     carries nothing from one line to the next but the last time;
 *   - no leak (LeakSanitizer) on any path. */
#include "fuzz_common.h"

#include "input/hostsig.h"

static void check_read(const llmm_cli_hostsig *h)
{
    CHECK(memchr(h->first_unknown, '\0', sizeof h->first_unknown) != NULL);
    for (size_t i = 0; i < h->n; i++) {
        CHECK(isfinite(h->s[i].t));
        CHECK(i == 0 || h->s[i].t > h->s[i - 1].t);
        for (int k = 0; k < LLMM_CLI_HOST_MAX; k++)
            CHECK(isnan(h->s[i].v[k]) || (isfinite(h->s[i].v[k]) && h->s[i].v[k] >= 0));
    }
}

/* The offset just past the k-th newline of buf (mod their count), or 0 without one. */
static size_t line_boundary(const char *buf, size_t len, unsigned k)
{
    size_t lines = 0, i;
    for (i = 0; i < len; i++)
        lines += buf[i] == '\n';
    if (lines == 0)
        return 0;
    k %= (unsigned)lines;
    for (i = 0; i < len; i++)
        if (buf[i] == '\n' && k-- == 0)
            return i + 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    llmm_cli_hostsig whole, parts;
    llmm_cli_error err;
    unsigned k = size >= 2 ? (unsigned)data[0] << 8 | data[1] : 0;
    size_t len = size >= 2 ? size - 2 : 0, cut;
    char *buf = malloc(len ? len : 1);
    int rc;

    CHECK(buf != NULL);
    memcpy(buf, data + (size - len), len);
    memset(&whole, 0, sizeof whole);
    rc = llmm_cli_hostsig_parse(buf, len, "fz", &whole, &err);
    CHECK(rc == LLMM_CLI_OK || rc == LLMM_CLI_EPARSE || rc == LLMM_CLI_ENOMEM);
    if (rc != LLMM_CLI_OK) {
        CHECK(strncmp(err.msg, "fz", 2) == 0);
        CHECK(whole.n == 0);
    }
    check_read(&whole);

    cut = line_boundary(buf, len, k);
    if (rc == LLMM_CLI_OK) {
        memset(&parts, 0, sizeof parts);
        CHECK(llmm_cli_hostsig_parse(buf, cut, "fz", &parts, &err) == LLMM_CLI_OK);
        CHECK(llmm_cli_hostsig_parse(buf + cut, len - cut, "fz", &parts, &err) == LLMM_CLI_OK);
        CHECK(parts.n == whole.n && parts.unknown == whole.unknown);
        CHECK(whole.n == 0 || memcmp(parts.s, whole.s, whole.n * sizeof *whole.s) == 0);
        llmm_cli_hostsig_free(&parts);
    }
    llmm_cli_hostsig_free(&whole);
    free(buf);
    return 0;
}
