/* json.c: the JSON tokenizer (json.h): values, containers, numbers and the main loop;
 * json_string.c reads the strings.
 *
 * One pass over each chunk. A number or literal is a maximal run of [A-Za-z0-9.+-] checked
 * against the grammar once it ends; a string is scanned for its closing quote and decoded only
 * when the reader wants its bytes. A token cut by the end of a chunk is kept (a number or
 * literal in `bare`, a string's decoded bytes in `sbuf`) and finished by the next chunk, so
 * the result never depends on where the chunks split the input; only the line and column of
 * an error in such a token are those of its first byte.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/numbers.h"
#include "input/json.h"
#include "input/json_impl.h"

const char *llmm_cli_json_kind_name(int kind)
{
    static const char *const n[] = {"null", "a boolean", "a number", "a string"};
    return n[kind];
}


/* byte classes: 1 whitespace, 2 a byte of a number or literal ([A-Za-z0-9.+-]), 0 other */
enum { C_OTHER = 0, C_WS = 1, C_BARE = 2 };
/* the class of each byte */
static const unsigned char cls[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};


void llmm_cli_json_init(llmm_cli_json *j, const llmm_cli_json_handler *h, void *self, int multi)
{
    char *sbuf = j->sbuf;
    size_t scap = j->scap;
    memset(j, 0, offsetof(llmm_cli_json, bare));
    j->h = h;
    j->self = self;
    j->multi = multi;
    j->sbuf = sbuf;
    j->scap = scap;
    j->line = 1;
}

void llmm_cli_json_free(llmm_cli_json *j)
{
    free(j->sbuf);
    j->sbuf = NULL;
    j->scap = 0;
}

int llmm_cli_json__syntax(llmm_cli_json *j, const char *fmt, int c)
{
    if (c < 0)
        snprintf(j->msg, sizeof j->msg, "%s", fmt);
    else if (c > 0x20 && c < 0x7f) {
        char ch[4] = {'\'', (char)c, '\'', '\0'};
        snprintf(j->msg, sizeof j->msg, fmt, ch);
    } else {
        char hex[8];
        snprintf(hex, sizeof hex, "0x%02x", (unsigned)c & 0xffu);
        snprintf(j->msg, sizeof j->msg, fmt, hex);
    }
    return LLMM_CLI_JSON_SYNTAX;
}

/* ---- values -------------------------------------------------------------------------------- */

static llmm_cli_json_frame *top(llmm_cli_json *j)
{
    return j->depth ? &j->st[j->depth - 1] : NULL;
}

/* A value ended (a scalar, or a container closed). */
static void value_done(llmm_cli_json *j)
{
    if (j->depth == 0) {
        j->values++;
        j->state = ST_TOP;
    } else {
        llmm_cli_json_frame *f = &j->st[j->depth - 1];
        if (!f->map)
            f->idx++;
        j->state = ST_AFTER;
    }
}

/* The reader sees this value: not inside a skipped container, not a skipped key's value. */
static int delivered(const llmm_cli_json *j)
{
    return j->skip == 0 && !j->skip_next;
}

static int scalar(llmm_cli_json *j, const llmm_cli_json_value *v)
{
    int go = !delivered(j) || j->h->scalar(j->self, top(j), v);
    j->skip_next = 0;
    j->text_next = 0;
    value_done(j);
    return go ? LLMM_CLI_JSON_OK : LLMM_CLI_JSON_STOPPED;
}

