/* Protobuf wire encoding, written by hand: the library links nothing for it.
 *
 * Wire types (protobuf encoding spec): 0 varint (base-128, low group first), 1 fixed64
 * (8 bytes little-endian: fixed64, sfixed64, double), 2 length-delimited (a varint length,
 * then the bytes: strings, bytes, nested messages, packed repeated scalars), 5 fixed32.
 * A tag is the varint (field << 3) | wire type. Nested messages are written in place: the
 * body goes first and its length is inserted in front of it when the message ends, so one
 * pass suffices and a fixed sink still counts the size a too-small buffer would need. */
#include <string.h>

#include "export/export_internal.h"

void llmm__pb_varint(llmm__sink *s, uint64_t v)
{
    uint8_t tmp[10];
    llmm__put(s, tmp, llmm__uvarint_put(tmp, v));
}

void llmm__pb_tag(llmm__sink *s, uint32_t field, uint32_t wire)
{
    llmm__pb_varint(s, ((uint64_t)field << 3) | wire);
}

void llmm__pb_uint(llmm__sink *s, uint32_t field, uint64_t v)
{
    llmm__pb_tag(s, field, 0);
    llmm__pb_varint(s, v);
}

void llmm__pb_sint(llmm__sink *s, uint32_t field, int64_t v)
{
    /* zig-zag: 0, -1, 1, -2, ... → 0, 1, 2, 3, ... */
    uint64_t u = v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1u : (uint64_t)v << 1;
    llmm__pb_tag(s, field, 0);
    llmm__pb_varint(s, u);
}

void llmm__pb_raw_fixed64(llmm__sink *s, uint64_t v)
{
    uint8_t le[8];
    int i;
    for (i = 0; i < 8; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    llmm__put(s, le, sizeof le);
}

void llmm__pb_raw_double(llmm__sink *s, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    llmm__pb_raw_fixed64(s, bits);
}

void llmm__pb_fixed64(llmm__sink *s, uint32_t field, uint64_t v)
{
    llmm__pb_tag(s, field, 1);
    llmm__pb_raw_fixed64(s, v);
}

void llmm__pb_fixed32(llmm__sink *s, uint32_t field, uint32_t v)
{
    uint8_t le[4];
    int i;
    for (i = 0; i < 4; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    llmm__pb_tag(s, field, 5);
    llmm__put(s, le, sizeof le);
}

void llmm__pb_double(llmm__sink *s, uint32_t field, double v)
{
    llmm__pb_tag(s, field, 1);
    llmm__pb_raw_double(s, v);
}

void llmm__pb_bytes(llmm__sink *s, uint32_t field, const void *d, size_t n)
{
    llmm__pb_tag(s, field, 2);
    llmm__pb_varint(s, n);
    llmm__put(s, d, n);
}

size_t llmm__pb_begin(llmm__sink *s, uint32_t field)
{
    llmm__pb_tag(s, field, 2);
    return s->len;
}

void llmm__pb_end(llmm__sink *s, size_t body_start)
{
    uint8_t tmp[10];
    size_t body, k;

    if (s->failed)
        return;
    body = s->len - body_start;
    k = llmm__uvarint_put(tmp, body);
    if (llmm__sink_reserve(s, k)) {
        memmove(s->p + body_start + k, s->p + body_start, body);
        memcpy(s->p + body_start, tmp, k);
    } else if (s->failed) {
        return;
    }
    s->len += k;
}
