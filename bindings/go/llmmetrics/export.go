package llmmetrics

/*
#include <stdlib.h>
#include <llmmetrics/export.h>
*/
import "C"

import (
	"io"
	"runtime"
	"unsafe"
)

// grow runs a call that follows the library's buffer protocol (buffer, capacity, *count;
// LLMM_E_BUFFER with the count needed) on a buffer of size elements, then on one as large as
// the library asks for, and returns the elements written.
func grow[E any](op string, size int, f func(buf []E, n *C.size_t) C.llmm_status) ([]E, error) {
	buf := make([]E, size)
	for {
		var n C.size_t
		st := f(buf, &n)
		runtime.KeepAlive(buf)
		if st == C.LLMM_E_BUFFER && int(n) > len(buf) {
			buf = make([]E, int(n))
			continue
		}
		if err := check(op, st); err != nil {
			return nil, err
		}
		return buf[:int(n)], nil
	}
}

// bufferCall runs a C writer of bytes that follows the buffer protocol.
func bufferCall(op string, f func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status) ([]byte, error) {
	return grow(op, 4096, func(buf []byte, n *C.size_t) C.llmm_status {
		return f((*C.uint8_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), n)
	})
}

// cStrings holds C copies of Go strings for the duration of one call. The empty string
// becomes NULL, which the export calls read as "none" (or the default).
type cStrings []*C.char

func (cs *cStrings) add(op, s string) (*C.char, error) {
	if s == "" {
		return nil, nil
	}
	return cs.put(op, s)
}

// named converts a name (even empty) and another string (nil when empty), kept to free.
func (cs *cStrings) named(op, name, other string) (*C.char, *C.char, error) {
	n, err := cs.put(op, name)
	if err != nil {
		return nil, nil, err
	}
	o, err := cs.add(op, other)
	return n, o, err
}

// put converts s, even empty, and keeps the copy to free.
func (cs *cStrings) put(op, s string) (*C.char, error) {
	p, err := cString(op, s)
	if err == nil {
		*cs = append(*cs, p)
	}
	return p, err
}

func (cs cStrings) free() {
	for _, p := range cs {
		C.free(unsafe.Pointer(p))
	}
}

// PrometheusText writes one complete Prometheus text (0.0.4) histogram family for the
// sketch: # HELP, # TYPE and one classic-histogram series whose le bounds are the sketch's
// own bucket bounds, downscaled to at most 160 (so every cumulative count is exact and the
// series count bounded), then name_sum and name_count.
//
// labels is a preformatted label list without braces, such as `model="m",gpu="0"` (escape
// values with [EscapeLabelValue]), or empty. unitToSeconds turns a recorded value into the
// exported unit: 1e-3 for a sketch recorded in milliseconds, 1 for seconds or non-times.
func (s *Sketch) PrometheusText(name, labels string, unitToSeconds float64) ([]byte, error) {
	const op = "llmm_export_prometheus_text"
	if s.c == nil {
		return nil, errClosed(op, "sketch")
	}
	var cs cStrings
	defer cs.free()
	cname, clabels, err := cs.named(op, name, labels)
	if err != nil {
		return nil, err
	}
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_export_prometheus_text(s.c, cname, clabels, C.double(unitToSeconds), buf, cap, n)
	})
	runtime.KeepAlive(s)
	return out, err
}

// EscapeLabelValue escapes a label value for a preformatted label list: backslash, double
// quote and newline become \\, \" and \n. The value must be valid UTF-8.
func EscapeLabelValue(value string) (string, error) {
	const op = "llmm_prom_label_escape"
	cvalue, err := cString(op, value)
	if err != nil {
		return "", err
	}
	defer C.free(unsafe.Pointer(cvalue))
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_prom_label_escape(cvalue, buf, cap, n)
	})
	return string(out), err
}

// PromFormat is a Prometheus exposition format.
type PromFormat int32

// The exposition formats.
const (
	PromText     PromFormat = C.LLMM_PROM_TEXT     // text format 0.0.4
	PromProtobuf PromFormat = C.LLMM_PROM_PROTOBUF // length-delimited MetricFamily protobuf: carries native histograms
	// OpenMetrics 1.0 text with exemplars and "# EOF", chosen by [PromNegotiateOpenMetrics].
	// Since 1.2.0.
	PromOpenMetrics PromFormat = C.LLMM_PROM_OPENMETRICS
)

// ContentType is the Content-Type to answer a scrape in this format with ("" for an unknown
// format).
func (f PromFormat) ContentType() string {
	return goString(C.llmm_prom_content_type(C.llmm_prom_format(f)))
}

