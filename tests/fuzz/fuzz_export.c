/* libFuzzer target: every exporter fed a decoded sketch (any scale, range, counts, extremes).
 *
 * Input: byte 0 picks the options (CRC rewrite, unit factor, labels), byte 1 the writer
 * family type and classic layout, byte 2 the OTLP bucket limit, the rest is the sketch
 * message (fz_decode). Classic layouts must respect their bound (the list's length, the
 * grid's N, 160 for the one-shot text).
 * For each exporter the output is read back by an independent reader written here:
 *   - Prometheus text (llmm_export_prometheus_text and the text writer): line grammar,
 *     names, label syntax and escapes, numbers; histogram series with strictly increasing
 *     `le`, non-decreasing cumulative counts, `+Inf` = `_count` = the sketch's count;
 *     summaries with non-decreasing quantile values; the values written by the caller;
 *   - Prometheus protobuf (writer): varint-delimited MetricFamily messages decoded field by
 *     field (every length inside its parent, only the fields metrics.proto defines);
 *     classic buckets as above; native spans and deltas: non-negative counts, span lengths
 *     = number of deltas, zero count + buckets = sample count, schema in [-4, 8];
 *   - OTLP JSON (point and request): strict JSON syntax; count = zeroCount + bucketCounts,
 *     zeroCount = zeros + underflow, scale <= the sketch's, bucket limit respected.
 * Buffer semantics of every caller-buffer call: cap 0 and cap = needed - 1 give
 * LLMM_E_BUFFER with the needed length, cap = needed gives the same bytes as a large buffer,
 * and nothing is written past cap (exactly sized heap buffers). */
#include "fuzz_common.h"

#include <ctype.h>

/* ---- caller-buffer calls ----------------------------------------------------------------- */

typedef llmm_status (*emit_fn)(void *arg, uint8_t *buf, size_t cap, size_t *len);

/* Run emit with the buffer-size protocol; returns the output (malloc'd) or NULL on an error
 * status (which must not depend on the buffer). */
static uint8_t *emit_checked(emit_fn emit, void *arg, size_t *out_len, llmm_status *out_st)
{
    size_t need = 0, len = 0;
    uint8_t *big, *exact, *small;
    llmm_status st = emit(arg, NULL, 0, &need), st2;
    *out_st = st;
    if (st != LLMM_E_BUFFER) {
        CHECK(st != LLMM_OK); /* never empty output */
        big = malloc(1 << 16);
        CHECK(big != NULL);
        st2 = emit(arg, big, 1 << 16, &len);
        CHECK(st2 == st); /* an error is not about the buffer */
        free(big);
        return NULL;
    }
    CHECK(need > 0);
    big = malloc(need + 64);
    exact = malloc(need);
    small = malloc(need - 1 ? need - 1 : 1);
    CHECK(big && exact && small);
    CHECK(emit(arg, big, need + 64, &len) == LLMM_OK && len == need);
    CHECK(emit(arg, exact, need, &len) == LLMM_OK && len == need);
    CHECK(memcmp(big, exact, need) == 0);
    len = 0;
    CHECK(emit(arg, small, need - 1, &len) == LLMM_E_BUFFER && len == need);
    free(big);
    free(small);
    *out_len = need;
    *out_st = LLMM_OK;
    return exact;
}

/* ---- Prometheus text reader -------------------------------------------------------------- */

typedef struct text_exp {
    uint64_t count, over;
    int one_shot;   /* llmm_export_prometheus_text: the sketch's grid, whose last finite le
                       counts every value but the overflow */
    int sketches;   /* sketch series seen */
} text_exp;

static int name_char(int c, int first, int colon)
{
    return isalpha(c) || c == '_' || (colon && c == ':') || (!first && isdigit(c));
}

