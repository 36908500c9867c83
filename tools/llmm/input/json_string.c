/* json_string.c: the strings of the JSON tokenizer (json.h): scanning a string to its closing
 * quote, eight bytes at a time where it can; decoding its escapes ("\\uXXXX" and surrogate
 * pairs into UTF-8) when the reader asked for its bytes; a string cut by the end of a chunk
 * going on in the next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "input/json.h"
#include "input/json_impl.h"

/* A byte that ends the fast scan of a string: '"', '\\' or a control character. */
static inline int str_stop(unsigned c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* What each one-letter escape stands for (0: not one, a \\u escape or an error). */
static const unsigned char esc_byte[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t',
};

static int sappend(llmm_cli_json *j, const void *s, size_t n)
{
    if (n == 0)
        return LLMM_CLI_JSON_OK;
    if (j->slen + n <= j->scap) { /* the common case: room reserved by scan_string */
        memcpy(j->sbuf + j->slen, s, n);
        j->slen += n;
        return LLMM_CLI_JSON_OK;
    }
    if (j->slen + n > LLMM_CLI_JSON_STRING_MAX) {
        snprintf(j->msg, sizeof j->msg, "string longer than %zu MiB",
                 LLMM_CLI_JSON_STRING_MAX >> 20);
        return LLMM_CLI_JSON_SYNTAX;
    }
    if (j->slen + n > j->scap &&
        llmm_cli_grow(&j->sbuf, &j->scap, j->slen + n, 1, 256) != 0)
        return LLMM_CLI_JSON_NOMEM;
    memcpy(j->sbuf + j->slen, s, n);
    j->slen += n;
    return LLMM_CLI_JSON_OK;
}

static int put_code(llmm_cli_json *j, uint32_t c)
{
    unsigned char u[4];
    size_t n;
    if (c < 0x80) {
        u[0] = (unsigned char)c;
        n = 1;
    } else if (c < 0x800) {
        u[0] = (unsigned char)(0xC0 | (c >> 6));
        u[1] = (unsigned char)(0x80 | (c & 0x3F));
        n = 2;
    } else if (c < 0x10000) {
        u[0] = (unsigned char)(0xE0 | (c >> 12));
        u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (c & 0x3F));
        n = 3;
    } else {
        u[0] = (unsigned char)(0xF0 | (c >> 18));
        u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
        u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        u[3] = (unsigned char)(0x80 | (c & 0x3F));
        n = 4;
    }
    return j->capture ? sappend(j, u, n) : LLMM_CLI_JSON_OK;
}

/* A high surrogate not followed by a low one stands for U+FFFD. */
static int flush_hi(llmm_cli_json *j)
{
    if (!j->hi)
        return LLMM_CLI_JSON_OK;
    j->hi = 0;
    return put_code(j, 0xFFFD);
}

