package llmmetrics

/*
#include <llmmetrics/fit.h>
*/
import "C"

import (
	"math"
	"runtime"
	"unsafe"
)

// PolyMaxDegree is the highest degree [Polyfit], [PolyfitWeighted] and [PolyRoots] accept.
const PolyMaxDegree = 16

// Polynomial coefficients are ordered highest power first, as in numpy: c[0]·x^d + … + c[d].

// FitStats are the diagnostics of a least-squares polynomial fit.
type FitStats struct {
	Rank        int     // numerical rank of the centred, scaled Vandermonde matrix (degree + 1)
	N           uint64  // points that entered the fit (weight > 0)
	R2          float64 // coefficient of determination; 1 when TSS = 0
	RSS         float64 // residual sum of squares (weighted for weighted fits)
	TSS         float64 // total sum of squares about the mean of y
	ResidualStd float64 // sqrt(RSS / (N − degree − 1)); 0 when N = degree + 1
	Condition   float64 // condition number of the triangular factor (≥ 1)
	Centre      float64 // c of the abscissa map t = (x − c)/h
	Scale       float64 // h of the abscissa map, a power of two
}

func fitStatsOf(st *C.llmm_fit_stats) FitStats {
	return FitStats{
		Rank:        int(st.rank),
		N:           uint64(st.n),
		R2:          float64(st.r2),
		RSS:         float64(st.rss),
		TSS:         float64(st.tss),
		ResidualStd: float64(st.residual_std),
		Condition:   float64(st.condition),
		Centre:      float64(st.centre),
		Scale:       float64(st.scale),
	}
}

func degreeArg(op string, degree int) (C.uint32_t, error) {
	if degree < 0 {
		return 0, errArg(op, "negative degree")
	}
	if uint64(degree) > math.MaxUint32 {
		return 0, newError(op, StatusRange, "degree out of bounds")
	}
	return C.uint32_t(degree), nil
}

// Polyfit is the least-squares polynomial of the given degree through (x, y), the equivalent
// of numpy.polyfit(x, y, degree): degree + 1 coefficients, highest power first.
func Polyfit(x, y []float64, degree int) ([]float64, FitStats, error) {
	return polyfit("llmm_polyfit", x, y, nil, degree)
}

// PolyfitWeighted minimises Σ wᵢ (yᵢ − p(xᵢ))²; a weight acts as a repeat count (pass
// 1/σᵢ² for inverse-variance weighting; numpy's w=v equals w = v² here).
func PolyfitWeighted(x, y, w []float64, degree int) ([]float64, FitStats, error) {
	if w == nil {
		w = []float64{}
	}
	return polyfit("llmm_polyfit_weighted", x, y, w, degree)
}

