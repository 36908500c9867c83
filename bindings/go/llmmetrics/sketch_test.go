package llmmetrics

import (
	"math"
	"math/rand"
	"testing"
)

var probes = []float64{0, 0.001, 0.01, 0.07, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1}

// checkQuantiles compares every probe with the exact nearest-rank value of the data: within
// the scale's relative error, the minimum and maximum exactly.
func checkQuantiles(t *testing.T, s *Sketch, data []float64, qs []float64) {
	t.Helper()
	checkQuantilesWithin(t, s, data, qs)
	sorted := sortedCopy(data)
	if q0, _ := s.Quantile(0); q0 != sorted[0] {
		t.Errorf("q=0: %v, min %v", q0, sorted[0])
	}
	if q1, _ := s.Quantile(1); q1 != sorted[len(sorted)-1] {
		t.Errorf("q=1: %v, max %v", q1, sorted[len(sorted)-1])
	}
}

// checkQuantilesWithin is checkQuantiles without requiring exact extremes (an interval made
// by Subtract knows them only within the bound).
func checkQuantilesWithin(t *testing.T, s *Sketch, data []float64, qs []float64) {
	t.Helper()
	sorted := sortedCopy(data)
	rel := RelativeError(s.Scale())
	got, err := s.Quantiles(qs)
	mustOK(t, err)
	for i, q := range qs {
		want := exactQuantile(sorted, q)
		if !withinRel(got[i], want, rel) {
			t.Errorf("q=%v: got %v, exact %v (rel err %.3g > %.3g)", q, got[i], want,
				math.Abs(got[i]-want)/want, rel)
		}
		one, err := s.Quantile(q)
		mustOK(t, err)
		if one != got[i] {
			t.Errorf("q=%v: Quantile %v, Quantiles %v", q, one, got[i])
		}
	}
}

// The numpy vectors of tests/data/reference.json, added in one batch.
func TestSketchReferenceVectors(t *testing.T) {
	for _, c := range loadReference(t).Quantiles {
		t.Run(c.Name, func(t *testing.T) {
			s := testSketch(t)
			mustOK(t, s.AddMany(c.Values))
			if s.Count() != uint64(len(c.Values)) {
				t.Fatalf("count %d, want %d", s.Count(), len(c.Values))
			}
			got, err := s.Quantiles(c.Q)
			mustOK(t, err)
			for i, q := range c.Q {
				if ours := exactQuantile(sortedCopy(c.Values), q); ours != c.Exact[i] {
					t.Fatalf("q=%v: Go reference %v disagrees with numpy's %v", q, ours, c.Exact[i])
				}
				if !withinRel(got[i], c.Exact[i], RelativeError(ScaleDefault)) {
					t.Errorf("q=%v: got %v, exact %v", q, got[i], c.Exact[i])
				}
			}
			checkQuantiles(t, s, c.Values, probes)
		})
	}
}

func lognormal(seed int64, n int, median, sigma float64) []float64 {
	rng := rand.New(rand.NewSource(seed))
	v := make([]float64, n)
	for i := range v {
		v[i] = median * math.Exp(sigma*rng.NormFloat64())
	}
	return v
}

