package llmmetrics

/*
#include <stdlib.h>
#include <llmmetrics/export.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// ExemplarKeep says which exemplar a slot of an [Exemplars] store keeps. Since 1.2.0.
type ExemplarKeep int32

// The keep rules.
const (
	ExemplarLatest ExemplarKeep = C.LLMM_EXEMPLAR_LATEST // the latest by time
	ExemplarMax    ExemplarKeep = C.LLMM_EXEMPLAR_MAX    // the largest since the last Roll
)

// Exemplar ties one value to the trace of the request that produced it. A zero TraceID or
// SpanID means absent; TimeUnixNano is wall-clock time (0: none); Labels is a preformatted
// label list of at most 63 bytes, or "". Since 1.2.0.
type Exemplar struct {
	Value        float64  // the value, in the recorded unit
	TraceID      [16]byte // W3C / OpenTelemetry trace id (zero: none)
	SpanID       [8]byte  // span id (zero: none)
	TimeUnixNano uint64   // wall-clock Unix nanoseconds (0: none)
	Labels       string   // preformatted extra labels, at most 63 bytes
}

// Exemplars keeps one exemplar per bucket of a fixed layout (bounds in the recorded unit:
// slot i holds the values in (bounds[i-1], bounds[i]], the last slot everything above),
// beside a sketch or recorder; [PromWriter.AddSketchExemplars] exports them. Writers record
// through their own [ExemplarShard] without locks; Get and exports run concurrently.
// Since 1.2.0.
type Exemplars struct {
	handle[C.llmm_exemplars]
	mu sync.RWMutex // guards c against Close
}

// NewExemplars creates a store with len(bounds)+1 slots (at most 255 bounds, finite,
// strictly increasing).
func NewExemplars(bounds []float64, keep ExemplarKeep, opts ...Option) (*Exemplars, error) {
	x := &Exemplars{}
	defer runtime.KeepAlive(bounds)
	return owned(x, x.open("llmm_exemplars_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_exemplars) C.llmm_status {
		return C.llmm_exemplars_new(cctx, f64ptr(bounds), C.size_t(len(bounds)), C.llmm_exemplar_keep(keep), out)
	}))
}

// Close frees the store and its shards. It is idempotent and always returns nil.
func (x *Exemplars) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.handle.Close()
}

// Slots is the number of slots (len(bounds)+1; 0 once closed).
func (x *Exemplars) Slots() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := C.llmm_exemplars_slots(x.c)
	runtime.KeepAlive(x)
	return int(n)
}

// Roll starts a new interval for ExemplarMax: the next exemplar of each slot replaces the
// one it holds. Nothing is erased.
func (x *Exemplars) Roll() error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.call("llmm_exemplars_roll", func(c *C.llmm_exemplars) C.llmm_status { return C.llmm_exemplars_roll(c) })
}

// Get returns the exemplar a slot holds; ok is false when it never held one.
func (x *Exemplars) Get(slot int) (e Exemplar, ok bool, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	const op = "llmm_exemplars_get"
	if slot < 0 || slot > 1<<31 {
		return e, false, errArg(op, "slot out of range")
	}
	var ce C.llmm_exemplar
	if err := initStruct(C.LLMM_STRUCT_EXEMPLAR, unsafe.Pointer(&ce), C.sizeof_llmm_exemplar); err != nil {
		return e, false, err
	}
	err = x.call(op, func(c *C.llmm_exemplars) C.llmm_status {
		st := C.llmm_exemplars_get(c, C.uint32_t(slot), &ce)
		if st == C.LLMM_E_EMPTY {
			return C.LLMM_OK
		}
		if st == C.LLMM_OK {
			ok = true
		}
		return st
	})
	if !ok || err != nil {
		return Exemplar{}, false, err
	}
	return fromC(&ce), true, nil
}

func fromC(ce *C.llmm_exemplar) Exemplar {
	e := Exemplar{Value: float64(ce.value), TimeUnixNano: uint64(ce.time_unix_nano),
		Labels: C.GoString(&ce.labels[0])}
	for i := range e.TraceID {
		e.TraceID[i] = byte(ce.trace_id[i])
	}
	for i := range e.SpanID {
		e.SpanID[i] = byte(ce.span_id[i])
	}
	return e
}

// toC fills a C exemplar from e (labels checked for length and NUL bytes).
func (e *Exemplar) toC(op string, ce *C.llmm_exemplar) error {
	if err := initStruct(C.LLMM_STRUCT_EXEMPLAR, unsafe.Pointer(ce), C.sizeof_llmm_exemplar); err != nil {
		return err
	}
	if len(e.Labels) >= len(ce.labels) {
		return errArg(op, "exemplar labels longer than 63 bytes")
	}
	for i := 0; i < len(e.Labels); i++ {
		if e.Labels[i] == 0 {
			return errArg(op, "exemplar labels contain a NUL byte")
		}
		ce.labels[i] = C.char(e.Labels[i])
	}
	ce.value = C.double(e.Value)
	ce.time_unix_nano = C.uint64_t(e.TimeUnixNano)
	for i, b := range e.TraceID {
		ce.trace_id[i] = C.uint8_t(b)
	}
	for i, b := range e.SpanID {
		ce.span_id[i] = C.uint8_t(b)
	}
	return nil
}

// Shard hands out a shard for one writer goroutine (safe for concurrent use).
func (x *Exemplars) Shard() (*ExemplarShard, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var c *C.llmm_exemplar_shard
	if err := x.call("llmm_exemplars_shard", func(xc *C.llmm_exemplars) C.llmm_status {
		return C.llmm_exemplars_shard(xc, &c)
	}); err != nil {
		return nil, err
	}
	sh := &ExemplarShard{c: c, x: x}
	runtime.SetFinalizer(sh, (*ExemplarShard).Release)
	return sh, nil
}

// ExemplarShard is a single-writer part of an [Exemplars] store: one goroutine at a time
// records into it. Release it when done; its exemplars stay in the store.
type ExemplarShard struct {
	c *C.llmm_exemplar_shard
	x *Exemplars
}

// Record offers an exemplar to the slot of its value, which keeps it or its current one by
// the store's keep rule. A zero TraceID or SpanID is left out.
func (sh *ExemplarShard) Record(e Exemplar) error {
	const op = "llmm_exemplar_shard_record"
	if sh.c == nil || sh.x.c == nil {
		return errClosed(op, "exemplar shard")
	}
	var cs cStrings
	defer cs.free()
	labels, err := cs.add(op, e.Labels)
	if err != nil {
		return err
	}
	var tr, sp *C.uint8_t
	if e.TraceID != [16]byte{} {
		tr = (*C.uint8_t)(unsafe.Pointer(&e.TraceID[0]))
	}
	if e.SpanID != [8]byte{} {
		sp = (*C.uint8_t)(unsafe.Pointer(&e.SpanID[0]))
	}
	st := C.llmm_exemplar_shard_record(sh.c, C.double(e.Value), tr, sp, C.uint64_t(e.TimeUnixNano), labels)
	runtime.KeepAlive(sh)
	runtime.KeepAlive(&e)
	return check(op, st)
}

// Release gives the shard back; idempotent, a no-op once the store is closed.
func (sh *ExemplarShard) Release() {
	if sh.c == nil {
		return
	}
	sh.x.mu.RLock()
	if sh.x.c != nil {
		C.llmm_exemplar_shard_release(sh.c)
	}
	sh.x.mu.RUnlock()
	sh.c = nil
	runtime.SetFinalizer(sh, nil)
}

// AddSketchExemplars is AddSketch with the exemplars of x where the format carries them
// (OpenMetrics buckets; protobuf classic buckets and a native histogram's one exemplar;
// none in 0.0.4 text). x may be nil. Since 1.2.0.
func (w *PromWriter) AddSketchExemplars(labels string, s *Sketch, unitToSeconds float64, x *Exemplars) error {
	const op = "llmm_prom_writer_sketch_exemplars"
	if s == nil || s.c == nil {
		return errClosed(op, "sketch")
	}
	var cx *C.llmm_exemplars
	if x != nil {
		x.mu.RLock()
		defer x.mu.RUnlock()
		if x.c == nil {
			return errClosed(op, "exemplar store")
		}
		cx = x.c
	}
	var cs cStrings
	defer cs.free()
	clabels, err := cs.add(op, labels)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(s)
	defer runtime.KeepAlive(x)
	return w.call(op, func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_sketch_exemplars(c, clabels, s.c, C.double(unitToSeconds), cx)
	})
}

// AddValueExemplar is AddValue for a counter with one exemplar (nil: none). Since 1.2.0.
func (w *PromWriter) AddValueExemplar(labels string, value float64, e *Exemplar) error {
	const op = "llmm_prom_writer_value_exemplar"
	var cs cStrings
	defer cs.free()
	clabels, err := cs.add(op, labels)
	if err != nil {
		return err
	}
	var ce *C.llmm_exemplar
	if e != nil {
		ce = (*C.llmm_exemplar)(C.calloc(1, C.sizeof_llmm_exemplar))
		defer C.free(unsafe.Pointer(ce))
		if err := e.toC(op, ce); err != nil {
			return err
		}
	}
	return w.call(op, func(c *C.llmm_prom_writer) C.llmm_status {
		return C.llmm_prom_writer_value_exemplar(c, clabels, C.double(value), ce)
	})
}

// PromNegotiateOpenMetrics is PromNegotiate with OpenMetrics as a third choice (what
// Prometheus asks for first without native histograms). Since 1.2.0.
func PromNegotiateOpenMetrics(accept string) (PromFormat, string) {
	return negotiate(accept, func(a *C.char, f *C.llmm_prom_format, ct **C.char) C.llmm_status {
		return C.llmm_prom_negotiate_openmetrics(a, f, ct)
	})
}

// ParseTraceparent reads a W3C traceparent header: the trace id, the parent (span) id and
// the trace flags. Since 1.2.0.
func ParseTraceparent(header string) (traceID [16]byte, spanID [8]byte, flags uint8, err error) {
	const op = "llmm_traceparent_parse"
	ch := C.CString(header)
	defer C.free(unsafe.Pointer(ch))
	var tr [16]C.uint8_t
	var sp [8]C.uint8_t
	var fl C.uint8_t
	if err = check(op, C.llmm_traceparent_parse(ch, &tr[0], &sp[0], &fl)); err != nil {
		return
	}
	for i := range tr {
		traceID[i] = byte(tr[i])
	}
	for i := range sp {
		spanID[i] = byte(sp[i])
	}
	return traceID, spanID, uint8(fl), nil
}

// FormatTraceparent writes a version-00 traceparent value. Since 1.2.0.
func FormatTraceparent(traceID [16]byte, spanID [8]byte, flags uint8) (string, error) {
	var buf [55]C.uint8_t
	var n C.size_t
	st := C.llmm_traceparent_format((*C.uint8_t)(unsafe.Pointer(&traceID[0])),
		(*C.uint8_t)(unsafe.Pointer(&spanID[0])), C.uint8_t(flags), &buf[0], C.size_t(len(buf)), &n)
	if err := check("llmm_traceparent_format", st); err != nil {
		return "", err
	}
	out := make([]byte, int(n))
	for i := range out {
		out[i] = byte(buf[i])
	}
	return string(out), nil
}
