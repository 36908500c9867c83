// Package peerbench times per-value recording from Go through the binding's [llmmetrics.Buffer]
// against two pure-Go peers in the same run: github.com/codahale/hdrhistogram's RecordValue
// and github.com/influxdata/tdigest's Add (Debian's golang-github-codahale-hdrhistogram-dev
// and golang-github-influxdata-tdigest-dev, built in GOPATH mode by peer_bench.sh). The
// binding itself depends on neither; only this benchmark does.
package peerbench

import (
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/codahale/hdrhistogram"
	"github.com/influxdata/tdigest"
	"llmmetrics"
)

// Log-normal latencies in seconds (median 200 ms, σ = 1, fixed seed).
func lognormal(seed int64, n int, median, sigma float64) []float64 {
	rng := rand.New(rand.NewSource(seed))
	v := make([]float64, n)
	for i := range v {
		v[i] = median * math.Exp(sigma*rng.NormFloat64())
	}
	return v
}

var values = lognormal(42, 1<<16, 0.2, 1)

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPerValue records the same values one at a time into each recorder, in alternating
// rounds of 64 Ki values so that all see the same machine load, and reports ns per value of
// each and the ratios (targets: Buffer.Add within 2x of hdrhistogram, below tdigest).
//
//   - buffer: llmmetrics.Buffer.Add into a sketch (1024-value batches, one cgo call each)
//   - add: llmmetrics.Sketch.Add (one cgo call per value), for reference
//   - hdr: hdrhistogram RecordValue of the value in microseconds (1 µs .. 1e9 µs, 3 digits)
//   - tdigest: tdigest Add (compression 100)
func BenchmarkPerValue(b *testing.B) {
	s, err := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	must(b, err)
	defer s.Close()
	buf, err := llmmetrics.NewBuffer(s, 0)
	must(b, err)
	single, err := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	must(b, err)
	defer single.Close()
	h := hdrhistogram.New(1, 1e9, 3)
	td := tdigest.NewWithCompression(100)
	var tBuf, tAdd, tHdr, tTd time.Duration
	mask := len(values) - 1
	b.ResetTimer()
	for done := 0; done < b.N; {
		round := len(values)
		if b.N-done < round {
			round = b.N - done
		}
		t0 := time.Now()
		for i := 0; i < round; i++ {
			if err := buf.Add(values[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		for i := 0; i < round; i++ {
			if err := single.Add(values[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		for i := 0; i < round; i++ {
			if err := h.RecordValue(int64(values[i&mask] * 1e6)); err != nil {
				b.Fatal(err)
			}
		}
		t3 := time.Now()
		for i := 0; i < round; i++ {
			td.Add(values[i&mask], 1)
		}
		t4 := time.Now()
		tBuf += t1.Sub(t0)
		tAdd += t2.Sub(t1)
		tHdr += t3.Sub(t2)
		tTd += t4.Sub(t3)
		done += round
	}
	b.StopTimer()
	must(b, buf.Close())
	if s.Count() != single.Count() || int64(s.Count()) != h.TotalCount() {
		b.Fatalf("counts differ: buffer %d, add %d, hdr %d", s.Count(), single.Count(), h.TotalCount())
	}
	n := float64(b.N)
	b.ReportMetric(float64(tBuf)/n, "buffer-ns/value")
	b.ReportMetric(float64(tAdd)/n, "add-ns/value")
	b.ReportMetric(float64(tHdr)/n, "hdr-ns/value")
	b.ReportMetric(float64(tTd)/n, "tdigest-ns/value")
	b.ReportMetric(float64(tBuf)/float64(tHdr), "buffer-x-hdr")
	b.ReportMetric(float64(tBuf)/float64(tTd), "buffer-x-tdigest")
}
