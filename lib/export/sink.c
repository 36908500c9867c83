/* Byte sink shared by every encoder (the protobuf wire primitives are in pb.c).
 *
 * One sink type serves both the fixed caller buffers of the one-shot exporters (write what
 * fits, keep counting, so the caller learns the size needed) and the writer's growing
 * buffer (memory from the context; on a failed growth the sink stops and reports NOMEM, and
 * the writer truncates back to where the call started). */
#include <string.h>

#include "export/export_internal.h"

void llmm__sink_fixed(llmm__sink *s, uint8_t *buf, size_t cap)
{
    s->p = buf;
    s->len = 0;
    s->cap = buf ? cap : 0;
    s->ctx = NULL;
    s->growable = 0;
    s->failed = 0;
}

void llmm__sink_growable(llmm__sink *s, const llmm_ctx *ctx)
{
    s->p = NULL;
    s->len = 0;
    s->cap = 0;
    s->ctx = ctx;
    s->growable = 1;
    s->failed = 0;
}

void llmm__sink_release(llmm__sink *s)
{
    if (s->growable && s->p)
        llmm__free(s->ctx, s->p, s->cap);
    s->p = NULL;
    s->cap = 0;
    s->len = 0;
}

int llmm__sink_reserve(llmm__sink *s, size_t extra)
{
    size_t need, ncap;
    uint8_t *np;

    if (s->failed)
        return 0;
    if (extra > SIZE_MAX - s->len) {
        s->failed = 1;
        return 0;
    }
    need = s->len + extra;
    if (need <= s->cap)
        return 1;
    if (!s->growable)
        return 0;
    ncap = s->cap ? s->cap : 256;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) {
            ncap = need;
            break;
        }
        ncap *= 2;
    }
    np = s->p ? (uint8_t *)llmm__realloc(s->ctx, s->p, s->cap, ncap)
              : (uint8_t *)llmm__alloc(s->ctx, ncap);
    if (!np) {
        s->failed = 1;
        return 0;
    }
    s->p = np;
    s->cap = ncap;
    return 1;
}

llmm_status llmm__sink_status(const llmm__sink *s)
{
    if (s->failed)
        return LLMM_E_NOMEM;
    if (s->len > s->cap)
        return LLMM_E_BUFFER;
    return LLMM_OK;
}

void llmm__put(llmm__sink *s, const void *d, size_t n)
{
    if (s->failed || n == 0)
        return;
    if (llmm__sink_reserve(s, n))
        memcpy(s->p + s->len, d, n);
    else if (s->failed)
        return;
    s->len += n;
}

void llmm__puts(llmm__sink *s, const char *z)
{
    llmm__put(s, z, strlen(z));
}

void llmm__putc(llmm__sink *s, char c)
{
    llmm__put(s, &c, 1);
}

void llmm__put_u64(llmm__sink *s, uint64_t v)
{
    char tmp[20];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    llmm__put(s, tmp + i, sizeof tmp - i);
}

void llmm__put_i64(llmm__sink *s, int64_t v)
{
    if (v < 0) {
        llmm__putc(s, '-');
        llmm__put_u64(s, (uint64_t)0 - (uint64_t)v);
    } else {
        llmm__put_u64(s, (uint64_t)v);
    }
}

void llmm__put_double(llmm__sink *s, double v)
{
    char tmp[LLMM__FLOAT_CHARS];
    llmm__put(s, tmp, llmm__fmt_double(v, tmp));
}

void llmm__put_om_double(llmm__sink *s, double v)
{
    char tmp[LLMM__FLOAT_CHARS];
    llmm__put(s, tmp, llmm__fmt_om_double(v, tmp));
}

void llmm__put_json_double(llmm__sink *s, double v)
{
    if (v != v)
        llmm__puts(s, "\"NaN\"");
    else if (!llmm__is_finite(v))
        llmm__puts(s, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    else
        llmm__put_double(s, v); /* Go's %g output is valid JSON number syntax */
}
