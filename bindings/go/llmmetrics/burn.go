package llmmetrics

/*
#include <llmmetrics/slo.h>
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// Defaults of a [BurnAlerter].
const (
	BurnSlotDefault = 10 * time.Second // slot length used for 0
	BurnWindows     = 4                // windows reported by Evaluate, indexed by BurnWindow
)

// BurnWindow indexes the windows of a [BurnResult].
type BurnWindow int32

// The burn-rate windows.
const (
	BurnFastLong  BurnWindow = C.LLMM_BURN_FAST_LONG  // fast alert, long window (1 h)
	BurnFastShort BurnWindow = C.LLMM_BURN_FAST_SHORT // fast alert, short window (5 min)
	BurnSlowLong  BurnWindow = C.LLMM_BURN_SLOW_LONG  // slow alert, long window (6 h)
	BurnSlowShort BurnWindow = C.LLMM_BURN_SLOW_SHORT // slow alert, short window (30 min)
)

// BurnOption is a tunable of a [BurnAlerter]: the float options are set with SetFloat64, the
// window lengths (nanoseconds) with SetUint64; types, bounds and defaults: Options(KindBurn).
type BurnOption int32

// The burn-rate alerter options.
const (
	BurnSLOTarget   BurnOption = C.LLMM_BURN_SLO_TARGET    // float: SLO target T, set at creation
	BurnFastFactor  BurnOption = C.LLMM_BURN_FAST_FACTOR   // float: the fast alert's burn-rate factor
	BurnSlowFactor  BurnOption = C.LLMM_BURN_SLOW_FACTOR   // float: the slow alert's burn-rate factor
	BurnFastLongNs  BurnOption = C.LLMM_BURN_FAST_LONG_NS  // integer: the fast alert's long window
	BurnFastShortNs BurnOption = C.LLMM_BURN_FAST_SHORT_NS // integer: the fast alert's short window
	BurnSlowLongNs  BurnOption = C.LLMM_BURN_SLOW_LONG_NS  // integer: the slow alert's long window
	BurnSlowShortNs BurnOption = C.LLMM_BURN_SLOW_SHORT_NS // integer: the slow alert's short window
)

// BurnWindowResult is one window's part of a [BurnResult].
type BurnWindowResult struct {
	Requests  uint64  // requests counted in the window
	Errors    uint64  // failed requests in the window
	ErrorRate float64 // Errors / Requests; 0 for an idle window
	BurnRate  float64 // ErrorRate / (1 − T)
}

// BurnResult holds the burn rates of the four windows and the two alerts.
type BurnResult struct {
	FastAlert bool                          // both fast windows burn faster than the fast factor
	SlowAlert bool                          // both slow windows burn faster than the slow factor
	Windows   [BurnWindows]BurnWindowResult // indexed by BurnWindow
}

// BurnRate is the burn rate of an error rate against an SLO target T: errorRate / (1 − T).
func BurnRate(errorRate, sloTarget float64) (float64, error) {
	return f64Call("llmm_burn_rate", func(out *C.double) C.llmm_status {
		return C.llmm_burn_rate(C.double(errorRate), C.double(sloTarget), out)
	})
}

// BurnBudgetSpent is the share of an SLO period's error budget that a window burning at
// burnRate spends: burnRate · window / period (14.4 over 1 h of 30 days: 0.02).
func BurnBudgetSpent(burnRate float64, window, period time.Duration) (float64, error) {
	const op = "llmm_burn_budget_spent"
	w, err := durationArg(op, "window", window)
	if err != nil {
		return 0, err
	}
	p, err := durationArg(op, "period", period)
	if err != nil {
		return 0, err
	}
	return f64Call(op, func(out *C.double) C.llmm_status {
		return C.llmm_burn_budget_spent(C.double(burnRate), w, p, out)
	})
}

// BurnAlerter raises the SRE workbook's multi-window burn-rate alerts (fast: 1 h and 5 min
// above 14.4; slow: 6 h and 30 min above 6) from error and request counts on the caller's
// clock.
//
// A BurnAlerter is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type BurnAlerter struct {
	c   *C.llmm_burn
	ctx *Context
}

// NewBurnAlerter creates an alerter for an SLO target T in (0, 1) (say 0.999) on a ring of
// slots slots of length slot (0 and 0 for 10 s slots holding 6 h).
func NewBurnAlerter(sloTarget float64, slot time.Duration, slots int, opts ...Option) (*BurnAlerter, error) {
	const op = "llmm_burn_new"
	o := collect(opts)
	slotNs, err := durationArg(op, "slot length", slot)
	if err != nil {
		return nil, err
	}
	n, err := slotsArg(op, slots)
	if err != nil {
		return nil, err
	}
	var c *C.llmm_burn
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_burn_new(cctx, C.double(sloTarget), slotNs, n, &c)
	}); err != nil {
		return nil, err
	}
	b := &BurnAlerter{c: c, ctx: o.ctx}
	runtime.SetFinalizer(b, (*BurnAlerter).Close)
	return b, nil
}

// Close frees the alerter. It is idempotent and always returns nil.
func (b *BurnAlerter) Close() error {
	if b.c == nil {
		return nil
	}
	C.llmm_burn_free(b.c)
	b.c = nil
	b.ctx.release()
	b.ctx = nil
	runtime.SetFinalizer(b, nil)
	return nil
}

// SetFloat64 sets the SLO target or a factor.
func (b *BurnAlerter) SetFloat64(opt BurnOption, value float64) error {
	if b.c == nil {
		return errClosed("llmm_burn_set_f64", "burn alerter")
	}
	st := C.llmm_burn_set_f64(b.c, C.llmm_burn_option(opt), C.double(value))
	runtime.KeepAlive(b)
	return check("llmm_burn_set_f64", st)
}

// Float64 reads the SLO target or a factor.
func (b *BurnAlerter) Float64(opt BurnOption) (float64, error) {
	if b.c == nil {
		return 0, errClosed("llmm_burn_get_f64", "burn alerter")
	}
	var v C.double
	st := C.llmm_burn_get_f64(b.c, C.llmm_burn_option(opt), &v)
	runtime.KeepAlive(b)
	return float64(v), check("llmm_burn_get_f64", st)
}

// SetUint64 sets a window length in nanoseconds; a long window may not be shorter than its
// short window nor longer than the ring.
func (b *BurnAlerter) SetUint64(opt BurnOption, value uint64) error {
	if b.c == nil {
		return errClosed("llmm_burn_set_u64", "burn alerter")
	}
	st := C.llmm_burn_set_u64(b.c, C.llmm_burn_option(opt), C.uint64_t(value))
	runtime.KeepAlive(b)
	return check("llmm_burn_set_u64", st)
}

// Uint64 reads a window length in nanoseconds.
func (b *BurnAlerter) Uint64(opt BurnOption) (uint64, error) {
	if b.c == nil {
		return 0, errClosed("llmm_burn_get_u64", "burn alerter")
	}
	var v C.uint64_t
	st := C.llmm_burn_get_u64(b.c, C.llmm_burn_option(opt), &v)
	runtime.KeepAlive(b)
	return uint64(v), check("llmm_burn_get_u64", st)
}

// Add counts errors failed requests out of requests (errors ≤ requests) at time stamp now.
func (b *BurnAlerter) Add(now, errors, requests uint64) error {
	if b.c == nil {
		return errClosed("llmm_burn_add", "burn alerter")
	}
	st := C.llmm_burn_add(b.c, C.uint64_t(now), C.uint64_t(errors), C.uint64_t(requests))
	runtime.KeepAlive(b)
	return check("llmm_burn_add", st)
}

// Evaluate returns the burn rates of the four windows at time now and the two alerts.
func (b *BurnAlerter) Evaluate(now uint64) (BurnResult, error) {
	if b.c == nil {
		return BurnResult{}, errClosed("llmm_burn_evaluate", "burn alerter")
	}
	var r C.llmm_burn_result
	if err := initStruct(C.LLMM_STRUCT_BURN_RESULT, unsafe.Pointer(&r), C.sizeof_llmm_burn_result); err != nil {
		return BurnResult{}, err
	}
	st := C.llmm_burn_evaluate(b.c, C.uint64_t(now), &r)
	runtime.KeepAlive(b)
	if err := check("llmm_burn_evaluate", st); err != nil {
		return BurnResult{}, err
	}
	res := BurnResult{FastAlert: r.fast_alert != 0, SlowAlert: r.slow_alert != 0}
	for i := range res.Windows {
		res.Windows[i] = BurnWindowResult{Requests: uint64(r.requests[i]), Errors: uint64(r.errors[i]),
			ErrorRate: float64(r.error_rate[i]), BurnRate: float64(r.burn_rate[i])}
	}
	return res, nil
}

// Reset forgets every count and the clock; the options stay.
func (b *BurnAlerter) Reset() error {
	if b.c == nil {
		return errClosed("llmm_burn_reset", "burn alerter")
	}
	st := C.llmm_burn_reset(b.c)
	runtime.KeepAlive(b)
	return check("llmm_burn_reset", st)
}

// Defaults of an [ErrorTrigger].
const (
	ErrorTriggerWindowDefault   = 5 * time.Minute // window used for 0
	ErrorTriggerMaxShareDefault = 0.05            // default threshold on the failed share
	ErrorTriggerSlots           = 60              // slots the window is divided into
)

// ErrorTriggerOption is a tunable of an [ErrorTrigger].
type ErrorTriggerOption int32

// The error trigger options; types, bounds and defaults: Options(KindErrorTrigger).
const (
	ErrorTriggerMaxShare    ErrorTriggerOption = C.LLMM_ERROR_TRIGGER_MAX_SHARE    // float: fire above this share
	ErrorTriggerMinRequests ErrorTriggerOption = C.LLMM_ERROR_TRIGGER_MIN_REQUESTS // integer: fire only with at least this many requests
)

// ErrorTriggerReading is what an [ErrorTrigger] reads over its window.
type ErrorTriggerReading struct {
	Fired    bool    // Share > the threshold and Requests ≥ the minimum
	Errors   uint64  // failed requests in the window
	Requests uint64  // all requests in the window
	Share    float64 // Errors / Requests
}

// ErrorTrigger fires when the share of failed requests over the last window exceeds a
// threshold: by default "5xx share over the last 5 min > 5 %", a self-healing trigger.
//
// An ErrorTrigger is used by one goroutine at a time. Close it when done; a finalizer closes
// a forgotten one.
type ErrorTrigger struct {
	c   *C.llmm_error_trigger
	ctx *Context
}

// NewErrorTrigger creates a trigger over window (0 for [ErrorTriggerWindowDefault]) with the
// default threshold and minimum.
func NewErrorTrigger(window time.Duration, opts ...Option) (*ErrorTrigger, error) {
	const op = "llmm_error_trigger_new"
	o := collect(opts)
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	var c *C.llmm_error_trigger
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_error_trigger_new(cctx, w, &c)
	}); err != nil {
		return nil, err
	}
	t := &ErrorTrigger{c: c, ctx: o.ctx}
	runtime.SetFinalizer(t, (*ErrorTrigger).Close)
	return t, nil
}

// Close frees the trigger. It is idempotent and always returns nil.
func (t *ErrorTrigger) Close() error {
	if t.c == nil {
		return nil
	}
	C.llmm_error_trigger_free(t.c)
	t.c = nil
	t.ctx.release()
	t.ctx = nil
	runtime.SetFinalizer(t, nil)
	return nil
}

// SetFloat64 sets the threshold.
func (t *ErrorTrigger) SetFloat64(opt ErrorTriggerOption, value float64) error {
	if t.c == nil {
		return errClosed("llmm_error_trigger_set_f64", "error trigger")
	}
	st := C.llmm_error_trigger_set_f64(t.c, C.llmm_error_trigger_option(opt), C.double(value))
	runtime.KeepAlive(t)
	return check("llmm_error_trigger_set_f64", st)
}

// Float64 reads the threshold.
func (t *ErrorTrigger) Float64(opt ErrorTriggerOption) (float64, error) {
	if t.c == nil {
		return 0, errClosed("llmm_error_trigger_get_f64", "error trigger")
	}
	var v C.double
	st := C.llmm_error_trigger_get_f64(t.c, C.llmm_error_trigger_option(opt), &v)
	runtime.KeepAlive(t)
	return float64(v), check("llmm_error_trigger_get_f64", st)
}

// SetUint64 sets the minimum request count.
func (t *ErrorTrigger) SetUint64(opt ErrorTriggerOption, value uint64) error {
	if t.c == nil {
		return errClosed("llmm_error_trigger_set_u64", "error trigger")
	}
	st := C.llmm_error_trigger_set_u64(t.c, C.llmm_error_trigger_option(opt), C.uint64_t(value))
	runtime.KeepAlive(t)
	return check("llmm_error_trigger_set_u64", st)
}

// Uint64 reads the minimum request count.
func (t *ErrorTrigger) Uint64(opt ErrorTriggerOption) (uint64, error) {
	if t.c == nil {
		return 0, errClosed("llmm_error_trigger_get_u64", "error trigger")
	}
	var v C.uint64_t
	st := C.llmm_error_trigger_get_u64(t.c, C.llmm_error_trigger_option(opt), &v)
	runtime.KeepAlive(t)
	return uint64(v), check("llmm_error_trigger_get_u64", st)
}

// Add counts errors failed requests out of requests at time stamp now.
func (t *ErrorTrigger) Add(now, errors, requests uint64) error {
	if t.c == nil {
		return errClosed("llmm_error_trigger_add", "error trigger")
	}
	st := C.llmm_error_trigger_add(t.c, C.uint64_t(now), C.uint64_t(errors), C.uint64_t(requests))
	runtime.KeepAlive(t)
	return check("llmm_error_trigger_add", st)
}

// Check reads the failed share over the window ending at now and whether it fires
// (ErrEmpty without a request in the window).
func (t *ErrorTrigger) Check(now uint64) (ErrorTriggerReading, error) {
	if t.c == nil {
		return ErrorTriggerReading{}, errClosed("llmm_error_trigger_check", "error trigger")
	}
	var r C.llmm_error_trigger_reading
	if err := initStruct(C.LLMM_STRUCT_ERROR_TRIGGER_READING, unsafe.Pointer(&r), C.sizeof_llmm_error_trigger_reading); err != nil {
		return ErrorTriggerReading{}, err
	}
	st := C.llmm_error_trigger_check(t.c, C.uint64_t(now), &r)
	runtime.KeepAlive(t)
	if err := check("llmm_error_trigger_check", st); err != nil {
		return ErrorTriggerReading{}, err
	}
	return ErrorTriggerReading{Fired: r.fired != 0, Errors: uint64(r.errors), Requests: uint64(r.requests),
		Share: float64(r.share)}, nil
}

// Reset forgets every count and the clock; the options stay.
func (t *ErrorTrigger) Reset() error {
	if t.c == nil {
		return errClosed("llmm_error_trigger_reset", "error trigger")
	}
	st := C.llmm_error_trigger_reset(t.c)
	runtime.KeepAlive(t)
	return check("llmm_error_trigger_reset", st)
}
