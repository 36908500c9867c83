package llmmetrics

/*
#include <llmmetrics/llmmetrics.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// handle is the C object that a type of the package owns (T is its C type, C.llmm_spike ...):
// the object, nil once closed (or never made: the zero value), and the context it was made
// with. Every owning type embeds one as its first field, which gives it Close.
type handle[T any] struct {
	c   *T
	ctx *Context
}

// what names the object in errors ("sketch is closed").
func (h *handle[T]) what() string {
	switch any((*T)(nil)).(type) {
	case *C.llmm_sketch:
		return "sketch"
	case *C.llmm_recorder:
		return "recorder"
	case *C.llmm_window:
		return "window"
	case *C.llmm_ratio_window:
		return "ratio window"
	case *C.llmm_spike:
		return "spike detector"
	case *C.llmm_collapse:
		return "collapse detector"
	case *C.llmm_event_log:
		return "event log"
	case *C.llmm_stability:
		return "stability gate"
	case *C.llmm_saturation:
		return "saturation signal"
	case *C.llmm_slo_window:
		return "SLO window"
	case *C.llmm_goodput:
		return "goodput counter"
	case *C.llmm_burn:
		return "burn alerter"
	case *C.llmm_error_trigger:
		return "error trigger"
	case *C.llmm_scorecard:
		return "scorecard"
	case *C.llmm_prom_writer:
		return "writer"
	case *C.llmm_exemplars:
		return "exemplar store"
	case *C.llmm_kv_hit_tracker:
		return "tracker"
	case *C.llmm_host_sampler:
		return "host sampler"
	}
	return "monitor" // the LII, KV-hit and TLB monitors
}

// open makes the object with the C constructor make, from the context of opts.
func (h *handle[T]) open(op string, opts []Option, make func(*C.llmm_ctx, **T) C.llmm_status) error {
	ctx := collect(opts).ctx
	var c *T
	if err := ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status { return make(cctx, &c) }); err != nil {
		return err
	}
	h.c, h.ctx = c, ctx
	return nil
}

// Close frees the object. It is idempotent and always returns nil.
func (h *handle[T]) Close() error {
	if h.c == nil {
		return nil
	}
	freeObject((*T)(nil), unsafe.Pointer(h.c))
	h.c = nil
	h.ctx.release()
	h.ctx = nil
	// The handle is the first field of the object that embeds it: h is that object's address.
	runtime.SetFinalizer(h, nil)
	return nil
}

// freeObject frees the C object p, of the type of kind (a nil *C.llmm_... of the package).
// The type is matched on its own and p passed as an unsafe.Pointer: a pointer to an incomplete
// C type stored in an interface from generic code does not survive in Go 1.19.
func freeObject(kind any, p unsafe.Pointer) {
	switch kind.(type) {
	case *C.llmm_sketch:
		C.llmm_sketch_free((*C.llmm_sketch)(p))
	case *C.llmm_recorder:
		C.llmm_recorder_free((*C.llmm_recorder)(p))
	case *C.llmm_window:
		C.llmm_window_free((*C.llmm_window)(p))
	case *C.llmm_ratio_window:
		C.llmm_ratio_window_free((*C.llmm_ratio_window)(p))
	case *C.llmm_spike:
		C.llmm_spike_free((*C.llmm_spike)(p))
	case *C.llmm_collapse:
		C.llmm_collapse_free((*C.llmm_collapse)(p))
	case *C.llmm_event_log:
		C.llmm_event_log_free((*C.llmm_event_log)(p))
	case *C.llmm_stability:
		C.llmm_stability_free((*C.llmm_stability)(p))
	case *C.llmm_saturation:
		C.llmm_saturation_free((*C.llmm_saturation)(p))
	case *C.llmm_slo_window:
		C.llmm_slo_window_free((*C.llmm_slo_window)(p))
	case *C.llmm_goodput:
		C.llmm_goodput_free((*C.llmm_goodput)(p))
	case *C.llmm_burn:
		C.llmm_burn_free((*C.llmm_burn)(p))
	case *C.llmm_error_trigger:
		C.llmm_error_trigger_free((*C.llmm_error_trigger)(p))
	case *C.llmm_scorecard:
		C.llmm_scorecard_free((*C.llmm_scorecard)(p))
	case *C.llmm_lii_monitor:
		C.llmm_lii_monitor_free((*C.llmm_lii_monitor)(p))
	case *C.llmm_kv_hit_tracker:
		C.llmm_kv_hit_tracker_free((*C.llmm_kv_hit_tracker)(p))
	case *C.llmm_tlb_monitor:
		C.llmm_tlb_monitor_free((*C.llmm_tlb_monitor)(p))
	case *C.llmm_prom_writer:
		C.llmm_prom_writer_free((*C.llmm_prom_writer)(p))
	case *C.llmm_exemplars:
		C.llmm_exemplars_free((*C.llmm_exemplars)(p))
	case *C.llmm_host_sampler:
		C.llmm_host_sampler_free((*C.llmm_host_sampler)(p))
	default:
		panic("llmmetrics: no free for this object")
	}
}

// call runs f on the live object and returns its status as an error (ErrState once closed).
func (h *handle[T]) call(op string, f func(*T) C.llmm_status) error {
	if h.c == nil {
		return errClosed(op, h.what())
	}
	st := f(h.c)
	runtime.KeepAlive(h)
	return check(op, st)
}

// getF64 runs a getter that writes one double.
func (h *handle[T]) getF64(op string, f func(*T, *C.double) C.llmm_status) (float64, error) {
	var v C.double
	err := h.call(op, func(c *T) C.llmm_status { return f(c, &v) })
	return float64(v), err
}

// getU64 runs a getter that writes one uint64_t.
func (h *handle[T]) getU64(op string, f func(*T, *C.uint64_t) C.llmm_status) (uint64, error) {
	var v C.uint64_t
	err := h.call(op, func(c *T) C.llmm_status { return f(c, &v) })
	return uint64(v), err
}

// getBool runs a call that writes one int32_t flag.
func (h *handle[T]) getBool(op string, f func(*T, *C.int32_t) C.llmm_status) (bool, error) {
	var v C.int32_t
	err := h.call(op, func(c *T) C.llmm_status { return f(c, &v) })
	return v != 0, err
}

// counts runs a call that writes three uint64_t counts.
func (h *handle[T]) counts(op string, f func(*T, *C.uint64_t, *C.uint64_t, *C.uint64_t) C.llmm_status) (a, b, c uint64, err error) {
	var x, y, z C.uint64_t
	err = h.call(op, func(p *T) C.llmm_status { return f(p, &x, &y, &z) })
	return uint64(x), uint64(y), uint64(z), err
}

// owned returns p, newly made, with a finalizer that closes it; or nil and err when making
// it failed.
func owned[P interface{ Close() error }](p P, err error) (P, error) {
	if err != nil {
		var none P
		return none, err
	}
	runtime.SetFinalizer(p, func(p P) { p.Close() })
	return p, nil
}

// read runs f on the live object of h with a caller-sized struct of kind, set up by the library
// at the package's size of it (initStruct), and returns the struct f filled.
func read[T, S any](h *handle[T], op string, kind C.llmm_struct_kind, f func(*T, *S) C.llmm_status) (S, error) {
	var s S
	if err := initStruct(kind, unsafe.Pointer(&s), C.size_t(unsafe.Sizeof(s))); err != nil {
		return s, err
	}
	err := h.call(op, func(c *T) C.llmm_status { return f(c, &s) })
	return s, err
}
