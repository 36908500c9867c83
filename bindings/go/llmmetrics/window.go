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

// spanArg converts the span of a query op on the object of h (ErrState first when closed).
func spanArg[T any](h *handle[T], op string, span time.Duration) (C.uint64_t, error) {
	if h.c == nil {
		return 0, errClosed(op, h.what())
	}
	return durationArg(op, "span", span)
}

// spanCall runs f on the live object of h with the time stamp now and the converted span of
// the query op.
func spanCall[T any](h *handle[T], op string, now uint64, span time.Duration,
	f func(c *T, now, span C.uint64_t) C.llmm_status) error {
	s, err := spanArg(h, op, span)
	if err != nil {
		return err
	}
	return h.call(op, func(c *T) C.llmm_status { return f(c, C.uint64_t(now), s) })
}

// ringArg converts the slot length and the slot count of a ring; counts beyond uint32 are
// out of bounds like any above the maximum.
func ringArg(op string, slot time.Duration, slots int) (C.uint64_t, C.uint32_t, error) {
	slotNs, err := durationArg(op, "slot length", slot)
	if err == nil && (slots < 0 || uint64(slots) > math.MaxUint32) {
		err = errArg(op, "slot count out of bounds")
	}
	return slotNs, C.uint32_t(slots), err
}

// openSlots makes h's object with a ring constructor: slots slots of length slot, from the
// context of opts.
func openSlots[T any](h *handle[T], op string, slot time.Duration, slots int, opts []Option,
	make func(*C.llmm_ctx, C.uint64_t, C.uint32_t, **T) C.llmm_status) error {
	slotNs, n, err := ringArg(op, slot, slots)
	if err != nil {
		return err
	}
	return h.open(op, opts, func(cctx *C.llmm_ctx, out **T) C.llmm_status {
		return make(cctx, slotNs, n, out)
	})
}

