package llmmetrics

import (
	"math"
	"testing"
)

// doc/spec.md §3 reference values: each result equals its formula evaluated in Go and the
// rounded figure the spec prints.
func TestCapacityFormulas(t *testing.T) {
	cases := []struct {
		name    string
		f       func() (float64, error)
		formula float64
		spec    float64
		tol     float64
	}{
		{"roofline A100 I=16", func() (float64, error) { return Roofline(312e12, 2039e9, 16) }, 2039e9 * 16, 32.624e12, 1e-9},
		{"roofline compute-bound", func() (float64, error) { return Roofline(312e12, 2039e9, 1000) }, 312e12, 312e12, 0},
		{"critical A100", func() (float64, error) { return RooflineCriticalIntensity(312e12, 2039e9) }, 312e12 / 2039e9, 153.0, 0.05},
		{"critical H100", func() (float64, error) { return RooflineCriticalIntensity(756e12, 4000e9) }, 756e12 / 4000e9, 189.0, 1e-12},
		{"intensity", func() (float64, error) { return ArithmeticIntensity(2048, 128) }, 16, 16, 0},
		{"decay A100", func() (float64, error) { return DecayRate(32.624e12, 312e12) }, 1 - 32.624e12/312e12, 0.89544, 5e-6},
		{"scaling 184/172", func() (float64, error) { return ScalingDecay(184, 172) }, 1 - 172.0/184, 0.0652, 5e-5},
		{"scaling 368/329", func() (float64, error) { return ScalingDecay(368, 329) }, 1 - 329.0/368, 0.1060, 5e-5},
		{"scaling 736/612", func() (float64, error) { return ScalingDecay(736, 612) }, 1 - 612.0/736, 0.1685, 5e-5},
		{"scaling devices", func() (float64, error) { return ScalingDecayDevices(92, 2, 172) }, 1 - 172.0/184, 0.0652, 5e-5},
		{"comm share", func() (float64, error) { return CommShare(0.82, 3.5) }, 0.82 / 3.5, 0.2343, 5e-5},
		{"seqlen 1127/693", func() (float64, error) { return SeqLenDecay(1127, 693) }, 1 - 693.0/1127, 0.3851, 5e-5},
		{"seqlen 1210/1056", func() (float64, error) { return SeqLenDecay(1210, 1056) }, 1 - 1056.0/1210, 0.1273, 5e-5},
		{"seqlen 612/341", func() (float64, error) { return SeqLenDecay(612, 341) }, 1 - 341.0/612, 0.4428, 5e-5},
		{"little 150 ms", func() (float64, error) { return LittlesLawTPS(150, 45, 0) }, 45 / 0.150 * 0.85, 255.0, 1e-9},
		{"little 200 ms", func() (float64, error) { return LittlesLawTPS(200, 45, 0.85) }, 45 / 0.200 * 0.85, 191.25, 1e-9},
		{"little 250 ms", func() (float64, error) { return LittlesLawTPS(250, 45, 0) }, 45 / 0.250 * 0.85, 153.0, 1e-9},
		{"little floor", func() (float64, error) { return LittlesLawTPS(1000, 0.1, 1) }, 1, 1, 0},
	}
	for _, c := range cases {
		got, err := c.f()
		mustOK(t, err)
		if !approx(got, c.formula, 1e-12, 0) {
			t.Errorf("%s: %v, formula %v", c.name, got, c.formula)
		}
		if math.Abs(got-c.spec) > c.tol*math.Max(1, math.Abs(c.spec)) {
			t.Errorf("%s: %v, doc/spec.md %v", c.name, got, c.spec)
		}
	}
	bad := []func() (float64, error){
		func() (float64, error) { return DecayRate(1, 0) },
		func() (float64, error) { return DecayRate(-1, 1) },
		func() (float64, error) { return Roofline(math.NaN(), 1, 1) },
		func() (float64, error) { return RooflineCriticalIntensity(1, 0) },
		func() (float64, error) { return ArithmeticIntensity(1, 0) },
		func() (float64, error) { return ScalingDecay(0, 1) },
		func() (float64, error) { return ScalingDecayDevices(92, 0, 172) },
		func() (float64, error) { return ScalingDecayDevices(92, -1, 172) },
		func() (float64, error) { return CommShare(4, 3.5) },
		func() (float64, error) { return SeqLenDecay(0, 1) },
		func() (float64, error) { return LittlesLawTPS(0, 45, 0) },
	}
	for i, f := range bad {
		if _, err := f(); !errorsIsInvalid(err) {
			t.Errorf("bad case %d: %v", i, err)
		}
	}
	_, err := LittlesLawTPS(150, 45, 1.5)
	wantStatus(t, err, ErrRange)
}

func errorsIsInvalid(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Status == StatusInvalid
}
