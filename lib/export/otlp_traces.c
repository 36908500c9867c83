/* OTLP ExportTraceServiceRequest (opentelemetry/proto/collector/trace/v1), protobuf or JSON,
 * through the request writer (otlp_internal.h).
 *
 * Field numbers (opentelemetry/proto/trace/v1/trace.proto, common/v1):
 *   ExportTraceServiceRequest: resource_spans 1
 *   ResourceSpans: resource 1, scope_spans 2; ScopeSpans: scope 1, spans 2
 *   Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6 (enum),
 *     start_time_unix_nano 7, end_time_unix_nano 8 (fixed64), attributes 9, status 15
 *   Status: message 2, code 3 (enum)
 *   KeyValue: key 1, value 2; AnyValue: string_value 1, int_value 3 (int64), double_value 4 */
#include <string.h>

#include "core/abi.h"
#include "export/otlp_internal.h"

void llmm__otlp_span_defaults(void *full)
{
    llmm_otlp_span *s = full;
    s->kind = LLMM_OTLP_SPAN_CLIENT;
}

static llmm_status attribute(llmm__ow *w, const void *given)
{
    llmm_otlp_attribute a;
    llmm_status st;
    if ((st = LLMM__SIZED_GET(llmm_otlp_attribute, &a, given)) != LLMM_OK)
        return st;
    if (!a.key || !a.key[0] || !llmm__otlp_text_ok(a.key))
        return LLMM_E_INVALID;
    if (a.type == LLMM_OTLP_STRING && (!a.string_value || !llmm__otlp_text_ok(a.string_value)))
        return LLMM_E_INVALID;
    if (a.type != LLMM_OTLP_STRING && a.type != LLMM_OTLP_INT && a.type != LLMM_OTLP_DOUBLE)
        return LLMM_E_INVALID;
    llmm__ow_begin(w, 9, "attributes", LLMM__OW_REP);
    llmm__ow_string(w, 1, "key", a.key);
    llmm__ow_begin(w, 2, "value", LLMM__OW_ONE);
    if (a.type == LLMM_OTLP_STRING)
        llmm__ow_string(w, 1, "stringValue", a.string_value);
    else if (a.type == LLMM_OTLP_INT)
        llmm__ow_int64(w, 3, "intValue", a.int_value);
    else
        llmm__ow_double(w, 4, "doubleValue", a.double_value);
    llmm__ow_end(w);
    llmm__ow_end(w);
    return LLMM_OK;
}

static llmm_status check_span(const llmm_otlp_span *s)
{
    if (llmm__all_zero(s->trace_id, sizeof s->trace_id) ||
        llmm__all_zero(s->span_id, sizeof s->span_id))
        return LLMM_E_INVALID;
    if (!s->name || !s->name[0] || !llmm__otlp_text_ok(s->name) ||
        !llmm__otlp_text_ok(s->status_message))
        return LLMM_E_INVALID;
    if (s->kind < LLMM_OTLP_SPAN_INTERNAL || s->kind > LLMM_OTLP_SPAN_CONSUMER)
        return LLMM_E_INVALID;
    if (s->status_code < LLMM_OTLP_STATUS_UNSET || s->status_code > LLMM_OTLP_STATUS_ERROR)
        return LLMM_E_INVALID;
    if (s->end_time_unix_nano < s->start_time_unix_nano)
        return LLMM_E_INVALID;
    return llmm__otlp_check_array(s->attributes, s->attribute_count, LLMM_STRUCT_OTLP_ATTRIBUTE);
}

static llmm_status span(llmm__ow *w, const void *given)
{
    llmm_otlp_span s;
    llmm_status st;
    size_t i;
    if ((st = LLMM__SIZED_GET(llmm_otlp_span, &s, given)) != LLMM_OK ||
        (st = check_span(&s)) != LLMM_OK)
        return st;
    llmm__ow_begin(w, 2, "spans", LLMM__OW_REP);
    llmm__ow_id(w, 1, "traceId", s.trace_id, sizeof s.trace_id);
    llmm__ow_id(w, 2, "spanId", s.span_id, sizeof s.span_id);
    if (!llmm__all_zero(s.parent_span_id, sizeof s.parent_span_id))
        llmm__ow_id(w, 4, "parentSpanId", s.parent_span_id, sizeof s.parent_span_id);
    llmm__ow_string(w, 5, "name", s.name);
    llmm__ow_enum(w, 6, "kind", (uint32_t)s.kind);
    llmm__ow_fixed64(w, 7, "startTimeUnixNano", s.start_time_unix_nano);
    llmm__ow_fixed64(w, 8, "endTimeUnixNano", s.end_time_unix_nano);
    for (i = 0; i < s.attribute_count; i++)
        if ((st = attribute(w, llmm__otlp_elem(s.attributes, i))) != LLMM_OK)
            return st;
    llmm__ow_begin(w, 15, "status", LLMM__OW_ONE);
    if (s.status_message)
        llmm__ow_string(w, 2, "message", s.status_message);
    llmm__ow_enum(w, 3, "code", (uint32_t)s.status_code);
    llmm__ow_end(w);
    llmm__ow_end(w);
    return LLMM_OK;
}

llmm_status llmm_export_otlp_traces(const llmm_otlp_traces_request *req,
                                    llmm_otlp_encoding encoding, uint8_t *buf, size_t cap,
                                    size_t *len)
{
    llmm_otlp_traces_request r;
    llmm__sink out;
    llmm__ow w;
    llmm_status st;
    size_t i;

    if (!req || llmm__otlp_check_common(encoding, buf, cap, len) != LLMM_OK)
        return LLMM_E_INVALID;
    if ((st = LLMM__SIZED_GET(llmm_otlp_traces_request, &r, req)) != LLMM_OK)
        return st;
    if ((st = llmm__otlp_check_scope(r.resource_attributes, r.scope_name, r.scope_version,
                                     r.scope_attributes)) != LLMM_OK ||
        (st = llmm__otlp_check_array(r.spans, r.span_count, LLMM_STRUCT_OTLP_SPAN)) != LLMM_OK)
        return st;
    llmm__sink_fixed(&out, buf, cap);
    llmm__ow_init(&w, &out, encoding);
    llmm__ow_request_open(&w, "resourceSpans", "scopeSpans", r.resource_attributes, r.scope_name,
                          r.scope_version, r.scope_attributes);
    for (i = 0; i < r.span_count && st == LLMM_OK; i++)
        st = span(&w, llmm__otlp_elem(r.spans, i));
    return llmm__ow_request_close(&w, st, len);
}