// Every scale, several distributions: quantiles within the scale's bound, count, sum, min,
// max and mean exact.
func TestSketchQuantilesTable(t *testing.T) {
	uniform := make([]float64, 1000)
	for i := range uniform {
		uniform[i] = float64(i + 1)
	}
	cases := []struct {
		name  string
		scale int
		data  []float64
	}{
		{"lognormal-s6", 6, lognormal(1, 20000, 0.2, 1)},
		{"heavy-s6", 6, lognormal(2, 20000, 0.2, 2)},
		{"lognormal-s0", 0, lognormal(3, 5000, 0.2, 1)},
		{"lognormal-s3", 3, lognormal(4, 5000, 0.2, 1)},
		{"lognormal-s10", 10, lognormal(5, 5000, 0.2, 1)},
		{"uniform-1..1000", 6, uniform},
		{"single", 6, []float64{42}},
		{"nanoseconds", 6, lognormal(6, 5000, 2e8, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewSketch(c.scale)
			mustOK(t, err)
			defer s.Close()
			mustOK(t, s.AddMany(c.data))
			if s.Scale() != c.scale {
				t.Fatalf("scale %d", s.Scale())
			}
			checkQuantiles(t, s, c.data, probes)
			sorted := sortedCopy(c.data)
			var sum float64
			for _, v := range c.data {
				sum += v
			}
			if s.Count() != uint64(len(c.data)) {
				t.Errorf("count %d", s.Count())
			}
			if got := s.Sum(); !withinRel(got, sum, 1e-12) {
				t.Errorf("sum %v, want %v", got, sum)
			}
			if mn, _ := s.Min(); mn != sorted[0] {
				t.Errorf("min %v, want %v", mn, sorted[0])
			}
			if mx, _ := s.Max(); mx != sorted[len(sorted)-1] {
				t.Errorf("max %v, want %v", mx, sorted[len(sorted)-1])
			}
			if m, _ := s.Mean(); !withinRel(m, sum/float64(len(c.data)), 1e-12) {
				t.Errorf("mean %v", m)
			}
		})
	}
}

// Batch and per-value adds give the same sketch, bucket for bucket.
func TestSketchBatchEqualsPerValue(t *testing.T) {
	data := lognormal(7, 10000, 0.2, 1.5)
	a := testSketch(t)
	b := testSketch(t)
	mustOK(t, a.AddMany(data))
	for _, v := range data {
		mustOK(t, b.Add(v))
	}
	offA, countsA, err := a.Buckets()
	mustOK(t, err)
	offB, countsB, err := b.Buckets()
	mustOK(t, err)
	if offA != offB || len(countsA) != len(countsB) {
		t.Fatalf("bucket spans differ: %d+%d vs %d+%d", offA, len(countsA), offB, len(countsB))
	}
	var total uint64
	for i := range countsA {
		if countsA[i] != countsB[i] {
			t.Fatalf("bucket %d: %d vs %d", offA+i, countsA[i], countsB[i])
		}
		if countsA[i] != a.BucketCount(offA+i) {
			t.Fatalf("BucketCount(%d) disagrees with Buckets", offA+i)
		}
		total += countsA[i]
	}
	if total != uint64(len(data)) {
		t.Fatalf("bucket total %d", total)
	}
	qa, _ := a.Quantiles(probes)
	qb, _ := b.Quantiles(probes)
	for i := range qa {
		if qa[i] != qb[i] {
			t.Errorf("q=%v: %v vs %v", probes[i], qa[i], qb[i])
		}
	}
	// Every value lies in the bucket its index names.
	for _, v := range data[:200] {
		i, err := BucketIndex(ScaleDefault, v)
		mustOK(t, err)
		lo, hi, err := BucketBounds(ScaleDefault, i)
		mustOK(t, err)
		if !(lo < v && v <= hi) {
			t.Fatalf("%v not in bucket %d (%v, %v]", v, i, lo, hi)
		}
		if a.BucketCount(i) == 0 {
			t.Fatalf("bucket %d of %v is empty", i, v)
		}
	}
}

func TestSketchInvalidInputChangesNothing(t *testing.T) {
	s := testSketch(t)
	mustOK(t, s.AddMany([]float64{1, 2, 3}))
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e-300}
	for _, v := range bad {
		wantStatus(t, s.Add(v), ErrInvalid)
		wantStatus(t, s.AddN(v, 3), ErrInvalid)
		wantStatus(t, s.AddMany([]float64{4, 5, v, 6}), ErrInvalid)
	}
	if s.Count() != 3 || s.Sum() != 6 {
		t.Fatalf("state changed: count %d sum %v", s.Count(), s.Sum())
	}
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		_, err := s.Quantile(q)
		wantStatus(t, err, ErrInvalid)
		_, err = s.Quantiles([]float64{0.5, q})
		wantStatus(t, err, ErrInvalid)
	}
	_, err := s.Rank(math.NaN())
	wantStatus(t, err, ErrInvalid)
	wantStatus(t, s.QuantilesInto(make([]float64, 1), []float64{0.5, 0.9}), ErrInvalid)
	wantStatus(t, s.Merge(s), ErrInvalid)
	wantStatus(t, s.Downscale(ScaleDefault+1), ErrInvalid)
	// An empty batch and n = 0 are fine.
	mustOK(t, s.AddMany(nil))
	mustOK(t, s.AddN(7, 0))
	if s.Count() != 3 {
		t.Fatalf("count %d", s.Count())
	}
}

