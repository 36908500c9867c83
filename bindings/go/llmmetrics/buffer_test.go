package llmmetrics

import (
	"math"
	"testing"
)

// Values added one by one through a buffer end up in the sketch exactly as one AddMany of
// them; each full buffer is recorded at once, the rest on Flush or Close.
func TestBufferRecordsLikeAddMany(t *testing.T) {
	vals := lognormal(5, 10000, 0.2, 1)
	got := testSketch(t)
	want := testSketch(t)
	b, err := NewBuffer(got, 256)
	mustOK(t, err)
	for i, v := range vals {
		mustOK(t, b.Add(v))
		if b.Len() != (i+1)%256 {
			t.Fatalf("after %d values %d gathered, want %d", i+1, b.Len(), (i+1)%256)
		}
		if got.Count() != uint64(i+1-(i+1)%256) {
			t.Fatalf("after %d values the sketch has %d", i+1, got.Count())
		}
	}
	mustOK(t, b.Close())
	mustOK(t, b.Close()) // idempotent
	mustOK(t, want.AddMany(vals))
	sameSketch(t, got, want)
}

// The buffer accepts exactly the values Sketch.Add accepts; a rejected value is not kept and
// the values around it are recorded.
func TestBufferRejectsWhatAddRejects(t *testing.T) {
	edge := []float64{0, math.Copysign(0, -1), 5e-324, 1e-300, 0.25, math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), -1, -5e-324}
	viaAdd := testSketch(t)
	viaBuf := testSketch(t)
	b, err := NewBuffer(viaBuf, 4)
	mustOK(t, err)
	for _, v := range edge {
		errAdd, errBuf := viaAdd.Add(v), b.Add(v)
		if (errAdd == nil) != (errBuf == nil) {
			t.Fatalf("value %g: Sketch.Add says %v, Buffer.Add %v", v, errAdd, errBuf)
		}
		if errBuf != nil {
			wantStatus(t, errBuf, ErrInvalid)
		}
	}
	mustOK(t, b.Flush())
	sameSketch(t, viaBuf, viaAdd)
}

// Snapshot flushes first: of a sketch, a clone; of a shard, the recorder's snapshot.
func TestBufferSnapshot(t *testing.T) {
	s := testSketch(t)
	b, err := NewBuffer(s, 0)
	mustOK(t, err)
	for i := 1; i <= 10; i++ {
		mustOK(t, b.Add(float64(i)))
	}
	snap, err := b.Snapshot()
	mustOK(t, err)
	defer snap.Close()
	if snap.Count() != 10 || s.Count() != 10 || b.Len() != 0 {
		t.Fatalf("snapshot %d, sketch %d, gathered %d; want 10, 10, 0", snap.Count(), s.Count(), b.Len())
	}

	r, sh := testShard(t)
	bs, err := NewBuffer(sh, 8)
	mustOK(t, err)
	for i := 1; i <= 5; i++ {
		mustOK(t, bs.Add(float64(i)))
	}
	early, err := r.Snapshot() // the recorder alone sees nothing yet
	mustOK(t, err)
	defer early.Close()
	rs, err := bs.Snapshot()
	mustOK(t, err)
	defer rs.Close()
	if early.Count() != 0 || rs.Count() != 5 {
		t.Fatalf("before the flush %d, after %d; want 0, 5", early.Count(), rs.Count())
	}
	if q, err := rs.Quantile(1); err != nil || q != 5 {
		t.Fatalf("max %g (%v), want 5", q, err)
	}
}

// A batch that cannot be recorded (closed sketch) stays in the buffer; bad arguments fail.
func TestBufferErrors(t *testing.T) {
	s, err := NewSketch(ScaleDefault)
	mustOK(t, err)
	b, err := NewBuffer(s, 2)
	mustOK(t, err)
	mustOK(t, b.Add(1))
	s.Close()
	wantStatus(t, b.Add(2), ErrState)
	if b.Len() != 2 {
		t.Fatalf("%d gathered after a failed flush, want 2", b.Len())
	}
	wantStatus(t, b.Add(3), ErrState)
	wantStatus(t, b.Close(), ErrState)
	var nilSketch *Sketch
	_, err = NewBuffer(nilSketch, 0)
	wantStatus(t, err, ErrInvalid)
	_, err = NewBuffer(s, -1)
	wantStatus(t, err, ErrInvalid)
}
