/* Parsers of the kernel's text files (host_internal.h). Pure functions on a buffer and its
 * length (bytes after the length are never read; NUL bytes are ordinary bytes), strict by
 * design: what is not exactly the expected layout is refused, so garbage never becomes a
 * number. Portable C: the fuzz target runs them anywhere. */
#include <string.h>

#include "host_internal.h"

int llmm__host_parse_u64(const char *p, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i;

    if (len == 0 || len > 20)
        return LLMM__HOST_GARBAGE;
    for (i = 0; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)p[i] - (unsigned)'0';
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return LLMM__HOST_GARBAGE;
        v = v * 10 + d;
    }
    *out = v;
    return LLMM__HOST_FOUND;
}

/* The complete line at *pos (without its '\n'), advancing *pos past it; 0 when none is left. */
static int next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n)
{
    const char *nl;

    if (*pos >= len)
        return 0;
    nl = memchr(buf + *pos, '\n', len - *pos);
    if (!nl)
        return 0;
    *line = buf + *pos;
    *n = (size_t)(nl - *line);
    *pos = (size_t)(nl - buf) + 1;
    return 1;
}

/* Whether the line starts with `word` followed by one space. */
static int starts_with(const char *line, size_t n, const char *word, size_t wlen)
{
    return n > wlen && memcmp(line, word, wlen) == 0 && line[wlen] == ' ';
}

/* The next field of a line split at single spaces (two spaces make an empty field): *f and
 * *fn; returns 0 past the last field. *pos starts at 0. */
static int next_field(const char *line, size_t n, size_t *pos, const char **f, size_t *fn)
{
    const char *sp;

    if (*pos > n)
        return 0;
    *f = line + *pos;
    sp = memchr(*f, ' ', n - *pos);
    *fn = sp ? (size_t)(sp - *f) : n - *pos;
    *pos += *fn + 1;
    return 1;
}

int llmm__host_parse_keyed(const char *buf, size_t len, const char *key, uint64_t *out)
{
    size_t pos = 0, n, klen = strlen(key);
    const char *line;
    uint64_t v = 0;
    int found = LLMM__HOST_MISSING;

    while (next_line(buf, len, &pos, &line, &n)) {
        if (!starts_with(line, n, key, klen))
            continue;
        if (found != LLMM__HOST_MISSING ||
            llmm__host_parse_u64(line + klen + 1, n - klen - 1, &v) != LLMM__HOST_FOUND)
            return LLMM__HOST_GARBAGE;
        found = LLMM__HOST_FOUND;
    }
    if (found == LLMM__HOST_FOUND)
        *out = v;
    return found;
}

/* Index of the field named `column` in a header line, or -1. */
static long column_index(const char *line, size_t n, const char *column)
{
    size_t pos = 0, fn, clen = strlen(column);
    const char *f;
    long i;

    for (i = 0; next_field(line, n, &pos, &f, &fn); i++)
        if (fn == clen && memcmp(f, column, clen) == 0)
            return i;
    return -1;
}

static size_t field_count(const char *line, size_t n)
{
    size_t pos = 0, fn, count = 0;
    const char *f;

    while (next_field(line, n, &pos, &f, &fn))
        count++;
    return count;
}

/* Field i of a line (it exists: the caller counted). */
static void field_at(const char *line, size_t n, size_t i, const char **f, size_t *fn)
{
    size_t pos = 0;
    while (next_field(line, n, &pos, f, fn) && i-- > 0)
        continue;
}

int llmm__host_parse_table(const char *buf, size_t len, const char *prefix, const char *column,
                           uint64_t *out)
{
    size_t pos = 0, n, hn = 0, plen = strlen(prefix), seen = 0;
    const char *line, *head = NULL, *f;
    long col = -1;
    uint64_t v = 0;
    size_t fn;

    while (next_line(buf, len, &pos, &line, &n)) {
        if (!starts_with(line, n, prefix, plen)) {
            if (seen == 1) /* the header's value line must follow it */
                return LLMM__HOST_GARBAGE;
            continue;
        }
        if (++seen == 1) {
            head = line;
            hn = n;
            col = column_index(line, n, column);
        } else if (seen == 2 && col >= 0) {
            if (field_count(line, n) != field_count(head, hn))
                return LLMM__HOST_GARBAGE;
            field_at(line, n, (size_t)col, &f, &fn);
            if (llmm__host_parse_u64(f, fn, &v) != LLMM__HOST_FOUND)
                return LLMM__HOST_GARBAGE;
        } else if (seen > 2) {
            return LLMM__HOST_GARBAGE;
        }
    }
    if (seen == 0 || (seen == 2 && col < 0))
        return LLMM__HOST_MISSING;
    if (seen != 2)
        return LLMM__HOST_GARBAGE;
    *out = v;
    return LLMM__HOST_FOUND;
}

