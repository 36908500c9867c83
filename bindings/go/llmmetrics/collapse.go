package llmmetrics

/*
#include <llmmetrics/detect.h>
*/
import "C"

// Limits of the detectors.
const (
	CollapseWindowDefault = 8     // default baseline length W of a CollapseDetector
	CollapseWindowMax     = 4096  // largest baseline length W
	DetectValueMax        = 1e100 // largest latency, throughput or in-flight count the detectors accept (LLMM_DETECT_VALUE_MAX)
)

// CollapseOption is a tunable of a [CollapseDetector]: the float options are set with
// SetFloat64, the integer ones with SetUint64; types, bounds and defaults:
// Options(KindCollapse).
type CollapseOption int32

// The collapse detector options.
const (
	CollapseWindow        CollapseOption = C.LLMM_COLLAPSE_WINDOW         // W, latencies in the baseline; only while no latency is held
	CollapseK             CollapseOption = C.LLMM_COLLAPSE_K              // k in mean + k·σ
	CollapseSigmaFloor    CollapseOption = C.LLMM_COLLAPSE_SIGMA_FLOOR    // σ ≥ this share of the mean
	CollapseSwitchNs      CollapseOption = C.LLMM_COLLAPSE_SWITCH_NS      // latencies this soon after a switch are matched to it
	CollapseRequireSwitch CollapseOption = C.LLMM_COLLAPSE_REQUIRE_SWITCH // 1: only outliers matched to a switch are collapsed (0: every outlier)
	CollapseTPSDrop       CollapseOption = C.LLMM_COLLAPSE_TPS_DROP       // the TPS signal confirms above this drop
	CollapseMembwBelow    CollapseOption = C.LLMM_COLLAPSE_MEMBW_BELOW    // the memory-bandwidth signal confirms below this utilisation
	CollapseConfirmNs     CollapseOption = C.LLMM_COLLAPSE_CONFIRM_NS     // TPS and bandwidth readings this soon after a switch are matched to it
)

// CollapseVerdict is the verdict on one latency ([CollapseDetector.ObserveDetail]).
type CollapseVerdict struct {
	Collapsed     bool    // outlier and, if required, matched to a switch
	Ready         bool    // a baseline of W earlier latencies existed
	Outlier       bool    // latency > Threshold, whatever the switch
	AfterSwitch   bool    // at most the switch interval after the latest switch
	Floored       bool    // σ was raised to its floor
	Mean          float64 // baseline mean; 0 when not ready
	Sigma         float64 // baseline σ after the floor; 0 when not ready
	Threshold     float64 // Mean + k·Sigma; 0 when not ready
	SinceSwitchNs uint64  // now − the latest switch; math.MaxUint64 when none was marked
	Samples       uint64  // latencies observed since creation or Reset, this one included
}

// CollapseReport is the confirmation matrix of the latest switch: each signal on its own.
type CollapseReport struct {
	Signals          int     // confirmed signals among latency, TPS and memory bandwidth: 0 … 3
	LatencyConfirmed bool    // a latency matched to the switch was collapsed
	TPSKnown         bool    // a reading before and one after the switch, before > 0
	TPSConfirmed     bool    // TPSKnown and TPSDrop above the TPS option
	MembwKnown       bool    // a memory-bandwidth reading after the switch
	MembwConfirmed   bool    // MembwKnown and Membw below the bandwidth option
	Open             bool    // the matching intervals are still open: the report may change
	SwitchNs         uint64  // time stamp of the switch
	Latencies        uint64  // latencies matched to the switch
	Flagged          uint64  // of those, collapsed
	TPSBefore        float64 // last TPS reading before the switch; 0 when none
	TPSAfter         float64 // lowest TPS reading matched to the switch; 0 when none
	TPSDrop          float64 // 1 − TPSAfter / TPSBefore when TPSKnown, else 0
	Membw            float64 // lowest utilisation matched to the switch; 0 when none
}

// CollapseDetector flags throughput collapses around weight-precision switches (doc/spec.md §7): a
// batch latency above mean + k·σ of the W latencies before it, arriving within 10 ms of a
// switch, with optional TPS-drop and memory-bandwidth confirmation.
//
// A CollapseDetector is used by one goroutine at a time. Close it when done; a finalizer
// closes a forgotten one.
type CollapseDetector struct{ handle[C.llmm_collapse] }

// NewCollapseDetector creates a detector with the default options (Options(KindCollapse)).
func NewCollapseDetector(opts ...Option) (*CollapseDetector, error) {
	d := &CollapseDetector{}
	return owned(d, d.open("llmm_collapse_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_new(cctx, out)
	}))
}

// SetFloat64 sets a float option.
func (d *CollapseDetector) SetFloat64(opt CollapseOption, value float64) error {
	return d.call("llmm_collapse_set_f64", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_set_f64(c, C.llmm_collapse_option(opt), C.double(value))
	})
}