func polyfit(op string, x, y, w []float64, degree int) ([]float64, FitStats, error) {
	if len(x) != len(y) || (w != nil && len(w) != len(x)) {
		return nil, FitStats{}, errArg(op, "x, y (and w) differ in length")
	}
	if len(x) == 0 {
		return nil, FitStats{}, newError(op, StatusEmpty, "")
	}
	d, err := degreeArg(op, degree)
	if err != nil {
		return nil, FitStats{}, err
	}
	if degree > PolyMaxDegree {
		return nil, FitStats{}, newError(op, StatusRange, "degree above PolyMaxDegree")
	}
	var st C.llmm_fit_stats
	if err := initStruct(C.LLMM_STRUCT_FIT_STATS, unsafe.Pointer(&st), C.sizeof_llmm_fit_stats); err != nil {
		return nil, FitStats{}, err
	}
	coeffs := make([]float64, degree+1)
	var rc C.llmm_status
	if w == nil {
		rc = C.llmm_polyfit(f64ptr(x), f64ptr(y), C.size_t(len(x)), d, f64ptr(coeffs), &st)
	} else {
		rc = C.llmm_polyfit_weighted(f64ptr(x), f64ptr(y), f64ptr(w), C.size_t(len(x)), d, f64ptr(coeffs), &st)
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	runtime.KeepAlive(w)
	if err := check(op, rc); err != nil {
		return nil, FitStats{}, err
	}
	return coeffs, fitStatsOf(&st), nil
}

// polyArg checks that coeffs holds a polynomial (at least one coefficient).
func polyArg(op string, coeffs []float64) (C.uint32_t, error) {
	if len(coeffs) == 0 {
		return 0, errArg(op, "no coefficients")
	}
	return degreeArg(op, len(coeffs)-1)
}

// PolyEval evaluates a polynomial at x by Horner's rule (as numpy.polyval).
func PolyEval(coeffs []float64, x float64) (float64, error) {
	d, err := polyArg("llmm_poly_eval", coeffs)
	if err != nil {
		return math.NaN(), err
	}
	var y C.double
	st := C.llmm_poly_eval(f64ptr(coeffs), d, C.double(x), &y)
	runtime.KeepAlive(coeffs)
	return float64(y), check("llmm_poly_eval", st)
}

// PolyResiduals returns the residuals yᵢ − p(xᵢ), evaluated by compensated Horner, and their
// sum of squares.
func PolyResiduals(coeffs, x, y []float64) (residuals []float64, rss float64, err error) {
	const op = "llmm_poly_residuals"
	d, err := polyArg(op, coeffs)
	if err != nil {
		return nil, math.NaN(), err
	}
	if len(x) != len(y) {
		return nil, math.NaN(), errArg(op, "x and y differ in length")
	}
	residuals = make([]float64, len(x))
	var crss C.double
	st := C.llmm_poly_residuals(f64ptr(coeffs), d, f64ptr(x), f64ptr(y), C.size_t(len(x)),
		f64ptr(residuals), &crss)
	runtime.KeepAlive(coeffs)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	runtime.KeepAlive(residuals)
	if err := check(op, st); err != nil {
		return nil, math.NaN(), err
	}
	return residuals, float64(crss), nil
}

// PolyDeriv returns the derivative of the given order (as numpy.polyder); beyond the degree
// it is the zero polynomial [0].
func PolyDeriv(coeffs []float64, order int) ([]float64, error) {
	const op = "llmm_poly_deriv"
	d, err := polyArg(op, coeffs)
	if err != nil {
		return nil, err
	}
	if order < 0 || uint64(order) > math.MaxUint32 {
		return nil, errArg(op, "order out of bounds")
	}
	out := make([]float64, len(coeffs))
	var outDeg C.uint32_t
	st := C.llmm_poly_deriv(f64ptr(coeffs), d, C.uint32_t(order), f64ptr(out), &outDeg)
	runtime.KeepAlive(coeffs)
	runtime.KeepAlive(out)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return out[:int(outDeg)+1], nil
}

// PolyRoots returns the real roots of a polynomial, ascending, each as often as its
// multiplicity (leading zero coefficients are dropped, as numpy does).
func PolyRoots(coeffs []float64) ([]float64, error) {
	const op = "llmm_poly_roots"
	d, err := polyArg(op, coeffs)
	if err != nil {
		return nil, err
	}
	// A polynomial of degree d has at most d real roots; grow on LLMM_E_BUFFER all the same.
	defer runtime.KeepAlive(coeffs)
	return grow(op, len(coeffs), func(roots []float64, n *C.size_t) C.llmm_status {
		return C.llmm_poly_roots(f64ptr(coeffs), d, f64ptr(roots), C.size_t(len(roots)), n)
	})
}

// KneeQuality says how well a knee estimate is supported by the data.
type KneeQuality int32

// The knee qualities.
const (
	KneeNone KneeQuality = C.LLMM_KNEE_NONE // no estimate
	KneeWeak KneeQuality = C.LLMM_KNEE_WEAK // an estimate, weakly supported
	KneeOK   KneeQuality = C.LLMM_KNEE_OK   // a well-supported estimate
)

// String names the quality ("none", "weak", "ok").
func (q KneeQuality) String() string {
	return enumName(q, "KneeQuality", "none", "weak", "ok")
}

// Knee is one knee estimate of a QPS-vs-concurrency curve. A missing knee is a result
// (Quality KneeNone, NaN values), not an error.
type Knee struct {
	Quality  KneeQuality // how well the data support the estimate
	Knee     float64     // concurrency at the knee
	QPS      float64     // throughput at the knee
	Strength float64     // estimator-specific support figure
}

func kneeOf(k *C.llmm_knee) Knee {
	return Knee{Quality: KneeQuality(k.quality), Knee: float64(k.knee), QPS: float64(k.qps),
		Strength: float64(k.strength)}
}

// curveArgs checks a (concurrency, QPS) sweep.
func curveArgs(op string, conc, qps []float64) error {
	if len(conc) != len(qps) {
		return errArg(op, "conc and qps differ in length")
	}
	if len(conc) == 0 {
		return newError(op, StatusEmpty, "")
	}
	return nil
}

// kneeCall runs one knee estimator into a fresh llmm_knee.
func kneeCall(op string, conc, qps []float64, f func(k *C.llmm_knee) C.llmm_status) (Knee, error) {
	if err := curveArgs(op, conc, qps); err != nil {
		return Knee{Quality: KneeNone, Knee: math.NaN(), QPS: math.NaN(), Strength: math.NaN()}, err
	}
	var k C.llmm_knee
	if err := initStruct(C.LLMM_STRUCT_KNEE, unsafe.Pointer(&k), C.sizeof_llmm_knee); err != nil {
		return Knee{}, err
	}
	st := f(&k)
	runtime.KeepAlive(conc)
	runtime.KeepAlive(qps)
	return kneeOf(&k), check(op, st)
}

// KneeInflection is the knee as the inflection point −b/(3a) of a least-squares cubic after
// dropping the first and last trim share of the samples (the reference method; trim 0.1).
// It returns an error matching ErrEmpty when the inflection lies outside the data.
func KneeInflection(conc, qps []float64, trim float64) (float64, error) {
	const op = "llmm_knee_inflection"
	if err := curveArgs(op, conc, qps); err != nil {
		return math.NaN(), err
	}
	var knee C.double
	st := C.llmm_knee_inflection(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), C.double(trim), &knee)
	runtime.KeepAlive(conc)
	runtime.KeepAlive(qps)
	if err := check(op, st); err != nil {
		return math.NaN(), err
	}
	return float64(knee), nil
}

