package llmmetrics

import (
	"sync"
	"testing"
)

// Several goroutines record through their own shards while another snapshots; the final
// snapshot holds every value, with quantiles within the bound of the exact ones.
func TestRecorderConcurrentWriters(t *testing.T) {
	ctx, err := NewContext()
	mustOK(t, err)
	defer ctx.Close()
	r, err := NewRecorder(ScaleDefault, WithContext(ctx))
	mustOK(t, err)
	defer r.Close()

	const writers = 4
	parts := make([][]float64, writers)
	var all []float64
	for w := range parts {
		parts[w] = lognormal(int64(100+w), 20000, 0.2, 1.2)
		all = append(all, parts[w]...)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	snapErr := make(chan error, 1)
	go func() {
		s, err := NewSketch(ScaleDefault)
		if err != nil {
			snapErr <- err
			return
		}
		defer s.Close()
		var last uint64
		for {
			select {
			case <-done:
				snapErr <- nil
				return
			default:
			}
			if err := r.SnapshotInto(s); err != nil {
				snapErr <- err
				return
			}
			if s.Count() < last {
				snapErr <- newError("snapshot", StatusState, "count went backwards")
				return
			}
			last = s.Count()
		}
	}()
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(vals []float64) {
			defer wg.Done()
			sh, err := r.Shard()
			if err != nil {
				t.Error(err)
				return
			}
			defer sh.Release()
			half := len(vals) / 2
			for _, v := range vals[:half] {
				if err := sh.Add(v); err != nil {
					t.Error(err)
					return
				}
			}
			for i := half; i < len(vals); i += 1000 {
				end := i + 1000
				if end > len(vals) {
					end = len(vals)
				}
				if err := sh.AddMany(vals[i:end]); err != nil {
					t.Error(err)
					return
				}
			}
		}(parts[w])
	}
	wg.Wait()
	close(done)
	mustOK(t, <-snapErr)

	snap, err := r.Snapshot()
	mustOK(t, err)
	defer snap.Close()
	if snap.Count() != uint64(len(all)) {
		t.Fatalf("snapshot count %d, want %d", snap.Count(), len(all))
	}
	checkQuantiles(t, snap, all, probes)
}

func TestRecorderIntervalsAndShardReuse(t *testing.T) {
	r, err := NewRecorder(ScaleDefault)
	mustOK(t, err)
	defer r.Close()
	mustOK(t, r.SetRange(1e-6, 1e6))
	sh, err := r.Shard()
	mustOK(t, err)
	wantStatus(t, r.SetRange(1e-3, 1e3), ErrState)
	first := lognormal(21, 5000, 0.2, 1)
	mustOK(t, sh.AddMany(first))
	earlier, err := r.Snapshot()
	mustOK(t, err)
	defer earlier.Close()
	lo, hi, err := earlier.Range()
	mustOK(t, err)
	if lo != 1e-6 || hi != 1e6 {
		t.Fatalf("snapshot range %v..%v", lo, hi)
	}
	sh.Release()
	sh.Release()
	wantStatus(t, sh.Add(1), ErrState)

	sh2, err := r.Shard()
	mustOK(t, err)
	second := lognormal(22, 3000, 0.5, 1)
	mustOK(t, sh2.AddMany(second))
	wantStatus(t, sh2.AddMany([]float64{1, -1}), ErrInvalid)
	wantStatus(t, sh2.Add(-1), ErrInvalid)
	later, err := r.Snapshot()
	mustOK(t, err)
	defer later.Close()
	mustOK(t, later.Subtract(earlier))
	if later.Count() != uint64(len(second)) {
		t.Fatalf("interval count %d", later.Count())
	}
	checkQuantilesWithin(t, later, second, probes)

	mustOK(t, r.Close())
	mustOK(t, r.Close())
	wantStatus(t, sh2.Add(1), ErrState)
	sh2.Release() // a no-op once the recorder is closed
	_, err = r.Shard()
	wantStatus(t, err, ErrState)
	_, err = r.Snapshot()
	wantStatus(t, err, ErrState)
}
