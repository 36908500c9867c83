/* Internal pieces of the export module: byte sink, number formatting, label lists, the
 * native-bucket and classic-bucket walks over a sketch, and the per-format encoders. */
#ifndef LLMM_EXPORT_INTERNAL_H
#define LLMM_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "sketch/codec_internal.h"
#include "llmmetrics/export.h"

/* ---- byte sink (sink.c) ------------------------------------------------------------------
 * A fixed sink writes into a caller buffer and keeps counting past its end (so the caller
 * learns the size needed); a growable sink owns memory from a context and grows. After a
 * failed growth the sink is `failed` and ignores further writes until the owner truncates. */
typedef struct llmm__sink {
    uint8_t *p;
    size_t len; /* bytes produced; may exceed cap in a fixed sink */
    size_t cap;
    const llmm_ctx *ctx;
    int growable;
    int failed;
} llmm__sink;

void llmm__sink_fixed(llmm__sink *s, uint8_t *buf, size_t cap);
void llmm__sink_growable(llmm__sink *s, const llmm_ctx *ctx);
void llmm__sink_release(llmm__sink *s);
/* 1 when `extra` more bytes fit (growing if allowed), 0 otherwise. */
int llmm__sink_reserve(llmm__sink *s, size_t extra);
/* OK, NOMEM (growth failed) or BUFFER (fixed sink overflowed). */
llmm_status llmm__sink_status(const llmm__sink *s);
void llmm__put(llmm__sink *s, const void *d, size_t n);
void llmm__puts(llmm__sink *s, const char *z);
void llmm__putc(llmm__sink *s, char c);
void llmm__put_u64(llmm__sink *s, uint64_t v);
void llmm__put_i64(llmm__sink *s, int64_t v);
/* Go's strconv.FormatFloat(v, 'g', -1, 64): "+Inf", "-Inf", "NaN" for the specials. */
void llmm__put_double(llmm__sink *s, double v);
/* Prometheus' label spelling of a float: as above, ".0" appended to whole numbers. */
void llmm__put_om_double(llmm__sink *s, double v);
/* A JSON number, or the proto3-JSON strings "NaN" / "Infinity" / "-Infinity". */
void llmm__put_json_double(llmm__sink *s, double v);

/* ---- protobuf wire encoding (pb.c) ------------------------------------------------------- */
/* Bytes of v's varint: protobuf's varints are the sketch codec's LEB128 ones. */
static inline size_t llmm__varint_len(uint64_t v)
{
    return llmm__uvarint_len(v);
}
void llmm__pb_varint(llmm__sink *s, uint64_t v);
void llmm__pb_tag(llmm__sink *s, uint32_t field, uint32_t wire);
void llmm__pb_uint(llmm__sink *s, uint32_t field, uint64_t v);
void llmm__pb_sint(llmm__sink *s, uint32_t field, int64_t v);
void llmm__pb_double(llmm__sink *s, uint32_t field, double v);
void llmm__pb_fixed64(llmm__sink *s, uint32_t field, uint64_t v);
void llmm__pb_fixed32(llmm__sink *s, uint32_t field, uint32_t v);
/* Untagged 8-byte little-endian values (elements of packed fields). */
void llmm__pb_raw_fixed64(llmm__sink *s, uint64_t v);
void llmm__pb_raw_double(llmm__sink *s, double v);
void llmm__pb_bytes(llmm__sink *s, uint32_t field, const void *d, size_t n);
/* Length-delimited field: begin writes the tag and returns the body start; end inserts the
 * body length in front of the body. */
size_t llmm__pb_begin(llmm__sink *s, uint32_t field);
void llmm__pb_end(llmm__sink *s, size_t body_start);

/* ---- float formatting (fmt.c) ------------------------------------------------------------ */
#define LLMM__FLOAT_CHARS 32
size_t llmm__fmt_double(double v, char *out);    /* Go 'g', shortest; out ≥ 32 bytes */
size_t llmm__fmt_om_double(double v, char *out); /* Prometheus label spelling */

/* ---- names and label lists (labels.c) ---------------------------------------------------- */
enum { LLMM__KEYS_PROM = 0, LLMM__KEYS_OTLP = 1 };