// KneeInflectionDetail is [KneeInflection] with the quality flag, the cubic's value at the
// knee and its R² (Strength); no inflection in range is Quality KneeNone, not an error.
func KneeInflectionDetail(conc, qps []float64, trim float64) (Knee, error) {
	return kneeCall("llmm_knee_inflection_ex", conc, qps, func(k *C.llmm_knee) C.llmm_status {
		return C.llmm_knee_inflection_ex(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), C.double(trim), k)
	})
}

// KneeCollapse finds where the smoothed marginal gain dQPS/dN first falls below fraction of
// its initial value ("QPS growth collapse"). smooth is the odd moving-average width in gains
// (0 picks about 5 % of the sweep, 1 disables smoothing); conc must be strictly increasing.
func KneeCollapse(conc, qps []float64, fraction float64, smooth int) (Knee, error) {
	if smooth < 0 || uint64(smooth) > math.MaxUint32 {
		return Knee{}, newError("llmm_knee_collapse", StatusRange, "smoothing width out of bounds")
	}
	return kneeCall("llmm_knee_collapse", conc, qps, func(k *C.llmm_knee) C.llmm_status {
		return C.llmm_knee_collapse(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), C.double(fraction),
			C.uint32_t(smooth), k)
	})
}

// KneeKneedle is the Kneedle knee (Satopää et al., 2011) of a concave increasing curve with
// sensitivity S ≥ 0 (1 is the paper's default); conc must be strictly increasing.
func KneeKneedle(conc, qps []float64, sensitivity float64) (Knee, error) {
	return kneeCall("llmm_knee_kneedle", conc, qps, func(k *C.llmm_knee) C.llmm_status {
		return C.llmm_knee_kneedle(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), C.double(sensitivity), k)
	})
}