// PromNegotiate chooses the exposition format for an HTTP Accept header as Prometheus with
// native histograms expects: protobuf only when offered at a higher quality than every text
// type; anything else, an empty header included, gives text. It also returns the exact
// Content-Type to answer with.
func PromNegotiate(accept string) (PromFormat, string) {
	return negotiate(accept, func(a *C.char, f *C.llmm_prom_format, ct **C.char) C.llmm_status {
		return C.llmm_prom_negotiate(a, f, ct)
	})
}

// negotiate runs one of the C negotiation calls on accept; text when it fails.
func negotiate(accept string, call func(*C.char, *C.llmm_prom_format, **C.char) C.llmm_status) (PromFormat, string) {
	var caccept *C.char
	if accept != "" {
		caccept = C.CString(accept)
		defer C.free(unsafe.Pointer(caccept))
	}
	var f C.llmm_prom_format
	var ct *C.char
	if call(caccept, &f, &ct) != C.LLMM_OK || ct == nil {
		return PromText, PromText.ContentType()
	}
	return PromFormat(f), C.GoString(ct)
}

// PromType is the type of a metric family of a [PromWriter].
type PromType int32

// The family types.
const (
	PromCounter         PromType = C.LLMM_PROM_COUNTER          // monotonic counter (AddValue)
	PromGauge           PromType = C.LLMM_PROM_GAUGE            // gauge (AddValue)
	PromSummary         PromType = C.LLMM_PROM_SUMMARY          // summary at the family's quantiles (AddSketch)
	PromHistogram       PromType = C.LLMM_PROM_HISTOGRAM        // classic histogram at the family's bounds, or the writer's bounded layout (AddSketch)
	PromNativeHistogram PromType = C.LLMM_PROM_NATIVE_HISTOGRAM // native histogram in protobuf, classic in text (AddSketch)
)

// BucketList names a classic bucket list of a well-known exporter, for histogram families.
type BucketList int32

// The named bucket lists (upper bounds in seconds unless noted).
const (
	BucketsVLLMTTFT           BucketList = C.LLMM_BUCKETS_VLLM_TTFT            // vLLM time to first token: 0.001 … 2560
	BucketsVLLMInterToken     BucketList = C.LLMM_BUCKETS_VLLM_INTER_TOKEN     // vLLM inter-token latency: 0.01 … 80
	BucketsVLLMRequestLatency BucketList = C.LLMM_BUCKETS_VLLM_REQUEST_LATENCY // vLLM end-to-end request latency: 0.3 … 7680
	BucketsOTelGenAIDuration  BucketList = C.LLMM_BUCKETS_OTEL_GENAI_DURATION  // OTel GenAI operation duration: 0.01·2^k, k = 0 … 13
	BucketsOTelGenAITTFT      BucketList = C.LLMM_BUCKETS_OTEL_GENAI_TTFT      // OTel GenAI time to first token: 0.001 … 10
	BucketsOTelGenAITPOT      BucketList = C.LLMM_BUCKETS_OTEL_GENAI_TPOT      // OTel GenAI time per output token: 0.01 … 2.5
	BucketsOTelGenAITokens    BucketList = C.LLMM_BUCKETS_OTEL_GENAI_TOKENS    // OTel GenAI token usage (tokens): 4^k, k = 0 … 13
)

// PromBuckets returns a named bucket list: ascending upper bounds, without +Inf.
func PromBuckets(which BucketList) ([]float64, error) {
	return grow("llmm_prom_buckets", 32, func(out []float64, n *C.size_t) C.llmm_status {
		return C.llmm_prom_buckets(C.llmm_bucket_list(which), f64ptr(out), C.size_t(len(out)), n)
	})
}

// PromWriter builds a Prometheus exposition — many families, many labelled series each —
// in text or protobuf (native histograms). Per scrape: [PromNegotiate], Reset with the
// chosen format, then for each family Family followed by its series (AddValue or AddSketch),
// then Finish or WriteTo. The writer keeps its memory between scrapes.
//
// A PromWriter is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type PromWriter struct{ handle[C.llmm_prom_writer] }

// NewPromWriter creates an empty writer for the given format.
func NewPromWriter(format PromFormat, opts ...Option) (*PromWriter, error) {
	w := &PromWriter{}
	return owned(w, w.open("llmm_prom_writer_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_new(cctx, C.llmm_prom_format(format), out)
	}))
}

// Reset drops everything written and starts a new exposition in format.
func (w *PromWriter) Reset(format PromFormat) error {
	return w.call("llmm_prom_writer_reset", func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_reset(c, C.llmm_prom_format(format))
	})
}

