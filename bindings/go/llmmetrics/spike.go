package llmmetrics

/*
#include <llmmetrics/detect.h>
*/
import "C"

// SpikeLevel is the classification of one latency by a [SpikeDetector].
type SpikeLevel int32

// The spike levels.
const (
	SpikeNone   SpikeLevel = C.LLMM_SPIKE_NONE   // not above P99, or not classified (warm-up)
	SpikeLevel1 SpikeLevel = C.LLMM_SPIKE_LEVEL1 // above P99, not severe: record, alert
	SpikeLevel2 SpikeLevel = C.LLMM_SPIKE_LEVEL2 // above P99 and above factor × P99.9: check the circuit breaker
)

// String names the level ("none", "level1", "level2").
func (l SpikeLevel) String() string {
	return enumName(l, "SpikeLevel", "none", "level1", "level2")
}

// SpikeOption is a tunable of a [SpikeDetector]. The float options are set with
// [SpikeDetector.SetFloat64], the integer ones with [SpikeDetector.SetUint64]; types, bounds
// and defaults: Options(KindSpike).
type SpikeOption int32

// The spike detector options.
const (
	SpikeBaseQuantile   SpikeOption = C.LLMM_SPIKE_BASE_QUANTILE   // quantile of the base threshold (P99)
	SpikeSevereQuantile SpikeOption = C.LLMM_SPIKE_SEVERE_QUANTILE // quantile of the severe threshold (P99.9)
	SpikeSevereFactor   SpikeOption = C.LLMM_SPIKE_SEVERE_FACTOR   // level 2 needs latency > factor × severe threshold
	SpikeWarmup         SpikeOption = C.LLMM_SPIKE_WARMUP          // baseline samples needed before classifying
	SpikeSlotNs         SpikeOption = C.LLMM_SPIKE_SLOT_NS         // slot length in ns; before the first time stamp only
	SpikeSlots          SpikeOption = C.LLMM_SPIKE_SLOTS           // slots in the window; before the first time stamp only
	SpikeScale          SpikeOption = C.LLMM_SPIKE_SCALE           // sketch scale; before the first time stamp only
)

// SpikeStats is what a [SpikeDetector] knows at a time stamp. Window counts cover the
// detector's window at that time; total counts everything since creation or Reset.
type SpikeStats struct {
	Ready            bool    // samples are being classified (warm-up done)
	BaseThreshold    float64 // base quantile (P99) in force; 0 without a baseline
	SevereThreshold  float64 // severe quantile (P99.9) in force; 0 without a baseline
	BaselineSamples  uint64  // latencies the baselines were computed from
	WindowSamples    uint64  // samples observed in the window
	WindowClassified uint64  // of those, classified
	WindowLevel1     uint64  // of those, level 1
	WindowLevel2     uint64  // of those, level 2
	TotalSamples     uint64  // samples observed since creation or Reset
	TotalClassified  uint64  // of those, classified
	TotalLevel1      uint64  // of those, level 1
	TotalLevel2      uint64  // of those, level 2
}

// SpikeDetector classifies each latency against P99 / P99.9 baselines computed from a sliding
// window of per-slot sketches (doc/spec.md §6), on the caller's clock, and reports the spike rate.
//
// A SpikeDetector is used by one goroutine at a time. Close it when done; a finalizer closes
// a forgotten one.
type SpikeDetector struct{ handle[C.llmm_spike] }

// NewSpikeDetector creates a detector with the default options (Options(KindSpike)).
func NewSpikeDetector(opts ...Option) (*SpikeDetector, error) {
	d := &SpikeDetector{}
	return owned(d, d.open("llmm_spike_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_spike) C.llmm_status {
		return C.llmm_spike_new(cctx, out)
	}))
}