/* The JSON number grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, over all n bytes. */
static int is_number(const char *s, size_t n)
{
    size_t i = 0, d;
    if (i < n && s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    else
        return 0;
    if (i < n && s[i] == '.') {
        for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    }
    return i == n;
}

#define IS(s, n, lit) ((n) == sizeof(lit) - 1 && memcmp((s), (lit), (n)) == 0)

/* A number or literal token of n bytes. */
static int bare(llmm_cli_json *j, const char *s, size_t n)
{
    llmm_cli_json_value v;
    v.kind = K_NUMBER;
    v.b = 0;
    v.num = 0;
    v.text = s;
    v.len = n;
    if (IS(s, n, "true") || IS(s, n, "false")) {
        v.kind = K_BOOL;
        v.b = s[0] == 't';
    } else if (IS(s, n, "null")) {
        v.kind = K_NULL;
    } else if (IS(s, n, "NaN")) {
        v.num = NAN;
    } else if (IS(s, n, "Infinity") || IS(s, n, "-Infinity")) {
        v.num = s[0] == '-' ? -INFINITY : INFINITY;
    } else if (!is_number(s, n)) {
        snprintf(j->msg, sizeof j->msg, "invalid %s '%.*s'",
                 (s[0] >= '0' && s[0] <= '9') || s[0] == '-' ? "number" : "literal",
                 n > 40 ? 40 : (int)n, s);
        return LLMM_CLI_JSON_SYNTAX;
    } else if (delivered(j) && llmm_cli_number(s, n, &v.num) != 0) {
        snprintf(j->msg, sizeof j->msg, "number %.*s is out of range%s", n > 40 ? 40 : (int)n, s,
                 llmm_cli_number_underflows(s, n) ? " (too small: it would round to 0)" : "");
        return LLMM_CLI_JSON_SYNTAX;
    }
    return scalar(j, &v);
}

/* ---- containers ------------------------------------------------------------------------------ */

static int unexpected(llmm_cli_json *j, int c);

static int open_container(llmm_cli_json *j, int map)
{
    llmm_cli_json_frame *f;
    if (j->depth == LLMM_CLI_JSON_DEPTH) {
        snprintf(j->msg, sizeof j->msg, "nested deeper than %d levels", LLMM_CLI_JSON_DEPTH);
        return LLMM_CLI_JSON_SYNTAX;
    }
    f = &j->st[j->depth++];
    f->type = 0;
    f->key = -1;
    f->idx = 0;
    f->map = (unsigned char)map;
    f->text = 0;
    j->state = map ? ST_KEY_OR_CLOSE : ST_VALUE_OR_CLOSE;
    j->text_next = 0;
    if (j->skip)
        return LLMM_CLI_JSON_OK;
    if (j->skip_next) {
        j->skip_next = 0;
        j->skip = j->depth;
        return LLMM_CLI_JSON_OK;
    }
    {
        int label = j->h->open(j->self, j->depth > 1 ? f - 1 : NULL, map);
        if (label == LLMM_CLI_JSON_STOP)
            return LLMM_CLI_JSON_STOPPED;
        if (label == LLMM_CLI_JSON_SKIP) {
            j->skip = j->depth;
            return LLMM_CLI_JSON_OK;
        }
        f->type = label & ~LLMM_CLI_JSON_TEXT;
        f->text = (label & LLMM_CLI_JSON_TEXT) != 0;
    }
    return LLMM_CLI_JSON_OK;
}

static int close_container(llmm_cli_json *j, int map)
{
    llmm_cli_json_frame *f = top(j);
    int expect_close = j->state == ST_AFTER || j->state == ST_VALUE_OR_CLOSE ||
                       j->state == ST_KEY_OR_CLOSE;
    if (!f || !expect_close || f->map != map)
        return unexpected(j, map ? '}' : ']');
    if (j->skip) {
        if (j->skip == j->depth)
            j->skip = 0;
    } else if (j->h->close && !j->h->close(j->self, f)) {
        return LLMM_CLI_JSON_STOPPED;
    }
    j->depth--;
    value_done(j);
    return LLMM_CLI_JSON_OK;
}

/* ---- strings (the bytes are read by json_string.c) ---------------------------------- */

/* A string ended: a key (state ST_COLON next) or a value. */
int llmm_cli_json__string_done(llmm_cli_json *j, int is_key, const char *s, size_t n)
{
    if (is_key) {
        llmm_cli_json_frame *f = top(j);
        j->state = ST_COLON;
        f->idx++;
        if (j->skip)
            return LLMM_CLI_JSON_OK;
        {
            int label = j->h->key(j->self, f, s, n);
            if (label == LLMM_CLI_JSON_STOP)
                return LLMM_CLI_JSON_STOPPED;
            if (label == LLMM_CLI_JSON_SKIP) {
                j->skip_next = 1;
                f->key = -1;
            } else {
                f->key = label & ~LLMM_CLI_JSON_TEXT;
                j->text_next = (label & LLMM_CLI_JSON_TEXT) != 0;
            }
        }
        return LLMM_CLI_JSON_OK;
    } else {
        llmm_cli_json_value v;
        v.kind = K_STRING;
        v.b = 0;
        v.num = 0;
        v.text = j->capture ? s : NULL;
        v.len = j->capture ? n : (size_t)j->sraw;
        return scalar(j, &v);
    }
}

/* ---- the main loop ----------------------------------------------------------------------------- */

/* Line and column of absolute offset `at` inside the current chunk. */
static void chunk_position(const llmm_cli_json *j, uint64_t at, uint64_t *line, uint64_t *col)
{
    uint64_t l = j->line, start = j->line_start;
    const char *c = j->chunk, *stop = c + (at - j->base), *nl;
    while (c < stop && (nl = memchr(c, '\n', (size_t)(stop - c))) != NULL) {
        l++;
        start = j->base + (uint64_t)(nl + 1 - j->chunk);
        c = nl + 1;
    }
    *line = l;
    *col = at - start + 1;
}

void llmm_cli_json_where(const llmm_cli_json *j, uint64_t *line, uint64_t *col)
{
    if (j->chunk && j->tok >= j->base) {
        chunk_position(j, j->tok, line, col);
    } else if (j->tok < j->base) { /* a token begun in an earlier chunk */
        *line = j->part_line;
        *col = j->part_col;
    } else {
        *line = j->line;
        *col = j->base - j->line_start + 1;
    }
}

/* A token is cut by the end of the chunk: remember where it began. */
static void mark_partial(llmm_cli_json *j)
{
    chunk_position(j, j->tok, &j->part_line, &j->part_col);
}

static int value_expected(const llmm_cli_json *j)
{
    return j->state == ST_VALUE || j->state == ST_VALUE_OR_CLOSE ||
           (j->state == ST_TOP && (j->multi || j->values == 0));
}

static int unexpected(llmm_cli_json *j, int c)
{
    switch (j->state) {
    case ST_TOP:
        return llmm_cli_json__syntax(j, j->values ? "extra data after the JSON value: %s" : "expected a JSON value, found %s", c);
    case ST_VALUE:
    case ST_VALUE_OR_CLOSE:
        return llmm_cli_json__syntax(j, "expected a value, found %s", c);
    case ST_KEY:
    case ST_KEY_OR_CLOSE:
        return llmm_cli_json__syntax(j, "expected a key (a string in double quotes), found %s", c);
    case ST_COLON:
        return llmm_cli_json__syntax(j, "expected ':' after a key, found %s", c);
    default:
        return llmm_cli_json__syntax(j, top(j)->map ? "expected ',' or '}' after a value, found %s"
                                     : "expected ',' or ']' after a value, found %s",
                      c);
    }
}

/* The common number in one pass: at most 19 digits, converted exactly by llmm_cli_decimal()
 * (common/numbers.h), the whole token inside the chunk. Returns its end and sets *v (v NULL:
 * a value the reader skips, checked but not converted), or NULL for everything else (the
 * general path then reads it). */
static const unsigned char *fast_number(const unsigned char *p, const unsigned char *end,
                                        double *v)
{
    uint64_t m = 0;
    int neg = 0, nd = 0;
    long e10 = 0;
    if (*p == '-') {
        neg = 1;
        if (++p == end)
            return NULL;
    }
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        for (; p < end && (unsigned)(*p - '0') <= 9; p++, nd++)
            m = m * 10 + (unsigned)(*p - '0');
    } else {
        return NULL;
    }
    if (p < end && *p == '.') {
        const unsigned char *d = ++p;
        for (; p < end && (unsigned)(*p - '0') <= 9; p++, nd++, e10--)
            m = m * 10 + (unsigned)(*p - '0');
        if (p == d)
            return NULL;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        long e = 0;
        int eneg = 0;
        const unsigned char *d;
        if (++p < end && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        for (d = p; p < end && (unsigned)(*p - '0') <= 9 && e < 1000; p++)
            e = e * 10 + (*p - '0');
        if (p == d)
            return NULL;
        e10 += eneg ? -e : e;
    }
    if (p == end || cls[*p] == C_BARE || nd > 19 || (v && !llmm_cli_decimal(m, e10, neg, v)))
        return NULL;
    return p;
}

/* A number or literal starting at *pp. */
static int bare_start(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *s = *pp, *p = s;
    if (*s <= '9') { /* a digit or '-' */
        llmm_cli_json_value v;
        const unsigned char *e;
        v.num = 0;
        e = fast_number(s, end, delivered(j) ? &v.num : NULL);
        if (e) {
            v.kind = K_NUMBER;
            v.b = 0;
            v.text = (const char *)s;
            v.len = (size_t)(e - s);
            *pp = e;
            return scalar(j, &v);
        }
    }
    while (p < end && cls[*p] == C_BARE)
        p++;
    *pp = p;
    if (p == end) { /* may go on in the next chunk */
        size_t n = (size_t)(p - s);
        if (n > LLMM_CLI_JSON_BARE_MAX)
            return llmm_cli_json__syntax(j, "number or literal longer than 512 characters", -1);
        memcpy(j->bare, s, n);
        j->nbare = n;
        j->partial = 1;
        mark_partial(j);
        return LLMM_CLI_JSON_OK;
    }
    if ((size_t)(p - s) > LLMM_CLI_JSON_BARE_MAX)
        return llmm_cli_json__syntax(j, "number or literal longer than 512 characters", -1);
    return bare(j, (const char *)s, (size_t)(p - s));
}

/* Finish a token the last chunk cut. */
static int resume(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    int rc = LLMM_CLI_JSON_OK, done;
    uint64_t tok = j->tok;
    if (j->partial == 1) {
        while (p < end && cls[*p] == C_BARE) {
            if (j->nbare == LLMM_CLI_JSON_BARE_MAX) {
                *pp = p;
                return llmm_cli_json__syntax(j, "number or literal longer than 512 characters", -1);
            }
            j->bare[j->nbare++] = (char)*p++;
        }
        *pp = p;
        if (p == end)
            return LLMM_CLI_JSON_OK;
        j->partial = 0;
        return bare(j, j->bare, j->nbare);
    }
    rc = llmm_cli_json__scan_string(j, &p, end, &done);
    *pp = p;
    if (rc != LLMM_CLI_JSON_OK || !done)
        return rc;
    rc = j->partial == 3;
    j->partial = 0;
    j->tok = tok;
    return llmm_cli_json__string_done(j, rc, j->sbuf, j->slen);
}

/* The UTF-8 byte-order mark at the very start is skipped. */
static int skip_bom(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end)
{
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    const unsigned char *p = *pp;
    while (p < end && j->bom >= 0) {
        if (*p == bom[j->bom]) {
            p++;
            if (++j->bom == 3)
                j->bom = -1;
        } else if (j->bom == 0) {
            j->bom = -1;
        } else {
            j->tok = llmm_cli_json__offset(j, p);
            return llmm_cli_json__syntax(j, "invalid byte %s after the start of a byte-order mark", *p);
        }
    }
    *pp = p;
    return LLMM_CLI_JSON_OK;
}

static int step(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    int c = *p, rc;
    j->tok = llmm_cli_json__offset(j, p);
    switch (c) {
    case '{':
    case '[':
        if (!value_expected(j))
            return unexpected(j, c);
        *pp = p + 1;
        return open_container(j, c == '{');
    case '}':
    case ']':
        *pp = p + 1;
        return close_container(j, c == '}');
    case ',':
        if (j->state != ST_AFTER)
            return unexpected(j, c);
        j->state = top(j)->map ? ST_KEY : ST_VALUE;
        *pp = p + 1;
        return LLMM_CLI_JSON_OK;
    case ':':
        if (j->state != ST_COLON)
            return unexpected(j, c);
        j->state = ST_VALUE;
        *pp = p + 1;
        return LLMM_CLI_JSON_OK;
    case '"':
        if (j->state == ST_KEY || j->state == ST_KEY_OR_CLOSE)
            rc = llmm_cli_json__string_start(j, pp, end, 1);
        else if (value_expected(j))
            rc = llmm_cli_json__string_start(j, pp, end, 0);
        else
            return unexpected(j, c);
        if (rc == LLMM_CLI_JSON_OK && j->partial)
            mark_partial(j);
        return rc;
    default:
        if (cls[c] != C_BARE || !value_expected(j))
            return unexpected(j, c);
        return bare_start(j, pp, end);
    }
}

static void count_lines(llmm_cli_json *j, const char *buf, size_t len)
{
    const char *c = buf, *end = buf + len, *nl;
    while (c < end && (nl = memchr(c, '\n', (size_t)(end - c))) != NULL) {
        j->line++;
        j->line_start = j->base + (uint64_t)(nl + 1 - buf);
        c = nl + 1;
    }
}

int llmm_cli_json_feed(llmm_cli_json *j, const char *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *)buf, *end = p + len;
    int rc = LLMM_CLI_JSON_OK;
    j->chunk = buf;
    if (j->bom >= 0)
        rc = skip_bom(j, &p, end);
    if (rc == LLMM_CLI_JSON_OK && j->partial)
        rc = resume(j, &p, end);
    while (rc == LLMM_CLI_JSON_OK && p < end) {
        if (cls[*p] == C_WS) {
            p++;
            continue;
        }
        rc = step(j, &p, end);
    }
    if (rc != LLMM_CLI_JSON_OK)
        return rc;
    count_lines(j, buf, len);
    j->base += len;
    j->chunk = NULL;
    return LLMM_CLI_JSON_OK;
}

int llmm_cli_json_finish(llmm_cli_json *j)
{
    j->chunk = NULL;
    if (j->partial == 1) {
        int rc;
        j->partial = 0;
        if ((rc = bare(j, j->bare, j->nbare)) != LLMM_CLI_JSON_OK)
            return rc;
    }
    j->tok = j->base;
    if (j->partial)
        return llmm_cli_json__syntax(j, "the input ends inside a string", -1);
    if (j->depth > 0)
        return llmm_cli_json__syntax(j, top(j)->map ? "the input ends inside an object (truncated?)"
                                     : "the input ends inside a list (truncated?)",
                      -1);
    return LLMM_CLI_JSON_OK;
}

int llmm_cli_json_int(const llmm_cli_json_value *v, int64_t *out)
{
    uint64_t x = 0;
    if (v->kind != K_NUMBER || v->len == 0 || v->len > 19)
        return 0;
    for (size_t i = 0; i < v->len; i++) {
        if (v->text[i] < '0' || v->text[i] > '9')
            return 0;
        x = x * 10 + (uint64_t)(v->text[i] - '0');
    }
    if (x > (uint64_t)INT64_MAX)
        return 0;
    *out = (int64_t)x;
    return 1;
}