/* A number token of the text format (Go's %g spellings, +Inf, -Inf, NaN). */
static int parse_value(const char *p, size_t n, double *v)
{
    char tmp[64];
    char *end;
    if (n == 0 || n >= sizeof tmp)
        return 0;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    if (!strcmp(tmp, "+Inf")) {
        *v = INFINITY;
        return 1;
    }
    if (!strcmp(tmp, "-Inf")) {
        *v = -INFINITY;
        return 1;
    }
    if (!strcmp(tmp, "NaN")) {
        *v = NAN;
        return 1;
    }
    if (!(isdigit((unsigned char)tmp[0]) || tmp[0] == '-'))
        return 0;
    *v = strtod(tmp, &end);
    return *end == 0 && isfinite(*v);
}

static int parse_u64(const char *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0 || n > 20 || (n > 1 && p[0] == '0'))
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)p[i]))
            return 0;
        if (x > (UINT64_MAX - (uint64_t)(p[i] - '0')) / 10)
            return 0;
        x = x * 10 + (uint64_t)(p[i] - '0');
    }
    *v = x;
    return 1;
}

typedef struct series_state {
    char key[256];        /* labels without le / quantile */
    double last_le, last_q, last_qv;
    uint64_t last_cum, inf_cum, last_finite_cum;
    int have_le, have_inf, have_q, have_finite;
} series_state;