// USL is a Universal Scalability Law model X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).
type USL struct {
	Quality      KneeQuality // OK: good fit with a peak near the data; Weak: poor fit, no peak, or extrapolated
	Iterations   int         // Levenberg–Marquardt iterations used
	KappaAtBound bool        // κ was held at its bound 0
	Lambda       float64     // λ > 0, throughput at N = 1 before contention
	Sigma        float64     // σ, contention; may be slightly negative
	Kappa        float64     // κ ≥ 0, coherency
	NMax         float64     // floor(sqrt((1 − σ)/κ)), ≥ 1; +Inf without a peak
	XMax         float64     // X(NMax), or the limit of X without a peak
	R2           float64     // R² of the fit on the throughputs
	RSS          float64     // residual sum of squares
}

func uslOf(m *C.llmm_usl) USL {
	return USL{
		Quality:      KneeQuality(m.quality),
		Iterations:   int(m.iterations),
		KappaAtBound: m.kappa_at_bound != 0,
		Lambda:       float64(m.lambda),
		Sigma:        float64(m.sigma),
		Kappa:        float64(m.kappa),
		NMax:         float64(m.n_max),
		XMax:         float64(m.x_max),
		R2:           float64(m.r2),
		RSS:          float64(m.rss),
	}
}

// toC fills a C model from m; the calls on a model read λ, σ and κ.
func (m USL) toC(op string) (C.llmm_usl, error) {
	var c C.llmm_usl
	if err := initStruct(C.LLMM_STRUCT_USL, unsafe.Pointer(&c), C.sizeof_llmm_usl); err != nil {
		return c, err
	}
	c.quality = C.llmm_knee_quality(m.Quality)
	c.iterations = C.uint32_t(m.Iterations)
	if m.KappaAtBound {
		c.kappa_at_bound = 1
	}
	c.lambda, c.sigma, c.kappa = C.double(m.Lambda), C.double(m.Sigma), C.double(m.Kappa)
	c.n_max, c.x_max = C.double(m.NMax), C.double(m.XMax)
	c.r2, c.rss = C.double(m.R2), C.double(m.RSS)
	return c, nil
}

// FitUSL fits the Universal Scalability Law to (concurrency, throughput) pairs (at least 6,
// with 3 distinct concurrencies, all values > 0) by Levenberg–Marquardt.
func FitUSL(conc, qps []float64) (USL, error) {
	const op = "llmm_usl_fit"
	if err := curveArgs(op, conc, qps); err != nil {
		return USL{}, err
	}
	var m C.llmm_usl
	if err := initStruct(C.LLMM_STRUCT_USL, unsafe.Pointer(&m), C.sizeof_llmm_usl); err != nil {
		return USL{}, err
	}
	st := C.llmm_usl_fit(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), &m)
	runtime.KeepAlive(conc)
	runtime.KeepAlive(qps)
	if err := check(op, st); err != nil {
		return USL{}, err
	}
	return uslOf(&m), nil
}

func (m USL) call(op string, f func(c *C.llmm_usl, out *C.double) C.llmm_status) (float64, error) {
	c, err := m.toC(op)
	if err != nil {
		return math.NaN(), err
	}
	return f64Call(op, func(out *C.double) C.llmm_status { return f(&c, out) })
}

// Throughput is the model's X(n) for a concurrency n > 0 (ErrRange outside the model's
// domain).
func (m USL) Throughput(n float64) (float64, error) {
	return m.call("llmm_usl_throughput", func(c *C.llmm_usl, out *C.double) C.llmm_status {
		return C.llmm_usl_throughput(c, C.double(n), out)
	})
}

// Latency is the model's R(n) = n / X(n) (Little's law), in the reciprocal of the
// throughput's time unit.
func (m USL) Latency(n float64) (float64, error) {
	return m.call("llmm_usl_latency", func(c *C.llmm_usl, out *C.double) C.llmm_status {
		return C.llmm_usl_latency(c, C.double(n), out)
	})
}

