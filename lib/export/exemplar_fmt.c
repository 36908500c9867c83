/* Exemplars on the wire: the label rules they share, OpenMetrics' ` # {…} value time` and the
 * protobuf Exemplar message (label 1 as LabelPair, value 2, timestamp 3 as
 * google.protobuf.Timestamp {seconds 1, nanos 2}).
 *
 * The ids travel as the labels `trace_id` (32 lower-case hex digits) and `span_id` (16), the
 * names OpenTelemetry and Grafana look for. OpenMetrics caps an exemplar's label names and
 * values at 128 characters in all: the ids take 63 of them. */
#include <string.h>

#include "export/export_internal.h"

#define CHAR_CAP 128
#define TRACE_CHARS (8 + 32) /* trace_id + its value */
#define SPAN_CHARS (7 + 16)

/* Characters of an escaped label value once unescaped (UTF-8 code points). */
static size_t value_chars(const char *v, size_t n)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++) {
        if (v[i] == '\\') {
            i++;
            c++;
        } else if (((unsigned char)v[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    return c;
}

static int is_name(const llmm__label *l, const char *z)
{
    return l->name_len == strlen(z) && memcmp(l->name, z, l->name_len) == 0;
}

llmm_status llmm__exemplar_labels_check(const char *labels, int has_trace, int has_span)
{
    size_t pos = 0, chars = (has_trace ? TRACE_CHARS : 0) + (has_span ? SPAN_CHARS : 0);
    llmm__label l;
    if (!labels || !labels[0])
        return LLMM_OK;
    if (strlen(labels) >= LLMM_EXEMPLAR_LABELS_MAX ||
        llmm__labels_check(labels, LLMM__KEYS_PROM, NULL) != LLMM_OK)
        return LLMM_E_INVALID;
    while (llmm__labels_next(labels, &pos, &l)) {
        if (is_name(&l, "trace_id") || is_name(&l, "span_id"))
            return LLMM_E_INVALID;
        chars += l.name_len + value_chars(l.value, l.value_len);
    }
    return chars <= CHAR_CAP ? LLMM_OK : LLMM_E_INVALID;
}

int llmm__all_zero(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

void llmm__put_hex(llmm__sink *o, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        llmm__putc(o, digits[p[i] >> 4]);
        llmm__putc(o, digits[p[i] & 15]);
    }
}

/* Unix nanoseconds as seconds with the shortest exact fraction. */
static void put_unix_seconds(llmm__sink *o, uint64_t ns)
{
    uint64_t frac = ns % 1000000000u;
    int digits = 9;
    llmm__put_u64(o, ns / 1000000000u);
    if (!frac)
        return;
    while (frac % 10 == 0) {
        frac /= 10;
        digits--;
    }
    {
        char z[10];
        int i;
        for (i = digits - 1; i >= 0; i--, frac /= 10)
            z[i] = (char)('0' + frac % 10);
        llmm__putc(o, '.');
        llmm__put(o, z, (size_t)digits);
    }
}

void llmm__om_exemplar(llmm__sink *o, const llmm_exemplar *e, double f)
{
    int sep = 0;
    llmm__puts(o, " # {");
    if (!llmm__all_zero(e->trace_id, 16)) {
        llmm__puts(o, "trace_id=\"");
        llmm__put_hex(o, e->trace_id, 16);
        llmm__putc(o, '"');
        sep = 1;
    }
    if (!llmm__all_zero(e->span_id, 8)) {
        llmm__puts(o, sep ? ",span_id=\"" : "span_id=\"");
        llmm__put_hex(o, e->span_id, 8);
        llmm__putc(o, '"');
        sep = 1;
    }
    if (e->labels[0]) {
        if (sep)
            llmm__putc(o, ',');
        llmm__puts(o, e->labels);
    }
    llmm__puts(o, "} ");
    llmm__put_double(o, e->value * f);
    if (e->time_unix_nano) {
        llmm__putc(o, ' ');
        put_unix_seconds(o, e->time_unix_nano);
    }
}

static void pb_id_label(llmm__sink *o, const char *name, const uint8_t *id, size_t n)
{
    size_t m = llmm__pb_begin(o, 1);
    llmm__pb_bytes(o, 1, name, strlen(name));
    llmm__pb_tag(o, 2, 2);
    llmm__pb_varint(o, 2 * n);
    llmm__put_hex(o, id, n);
    llmm__pb_end(o, m);
}

void llmm__pb_exemplar(llmm__sink *o, uint32_t field, const llmm_exemplar *e, double f)
{
    size_t m = llmm__pb_begin(o, field);
    if (!llmm__all_zero(e->trace_id, 16))
        pb_id_label(o, "trace_id", e->trace_id, 16);
    if (!llmm__all_zero(e->span_id, 8))
        pb_id_label(o, "span_id", e->span_id, 8);
    llmm__pb_labels(o, e->labels);
    llmm__pb_double(o, 2, e->value * f);
    if (e->time_unix_nano) {
        size_t t = llmm__pb_begin(o, 3);
        llmm__pb_uint(o, 1, e->time_unix_nano / 1000000000u);
        llmm__pb_uint(o, 2, e->time_unix_nano % 1000000000u);
        llmm__pb_end(o, t);
    }
    llmm__pb_end(o, m);
}