typedef struct llmm__label {
    const char *name;
    size_t name_len;
    const char *value; /* escaped, as written in the list */
    size_t value_len;
    size_t raw_len; /* length after unescaping */
} llmm__label;

int llmm__utf8_valid(const char *p, size_t n);
int llmm__metric_name_valid(const char *name);
/* Validate a list; `reserved` (nullable) is a name that may not appear. */
llmm_status llmm__labels_check(const char *labels, int keys, const char *reserved);
/* Iterate a validated list from *pos (start at 0); 0 at the end. */
int llmm__labels_next(const char *labels, size_t *pos, llmm__label *out);
/* Unescape a validated value into the sink. */
void llmm__put_unescaped(llmm__sink *s, const char *v, size_t n);
/* Write a validated value as the inside of a JSON string. */
void llmm__put_json_unescaped(llmm__sink *s, const char *v, size_t n);
/* Write UTF-8 text as the inside of a JSON string. */
void llmm__put_json_text(llmm__sink *s, const char *v, size_t n);

/* ---- native buckets of a sketch (native.c) ------------------------------------------------
 * The exported view of a sketch: scale (capped and / or downscaled), unit factor applied,
 * zero bucket = zeros + underflow, overflow folded into the bucket of the range's upper
 * bound. Iterates the non-empty exported buckets in ascending OpenTelemetry index order. */
typedef struct llmm__native {
    const llmm_sketch *s;
    int32_t src_scale;
    int32_t scale; /* exported scale */
    int pow2;      /* factor is 2^k */
    int32_t k;
    double f;
    uint64_t count, zero_count, over;
    double threshold, sum, min, max;
    int has_range; /* in-range buckets exist */
    int32_t first, last;
    int has_buckets; /* exported buckets exist (in-range or overflow) */
    int64_t first_e, last_e, over_e;
    /* cursor */
    int64_t cur;
    int over_pending;
    int has_pend;
    int64_t pend_idx;
    uint64_t pend_cnt;
} llmm__native;

/* Scale = min(sketch scale, max_scale), lowered (not below min_scale) until the exported
 * buckets span at most max_buckets indices (0 = no limit). */
llmm_status llmm__native_init(llmm__native *n, const llmm_sketch *s, double f, int32_t max_scale,
                              int32_t min_scale, uint32_t max_buckets);
void llmm__native_rewind(llmm__native *n);
int llmm__native_next(llmm__native *n, int64_t *idx, uint64_t *cnt);

/* ---- classic cumulative buckets (classic.c) ---------------------------------------------- */
typedef struct llmm__classic {
    const llmm_sketch *s;
    double f;
    const double *bounds; /* NULL: the sketch's own grid, downscaled to fit max_bounds */
    size_t nb, bi;
    uint64_t n, zero, under;
    double minf, maxf, under_le;
    int has_range;
    int32_t first, last;
    int64_t cur;
    uint64_t acc;
    int have_cur; /* cached upper bound of bucket `cur` */
    double cur_upper;
    uint64_t cur_cnt;
    int grid;            /* the grid layout is in use */
    int32_t shift;       /* grid: downscaling k */
    int64_t gj, gj_last; /* grid: next bucket whose upper bound is written, and the last */
} llmm__classic;

/* Explicit `bounds` (nb of them), or NULL for the sketch's grid with at most `max_bounds`
 * (≥ 3) finite bounds. */
llmm_status llmm__classic_init(llmm__classic *c, const llmm_sketch *s, double f,
                               const double *bounds, size_t nb, uint32_t max_bounds);
/* Next finite (le, cumulative count); 0 when done (+Inf is the caller's). A bound that is
 * not representable comes back as +Inf: the caller reports LLMM_E_RANGE. */
int llmm__classic_next(llmm__classic *c, double *le, uint64_t *cum);
/* A named list: its bounds and their number; 0 for an unknown list. */
int llmm__bucket_list(llmm_bucket_list which, const double **b, size_t *n);
/* Check that an explicit bound list is finite and strictly increasing. */
int llmm__bounds_valid(const double *b, size_t n);

