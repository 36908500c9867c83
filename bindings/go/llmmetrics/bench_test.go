package llmmetrics

import (
	"fmt"
	"testing"
	"time"
)

// Benchmarks of the binding's hot paths on log-normal latencies (median 200 ms, σ = 1, fixed
// seed), each reporting ns/value. BenchmarkAddManyVsC also reports the batch add from Go as
// a multiple of llmm_sketch_add_many called from a C loop (x-of-C; the target is ≤ 2).

var benchValues = lognormal(42, 1<<16, 0.2, 1)

func BenchmarkSketchAdd(b *testing.B) {
	s := testSketch(b)
	mustOK(b, s.AddMany(benchValues)) // touch the bucket region first
	mask := len(benchValues) - 1
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if err := s.Add(benchValues[i&mask]); err != nil {
			b.Fatal(err)
		}
	}
	reportPerValue(b, start, b.N)
}

// reportPerValue reports the time since start per value (testing.B.Elapsed is Go 1.20).
func reportPerValue(b *testing.B, start time.Time, values int) {
	b.ReportMetric(float64(time.Since(start))/float64(values), "ns/value")
}

func batchSizes() []int { return []int{16, 256, 4096, 65536} }

// benchBatches times run over each batch size of batchSizes, on a sketch that already holds
// the benchmark's values; run records b.N batches of the given slice.
func benchBatches(b *testing.B, run func(b *testing.B, s *Sketch, batch []float64)) {
	for _, n := range batchSizes() {
		n := n
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := testSketch(b)
			mustOK(b, s.AddMany(benchValues))
			b.ResetTimer()
			start := time.Now()
			run(b, s, benchValues[:n])
			reportPerValue(b, start, b.N*n)
		})
	}
}

func BenchmarkSketchAddMany(b *testing.B) {
	benchBatches(b, func(b *testing.B, s *Sketch, batch []float64) {
		for i := 0; i < b.N; i++ {
			if err := s.AddMany(batch); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCAddMany(b *testing.B) {
	benchBatches(b, func(b *testing.B, s *Sketch, batch []float64) {
		mustOK(b, cAddManyLoop(s, batch, b.N))
	})
}

func BenchmarkShardAddMany(b *testing.B) {
	_, sh := testShard(b)
	const n = 4096
	batch := benchValues[:n]
	mustOK(b, sh.AddMany(benchValues))
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if err := sh.AddMany(batch); err != nil {
			b.Fatal(err)
		}
	}
	reportPerValue(b, start, b.N*n)
}

// BenchmarkAddManyVsC times the same 4096-value batches through Sketch.AddMany (one cgo
// call per batch) and through a C loop (one cgo call in all), alternating in rounds so that
// both see the same machine load.
func BenchmarkAddManyVsC(b *testing.B) {
	const n = 4096
	s := testSketch(b)
	batch := benchValues[:n]
	mustOK(b, s.AddMany(benchValues))
	var goTime, cTime time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; {
		round := 64
		if b.N-done < round {
			round = b.N - done
		}
		t0 := time.Now()
		for i := 0; i < round; i++ {
			if err := s.AddMany(batch); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		mustOK(b, cAddManyLoop(s, batch, round))
		t2 := time.Now()
		goTime += t1.Sub(t0)
		cTime += t2.Sub(t1)
		done += round
	}
	values := float64(b.N * n)
	b.ReportMetric(float64(goTime)/values, "go-ns/value")
	b.ReportMetric(float64(cTime)/values, "c-ns/value")
	b.ReportMetric(float64(goTime)/float64(cTime), "x-of-C")
}
