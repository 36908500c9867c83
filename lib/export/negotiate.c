/* Content negotiation for a /metrics endpoint.
 *
 * Prometheus 2.42 started with --enable-feature=native-histograms sends
 *   application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;
 *   encoding=delimited,application/openmetrics-text;...;q=0.5,...,text/plain;version=0.0.4;
 *   q=0.3,* / *;q=0.2   (roughly)
 * and without the flag only the text types. Protobuf must be served only when asked for
 * (a native histogram sent to a server without the flag fails the whole scrape), and with
 * exactly its Content-Type, or Prometheus parses the bytes as text. */
#include <string.h>

#include "export/export_internal.h"

static const char ct_text[] = "text/plain; version=0.0.4; charset=utf-8";
static const char ct_om[] = "application/openmetrics-text; version=1.0.0; charset=utf-8";
static const char ct_proto[] =
    "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
    "encoding=delimited";

const char *llmm_prom_content_type(llmm_prom_format format)
{
    switch (format) {
    case LLMM_PROM_TEXT:
        return ct_text;
    case LLMM_PROM_PROTOBUF:
        return ct_proto;
    case LLMM_PROM_OPENMETRICS:
        return ct_om;
    default:
        return NULL;
    }
}

static int is_ows(char c)
{
    return c == ' ' || c == '\t';
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive equality of [a, a+n) with z. */
static int eq_ci(const char *a, size_t n, const char *z)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!z[i] || lower(a[i]) != lower(z[i]))
            return 0;
    return z[n] == '\0';
}

static int eq_cs(const char *a, size_t n, const char *z)
{
    return strlen(z) == n && memcmp(a, z, n) == 0;
}

/* q-value "0", "0.5", "1", "1.000": thousandths, -1 when malformed. */
static int parse_q(const char *v, size_t n)
{
    int q = 0, digits = 0;
    size_t i = 0;
    if (n == 0 || (v[0] != '0' && v[0] != '1'))
        return -1;
    q = (v[0] - '0') * 1000;
    i = 1;
    if (i < n) {
        int scale = 100;
        if (v[i] != '.')
            return -1;
        for (i++; i < n; i++, digits++) {
            if (v[i] < '0' || v[i] > '9' || digits >= 3)
                return -1;
            q += (v[i] - '0') * scale;
            scale /= 10;
        }
    }
    return q > 1000 ? -1 : q;
}

enum { KIND_NONE, KIND_TEXT, KIND_PROTO, KIND_OM };

/* Classify one media range [p, p+n) and find its q (default 1000). */
static int classify(const char *p, size_t n, int *q)
{
    size_t i = 0, t0, t1, s0, s1;
    int proto_ok = 0, enc_ok = 0, kind;
    size_t ver0 = 0, ver1 = 0; /* the version parameter, empty when absent */

    *q = 1000;
    while (i < n && is_ows(p[i]))
        i++;
    t0 = i;
    while (i < n && p[i] != '/' && p[i] != ';' && !is_ows(p[i]))
        i++;
    t1 = i;
    if (i >= n || p[i] != '/')
        return KIND_NONE;
    s0 = ++i;
    while (i < n && p[i] != ';' && !is_ows(p[i]))
        i++;
    s1 = i;
    /* parameters */
    while (i < n) {
        size_t k0, k1, v0, v1;
        while (i < n && (is_ows(p[i]) || p[i] == ';'))
            i++;
        k0 = i;
        while (i < n && p[i] != '=' && p[i] != ';' && !is_ows(p[i]))
            i++;
        k1 = i;
        while (i < n && is_ows(p[i]))
            i++;
        if (i >= n || p[i] != '=') {
            if (k1 > k0)
                continue;
            break;
        }
        i++;
        while (i < n && is_ows(p[i]))
            i++;
        if (i < n && p[i] == '"') {
            v0 = ++i;
            while (i < n && p[i] != '"')
                i++;
            v1 = i;
            if (i < n)
                i++;
        } else {
            v0 = i;
            while (i < n && p[i] != ';' && !is_ows(p[i]))
                i++;
            v1 = i;
        }
        if (eq_ci(p + k0, k1 - k0, "q"))
            *q = parse_q(p + v0, v1 - v0);
        else if (eq_ci(p + k0, k1 - k0, "proto"))
            proto_ok = eq_cs(p + v0, v1 - v0, "io.prometheus.client.MetricFamily");
        else if (eq_ci(p + k0, k1 - k0, "encoding"))
            enc_ok = eq_ci(p + v0, v1 - v0, "delimited");
        else if (eq_ci(p + k0, k1 - k0, "version")) {
            ver0 = v0;
            ver1 = v1;
        }
    }
    if (*q < 0)
        return KIND_NONE;
    if (eq_ci(p + t0, t1 - t0, "application") && eq_ci(p + s0, s1 - s0, "vnd.google.protobuf"))
        kind = proto_ok && enc_ok ? KIND_PROTO : KIND_NONE;
    else if (eq_ci(p + t0, t1 - t0, "text") && eq_ci(p + s0, s1 - s0, "plain"))
        kind = ver1 == ver0 || eq_cs(p + ver0, ver1 - ver0, "0.0.4") ? KIND_TEXT : KIND_NONE;
    else if (eq_ci(p + t0, t1 - t0, "application") && eq_ci(p + s0, s1 - s0, "openmetrics-text"))
        kind = ver1 == ver0 || eq_cs(p + ver0, ver1 - ver0, "1.0.0") ||
                       eq_cs(p + ver0, ver1 - ver0, "0.0.1")
                   ? KIND_OM
                   : KIND_NONE;
    else if ((eq_ci(p + t0, t1 - t0, "text") || eq_ci(p + t0, t1 - t0, "*")) &&
             eq_ci(p + s0, s1 - s0, "*"))
        kind = KIND_TEXT;
    else
        kind = KIND_NONE;
    return kind;
}

/* The best kind of the header; OpenMetrics is a candidate only when `om`. */
static llmm_status negotiate(const char *accept, int om, llmm_prom_format *format,
                             const char **content_type)
{
    int best_q = 0, best = KIND_TEXT;
    const char *p = accept;

    if (!format)
        return LLMM_E_INVALID;
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int q, kind = classify(p, n, &q);
        if (kind == KIND_OM && !om)
            kind = KIND_NONE;
        if (kind != KIND_NONE && q > best_q) {
            best_q = q;
            best = kind;
        }
        p = e ? e + 1 : NULL;
    }
    *format = best == KIND_PROTO ? LLMM_PROM_PROTOBUF
              : best == KIND_OM  ? LLMM_PROM_OPENMETRICS
                                 : LLMM_PROM_TEXT;
    if (content_type)
        *content_type = llmm_prom_content_type(*format);
    return LLMM_OK;
}

llmm_status llmm_prom_negotiate(const char *accept, llmm_prom_format *format,
                                const char **content_type)
{
    return negotiate(accept, 0, format, content_type);
}

llmm_status llmm_prom_negotiate_openmetrics(const char *accept, llmm_prom_format *format,
                                            const char **content_type)
{
    return negotiate(accept, 1, format, content_type);
}
