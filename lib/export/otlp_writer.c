/* The OTLP request writer (otlp_internal.h): protobuf or OTLP/JSON from one description.
 *
 * Protobuf: fixed64 and double fields are wire type 1, sint32 zig-zag varints, int64, enums
 * and bools plain varints, strings, bytes and messages length-delimited; packed repeated
 * scalars one length-delimited field. JSON (OTLP/JSON, the proto3 mapping with OTLP's
 * exceptions): fixed64 and int64 as decimal strings, enums and 32-bit integers as numbers,
 * ids as lowercase hex, doubles as numbers or "NaN" / "Infinity" / "-Infinity". */
#include <string.h>

#include "core/abi.h"
#include "export/otlp_internal.h"

void llmm__ow_init(llmm__ow *w, llmm__sink *s, llmm_otlp_encoding enc)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->json = enc == LLMM_OTLP_JSON;
    if (w->json)
        llmm__putc(s, '{');
}

static llmm__ow_level *level(llmm__ow *w)
{
    return &w->lv[w->depth];
}

static void close_array(llmm__ow *w)
{
    if (level(w)->open) {
        llmm__putc(w->s, ']');
        level(w)->open = 0;
    }
}

/* JSON: separator and key of a field; for a repeated field, the array's `[` or the `,`
 * between elements. */
static void json_field(llmm__ow *w, uint32_t field, const char *key, int rep)
{
    llmm__ow_level *l = level(w);
    if (rep && l->open == field) {
        llmm__putc(w->s, ',');
        return;
    }
    close_array(w);
    if (l->n++)
        llmm__putc(w->s, ',');
    llmm__putc(w->s, '"');
    llmm__puts(w->s, key);
    llmm__puts(w->s, "\":");
    if (rep) {
        llmm__putc(w->s, '[');
        l->open = field;
    }
}

void llmm__ow_begin(llmm__ow *w, uint32_t field, const char *key, int rep)
{
    size_t start = 0;
    if (w->json) {
        json_field(w, field, key, rep);
        llmm__putc(w->s, '{');
    } else {
        start = llmm__pb_begin(w->s, field);
    }
    w->depth++;
    memset(level(w), 0, sizeof *level(w));
    level(w)->start = start;
}

void llmm__ow_end(llmm__ow *w)
{
    if (w->json) {
        close_array(w);
        llmm__putc(w->s, '}');
    } else {
        llmm__pb_end(w->s, level(w)->start);
    }
    w->depth--;
}

void llmm__ow_finish(llmm__ow *w)
{
    if (w->json) {
        close_array(w);
        llmm__putc(w->s, '}');
    }
}

static void json_u64(llmm__sink *s, uint64_t v)
{
    llmm__putc(s, '"');
    llmm__put_u64(s, v);
    llmm__putc(s, '"');
}

