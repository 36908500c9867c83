package llmmetrics

/*
#include <llmmetrics/slo.h>
*/
import "C"

import "time"

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
type BurnAlerter struct{ handle[C.llmm_burn] }

// NewBurnAlerter creates an alerter for an SLO target T in (0, 1) (say 0.999) on a ring of
// slots slots of length slot (0 and 0 for 10 s slots holding 6 h).
func NewBurnAlerter(sloTarget float64, slot time.Duration, slots int, opts ...Option) (*BurnAlerter, error) {
	b := &BurnAlerter{}
	return owned(b, openSlots(&b.handle, "llmm_burn_new", slot, slots, opts,
		func(cctx *C.llmm_ctx, slotNs C.uint64_t, n C.uint32_t, out **C.llmm_burn) C.llmm_status {
			return C.llmm_burn_new(cctx, C.double(sloTarget), slotNs, n, out)
		}))
}

// SetFloat64 sets the SLO target or a factor.
func (b *BurnAlerter) SetFloat64(opt BurnOption, value float64) error {
	return b.call("llmm_burn_set_f64", func(c *C.llmm_burn) C.llmm_status {
		return C.llmm_burn_set_f64(c, C.llmm_burn_option(opt), C.double(value))
	})
}

// Float64 reads the SLO target or a factor.
func (b *BurnAlerter) Float64(opt BurnOption) (float64, error) {
	return b.getF64("llmm_burn_get_f64", func(c *C.llmm_burn, v *C.double) C.llmm_status {
		return C.llmm_burn_get_f64(c, C.llmm_burn_option(opt), v)
	})
}

// SetUint64 sets a window length in nanoseconds; a long window may not be shorter than its
// short window nor longer than the ring.
func (b *BurnAlerter) SetUint64(opt BurnOption, value uint64) error {
	return b.call("llmm_burn_set_u64", func(c *C.llmm_burn) C.llmm_status {
		return C.llmm_burn_set_u64(c, C.llmm_burn_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads a window length in nanoseconds.
func (b *BurnAlerter) Uint64(opt BurnOption) (uint64, error) {
	return b.getU64("llmm_burn_get_u64", func(c *C.llmm_burn, v *C.uint64_t) C.llmm_status {
		return C.llmm_burn_get_u64(c, C.llmm_burn_option(opt), v)
	})
}

// Add counts errors failed requests out of requests (errors ≤ requests) at time stamp now.
func (b *BurnAlerter) Add(now, errors, requests uint64) error {
	return b.call("llmm_burn_add", func(c *C.llmm_burn) C.llmm_status {
		return C.llmm_burn_add(c, C.uint64_t(now), C.uint64_t(errors), C.uint64_t(requests))
	})
}

// Evaluate returns the burn rates of the four windows at time now and the two alerts.
func (b *BurnAlerter) Evaluate(now uint64) (BurnResult, error) {
	r, err := read(&b.handle, "llmm_burn_evaluate", C.LLMM_STRUCT_BURN_RESULT,
		func(c *C.llmm_burn, r *C.llmm_burn_result) C.llmm_status {
			return C.llmm_burn_evaluate(c, C.uint64_t(now), r)
		})
	if err != nil {
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
	return b.call("llmm_burn_reset", func(c *C.llmm_burn) C.llmm_status {
		return C.llmm_burn_reset(c)
	})
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
type ErrorTrigger struct{ handle[C.llmm_error_trigger] }

// NewErrorTrigger creates a trigger over window (0 for [ErrorTriggerWindowDefault]) with the
// default threshold and minimum.
func NewErrorTrigger(window time.Duration, opts ...Option) (*ErrorTrigger, error) {
	const op = "llmm_error_trigger_new"
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	t := &ErrorTrigger{}
	return owned(t, t.open(op, opts, func(cctx *C.llmm_ctx, out **C.llmm_error_trigger) C.llmm_status {
		return C.llmm_error_trigger_new(cctx, w, out)
	}))
}

// SetFloat64 sets the threshold.
func (t *ErrorTrigger) SetFloat64(opt ErrorTriggerOption, value float64) error {
	return t.call("llmm_error_trigger_set_f64", func(c *C.llmm_error_trigger) C.llmm_status {
		return C.llmm_error_trigger_set_f64(c, C.llmm_error_trigger_option(opt), C.double(value))
	})
}

// Float64 reads the threshold.
func (t *ErrorTrigger) Float64(opt ErrorTriggerOption) (float64, error) {
	return t.getF64("llmm_error_trigger_get_f64", func(c *C.llmm_error_trigger, v *C.double) C.llmm_status {
		return C.llmm_error_trigger_get_f64(c, C.llmm_error_trigger_option(opt), v)
	})
}

// SetUint64 sets the minimum request count.
func (t *ErrorTrigger) SetUint64(opt ErrorTriggerOption, value uint64) error {
	return t.call("llmm_error_trigger_set_u64", func(c *C.llmm_error_trigger) C.llmm_status {
		return C.llmm_error_trigger_set_u64(c, C.llmm_error_trigger_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads the minimum request count.
func (t *ErrorTrigger) Uint64(opt ErrorTriggerOption) (uint64, error) {
	return t.getU64("llmm_error_trigger_get_u64", func(c *C.llmm_error_trigger, v *C.uint64_t) C.llmm_status {
		return C.llmm_error_trigger_get_u64(c, C.llmm_error_trigger_option(opt), v)
	})
}

// Add counts errors failed requests out of requests at time stamp now.
func (t *ErrorTrigger) Add(now, errors, requests uint64) error {
	return t.call("llmm_error_trigger_add", func(c *C.llmm_error_trigger) C.llmm_status {
		return C.llmm_error_trigger_add(c, C.uint64_t(now), C.uint64_t(errors), C.uint64_t(requests))
	})
}

// Check reads the failed share over the window ending at now and whether it fires
// (ErrEmpty without a request in the window).
func (t *ErrorTrigger) Check(now uint64) (ErrorTriggerReading, error) {
	r, err := read(&t.handle, "llmm_error_trigger_check", C.LLMM_STRUCT_ERROR_TRIGGER_READING,
		func(c *C.llmm_error_trigger, r *C.llmm_error_trigger_reading) C.llmm_status {
			return C.llmm_error_trigger_check(c, C.uint64_t(now), r)
		})
	if err != nil {
		return ErrorTriggerReading{}, err
	}
	return ErrorTriggerReading{Fired: r.fired != 0, Errors: uint64(r.errors), Requests: uint64(r.requests),
		Share: float64(r.share)}, nil
}

// Reset forgets every count and the clock; the options stay.
func (t *ErrorTrigger) Reset() error {
	return t.call("llmm_error_trigger_reset", func(c *C.llmm_error_trigger) C.llmm_status {
		return C.llmm_error_trigger_reset(c)
	})
}
