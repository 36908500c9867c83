/* decode.c: reading the sketch's binary form (doc/format.md; codec.c writes it): the envelope,
 * then one validating pass and one filling pass, and the rules of section 3.4 named for
 * llmm_sketch_deserialize_ex, which repairs the one breach a 1.0 recorder could write. */
#include <string.h>

#include "core/abi.h"
#include "codec_internal.h"
#include "sketch_internal.h"

typedef struct {
    int32_t scale;
    double range_lo, range_hi, min, max, sum;
    uint64_t count, zero, under, over, nruns;
    int64_t idx_lo, idx_hi;
    size_t runs_at, end; /* the runs occupy [runs_at, end) */
    /* filled by walk_runs */
    int64_t first, last;  /* bucket span when nruns > 0 */
    uint64_t total, peak; /* sum and largest of the bucket counts */
    int rule;             /* walk_runs refused: 1 when the counts overflow (rule 1), else 0 */
} header;

typedef struct {
    const uint8_t *p;
    size_t pos, end;
} reader;

static inline int get_var(reader *r, uint64_t *v)
{
    size_t k;
    if (r->pos < r->end && r->p[r->pos] < 0x80) { /* one byte: most bucket deltas */
        *v = r->p[r->pos++];
        return 1;
    }
    k = llmm__uvarint_get(r->p + r->pos, r->end - r->pos, v);
    r->pos += k;
    return k != 0;
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    int i;
    for (i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static double get_f64(const uint8_t *p)
{
    uint64_t b = get_le(p, 8);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Magic, checksum, version: the part every format version shares. */
static llmm_status check_envelope(const uint8_t *buf, size_t len)
{
    uint32_t crc;
    if (len < LLMM__MAGIC_BYTES + 1 + LLMM__CRC_BYTES ||
        memcmp(buf, LLMM__SKETCH_MAGIC, LLMM__MAGIC_BYTES) != 0)
        return LLMM_E_CORRUPT;
    crc = (uint32_t)get_le(buf + len - LLMM__CRC_BYTES, LLMM__CRC_BYTES);
    if (llmm__crc32c(0, buf, len - LLMM__CRC_BYTES) != crc)
        return LLMM_E_CORRUPT;
    if (buf[LLMM__MAGIC_BYTES] != LLMM_SKETCH_FORMAT_VERSION)
        return LLMM_E_VERSION;
    return LLMM_OK;
}

static llmm_status read_header(const uint8_t *buf, size_t len, header *h)
{
    reader r;
    memset(h, 0, sizeof *h);
    if (len < LLMM__FIXED_BYTES + 5 + LLMM__CRC_BYTES) /* five varints of at least one byte each */
        return LLMM_E_CORRUPT;
    if (buf[5] > LLMM_SCALE_MAX)
        return LLMM_E_CORRUPT;
    h->scale = buf[5];
    h->range_lo = get_f64(buf + 6);
    h->range_hi = get_f64(buf + 14);
    h->min = get_f64(buf + 22);
    h->max = get_f64(buf + 30);
    h->sum = get_f64(buf + 38);
    /* the same rule as llmm_sketch_set_range (NaN fails every comparison) */
    if (!(h->range_lo >= LLMM_SKETCH_RANGE_MIN_LIMIT) ||
        !(h->range_hi <= LLMM_SKETCH_RANGE_MAX_LIMIT) || !(h->range_hi > h->range_lo))
        return LLMM_E_CORRUPT;
    llmm__range_indices(h->scale, h->range_lo, h->range_hi, &h->idx_lo, &h->idx_hi);
    r.p = buf;
    r.pos = LLMM__FIXED_BYTES;
    r.end = len - LLMM__CRC_BYTES;
    if (!get_var(&r, &h->count) || !get_var(&r, &h->zero) || !get_var(&r, &h->under) ||
        !get_var(&r, &h->over) || !get_var(&r, &h->nruns))
        return LLMM_E_CORRUPT;
    /* every run takes at least three bytes: bounds the loop before it starts */
    if (h->nruns > (r.end - r.pos) / 3)
        return LLMM_E_CORRUPT;
    h->runs_at = r.pos;
    h->end = r.end;
    return LLMM_OK;
}

/* Walk the runs: validate them (fill NULL) or, once validated, count them into fill. */
static llmm_status walk_runs(const uint8_t *buf, header *h, llmm_sketch *fill)
{
    reader r = {buf, h->runs_at, h->end};
    uint64_t k, total = 0, peak = 0;
    int64_t prev_end = 0;

    for (k = 0; k < h->nruns; k++) {
        uint64_t v, n, j, c = 0;
        int64_t start;
        if (!get_var(&r, &v))
            return LLMM_E_CORRUPT;
        if (k == 0) {
            start = llmm__unzigzag(v);
            if (start < h->idx_lo || start > h->idx_hi)
                return LLMM_E_CORRUPT;
            h->first = start;
        } else {
            /* v empty buckets since the previous run: at least one, and room left after */
            if (v == 0 || prev_end >= h->idx_hi || v > (uint64_t)(h->idx_hi - prev_end - 1))
                return LLMM_E_CORRUPT;
            start = prev_end + 1 + (int64_t)v;
        }
        if (!get_var(&r, &n) || n == 0 || n > (uint64_t)(h->idx_hi - start) + 1 ||
            n > r.end - r.pos)
            return LLMM_E_CORRUPT;
        for (j = 0; j < n; j++) {
            uint64_t z;
            if (!get_var(&r, &z))
                return LLMM_E_CORRUPT;
            c += (uint64_t)llmm__unzigzag(z); /* modulo 2^64 */
            if (c == 0 && (j == 0 || j == n - 1))
                return LLMM_E_CORRUPT; /* runs start and end on a non-empty bucket */
            if (c > UINT64_MAX - total) {
                h->rule = 1;
                return LLMM_E_CORRUPT;
            }
            total += c;
            if (c > peak)
                peak = c;
            if (fill && c)
                llmm__store_add(fill, start + (int64_t)j, c);
        }
        prev_end = start + (int64_t)n - 1;
    }
    if (r.pos != r.end)
        return LLMM_E_CORRUPT; /* bytes left over */
    h->last = prev_end;
    h->total = total;
    h->peak = peak;
    return LLMM_OK;
}

/* The first rule of doc/format.md 3.4 that h breaks, checked in the order 1, 2, 3, 4, 5, 7, 6
 * (so that 6 is named only when every other holds); 0 when none is. walk_runs has passed. */
static int broken_rule(const header *h)
{
    uint64_t t = h->total, bmin = llmm__dbits(h->min), bmax = llmm__dbits(h->max);
    if (h->zero > UINT64_MAX - t || (t += h->zero, h->under > UINT64_MAX - t) ||
        (t += h->under, h->over > UINT64_MAX - t) || t + h->over != h->count)
        return 1;
    if (h->count == 0) /* min and max +0.0; the sum +0.0 or -0.0, not NaN */
        return bmin == 0 && bmax == 0 && h->sum == 0.0 ? 0 : 2;
    /* non-negative finite doubles order like their bits: 0 <= min <= max <= DBL_MAX */
    if (!(bmin <= bmax && bmax <= LLMM__DBL_MAX_BITS))
        return 3;
    if (h->count > h->zero && bmax == 0) /* any value other than zero makes the max positive */
        return 4;
    if (h->zero && h->min != 0.0)
        return 5;
    if (h->sum < 0.0) /* NaN passes: +Inf - +Inf after a subtraction */
        return 7;
    if (h->nruns && (llmm__map_index(h->scale, h->max) < h->last ||
                     (h->min > 0.0 && llmm__map_index(h->scale, h->min) > h->first)))
        return 6;
    return 0;
}

/* Rule 6 alone is broken: bring a max below the highest non-empty bucket up to that bucket's
 * representative (the range's top when values overflowed) and a min above the lowest down to
 * its representative (the range's bottom when values underflowed). 0 when every rule then
 * holds. */
static int repair_extremes(header *h)
{
    if (llmm__map_index(h->scale, h->max) < h->last)
        h->max = h->over ? h->range_hi : llmm__bucket_rep(h->scale, h->last);
    if (h->min > 0.0 && llmm__map_index(h->scale, h->min) > h->first)
        h->min = h->under ? h->range_lo : llmm__bucket_rep(h->scale, h->first);
    return broken_rule(h);
}

/* Validate, then allocate and fill *out; info records what was found (every field but
 * struct_size). repair: read an intact version-1 message that breaks rule 6 alone. */
static llmm_status decode(llmm_ctx *ctx, const uint8_t *buf, size_t len, llmm_sketch **out,
                          llmm_decode_info *info, int repair)
{
    header h;
    llmm_sketch *s;
    llmm_status st;

    st = check_envelope(buf, len);
    info->intact = st != LLMM_E_CORRUPT;
    info->version = info->intact ? buf[LLMM__MAGIC_BYTES] : 0;
    if (st == LLMM_OK)
        st = read_header(buf, len, &h);
    if (st != LLMM_OK)
        return st;
    info->message_min = h.min;
    info->message_max = h.max;
    if (walk_runs(buf, &h, NULL) != LLMM_OK) {
        info->rule = h.rule;
        return LLMM_E_CORRUPT;
    }
    info->rule = broken_rule(&h);
    if (info->rule == 6 && repair && repair_extremes(&h) == 0)
        info->repaired = 1;
    else if (info->rule)
        return LLMM_E_CORRUPT;

    /* everything is valid: allocate, then fill (nothing below fails but the allocations) */
    s = llmm__alloc(ctx, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    llmm__sketch_init_fields(s, ctx, h.scale);
    s->range_lo = h.range_lo;
    s->range_hi = h.range_hi;
    s->idx_lo = h.idx_lo;
    s->idx_hi = h.idx_hi;
    if (h.nruns) {
        st = llmm__store_reserve(s, h.first, h.last, h.peak > UINT32_MAX);
        if (st != LLMM_OK) {
            llmm_sketch_free(s);
            return st;
        }
        (void)walk_runs(buf, &h, s);
    }
    s->count = h.count;
    s->zero = h.zero;
    s->under = h.under;
    s->over = h.over;
    s->min = h.min;
    s->max = h.max;
    s->sum = h.sum;
    llmm__sketch_refresh_fast(s);
    *out = s;
    return LLMM_OK;
}

llmm_status llmm_sketch_deserialize(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                    llmm_sketch **out)
{
    llmm_decode_info info;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!buf)
        return LLMM_E_INVALID;
    memset(&info, 0, sizeof info);
    return decode(ctx, buf, len, out, &info, 0);
}

llmm_status llmm_sketch_deserialize_ex(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                       llmm_sketch **out, llmm_decode_info *info)
{
    llmm_decode_info o;
    llmm_status st;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!buf)
        return LLMM_E_INVALID;
    if (info && LLMM__SIZED_CHECK(llmm_decode_info, info) != LLMM_OK)
        return LLMM_E_ABI;
    LLMM__SIZED_DEFAULTS(llmm_decode_info, &o);
    st = decode(ctx, buf, len, out, &o, 1);
    if (info)
        LLMM__SIZED_PUT(llmm_decode_info, info, &o);
    return st;
}
