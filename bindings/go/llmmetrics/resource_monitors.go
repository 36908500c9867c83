package llmmetrics

/*
#include <llmmetrics/resource.h>
*/
import "C"

import "time"

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
type KVHitTracker struct{ handle[C.llmm_kv_hit_tracker] }

// NewKVHitTracker creates a tracker over window (0 for [KVHitWindowDefault]).
func NewKVHitTracker(window time.Duration, opts ...Option) (*KVHitTracker, error) {
	const op = "llmm_kv_hit_tracker_new"
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	t := &KVHitTracker{}
	return owned(t, t.open(op, opts, func(cctx *C.llmm_ctx, out **C.llmm_kv_hit_tracker) C.llmm_status {
		return C.llmm_kv_hit_tracker_new(cctx, w, out)
	}))
}

// Add counts hits out of lookups (hits ≤ lookups) at time stamp now.
func (t *KVHitTracker) Add(now, hits, lookups uint64) error {
	return t.call("llmm_kv_hit_tracker_add", func(c *C.llmm_kv_hit_tracker) C.llmm_status {
		return C.llmm_kv_hit_tracker_add(c, C.uint64_t(now), C.uint64_t(hits), C.uint64_t(lookups))
	})
}

// Read returns the hit rate over the window ending at now and the TTL it gives (ErrEmpty
// without a lookup in the window).
func (t *KVHitTracker) Read(now uint64) (KVHitReading, error) {
	r, err := read(&t.handle, "llmm_kv_hit_tracker_read", C.LLMM_STRUCT_KV_HIT_READING,
		func(c *C.llmm_kv_hit_tracker, r *C.llmm_kv_hit_reading) C.llmm_status {
			return C.llmm_kv_hit_tracker_read(c, C.uint64_t(now), r)
		})
	if err != nil {
		return KVHitReading{}, err
	}
	return KVHitReading{Hits: uint64(r.hits), Lookups: uint64(r.lookups), HitRate: float64(r.hit_rate),
		TTL: int64(r.ttl)}, nil
}

// Reset forgets every count and the clock.
func (t *KVHitTracker) Reset() error {
	return t.call("llmm_kv_hit_tracker_reset", func(c *C.llmm_kv_hit_tracker) C.llmm_status {
		return C.llmm_kv_hit_tracker_reset(c)
	})
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
type TLBMonitor struct{ handle[C.llmm_tlb_monitor] }

// NewTLBMonitor creates a monitor with a preset's threshold and window.
func NewTLBMonitor(workload TLBWorkload, opts ...Option) (*TLBMonitor, error) {
	m := &TLBMonitor{}
	return owned(m, m.open("llmm_tlb_monitor_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_tlb_monitor) C.llmm_status {
		return C.llmm_tlb_monitor_new(cctx, C.llmm_tlb_workload(workload), out)
	}))
}

// NewTLBMonitorCustom creates a monitor with a threshold in [0, 1] and a window > 0.
func NewTLBMonitorCustom(maxMissRate float64, window time.Duration, opts ...Option) (*TLBMonitor, error) {
	const op = "llmm_tlb_monitor_new_custom"
	w, err := durationArg(op, "window", window)
	if err != nil {
		return nil, err
	}
	m := &TLBMonitor{}
	return owned(m, m.open(op, opts, func(cctx *C.llmm_ctx, out **C.llmm_tlb_monitor) C.llmm_status {
		return C.llmm_tlb_monitor_new_custom(cctx, C.double(maxMissRate), w, out)
	}))
}

// Add counts misses out of accesses (misses ≤ accesses) at time stamp now, for example the
// deltas of the dTLB-load-misses and dTLB-loads counters since the last call.
func (m *TLBMonitor) Add(now, misses, accesses uint64) error {
	return m.call("llmm_tlb_monitor_add", func(c *C.llmm_tlb_monitor) C.llmm_status {
		return C.llmm_tlb_monitor_add(c, C.uint64_t(now), C.uint64_t(misses), C.uint64_t(accesses))
	})
}

// Read returns the miss rate over the window ending at now and whether it exceeds the
// threshold (ErrEmpty without an access in the window).
func (m *TLBMonitor) Read(now uint64) (TLBReading, error) {
	r, err := read(&m.handle, "llmm_tlb_monitor_read", C.LLMM_STRUCT_TLB_READING,
		func(c *C.llmm_tlb_monitor, r *C.llmm_tlb_reading) C.llmm_status {
			return C.llmm_tlb_monitor_read(c, C.uint64_t(now), r)
		})
	if err != nil {
		return TLBReading{}, err
	}
	return TLBReading{Alert: r.alert != 0, Misses: uint64(r.misses), Accesses: uint64(r.accesses),
		Window: time.Duration(r.window_ns), MissRate: float64(r.miss_rate), MaxMissRate: float64(r.max_miss_rate)}, nil
}

// Reset forgets every count and the clock; the threshold and window stay.
func (m *TLBMonitor) Reset() error {
	return m.call("llmm_tlb_monitor_reset", func(c *C.llmm_tlb_monitor) C.llmm_status {
		return C.llmm_tlb_monitor_reset(c)
	})
}
