package llmmetrics

/*
#include <llmmetrics/sketch.h>

// The library alone: reps calls of llmm_sketch_add_many from a C loop.
static llmm_status llmmgo_add_many_loop(llmm_sketch *s, const double *v, size_t n, size_t reps) {
	for (size_t r = 0; r < reps; r++) {
		llmm_status st = llmm_sketch_add_many(s, v, n);
		if (st != LLMM_OK)
			return st;
	}
	return LLMM_OK;
}
*/
import "C"

import "runtime"

// cAddManyLoop records vs reps times through llmm_sketch_add_many called from a C loop, with
// a single cgo crossing: the baseline the benchmarks compare [Sketch.AddMany] with.
func cAddManyLoop(s *Sketch, vs []float64, reps int) error {
	if s.c == nil {
		return errClosed("llmm_sketch_add_many", "sketch")
	}
	st := C.llmmgo_add_many_loop(s.c, f64ptr(vs), C.size_t(len(vs)), C.size_t(reps))
	runtime.KeepAlive(s)
	runtime.KeepAlive(vs)
	return check("llmm_sketch_add_many", st)
}
