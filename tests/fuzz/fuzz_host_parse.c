/* libFuzzer target: the host sampler's parsers (lib/host/host_parse.c) on arbitrary bytes.
 *
 * The first byte picks the parser, the rest is the file's content (not NUL-terminated: any
 * read past it is an ASan report). Checked for every parser: the result is FOUND, MISSING or
 * GARBAGE, the outputs are written only on FOUND, and what FOUND returns is in the buffer:
 *   keyed   against a plain reference: exactly one complete line "key " + 1 to 20 digits
 *           within 64 bits, and that value;
 *   table   the value's digits are one field of a complete "Tcp: " line;
 *   psi     a complete "some " line holds "total=" and the value's digits;
 *   field   the value's digits are a field of the first line;
 *   cpulist at most cap ids, each at most 65535, at least one;
 *   cgroup  the path lies in the buffer, starts with '/' and holds no '\n'. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "host/host_internal.h"

#define SENTINEL UINT64_C(0xdeadbeefcafef00d)

/* Whether `digits` (decimal of v, no leading zeros) occurs in buf as a whole number, i.e. as
 * digits after any leading zeros, bounded by non-digits. */
static int holds_number(const char *buf, size_t len, uint64_t v)
{
    char d[24];
    int n = snprintf(d, sizeof d, "%" PRIu64, v);
    for (size_t i = 0; i + (size_t)n <= len; i++) {
        size_t s = i, e = i + (size_t)n;
        if (memcmp(buf + i, d, (size_t)n) != 0 || (e < len && buf[e] >= '0' && buf[e] <= '9'))
            continue;
        while (s > 0 && buf[s - 1] == '0')
            s--;
        if (s == 0 || buf[s - 1] < '0' || buf[s - 1] > '9')
            return 1;
    }
    return 0;
}

/* The keyed parser's reference: every complete line, the ones that start with "key ". */
static int keyed_ref(const char *buf, size_t len, const char *key, uint64_t *out)
{
    size_t klen = strlen(key), pos = 0, hits = 0;
    int ok = 0;
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t n;
        if (!nl)
            break;
        n = (size_t)(nl - (buf + pos));
        if (n > klen && memcmp(buf + pos, key, klen) == 0 && buf[pos + klen] == ' ') {
            char digits[32];
            size_t dn = n - klen - 1, i;
            hits++;
            ok = dn >= 1 && dn <= 20;
            for (i = 0; ok && i < dn; i++)
                ok = buf[pos + klen + 1 + i] >= '0' && buf[pos + klen + 1 + i] <= '9';
            if (ok) {
                memcpy(digits, buf + pos + klen + 1, dn);
                digits[dn] = '\0';
                errno = 0;
                *out = strtoull(digits, NULL, 10);
                ok = errno == 0;
            }
        }
        pos += n + 1;
    }
    if (hits == 0)
        return LLMM__HOST_MISSING;
    return hits == 1 && ok ? LLMM__HOST_FOUND : LLMM__HOST_GARBAGE;
}

static void check_result(int r)
{
    CHECK(r == LLMM__HOST_FOUND || r == LLMM__HOST_MISSING || r == LLMM__HOST_GARBAGE);
}

static void fuzz_keyed(const char *b, size_t n)
{
    static const char *const keys[] = {"pgmajfault", "ctxt", "throttled_usec"};
    for (size_t k = 0; k < 3; k++) {
        uint64_t v = SENTINEL, ref = SENTINEL;
        int r = llmm__host_parse_keyed(b, n, keys[k], &v);
        CHECK(r == keyed_ref(b, n, keys[k], &ref));
        CHECK(r == LLMM__HOST_FOUND ? v == ref : v == SENTINEL);
    }
}

static void fuzz_others(int mode, const char *b, size_t n)
{
    uint64_t v = SENTINEL;
    int r;
    switch (mode) {
    case 1:
        r = llmm__host_parse_table(b, n, "Tcp:", "RetransSegs", &v);
        break;
    case 2:
        r = llmm__host_parse_psi_some(b, n, &v);
        break;
    case 3:
        r = llmm__host_parse_field(b, n, (size_t)(n % 4), &v);
        break;
    default:
        r = llmm__host_parse_field(b, n, 0, &v);
        break;
    }
    check_result(r);
    if (r != LLMM__HOST_FOUND) {
        CHECK(v == SENTINEL);
        return;
    }
    CHECK(holds_number(b, n, v));
    if (mode == 2)
        CHECK(n >= 7 && memmem(b, n, "total=", 6) != NULL);
}

static void fuzz_cpulist(const char *b, size_t n)
{
    uint32_t ids[16];
    size_t k = 99, i;
    int r = llmm__host_parse_cpulist(b, n, ids, 16, &k);
    check_result(r);
    if (r != LLMM__HOST_FOUND) {
        CHECK(k == 99);
        return;
    }
    CHECK(k >= 1 && k <= 16);
    for (i = 0; i < k; i++)
        CHECK(ids[i] <= 65535);
}

static void fuzz_cgroup(const char *b, size_t n)
{
    for (int v2 = 0; v2 <= 1; v2++) {
        const char *p = NULL, *name = NULL;
        size_t pn = 0, nn = 0;
        int r = llmm__host_parse_cgroup(b, n, v2, &p, &pn, &name, &nn);
        CHECK(r == LLMM__HOST_FOUND || r == LLMM__HOST_MISSING);
        if (r != LLMM__HOST_FOUND) {
            CHECK(p == NULL);
            continue;
        }
        CHECK(p > b && p + pn <= b + n && pn >= 1 && p[0] == '/');
        CHECK(memchr(p, '\n', pn) == NULL);
        CHECK(name >= b && name + nn <= p);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *b = (const char *)data + 1;
    size_t n;
    if (size == 0)
        return 0;
    n = size - 1;
    switch (data[0] % 7) {
    case 0:
        fuzz_keyed(b, n);
        break;
    case 5:
        fuzz_cpulist(b, n);
        break;
    case 6:
        fuzz_cgroup(b, n);
        break;
    default:
        fuzz_others(data[0] % 7, b, n);
        break;
    }
    return 0;
}
