package llmmetrics

/*
#include <stdlib.h>
#include <string.h>
#include <llmmetrics/otlp.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// OTLPEncoding is the encoding of an OTLP request.
type OTLPEncoding int32

// The encodings.
const (
	OTLPProtobuf     OTLPEncoding = C.LLMM_OTLP_PROTOBUF // protobuf binary, the OTLP/HTTP default
	OTLPJSONEncoding OTLPEncoding = C.LLMM_OTLP_JSON     // OTLP/JSON
)

// OTLPMetricType is the data type of an OTLP metric.
type OTLPMetricType int32

// The metric types.
const (
	OTLPExponentialHistogram OTLPMetricType = C.LLMM_OTLP_EXPONENTIAL_HISTOGRAM // a sketch, lossless
	OTLPHistogram            OTLPMetricType = C.LLMM_OTLP_HISTOGRAM             // explicit bounds
	OTLPSum                  OTLPMetricType = C.LLMM_OTLP_SUM                   // a sum of values
	OTLPGauge                OTLPMetricType = C.LLMM_OTLP_GAUGE                 // a gauge of values
	OTLPSummary              OTLPMetricType = C.LLMM_OTLP_SUMMARY               // count, sum, quantiles
)

// OTLPSpanKind is the kind of a span.
type OTLPSpanKind int32

// The span kinds.
const (
	OTLPSpanInternal OTLPSpanKind = C.LLMM_OTLP_SPAN_INTERNAL // an internal operation
	OTLPSpanServer   OTLPSpanKind = C.LLMM_OTLP_SPAN_SERVER   // the server side of a request
	OTLPSpanClient   OTLPSpanKind = C.LLMM_OTLP_SPAN_CLIENT   // the client side (the default of a zero OTLPSpan)
	OTLPSpanProducer OTLPSpanKind = C.LLMM_OTLP_SPAN_PRODUCER // the sender of an asynchronous message
	OTLPSpanConsumer OTLPSpanKind = C.LLMM_OTLP_SPAN_CONSUMER // the receiver of an asynchronous message
)

// OTLPStatusCode is the status of a span.
type OTLPStatusCode int32

// The status codes.
const (
	OTLPStatusUnset OTLPStatusCode = C.LLMM_OTLP_STATUS_UNSET // not set
	OTLPStatusOK    OTLPStatusCode = C.LLMM_OTLP_STATUS_OK    // the operation succeeded
	OTLPStatusError OTLPStatusCode = C.LLMM_OTLP_STATUS_ERROR // the operation failed
)

// OTLPExemplar is one exemplar of a point; a zero TraceID or SpanID is left out.
type OTLPExemplar struct {
	Value        float64  // the recorded value
	TimeUnixNano uint64   // when it was recorded
	TraceID      [16]byte // W3C trace id; zero: left out
	SpanID       [8]byte  // span id; zero: left out
	Attributes   string   // filtered attributes as a label list (`k="v"`), "" for none
}

// OTLPPoint is one data point: Sketch for histograms and summaries (with Earlier, a delta
// histogram point is Sketch − Earlier), Value for sums and gauges.
type OTLPPoint struct {
	Attributes        string         // point attributes as a label list, "" for none
	StartTimeUnixNano uint64         // start of the covered interval
	TimeUnixNano      uint64         // end of the covered interval
	Sketch            *Sketch        // histograms and summaries: the data (only read)
	Earlier           *Sketch        // delta histograms: an earlier snapshot, or nil
	Value             float64        // sums and gauges: the value
	Exemplars         []OTLPExemplar // exemplars of the point
}

// OTLPMetric is one metric and its points. A zero Temporality is cumulative and a zero
// UnitToSeconds is 1. Bounds are a histogram's explicit bounds (nil: the OpenTelemetry GenAI
// duration list) or a summary's quantiles (nil: 0.5, 0.9, 0.99).
type OTLPMetric struct {
	Name          string          // metric name, non-empty
	Description   string          // description, "" for none
	Unit          string          // unit, "" for none
	Type          OTLPMetricType  // the data type
	Temporality   OTLPTemporality // histograms and sums; zero: OTLPCumulative
	Monotonic     bool            // sums: a counter
	UnitToSeconds float64         // histograms and summaries: factor to the exported unit; zero: 1
	MaxBuckets    uint32          // exponential histograms: bucket limit (0: none)
	Bounds        []float64       // explicit bounds or quantiles; nil: the defaults
	Points        []OTLPPoint     // the points
}

// OTLPScope is the resource and instrumentation scope of a request; the zero value means
// no resource attributes and the library's own scope.
type OTLPScope struct {
	ResourceAttributes string // resource attributes as a label list
	Name               string // scope name; "": libllmmetrics
	Version            string // scope version
	Attributes         string // scope attributes as a label list
}

// OTLPSpan is one span. Attributes values must be string, an integer type or float64.
type OTLPSpan struct {
	TraceID           [16]byte        // W3C trace id, not zero
	SpanID            [8]byte         // span id, not zero
	ParentSpanID      [8]byte         // zero: a root span
	Name              string          // span name, non-empty
	Kind              OTLPSpanKind    // zero: OTLPSpanClient
	StartTimeUnixNano uint64          // start
	EndTimeUnixNano   uint64          // end, not before the start
	Attributes        []OTLPAttribute // typed attributes
	StatusCode        OTLPStatusCode  // status (default unset)
	StatusMessage     string          // status message, "" for none
}

// OTLPAttribute is one typed span attribute: Value is a string, an int, int64 or float64.
type OTLPAttribute struct {
	Key   string // attribute key, non-empty
	Value any    // string, int, int64 or float64
}

// cMem holds the C memory of one request (strings and arrays) until the call returns: the
// request's structs point at each other, so they live in C memory (cgo pointer rules).
type cMem struct {
	cs    cStrings
	alloc []unsafe.Pointer
}

func (m *cMem) calloc(n int, size C.size_t) unsafe.Pointer {
	if n == 0 {
		return nil
	}
	p := C.calloc(C.size_t(n), size)
	if p == nil {
		panic("llmmetrics: out of memory")
	}
	m.alloc = append(m.alloc, p)
	return p
}

func (m *cMem) free() {
	m.cs.free()
	for _, p := range m.alloc {
		C.free(p)
	}
}

func (m *cMem) scope(op string, s OTLPScope) (res, name, version, attrs *C.char, err error) {
	if res, err = m.cs.add(op, s.ResourceAttributes); err != nil {
		return
	}
	if name, err = m.cs.add(op, s.Name); err != nil {
		return
	}
	if version, err = m.cs.add(op, s.Version); err != nil {
		return
	}
	attrs, err = m.cs.add(op, s.Attributes)
	return
}

func (m *cMem) exemplars(op string, ex []OTLPExemplar) (*C.llmm_otlp_exemplar, error) {
	arr := (*C.llmm_otlp_exemplar)(m.calloc(len(ex), C.sizeof_llmm_otlp_exemplar))
	for i, e := range ex {
		c := (*C.llmm_otlp_exemplar)(unsafe.Add(unsafe.Pointer(arr), i*C.sizeof_llmm_otlp_exemplar))
		if err := initStruct(C.LLMM_STRUCT_OTLP_EXEMPLAR, unsafe.Pointer(c), C.sizeof_llmm_otlp_exemplar); err != nil {
			return nil, err
		}
		c.value = C.double(e.Value)
		c.time_unix_nano = C.uint64_t(e.TimeUnixNano)
		C.memcpy(unsafe.Pointer(&c.trace_id[0]), unsafe.Pointer(&e.TraceID[0]), 16)
		C.memcpy(unsafe.Pointer(&c.span_id[0]), unsafe.Pointer(&e.SpanID[0]), 8)
		a, err := m.cs.add(op, e.Attributes)
		if err != nil {
			return nil, err
		}
		c.attributes = a
	}
	return arr, nil
}

func (m *cMem) points(op string, pts []OTLPPoint) (*C.llmm_otlp_point, error) {
	arr := (*C.llmm_otlp_point)(m.calloc(len(pts), C.sizeof_llmm_otlp_point))
	for i, p := range pts {
		c := (*C.llmm_otlp_point)(unsafe.Add(unsafe.Pointer(arr), i*C.sizeof_llmm_otlp_point))
		if err := initStruct(C.LLMM_STRUCT_OTLP_POINT, unsafe.Pointer(c), C.sizeof_llmm_otlp_point); err != nil {
			return nil, err
		}
		if (p.Sketch != nil && p.Sketch.c == nil) || (p.Earlier != nil && p.Earlier.c == nil) {
			return nil, errClosed(op, "sketch")
		}
		a, err := m.cs.add(op, p.Attributes)
		if err != nil {
			return nil, err
		}
		c.attributes = a
		c.start_time_unix_nano = C.uint64_t(p.StartTimeUnixNano)
		c.time_unix_nano = C.uint64_t(p.TimeUnixNano)
		c.sketch = sketchOrNil(p.Sketch)
		c.earlier = sketchOrNil(p.Earlier)
		c.value = C.double(p.Value)
		if c.exemplars, err = m.exemplars(op, p.Exemplars); err != nil {
			return nil, err
		}
		c.exemplar_count = C.size_t(len(p.Exemplars))
	}
	return arr, nil
}

func (m *cMem) metrics(op string, ms []OTLPMetric) (*C.llmm_otlp_metric, error) {
	arr := (*C.llmm_otlp_metric)(m.calloc(len(ms), C.sizeof_llmm_otlp_metric))
	for i, x := range ms {
		c := (*C.llmm_otlp_metric)(unsafe.Add(unsafe.Pointer(arr), i*C.sizeof_llmm_otlp_metric))
		if err := initStruct(C.LLMM_STRUCT_OTLP_METRIC, unsafe.Pointer(c), C.sizeof_llmm_otlp_metric); err != nil {
			return nil, err
		}
		var err error
		if c.name, err = m.cs.put(op, x.Name); err != nil {
			return nil, err
		}
		if c.description, err = m.cs.add(op, x.Description); err != nil {
			return nil, err
		}
		if c.unit, err = m.cs.add(op, x.Unit); err != nil {
			return nil, err
		}
		c._type = C.llmm_otlp_metric_type(x.Type)
		if x.Temporality != 0 {
			c.temporality = C.llmm_otlp_temporality(x.Temporality)
		}
		if x.Monotonic {
			c.monotonic = 1
		}
		if x.UnitToSeconds != 0 {
			c.unit_to_seconds = C.double(x.UnitToSeconds)
		}
		c.max_buckets = C.uint32_t(x.MaxBuckets)
		if x.Bounds != nil {
			b := (*C.double)(m.calloc(len(x.Bounds)+1, C.sizeof_double))
			for k, v := range x.Bounds {
				*(*C.double)(unsafe.Add(unsafe.Pointer(b), k*C.sizeof_double)) = C.double(v)
			}
			c.bounds = b
			c.bound_count = C.size_t(len(x.Bounds))
		}
		if c.points, err = m.points(op, x.Points); err != nil {
			return nil, err
		}
		c.point_count = C.size_t(len(x.Points))
	}
	return arr, nil
}

// OTLPMetrics writes an ExportMetricsServiceRequest holding metrics (the body of an
// OTLP/HTTP POST to /v1/metrics) in the given encoding. The sketches are only read, and
// must not be written during the call.
func OTLPMetrics(metrics []OTLPMetric, scope OTLPScope, enc OTLPEncoding) ([]byte, error) {
	const op = "llmm_export_otlp_metrics"
	var m cMem
	defer m.free()
	r := (*C.llmm_otlp_metrics_request)(m.calloc(1, C.sizeof_llmm_otlp_metrics_request))
	if err := initStruct(C.LLMM_STRUCT_OTLP_METRICS_REQUEST, unsafe.Pointer(r), C.sizeof_llmm_otlp_metrics_request); err != nil {
		return nil, err
	}
	var err error
	if r.resource_attributes, r.scope_name, r.scope_version, r.scope_attributes, err = m.scope(op, scope); err != nil {
		return nil, err
	}
	if r.metrics, err = m.metrics(op, metrics); err != nil {
		return nil, err
	}
	r.metric_count = C.size_t(len(metrics))
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_export_otlp_metrics(r, C.llmm_otlp_encoding(enc), buf, cap, n)
	})
	runtime.KeepAlive(metrics)
	return out, err
}

func (m *cMem) attributes(op string, as []OTLPAttribute) (*C.llmm_otlp_attribute, error) {
	arr := (*C.llmm_otlp_attribute)(m.calloc(len(as), C.sizeof_llmm_otlp_attribute))
	for i, a := range as {
		c := (*C.llmm_otlp_attribute)(unsafe.Add(unsafe.Pointer(arr), i*C.sizeof_llmm_otlp_attribute))
		if err := initStruct(C.LLMM_STRUCT_OTLP_ATTRIBUTE, unsafe.Pointer(c), C.sizeof_llmm_otlp_attribute); err != nil {
			return nil, err
		}
		var err error
		if c.key, err = m.cs.put(op, a.Key); err != nil {
			return nil, err
		}
		switch v := a.Value.(type) {
		case string:
			c._type = C.LLMM_OTLP_STRING
			if c.string_value, err = m.cs.put(op, v); err != nil {
				return nil, err
			}
		case int:
			c._type = C.LLMM_OTLP_INT
			c.int_value = C.int64_t(v)
		case int64:
			c._type = C.LLMM_OTLP_INT
			c.int_value = C.int64_t(v)
		case float64:
			c._type = C.LLMM_OTLP_DOUBLE
			c.double_value = C.double(v)
		default:
			return nil, errArg(op, "span attribute "+a.Key+" is not a string, int, int64 or float64")
		}
	}
	return arr, nil
}

// OTLPTraces writes an ExportTraceServiceRequest holding spans (the body of an OTLP/HTTP
// POST to /v1/traces) in the given encoding.
func OTLPTraces(spans []OTLPSpan, scope OTLPScope, enc OTLPEncoding) ([]byte, error) {
	const op = "llmm_export_otlp_traces"
	var m cMem
	defer m.free()
	r := (*C.llmm_otlp_traces_request)(m.calloc(1, C.sizeof_llmm_otlp_traces_request))
	if err := initStruct(C.LLMM_STRUCT_OTLP_TRACES_REQUEST, unsafe.Pointer(r), C.sizeof_llmm_otlp_traces_request); err != nil {
		return nil, err
	}
	var err error
	if r.resource_attributes, r.scope_name, r.scope_version, r.scope_attributes, err = m.scope(op, scope); err != nil {
		return nil, err
	}
	arr := (*C.llmm_otlp_span)(m.calloc(len(spans), C.sizeof_llmm_otlp_span))
	for i, s := range spans {
		c := (*C.llmm_otlp_span)(unsafe.Add(unsafe.Pointer(arr), i*C.sizeof_llmm_otlp_span))
		if err := initStruct(C.LLMM_STRUCT_OTLP_SPAN, unsafe.Pointer(c), C.sizeof_llmm_otlp_span); err != nil {
			return nil, err
		}
		C.memcpy(unsafe.Pointer(&c.trace_id[0]), unsafe.Pointer(&s.TraceID[0]), 16)
		C.memcpy(unsafe.Pointer(&c.span_id[0]), unsafe.Pointer(&s.SpanID[0]), 8)
		C.memcpy(unsafe.Pointer(&c.parent_span_id[0]), unsafe.Pointer(&s.ParentSpanID[0]), 8)
		if c.name, err = m.cs.put(op, s.Name); err != nil {
			return nil, err
		}
		if s.Kind != 0 {
			c.kind = C.llmm_otlp_span_kind(s.Kind)
		}
		c.start_time_unix_nano = C.uint64_t(s.StartTimeUnixNano)
		c.end_time_unix_nano = C.uint64_t(s.EndTimeUnixNano)
		if c.attributes, err = m.attributes(op, s.Attributes); err != nil {
			return nil, err
		}
		c.attribute_count = C.size_t(len(s.Attributes))
		c.status_code = C.llmm_otlp_status_code(s.StatusCode)
		if c.status_message, err = m.cs.add(op, s.StatusMessage); err != nil {
			return nil, err
		}
	}
	r.spans = arr
	r.span_count = C.size_t(len(spans))
	return bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_export_otlp_traces(r, C.llmm_otlp_encoding(enc), buf, cap, n)
	})
}
