/* W3C Trace Context `traceparent`: version "-" trace-id "-" parent-id "-" trace-flags, in
 * lower-case hex (2, 32, 16 and 2 digits). Version ff is forbidden, all-zero ids are invalid,
 * version 00 has exactly these 55 characters, and a parser meeting a later version reads the
 * same four fields and accepts anything after them that starts with "-". */
#include <string.h>

#include "export/export_internal.h"

#define TP_LEN 55

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* n bytes from 2n lower-case hex digits; 0 on a bad digit. */
static int unhex(const char *p, uint8_t *out, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        int hi = hexval(p[2 * i]), lo = hexval(p[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

llmm_status llmm_traceparent_parse(const char *header, uint8_t *trace_id, uint8_t *span_id,
                                   uint8_t *flags)
{
    uint8_t ver, tid[16], sid[8], fl;
    size_t n;
    if (!header || !trace_id || !span_id)
        return LLMM_E_INVALID;
    while (*header == ' ' || *header == '\t')
        header++;
    n = strlen(header);
    while (n && (header[n - 1] == ' ' || header[n - 1] == '\t'))
        n--;
    if (n < TP_LEN || header[2] != '-' || header[35] != '-' || header[52] != '-' ||
        !unhex(header, &ver, 1) || !unhex(header + 3, tid, 16) || !unhex(header + 36, sid, 8) ||
        !unhex(header + 53, &fl, 1))
        return LLMM_E_INVALID;
    if (ver == 0xff || (ver == 0 && n != TP_LEN) || (n > TP_LEN && header[TP_LEN] != '-') ||
        llmm__all_zero(tid, 16) || llmm__all_zero(sid, 8))
        return LLMM_E_INVALID;
    memcpy(trace_id, tid, 16);
    memcpy(span_id, sid, 8);
    if (flags)
        *flags = fl;
    return LLMM_OK;
}

llmm_status llmm_traceparent_format(const uint8_t *trace_id, const uint8_t *span_id, uint8_t flags,
                                    uint8_t *buf, size_t cap, size_t *len)
{
    llmm__sink o;
    if (!trace_id || !span_id || !len || (!buf && cap) || llmm__all_zero(trace_id, 16) ||
        llmm__all_zero(span_id, 8))
        return LLMM_E_INVALID;
    *len = TP_LEN;
    if (cap < TP_LEN)
        return LLMM_E_BUFFER;
    llmm__sink_fixed(&o, buf, cap);
    llmm__puts(&o, "00-");
    llmm__put_hex(&o, trace_id, 16);
    llmm__putc(&o, '-');
    llmm__put_hex(&o, span_id, 8);
    llmm__putc(&o, '-');
    llmm__put_hex(&o, &flags, 1);
    return LLMM_OK;
}