func TestSketchEmpty(t *testing.T) {
	s := testSketch(t)
	for name, f := range map[string]func() (float64, error){
		"quantile": func() (float64, error) { return s.Quantile(0.5) },
		"rank":     func() (float64, error) { return s.Rank(1) },
		"min":      s.Min,
		"max":      s.Max,
		"mean":     s.Mean,
	} {
		if _, err := f(); !errEmpty(err) {
			t.Errorf("%s on empty sketch: %v", name, err)
		}
	}
	if _, err := s.Quantiles([]float64{0.5}); !errEmpty(err) {
		t.Errorf("quantiles: %v", err)
	}
	if _, _, err := s.BucketSpan(); !errEmpty(err) {
		t.Errorf("span: %v", err)
	}
	off, counts, err := s.Buckets()
	if off != 0 || counts != nil || err != nil {
		t.Errorf("Buckets of an empty sketch: %d %v %v", off, counts, err)
	}
	if s.Sum() != 0 || s.Count() != 0 {
		t.Error("sum or count of an empty sketch")
	}
}

func errEmpty(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Status == StatusEmpty
}

func TestSketchRangeAndSpecialCounts(t *testing.T) {
	s := testSketch(t)
	lo, hi, err := s.Range()
	mustOK(t, err)
	if lo != RangeMinDefault || hi != RangeMaxDefault {
		t.Fatalf("default range %v..%v", lo, hi)
	}
	for _, r := range [][2]float64{{0, 1}, {2, 1}, {1, 1}, {RangeMinLimit / 2, 1}, {1, math.Inf(1)}, {math.NaN(), 1}} {
		wantStatus(t, s.SetRange(r[0], r[1]), ErrInvalid)
	}
	mustOK(t, s.SetRange(1e-3, 1e3))
	mustOK(t, s.AddMany([]float64{0, 0, 1e-6, 0.5, 2, 5e3, 1e6}))
	wantStatus(t, s.SetRange(1e-6, 1e6), ErrState)
	zero, under, over, err := s.SpecialCounts()
	mustOK(t, err)
	if zero != 2 || under != 1 || over != 2 {
		t.Fatalf("special counts %d %d %d", zero, under, over)
	}
	if s.Count() != 7 {
		t.Fatalf("count %d", s.Count())
	}
	// Rank: exact below the minimum and at the maximum.
	if f, _ := s.Rank(-1); f != 0 {
		t.Errorf("rank below min %v", f)
	}
	if f, _ := s.Rank(1e6); f != 1 {
		t.Errorf("rank at max %v", f)
	}
}

