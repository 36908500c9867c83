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