static void check_text(const uint8_t *buf, size_t len, const text_exp *e, const char *family,
                       const char *type)
{
    const char *p = (const char *)buf, *end = p + len;
    series_state ss;
    int seen_type = 0, in_family = 0, sketches = 0;
    memset(&ss, 0, sizeof ss);
    CHECK(len > 0 && buf[len - 1] == '\n');
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;
        char name[128], key[256], extra_name[16] = "";
        double extra_v = 0, v;
        size_t nlen = 0, klen = 0;
        CHECK(nl != NULL);
        if (*p == '#') {
            CHECK(nl - p > 7 && (!strncmp(p, "# HELP ", 7) || !strncmp(p, "# TYPE ", 7)));
            if (!strncmp(p, "# TYPE ", 7)) {
                size_t fl = strlen(family);
                in_family = (size_t)(nl - p) > 7 + fl && !strncmp(p + 7, family, fl) &&
                            p[7 + fl] == ' ';
                if (in_family) {
                    CHECK((size_t)(nl - p) == 8 + fl + strlen(type) &&
                          !strncmp(p + 8 + fl, type, strlen(type)));
                    seen_type = 1;
                }
            }
            p = nl + 1;
            continue;
        }
        /* name */
        while (q < nl && name_char((unsigned char)*q, q == p, 1) && nlen < sizeof name - 1)
            name[nlen++] = *q++;
        name[nlen] = 0;
        CHECK(nlen > 0);
        /* labels */
        if (q < nl && *q == '{') {
            q++;
            while (1) {
                char ln[64], lv[256];
                size_t a = 0, b = 0;
                CHECK(q < nl);
                while (q < nl && name_char((unsigned char)*q, a == 0, 0) && a < sizeof ln - 1)
                    ln[a++] = *q++;
                ln[a] = 0;
                CHECK(a > 0 && q + 1 < nl && q[0] == '=' && q[1] == '"');
                q += 2;
                while (q < nl && *q != '"') {
                    if (*q == '\\') {
                        CHECK(q + 1 < nl && (q[1] == '\\' || q[1] == '"' || q[1] == 'n'));
                        q++;
                    }
                    CHECK(b < sizeof lv - 1);
                    lv[b++] = *q++;
                }
                lv[b] = 0;
                CHECK(q < nl && *q == '"');
                q++;
                if (!strcmp(ln, "le") || !strcmp(ln, "quantile")) {
                    CHECK(parse_value(lv, b, &extra_v));
                    strcpy(extra_name, ln);
                } else {
                    CHECK(klen + a + b + 3 < sizeof key);
                    memcpy(key + klen, ln, a);
                    klen += a;
                    key[klen++] = '=';
                    memcpy(key + klen, lv, b);
                    klen += b;
                    key[klen++] = ',';
                }
                CHECK(q < nl);
                if (*q == '}') {
                    q++;
                    break;
                }
                CHECK(*q == ',');
                q++;
            }
        }
        key[klen] = 0;
        CHECK(q < nl && *q == ' ');
        q++;
        CHECK(parse_value(q, (size_t)(nl - q), &v));
        p = nl + 1;
        if (!in_family)
            continue;
        CHECK(seen_type);
        /* a new series starts when the label key changes */
        if (strcmp(ss.key, key) != 0) {
            memset(&ss, 0, sizeof ss);
            CHECK(strlen(key) < sizeof ss.key);
            strcpy(ss.key, key);
        }
        if (!strcmp(type, "histogram")) {
            size_t fl = strlen(family);
            CHECK(!strncmp(name, family, fl));
            if (!strcmp(name + fl, "_bucket")) {
                uint64_t cum;
                CHECK(!strcmp(extra_name, "le"));
                CHECK(parse_u64(q, (size_t)(nl - q), &cum));
                CHECK(!ss.have_inf);
                if (ss.have_le) {
                    CHECK(extra_v > ss.last_le);
                    CHECK(cum >= ss.last_cum);
                }
                CHECK(cum <= e->count);
                ss.have_le = 1;
                ss.last_le = extra_v;
                ss.last_cum = cum;
                if (isinf(extra_v)) {
                    ss.have_inf = 1;
                    ss.inf_cum = cum;
                } else {
                    ss.have_finite = 1;
                    ss.last_finite_cum = cum;
                }
            } else if (!strcmp(name + fl, "_count")) {
                uint64_t n;
                CHECK(parse_u64(q, (size_t)(nl - q), &n));
                CHECK(ss.have_inf && ss.inf_cum == n && n == e->count);
                if (e->one_shot && ss.have_finite)
                    CHECK(ss.last_finite_cum == e->count - e->over);
                sketches++;
            } else {
                CHECK(!strcmp(name + fl, "_sum"));
            }
        } else if (!strcmp(type, "summary")) {
            size_t fl = strlen(family);
            CHECK(!strncmp(name, family, fl));
            if (name[fl] == 0) {
                CHECK(!strcmp(extra_name, "quantile"));
                CHECK(extra_v >= 0 && extra_v <= 1);
                if (e->count == 0) {
                    CHECK(isnan(v));
                } else {
                    CHECK(!isnan(v) && v >= 0);
                    if (ss.have_q && extra_v > ss.last_q)
                        CHECK(v >= ss.last_qv); /* the points are written ascending */
                }
                ss.have_q = 1;
                ss.last_q = extra_v;
                ss.last_qv = v;
            } else if (!strcmp(name + fl, "_count")) {
                uint64_t n;
                CHECK(parse_u64(q, (size_t)(nl - q), &n) && n == e->count);
                sketches++;
            } else {
                CHECK(!strcmp(name + fl, "_sum"));
            }
        }
    }
    CHECK(seen_type);
    CHECK(sketches == e->sketches);
}

/* ---- Prometheus protobuf reader ---------------------------------------------------------- */

typedef struct pb {
    const uint8_t *p, *end;
} pb;

