/* The OTLP request writer: one walk of a request writes protobuf or OTLP/JSON.
 *
 * The encoders (otlp_metrics.c, otlp_traces.c) describe each message as a sequence of fields,
 * each with its protobuf field number and its JSON key; the writer emits either form. JSON
 * needs what protobuf does not: a repeated field becomes one array, opened at its first element
 * and closed when another field (or the end of the message) follows, so each nesting level
 * remembers which repeated field is open. */
#ifndef LLMM_EXPORT_OTLP_INTERNAL_H
#define LLMM_EXPORT_OTLP_INTERNAL_H

#include "export/export_internal.h"
#include "llmmetrics/otlp.h"

#define LLMM__OW_DEPTH 12 /* deepest nesting: request … Exemplar / Span … AnyValue */

typedef struct llmm__ow_level {
    size_t start;  /* protobuf: body start of the message */
    uint32_t open; /* JSON: the repeated field whose array is open (0: none) */
    uint32_t n;    /* JSON: fields written at this level */
} llmm__ow_level;

typedef struct llmm__ow {
    llmm__sink *s;
    int json;
    int depth;
    llmm__ow_level lv[LLMM__OW_DEPTH];
} llmm__ow;

/* `rep` marks a repeated field: its JSON form is an array of the successive calls. */
enum { LLMM__OW_ONE = 0, LLMM__OW_REP = 1 };

void llmm__ow_init(llmm__ow *w, llmm__sink *s, llmm_otlp_encoding enc);
/* Nested message; the top level (the request) is opened by init and closed by finish. */
void llmm__ow_begin(llmm__ow *w, uint32_t field, const char *key, int rep);
void llmm__ow_end(llmm__ow *w);
void llmm__ow_finish(llmm__ow *w);
void llmm__ow_fixed64(llmm__ow *w, uint32_t field, const char *key, uint64_t v);
void llmm__ow_double(llmm__ow *w, uint32_t field, const char *key, double v);
void llmm__ow_sint32(llmm__ow *w, uint32_t field, const char *key, int64_t v);
void llmm__ow_int64(llmm__ow *w, uint32_t field, const char *key, int64_t v);
void llmm__ow_enum(llmm__ow *w, uint32_t field, const char *key, uint32_t v);
void llmm__ow_bool(llmm__ow *w, uint32_t field, const char *key, int v);
void llmm__ow_string(llmm__ow *w, uint32_t field, const char *key, const char *z);
/* Trace / span ids: protobuf bytes, JSON lowercase hex. */
void llmm__ow_id(llmm__ow *w, uint32_t field, const char *key, const uint8_t *id, size_t n);
/* Packed repeated scalars: begin, one element call per value, end. */
void llmm__ow_packed_begin(llmm__ow *w, uint32_t field, const char *key);
void llmm__ow_packed_fixed64(llmm__ow *w, uint64_t v);
void llmm__ow_packed_uint(llmm__ow *w, uint64_t v);
void llmm__ow_packed_double(llmm__ow *w, double v);
void llmm__ow_packed_end(llmm__ow *w);
/* A validated label list as repeated KeyValue (string values) in `field`. */
void llmm__ow_labels(llmm__ow *w, uint32_t field, const char *key, const char *labels);
/* InstrumentationScope of a request (name, version, attributes) in `field`. */
void llmm__ow_scope(llmm__ow *w, uint32_t field, const char *name, const char *version,
                    const char *attributes);

/* The request's frame: `outer` (resourceMetrics / resourceSpans) { resource, `inner`
 * (scopeMetrics / scopeSpans) { scope, ... } }; close gives `st` back unless it is OK, then
 * the sink's status and the length. */
void llmm__ow_request_open(llmm__ow *w, const char *outer, const char *inner,
                           const char *resource_attributes, const char *scope_name,
                           const char *scope_version, const char *scope_attributes);
llmm_status llmm__ow_request_close(llmm__ow *w, llmm_status st, size_t *len);

/* Shared request checks: encoding, buffer arguments, label lists, UTF-8 text (NULL passes). */
llmm_status llmm__otlp_check_common(llmm_otlp_encoding enc, const uint8_t *buf, size_t cap,
                                    const size_t *len);
int llmm__otlp_text_ok(const char *z);
llmm_status llmm__otlp_check_scope(const char *resource_attributes, const char *scope_name,
                                   const char *scope_version, const char *scope_attributes);
/* Element i of a caller array of caller-sized structs: the stride is element 0's size. */
const void *llmm__otlp_elem(const void *base, size_t i);
llmm_status llmm__otlp_check_array(const void *base, size_t n, llmm_struct_kind kind);

#endif
