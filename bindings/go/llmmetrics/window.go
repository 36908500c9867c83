package llmmetrics

/*
#include <llmmetrics/window.h>
*/
import "C"

import (
	"math"
	"runtime"
	"time"
)

// Defaults and limits of a [Window] and a [RatioWindow].
const (
	WindowSlotDefault  = time.Second // slot length used for 0
	WindowSlotsDefault = 60          // slot count used for 0
	WindowSlotsMax     = 100000      // largest slot count
)

// durationArg converts a non-negative duration to nanoseconds for C.
func durationArg(op, what string, d time.Duration) (C.uint64_t, error) {
	if d < 0 {
		return 0, errArg(op, "negative "+what)
	}
	return C.uint64_t(d), nil
}

// slotsArg converts a slot count; counts beyond uint32 are out of bounds like any above the
// maximum.
func slotsArg(op string, slots int) (C.uint32_t, error) {
	if slots < 0 || uint64(slots) > math.MaxUint32 {
		return 0, errArg(op, "slot count out of bounds")
	}
	return C.uint32_t(slots), nil
}

// Window is a ring of per-slot quantile sketches driven by the caller's clock: values are
// recorded with a time stamp (nanoseconds on any monotonic clock, such as [Now]) and
// quantiles are answered over the last span of time, exactly as one sketch of those values
// would answer.
//
// Time stamps never go backwards: one earlier than the latest accepted is refused
// (ErrInvalid). A span rounds up to whole slots and may be as long as the ring. Queries
// advance the window's clock and use scratch space, so a Window is used by one goroutine at
// a time, queries included. Close it when done; a finalizer closes a forgotten one.
type Window struct {
	c   *C.llmm_window
	ctx *Context
}

// NewWindow creates a window of slots slots of length slot (0 for [WindowSlotDefault] and
// [WindowSlotsDefault]: 60 × 1 s) holding sketches of the given scale.
func NewWindow(slot time.Duration, slots, scale int, opts ...Option) (*Window, error) {
	const op = "llmm_window_new"
	o := collect(opts)
	slotNs, err := durationArg(op, "slot length", slot)
	if err != nil {
		return nil, err
	}
	n, err := slotsArg(op, slots)
	if err != nil {
		return nil, err
	}
	sc, ok := int32Arg(scale)
	if !ok {
		return nil, errArg(op, "scale out of bounds")
	}
	var c *C.llmm_window
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_window_new(cctx, slotNs, n, sc, &c)
	}); err != nil {
		return nil, err
	}
	w := &Window{c: c, ctx: o.ctx}
	runtime.SetFinalizer(w, (*Window).Close)
	return w, nil
}

// Close frees the window. It is idempotent and always returns nil.
func (w *Window) Close() error {
	if w.c == nil {
		return nil
	}
	C.llmm_window_free(w.c)
	w.c = nil
	w.ctx.release()
	w.ctx = nil
	runtime.SetFinalizer(w, nil)
	return nil
}

// Geometry returns the slot length and slot count, defaults resolved.
func (w *Window) Geometry() (slot time.Duration, slots int, err error) {
	if w.c == nil {
		return 0, 0, errClosed("llmm_window_geometry", "window")
	}
	var ns C.uint64_t
	var n C.uint32_t
	err = check("llmm_window_geometry", C.llmm_window_geometry(w.c, &ns, &n))
	runtime.KeepAlive(w)
	return time.Duration(ns), int(n), err
}

// Add records one finite value ≥ 0 at time stamp now (nanoseconds).
func (w *Window) Add(now uint64, v float64) error {
	if w.c == nil {
		return errClosed("llmm_window_add", "window")
	}
	st := C.llmm_window_add(w.c, C.uint64_t(now), C.double(v))
	runtime.KeepAlive(w)
	return check("llmm_window_add", st)
}

// AddMany records a batch, all at time stamp now, in one call into the library; all or
// nothing.
func (w *Window) AddMany(now uint64, vs []float64) error {
	if w.c == nil {
		return errClosed("llmm_window_add_many", "window")
	}
	st := C.llmm_window_add_many(w.c, C.uint64_t(now), f64ptr(vs), C.size_t(len(vs)))
	runtime.KeepAlive(w)
	runtime.KeepAlive(vs)
	return check("llmm_window_add_many", st)
}

// Count returns the number of values in the slots that span covers at time now.
func (w *Window) Count(now uint64, span time.Duration) (uint64, error) {
	const op = "llmm_window_count"
	if w.c == nil {
		return 0, errClosed(op, "window")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return 0, err
	}
	var n C.uint64_t
	st := C.llmm_window_count(w.c, C.uint64_t(now), s, &n)
	runtime.KeepAlive(w)
	return uint64(n), check(op, st)
}

// Quantile returns quantile q of the values in the slots that span covers at time now
// (ErrEmpty when there are none).
func (w *Window) Quantile(now uint64, span time.Duration, q float64) (float64, error) {
	const op = "llmm_window_quantile"
	if w.c == nil {
		return 0, errClosed(op, "window")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return 0, err
	}
	var out C.double
	st := C.llmm_window_quantile(w.c, C.uint64_t(now), s, C.double(q), &out)
	runtime.KeepAlive(w)
	return float64(out), check(op, st)
}

