package llmmetrics

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// sourceRoot is the repository root: $LLMM_SOURCE_ROOT when meson runs the test, else three
// levels above this package.
func sourceRoot(t testing.TB) string {
	if r := os.Getenv("LLMM_SOURCE_ROOT"); r != "" {
		return r
	}
	r, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// exactQuantile is the nearest-rank quantile of sorted values, computed independently of
// the library: rank r = max(1, ceil(q·n)), where q·n within 1e-9 of an integer counts as
// that integer (doc/spec.md §5).
func exactQuantile(sorted []float64, q float64) float64 {
	n := float64(len(sorted))
	x := q * n
	r := math.Ceil(x)
	if near := math.Round(x); math.Abs(x-near) <= 1e-9 {
		r = near
	}
	if r < 1 {
		r = 1
	}
	return sorted[int(r)-1]
}

func sortedCopy(v []float64) []float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s
}

// withinRel reports whether got is within rel (relative) of want, with a few ulps of slack
// for the rounding of the representative value.
func withinRel(got, want, rel float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= rel*math.Abs(want)*(1+1e-12)+1e-300
}

func wantStatus(t *testing.T, err error, target *Error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("got error %v, want %s", err, target.Name)
	}
}

// testSketch is a new sketch at the default scale, closed when the test ends.
func testSketch(t testing.TB) *Sketch {
	s, err := NewSketch(ScaleDefault)
	mustOK(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// testShard is a new recorder at the default scale and a writer's shard of it, released
// and closed when the test ends.
func testShard(t testing.TB) (*Recorder, *Shard) {
	r, err := NewRecorder(ScaleDefault)
	mustOK(t, err)
	t.Cleanup(func() { r.Close() })
	sh, err := r.Shard()
	mustOK(t, err)
	t.Cleanup(func() { sh.Release() })
	return r, sh
}

func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantOptions checks that get reads each option of want at its value there.
func wantOptions[K, V comparable](t *testing.T, get func(K) (V, error), want map[K]V) {
	t.Helper()
	for opt, w := range want {
		got, err := get(opt)
		mustOK(t, err)
		if got != w {
			t.Errorf("option %v = %v, want %v", opt, got, w)
		}
	}
}

// referenceQuantiles is the "quantiles" part of tests/data/reference.json (numpy-computed).
type referenceQuantiles struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	Q      []float64 `json:"q"`
	Exact  []float64 `json:"exact_nearest_rank"`
}

type referenceFile struct {
	Quantiles []referenceQuantiles `json:"quantiles"`
}

func loadReference(t *testing.T) referenceFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sourceRoot(t), "tests", "data", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceFile
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Quantiles) == 0 {
		t.Fatal("reference.json has no quantile cases")
	}
	return ref
}

// means are the arithmetic means of x and y.
func means(x, y []float64) (mx, my float64) {
	for _, v := range x {
		mx += v
	}
	for _, v := range y {
		my += v
	}
	return mx / float64(len(x)), my / float64(len(y))
}