// Family starts a new metric family, ending the current one. points are the quantiles of a
// summary (at least one), the bucket upper bounds of a histogram in the exported unit
// (strictly increasing, +Inf added; none for the writer's bounded classic layout, see
// SetClassicList), or nothing for a
// counter or gauge. help may be empty. A name already used since the last Reset is ErrState.
func (w *PromWriter) Family(name, help string, typ PromType, points []float64) error {
	const op = "llmm_prom_writer_family"
	var cs cStrings
	defer cs.free()
	cname, chelp, err := cs.named(op, name, help)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(points)
	return w.call(op, func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_family(c, cname, chelp, C.llmm_prom_type(typ), f64ptr(points), C.size_t(len(points)))
	})
}

// SetClassicList makes the histogram families without bounds that start after this call
// carry the classic buckets of a named list (the default: BucketsOTelGenAIDuration): in
// text, and in protobuf for PromHistogram families; native buckets are not affected. The
// setting survives Reset. Since 1.1.0.
func (w *PromWriter) SetClassicList(which BucketList) error {
	return w.call("llmm_prom_writer_set_classic_list", func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_set_classic_list(c, C.llmm_bucket_list(which))
	})
}

// SetClassicMax makes the histogram families without bounds that start after this call
// carry each sketch's own bucket grid, downscaled to at most maxBounds (>= 3) finite le
// bounds, every count exact. The setting survives Reset. Since 1.1.0.
func (w *PromWriter) SetClassicMax(maxBounds uint32) error {
	return w.call("llmm_prom_writer_set_classic_max", func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_set_classic_max(c, C.uint32_t(maxBounds))
	})
}

// AddValue adds one series to the current counter or gauge family.
func (w *PromWriter) AddValue(labels string, value float64) error {
	const op = "llmm_prom_writer_value"
	var cs cStrings
	defer cs.free()
	clabels, err := cs.add(op, labels)
	if err != nil {
		return err
	}
	return w.call(op, func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_value(c, clabels, C.double(value))
	})
}

// AddSketch adds one series computed from a sketch to the current summary or histogram
// family; unitToSeconds as in [Sketch.PrometheusText].
func (w *PromWriter) AddSketch(labels string, s *Sketch, unitToSeconds float64) error {
	const op = "llmm_prom_writer_sketch"
	if s == nil || s.c == nil {
		return errClosed(op, "sketch")
	}
	var cs cStrings
	defer cs.free()
	clabels, err := cs.add(op, labels)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(s)
	return w.call(op, func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_sketch(c, clabels, s.c, C.double(unitToSeconds))
	})
}

// Finish ends the current family and returns a copy of the whole exposition. The writer
// keeps its contents: more families may follow.
func (w *PromWriter) Finish() ([]byte, error) {
	const op = "llmm_prom_writer_finish"
	if w.c == nil {
		return nil, errClosed(op, w.what())
	}
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_prom_writer_finish(w.c, buf, cap, n)
	})
	runtime.KeepAlive(w)
	return out, err
}

// WriteTo ends the current family and writes the exposition to dst straight from the
// writer's memory, without an intermediate copy (io.WriterTo).
func (w *PromWriter) WriteTo(dst io.Writer) (int64, error) {
	var data *C.uint8_t
	var n C.size_t
	if err := w.call("llmm_prom_writer_data", func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_data(c, &data, &n)
	}); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	written, err := dst.Write(unsafe.Slice((*byte)(unsafe.Pointer(data)), int(n)))
	runtime.KeepAlive(w)
	return int64(written), err
}

// OTLPTemporality is an OTLP aggregation temporality.
type OTLPTemporality int32

// The temporalities (values as in OTLP).
const (
	OTLPDelta      OTLPTemporality = C.LLMM_OTLP_DELTA      // each point covers (start, time] only
	OTLPCumulative OTLPTemporality = C.LLMM_OTLP_CUMULATIVE // each point covers everything since a fixed start
)

// OTLPOptions are the options of the OTLP JSON exporters; start from [DefaultOTLPOptions].
// Empty strings mean "none" (for Unit: "s").
type OTLPOptions struct {
	StartTimeUnixNano  uint64          // start of the covered interval
	TimeUnixNano       uint64          // end of the covered interval
	UnitToSeconds      float64         // factor applied to every value (1)
	MaxBuckets         int             // largest number of positive buckets, 0 = no limit (OTel SDKs use 160)
	Temporality        OTLPTemporality // OTLPCumulative (default) or OTLPDelta
	Attributes         string          // point attributes as a preformatted list (keys may contain . and -)
	Description        string          // metric description (request form only)
	Unit               string          // metric unit (request form only; empty gives "s")
	ResourceAttributes string          // resource attributes (request form only)
}

