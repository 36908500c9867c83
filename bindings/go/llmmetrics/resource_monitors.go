package llmmetrics

/*
#include <llmmetrics/resource.h>
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// Windows of the resource monitors.
const (
	KVHitWindowDefault  = time.Minute // window of a KVHitTracker made with 0
	ResourceWindowSlots = 60          // slots the window of a KVHitTracker or TLBMonitor is divided into
)

// KVHitReading is the KV-cache hit rate over a [KVHitTracker]'s window.
type KVHitReading struct {
	Hits    uint64  // hits in the window
	Lookups uint64  // lookups in the window, > 0
	HitRate float64 // Hits / Lookups
	TTL     int64   // the cache TTL for that hit rate, as KVTTL gives it
}

// KVHitTracker counts KV-cache hits and lookups over a sliding time window (caller's clock)
// and derives the hit rate and the cache TTL from it.
//
// A KVHitTracker is used by one goroutine at a time. Close it when done; a finalizer closes
// a forgotten one.
type KVHitTracker struct {
	c   *C.llmm_kv_hit_tracker
	ctx *Context
}

// NewKVHitTracker creates a tracker over window (0 for [KVHitWindowDefault]).
func NewKVHitTracker(window time.Duration, opts ...Option) (*KVHitTracker, error) {
	const op = "llmm_kv_hit_tracker_new"
	o := collect(opts)
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	var c *C.llmm_kv_hit_tracker
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_kv_hit_tracker_new(cctx, w, &c)
	}); err != nil {
		return nil, err
	}
	t := &KVHitTracker{c: c, ctx: o.ctx}
	runtime.SetFinalizer(t, (*KVHitTracker).Close)
	return t, nil
}

// Close frees the tracker. It is idempotent and always returns nil.
func (t *KVHitTracker) Close() error {
	if t.c == nil {
		return nil
	}
	C.llmm_kv_hit_tracker_free(t.c)
	t.c = nil
	t.ctx.release()
	t.ctx = nil
	runtime.SetFinalizer(t, nil)
	return nil
}

// Add counts hits out of lookups (hits ≤ lookups) at time stamp now.
func (t *KVHitTracker) Add(now, hits, lookups uint64) error {
	if t.c == nil {
		return errClosed("llmm_kv_hit_tracker_add", "tracker")
	}
	st := C.llmm_kv_hit_tracker_add(t.c, C.uint64_t(now), C.uint64_t(hits), C.uint64_t(lookups))
	runtime.KeepAlive(t)
	return check("llmm_kv_hit_tracker_add", st)
}

// Read returns the hit rate over the window ending at now and the TTL it gives (ErrEmpty
// without a lookup in the window).
func (t *KVHitTracker) Read(now uint64) (KVHitReading, error) {
	if t.c == nil {
		return KVHitReading{}, errClosed("llmm_kv_hit_tracker_read", "tracker")
	}
	var r C.llmm_kv_hit_reading
	if err := initStruct(C.LLMM_STRUCT_KV_HIT_READING, unsafe.Pointer(&r), C.sizeof_llmm_kv_hit_reading); err != nil {
		return KVHitReading{}, err
	}
	st := C.llmm_kv_hit_tracker_read(t.c, C.uint64_t(now), &r)
	runtime.KeepAlive(t)
	if err := check("llmm_kv_hit_tracker_read", st); err != nil {
		return KVHitReading{}, err
	}
	return KVHitReading{Hits: uint64(r.hits), Lookups: uint64(r.lookups), HitRate: float64(r.hit_rate),
		TTL: int64(r.ttl)}, nil
}

// Reset forgets every count and the clock.
func (t *KVHitTracker) Reset() error {
	if t.c == nil {
		return errClosed("llmm_kv_hit_tracker_reset", "tracker")
	}
	st := C.llmm_kv_hit_tracker_reset(t.c)
	runtime.KeepAlive(t)
	return check("llmm_kv_hit_tracker_reset", st)
}

// TLBReading is what a [TLBMonitor] reads over its window.
type TLBReading struct {
	Alert       bool          // MissRate > MaxMissRate
	Misses      uint64        // TLB misses in the window
	Accesses    uint64        // TLB accesses in the window, > 0
	Window      time.Duration // the monitor's window
	MissRate    float64       // Misses / Accesses
	MaxMissRate float64       // the monitor's threshold
}

// TLBMonitor watches the TLB miss rate over a sliding time window against a threshold (an
// OOM precursor); the alert fires when the rate exceeds the threshold strictly.
//
// A TLBMonitor is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type TLBMonitor struct {
	c   *C.llmm_tlb_monitor
	ctx *Context
}

func wrapTLBMonitor(c *C.llmm_tlb_monitor, ctx *Context) *TLBMonitor {
	m := &TLBMonitor{c: c, ctx: ctx}
	runtime.SetFinalizer(m, (*TLBMonitor).Close)
	return m
}

// NewTLBMonitor creates a monitor with a preset's threshold and window.
func NewTLBMonitor(workload TLBWorkload, opts ...Option) (*TLBMonitor, error) {
	const op = "llmm_tlb_monitor_new"
	o := collect(opts)
	var c *C.llmm_tlb_monitor
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_tlb_monitor_new(cctx, C.llmm_tlb_workload(workload), &c)
	}); err != nil {
		return nil, err
	}
	return wrapTLBMonitor(c, o.ctx), nil
}

// NewTLBMonitorCustom creates a monitor with a threshold in [0, 1] and a window > 0.
func NewTLBMonitorCustom(maxMissRate float64, window time.Duration, opts ...Option) (*TLBMonitor, error) {
	const op = "llmm_tlb_monitor_new_custom"
	o := collect(opts)
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	var c *C.llmm_tlb_monitor
	if err := o.ctx.construct(op, func(cctx *C.llmm_ctx) C.llmm_status {
		return C.llmm_tlb_monitor_new_custom(cctx, C.double(maxMissRate), w, &c)
	}); err != nil {
		return nil, err
	}
	return wrapTLBMonitor(c, o.ctx), nil
}

// Close frees the monitor. It is idempotent and always returns nil.
func (m *TLBMonitor) Close() error {
	if m.c == nil {
		return nil
	}
	C.llmm_tlb_monitor_free(m.c)
	m.c = nil
	m.ctx.release()
	m.ctx = nil
	runtime.SetFinalizer(m, nil)
	return nil
}

// Add counts misses out of accesses (misses ≤ accesses) at time stamp now, for example the
// deltas of the dTLB-load-misses and dTLB-loads counters since the last call.
func (m *TLBMonitor) Add(now, misses, accesses uint64) error {
	if m.c == nil {
		return errClosed("llmm_tlb_monitor_add", "monitor")
	}
	st := C.llmm_tlb_monitor_add(m.c, C.uint64_t(now), C.uint64_t(misses), C.uint64_t(accesses))
	runtime.KeepAlive(m)
	return check("llmm_tlb_monitor_add", st)
}

// Read returns the miss rate over the window ending at now and whether it exceeds the
// threshold (ErrEmpty without an access in the window).
func (m *TLBMonitor) Read(now uint64) (TLBReading, error) {
	if m.c == nil {
		return TLBReading{}, errClosed("llmm_tlb_monitor_read", "monitor")
	}
	var r C.llmm_tlb_reading
	if err := initStruct(C.LLMM_STRUCT_TLB_READING, unsafe.Pointer(&r), C.sizeof_llmm_tlb_reading); err != nil {
		return TLBReading{}, err
	}
	st := C.llmm_tlb_monitor_read(m.c, C.uint64_t(now), &r)
	runtime.KeepAlive(m)
	if err := check("llmm_tlb_monitor_read", st); err != nil {
		return TLBReading{}, err
	}
	return TLBReading{Alert: r.alert != 0, Misses: uint64(r.misses), Accesses: uint64(r.accesses),
		Window: time.Duration(r.window_ns), MissRate: float64(r.miss_rate), MaxMissRate: float64(r.max_miss_rate)}, nil
}

// Reset forgets every count and the clock; the threshold and window stay.
func (m *TLBMonitor) Reset() error {
	if m.c == nil {
		return errClosed("llmm_tlb_monitor_reset", "monitor")
	}
	st := C.llmm_tlb_monitor_reset(m.c)
	runtime.KeepAlive(m)
	return check("llmm_tlb_monitor_reset", st)
}
