package llmmetrics

/*
#include <llmmetrics/detect.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Limits of a [StabilityGate] and a [SaturationSignal].
const (
	StabilityWindowsDefault = 5       // default number of window means k
	StabilityWindowsMax     = 64      // largest k
	SaturationWindowDefault = 64      // default window N, in samples
	SaturationWindowMax     = 1048576 // largest window N
)

// StabilityOption is a tunable of a [StabilityGate].
type StabilityOption int32

// The stability gate options; types, bounds and defaults: Options(KindStability).
const (
	StabilityWindows StabilityOption = C.LLMM_STABILITY_WINDOWS // integer: k, the means compared
	StabilityEpsilon StabilityOption = C.LLMM_STABILITY_EPSILON // float: stable when max / min ≤ 1 + ε
)

// StabilityReading is the state of a [StabilityGate].
type StabilityReading struct {
	Stable  bool    // k means held and Max / Min ≤ 1 + ε
	Held    int     // means judged: min(k, means added)
	Windows int     // k
	Min     float64 // smallest mean held; 0 when none
	Max     float64 // largest mean held; 0 when none
	Ratio   float64 // Max / Min; 0 when none
	Total   uint64  // means added since creation or Reset
}

// StabilityGate tells when a run has reached a steady state: the last k window means
// (default 5) lie within 1 + ε (default 5 %) of each other.
//
// A StabilityGate is used by one goroutine at a time. Close it when done; a finalizer closes
// a forgotten one.
type StabilityGate struct {
	c   *C.llmm_stability
	ctx *Context
}

// NewStabilityGate creates a gate with the default options (Options(KindStability)).
func NewStabilityGate(opts ...Option) (*StabilityGate, error) {
	const op = "llmm_stability_new"
	o := collect(opts)
	var c *C.llmm_stability
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_stability_new(cctx, &c)
	}); err != nil {
		return nil, err
	}
	g := &StabilityGate{c: c, ctx: o.ctx}
	runtime.SetFinalizer(g, (*StabilityGate).Close)
	return g, nil
}

// Close frees the gate. It is idempotent and always returns nil.
func (g *StabilityGate) Close() error {
	if g.c == nil {
		return nil
	}
	C.llmm_stability_free(g.c)
	g.c = nil
	g.ctx.release()
	g.ctx = nil
	runtime.SetFinalizer(g, nil)
	return nil
}

// SetFloat64 sets ε.
func (g *StabilityGate) SetFloat64(opt StabilityOption, value float64) error {
	if g.c == nil {
		return errClosed("llmm_stability_set_f64", "stability gate")
	}
	st := C.llmm_stability_set_f64(g.c, C.llmm_stability_option(opt), C.double(value))
	runtime.KeepAlive(g)
	return check("llmm_stability_set_f64", st)
}

// Float64 reads ε.
func (g *StabilityGate) Float64(opt StabilityOption) (float64, error) {
	if g.c == nil {
		return 0, errClosed("llmm_stability_get_f64", "stability gate")
	}
	var v C.double
	st := C.llmm_stability_get_f64(g.c, C.llmm_stability_option(opt), &v)
	runtime.KeepAlive(g)
	return float64(v), check("llmm_stability_get_f64", st)
}

// SetUint64 sets k; it applies at once to the means already added.
func (g *StabilityGate) SetUint64(opt StabilityOption, value uint64) error {
	if g.c == nil {
		return errClosed("llmm_stability_set_u64", "stability gate")
	}
	st := C.llmm_stability_set_u64(g.c, C.llmm_stability_option(opt), C.uint64_t(value))
	runtime.KeepAlive(g)
	return check("llmm_stability_set_u64", st)
}

// Uint64 reads k.
func (g *StabilityGate) Uint64(opt StabilityOption) (uint64, error) {
	if g.c == nil {
		return 0, errClosed("llmm_stability_get_u64", "stability gate")
	}
	var v C.uint64_t
	st := C.llmm_stability_get_u64(g.c, C.llmm_stability_option(opt), &v)
	runtime.KeepAlive(g)
	return uint64(v), check("llmm_stability_get_u64", st)
}

// Add adds the mean of one window (> 0) and reports whether the gate is now stable.
func (g *StabilityGate) Add(mean float64) (bool, error) {
	if g.c == nil {
		return false, errClosed("llmm_stability_add", "stability gate")
	}
	var stable C.int32_t
	st := C.llmm_stability_add(g.c, C.double(mean), &stable)
	runtime.KeepAlive(g)
	return stable != 0, check("llmm_stability_add", st)
}

// Read returns the gate's verdict and the figures behind it.
func (g *StabilityGate) Read() (StabilityReading, error) {
	if g.c == nil {
		return StabilityReading{}, errClosed("llmm_stability_read", "stability gate")
	}
	var r C.llmm_stability_reading
	if err := initStruct(C.LLMM_STRUCT_STABILITY_READING, unsafe.Pointer(&r), C.sizeof_llmm_stability_reading); err != nil {
		return StabilityReading{}, err
	}
	st := C.llmm_stability_read(g.c, &r)
	runtime.KeepAlive(g)
	if err := check("llmm_stability_read", st); err != nil {
		return StabilityReading{}, err
	}
	return StabilityReading{Stable: r.stable != 0, Held: int(r.held), Windows: int(r.windows),
		Min: float64(r.min), Max: float64(r.max), Ratio: float64(r.ratio), Total: uint64(r.total)}, nil
}

// Reset forgets every mean and the total; options stay.
func (g *StabilityGate) Reset() error {
	if g.c == nil {
		return errClosed("llmm_stability_reset", "stability gate")
	}
	st := C.llmm_stability_reset(g.c)
	runtime.KeepAlive(g)
	return check("llmm_stability_reset", st)
}

// SaturationOption is a tunable of a [SaturationSignal].
type SaturationOption int32

// The saturation signal options; types, bounds and defaults: Options(KindSaturation).
const (
	SaturationWindow     SaturationOption = C.LLMM_SATURATION_WINDOW     // integer: N samples; only while none is held
	SaturationConfidence SaturationOption = C.LLMM_SATURATION_CONFIDENCE // float: z, a slope rises when slope > z·se
)

// SaturationReading is the state of a [SaturationSignal]; slopes are per second of the time
// stamps.
type SaturationReading struct {
	Saturated       bool    // Ready and both slopes confidently positive
	Ready           bool    // the window holds N samples
	LatencyRising   bool    // the latency slope is confidently positive
	InflightRising  bool    // the in-flight slope is confidently positive
	Samples         int     // samples held, ≤ N
	LatencySlope    float64 // least-squares slope of latency over time
	LatencySlopeSE  float64 // its standard error
	InflightSlope   float64 // least-squares slope of in-flight requests over time
	InflightSlopeSE float64 // its standard error
	Total           uint64  // samples observed since creation or Reset
}

// SaturationSignal reports saturation when, over the last N samples, latency and in-flight
// requests both rise with confidence: queueing grows and so does waiting.
//
// A SaturationSignal is used by one goroutine at a time. Close it when done; a finalizer
// closes a forgotten one.
type SaturationSignal struct {
	c   *C.llmm_saturation
	ctx *Context
}

// NewSaturationSignal creates a signal with the default options (Options(KindSaturation)).
func NewSaturationSignal(opts ...Option) (*SaturationSignal, error) {
	const op = "llmm_saturation_new"
	o := collect(opts)
	var c *C.llmm_saturation
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_saturation_new(cctx, &c)
	}); err != nil {
		return nil, err
	}
	s := &SaturationSignal{c: c, ctx: o.ctx}
	runtime.SetFinalizer(s, (*SaturationSignal).Close)
	return s, nil
}

// Close frees the signal. It is idempotent and always returns nil.
func (s *SaturationSignal) Close() error {
	if s.c == nil {
		return nil
	}
	C.llmm_saturation_free(s.c)
	s.c = nil
	s.ctx.release()
	s.ctx = nil
	runtime.SetFinalizer(s, nil)
	return nil
}

// SetFloat64 sets z.
func (s *SaturationSignal) SetFloat64(opt SaturationOption, value float64) error {
	if s.c == nil {
		return errClosed("llmm_saturation_set_f64", "saturation signal")
	}
	st := C.llmm_saturation_set_f64(s.c, C.llmm_saturation_option(opt), C.double(value))
	runtime.KeepAlive(s)
	return check("llmm_saturation_set_f64", st)
}

// Float64 reads z.
func (s *SaturationSignal) Float64(opt SaturationOption) (float64, error) {
	if s.c == nil {
		return 0, errClosed("llmm_saturation_get_f64", "saturation signal")
	}
	var v C.double
	st := C.llmm_saturation_get_f64(s.c, C.llmm_saturation_option(opt), &v)
	runtime.KeepAlive(s)
	return float64(v), check("llmm_saturation_get_f64", st)
}

// SetUint64 sets N (ErrState while samples are held).
func (s *SaturationSignal) SetUint64(opt SaturationOption, value uint64) error {
	if s.c == nil {
		return errClosed("llmm_saturation_set_u64", "saturation signal")
	}
	st := C.llmm_saturation_set_u64(s.c, C.llmm_saturation_option(opt), C.uint64_t(value))
	runtime.KeepAlive(s)
	return check("llmm_saturation_set_u64", st)
}

// Uint64 reads N.
func (s *SaturationSignal) Uint64(opt SaturationOption) (uint64, error) {
	if s.c == nil {
		return 0, errClosed("llmm_saturation_get_u64", "saturation signal")
	}
	var v C.uint64_t
	st := C.llmm_saturation_get_u64(s.c, C.llmm_saturation_option(opt), &v)
	runtime.KeepAlive(s)
	return uint64(v), check("llmm_saturation_get_u64", st)
}

// Observe adds one sample (latency and requests in flight at time stamp now) and reports
// whether the server is saturated now.
func (s *SaturationSignal) Observe(now uint64, latency, inFlight float64) (bool, error) {
	if s.c == nil {
		return false, errClosed("llmm_saturation_observe", "saturation signal")
	}
	var sat C.int32_t
	st := C.llmm_saturation_observe(s.c, C.uint64_t(now), C.double(latency), C.double(inFlight), &sat)
	runtime.KeepAlive(s)
	return sat != 0, check("llmm_saturation_observe", st)
}

// Read returns the slopes, their standard errors and the verdict over the samples held.
func (s *SaturationSignal) Read() (SaturationReading, error) {
	if s.c == nil {
		return SaturationReading{}, errClosed("llmm_saturation_read", "saturation signal")
	}
	var r C.llmm_saturation_reading
	if err := initStruct(C.LLMM_STRUCT_SATURATION_READING, unsafe.Pointer(&r), C.sizeof_llmm_saturation_reading); err != nil {
		return SaturationReading{}, err
	}
	st := C.llmm_saturation_read(s.c, &r)
	runtime.KeepAlive(s)
	if err := check("llmm_saturation_read", st); err != nil {
		return SaturationReading{}, err
	}
	return SaturationReading{
		Saturated: r.saturated != 0, Ready: r.ready != 0,
		LatencyRising: r.latency_rising != 0, InflightRising: r.inflight_rising != 0,
		Samples:      int(r.samples),
		LatencySlope: float64(r.latency_slope), LatencySlopeSE: float64(r.latency_slope_se),
		InflightSlope: float64(r.inflight_slope), InflightSlopeSE: float64(r.inflight_slope_se),
		Total: uint64(r.total),
	}, nil
}

// Reset forgets every sample, the total and the clock; options stay.
func (s *SaturationSignal) Reset() error {
	if s.c == nil {
		return errClosed("llmm_saturation_reset", "saturation signal")
	}
	st := C.llmm_saturation_reset(s.c)
	runtime.KeepAlive(s)
	return check("llmm_saturation_reset", st)
}