static int pb_varint(pb *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        uint8_t b;
        if (r->p >= r->end)
            return 0;
        b = *r->p++;
        if (i == 9 && b > 1)
            return 0;
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

/* Next field: number, wire type, scalar value or sub-range. */
static int pb_next(pb *r, uint32_t *field, int *wt, uint64_t *v, pb *sub)
{
    uint64_t tag, n;
    if (!pb_varint(r, &tag))
        return 0;
    *field = (uint32_t)(tag >> 3);
    *wt = (int)(tag & 7);
    CHECK(*field > 0 && tag >> 3 <= 0x1fffffff);
    switch (*wt) {
    case 0:
        CHECK(pb_varint(r, v));
        return 1;
    case 1:
        CHECK(r->end - r->p >= 8);
        memcpy(v, r->p, 8);
        r->p += 8;
        return 1;
    case 2:
        CHECK(pb_varint(r, &n) && n <= (uint64_t)(r->end - r->p));
        sub->p = r->p;
        sub->end = r->p + n;
        r->p += n;
        return 1;
    default:
        CHECK(0); /* the writer uses no other wire type */
        return 0;
    }
}

static double as_double(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static int64_t unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static void pb_histogram(pb h, uint64_t want_count)
{
    uint32_t f;
    int wt, have_schema = 0, have_count = 0;
    uint64_t v, count = 0, zero_count = 0, spans_len = 0, ndeltas = 0, last_cum = 0, abs = 0;
    uint64_t total = 0;
    double last_ub = -INFINITY, zt = 0;
    int64_t c = 0;
    pb sub;
    while (h.p < h.end) {
        CHECK(pb_next(&h, &f, &wt, &v, &sub));
        switch (f) {
        case 1: CHECK(wt == 0); count = v; have_count = 1; break;
        case 2: CHECK(wt == 1); break;
        case 3: { /* classic bucket */
            uint64_t cum = 0;
            double ub = NAN;
            uint32_t g;
            int w2;
            uint64_t x;
            pb s2;
            CHECK(wt == 2);
            while (sub.p < sub.end) {
                CHECK(pb_next(&sub, &g, &w2, &x, &s2));
                if (g == 1) {
                    CHECK(w2 == 0);
                    cum = x;
                } else {
                    CHECK(g == 2 && w2 == 1);
                    ub = as_double(x);
                }
            }
            CHECK(isfinite(ub) && ub > last_ub);
            CHECK(cum >= last_cum);
            last_ub = ub;
            last_cum = cum;
            break;
        }
        case 5: {
            int64_t s = unzigzag(v);
            CHECK(wt == 0 && s >= -4 && s <= 8);
            have_schema = 1;
            break;
        }
        case 6: CHECK(wt == 1); zt = as_double(v); CHECK(isfinite(zt) && zt > 0); break;
        case 7: CHECK(wt == 0); zero_count = v; break;
        case 12: { /* span */
            uint32_t g;
            int w2;
            uint64_t x;
            pb s2;
            CHECK(wt == 2);
            while (sub.p < sub.end) {
                CHECK(pb_next(&sub, &g, &w2, &x, &s2));
                CHECK(w2 == 0 && (g == 1 || g == 2));
                if (g == 2)
                    spans_len += x;
            }
            break;
        }
        case 13: /* packed deltas */
            CHECK(wt == 2);
            while (sub.p < sub.end) {
                CHECK(pb_varint(&sub, &v));
                c += unzigzag(v);
                CHECK(c >= 0);
                abs = (uint64_t)c;
                CHECK(abs <= UINT64_MAX - total);
                total += abs;
                ndeltas++;
            }
            break;
        default: CHECK(0);
        }
    }
    CHECK(have_count && count == want_count);
    CHECK(last_cum <= count);
    if (have_schema) {
        CHECK(spans_len == ndeltas);
        CHECK(zero_count <= count && total == count - zero_count);
    } else {
        CHECK(ndeltas == 0 && spans_len == 0);
    }
    (void)abs;
}

static void pb_summary(pb s, uint64_t want_count)
{
    uint32_t f;
    int wt;
    uint64_t v;
    double last_q = -1, last_v = -INFINITY;
    pb sub;
    while (s.p < s.end) {
        CHECK(pb_next(&s, &f, &wt, &v, &sub));
        if (f == 1) {
            CHECK(wt == 0 && v == want_count);
        } else if (f == 2) {
            CHECK(wt == 1);
        } else {
            uint32_t g;
            int w2;
            uint64_t x;
            pb s2;
            double q = NAN, qv = NAN;
            CHECK(f == 3 && wt == 2);
            while (sub.p < sub.end) {
                CHECK(pb_next(&sub, &g, &w2, &x, &s2));
                CHECK(w2 == 1 && (g == 1 || g == 2));
                if (g == 1)
                    q = as_double(x);
                else
                    qv = as_double(x);
            }
            CHECK(q >= 0 && q <= 1);
            if (want_count == 0) {
                CHECK(isnan(qv));
            } else {
                CHECK(qv >= 0);
                if (q > last_q)
                    CHECK(qv >= last_v);
            }
            last_q = q;
            last_v = qv;
        }
    }
}

/* Returns the number of sketch series. */
static int check_protobuf(const uint8_t *buf, size_t len, uint64_t want_count)
{
    pb all = {buf, buf + len};
    int sketches = 0;
    while (all.p < all.end) {
        uint64_t n, v, type = 99;
        uint32_t f;
        int wt;
        pb fam, sub;
        CHECK(pb_varint(&all, &n) && n > 0 && n <= (uint64_t)(all.end - all.p));
        fam.p = all.p;
        fam.end = all.p + n;
        all.p += n;
        while (fam.p < fam.end) {
            CHECK(pb_next(&fam, &f, &wt, &v, &sub));
            if (f == 1 || f == 2) {
                CHECK(wt == 2);
            } else if (f == 3) {
                CHECK(wt == 0 && (v == 0 || v == 1 || v == 2 || v == 4));
                type = v;
            } else {
                uint32_t g;
                int w2;
                uint64_t x;
                pb m;
                CHECK(f == 4 && wt == 2 && type != 99); /* the type comes first */
                while (sub.p < sub.end) {
                    CHECK(pb_next(&sub, &g, &w2, &x, &m));
                    CHECK(w2 == 2);
                    if (g == 1) {
                        uint32_t h;
                        int w3;
                        uint64_t y;
                        pb s3;
                        while (m.p < m.end) {
                            CHECK(pb_next(&m, &h, &w3, &y, &s3));
                            CHECK(w3 == 2 && (h == 1 || h == 2));
                        }
                    } else if (g == 2 || g == 3) {
                        CHECK(type == (g == 2 ? 1u : 0u));
                    } else if (g == 4) {
                        CHECK(type == 2);
                        pb_summary(m, want_count);
                        sketches++;
                    } else {
                        CHECK(g == 7 && type == 4);
                        pb_histogram(m, want_count);
                        sketches++;
                    }
                }
            }
        }
    }
    return sketches;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static const char *json_value(const char *p, const char *end, int depth);

static const char *json_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static const char *json_string(const char *p, const char *end)
{
    CHECK(p < end && *p == '"');
    p++;
    while (p < end && *p != '"') {
        unsigned char c = (unsigned char)*p;
        CHECK(c >= 0x20);
        if (c == '\\') {
            CHECK(p + 1 < end);
            p++;
            if (*p == 'u') {
                CHECK(end - p > 4);
                for (int i = 1; i <= 4; i++)
                    CHECK(isxdigit((unsigned char)p[i]));
                p += 4;
            } else {
                CHECK(strchr("\"\\/bfnrt", *p) != NULL);
            }
        }
        p++;
    }
    CHECK(p < end);
    return p + 1;
}

static const char *json_number(const char *p, const char *end)
{
    if (p < end && *p == '-')
        p++;
    CHECK(p < end && isdigit((unsigned char)*p));
    if (*p == '0')
        p++;
    else
        while (p < end && isdigit((unsigned char)*p))
            p++;
    if (p < end && *p == '.') {
        p++;
        CHECK(p < end && isdigit((unsigned char)*p));
        while (p < end && isdigit((unsigned char)*p))
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        CHECK(p < end && isdigit((unsigned char)*p));
        while (p < end && isdigit((unsigned char)*p))
            p++;
    }
    return p;
}

static const char *json_value(const char *p, const char *end, int depth)
{
    CHECK(depth < 64);
    p = json_ws(p, end);
    CHECK(p < end);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int obj = *p == '{';
        p = json_ws(p + 1, end);
        CHECK(p < end);
        if (*p == close)
            return p + 1;
        while (1) {
            if (obj) {
                p = json_string(json_ws(p, end), end);
                p = json_ws(p, end);
                CHECK(p < end && *p == ':');
                p++;
            }
            p = json_ws(json_value(p, end, depth + 1), end);
            CHECK(p < end);
            if (*p == close)
                return p + 1;
            CHECK(*p == ',');
            p++;
        }
    }
    if (*p == '"')
        return json_string(p, end);
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
        return p + 4;
    if (!strncmp(p, "false", 5))
        return p + 5;
    return json_number(p, end);
}

/* The string value of "key":"<digits>" (first occurrence). */
static uint64_t json_u64_field(const char *doc, const char *key)
{
    char pat[64];
    const char *p;
    uint64_t v = 0;
    size_t n = 0;
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    p = strstr(doc, pat);
    CHECK(p != NULL);
    p += strlen(pat);
    while (isdigit((unsigned char)p[n]))
        n++;
    CHECK(p[n] == '"' && parse_u64(p, n, &v));
    return v;
}

static void check_otlp(const uint8_t *buf, size_t len, const llmm_sketch *s, uint32_t max_b)
{
    char *doc = malloc(len + 1);
    const char *p, *e;
    uint64_t z, u, o, total = 0, nb = 0;
    CHECK(doc != NULL);
    memcpy(doc, buf, len);
    doc[len] = 0;
    e = json_ws(json_value(doc, doc + len, 0), doc + len);
    CHECK(e == doc + len);
    llmm_sketch_special_counts(s, &z, &u, &o);
    CHECK(json_u64_field(doc, "count") == llmm_sketch_count(s));
    CHECK(json_u64_field(doc, "zeroCount") == z + u);
    p = strstr(doc, "\"scale\":");
    CHECK(p != NULL);
    {
        long sc = strtol(p + 8, NULL, 10);
        CHECK(sc <= llmm_sketch_scale(s) && sc >= -10);
    }
    p = strstr(doc, "\"bucketCounts\":[");
    CHECK(p != NULL);
    p += 16;
    while (*p != ']') {
        size_t n = 0;
        uint64_t v;
        CHECK(*p == '"');
        p++;
        while (isdigit((unsigned char)p[n]))
            n++;
        CHECK(p[n] == '"' && parse_u64(p, n, &v));
        CHECK(v <= UINT64_MAX - total);
        total += v;
        nb++;
        p += n + 1;
        if (*p == ',')
            p++;
    }
    CHECK(total + z + u == llmm_sketch_count(s));
    if (max_b)
        CHECK(nb <= max_b);
    CHECK((strstr(doc, "\"min\":") != NULL) == (llmm_sketch_count(s) > 0));
    free(doc);
}

/* ---- the calls ---------------------------------------------------------------------------- */

typedef struct call {
    const llmm_sketch *s, *earlier;
    const char *labels;
    double f;
    llmm_otlp_options o;
    int request;
    llmm_prom_writer *w;
} call;

static llmm_status emit_text(void *arg, uint8_t *buf, size_t cap, size_t *len)
{
    call *c = (call *)arg;
    return llmm_export_prometheus_text(c->s, "llm_latency_seconds", c->labels, c->f, buf, cap,
                                       len);
}

static llmm_status emit_otlp(void *arg, uint8_t *buf, size_t cap, size_t *len)
{
    call *c = (call *)arg;
    if (c->request)
        return llmm_export_otlp_json(c->s, c->earlier, "gen_ai.server.request.duration", &c->o,
                                     buf, cap, len);
    return llmm_export_otlp_json_point(c->s, c->earlier, &c->o, buf, cap, len);
}

static llmm_status emit_writer(void *arg, uint8_t *buf, size_t cap, size_t *len)
{
    call *c = (call *)arg;
    return llmm_prom_writer_finish(c->w, buf, cap, len);
}

static const char *const LABELS[4] = {NULL, "", "model=\"llama\"",
                                      "model=\"m\\\"x\\\\y\\nz\",gpu=\"0\""};
static const double FACTORS[4] = {1.0, 1e-3, 1.0 / 1024.0, 1e-9};

/* Finite `le` bounds written for `series` (the `NAME_bucket{` prefix) in a text exposition. */
static size_t finite_bounds(const uint8_t *p, size_t len, const char *series)
{
    size_t n = 0, k = strlen(series);
    for (size_t i = 0; i + k <= len; i++)
        if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, series, k) == 0) {
            const uint8_t *nl = memchr(p + i, '\n', len - i);
            size_t end = nl ? (size_t)(nl - p) : len;
            int inf = 0;
            for (size_t j = i; j + 9 <= end && !inf; j++)
                inf = memcmp(p + j, "le=\"+Inf\"", 9) == 0;
            n += !inf;
        }
    return n;
}

