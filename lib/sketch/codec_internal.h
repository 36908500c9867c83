/* Internal building blocks of the sketch codec (lib/sketch/codec.c, decode.c), kept apart so that the
 * white-box tests can check them directly: CRC-32C and LEB128 varints. */
#ifndef LLMM_CODEC_INTERNAL_H
#define LLMM_CODEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The envelope of every format version (doc/format.md, section 2) and version 1's fixed part. */
#define LLMM__SKETCH_MAGIC "LLMS" /* its first LLMM__MAGIC_BYTES bytes */
#define LLMM__MAGIC_BYTES 4
#define LLMM__FIXED_BYTES 46 /* magic 4, version 1, scale 1, five doubles */
#define LLMM__CRC_BYTES 4

/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, init and final xor 0xFFFFFFFF).
 * Pass 0 to start; pass a previous result to continue over more bytes (zlib convention). */
uint32_t llmm__crc32c(uint32_t crc, const uint8_t *p, size_t n);

/* Bytes in the shortest LEB128 form of v (1 … 10). */
size_t llmm__uvarint_len(uint64_t v);
/* Write the shortest LEB128 form of v at p (room for llmm__uvarint_len(v) bytes); returns the
 * length written. */
size_t llmm__uvarint_put(uint8_t *p, uint64_t v);
/* Read one LEB128 value from p[0 .. avail). Returns the bytes consumed, or 0 when the value is
 * truncated, longer than 10 bytes, wider than 64 bits, or not in its shortest form. */
size_t llmm__uvarint_get(const uint8_t *p, size_t avail, uint64_t *v);

/* Zig-zag mapping of a signed value to an unsigned one (0, -1, 1, -2 … → 0, 1, 2, 3 …). */
static inline uint64_t llmm__zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t llmm__unzigzag(uint64_t z)
{
    return (int64_t)((z >> 1) ^ (0 - (z & 1)));
}

#endif