void llmm__ow_fixed64(llmm__ow *w, uint32_t field, const char *key, uint64_t v)
{
    if (!w->json) {
        llmm__pb_fixed64(w->s, field, v);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    json_u64(w->s, v);
}

void llmm__ow_double(llmm__ow *w, uint32_t field, const char *key, double v)
{
    if (!w->json) {
        llmm__pb_double(w->s, field, v);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__put_json_double(w->s, v);
}

void llmm__ow_sint32(llmm__ow *w, uint32_t field, const char *key, int64_t v)
{
    if (!w->json) {
        llmm__pb_sint(w->s, field, v);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__put_i64(w->s, v);
}

void llmm__ow_int64(llmm__ow *w, uint32_t field, const char *key, int64_t v)
{
    if (!w->json) {
        llmm__pb_uint(w->s, field, (uint64_t)v); /* int64: two's complement, 10 bytes if < 0 */
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__putc(w->s, '"');
    llmm__put_i64(w->s, v);
    llmm__putc(w->s, '"');
}

void llmm__ow_enum(llmm__ow *w, uint32_t field, const char *key, uint32_t v)
{
    if (!w->json) {
        llmm__pb_uint(w->s, field, v);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__put_u64(w->s, v);
}

void llmm__ow_bool(llmm__ow *w, uint32_t field, const char *key, int v)
{
    if (!w->json) {
        llmm__pb_uint(w->s, field, v ? 1u : 0u);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__puts(w->s, v ? "true" : "false");
}

void llmm__ow_string(llmm__ow *w, uint32_t field, const char *key, const char *z)
{
    if (!w->json) {
        llmm__pb_bytes(w->s, field, z, strlen(z));
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__putc(w->s, '"');
    llmm__put_json_text(w->s, z, strlen(z));
    llmm__putc(w->s, '"');
}

void llmm__ow_id(llmm__ow *w, uint32_t field, const char *key, const uint8_t *id, size_t n)
{
    if (!w->json) {
        llmm__pb_bytes(w->s, field, id, n);
        return;
    }
    json_field(w, field, key, LLMM__OW_ONE);
    llmm__putc(w->s, '"');
    llmm__put_hex(w->s, id, n);
    llmm__putc(w->s, '"');
}

void llmm__ow_packed_begin(llmm__ow *w, uint32_t field, const char *key)
{
    size_t start = 0;
    if (w->json) {
        json_field(w, field, key, LLMM__OW_ONE);
        llmm__putc(w->s, '[');
    } else {
        start = llmm__pb_begin(w->s, field);
    }
    w->depth++;
    memset(level(w), 0, sizeof *level(w));
    level(w)->start = start;
}

static void json_elem(llmm__ow *w)
{
    if (level(w)->n++)
        llmm__putc(w->s, ',');
}

void llmm__ow_packed_fixed64(llmm__ow *w, uint64_t v)
{
    if (!w->json) {
        llmm__pb_raw_fixed64(w->s, v);
        return;
    }
    json_elem(w);
    json_u64(w->s, v);
}

void llmm__ow_packed_uint(llmm__ow *w, uint64_t v)
{
    if (!w->json) {
        llmm__pb_varint(w->s, v);
        return;
    }
    json_elem(w);
    json_u64(w->s, v);
}

void llmm__ow_packed_double(llmm__ow *w, double v)
{
    if (!w->json) {
        llmm__pb_raw_double(w->s, v);
        return;
    }
    json_elem(w);
    llmm__put_json_double(w->s, v);
}

void llmm__ow_packed_end(llmm__ow *w)
{
    if (w->json)
        llmm__putc(w->s, ']');
    else
        llmm__pb_end(w->s, level(w)->start);
    w->depth--;
}

void llmm__ow_labels(llmm__ow *w, uint32_t field, const char *key, const char *labels)
{
    size_t pos = 0;
    llmm__label l;
    while (llmm__labels_next(labels, &pos, &l)) {
        llmm__ow_begin(w, field, key, LLMM__OW_REP); /* KeyValue */
        if (w->json) {
            json_field(w, 1, "key", LLMM__OW_ONE);
            llmm__putc(w->s, '"');
            llmm__put_json_text(w->s, l.name, l.name_len);
            llmm__putc(w->s, '"');
        } else {
            llmm__pb_bytes(w->s, 1, l.name, l.name_len);
        }
        llmm__ow_begin(w, 2, "value", LLMM__OW_ONE); /* AnyValue */
        if (w->json) {
            json_field(w, 1, "stringValue", LLMM__OW_ONE);
            llmm__putc(w->s, '"');
            llmm__put_json_unescaped(w->s, l.value, l.value_len);
            llmm__putc(w->s, '"');
        } else {
            llmm__pb_tag(w->s, 1, 2);
            llmm__pb_varint(w->s, l.raw_len);
            llmm__put_unescaped(w->s, l.value, l.value_len);
        }
        llmm__ow_end(w);
        llmm__ow_end(w);
    }
}

void llmm__ow_scope(llmm__ow *w, uint32_t field, const char *name, const char *version,
                    const char *attributes)
{
    llmm__ow_begin(w, field, "scope", LLMM__OW_ONE);
    llmm__ow_string(w, 1, "name", name ? name : "libllmmetrics");
    if (version || !name)
        llmm__ow_string(w, 2, "version", version ? version : llmm_version_string());
    llmm__ow_labels(w, 3, "attributes", attributes);
    llmm__ow_end(w);
}

void llmm__ow_request_open(llmm__ow *w, const char *outer, const char *inner,
                           const char *resource_attributes, const char *scope_name,
                           const char *scope_version, const char *scope_attributes)
{
    llmm__ow_begin(w, 1, outer, LLMM__OW_REP);
    llmm__ow_begin(w, 1, "resource", LLMM__OW_ONE);
    llmm__ow_labels(w, 1, "attributes", resource_attributes);
    llmm__ow_end(w);
    llmm__ow_begin(w, 2, inner, LLMM__OW_REP);
    llmm__ow_scope(w, 1, scope_name, scope_version, scope_attributes);
}

llmm_status llmm__ow_request_close(llmm__ow *w, llmm_status st, size_t *len)
{
    if (st != LLMM_OK)
        return st;
    llmm__ow_end(w);
    llmm__ow_end(w);
    llmm__ow_finish(w);
    *len = w->s->len;
    return llmm__sink_status(w->s);
}

/* ---- shared checks ------------------------------------------------------------------------ */

llmm_status llmm__otlp_check_scope(const char *resource_attributes, const char *scope_name,
                                   const char *scope_version, const char *scope_attributes)
{
    llmm_status st;
    if ((st = llmm__labels_check(resource_attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK ||
        (st = llmm__labels_check(scope_attributes, LLMM__KEYS_OTLP, NULL)) != LLMM_OK)
        return st;
    if (!llmm__otlp_text_ok(scope_name) || !llmm__otlp_text_ok(scope_version))
        return LLMM_E_INVALID;
    return LLMM_OK;
}

llmm_status llmm__otlp_check_common(llmm_otlp_encoding enc, const uint8_t *buf, size_t cap,
                                    const size_t *len)
{
    if (!len || (!buf && cap))
        return LLMM_E_INVALID;
    if (enc != LLMM_OTLP_PROTOBUF && enc != LLMM_OTLP_JSON)
        return LLMM_E_INVALID;
    return LLMM_OK;
}

int llmm__otlp_text_ok(const char *z)
{
    return !z || llmm__utf8_valid(z, strlen(z));
}

const void *llmm__otlp_elem(const void *base, size_t i)
{
    uint32_t stride;
    memcpy(&stride, base, sizeof stride);
    return (const uint8_t *)base + i * stride;
}

llmm_status llmm__otlp_check_array(const void *base, size_t n, llmm_struct_kind kind)
{
    uint32_t first, size;
    size_t i;
    llmm_status st;
    if (!n)
        return LLMM_OK;
    if (!base)
        return LLMM_E_INVALID;
    if ((st = llmm__sized_check(kind, base)) != LLMM_OK)
        return st;
    memcpy(&first, base, sizeof first);
    for (i = 1; i < n; i++) {
        memcpy(&size, llmm__otlp_elem(base, i), sizeof size);
        if (size != first)
            return LLMM_E_INVALID;
    }
    return LLMM_OK;
}
