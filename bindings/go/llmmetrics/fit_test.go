package llmmetrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

type referencePolyfit struct {
	Name     string    `json:"name"`
	Degree   int       `json:"degree"`
	X        []float64 `json:"x"`
	Y        []float64 `json:"y"`
	Coeffs   []float64 `json:"coeffs"`
	RSS      float64   `json:"rss"`
	Compare  string    `json:"compare"`
	RSSExact float64   `json:"rss_exact"`
}

type referenceRoots struct {
	Coeffs    []float64 `json:"coeffs"`
	RealRoots []float64 `json:"real_roots"`
}

func loadFitReference(t *testing.T) ([]referencePolyfit, []referenceRoots) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sourceRoot(t), "tests", "data", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Polyfit []referencePolyfit `json:"polyfit"`
		Roots   []referenceRoots   `json:"roots"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Polyfit) == 0 || len(ref.Roots) == 0 {
		t.Fatal("reference.json lacks polyfit or roots cases")
	}
	return ref.Polyfit, ref.Roots
}

func approx(a, b, rel, abs float64) bool {
	return math.Abs(a-b) <= math.Max(rel*math.Abs(b), abs)
}

// numpy.polyfit vectors: coefficients to 1e-9 relative; where numpy itself misses the
// optimum (compare = residual) our residual must reach the exact optimum instead.
func TestPolyfitNumpyVectors(t *testing.T) {
	cases, _ := loadFitReference(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			coeffs, st, err := Polyfit(c.X, c.Y, c.Degree)
			mustOK(t, err)
			if len(coeffs) != c.Degree+1 || st.Rank != c.Degree+1 || st.N != uint64(len(c.X)) {
				t.Fatalf("%d coefficients, stats %+v", len(coeffs), st)
			}
			_, rss, err := PolyResiduals(coeffs, c.X, c.Y)
			mustOK(t, err)
			if c.Compare == "residual" {
				if !approx(rss, c.RSSExact, 1e-4, 0) || rss >= c.RSS {
					t.Fatalf("rss %v, exact optimum %v, numpy %v", rss, c.RSSExact, c.RSS)
				}
				return
			}
			scale := 0.0
			for _, v := range c.Coeffs {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range coeffs {
				if !approx(coeffs[i], c.Coeffs[i], 1e-9, 1e-13*scale) {
					t.Errorf("coefficient %d: %v, numpy %v", i, coeffs[i], c.Coeffs[i])
				}
			}
			if !approx(rss, c.RSS, 1e-9, 1e-20) || !approx(st.RSS, c.RSS, 1e-9, 1e-20) {
				t.Errorf("rss %v / %v, numpy %v", rss, st.RSS, c.RSS)
			}
		})
	}
}

func TestPolynomials(t *testing.T) {
	// Exact data of 0.5x² − 2x + 3 are fitted back.
	var x, y []float64
	for i := 0; i < 20; i++ {
		v := float64(i) - 5
		x = append(x, v)
		y = append(y, 0.5*v*v-2*v+3)
	}
	c, st, err := Polyfit(x, y, 2)
	mustOK(t, err)
	for i, want := range []float64{0.5, -2, 3} {
		if !approx(c[i], want, 1e-12, 1e-12) {
			t.Errorf("coefficient %d: %v", i, c[i])
		}
	}
	if !approx(st.R2, 1, 1e-12, 0) {
		t.Errorf("R² %v", st.R2)
	}
	// Integer weights equal repeated points.
	xw := []float64{0, 1, 2, 3, 4}
	yw := []float64{1, 3, 2, 5, 4}
	w := []float64{1, 3, 0, 2, 1}
	var xr, yr []float64
	for i := range xw {
		for k := 0; k < int(w[i]); k++ {
			xr = append(xr, xw[i])
			yr = append(yr, yw[i])
		}
	}
	cw, sw, err := PolyfitWeighted(xw, yw, w, 1)
	mustOK(t, err)
	cr, _, err := Polyfit(xr, yr, 1)
	mustOK(t, err)
	for i := range cw {
		if !approx(cw[i], cr[i], 1e-12, 1e-12) {
			t.Errorf("weighted coefficient %d: %v, repeated %v", i, cw[i], cr[i])
		}
	}
	if sw.N != 4 {
		t.Errorf("weighted fit counted %d points with positive weight", sw.N)
	}

	p := []float64{1, -6, 11, -6}
	for _, xv := range []float64{-2, 0, 0.5, 3, 10} {
		got, err := PolyEval(p, xv)
		mustOK(t, err)
		if want := ((xv-6)*xv+11)*xv - 6; got != want {
			t.Errorf("PolyEval(%v) = %v, want %v", xv, got, want)
		}
	}
	derivs := []struct {
		order int
		want  []float64
	}{{0, p}, {1, []float64{3, -12, 11}}, {2, []float64{6, -12}}, {3, []float64{6}}, {5, []float64{0}}}
	for _, d := range derivs {
		got, err := PolyDeriv(p, d.order)
		mustOK(t, err)
		if len(got) != len(d.want) {
			t.Fatalf("order %d: %v", d.order, got)
		}
		for i := range got {
			if got[i] != d.want[i] {
				t.Errorf("order %d: %v, want %v", d.order, got, d.want)
			}
		}
	}

	_, _, err = Polyfit([]float64{1, 2}, []float64{1}, 1)
	wantStatus(t, err, ErrInvalid)
	_, _, err = Polyfit(nil, nil, 1)
	wantStatus(t, err, ErrEmpty)
	_, _, err = Polyfit(x, y, PolyMaxDegree+1)
	wantStatus(t, err, ErrRange)
	_, _, err = Polyfit(x, y, -1)
	wantStatus(t, err, ErrInvalid)
	_, _, err = Polyfit([]float64{1, 1, 1}, []float64{1, 2, 3}, 2)
	wantStatus(t, err, ErrInvalid)
	_, _, err = Polyfit([]float64{1, math.NaN(), 3}, []float64{1, 2, 3}, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = PolyEval(nil, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = PolyEval([]float64{1, math.Inf(1)}, 1)
	wantStatus(t, err, ErrInvalid)
}

func TestPolyRootsNumpyVectors(t *testing.T) {
	_, cases := loadFitReference(t)
	for _, c := range cases {
		got, err := PolyRoots(c.Coeffs)
		mustOK(t, err)
		if len(got) != len(c.RealRoots) {
			t.Fatalf("roots of %v: %v, numpy %v", c.Coeffs, got, c.RealRoots)
		}
		for i := range got {
			if !approx(got[i], c.RealRoots[i], 1e-9, 1e-12) {
				t.Errorf("roots of %v: %v, numpy %v", c.Coeffs, got, c.RealRoots)
			}
		}
	}
	_, err := PolyRoots([]float64{0, 0})
	wantStatus(t, err, ErrInvalid)
	roots, err := PolyRoots([]float64{1, 0, 0}) // x² has the double root 0
	mustOK(t, err)
	if len(roots) != 2 || roots[0] != 0 || roots[1] != 0 {
		t.Errorf("roots of x²: %v", roots)
	}
}

func TestKneeEstimators(t *testing.T) {
	// A cubic with its inflection at 50: exact fit, exact knee.
	var conc, qps []float64
	for i := 1; i <= 100; i++ {
		n := float64(i)
		conc = append(conc, n)
		qps = append(qps, -math.Pow(n-50, 3)/1000+10*n+100)
	}
	k, err := KneeInflection(conc, qps, 0)
	mustOK(t, err)
	if !approx(k, 50, 1e-9, 0) {
		t.Errorf("inflection %v, want 50", k)
	}
	kd, err := KneeInflectionDetail(conc, qps, 0.1)
	mustOK(t, err)
	if kd.Quality != KneeOK || !approx(kd.Knee, 50, 1e-9, 0) || !approx(kd.Strength, 1, 1e-12, 0) {
		t.Errorf("inflection detail %+v", kd)
	}
	// Gain 10 up to 50, then 1: with no smoothing the gain crosses half its initial value
	// between the midpoints 49.5 (gain 10) and 50.5 (gain 1), at 49.5 + (10 − 5)/(10 − 1).
	conc, qps = nil, nil
	for i := 1; i <= 100; i++ {
		n := float64(i)
		conc = append(conc, n)
		if n <= 50 {
			qps = append(qps, 10*n)
		} else {
			qps = append(qps, 500+(n-50))
		}
	}
	kc, err := KneeCollapse(conc, qps, 0.5, 1)
	mustOK(t, err)
	if want := 49.5 + 5.0/9; kc.Quality != KneeOK || !approx(kc.Knee, want, 1e-12, 0) {
		t.Errorf("collapse %+v, want knee %v", kc, want)
	}
	kn, err := KneeKneedle(conc, qps, 1)
	mustOK(t, err)
	if kn.Quality != KneeOK || math.Abs(kn.Knee-50) > 1 {
		t.Errorf("kneedle %+v, want about 50", kn)
	}
	// A straight line has no collapse: a result, not an error.
	line := make([]float64, len(conc))
	for i := range line {
		line[i] = 3 * conc[i]
	}
	kc, err = KneeCollapse(conc, line, 0.5, 5)
	mustOK(t, err)
	if kc.Quality != KneeNone || !math.IsNaN(kc.Knee) {
		t.Errorf("collapse of a line %+v", kc)
	}
	_, err = KneeCollapse(conc, qps, 1.5, 1)
	wantStatus(t, err, ErrRange)
	_, err = KneeKneedle(conc[:2], qps[:2], 1)
	wantStatus(t, err, ErrInvalid)
	_, err = KneeKneedle(conc, qps[:5], 1)
	wantStatus(t, err, ErrInvalid)
	_, err = KneeInflection(nil, nil, 0.1)
	wantStatus(t, err, ErrEmpty)
	if KneeOK.String() != "ok" || KneeNone.String() != "none" || KneeWeak.String() != "weak" {
		t.Error("quality names")
	}
}

func uslX(lambda, sigma, kappa, n float64) float64 {
	return lambda * n / (1 + sigma*(n-1) + kappa*n*(n-1))
}

func TestUSL(t *testing.T) {
	const lambda, sigma, kappa = 100.0, 0.05, 0.001
	var conc, qps []float64
	for n := 1.0; n <= 64; n++ {
		conc = append(conc, n)
		qps = append(qps, uslX(lambda, sigma, kappa, n))
	}
	m, err := FitUSL(conc, qps)
	mustOK(t, err)
	if !approx(m.Lambda, lambda, 1e-6, 0) || !approx(m.Sigma, sigma, 1e-6, 0) || !approx(m.Kappa, kappa, 1e-6, 0) {
		t.Fatalf("fit %+v", m)
	}
	if m.NMax != math.Floor(math.Sqrt((1-sigma)/kappa)) || m.Quality != KneeOK || !approx(m.R2, 1, 1e-9, 0) {
		t.Errorf("fit %+v", m)
	}
	exact := USL{Lambda: lambda, Sigma: sigma, Kappa: kappa}
	for _, n := range []float64{1, 7.5, 30, 100} {
		x, err := exact.Throughput(n)
		mustOK(t, err)
		if !approx(x, uslX(lambda, sigma, kappa, n), 1e-14, 0) {
			t.Errorf("X(%v) = %v", n, x)
		}
		r, err := exact.Latency(n)
		mustOK(t, err)
		if !approx(r, n/uslX(lambda, sigma, kappa, n), 1e-14, 0) {
			t.Errorf("R(%v) = %v", n, r)
		}
	}
	// Largest integer N with R(N) ≤ 0.05: check against a scan.
	got, err := exact.SLOConcurrency(0.05)
	mustOK(t, err)
	want := 0.0
	for n := 1.0; n < 1000; n++ {
		if n/uslX(lambda, sigma, kappa, n) <= 0.05 {
			want = n
		}
	}
	if got != want {
		t.Errorf("SLOConcurrency(0.05) = %v, scan %v", got, want)
	}
	_, err = exact.Throughput(-1)
	wantStatus(t, err, ErrInvalid)
	_, err = USL{Lambda: -1}.Latency(1)
	wantStatus(t, err, ErrInvalid)
	_, err = FitUSL(conc[:5], qps[:5])
	wantStatus(t, err, ErrInvalid)

	// The report runs the same estimators.
	rep, err := Knees(conc, qps, nil)
	mustOK(t, err)
	def := DefaultKneeOptions()
	if def.Trim != 0.1 || def.CollapseFraction != 0.5 || def.KneedleSensitivity != 1 || def.Smooth != 0 {
		t.Errorf("default options %+v", def)
	}
	infl, _ := KneeInflectionDetail(conc, qps, def.Trim)
	kneedle, _ := KneeKneedle(conc, qps, def.KneedleSensitivity)
	if !sameKnee(rep.Inflection, infl) || !sameKnee(rep.Kneedle, kneedle) ||
		!approx(rep.USL.Kappa, kappa, 1e-6, 0) {
		t.Errorf("report %+v", rep)
	}
	_, err = Knees(conc, qps, &KneeOptions{Trim: 0.9, CollapseFraction: 0.5, KneedleSensitivity: 1})
	wantStatus(t, err, ErrRange)
}

func sameKnee(a, b Knee) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return a.Quality == b.Quality && eq(a.Knee, b.Knee) && eq(a.QPS, b.QPS) && eq(a.Strength, b.Strength)
}