func TestSketchBucketMath(t *testing.T) {
	cases := []struct {
		scale int
		v     float64
		index int
	}{
		{0, 1, -1}, {0, 1.5, 0}, {0, 2, 0}, {0, 2.0000001, 1}, {0, 0.5, -2},
		{6, 1, -1}, {6, 2, 63}, {6, 4, 127}, {10, 2, 1023}, {3, 0.25, -17},
	}
	for _, c := range cases {
		got, err := BucketIndex(c.scale, c.v)
		mustOK(t, err)
		if got != c.index {
			t.Errorf("BucketIndex(%d, %v) = %d, want %d", c.scale, c.v, got, c.index)
		}
		lo, hi, err := BucketBounds(c.scale, got)
		mustOK(t, err)
		if !(lo < c.v && c.v <= hi) {
			t.Errorf("scale %d: %v outside bucket %d (%v, %v]", c.scale, c.v, got, lo, hi)
		}
	}
	lo, hi, err := BucketBounds(0, 0)
	mustOK(t, err)
	if lo != 1 || hi != 2 {
		t.Errorf("BucketBounds(0, 0) = (%v, %v]", lo, hi)
	}
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err := BucketIndex(6, v)
		wantStatus(t, err, ErrInvalid)
	}
	_, err = BucketIndex(11, 1)
	wantStatus(t, err, ErrInvalid)
	_, _, err = BucketBounds(0, 5000)
	wantStatus(t, err, ErrRange)
	if got := RelativeError(6); math.Abs(got-0.005415) > 1e-5 {
		t.Errorf("RelativeError(6) = %v", got)
	}
}

func TestSketchMergeSubtractCopy(t *testing.T) {
	a1 := lognormal(11, 4000, 0.2, 1)
	a2 := lognormal(12, 3000, 0.2, 1)
	all := append(append([]float64(nil), a1...), a2...)

	x := testSketch(t)
	y, err := NewSketch(4)
	mustOK(t, err)
	defer y.Close()
	mustOK(t, x.AddMany(a1))
	mustOK(t, y.AddMany(a2))

	earlier, err := x.Clone()
	mustOK(t, err)
	defer earlier.Close()
	mustOK(t, x.Merge(y))
	if x.Scale() != 4 || x.Count() != uint64(len(all)) {
		t.Fatalf("merged: scale %d count %d", x.Scale(), x.Count())
	}
	checkQuantiles(t, x, all, probes)

	// Subtract needs equal scales: the interval since the clone, at the coarser scale.
	mustOK(t, earlier.Downscale(4))
	interval, err := x.Clone()
	mustOK(t, err)
	defer interval.Close()
	mustOK(t, interval.Subtract(earlier))
	if interval.Count() != uint64(len(a2)) {
		t.Fatalf("interval count %d", interval.Count())
	}
	sorted := sortedCopy(a2)
	rel := RelativeError(4)
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99} {
		got, err := interval.Quantile(q)
		mustOK(t, err)
		if want := exactQuantile(sorted, q); !withinRel(got, want, rel) {
			t.Errorf("interval q=%v: %v, exact %v", q, got, want)
		}
	}
	// earlier is not contained in y: refused, y unchanged.
	big, err := NewSketch(4)
	mustOK(t, err)
	defer big.Close()
	mustOK(t, big.AddMany(all))
	n := y.Count()
	wantStatus(t, y.Subtract(big), ErrState)
	if y.Count() != n {
		t.Fatal("failed subtract changed the sketch")
	}

	mustOK(t, y.CopyFrom(x))
	if y.Count() != x.Count() || y.Scale() != x.Scale() {
		t.Fatal("CopyFrom")
	}
	mustOK(t, y.Reset())
	if y.Count() != 0 || y.Scale() != 4 {
		t.Fatal("Reset")
	}
}

func TestSketchCloseIsIdempotent(t *testing.T) {
	s, err := NewSketch(ScaleDefault)
	mustOK(t, err)
	mustOK(t, s.Add(1))
	mustOK(t, s.Close())
	mustOK(t, s.Close())
	wantStatus(t, s.Add(1), ErrState)
	wantStatus(t, s.AddMany([]float64{1}), ErrState)
	_, err = s.Quantile(0.5)
	wantStatus(t, err, ErrState)
	_, err = s.Clone()
	wantStatus(t, err, ErrState)
	if s.Count() != 0 || s.Scale() != -1 || s.Sum() != 0 {
		t.Fatal("closed sketch reports data")
	}
	var zero Sketch
	wantStatus(t, zero.Add(1), ErrState)
	mustOK(t, zero.Close())
	other := testSketch(t)
	wantStatus(t, other.Merge(s), ErrState)
	wantStatus(t, other.Merge(nil), ErrState)
}
