package llmmetrics

/*
#include <llmmetrics/sketch.h>
*/
import "C"

import (
	"math"
	"runtime"
	"unsafe"
)

// Scale and range limits of a [Sketch] and a [Recorder].
const (
	ScaleDefault    = 6      // 64 buckets per power of two, 0.542 % worst relative error
	ScaleMin        = 0      // 1 bucket per power of two
	ScaleMax        = 10     // 1024 buckets per power of two
	RangeMinDefault = 1e-9   // default lower end of the tracked range (LLMM_SKETCH_RANGE_MIN_DEFAULT)
	RangeMaxDefault = 1e15   // default upper end of the tracked range (LLMM_SKETCH_RANGE_MAX_DEFAULT)
	RangeMinLimit   = 1e-300 // smallest accepted lower range bound (LLMM_SKETCH_RANGE_MIN_LIMIT)
	RangeMaxLimit   = 1e300  // largest accepted upper range bound (LLMM_SKETCH_RANGE_MAX_LIMIT)
)

// RelativeError is the worst relative error of every quantile of a sketch of the given scale:
// (base − 1) / (base + 1) with base = 2^(2^−scale); 0.00542 at [ScaleDefault].
func RelativeError(scale int) float64 {
	base := math.Exp2(math.Exp2(-float64(scale)))
	return (base - 1) / (base + 1)
}

// Sketch is a streaming, mergeable quantile sketch over non-negative values, answering every
// quantile within [RelativeError] of the true value (nearest-rank rule; the minimum and the
// maximum are exact, as are the count and the extremes).
//
// A Sketch is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one. The zero Sketch is closed, except that [Sketch.UnmarshalBinary] fills it.
type Sketch struct{ handle[C.llmm_sketch] }

func int32Arg(v int) (C.int32_t, bool) {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return C.int32_t(v), true
}

// NewSketch creates an empty sketch. scale is [ScaleDefault] or any value in
// [ScaleMin] … [ScaleMax].
func NewSketch(scale int, opts ...Option) (*Sketch, error) {
	sc, ok := int32Arg(scale)
	if !ok {
		return nil, errArg("llmm_sketch_new", "scale out of bounds")
	}
	s := &Sketch{}
	return owned(s, s.open("llmm_sketch_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_new(cctx, sc, out)
	}))
}

// wrapSketch owns c, whose context reference was already acquired.
func wrapSketch(c *C.llmm_sketch, ctx *Context) *Sketch {
	s, _ := owned(&Sketch{handle[C.llmm_sketch]{c, ctx}}, nil)
	return s
}

// with runs f on s and the live sketch o (which may not be s for a writer).
func (s *Sketch) with(op string, o *Sketch, f func(c, o *C.llmm_sketch) C.llmm_status) error {
	if o == nil || o.c == nil {
		return errClosed(op, "sketch")
	}
	defer runtime.KeepAlive(o)
	return s.call(op, func(c *C.llmm_sketch) C.llmm_status { return f(c, o.c) })
}

// SetRange sets the accurately tracked value range [lo, hi]; allowed only while the sketch
// is empty. Positive values below lo or above hi are still counted (as underflow / overflow).
func (s *Sketch) SetRange(lo, hi float64) error {
	return s.call("llmm_sketch_set_range", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_set_range(c, C.double(lo), C.double(hi))
	})
}

// Range returns the configured range.
func (s *Sketch) Range() (lo, hi float64, err error) {
	var clo, chi C.double
	err = s.call("llmm_sketch_range", func(c *C.llmm_sketch) C.llmm_status { return C.llmm_sketch_range(c, &clo, &chi) })
	return float64(clo), float64(chi), err
}

// Add records one finite value ≥ 0. An invalid value (NaN, ±Inf, negative) records nothing
// and returns an error matching ErrInvalid.
//
// Each Add is one cgo call; to record many values at once use [Sketch.AddMany].
func (s *Sketch) Add(v float64) error {
	return s.call("llmm_sketch_add", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_add(c, C.double(v))
	})
}

// AddN records the value v n times.
func (s *Sketch) AddN(v float64, n uint64) error {
	return s.call("llmm_sketch_add_n", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_add_n(c, C.double(v), C.uint64_t(n))
	})
}

// AddMany records a batch in one call into the library, all or nothing: if any value is
// invalid, none is recorded. The slice is read during the call only.
func (s *Sketch) AddMany(vs []float64) error {
	defer runtime.KeepAlive(vs)
	return s.call("llmm_sketch_add_many", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_add_many(c, f64ptr(vs), C.size_t(len(vs)))
	})
}