// DefaultOTLPOptions returns the library's defaults: times 0, factor 1, no bucket limit,
// cumulative temporality.
func DefaultOTLPOptions() OTLPOptions {
	var o C.llmm_otlp_options
	_ = initStruct(C.LLMM_STRUCT_OTLP_OPTIONS, unsafe.Pointer(&o), C.sizeof_llmm_otlp_options) // defaults: cannot fail
	return OTLPOptions{
		StartTimeUnixNano: uint64(o.start_time_unix_nano),
		TimeUnixNano:      uint64(o.time_unix_nano),
		UnitToSeconds:     float64(o.unit_to_seconds),
		MaxBuckets:        int(o.max_buckets),
		Temporality:       OTLPTemporality(o.temporality),
	}
}

// toC fills a C options struct; the strings are allocated in cs.
func (o *OTLPOptions) toC(op string, cs *cStrings) (*C.llmm_otlp_options, error) {
	var c C.llmm_otlp_options
	if err := initStruct(C.LLMM_STRUCT_OTLP_OPTIONS, unsafe.Pointer(&c), C.sizeof_llmm_otlp_options); err != nil {
		return nil, err
	}
	if o == nil {
		return &c, nil
	}
	if o.MaxBuckets < 0 || uint64(o.MaxBuckets) > 0xffffffff {
		return nil, errArg(op, "MaxBuckets out of bounds")
	}
	c.start_time_unix_nano = C.uint64_t(o.StartTimeUnixNano)
	c.time_unix_nano = C.uint64_t(o.TimeUnixNano)
	c.unit_to_seconds = C.double(o.UnitToSeconds)
	c.max_buckets = C.uint32_t(o.MaxBuckets)
	c.temporality = C.llmm_otlp_temporality(o.Temporality)
	var err error
	if c.attributes, err = cs.add(op, o.Attributes); err != nil {
		return nil, err
	}
	if c.description, err = cs.add(op, o.Description); err != nil {
		return nil, err
	}
	if c.unit, err = cs.add(op, o.Unit); err != nil {
		return nil, err
	}
	if c.resource_attributes, err = cs.add(op, o.ResourceAttributes); err != nil {
		return nil, err
	}
	return &c, nil
}

func sketchOrNil(s *Sketch) *C.llmm_sketch {
	if s == nil {
		return nil
	}
	return s.c
}

// OTLPJSONPoint writes one OTLP/JSON ExponentialHistogramDataPoint for the sketch. With
// earlier (delta temporality only) the point is s − earlier, both snapshots of one series.
// opts nil means [DefaultOTLPOptions].
func (s *Sketch) OTLPJSONPoint(earlier *Sketch, opts *OTLPOptions) ([]byte, error) {
	const op = "llmm_export_otlp_json_point"
	if s.c == nil || (earlier != nil && earlier.c == nil) {
		return nil, errClosed(op, "sketch")
	}
	var cs cStrings
	defer cs.free()
	co, err := opts.toC(op, &cs)
	if err != nil {
		return nil, err
	}
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_export_otlp_json_point(s.c, sketchOrNil(earlier), co, buf, cap, n)
	})
	runtime.KeepAlive(s)
	runtime.KeepAlive(earlier)
	return out, err
}

// OTLPJSON writes a complete OTLP/JSON ExportMetricsServiceRequest (the body of a POST to
// /v1/metrics) holding one metric called name with one exponential-histogram point, as
// [Sketch.OTLPJSONPoint] makes it.
func (s *Sketch) OTLPJSON(earlier *Sketch, name string, opts *OTLPOptions) ([]byte, error) {
	const op = "llmm_export_otlp_json"
	if s.c == nil || (earlier != nil && earlier.c == nil) {
		return nil, errClosed(op, "sketch")
	}
	var cs cStrings
	defer cs.free()
	cname, err := cs.put(op, name)
	if err != nil {
		return nil, err
	}
	co, err := opts.toC(op, &cs)
	if err != nil {
		return nil, err
	}
	out, err := bufferCall(op, func(buf *C.uint8_t, cap C.size_t, n *C.size_t) C.llmm_status {
		return C.llmm_export_otlp_json(s.c, sketchOrNil(earlier), cname, co, buf, cap, n)
	})
	runtime.KeepAlive(s)
	runtime.KeepAlive(earlier)
	return out, err
}