// SetFloat64 sets a float option (ErrUnknownOption for an integer option, ErrRange outside
// its bounds).
func (d *SpikeDetector) SetFloat64(opt SpikeOption, value float64) error {
	return d.call("llmm_spike_set_f64", func(c *C.llmm_spike) C.llmm_status {
		return C.llmm_spike_set_f64(c, C.llmm_spike_option(opt), C.double(value))
	})
}

// Float64 reads a float option.
func (d *SpikeDetector) Float64(opt SpikeOption) (float64, error) {
	return d.getF64("llmm_spike_get_f64", func(c *C.llmm_spike, v *C.double) C.llmm_status {
		return C.llmm_spike_get_f64(c, C.llmm_spike_option(opt), v)
	})
}

// SetUint64 sets an integer option. The geometry options (SpikeSlotNs, SpikeSlots,
// SpikeScale) are refused with ErrState once the detector has accepted a time stamp.
func (d *SpikeDetector) SetUint64(opt SpikeOption, value uint64) error {
	return d.call("llmm_spike_set_u64", func(c *C.llmm_spike) C.llmm_status {
		return C.llmm_spike_set_u64(c, C.llmm_spike_option(opt), C.uint64_t(value))
	})
}

// Uint64 reads an integer option.
func (d *SpikeDetector) Uint64(opt SpikeOption) (uint64, error) {
	return d.getU64("llmm_spike_get_u64", func(c *C.llmm_spike, v *C.uint64_t) C.llmm_status {
		return C.llmm_spike_get_u64(c, C.llmm_spike_option(opt), v)
	})
}

// Observe records one latency at time stamp now (nanoseconds) and classifies it against the
// baselines in force; [SpikeNone] during warm-up. On error nothing changes.
func (d *SpikeDetector) Observe(now uint64, latency float64) (SpikeLevel, error) {
	var level C.llmm_spike_level
	if err := d.call("llmm_spike_observe", func(c *C.llmm_spike) C.llmm_status {
		return C.llmm_spike_observe(c, C.uint64_t(now), C.double(latency), &level)
	}); err != nil {
		return SpikeNone, err
	}
	return SpikeLevel(level), nil
}

// Rate returns the spike rate over the window at time now: classified samples above the
// base threshold on arrival, divided by the classified samples (ErrEmpty when none).
func (d *SpikeDetector) Rate(now uint64) (float64, error) {
	return d.getF64("llmm_spike_rate", func(c *C.llmm_spike, r *C.double) C.llmm_status {
		return C.llmm_spike_rate(c, C.uint64_t(now), r)
	})
}

// Stats returns the baselines in force and the counts per level at time now.
func (d *SpikeDetector) Stats(now uint64) (SpikeStats, error) {
	s, err := read(&d.handle, "llmm_spike_get_stats", C.LLMM_STRUCT_SPIKE_STATS,
		func(c *C.llmm_spike, s *C.llmm_spike_stats) C.llmm_status {
			return C.llmm_spike_get_stats(c, C.uint64_t(now), s)
		})
	if err != nil {
		return SpikeStats{}, err
	}
	return SpikeStats{
		Ready:            s.ready != 0,
		BaseThreshold:    float64(s.base_threshold),
		SevereThreshold:  float64(s.severe_threshold),
		BaselineSamples:  uint64(s.baseline_samples),
		WindowSamples:    uint64(s.window_samples),
		WindowClassified: uint64(s.window_classified),
		WindowLevel1:     uint64(s.window_level1),
		WindowLevel2:     uint64(s.window_level2),
		TotalSamples:     uint64(s.total_samples),
		TotalClassified:  uint64(s.total_classified),
		TotalLevel1:      uint64(s.total_level1),
		TotalLevel2:      uint64(s.total_level2),
	}, nil
}

// Reset forgets every sample, count, baseline and the clock; options stay.
func (d *SpikeDetector) Reset() error {
	return d.call("llmm_spike_reset", func(c *C.llmm_spike) C.llmm_status {
		return C.llmm_spike_reset(c)
	})
}