// f64ptr is the address of the first element of vs, or nil for an empty slice.
func f64ptr(vs []float64) *C.double {
	if len(vs) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&vs[0]))
}

// Quantile returns quantile q in [0, 1] by the nearest-rank rule: the value of rank
// max(1, ceil(q·n)). It returns an error matching ErrEmpty when nothing was recorded.
func (s *Sketch) Quantile(q float64) (float64, error) {
	return s.getF64("llmm_sketch_quantile", func(c *C.llmm_sketch, out *C.double) C.llmm_status {
		return C.llmm_sketch_quantile(c, C.double(q), out)
	})
}

// Quantiles answers many quantiles in one pass; qs may be in any order and the result has
// one value per element of qs.
func (s *Sketch) Quantiles(qs []float64) ([]float64, error) {
	out := make([]float64, len(qs))
	if err := s.QuantilesInto(out, qs); err != nil {
		return nil, err
	}
	return out, nil
}

// QuantilesInto is [Sketch.Quantiles] writing into dst, which must be as long as qs.
func (s *Sketch) QuantilesInto(dst, qs []float64) error {
	const op = "llmm_sketch_quantiles"
	if s.c != nil && len(dst) != len(qs) {
		return errArg(op, "dst and qs differ in length")
	}
	defer runtime.KeepAlive(qs)
	defer runtime.KeepAlive(dst)
	return s.call(op, func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_quantiles(c, f64ptr(qs), C.size_t(len(qs)), f64ptr(dst))
	})
}

// Rank returns the fraction of recorded values ≤ v: exact below the minimum and at or above
// the maximum, otherwise within one bucket.
func (s *Sketch) Rank(v float64) (float64, error) {
	return s.getF64("llmm_sketch_rank", func(c *C.llmm_sketch, out *C.double) C.llmm_status {
		return C.llmm_sketch_rank(c, C.double(v), out)
	})
}

// Count is the number of recorded values (0 for a closed sketch).
func (s *Sketch) Count() uint64 {
	n := uint64(C.llmm_sketch_count(s.c))
	runtime.KeepAlive(s)
	return n
}

// Sum is the sum of the recorded values, a double sum in arrival order; 0 when empty or
// closed.
func (s *Sketch) Sum() float64 {
	var out C.double
	if s.c == nil || C.llmm_sketch_sum(s.c, &out) != C.LLMM_OK {
		return 0
	}
	runtime.KeepAlive(s)
	return float64(out)
}

// Min is the exact smallest recorded value (ErrEmpty when nothing was recorded).
func (s *Sketch) Min() (float64, error) {
	return s.getF64("llmm_sketch_min", func(c *C.llmm_sketch, out *C.double) C.llmm_status {
		return C.llmm_sketch_min(c, out)
	})
}

// Max is the exact largest recorded value (ErrEmpty when nothing was recorded).
func (s *Sketch) Max() (float64, error) {
	return s.getF64("llmm_sketch_max", func(c *C.llmm_sketch, out *C.double) C.llmm_status {
		return C.llmm_sketch_max(c, out)
	})
}

// Mean is Sum / Count (ErrEmpty when nothing was recorded).
func (s *Sketch) Mean() (float64, error) {
	return s.getF64("llmm_sketch_mean", func(c *C.llmm_sketch, out *C.double) C.llmm_status {
		return C.llmm_sketch_mean(c, out)
	})
}

// SpecialCounts returns the counts kept outside the buckets: exact zeros, positive values
// below the range and values above it.
func (s *Sketch) SpecialCounts() (zero, under, over uint64, err error) {
	return s.counts("llmm_sketch_special_counts", func(c *C.llmm_sketch, z, u, o *C.uint64_t) C.llmm_status {
		return C.llmm_sketch_special_counts(c, z, u, o)
	})
}

// Scale is the sketch's scale (-1 for a closed sketch).
func (s *Sketch) Scale() int {
	sc := int(C.llmm_sketch_scale(s.c))
	runtime.KeepAlive(s)
	return sc
}

// BucketSpan returns the lowest and highest non-empty bucket index (OpenTelemetry
// numbering), or an error matching ErrEmpty when no value lies inside the range.
func (s *Sketch) BucketSpan() (first, last int, err error) {
	var f, l C.int32_t
	err = s.call("llmm_sketch_bucket_span", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_bucket_span(c, &f, &l)
	})
	return int(f), int(l), err
}

