package llmmetrics

/*
#include <llmmetrics/sketch.h>
*/
import "C"

import (
	"runtime"
	"sync"
)

// Recorder collects values from many writer goroutines into one set of counts. Each writer
// takes its own [Shard] and records into it without locks; any goroutine may take a
// [Recorder.Snapshot] at any time, concurrently with the writers.
//
// Close the recorder only when no other call on it or its shards is running; a finalizer
// closes a forgotten recorder once no shard refers to it any more.
type Recorder struct {
	handle[C.llmm_recorder]
	mu sync.RWMutex // guards c against Close; the shard hot path does not take it
}

// NewRecorder creates a recorder whose snapshots have the given scale ([ScaleDefault] or
// [ScaleMin] … [ScaleMax]).
func NewRecorder(scale int, opts ...Option) (*Recorder, error) {
	sc, ok := int32Arg(scale)
	if !ok {
		return nil, errArg("llmm_recorder_new", "scale out of bounds")
	}
	r := &Recorder{}
	return owned(r, r.open("llmm_recorder_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_recorder) C.llmm_status {
		return C.llmm_recorder_new(cctx, sc, out)
	}))
}

// Close frees the recorder and all its shards; every [Shard] of it becomes unusable. It is
// idempotent and always returns nil.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handle.Close()
}

// SetRange sets the tracked value range (as [Sketch.SetRange]); allowed only before the
// first shard is handed out.
func (r *Recorder) SetRange(lo, hi float64) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.call("llmm_recorder_set_range", func(c *C.llmm_recorder) C.llmm_status {
		return C.llmm_recorder_set_range(c, C.double(lo), C.double(hi))
	})
}

// Shard hands out a shard for one writer goroutine: a released one if there is one, else a
// new one. Safe for concurrent use.
func (r *Recorder) Shard() (*Shard, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var c *C.llmm_shard
	if err := r.call("llmm_recorder_shard", func(rc *C.llmm_recorder) C.llmm_status {
		return C.llmm_recorder_shard(rc, &c)
	}); err != nil {
		return nil, err
	}
	sh := &Shard{c: c, r: r}
	runtime.SetFinalizer(sh, (*Shard).Release)
	return sh, nil
}

// SnapshotInto replaces the contents, scale and range of into with the cumulative totals of
// every shard; into keeps its context. Safe while writers run.
func (r *Recorder) SnapshotInto(into *Sketch) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	const op = "llmm_recorder_snapshot"
	if r.c != nil && (into == nil || into.c == nil) {
		return errClosed(op, "sketch")
	}
	defer runtime.KeepAlive(into)
	return r.call(op, func(c *C.llmm_recorder) C.llmm_status { return C.llmm_recorder_snapshot(c, into.c) })
}

// Snapshot returns a new sketch, allocated through the recorder's context, holding the
// cumulative totals of every shard. Safe while writers run. Two snapshots and
// [Sketch.Subtract] give the values recorded in between.
func (r *Recorder) Snapshot() (*Sketch, error) {
	r.mu.RLock()
	ctx := r.ctx
	r.mu.RUnlock()
	s, err := NewSketch(ScaleDefault, WithContext(ctx))
	if err != nil {
		return nil, err
	}
	if err := r.SnapshotInto(s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Shard is a single-writer part of a [Recorder]: one goroutine at a time records into it
// (it may move between goroutines), concurrently with other shards and with snapshots.
// Release it when the writer is done; its counts stay in the recorder.
type Shard struct {
	c *C.llmm_shard
	r *Recorder
}

// usable reports whether the shard and its recorder are open.
func (sh *Shard) usable() bool {
	return sh.c != nil && sh.r.c != nil
}

// Add records one finite value ≥ 0 (one cgo call; see [Shard.AddMany] for batches).
func (sh *Shard) Add(v float64) error {
	if !sh.usable() {
		return errClosed("llmm_shard_add", "shard")
	}
	st := C.llmm_shard_add(sh.c, C.double(v))
	runtime.KeepAlive(sh)
	return check("llmm_shard_add", st)
}

// AddMany records a batch in one call into the library, all or nothing. The slice is read
// during the call only.
func (sh *Shard) AddMany(vs []float64) error {
	if !sh.usable() {
		return errClosed("llmm_shard_add_many", "shard")
	}
	st := C.llmm_shard_add_many(sh.c, f64ptr(vs), C.size_t(len(vs)))
	runtime.KeepAlive(sh)
	runtime.KeepAlive(vs)
	return check("llmm_shard_add_many", st)
}

// Release gives the shard back to its recorder, which may hand it out again; the Go value
// becomes unusable. It is idempotent, and a no-op once the recorder is closed.
func (sh *Shard) Release() {
	if sh.c == nil {
		return
	}
	sh.r.mu.RLock()
	if sh.r.c != nil {
		C.llmm_shard_release(sh.c)
	}
	sh.r.mu.RUnlock()
	sh.c = nil
	runtime.SetFinalizer(sh, nil)
}