static void writer_run(const llmm_sketch *s, llmm_prom_format fmt, uint8_t sel, call *c)
{
    static const double qs[4] = {0.0, 0.5, 0.99, 1.0};
    static const double bounds[5] = {1e-3, 0.01, 0.1, 1.0, 10.0};
    llmm_prom_type type = (llmm_prom_type)(2 + sel % 3); /* summary, histogram, native */
    const double *pts = NULL;
    size_t npts = 0, before = 0, after = 0;
    double vllm[32];
    uint8_t *out;
    size_t len;
    llmm_status st, st1, st2;
    uint64_t z, u, o;
    text_exp e;

    if (type == LLMM_PROM_SUMMARY) {
        pts = qs;
        npts = 1 + (sel >> 2) % 4;
    } else if (sel & 8) {
        pts = bounds;
        npts = 5;
    } else if (sel & 16) {
        CHECK(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, vllm, 32, &npts) == LLMM_OK);
        pts = vllm;
    }
    uint32_t limit = 16; /* the longest list used here without bounds: OTel TTFT */
    CHECK(llmm_prom_writer_new(NULL, fmt, &c->w) == LLMM_OK);
    if (sel & 32) { /* the downscaled grid instead of the default list */
        limit = 3u + (uint32_t)(sel >> 6) * 7u;
        CHECK(llmm_prom_writer_set_classic_max(c->w, limit) == LLMM_OK);
    } else if (sel & 64) {
        CHECK(llmm_prom_writer_set_classic_list(c->w, LLMM_BUCKETS_OTEL_GENAI_TTFT) == LLMM_OK);
    }
    if (npts && type != LLMM_PROM_SUMMARY)
        limit = (uint32_t)npts;
    CHECK(llmm_prom_writer_family(c->w, "llm_up", "Up.", LLMM_PROM_GAUGE, NULL, 0) == LLMM_OK);
    CHECK(llmm_prom_writer_value(c->w, NULL, 1.0) == LLMM_OK);
    CHECK(llmm_prom_writer_family(c->w, "llm_latency_seconds", "Latency \\ in\nseconds.", type,
                                  pts, npts) == LLMM_OK);
    CHECK(llmm_prom_writer_finish(c->w, NULL, 0, &before) == LLMM_E_BUFFER);
    st1 = llmm_prom_writer_sketch(c->w, c->labels, s, c->f);
    st2 = llmm_prom_writer_sketch(c->w, "replica=\"2\"", s, c->f);
    CHECK(st1 == st2);
    if (st1 != LLMM_OK) {
        /* all or nothing: the output is what it was before the calls */
        CHECK(st1 == LLMM_E_RANGE);
        CHECK(llmm_prom_writer_finish(c->w, NULL, 0, &after) == LLMM_E_BUFFER);
        CHECK(after == before);
    }
    out = emit_checked(emit_writer, c, &len, &st);
    CHECK(st == LLMM_OK && out != NULL);
    llmm_sketch_special_counts(s, &z, &u, &o);
    if (fmt == LLMM_PROM_TEXT) {
        e.count = llmm_sketch_count(s);
        e.over = o;
        e.one_shot = 0;
        e.sketches = st1 == LLMM_OK ? 2 : 0;
        check_text(out, len, &e, "llm_latency_seconds",
                   type == LLMM_PROM_SUMMARY ? "summary" : "histogram");
        /* bounded classic layouts: at most `limit` finite bounds per series (two series) */
        CHECK(finite_bounds(out, len, "llm_latency_seconds_bucket{") <= 2u * limit);
    } else {
        CHECK(check_protobuf(out, len, llmm_sketch_count(s)) == (st1 == LLMM_OK ? 2 : 0));
    }
    free(out);
    llmm_prom_writer_free(c->w);
    c->w = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    llmm_sketch *s = NULL;
    call c;
    uint8_t opt, wsel, osel;
    uint8_t *out;
    size_t len;
    llmm_status st;
    uint64_t z, u, o;

    if (size < 3)
        return 0;
    opt = data[0];
    wsel = data[1];
    osel = data[2];
    if (fz_decode(data + 3, size - 3, opt & 1, &s) != LLMM_OK)
        return 0;
    fz_check_sketch_ex(s, 0);
    llmm_sketch_special_counts(s, &z, &u, &o);
    memset(&c, 0, sizeof c);
    c.s = s;
    c.f = FACTORS[(opt >> 1) & 3];
    c.labels = LABELS[(opt >> 3) & 3];

    /* one-shot text */
    out = emit_checked(emit_text, &c, &len, &st);
    if (out) {
        text_exp e = {llmm_sketch_count(s), o, 1, 1};
        check_text(out, len, &e, "llm_latency_seconds", "histogram");
        CHECK(finite_bounds(out, len, "llm_latency_seconds_bucket{") <= 160);
        free(out);
    } else {
        CHECK(st == LLMM_E_RANGE); /* a bound times the factor is not finite and positive */
    }

    /* writer, both formats */
    writer_run(s, LLMM_PROM_TEXT, wsel, &c);
    writer_run(s, LLMM_PROM_PROTOBUF, wsel, &c);

    /* OTLP JSON: point and request, cumulative, then the empty delta against itself */
    CHECK(llmm_otlp_options_init(&c.o) == LLMM_OK);
    c.o.unit_to_seconds = c.f;
    c.o.max_buckets = (osel & 3) == 0 ? 0 : (osel & 3) == 1 ? 160 : 1u + (osel >> 2);
    c.o.time_unix_nano = 1700000000000000000ull;
    if (opt & 0x20) {
        c.o.attributes = "gen_ai.request.model=\"m\\\"1\",server.port=\"8000\"";
        c.o.resource_attributes = "service.name=\"vllm\"";
        c.o.description = "Latency \"quoted\"\n";
    }
    for (int pass = 0; pass < 3; pass++) {
        c.request = pass == 1;
        if (pass == 2) {
            c.earlier = s;
            c.o.temporality = LLMM_OTLP_DELTA;
        }
        out = emit_checked(emit_otlp, &c, &len, &st);
        if (!out) {
            CHECK(st == LLMM_E_RANGE);
            continue;
        }
        if (pass == 2) {
            llmm_sketch *empty = NULL;
            CHECK(llmm_sketch_clone(s, &empty) == LLMM_OK);
            CHECK(llmm_sketch_subtract(empty, s) == LLMM_OK);
            check_otlp(out, len, empty, c.o.max_buckets);
            llmm_sketch_free(empty);
        } else {
            check_otlp(out, len, s, c.o.max_buckets);
        }
        free(out);
    }
    llmm_sketch_free(s);
    return 0;
}
