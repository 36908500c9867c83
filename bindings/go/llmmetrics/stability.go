package llmmetrics

/*
#include <llmmetrics/detect.h>
*/
import "C"

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
type StabilityGate struct{ handle[C.llmm_stability] }

// NewStabilityGate creates a gate with the default options (Options(KindStability)).
func NewStabilityGate(opts ...Option) (*StabilityGate, error) {
	g := &StabilityGate{}
	return owned(g, g.open("llmm_stability_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_stability) C.llmm_status {
		return C.llmm_stability_new(cctx, out)
	}))
}

// SetFloat64 sets ε.
func (g *StabilityGate) SetFloat64(opt StabilityOption, value float64) error {
	return g.call("llmm_stability_set_f64", func(c *C.llmm_stability) C.llmm_status {
		return C.llmm_stability_set_f64(c, C.llmm_stability_option(opt), C.double(value))
	})
}

// Float64 reads ε.
func (g *StabilityGate) Float64(opt StabilityOption) (float64, error) {
	return g.getF64("llmm_stability_get_f64", func(c *C.llmm_stability, v *C.double) C.llmm_status {
		return C.llmm_stability_get_f64(c, C.llmm_stability_option(opt), v)
	})
}

// SetUint64 sets k; it applies at once to the means already added.
func (g *StabilityGate) SetUint64(opt StabilityOption, value uint64) error {
	return g.call("llmm_stability_set_u64", func(c *C.llmm_stability) C.llmm_status {
		return C.llmm_stability_set_u64(c, C.llmm_stability_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads k.
func (g *StabilityGate) Uint64(opt StabilityOption) (uint64, error) {
	return g.getU64("llmm_stability_get_u64", func(c *C.llmm_stability, v *C.uint64_t) C.llmm_status {
		return C.llmm_stability_get_u64(c, C.llmm_stability_option(opt), v)
	})
}

// Add adds the mean of one window (> 0) and reports whether the gate is now stable.
func (g *StabilityGate) Add(mean float64) (bool, error) {
	return g.getBool("llmm_stability_add", func(c *C.llmm_stability, stable *C.int32_t) C.llmm_status {
		return C.llmm_stability_add(c, C.double(mean), stable)
	})
}

// Read returns the gate's verdict and the figures behind it.
func (g *StabilityGate) Read() (StabilityReading, error) {
	r, err := read(&g.handle, "llmm_stability_read", C.LLMM_STRUCT_STABILITY_READING,
		func(c *C.llmm_stability, r *C.llmm_stability_reading) C.llmm_status {
			return C.llmm_stability_read(c, r)
		})
	if err != nil {
		return StabilityReading{}, err
	}
	return StabilityReading{Stable: r.stable != 0, Held: int(r.held), Windows: int(r.windows),
		Min: float64(r.min), Max: float64(r.max), Ratio: float64(r.ratio), Total: uint64(r.total)}, nil
}

// Reset forgets every mean and the total; options stay.
func (g *StabilityGate) Reset() error {
	return g.call("llmm_stability_reset", func(c *C.llmm_stability) C.llmm_status {
		return C.llmm_stability_reset(c)
	})
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
type SaturationSignal struct{ handle[C.llmm_saturation] }

// NewSaturationSignal creates a signal with the default options (Options(KindSaturation)).
func NewSaturationSignal(opts ...Option) (*SaturationSignal, error) {
	s := &SaturationSignal{}
	return owned(s, s.open("llmm_saturation_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_saturation) C.llmm_status {
		return C.llmm_saturation_new(cctx, out)
	}))
}

// SetFloat64 sets z.
func (s *SaturationSignal) SetFloat64(opt SaturationOption, value float64) error {
	return s.call("llmm_saturation_set_f64", func(c *C.llmm_saturation) C.llmm_status {
		return C.llmm_saturation_set_f64(c, C.llmm_saturation_option(opt), C.double(value))
	})
}

// Float64 reads z.
func (s *SaturationSignal) Float64(opt SaturationOption) (float64, error) {
	return s.getF64("llmm_saturation_get_f64", func(c *C.llmm_saturation, v *C.double) C.llmm_status {
		return C.llmm_saturation_get_f64(c, C.llmm_saturation_option(opt), v)
	})
}

// SetUint64 sets N (ErrState while samples are held).
func (s *SaturationSignal) SetUint64(opt SaturationOption, value uint64) error {
	return s.call("llmm_saturation_set_u64", func(c *C.llmm_saturation) C.llmm_status {
		return C.llmm_saturation_set_u64(c, C.llmm_saturation_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads N.
func (s *SaturationSignal) Uint64(opt SaturationOption) (uint64, error) {
	return s.getU64("llmm_saturation_get_u64", func(c *C.llmm_saturation, v *C.uint64_t) C.llmm_status {
		return C.llmm_saturation_get_u64(c, C.llmm_saturation_option(opt), v)
	})
}

// Observe adds one sample (latency and requests in flight at time stamp now) and reports
// whether the server is saturated now.
func (s *SaturationSignal) Observe(now uint64, latency, inFlight float64) (bool, error) {
	return s.getBool("llmm_saturation_observe", func(c *C.llmm_saturation, sat *C.int32_t) C.llmm_status {
		return C.llmm_saturation_observe(c, C.uint64_t(now), C.double(latency), C.double(inFlight), sat)
	})
}

// Read returns the slopes, their standard errors and the verdict over the samples held.
func (s *SaturationSignal) Read() (SaturationReading, error) {
	r, err := read(&s.handle, "llmm_saturation_read", C.LLMM_STRUCT_SATURATION_READING,
		func(c *C.llmm_saturation, r *C.llmm_saturation_reading) C.llmm_status {
			return C.llmm_saturation_read(c, r)
		})
	if err != nil {
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
	return s.call("llmm_saturation_reset", func(c *C.llmm_saturation) C.llmm_status {
		return C.llmm_saturation_reset(c)
	})
}