// Quantiles answers many quantiles over a span in one merge and one pass.
func (w *Window) Quantiles(now uint64, span time.Duration, qs []float64) ([]float64, error) {
	const op = "llmm_window_quantiles"
	if w.c == nil {
		return nil, errClosed(op, "window")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(qs))
	st := C.llmm_window_quantiles(w.c, C.uint64_t(now), s, f64ptr(qs), C.size_t(len(qs)), f64ptr(out))
	runtime.KeepAlive(w)
	runtime.KeepAlive(qs)
	runtime.KeepAlive(out)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return out, nil
}

// SnapshotInto replaces the contents, scale and range of into with the exact merge of the
// slots that span covers at time now (an empty sketch for an empty span).
func (w *Window) SnapshotInto(now uint64, span time.Duration, into *Sketch) error {
	const op = "llmm_window_snapshot"
	if w.c == nil {
		return errClosed(op, "window")
	}
	if into == nil || into.c == nil {
		return errClosed(op, "sketch")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return err
	}
	st := C.llmm_window_snapshot(w.c, C.uint64_t(now), s, into.c)
	runtime.KeepAlive(w)
	runtime.KeepAlive(into)
	return check(op, st)
}

// Snapshot returns a new sketch, allocated through the window's context, holding the merge
// of the slots that span covers at time now.
func (w *Window) Snapshot(now uint64, span time.Duration) (*Sketch, error) {
	if w.c == nil {
		return nil, errClosed("llmm_window_snapshot", "window")
	}
	s, err := NewSketch(ScaleDefault, WithContext(w.ctx))
	if err != nil {
		return nil, err
	}
	if err := w.SnapshotInto(now, span, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Reset forgets every value and the clock; memory is kept.
func (w *Window) Reset() error {
	if w.c == nil {
		return errClosed("llmm_window_reset", "window")
	}
	st := C.llmm_window_reset(w.c)
	runtime.KeepAlive(w)
	return check("llmm_window_reset", st)
}

// RatioWindow counts (events, total) pairs — errors and requests, TLB misses and accesses,
// cache hits and lookups — on a time ring with the slot, span and clock rules of [Window],
// and answers events / total over any span.
//
// A RatioWindow is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type RatioWindow struct {
	c   *C.llmm_ratio_window
	ctx *Context
}

// NewRatioWindow creates a ratio window of slots slots of length slot (0 for the defaults).
func NewRatioWindow(slot time.Duration, slots int, opts ...Option) (*RatioWindow, error) {
	const op = "llmm_ratio_window_new"
	o := collect(opts)
	slotNs, err := durationArg(op, "slot length", slot)
	if err != nil {
		return nil, err
	}
	n, err := slotsArg(op, slots)
	if err != nil {
		return nil, err
	}
	var c *C.llmm_ratio_window
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_ratio_window_new(cctx, slotNs, n, &c)
	}); err != nil {
		return nil, err
	}
	rw := &RatioWindow{c: c, ctx: o.ctx}
	runtime.SetFinalizer(rw, (*RatioWindow).Close)
	return rw, nil
}

// Close frees the ratio window. It is idempotent and always returns nil.
func (rw *RatioWindow) Close() error {
	if rw.c == nil {
		return nil
	}
	C.llmm_ratio_window_free(rw.c)
	rw.c = nil
	rw.ctx.release()
	rw.ctx = nil
	runtime.SetFinalizer(rw, nil)
	return nil
}

// Add counts events out of total (events ≤ total) at time stamp now: 1 of 1 for a failed
// request, 0 of 1 for a good one, or a batch.
func (rw *RatioWindow) Add(now, events, total uint64) error {
	if rw.c == nil {
		return errClosed("llmm_ratio_window_add", "ratio window")
	}
	st := C.llmm_ratio_window_add(rw.c, C.uint64_t(now), C.uint64_t(events), C.uint64_t(total))
	runtime.KeepAlive(rw)
	return check("llmm_ratio_window_add", st)
}

// Counts returns the sums of events and totals over the slots that span covers at time now.
func (rw *RatioWindow) Counts(now uint64, span time.Duration) (events, total uint64, err error) {
	const op = "llmm_ratio_window_counts"
	if rw.c == nil {
		return 0, 0, errClosed(op, "ratio window")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return 0, 0, err
	}
	var e, t C.uint64_t
	st := C.llmm_ratio_window_counts(rw.c, C.uint64_t(now), s, &e, &t)
	runtime.KeepAlive(rw)
	return uint64(e), uint64(t), check(op, st)
}

// Ratio returns events / total over the slots that span covers at time now (ErrEmpty when
// the total is 0).
func (rw *RatioWindow) Ratio(now uint64, span time.Duration) (float64, error) {
	const op = "llmm_ratio_window_ratio"
	if rw.c == nil {
		return 0, errClosed(op, "ratio window")
	}
	s, err := durationArg(op, "span", span)
	if err != nil {
		return 0, err
	}
	var r C.double
	st := C.llmm_ratio_window_ratio(rw.c, C.uint64_t(now), s, &r)
	runtime.KeepAlive(rw)
	return float64(r), check(op, st)
}

// Reset forgets every count and the clock.
func (rw *RatioWindow) Reset() error {
	if rw.c == nil {
		return errClosed("llmm_ratio_window_reset", "ratio window")
	}
	st := C.llmm_ratio_window_reset(rw.c)
	runtime.KeepAlive(rw)
	return check("llmm_ratio_window_reset", st)
}