// BucketCount is the count of bucket index (0 for an index never touched).
func (s *Sketch) BucketCount(index int) uint64 {
	i, ok := int32Arg(index)
	if !ok {
		return 0
	}
	n := uint64(C.llmm_sketch_bucket_count(s.c, i))
	runtime.KeepAlive(s)
	return n
}

// Buckets returns the index of the lowest non-empty bucket and the counts of the buckets
// from there to the highest non-empty one (empty ones in between count 0): the layout of an
// OpenTelemetry exponential histogram's positive buckets. Both are zero when no value lies
// inside the range.
func (s *Sketch) Buckets() (offset int, counts []uint64, err error) {
	first, last, err := s.BucketSpan()
	if err != nil {
		if e, ok := err.(*Error); ok && e.Status == StatusEmpty {
			return 0, nil, nil
		}
		return 0, nil, err
	}
	counts = make([]uint64, last-first+1)
	for i := range counts {
		counts[i] = uint64(C.llmm_sketch_bucket_count(s.c, C.int32_t(first+i)))
	}
	runtime.KeepAlive(s)
	return first, counts, nil
}

// BucketIndex is the bucket index i of a finite value v > 0 at a scale: base^i < v ≤ base^(i+1).
func BucketIndex(scale int, v float64) (int, error) {
	sc, ok := int32Arg(scale)
	if !ok {
		return 0, errArg("llmm_sketch_index", "scale out of bounds")
	}
	var i C.int32_t
	err := check("llmm_sketch_index", C.llmm_sketch_index(sc, C.double(v), &i))
	return int(i), err
}

// BucketBounds returns the bounds (lower, upper] = (base^index, base^(index+1)] of a bucket.
func BucketBounds(scale, index int) (lower, upper float64, err error) {
	sc, ok1 := int32Arg(scale)
	ix, ok2 := int32Arg(index)
	if !ok1 || !ok2 {
		return 0, 0, errArg("llmm_sketch_bucket_bounds", "scale or index out of bounds")
	}
	var lo, hi C.double
	err = check("llmm_sketch_bucket_bounds", C.llmm_sketch_bucket_bounds(sc, ix, &lo, &hi))
	return float64(lo), float64(hi), err
}

// Merge adds every value of src into s exactly. With different scales the result takes the
// coarser one. All or nothing: on error s is unchanged. src may not be s.
func (s *Sketch) Merge(src *Sketch) error {
	return s.with("llmm_sketch_merge", src, func(c, o *C.llmm_sketch) C.llmm_status { return C.llmm_sketch_merge(c, o) })
}

// Subtract turns s, a later cumulative snapshot, into the interval since earlier, an
// earlier snapshot of the same source: s = s − earlier. It returns an error matching
// ErrState, leaving s unchanged, when earlier is not contained in s.
func (s *Sketch) Subtract(earlier *Sketch) error {
	return s.with("llmm_sketch_subtract", earlier, func(c, o *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_subtract(c, o)
	})
}

// Reset removes every value; scale, range and memory stay.
func (s *Sketch) Reset() error {
	return s.call("llmm_sketch_reset", func(c *C.llmm_sketch) C.llmm_status {
		return C.llmm_sketch_reset(c)
	})
}

// Clone returns a deep copy allocated through the same context.
func (s *Sketch) Clone() (*Sketch, error) {
	const op = "llmm_sketch_clone"
	if s.c == nil {
		return nil, errClosed(op, "sketch")
	}
	var c *C.llmm_sketch
	err := s.ctx.construct(op, func(*C.llmm_ctx) C.llmm_status { return C.llmm_sketch_clone(s.c, &c) })
	runtime.KeepAlive(s)
	if err != nil {
		return nil, err
	}
	return wrapSketch(c, s.ctx), nil
}

// Downscale lowers the scale in place to newScale (0 … current scale) by an exact index
// shift.
func (s *Sketch) Downscale(newScale int) error {
	const op = "llmm_sketch_downscale"
	sc, ok := int32Arg(newScale)
	if s.c != nil && !ok {
		return errArg(op, "scale out of bounds")
	}
	return s.call(op, func(c *C.llmm_sketch) C.llmm_status { return C.llmm_sketch_downscale(c, sc) })
}

// CopyFrom replaces the contents, scale and range of s with those of src; s keeps its
// context. On error s is unchanged.
func (s *Sketch) CopyFrom(src *Sketch) error {
	return s.with("llmm_sketch_copy", src, func(c, o *C.llmm_sketch) C.llmm_status { return C.llmm_sketch_copy(c, o) })
}