int llmm__host_parse_psi_some(const char *buf, size_t len, uint64_t *out)
{
    static const char total[] = "total=";
    size_t pos = 0, n, fpos, fn, tlen = sizeof total - 1;
    const char *line, *f;
    uint64_t v = 0;
    int found = LLMM__HOST_MISSING;

    while (next_line(buf, len, &pos, &line, &n)) {
        int got = 0;
        if (!starts_with(line, n, "some", 4))
            continue;
        if (found != LLMM__HOST_MISSING)
            return LLMM__HOST_GARBAGE;
        for (fpos = 5; next_field(line, n, &fpos, &f, &fn);) {
            if (fn < tlen || memcmp(f, total, tlen) != 0)
                continue;
            if (got || llmm__host_parse_u64(f + tlen, fn - tlen, &v) != LLMM__HOST_FOUND)
                return LLMM__HOST_GARBAGE;
            got = 1;
        }
        if (!got)
            return LLMM__HOST_GARBAGE;
        found = LLMM__HOST_FOUND;
    }
    if (found == LLMM__HOST_FOUND)
        *out = v;
    return found;
}

int llmm__host_parse_field(const char *buf, size_t len, size_t index, uint64_t *out)
{
    size_t pos = 0, n, fpos = 0, fn, i;
    const char *line, *f;
    uint64_t v = 0, x;
    int got = 0;

    if (!next_line(buf, len, &pos, &line, &n))
        return LLMM__HOST_MISSING;
    for (i = 0; next_field(line, n, &fpos, &f, &fn); i++) {
        if (llmm__host_parse_u64(f, fn, &x) != LLMM__HOST_FOUND)
            return LLMM__HOST_GARBAGE;
        if (i == index) {
            v = x;
            got = 1;
        }
    }
    if (!got)
        return LLMM__HOST_GARBAGE;
    *out = v;
    return LLMM__HOST_FOUND;
}

/* Largest CPU id a list may name (the kernel's NR_CPUS limit is 8192). */
#define CPU_ID_MAX 65535u

/* One item of a CPU list, "a" or "a-b" (a <= b <= CPU_ID_MAX). */
static int cpu_range(const char *f, size_t fn, uint32_t *a, uint32_t *b)
{
    const char *dash = memchr(f, '-', fn);
    uint64_t lo, hi;

    if (llmm__host_parse_u64(f, dash ? (size_t)(dash - f) : fn, &lo) != LLMM__HOST_FOUND)
        return 0;
    hi = lo;
    if (dash &&
        llmm__host_parse_u64(dash + 1, fn - (size_t)(dash - f) - 1, &hi) != LLMM__HOST_FOUND)
        return 0;
    if (lo > hi || hi > CPU_ID_MAX)
        return 0;
    *a = (uint32_t)lo;
    *b = (uint32_t)hi;
    return 1;
}

int llmm__host_parse_cpulist(const char *buf, size_t len, uint32_t *ids, size_t cap, size_t *n)
{
    size_t pos = 0, ln, ipos = 0, fn, count = 0;
    const char *line, *item, *comma;
    uint32_t a, b, id;

    if (!next_line(buf, len, &pos, &line, &ln) || ln == 0)
        return LLMM__HOST_MISSING;
    while (ipos <= ln) {
        item = line + ipos;
        comma = memchr(item, ',', ln - ipos);
        fn = comma ? (size_t)(comma - item) : ln - ipos;
        if (!cpu_range(item, fn, &a, &b))
            return LLMM__HOST_GARBAGE;
        for (id = a; id <= b && count < cap; id++)
            ids[count++] = id;
        ipos += fn + 1;
    }
    *n = count;
    return LLMM__HOST_FOUND;
}

/* Whether a comma-separated controller list names `cpu`. */
static int has_cpu(const char *list, size_t n)
{
    size_t i = 0;
    while (i <= n) {
        const char *c = memchr(list + i, ',', n - i);
        size_t k = c ? (size_t)(c - (list + i)) : n - i;
        if (k == 3 && memcmp(list + i, "cpu", 3) == 0)
            return 1;
        i += k + 1;
    }
    return 0;
}

int llmm__host_parse_cgroup(const char *buf, size_t len, int v2, const char **path,
                            size_t *path_len, const char **name, size_t *name_len)
{
    size_t pos = 0, n;
    const char *line, *c1, *c2;

    while (next_line(buf, len, &pos, &line, &n)) {
        c1 = memchr(line, ':', n);
        c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;
        if (!c2 || c2 + 1 == line + n || c2[1] != '/')
            continue;
        if (v2 ? !(c1 - line == 1 && line[0] == '0' && c2 == c1 + 1)
               : !has_cpu(c1 + 1, (size_t)(c2 - c1 - 1)))
            continue;
        *path = c2 + 1;
        *path_len = (size_t)(line + n - *path);
        *name = c1 + 1;
        *name_len = (size_t)(c2 - c1 - 1);
        return LLMM__HOST_FOUND;
    }
    return LLMM__HOST_MISSING;
}
