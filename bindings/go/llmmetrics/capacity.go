package llmmetrics

/*
#include <llmmetrics/capacity.h>
*/
import "C"

import "math"

// LittlesLawSafetyDefault is the safety factor [LittlesLawTPS] uses when 0 is passed
// (LLMM_LITTLES_LAW_SAFETY_DEFAULT).
const LittlesLawSafetyDefault = 0.85

type f64Result func(out *C.double) C.llmm_status

// f64Call runs a C call that writes one double.
func f64Call(op string, f f64Result) (float64, error) {
	var out C.double
	if err := check(op, f(&out)); err != nil {
		return math.NaN(), err
	}
	return float64(out), nil
}

// DecayRate is the throughput decay η = 1 − actual / peak (actual ≥ 0, peak > 0; negative
// when actual exceeds peak).
func DecayRate(actual, peak float64) (float64, error) {
	return f64Call("llmm_decay_rate", func(out *C.double) C.llmm_status {
		return C.llmm_decay_rate(C.double(actual), C.double(peak), out)
	})
}

// Roofline is the attainable throughput min(peakFlops, bandwidthBytes · intensity), in
// FLOP/s for a peak in FLOP/s, a bandwidth in bytes/s and an intensity in FLOPs per byte.
func Roofline(peakFlops, bandwidthBytes, intensity float64) (float64, error) {
	return f64Call("llmm_roofline", func(out *C.double) C.llmm_status {
		return C.llmm_roofline(C.double(peakFlops), C.double(bandwidthBytes), C.double(intensity), out)
	})
}

// RooflineCriticalIntensity is the ridge point peakFlops / bandwidthBytes in FLOPs per byte:
// kernels below it are memory-bound.
func RooflineCriticalIntensity(peakFlops, bandwidthBytes float64) (float64, error) {
	return f64Call("llmm_roofline_critical_intensity", func(out *C.double) C.llmm_status {
		return C.llmm_roofline_critical_intensity(C.double(peakFlops), C.double(bandwidthBytes), out)
	})
}

// ArithmeticIntensity is flops / bytes moved.
func ArithmeticIntensity(flops, bytes float64) (float64, error) {
	return f64Call("llmm_arithmetic_intensity", func(out *C.double) C.llmm_status {
		return C.llmm_arithmetic_intensity(C.double(flops), C.double(bytes), out)
	})
}

// ScalingDecay is the multi-device scaling decay against linear scaling, 1 − measured / ideal.
func ScalingDecay(ideal, measured float64) (float64, error) {
	return f64Call("llmm_scaling_decay", func(out *C.double) C.llmm_status {
		return C.llmm_scaling_decay(C.double(ideal), C.double(measured), out)
	})
}

// ScalingDecayDevices is 1 − measured / (single · devices), devices ≥ 1.
func ScalingDecayDevices(single float64, devices int, measured float64) (float64, error) {
	if devices < 0 || uint64(devices) > math.MaxUint32 {
		return math.NaN(), errArg("llmm_scaling_decay_devices", "device count out of bounds")
	}
	return f64Call("llmm_scaling_decay_devices", func(out *C.double) C.llmm_status {
		return C.llmm_scaling_decay_devices(C.double(single), C.uint32_t(devices), C.double(measured), out)
	})
}

// CommShare is the communication share of a step, commTime / stepTime, in [0, 1].
func CommShare(commTime, stepTime float64) (float64, error) {
	return f64Call("llmm_comm_share", func(out *C.double) C.llmm_status {
		return C.llmm_comm_share(C.double(commTime), C.double(stepTime), out)
	})
}

// SeqLenDecay is the sequence-length decay 1 − tpsLong / tpsShort.
func SeqLenDecay(tpsShort, tpsLong float64) (float64, error) {
	return f64Call("llmm_seqlen_decay", func(out *C.double) C.llmm_status {
		return C.llmm_seqlen_decay(C.double(tpsShort), C.double(tpsLong), out)
	})
}

// LittlesLawTPS is the SLO-driven capacity max(1, L / W · safety) in requests per second,
// with W the P99.9 latency given in milliseconds, L the mean in-flight requests and safety
// in (0, 1] (0 for [LittlesLawSafetyDefault]).
func LittlesLawTPS(p999Ms, concurrency, safety float64) (float64, error) {
	return f64Call("llmm_littles_law_tps", func(out *C.double) C.llmm_status {
		return C.llmm_littles_law_tps(C.double(p999Ms), C.double(concurrency), C.double(safety), out)
	})
}
