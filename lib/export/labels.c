/* Metric names, preformatted label lists and the label-value escape helper.
 *
 * A label list is inserted verbatim into every text line, so it is checked as strictly as
 * Prometheus' text parser would check it (and a little more: no spaces, no trailing comma,
 * no duplicate or reserved names), before anything is written. The protobuf and JSON
 * encoders walk the same validated list and unescape the values. */
#include <string.h>

#include "export/export_internal.h"

int llmm__utf8_valid(const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i];
        size_t k, need;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i <= need)
            return 0;
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += need + 1;
    }
    return 1;
}

static int is_alpha_(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int llmm__metric_name_valid(const char *name)
{
    size_t i;
    if (!name || !(is_alpha_(name[0]) || name[0] == ':'))
        return 0;
    for (i = 1; name[i]; i++)
        if (!(is_alpha_(name[i]) || is_digit(name[i]) || name[i] == ':'))
            return 0;
    return 1;
}

/* Parse one `name="value"` at *pos; on success *pos is past the closing quote. */
static int parse_one(const char *l, size_t *pos, int keys, llmm__label *out)
{
    size_t i = *pos, raw = 0;

    out->name = l + i;
    if (!is_alpha_(l[i]))
        return 0;
    i++;
    while (is_alpha_(l[i]) || is_digit(l[i]) ||
           (keys == LLMM__KEYS_OTLP && (l[i] == '.' || l[i] == '-')))
        i++;
    out->name_len = (size_t)(l + i - out->name);
    if (l[i] != '=' || l[i + 1] != '"')
        return 0;
    i += 2;
    out->value = l + i;
    for (;;) {
        char c = l[i];
        if (c == '\0' || c == '\n')
            return 0;
        if (c == '"')
            break;
        if (c == '\\') {
            char e = l[i + 1];
            if (e != '\\' && e != '"' && e != 'n')
                return 0;
            i++;
        }
        i++;
        raw++;
    }
    out->value_len = (size_t)(l + i - out->value);
    out->raw_len = raw;
    if (!llmm__utf8_valid(out->value, out->value_len))
        return 0;
    *pos = i + 1;
    return 1;
}

llmm_status llmm__labels_check(const char *labels, int keys, const char *reserved)
{
    size_t pos = 0;
    llmm__label a;

    if (!labels || !labels[0])
        return LLMM_OK;
    for (;;) {
        size_t p2 = 0;
        llmm__label b;
        if (!parse_one(labels, &pos, keys, &a))
            return LLMM_E_INVALID;
        if (keys == LLMM__KEYS_PROM && a.name_len >= 2 && a.name[0] == '_' && a.name[1] == '_')
            return LLMM_E_INVALID; /* reserved for Prometheus itself */
        if (reserved && a.name_len == strlen(reserved) && memcmp(a.name, reserved, a.name_len) == 0)
            return LLMM_E_INVALID;
        /* duplicates: compare with every earlier label */
        while (llmm__labels_next(labels, &p2, &b) && b.name < a.name)
            if (b.name_len == a.name_len && memcmp(a.name, b.name, a.name_len) == 0)
                return LLMM_E_INVALID;
        if (labels[pos] == '\0')
            return LLMM_OK;
        if (labels[pos] != ',' || labels[pos + 1] == '\0')
            return LLMM_E_INVALID;
        pos++;
    }
}

int llmm__labels_next(const char *labels, size_t *pos, llmm__label *out)
{
    if (!labels || labels[*pos] == '\0')
        return 0;
    if (labels[*pos] == ',')
        (*pos)++;
    /* the list was validated: the keys flag only widens the accepted names */
    return parse_one(labels, pos, LLMM__KEYS_OTLP, out);
}

void llmm__put_unescaped(llmm__sink *s, const char *v, size_t n)
{
    size_t i, run = 0;
    for (i = 0; i < n; i++) {
        if (v[i] != '\\')
            continue;
        llmm__put(s, v + run, i - run);
        i++;
        llmm__putc(s, v[i] == 'n' ? '\n' : v[i]);
        run = i + 1;
    }
    llmm__put(s, v + run, n - run);
}

static void put_json_char(llmm__sink *s, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char esc[6] = {'\\', 'u', '0', '0', 0, 0};
    switch (c) {
    case '"':
        llmm__puts(s, "\\\"");
        return;
    case '\\':
        llmm__puts(s, "\\\\");
        return;
    case '\n':
        llmm__puts(s, "\\n");
        return;
    case '\r':
        llmm__puts(s, "\\r");
        return;
    case '\t':
        llmm__puts(s, "\\t");
        return;
    default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        llmm__put(s, esc, sizeof esc);
    } else {
        llmm__put(s, &c, 1);
    }
}

void llmm__put_json_text(llmm__sink *s, const char *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        put_json_char(s, (unsigned char)v[i]);
}

void llmm__put_json_unescaped(llmm__sink *s, const char *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '\\') {
            i++;
            c = v[i] == 'n' ? '\n' : (unsigned char)v[i];
        }
        put_json_char(s, c);
    }
}

llmm_status llmm_prom_label_escape(const char *value, uint8_t *buf, size_t cap, size_t *len)
{
    llmm__sink o;
    size_t i, n, run = 0;

    if (!value || !len || (!buf && cap))
        return LLMM_E_INVALID;
    n = strlen(value);
    if (!llmm__utf8_valid(value, n))
        return LLMM_E_INVALID;
    llmm__sink_fixed(&o, buf, cap);
    for (i = 0; i < n; i++) {
        const char *rep = value[i] == '\\'   ? "\\\\"
                          : value[i] == '"'  ? "\\\""
                          : value[i] == '\n' ? "\\n"
                                             : NULL;
        if (!rep)
            continue;
        llmm__put(&o, value + run, i - run);
        llmm__puts(&o, rep);
        run = i + 1;
    }
    llmm__put(&o, value + run, n - run);
    *len = o.len;
    return llmm__sink_status(&o);
}