/* ---- shared validation ------------------------------------------------------------------- */
int llmm__factor_valid(double f);
/* Sketch totals converted by the factor: count, sum, and min / max (0 when empty). */
void llmm__sketch_totals(const llmm_sketch *s, double f, uint64_t *n, double *sum, double *mn,
                         double *mx);

/* ---- Prometheus encoders (prom_text.c, prom_proto.c) -------------------------------------- */
const char *llmm__prom_reserved(llmm_prom_type t);
void llmm__text_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t);
void llmm__text_value(llmm__sink *o, const char *name, const char *labels, double v);
/* Histograms: `points` are the classic bounds; none = the sketch's grid with at most
 * `max_bounds` finite bounds. */
struct llmm__exsel;
llmm_status llmm__text_sketch(llmm__sink *o, const char *name, const char *labels, llmm_prom_type t,
                              const llmm_sketch *s, double f, const double *points, size_t npoints,
                              uint32_t max_bounds, struct llmm__exsel *x);
/* OpenMetrics: header (counter families without `_total`), counter sample with an optional
 * exemplar; histograms and summaries go through llmm__text_sketch with a selector. */
size_t llmm__om_stem_len(const char *name);
void llmm__om_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t);
void llmm__om_counter(llmm__sink *o, const char *name, const char *labels, double v,
                      const llmm_exemplar *e);
void llmm__pb_family_header(llmm__sink *o, const char *name, const char *help, llmm_prom_type t);
/* A validated label list as repeated LabelPair messages (field 1 of Metric and Exemplar). */
void llmm__pb_labels(llmm__sink *o, const char *labels);
void llmm__pb_value(llmm__sink *o, const char *labels, llmm_prom_type t, double v,
                    const llmm_exemplar *e);
/* As llmm__text_sketch; a native histogram carries classic buckets only for `points`. With
 * exemplars, a native histogram without them gets one `+Inf` bucket carrying the best one
 * (what Prometheus 2.42 reads) and all of them in Histogram.exemplars. */
llmm_status llmm__pb_sketch(llmm__sink *o, const char *labels, llmm_prom_type t,
                            const llmm_sketch *s, double f, const double *points, size_t npoints,
                            uint32_t max_bounds, struct llmm__exsel *x);
/* ---- exemplars (exemplar.c, exemplar_fmt.c) ------------------------------------------------
 * A selector walks a store's slots in ascending value order for ascending buckets. */
typedef struct llmm__exsel {
    const llmm_exemplars *ex; /* NULL: no exemplars */
    double f;
    uint32_t slot;
} llmm__exsel;

void llmm__exsel_init(llmm__exsel *x, const llmm_exemplars *ex, double f);
/* The best exemplar (keep rule) whose value·f is in (lo, hi]; calls must come with
 * ascending, non-overlapping ranges. 0 when there is none. */
int llmm__exsel_pick(llmm__exsel *x, double lo, double hi, llmm_exemplar *out);
/* The best exemplar of all slots; 0 when the store is empty. */
int llmm__exemplars_best(const llmm_exemplars *ex, llmm_exemplar *out);
/* Labels an exemplar may carry beside the ids it has: syntax, size, the 128-character cap. */
llmm_status llmm__exemplar_labels_check(const char *labels, int has_trace, int has_span);
/* 1 when the n bytes are all zero (an absent trace or span id). */
int llmm__all_zero(const uint8_t *p, size_t n);
/* The n bytes as 2n lower-case hex digits. */
void llmm__put_hex(llmm__sink *o, const uint8_t *p, size_t n);
/* ` # {labels} value timestamp` after an OpenMetrics sample (value times f). */
void llmm__om_exemplar(llmm__sink *o, const llmm_exemplar *e, double f);
/* An io.prometheus.client.Exemplar message as field `field` (value times f). */
void llmm__pb_exemplar(llmm__sink *o, uint32_t field, const llmm_exemplar *e, double f);

/* Finite `le` bounds of llmm_export_prometheus_text() (OpenTelemetry's default max_size). */
#define LLMM__TEXT_MAX_BOUNDS 160u
/* Smallest bound of a grid layout: the lower bound of the first bucket and two upper bounds
 * (the indices of any data meet at −1 and 0). */
#define LLMM__CLASSIC_MIN_BOUNDS 3u

#endif
