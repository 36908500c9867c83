package llmmetrics

/*
#include <llmmetrics/core.h>
*/
import "C"

import "unsafe"

// ObjectKind names an object kind that has options (llmm_object_kind), for [Options].
type ObjectKind int32

// The object kinds with options.
const (
	KindSpike        ObjectKind = C.LLMM_KIND_SPIKE         // [SpikeDetector], keys [SpikeOption]
	KindCollapse     ObjectKind = C.LLMM_KIND_COLLAPSE      // [CollapseDetector], keys [CollapseOption]
	KindStability    ObjectKind = C.LLMM_KIND_STABILITY     // [StabilityGate], keys [StabilityOption]
	KindSaturation   ObjectKind = C.LLMM_KIND_SATURATION    // [SaturationSignal], keys [SaturationOption]
	KindLIIMonitor   ObjectKind = C.LLMM_KIND_LII_MONITOR   // [LIIMonitor], keys [LIIOption]
	KindScorecard    ObjectKind = C.LLMM_KIND_SCORECARD     // [Scorecard], keys [ScorecardOption]
	KindGoodput      ObjectKind = C.LLMM_KIND_GOODPUT       // [Goodput], keys [GoodputOption]
	KindBurn         ObjectKind = C.LLMM_KIND_BURN          // [BurnAlerter], keys [BurnOption]
	KindErrorTrigger ObjectKind = C.LLMM_KIND_ERROR_TRIGGER // [ErrorTrigger], keys [ErrorTriggerOption]
	KindHostSampler  ObjectKind = C.LLMM_KIND_HOST_SAMPLER  // [HostSampler], keys [HostOption] (since 1.1.0)
)

// OptionType is the type of an option (llmm_option_type): which setter takes it.
type OptionType int32

// The option types.
const (
	OptionFloat64 OptionType = C.LLMM_OPTION_F64 // SetFloat64 / Float64
	OptionUint64  OptionType = C.LLMM_OPTION_U64 // SetUint64 / Uint64
	OptionInt32   OptionType = C.LLMM_OPTION_I32 // SetInt32 / Int32 (the scorecard's SetOption)
)

var optionTypeNames = map[OptionType]string{OptionFloat64: "f64", OptionUint64: "u64", OptionInt32: "i32"}

// String names the type as the library does ("f64", "u64", "i32").
func (t OptionType) String() string {
	if name, ok := optionTypeNames[t]; ok {
		return name
	}
	return "OptionType(" + itoa(int64(t)) + ")"
}

// OptionInfo is one option of an object kind as the library lists it (llmm_option_info).
// Only the Min, Max and Default fields of its Type are meaningful; u64 values are exact.
type OptionInfo struct {
	Name             string     // stable lower-case name, e.g. "severe_factor"
	Key              int32      // the key, e.g. int32(SpikeSevereFactor)
	Type             OptionType // which setter takes it
	MinExclusive     bool       // the minimum itself is refused
	MaxExclusive     bool       // the maximum itself is refused
	FixedOnceStarted bool       // may only change while the object holds no data
	CrossChecked     bool       // also constrained by another option or by construction
	HasDefault       bool       // false: a constructor argument sets the value
	MinFloat64       float64    // smallest value (float options)
	MaxFloat64       float64    // largest value (float options; may be +Inf)
	DefaultFloat64   float64    // value of a new object (float options)
	MinUint64        uint64     // smallest value (u64 options)
	MaxUint64        uint64     // largest value (u64 options)
	DefaultUint64    uint64     // value of a new object (u64 options)
	MinInt32         int32      // smallest value (i32 options)
	MaxInt32         int32      // largest value (i32 options)
	DefaultInt32     int32      // value of a new object (i32 options)
}

// Options lists the options of an object kind, in key order, with their names, types,
// bounds and defaults (llmm_option_describe). ErrInvalid for a kind the library does not
// know.
func Options(kind ObjectKind) ([]OptionInfo, error) {
	const op = "llmm_option_describe"
	var out []OptionInfo
	for i := C.uint32_t(0); ; i++ {
		var d C.llmm_option_info
		if err := initStruct(C.LLMM_STRUCT_OPTION_INFO, unsafe.Pointer(&d), C.sizeof_llmm_option_info); err != nil {
			return nil, err
		}
		st := C.llmm_option_describe(C.llmm_object_kind(kind), i, &d)
		if st == C.LLMM_E_RANGE {
			return out, nil
		}
		if err := check(op, st); err != nil {
			return nil, err
		}
		out = append(out, OptionInfo{
			Name: C.GoString(d.name), Key: int32(d.key), Type: OptionType(d._type),
			MinExclusive: d.min_exclusive != 0, MaxExclusive: d.max_exclusive != 0,
			FixedOnceStarted: d.fixed_once_started != 0, CrossChecked: d.cross_checked != 0,
			HasDefault: d.has_default != 0,
			MinFloat64: float64(d.min_f64), MaxFloat64: float64(d.max_f64),
			DefaultFloat64: float64(d.default_f64),
			MinUint64:      uint64(d.min_u64), MaxUint64: uint64(d.max_u64),
			DefaultUint64: uint64(d.default_u64),
			MinInt32:      int32(d.min_i32), MaxInt32: int32(d.max_i32),
			DefaultInt32: int32(d.default_i32),
		})
	}
}