// SLOConcurrency is the largest integer concurrency whose latency meets maxLatency: 0 when
// even 1 misses it, +Inf when latency never exceeds it.
func (m USL) SLOConcurrency(maxLatency float64) (float64, error) {
	return m.call("llmm_usl_slo_concurrency", func(c *C.llmm_usl, out *C.double) C.llmm_status {
		return C.llmm_usl_slo_concurrency(c, C.double(maxLatency), out)
	})
}

// KneeOptions are the parameters of [Knees]; [DefaultKneeOptions] returns the defaults.
type KneeOptions struct {
	Smooth             int     // growth-collapse smoothing width, odd, 0 = auto
	Trim               float64 // inflection trim share, 0 … 0.45
	CollapseFraction   float64 // growth-collapse threshold share, (0, 1)
	KneedleSensitivity float64 // Kneedle S ≥ 0
}

// DefaultKneeOptions returns the library's defaults: smoothing auto, trim 0.1, collapse
// fraction 0.5, Kneedle sensitivity 1.
func DefaultKneeOptions() KneeOptions {
	var o C.llmm_knee_options
	_ = initStruct(C.LLMM_STRUCT_KNEE_OPTIONS, unsafe.Pointer(&o), C.sizeof_llmm_knee_options) // defaults: cannot fail
	return KneeOptions{Smooth: int(o.smooth), Trim: float64(o.trim),
		CollapseFraction: float64(o.collapse_fraction), KneedleSensitivity: float64(o.kneedle_sensitivity)}
}

// KneeReport holds every knee estimate and the USL fit of one sweep, side by side.
type KneeReport struct {
	Inflection Knee // cubic inflection (KneeInflectionDetail)
	Collapse   Knee // growth collapse (KneeCollapse)
	Kneedle    Knee // Kneedle (KneeKneedle)
	USL        USL  // USL fit; Quality KneeNone when the fit failed
}

// Knees runs every knee estimator and the USL fit on one sweep (conc > 0 and strictly
// increasing). opt nil means [DefaultKneeOptions]. An estimator that finds nothing reports
// KneeNone; only invalid input is an error.
func Knees(conc, qps []float64, opt *KneeOptions) (KneeReport, error) {
	const op = "llmm_knee_report"
	if err := curveArgs(op, conc, qps); err != nil {
		return KneeReport{}, err
	}
	var o C.llmm_knee_options
	if err := initStruct(C.LLMM_STRUCT_KNEE_OPTIONS, unsafe.Pointer(&o), C.sizeof_llmm_knee_options); err != nil {
		return KneeReport{}, err
	}
	if opt != nil {
		if opt.Smooth < 0 || uint64(opt.Smooth) > math.MaxUint32 {
			return KneeReport{}, newError(op, StatusRange, "smoothing width out of bounds")
		}
		o.smooth = C.uint32_t(opt.Smooth)
		o.trim = C.double(opt.Trim)
		o.collapse_fraction = C.double(opt.CollapseFraction)
		o.kneedle_sensitivity = C.double(opt.KneedleSensitivity)
	}
	var infl, coll, kneedle C.llmm_knee
	var usl C.llmm_usl
	for _, k := range []*C.llmm_knee{&infl, &coll, &kneedle} {
		if err := initStruct(C.LLMM_STRUCT_KNEE, unsafe.Pointer(k), C.sizeof_llmm_knee); err != nil {
			return KneeReport{}, err
		}
	}
	if err := initStruct(C.LLMM_STRUCT_USL, unsafe.Pointer(&usl), C.sizeof_llmm_usl); err != nil {
		return KneeReport{}, err
	}
	st := C.llmm_knee_report(f64ptr(conc), f64ptr(qps), C.size_t(len(conc)), &o, &infl, &coll, &kneedle, &usl)
	runtime.KeepAlive(conc)
	runtime.KeepAlive(qps)
	if err := check(op, st); err != nil {
		return KneeReport{}, err
	}
	return KneeReport{Inflection: kneeOf(&infl), Collapse: kneeOf(&coll), Kneedle: kneeOf(&kneedle),
		USL: uslOf(&usl)}, nil
}
