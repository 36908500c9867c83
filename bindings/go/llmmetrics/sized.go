package llmmetrics

/*
#include <llmmetrics/llmmetrics.h>
*/
import "C"

import "unsafe"

// initStruct sets up a caller-sized C struct (one that starts with struct_size) with the
// library's defaults, at this package's own size of it: size is C.sizeof_<type> of the cgo
// definition, which the library accepts when it has released that size (doc/abi.md). An older
// library refuses a newer package's larger struct with StatusABI.
func initStruct(kind C.llmm_struct_kind, p unsafe.Pointer, size C.size_t) error {
	return check("llmm_struct_init", C.llmm_struct_init(kind, p, C.uint32_t(size)))
}

// structInitProbe calls llmm_struct_init for kind on a 256-byte scratch buffer of a known
// pattern with size, and returns the status, the struct_size written and whether the bytes
// past size kept the pattern (for the package's tests: Go test files cannot use cgo).
func structInitProbe(kind int32, size uint32) (Status, uint32, bool) {
	var buf [256]byte
	for i := range buf {
		buf[i] = 0xA5
	}
	st := C.llmm_struct_init(C.llmm_struct_kind(kind), unsafe.Pointer(&buf[0]), C.uint32_t(size))
	written := *(*uint32)(unsafe.Pointer(&buf[0]))
	tail := true
	for i := int(size); i < len(buf); i++ {
		if i >= 0 && buf[i] != 0xA5 {
			tail = false
		}
	}
	return Status(st), written, tail
}

// sizedStructSizes is this package's size of each caller-sized struct, by kind (cgo's
// definitions, from the headers the package was built with).
var sizedStructSizes = map[int32]uint32{
	C.LLMM_STRUCT_ALLOCATOR:             C.sizeof_llmm_allocator,
	C.LLMM_STRUCT_SPIKE_STATS:           C.sizeof_llmm_spike_stats,
	C.LLMM_STRUCT_COLLAPSE_VERDICT:      C.sizeof_llmm_collapse_verdict,
	C.LLMM_STRUCT_COLLAPSE_REPORT:       C.sizeof_llmm_collapse_report,
	C.LLMM_STRUCT_STABILITY_READING:     C.sizeof_llmm_stability_reading,
	C.LLMM_STRUCT_SATURATION_READING:    C.sizeof_llmm_saturation_reading,
	C.LLMM_STRUCT_OTLP_OPTIONS:          C.sizeof_llmm_otlp_options,
	C.LLMM_STRUCT_FIT_STATS:             C.sizeof_llmm_fit_stats,
	C.LLMM_STRUCT_KNEE:                  C.sizeof_llmm_knee,
	C.LLMM_STRUCT_USL:                   C.sizeof_llmm_usl,
	C.LLMM_STRUCT_KNEE_OPTIONS:          C.sizeof_llmm_knee_options,
	C.LLMM_STRUCT_LII_READING:           C.sizeof_llmm_lii_reading,
	C.LLMM_STRUCT_KV_OCCUPANCY_RESULT:   C.sizeof_llmm_kv_occupancy_result,
	C.LLMM_STRUCT_KV_HIT_READING:        C.sizeof_llmm_kv_hit_reading,
	C.LLMM_STRUCT_TLB_READING:           C.sizeof_llmm_tlb_reading,
	C.LLMM_STRUCT_SCORE_RESULT:          C.sizeof_llmm_score_result,
	C.LLMM_STRUCT_SLO_RESULT:            C.sizeof_llmm_slo_result,
	C.LLMM_STRUCT_GOODPUT_RESULT:        C.sizeof_llmm_goodput_result,
	C.LLMM_STRUCT_BURN_RESULT:           C.sizeof_llmm_burn_result,
	C.LLMM_STRUCT_ERROR_TRIGGER_READING: C.sizeof_llmm_error_trigger_reading,
	C.LLMM_STRUCT_OPTION_INFO:           C.sizeof_llmm_option_info,
}
