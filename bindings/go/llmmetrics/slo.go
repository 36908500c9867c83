package llmmetrics

/*
#include <llmmetrics/slo.h>
*/
import "C"

import "time"

// SLOResult is the verdict of an SLO check: satisfied when the latency quantile and the
// error rate are both within their bounds (equality included).
type SLOResult struct {
	Satisfied bool    // LatencyOK && ErrorsOK
	LatencyOK bool    // there was a success and Latency ≤ the latency bound
	ErrorsOK  bool    // ErrorRate ≤ the error-rate bound
	Successes uint64  // successful requests (the latencies' count)
	Errors    uint64  // failed requests
	Quantile  float64 // the quantile level checked (0.95 for SLOCheck)
	Latency   float64 // that quantile of the successful latencies; +Inf without a success
	ErrorRate float64 // Errors / (Successes + Errors); 0 without a request
}

func sloResultOf(r *C.llmm_slo_result) SLOResult {
	return SLOResult{
		Satisfied: r.satisfied != 0,
		LatencyOK: r.latency_ok != 0,
		ErrorsOK:  r.errors_ok != 0,
		Successes: uint64(r.successes),
		Errors:    uint64(r.errors),
		Quantile:  float64(r.quantile),
		Latency:   float64(r.latency),
		ErrorRate: float64(r.error_rate),
	}
}

// sloCall runs an SLO check of the object of h into a fresh result.
func sloCall[T any](h *handle[T], op string, f func(*T, *C.llmm_slo_result) C.llmm_status) (SLOResult, error) {
	r, err := read(h, op, C.LLMM_STRUCT_SLO_RESULT, f)
	if err != nil {
		return SLOResult{}, err
	}
	return sloResultOf(&r), nil
}

// SLOCheck is the online SLO check of doc/spec.md §2 over a sketch of the successful requests'
// latencies and a count of failed requests: p95 ≤ p95Max (in the sketch's unit) and
// errors / (successes + errors) ≤ errMax.
func SLOCheck(okLatencies *Sketch, errors uint64, p95Max, errMax float64) (SLOResult, error) {
	const op = "llmm_slo_check"
	if okLatencies == nil {
		return SLOResult{}, errClosed(op, "sketch")
	}
	return sloCall(&okLatencies.handle, op, func(c *C.llmm_sketch, r *C.llmm_slo_result) C.llmm_status {
		return C.llmm_slo_check(c, C.uint64_t(errors), C.double(p95Max), C.double(errMax), r)
	})
}

// SLOCheckQuantile is [SLOCheck] at any quantile level q in [0, 1].
func SLOCheckQuantile(okLatencies *Sketch, errors uint64, q, latencyMax, errMax float64) (SLOResult, error) {
	const op = "llmm_slo_check_quantile"
	if okLatencies == nil {
		return SLOResult{}, errClosed(op, "sketch")
	}
	return sloCall(&okLatencies.handle, op, func(c *C.llmm_sketch, r *C.llmm_slo_result) C.llmm_status {
		return C.llmm_slo_check_quantile(c, C.uint64_t(errors), C.double(q), C.double(latencyMax), C.double(errMax), r)
	})
}

// SLOWindow records each request as it completes — the latency of a success, or a failure —
// on a time ring, and runs the SLO check over any recent span: the verdict is exactly
// [SLOCheckQuantile]'s for the requests recorded in the slots the span covers.
//
// An SLOWindow is used by one goroutine at a time (checks advance its clock). Close it when
// done; a finalizer closes a forgotten one.
type SLOWindow struct{ handle[C.llmm_slo_window] }

// NewSLOWindow creates an SLO window of slots slots of length slot (0 for the defaults, 60 ×
// 1 s) with latency sketches of the given scale.
func NewSLOWindow(slot time.Duration, slots, scale int, opts ...Option) (*SLOWindow, error) {
	w := &SLOWindow{}
	return owned(w, openRing(&w.handle, "llmm_slo_window_new", slot, slots, scale, opts,
		func(cctx *C.llmm_ctx, slotNs C.uint64_t, n C.uint32_t, sc C.int32_t, out **C.llmm_slo_window) C.llmm_status {
			return C.llmm_slo_window_new(cctx, slotNs, n, sc, out)
		}))
}

// Add records a successful request and its latency at time stamp now.
func (w *SLOWindow) Add(now uint64, latency float64) error {
	return w.call("llmm_slo_window_add", func(c *C.llmm_slo_window) C.llmm_status {
		return C.llmm_slo_window_add(c, C.uint64_t(now), C.double(latency))
	})
}

// AddErrors records n failed requests at time stamp now (0 only advances the clock).
func (w *SLOWindow) AddErrors(now, n uint64) error {
	return w.call("llmm_slo_window_add_errors", func(c *C.llmm_slo_window) C.llmm_status {
		return C.llmm_slo_window_add_errors(c, C.uint64_t(now), C.uint64_t(n))
	})
}

// Check runs the SLO check at quantile q over the slots that span covers at time now (q =
// 0.95 for the check of doc/spec.md §2). An idle span is not satisfied.
func (w *SLOWindow) Check(now uint64, span time.Duration, q, latencyMax, errMax float64) (SLOResult, error) {
	const op = "llmm_slo_window_check"
	s, err := durationArg(op, "span", span)
	if err != nil && w.c != nil {
		return SLOResult{}, err
	}
	return sloCall(&w.handle, op, func(c *C.llmm_slo_window, r *C.llmm_slo_result) C.llmm_status {
		return C.llmm_slo_window_check(c, C.uint64_t(now), s, C.double(q), C.double(latencyMax), C.double(errMax), r)
	})
}

// Reset forgets every request and the clock.
func (w *SLOWindow) Reset() error {
	return w.call("llmm_slo_window_reset", func(c *C.llmm_slo_window) C.llmm_status {
		return C.llmm_slo_window_reset(c)
	})
}