// openRing is [openSlots] for a ring holding sketches of scale (checked after the ring).
func openRing[T any](h *handle[T], op string, slot time.Duration, slots, scale int, opts []Option,
	make func(*C.llmm_ctx, C.uint64_t, C.uint32_t, C.int32_t, **T) C.llmm_status) error {
	sc, ok := int32Arg(scale)
	if _, _, err := ringArg(op, slot, slots); err == nil && !ok {
		return errArg(op, "scale out of bounds")
	}
	return openSlots(h, op, slot, slots, opts, func(cctx *C.llmm_ctx, slotNs C.uint64_t, n C.uint32_t, out **T) C.llmm_status {
		return make(cctx, slotNs, n, sc, out)
	})
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
type Window struct{ handle[C.llmm_window] }

// NewWindow creates a window of slots slots of length slot (0 for [WindowSlotDefault] and
// [WindowSlotsDefault]: 60 × 1 s) holding sketches of the given scale.
func NewWindow(slot time.Duration, slots, scale int, opts ...Option) (*Window, error) {
	w := &Window{}
	return owned(w, openRing(&w.handle, "llmm_window_new", slot, slots, scale, opts,
		func(cctx *C.llmm_ctx, slotNs C.uint64_t, n C.uint32_t, sc C.int32_t, out **C.llmm_window) C.llmm_status {
			return C.llmm_window_new(cctx, slotNs, n, sc, out)
		}))
}

// Geometry returns the slot length and slot count, defaults resolved.
func (w *Window) Geometry() (slot time.Duration, slots int, err error) {
	var ns C.uint64_t
	var n C.uint32_t
	err = w.call("llmm_window_geometry", func(c *C.llmm_window) C.llmm_status { return C.llmm_window_geometry(c, &ns, &n) })
	return time.Duration(ns), int(n), err
}

// Add records one finite value ≥ 0 at time stamp now (nanoseconds).
func (w *Window) Add(now uint64, v float64) error {
	return w.call("llmm_window_add", func(c *C.llmm_window) C.llmm_status {
		return C.llmm_window_add(c, C.uint64_t(now), C.double(v))
	})
}

// AddMany records a batch, all at time stamp now, in one call into the library; all or
// nothing.
func (w *Window) AddMany(now uint64, vs []float64) error {
	defer runtime.KeepAlive(vs)
	return w.call("llmm_window_add_many", func(c *C.llmm_window) C.llmm_status {
		return C.llmm_window_add_many(c, C.uint64_t(now), f64ptr(vs), C.size_t(len(vs)))
	})
}

// Count returns the number of values in the slots that span covers at time now.
func (w *Window) Count(now uint64, span time.Duration) (uint64, error) {
	var n C.uint64_t
	err := spanCall(&w.handle, "llmm_window_count", now, span, func(c *C.llmm_window, t, s C.uint64_t) C.llmm_status {
		return C.llmm_window_count(c, t, s, &n)
	})
	return uint64(n), err
}

// Quantile returns quantile q of the values in the slots that span covers at time now
// (ErrEmpty when there are none).
func (w *Window) Quantile(now uint64, span time.Duration, q float64) (float64, error) {
	var v C.double
	err := spanCall(&w.handle, "llmm_window_quantile", now, span, func(c *C.llmm_window, t, s C.uint64_t) C.llmm_status {
		return C.llmm_window_quantile(c, t, s, C.double(q), &v)
	})
	return float64(v), err
}

// Quantiles answers many quantiles over a span in one merge and one pass.
func (w *Window) Quantiles(now uint64, span time.Duration, qs []float64) ([]float64, error) {
	const op = "llmm_window_quantiles"
	s, err := spanArg(&w.handle, op, span)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(qs))
	err = w.call(op, func(c *C.llmm_window) C.llmm_status {
		return C.llmm_window_quantiles(c, C.uint64_t(now), s, f64ptr(qs), C.size_t(len(qs)), f64ptr(out))
	})
	runtime.KeepAlive(qs)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SnapshotInto replaces the contents, scale and range of into with the exact merge of the
// slots that span covers at time now (an empty sketch for an empty span).
func (w *Window) SnapshotInto(now uint64, span time.Duration, into *Sketch) error {
	const op = "llmm_window_snapshot"
	s, err := spanArg(&w.handle, op, span)
	if err != nil {
		return err
	}
	if into == nil || into.c == nil {
		return errClosed(op, "sketch")
	}
	defer runtime.KeepAlive(into)
	return w.call(op, func(c *C.llmm_window) C.llmm_status { return C.llmm_window_snapshot(c, C.uint64_t(now), s, into.c) })
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
	return w.call("llmm_window_reset", func(c *C.llmm_window) C.llmm_status {
		return C.llmm_window_reset(c)
	})
}

// RatioWindow counts (events, total) pairs — errors and requests, TLB misses and accesses,
// cache hits and lookups — on a time ring with the slot, span and clock rules of [Window],
// and answers events / total over any span.
//
// A RatioWindow is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type RatioWindow struct{ handle[C.llmm_ratio_window] }

// NewRatioWindow creates a ratio window of slots slots of length slot (0 for the defaults).
func NewRatioWindow(slot time.Duration, slots int, opts ...Option) (*RatioWindow, error) {
	rw := &RatioWindow{}
	return owned(rw, openSlots(&rw.handle, "llmm_ratio_window_new", slot, slots, opts,
		func(cctx *C.llmm_ctx, slotNs C.uint64_t, n C.uint32_t, out **C.llmm_ratio_window) C.llmm_status {
			return C.llmm_ratio_window_new(cctx, slotNs, n, out)
		}))
}

// Add counts events out of total (events ≤ total) at time stamp now: 1 of 1 for a failed
// request, 0 of 1 for a good one, or a batch.
func (rw *RatioWindow) Add(now, events, total uint64) error {
	return rw.call("llmm_ratio_window_add", func(c *C.llmm_ratio_window) C.llmm_status {
		return C.llmm_ratio_window_add(c, C.uint64_t(now), C.uint64_t(events), C.uint64_t(total))
	})
}

// Counts returns the sums of events and totals over the slots that span covers at time now.
func (rw *RatioWindow) Counts(now uint64, span time.Duration) (events, total uint64, err error) {
	var e, n C.uint64_t
	err = spanCall(&rw.handle, "llmm_ratio_window_counts", now, span, func(c *C.llmm_ratio_window, t, s C.uint64_t) C.llmm_status {
		return C.llmm_ratio_window_counts(c, t, s, &e, &n)
	})
	return uint64(e), uint64(n), err
}

// Ratio returns events / total over the slots that span covers at time now (ErrEmpty when
// the total is 0).
func (rw *RatioWindow) Ratio(now uint64, span time.Duration) (float64, error) {
	var r C.double
	err := spanCall(&rw.handle, "llmm_ratio_window_ratio", now, span, func(c *C.llmm_ratio_window, t, s C.uint64_t) C.llmm_status {
		return C.llmm_ratio_window_ratio(c, t, s, &r)
	})
	return float64(r), err
}

// Reset forgets every count and the clock.
func (rw *RatioWindow) Reset() error {
	return rw.call("llmm_ratio_window_reset", func(c *C.llmm_ratio_window) C.llmm_status {
		return C.llmm_ratio_window_reset(c)
	})
}