// Float64 reads a float option.
func (d *CollapseDetector) Float64(opt CollapseOption) (float64, error) {
	return d.getF64("llmm_collapse_get_f64", func(c *C.llmm_collapse, v *C.double) C.llmm_status {
		return C.llmm_collapse_get_f64(c, C.llmm_collapse_option(opt), v)
	})
}

// SetUint64 sets an integer option.
func (d *CollapseDetector) SetUint64(opt CollapseOption, value uint64) error {
	return d.call("llmm_collapse_set_u64", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_set_u64(c, C.llmm_collapse_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads an integer option.
func (d *CollapseDetector) Uint64(opt CollapseOption) (uint64, error) {
	return d.getU64("llmm_collapse_get_u64", func(c *C.llmm_collapse, v *C.uint64_t) C.llmm_status {
		return C.llmm_collapse_get_u64(c, C.llmm_collapse_option(opt), v)
	})
}

// MarkSwitch marks a weight (precision) switch at time stamp now; it replaces any earlier one.
func (d *CollapseDetector) MarkSwitch(now uint64) error {
	return d.call("llmm_collapse_mark_switch", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_mark_switch(c, C.uint64_t(now))
	})
}

// Observe judges one batch latency against the W before it, then adds it to the window, and
// reports whether it is collapsed.
func (d *CollapseDetector) Observe(now uint64, latency float64) (bool, error) {
	return d.getBool("llmm_collapse_observe", func(c *C.llmm_collapse, collapsed *C.int32_t) C.llmm_status {
		return C.llmm_collapse_observe(c, C.uint64_t(now), C.double(latency), collapsed)
	})
}

// ObserveDetail is [CollapseDetector.Observe] with the whole verdict.
func (d *CollapseDetector) ObserveDetail(now uint64, latency float64) (CollapseVerdict, error) {
	v, err := read(&d.handle, "llmm_collapse_observe_ex", C.LLMM_STRUCT_COLLAPSE_VERDICT,
		func(c *C.llmm_collapse, v *C.llmm_collapse_verdict) C.llmm_status {
			return C.llmm_collapse_observe_ex(c, C.uint64_t(now), C.double(latency), v)
		})
	if err != nil {
		return CollapseVerdict{}, err
	}
	return CollapseVerdict{
		Collapsed: v.collapsed != 0, Ready: v.ready != 0, Outlier: v.outlier != 0,
		AfterSwitch: v.after_switch != 0, Floored: v.floored != 0,
		Mean: float64(v.mean), Sigma: float64(v.sigma), Threshold: float64(v.threshold),
		SinceSwitchNs: uint64(v.since_switch_ns), Samples: uint64(v.samples),
	}, nil
}

// ObserveTPS gives a throughput reading; the last one before a switch is its reference.
func (d *CollapseDetector) ObserveTPS(now uint64, tps float64) error {
	return d.call("llmm_collapse_observe_tps", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_observe_tps(c, C.uint64_t(now), C.double(tps))
	})
}

// ObserveMemBW gives a memory-bandwidth utilisation reading in [0, 1].
func (d *CollapseDetector) ObserveMemBW(now uint64, utilisation float64) error {
	return d.call("llmm_collapse_observe_membw", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_observe_membw(c, C.uint64_t(now), C.double(utilisation))
	})
}

// SwitchReport returns the confirmation matrix of the latest switch (ErrEmpty when no switch
// was marked).
func (d *CollapseDetector) SwitchReport() (CollapseReport, error) {
	r, err := read(&d.handle, "llmm_collapse_switch_report", C.LLMM_STRUCT_COLLAPSE_REPORT,
		func(c *C.llmm_collapse, r *C.llmm_collapse_report) C.llmm_status {
			return C.llmm_collapse_switch_report(c, r)
		})
	if err != nil {
		return CollapseReport{}, err
	}
	return CollapseReport{
		Signals: int(r.signals), LatencyConfirmed: r.latency_confirmed != 0,
		TPSKnown: r.tps_known != 0, TPSConfirmed: r.tps_confirmed != 0,
		MembwKnown: r.membw_known != 0, MembwConfirmed: r.membw_confirmed != 0, Open: r.open != 0,
		SwitchNs: uint64(r.switch_ns), Latencies: uint64(r.latencies), Flagged: uint64(r.flagged),
		TPSBefore: float64(r.tps_before), TPSAfter: float64(r.tps_after), TPSDrop: float64(r.tps_drop),
		Membw: float64(r.membw),
	}, nil
}

// Counts returns the latencies observed, the collapsed ones and the switches marked since
// creation or Reset.
func (d *CollapseDetector) Counts() (samples, collapsed, switches uint64, err error) {
	return d.counts("llmm_collapse_counts", func(c *C.llmm_collapse, s, n, w *C.uint64_t) C.llmm_status {
		return C.llmm_collapse_counts(c, s, n, w)
	})
}

// Reset forgets every latency, reading, switch, count and the clock; options stay.
func (d *CollapseDetector) Reset() error {
	return d.call("llmm_collapse_reset", func(c *C.llmm_collapse) C.llmm_status {
		return C.llmm_collapse_reset(c)
	})
}
