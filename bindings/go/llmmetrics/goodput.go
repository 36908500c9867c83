package llmmetrics

/*
#include <llmmetrics/slo.h>
*/
import "C"

import "time"

// GoodputOption is a per-request SLO bound of a [Goodput] counter, in the caller's latency
// unit; +Inf means "not checked". Bounds and defaults: Options(KindGoodput).
type GoodputOption int32

// The per-request bounds.
const (
	GoodputTTFTMax GoodputOption = C.LLMM_GOODPUT_TTFT_MAX // bound on the time to first token
	GoodputTPOTMax GoodputOption = C.LLMM_GOODPUT_TPOT_MAX // bound on the time per output token
	GoodputE2EMax  GoodputOption = C.LLMM_GOODPUT_E2E_MAX  // bound on the end-to-end latency
)

// GoodputResult is the goodput of the requests counted.
type GoodputResult struct {
	Requests       uint64  // all requests: completed and failed
	Completed      uint64  // requests that completed successfully
	Good           uint64  // completed requests meeting every bound set
	Fraction       float64 // Good / Requests
	RatePerS       float64 // good requests per second of the duration (vLLM's request_goodput)
	ThroughputPerS float64 // completed requests per second of the duration (vLLM's request_throughput)
}

// GoodputTPOT is vLLM's per-request time per output token: (e2e − ttft) / (outputTokens − 1)
// with at least two output tokens, else 0.
func GoodputTPOT(e2e, ttft float64, outputTokens uint64) (float64, error) {
	return f64Call("llmm_goodput_tpot", func(out *C.double) C.llmm_status {
		return C.llmm_goodput_tpot(C.double(e2e), C.double(ttft), C.uint64_t(outputTokens), out)
	})
}

// Goodput counts requests under vLLM's goodput rule: a request is good when it completed and
// each per-request bound set holds (value ≤ bound).
//
// A Goodput counter is used by one goroutine at a time. Close it when done; a finalizer
// closes a forgotten one.
type Goodput struct{ handle[C.llmm_goodput] }

// NewGoodput creates a counter with no bound set (every completed request is good).
func NewGoodput(opts ...Option) (*Goodput, error) {
	g := &Goodput{}
	return owned(g, g.open("llmm_goodput_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_goodput) C.llmm_status {
		return C.llmm_goodput_new(cctx, out)
	}))
}

// SetFloat64 sets a per-request bound (≥ 0, or +Inf to stop checking); only before the
// first request is counted (ErrState after).
func (g *Goodput) SetFloat64(opt GoodputOption, value float64) error {
	return g.call("llmm_goodput_set_f64", func(c *C.llmm_goodput) C.llmm_status {
		return C.llmm_goodput_set_f64(c, C.llmm_goodput_option(opt), C.double(value))
	})
}

// Float64 reads a per-request bound (+Inf when not checked).
func (g *Goodput) Float64(opt GoodputOption) (float64, error) {
	return g.getF64("llmm_goodput_get_f64", func(c *C.llmm_goodput, v *C.double) C.llmm_status {
		return C.llmm_goodput_get_f64(c, C.llmm_goodput_option(opt), v)
	})
}

// Observe counts one completed request and reports whether it was good.
func (g *Goodput) Observe(ttft, tpot, e2e float64) (bool, error) {
	return g.getBool("llmm_goodput_observe", func(c *C.llmm_goodput, good *C.int32_t) C.llmm_status {
		return C.llmm_goodput_observe(c, C.double(ttft), C.double(tpot), C.double(e2e), good)
	})
}

// AddFailures counts n failed requests (never good).
func (g *Goodput) AddFailures(n uint64) error {
	return g.call("llmm_goodput_add_failures", func(c *C.llmm_goodput) C.llmm_status {
		return C.llmm_goodput_add_failures(c, C.uint64_t(n))
	})
}

// Read returns the goodput of the requests counted, the rates over duration (the wall time
// they were served in, > 0); ErrEmpty when nothing was counted.
func (g *Goodput) Read(duration time.Duration) (GoodputResult, error) {
	const op = "llmm_goodput_read"
	d, err := durationArg(op, "duration", duration)
	if err != nil {
		return GoodputResult{}, err
	}
	r, err := read(&g.handle, op, C.LLMM_STRUCT_GOODPUT_RESULT, func(c *C.llmm_goodput, r *C.llmm_goodput_result) C.llmm_status {
		return C.llmm_goodput_read(c, d, r)
	})
	if err != nil {
		return GoodputResult{}, err
	}
	return GoodputResult{Requests: uint64(r.requests), Completed: uint64(r.completed), Good: uint64(r.good),
		Fraction: float64(r.fraction), RatePerS: float64(r.rate_per_s), ThroughputPerS: float64(r.throughput_per_s)}, nil
}

// Reset forgets the counts; the bounds stay.
func (g *Goodput) Reset() error {
	return g.call("llmm_goodput_reset", func(c *C.llmm_goodput) C.llmm_status {
		return C.llmm_goodput_reset(c)
	})
}
