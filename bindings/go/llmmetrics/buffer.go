package llmmetrics

import "math"

// BufferSizeDefault is the number of values a [Buffer] gathers before it records them, when
// [NewBuffer] is given a size of 0.
const BufferSizeDefault = 1024

// batchAdder is what a [Buffer] records into: a [Sketch] or a [Shard].
type batchAdder interface {
	AddMany(vs []float64) error
}

// Buffer gathers values in Go and records them into a [Sketch] or a [Shard] with one cgo call
// per batch, so that recording one value costs a check and a store instead of a cgo crossing.
//
// Each value is checked when it is added: an invalid one (NaN, ±Inf, negative) returns an
// error matching [ErrInvalid] and is not kept, so it can never void the batch around it. The
// batch is recorded when the buffer is full, and by [Buffer.Flush], [Buffer.Snapshot] and
// [Buffer.Close]. Until then its values are in no sketch: a [Recorder.Snapshot] taken by
// another goroutine sees a shard's values up to its buffer's last flush.
//
// A Buffer belongs to the goroutine that adds to it (as its sketch or shard does).
type Buffer struct {
	dst  batchAdder
	vals []float64
	n    int
}

// NewBuffer returns a buffer of size values (0: [BufferSizeDefault]) that records into dst,
// a *[Sketch] or a *[Shard]. dst stays the caller's to close, after the buffer's Close.
func NewBuffer(dst interface{ AddMany([]float64) error }, size int) (*Buffer, error) {
	const op = "llmmetrics.NewBuffer"
	switch d := dst.(type) {
	case *Sketch:
		if d == nil {
			return nil, errArg(op, "nil sketch")
		}
	case *Shard:
		if d == nil {
			return nil, errArg(op, "nil shard")
		}
	default:
		return nil, errArg(op, "records into a *Sketch or a *Shard")
	}
	if size < 0 {
		return nil, errArg(op, "negative size")
	}
	if size == 0 {
		size = BufferSizeDefault
	}
	return &Buffer{dst: dst, vals: make([]float64, size)}, nil
}

// Add keeps one finite value ≥ 0, and records the batch when the buffer is full. An invalid
// value returns an error matching [ErrInvalid] and changes nothing; an error from recording
// the full batch (e.g. a closed sketch) leaves the values in the buffer.
func (b *Buffer) Add(v float64) error {
	if !(v >= 0 && v <= math.MaxFloat64) {
		return errArg("llmmetrics.Buffer.Add", "value is NaN, infinite or negative")
	}
	if b.n == len(b.vals) { // a failed flush left it full
		if err := b.Flush(); err != nil {
			return err
		}
	}
	b.vals[b.n] = v
	b.n++
	if b.n == len(b.vals) {
		return b.Flush()
	}
	return nil
}

// Len is the number of values gathered and not yet recorded.
func (b *Buffer) Len() int { return b.n }

// Flush records the gathered values with one call into the library. On error they stay in
// the buffer, and nothing of them is recorded.
func (b *Buffer) Flush() error {
	if b.n == 0 {
		return nil
	}
	if err := b.dst.AddMany(b.vals[:b.n]); err != nil {
		return err
	}
	b.n = 0
	return nil
}

// Snapshot flushes, then returns a new sketch holding what the destination holds: a clone of
// the sketch, or the shard's recorder's snapshot (every shard's values up to its last flush).
func (b *Buffer) Snapshot() (*Sketch, error) {
	if err := b.Flush(); err != nil {
		return nil, err
	}
	switch d := b.dst.(type) {
	case *Sketch:
		return d.Clone()
	default:
		return d.(*Shard).r.Snapshot()
	}
}

// Close flushes the gathered values; the sketch or shard stays open. It is idempotent: once
// the buffer is empty it returns nil.
func (b *Buffer) Close() error {
	return b.Flush()
}
