/* libFuzzer target: W3C traceparent parsing and exemplar label lists, the two places where
 * exemplars take text from outside (an HTTP header, a caller's labels).
 *
 * Input: byte 0 picks the mode, the rest is the text (cut at its first NUL).
 *   - traceparent: llmm_traceparent_parse accepts exactly what a reference validator written
 *     here from the W3C rules accepts; an accepted header gives back its own ids and flags,
 *     llmm_traceparent_format rebuilds the first 55 characters (version 00) from them, and a
 *     refused one leaves the outputs untouched;
 *   - labels: an exemplar with those labels is recorded or refused (nothing changes then); a
 *     recorded one comes back byte for byte from llmm_exemplars_get, and in the OpenMetrics
 *     exposition its label set stays within 128 characters and the output ends in `# EOF`. */
#define _GNU_SOURCE /* memmem */
#include "fuzz_common.h"

static int hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int all(const char *p, size_t n, char c)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != c)
            return 0;
    return 1;
}

/* The W3C rules, written out: optional spaces / tabs around the value. */
static int reference(const char *h)
{
    size_t n;
    while (*h == ' ' || *h == '\t')
        h++;
    n = strlen(h);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t'))
        n--;
    if (n < 55)
        return 0;
    for (size_t i = 0; i < 55; i++) {
        int dash = i == 2 || i == 35 || i == 52;
        if (dash ? h[i] != '-' : !hex(h[i]))
            return 0;
    }
    if (h[0] == 'f' && h[1] == 'f')
        return 0;
    if (h[0] == '0' && h[1] == '0' && n != 55)
        return 0;
    if (n > 55 && h[55] != '-')
        return 0;
    return !all(h + 3, 32, '0') && !all(h + 36, 16, '0');
}

static void traceparent(const char *h)
{
    uint8_t tr[16], sp[8], fl = 0x5a, buf[64];
    size_t len = 0;
    const char *v = h;
    llmm_status st;
    memset(tr, 0x5a, sizeof tr);
    memset(sp, 0x5a, sizeof sp);
    st = llmm_traceparent_parse(h, tr, sp, &fl);
    CHECK((st == LLMM_OK) == reference(h));
    if (st != LLMM_OK) {
        CHECK(st == LLMM_E_INVALID && fl == 0x5a && tr[0] == 0x5a && sp[7] == 0x5a);
        return;
    }
    CHECK(llmm_traceparent_format(tr, sp, fl, buf, sizeof buf, &len) == LLMM_OK && len == 55);
    while (*v == ' ' || *v == '\t')
        v++;
    CHECK(memcmp(buf, "00", 2) == 0 && memcmp(buf + 2, v + 2, 53) == 0);
}

/* Characters (code points) of the label set ` # {…}` on one line of the exposition. */
static size_t label_chars(const char *line, size_t n)
{
    const char *open = memmem(line, n, " # {", 4);
    size_t c = 0, i;
    int in_value = 0;
    CHECK(open && open < line + n);
    for (i = (size_t)(open - line) + 4; i < n && (line[i] != '}' || in_value); i++) {
        unsigned char b = (unsigned char)line[i];
        if (b == '"') {
            in_value = !in_value;
        } else if (b == '\\' && in_value) {
            i++;
            c++;
        } else if (b != '=' && b != ',' && (b & 0xC0) != 0x80) {
            c++;
        }
    }
    CHECK(i < n);
    return c;
}

static void labels(const char *lab, uint8_t pick)
{
    static const uint8_t tr[16] = {0xab, 1}, sp[8] = {0xcd, 2};
    static const double b[] = {1.0};
    llmm_exemplars *ex = NULL;
    llmm_exemplar_shard *xs = NULL;
    llmm_exemplar e;
    llmm_sketch *s = NULL;
    llmm_prom_writer *w = NULL;
    const uint8_t *data;
    size_t len;
    llmm_status st;
    CHECK(llmm_exemplars_new(NULL, b, 1, LLMM_EXEMPLAR_LATEST, &ex) == LLMM_OK);
    CHECK(llmm_exemplars_shard(ex, &xs) == LLMM_OK);
    st = llmm_exemplar_shard_record(xs, 0.5, pick & 1 ? tr : NULL, pick & 2 ? sp : NULL, 1, lab);
    llmm_exemplar_init(&e);
    if (st != LLMM_OK) {
        CHECK(st == LLMM_E_INVALID && llmm_exemplars_get(ex, 0, &e) == LLMM_E_EMPTY);
        llmm_exemplars_free(ex);
        return;
    }
    CHECK(strlen(lab) < LLMM_EXEMPLAR_LABELS_MAX);
    CHECK(llmm_exemplars_get(ex, 0, &e) == LLMM_OK && strcmp(e.labels, lab) == 0);
    CHECK(llmm_sketch_new(NULL, 6, &s) == LLMM_OK && llmm_sketch_add(s, 0.5) == LLMM_OK);
    CHECK(llmm_prom_writer_new(NULL, LLMM_PROM_OPENMETRICS, &w) == LLMM_OK);
    CHECK(llmm_prom_writer_family(w, "x", NULL, LLMM_PROM_HISTOGRAM, b, 1) == LLMM_OK);
    CHECK(llmm_prom_writer_sketch_exemplars(w, NULL, s, 1.0, ex) == LLMM_OK);
    CHECK(llmm_prom_writer_family(w, "c_total", NULL, LLMM_PROM_COUNTER, NULL, 0) == LLMM_OK);
    CHECK(llmm_prom_writer_value_exemplar(w, NULL, 1, &e) == LLMM_OK);
    CHECK(llmm_prom_writer_data(w, &data, &len) == LLMM_OK);
    CHECK(len > 6 && memcmp(data + len - 6, "# EOF\n", 6) == 0);
    {
        const char *p = (const char *)data, *end = p + len;
        int seen = 0;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            CHECK(nl != NULL);
            if (memmem(p, (size_t)(nl - p), " # {", 4)) {
                CHECK(label_chars(p, (size_t)(nl - p)) <= 128);
                seen++;
            }
            p = nl + 1;
        }
        CHECK(seen == 2); /* the bucket (0.5 <= 1) and the counter */
    }
    llmm_prom_writer_free(w);
    llmm_sketch_free(s);
    llmm_exemplars_free(ex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    uint8_t mode;
    if (size == 0)
        return 0;
    mode = data[0];
    text = malloc(size);
    CHECK(text != NULL);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (mode & 0x80)
        labels(text, mode);
    else
        traceparent(text);
    free(text);
    return 0;
}
