/* lines.c: the line assembler of the line-oriented readers (lines.h). */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "input/lines.h"

struct llmm_cli_lines {
    const char *name;
    llmm_cli_line_fn fn;
    void *user;
    char *buf;
    size_t n, cap;
    uint64_t lineno;
};

int llmm_cli_lines_new(const char *name, llmm_cli_line_fn fn, void *user,
                       llmm_cli_lines **out, llmm_cli_error *err)
{
    llmm_cli_lines *l = calloc(1, sizeof *l);
    *out = NULL;
    if (!l)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    l->name = name;
    l->fn = fn;
    l->user = user;
    l->lineno = 1;
    *out = l;
    return LLMM_CLI_OK;
}

static int lines_append(llmm_cli_lines *l, const char *s, size_t len, llmm_cli_error *err)
{
    /* checked on every piece, not only when the buffer grows: the doubling buffer may already
     * hold more than the limit (the limit was 128 MiB for a line that began a file) */
    if (len > LLMM_CLI_LINE_MAX - l->n)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu: line longer than %zu bytes",
                             l->name, (unsigned long long)l->lineno, LLMM_CLI_LINE_MAX);
    if (l->n + len + 1 > l->cap &&
        llmm_cli_grow(&l->buf, &l->cap, l->n + len + 1, 1, 4096) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", l->name);
    memcpy(l->buf + l->n, s, len);
    l->n += len;
    l->buf[l->n] = '\0';
    return LLMM_CLI_OK;
}

static int lines_emit(llmm_cli_lines *l, llmm_cli_error *err)
{
    int rc;
    if (!l->buf && (rc = lines_append(l, "", 0, err)) != LLMM_CLI_OK)
        return rc;
    if (l->n > 0 && l->buf[l->n - 1] == '\r')
        l->buf[--l->n] = '\0';
    rc = l->fn(l->user, l->buf, l->n, l->lineno, err);
    l->n = 0;
    l->lineno++;
    return rc;
}

int llmm_cli_lines_feed(llmm_cli_lines *l, const char *buf, size_t len, llmm_cli_error *err)
{
    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t seg = nl ? (size_t)(nl - buf) : len;
        int rc = lines_append(l, buf, seg, err);
        if (rc != LLMM_CLI_OK)
            return rc;
        if (!nl)
            break;
        if ((rc = lines_emit(l, err)) != LLMM_CLI_OK)
            return rc;
        buf += seg + 1;
        len -= seg + 1;
    }
    return LLMM_CLI_OK;
}

int llmm_cli_lines_finish(llmm_cli_lines *l, llmm_cli_error *err)
{
    return l->n > 0 ? lines_emit(l, err) : LLMM_CLI_OK;
}

void llmm_cli_lines_free(llmm_cli_lines *l)
{
    if (!l)
        return;
    free(l->buf);
    free(l);
}

const char *llmm_cli_first_line(const char *h, size_t len, size_t *n)
{
    size_t i = 0;
    while (i < len) {
        size_t e = i, b = i;
        while (e < len && h[e] != '\n')
            e++;
        while (b < e && (h[b] == ' ' || h[b] == '\t' || h[b] == '\r'))
            b++;
        if (b < e && h[b] != '#') {
            size_t k = e - b;
            while (k > 0 && (h[b + k - 1] == '\r' || h[b + k - 1] == ' ' || h[b + k - 1] == '\t'))
                k--;
            *n = k;
            return h + b;
        }
        i = e + 1;
    }
    return NULL;
}