static int hexval(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The code point of a finished \uXXXX. */
static int unicode(llmm_cli_json *j)
{
    uint32_t c = j->ucode;
    if (c >= 0xDC00 && c <= 0xDFFF && j->hi) {
        c = 0x10000 + ((j->hi - 0xD800) << 10) + (c - 0xDC00);
        j->hi = 0;
        return put_code(j, c);
    }
    if (flush_hi(j) != LLMM_CLI_JSON_OK)
        return LLMM_CLI_JSON_SYNTAX;
    if (c >= 0xD800 && c <= 0xDBFF) {
        j->hi = c;
        return LLMM_CLI_JSON_OK;
    }
    return put_code(j, c >= 0xDC00 && c <= 0xDFFF ? 0xFFFD : c);
}

/* One byte of an escape sequence. */
static int escape_byte(llmm_cli_json *j, int c)
{
    char out;
    if (j->esc >= 2) {
        int h = hexval(c);
        if (h < 0)
            return llmm_cli_json__syntax(j, "invalid \\u escape: %s is not a hex digit", c);
        j->ucode = j->ucode * 16 + (uint32_t)h;
        if (++j->esc == 6) {
            j->esc = 0;
            return unicode(j);
        }
        return LLMM_CLI_JSON_OK;
    }
    if (c == 'u') {
        j->esc = 2;
        j->ucode = 0;
        return LLMM_CLI_JSON_OK;
    }
    switch (c) {
    case '"':
    case '\\':
    case '/':
        out = (char)c;
        break;
    case 'b':
        out = '\b';
        break;
    case 'f':
        out = '\f';
        break;
    case 'n':
        out = '\n';
        break;
    case 'r':
        out = '\r';
        break;
    case 't':
        out = '\t';
        break;
    default:
        return llmm_cli_json__syntax(j, "invalid escape: backslash before %s", c);
    }
    j->esc = 0;
    if (j->hi && flush_hi(j) != LLMM_CLI_JSON_OK)
        return LLMM_CLI_JSON_SYNTAX;
    return j->capture ? sappend(j, &out, 1) : LLMM_CLI_JSON_OK;
}

/* Where the first byte that ends a run of plain string bytes ('"', '\\' or a control
 * character) lies among the STOP_BLOCK bytes at p: its index, or STOP_BLOCK when there is
 * none. x86-64 (and i686 with SSE2) compares 16 bytes at once; elsewhere 8 bytes are tested
 * at once with word arithmetic (a byte below 0x20, or equal to '"' or '\\' after an exclusive
 * or, sets its high bit; bits above the first such byte may be set by the borrow, never
 * below it), and the byte order says which end of the word is the first byte. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define STOP_BLOCK 16
static inline unsigned stop_index(const unsigned char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i b = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i c = _mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8(0x1F)), _mm_setzero_si128());
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c));
    return m ? (unsigned)__builtin_ctz(m) : STOP_BLOCK;
}
#else
#define STOP_BLOCK 8
static inline unsigned stop_index(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t v, q, b, m;
    memcpy(&v, p, 8);
    q = v ^ (ones * '"');
    b = v ^ (ones * '\\');
    m = (((v - ones * 0x20) & ~v) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
    if (!m)
        return STOP_BLOCK;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (unsigned)__builtin_ctzll(m) / 8;
#else
    unsigned k = 0;
    while (k < STOP_BLOCK && !str_stop(p[k]))
        k++;
    return k;
#endif
}
#endif

static inline const unsigned char *skip_plain(const unsigned char *p,
                                              const unsigned char *end)
{
    while (end - p >= STOP_BLOCK) {
        unsigned k = stop_index(p);
        p += k;
        if (k < STOP_BLOCK)
            return p;
    }
    while (p < end && !str_stop(*p))
        p++;
    return p;
}

/* Decode plain bytes and the one-letter escapes from p into the reserved room of sbuf, up
 * to the closing quote or anything else (a \u escape, an escape cut by the chunk's end, a
 * control character, the chunk's end), which scan_string handles. A block is copied whole
 * and the output advanced to its first stop: the room reserved for end - p raw bytes holds
 * it, since decoded bytes never outnumber raw ones. */
static const unsigned char *decode_run(llmm_cli_json *j, const unsigned char *p,
                                       const unsigned char *end)
{
    char *o = j->sbuf + j->slen;
    const unsigned char *start = p;
    while (p < end) {
        unsigned c;
        if (end - p >= STOP_BLOCK) {
            unsigned k = stop_index(p);
            memcpy(o, p, STOP_BLOCK);
            o += k;
            p += k;
            if (k == STOP_BLOCK)
                continue;
        } else {
            while (p < end && !str_stop(*p))
                *o++ = (char)*p++;
            if (p == end)
                break;
        }
        c = *p;
        if (c != '\\' || end - p < 2 || !esc_byte[p[1]])
            break;
        *o++ = (char)esc_byte[p[1]];
        p += 2;
    }
    j->sraw += (uint64_t)(p - start);
    j->slen = (size_t)(o - j->sbuf);
    return p;
}

/* Scan a string from *pp (after its opening quote, or where the last chunk left it) to its
 * closing quote: LLMM_CLI_JSON_OK with *done 1 and *pp after the quote, or with *done 0 at the
 * chunk's end; another code on an error (*pp at the offending byte). */
int llmm_cli_json__scan_string(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end,
                       int *done)
{
    const unsigned char *p = *pp;
    int rc = LLMM_CLI_JSON_OK;
    size_t room = j->slen + (size_t)(end - p); /* decoded bytes never outnumber raw ones */
    *done = 0;
    if (j->capture && room > j->scap && room <= LLMM_CLI_JSON_STRING_MAX &&
        llmm_cli_grow(&j->sbuf, &j->scap, room, 1, 256) != 0)
        return LLMM_CLI_JSON_NOMEM;
    while (p < end) {
        const unsigned char *s = p;
        if (j->capture && !j->esc && !j->hi && j->scap - j->slen >= (size_t)(end - p)) {
            p = decode_run(j, p, end);
            if (p == end)
                break;
            s = p;
        }
        if (j->esc) {
            rc = escape_byte(j, *p);
            if (rc != LLMM_CLI_JSON_OK) {
                j->tok = llmm_cli_json__offset(j, p);
                break;
            }
            p++;
            j->sraw++;
            continue;
        }
        p = skip_plain(p, end);
        if (p > s) {
            if (j->hi && (rc = flush_hi(j)) != LLMM_CLI_JSON_OK)
                break;
            if (j->capture && (rc = sappend(j, s, (size_t)(p - s))) != LLMM_CLI_JSON_OK)
                break;
            j->sraw += (uint64_t)(p - s);
        }
        if (p == end)
            break;
        if (*p == '"') {
            if ((rc = flush_hi(j)) != LLMM_CLI_JSON_OK)
                break;
            *done = 1;
            p++;
            break;
        }
        if (*p != '\\') {
            j->tok = llmm_cli_json__offset(j, p);
            rc = llmm_cli_json__syntax(j, "control character %s in a string (escape it)", *p);
            break;
        }
        j->esc = 1;
        j->sraw++;
        p++;
    }
    *pp = p;
    return rc;
}

/* Does the reader want the bytes of the string that starts now? */
static int want_text(const llmm_cli_json *j, int is_key)
{
    const llmm_cli_json_frame *f;
    if (j->skip)
        return 0;
    if (is_key)
        return 1;
    if (j->skip_next)
        return 0;
    f = j->depth ? &j->st[j->depth - 1] : NULL;
    return j->text_next || (f && !f->map && f->text);
}

/* The rest of a string string_start could not take in one piece (an escape, or the chunk's
 * end first), s its first byte and p the first byte the fast scan stopped at. Kept out of
 * line: the common string never gets here, and its path stays short. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int string_rest(llmm_cli_json *j, const unsigned char **pp, const unsigned char *s,
                       const unsigned char *p, const unsigned char *end, int is_key)
{
    int done, rc;
    j->slen = 0;
    j->sraw = (uint64_t)(p - s);
    j->esc = 0;
    j->hi = 0;
    if (j->capture && (rc = sappend(j, s, (size_t)(p - s))) != LLMM_CLI_JSON_OK)
        return rc;
    rc = llmm_cli_json__scan_string(j, &p, end, &done);
    *pp = p;
    if (rc != LLMM_CLI_JSON_OK)
        return rc;
    if (!done) {
        j->partial = is_key ? 3 : 2;
        return LLMM_CLI_JSON_OK;
    }
    return llmm_cli_json__string_done(j, is_key, j->sbuf, j->slen);
}

/* A string starting at p (its opening quote). */
int llmm_cli_json__string_start(llmm_cli_json *j, const unsigned char **pp, const unsigned char *end,
                        int is_key)
{
    const unsigned char *s = *pp + 1, *p;
    j->capture = want_text(j, is_key);
    /* fast path: the whole string in this chunk without an escape */
    p = skip_plain(s, end);
    if (p < end && *p == '"') {
        j->sraw = (uint64_t)(p - s);
        *pp = p + 1;
        return llmm_cli_json__string_done(j, is_key, (const char *)s, (size_t)(p - s));
    }
    return string_rest(j, pp, s, p, end, is_key);
}
