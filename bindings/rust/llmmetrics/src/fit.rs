//! Least squares, polynomials and roots, knee estimators, Universal Scalability Law.
//!
//! Pure functions of their arguments (thread-safe). Polynomial coefficients are ordered highest
//! power first, as in numpy: `coeffs[0]·x^d + … + coeffs[d]`, degree `coeffs.len() − 1`.

use llmmetrics_sys as ffi;

use crate::error::{check, Error, Result};
use crate::object::{get, FromC};
use crate::sized;

/// Highest degree [`polyfit`], [`polyfit_weighted`] and [`poly_roots`] accept.
pub const POLY_MAX_DEGREE: u32 = ffi::LLMM_POLY_MAX_DEGREE;

readings! {
/// Diagnostics of a least-squares polynomial fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitStats <- ffi::llmm_fit_stats {
    /// Numerical rank of the scaled Vandermonde matrix (degree + 1 for a successful fit).
    rank: u32,
    /// Points that entered the fit (weight > 0).
    n: u64,
    /// Coefficient of determination `1 − rss/tss` (1 when tss = 0).
    r2: f64,
    /// Residual sum of squares (weighted for weighted fits).
    rss: f64,
    /// Total sum of squares about the (weighted) mean.
    tss: f64,
    /// `sqrt(rss / (n − degree − 1))`; 0 when n = degree + 1.
    residual_std: f64,
    /// 1-norm condition number of the triangular factor (≥ 1).
    condition: f64,
    /// Centre `c` of the abscissa map `t = (x − c)/h`.
    centre: f64,
    /// Scale `h` of the abscissa map (a power of two).
    scale: f64,
}
}

fn same_len(a: &[f64], b: &[f64]) -> Result<()> {
    if a.len() == b.len() {
        Ok(())
    } else {
        Err(Error::invalid())
    }
}

fn degree_of(coeffs: &[f64]) -> Result<u32> {
    match coeffs.len() {
        0 => Err(Error::invalid()),
        n => u32::try_from(n - 1).map_err(|_| Error::invalid()),
    }
}

/// Least-squares polynomial fit, the equivalent of `numpy.polyfit(x, y, degree)`.
///
/// ```
/// // y = 2x² − 3x + 1 exactly: the fit recovers the coefficients.
/// let x = [0.0, 1.0, 2.0, 3.0, 4.0];
/// let y: Vec<f64> = x.iter().map(|x| 2.0 * x * x - 3.0 * x + 1.0).collect();
/// let (c, stats) = llmmetrics::polyfit(&x, &y, 2)?;
/// for (got, want) in c.iter().zip([2.0, -3.0, 1.0]) {
///     assert!((got - want).abs() < 1e-12);
/// }
/// assert!(stats.r2 > 0.999_999);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for slices of different lengths, NaN or infinite values, fewer than degree + 1
/// points or distinct abscissae; `Empty` for no points; `Range` for a degree above
/// [`POLY_MAX_DEGREE`].
pub fn polyfit(x: &[f64], y: &[f64], degree: u32) -> Result<(Vec<f64>, FitStats)> {
    same_len(x, y)?;
    let mut coeffs = vec![0.0; degree.min(POLY_MAX_DEGREE) as usize + 1];
    // SAFETY: x, y readable for len; coeffs has degree + 1 slots when the degree is accepted
    // (a larger degree is refused before anything is written).
    let st = sized::read(|st| unsafe {
        ffi::llmm_polyfit(x.as_ptr(), y.as_ptr(), x.len(), degree, coeffs.as_mut_ptr(), st)
    })?;
    Ok((coeffs, FitStats::from_c(st)))
}

/// Weighted least squares, minimising `Σ wᵢ (yᵢ − p(xᵢ))²` (a weight acts as a repeat count).
///
/// # Errors
/// As [`polyfit`]; `Invalid` also for a negative weight.
pub fn polyfit_weighted(
    x: &[f64],
    y: &[f64],
    w: &[f64],
    degree: u32,
) -> Result<(Vec<f64>, FitStats)> {
    same_len(x, y)?;
    same_len(x, w)?;
    let mut coeffs = vec![0.0; degree.min(POLY_MAX_DEGREE) as usize + 1];
    // SAFETY: as polyfit.
    let st = sized::read(|st| unsafe {
        let (c, n) = (coeffs.as_mut_ptr(), x.len());
        ffi::llmm_polyfit_weighted(x.as_ptr(), y.as_ptr(), w.as_ptr(), n, degree, c, st)
    })?;
    Ok((coeffs, FitStats::from_c(st)))
}

/// `p(x)` by Horner's rule (as `numpy.polyval`).
///
/// # Errors
/// `Invalid` for no coefficients or a NaN / infinite input.
pub fn poly_eval(coeffs: &[f64], x: f64) -> Result<f64> {
    let degree = degree_of(coeffs)?;
    // SAFETY: coeffs holds degree + 1 values.
    get(|y| unsafe { ffi::llmm_poly_eval(coeffs.as_ptr(), degree, x, y) })
}

/// Residuals `yᵢ − p(xᵢ)` (compensated Horner) and their sum of squares.
pub fn poly_residuals(coeffs: &[f64], x: &[f64], y: &[f64]) -> Result<(Vec<f64>, f64)> {
    let degree = degree_of(coeffs)?;
    same_len(x, y)?;
    let mut r = vec![0.0; x.len()];
    let mut rss = 0.0;
    // SAFETY: every slice holds the lengths passed.
    check(unsafe {
        ffi::llmm_poly_residuals(
            coeffs.as_ptr(),
            degree,
            x.as_ptr(),
            y.as_ptr(),
            x.len(),
            r.as_mut_ptr(),
            &mut rss,
        )
    })?;
    Ok((r, rss))
}

/// Derivative of order `order` (as `numpy.polyder`); the zero polynomial is `[0.0]`.
///
/// ```
/// // d/dx (x³ + 2x² + 3x + 4) = 3x² + 4x + 3
/// assert_eq!(llmmetrics::poly_deriv(&[1.0, 2.0, 3.0, 4.0], 1)?, [3.0, 4.0, 3.0]);
/// assert_eq!(llmmetrics::poly_deriv(&[1.0, 2.0], 5)?, [0.0]);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn poly_deriv(coeffs: &[f64], order: u32) -> Result<Vec<f64>> {
    let degree = degree_of(coeffs)?;
    let mut out = vec![0.0; degree.saturating_sub(order) as usize + 1];
    let mut out_degree = 0u32;
    // SAFETY: `out` holds max(degree − order, 0) + 1 values as documented.
    check(unsafe {
        ffi::llmm_poly_deriv(coeffs.as_ptr(), degree, order, out.as_mut_ptr(), &mut out_degree)
    })?;
    out.truncate(out_degree as usize + 1);
    Ok(out)
}

/// All real roots, ascending, each as often as its multiplicity.
///
/// ```
/// // (x − 1)(x − 2)(x − 3) = x³ − 6x² + 11x − 6
/// let r = llmmetrics::poly_roots(&[1.0, -6.0, 11.0, -6.0])?;
/// assert_eq!(r.len(), 3);
/// for (got, want) in r.iter().zip([1.0, 2.0, 3.0]) {
///     assert!((got - want).abs() < 1e-12);
/// }
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for no or only zero coefficients or a NaN / infinite one; `Range` for a degree
/// above [`POLY_MAX_DEGREE`]; `NotConverged`.
pub fn poly_roots(coeffs: &[f64]) -> Result<Vec<f64>> {
    let degree = degree_of(coeffs)?;
    let mut roots = vec![0.0; degree as usize];
    let mut n = 0usize;
    // SAFETY: `roots` has `cap` writable slots (a polynomial of degree d has at most d roots;
    // a larger need is reported as LLMM_E_BUFFER, never written).
    check(unsafe {
        ffi::llmm_poly_roots(coeffs.as_ptr(), degree, roots.as_mut_ptr(), roots.len(), &mut n)
    })?;
    roots.truncate(n);
    Ok(roots)
}

/// How well a knee estimate is supported by the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KneeQuality {
    /// No estimate: the estimator found nothing in the data range.
    None = 0,
    /// An estimate, but weakly supported.
    Weak = 1,
    /// A well-supported estimate.
    Ok = 2,
}

impl KneeQuality {
    fn from_raw(q: ffi::llmm_knee_quality) -> Result<KneeQuality> {
        match q {
            ffi::LLMM_KNEE_NONE => Ok(KneeQuality::None),
            ffi::LLMM_KNEE_WEAK => Ok(KneeQuality::Weak),
            ffi::LLMM_KNEE_OK => Ok(KneeQuality::Ok),
            _ => Err(Error::abi()),
        }
    }
}

/// One knee estimate; a missing knee is a result (quality `None`, values NaN).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knee {
    /// Quality of the estimate.
    pub quality: KneeQuality,
    /// Concurrency at the knee.
    pub knee: f64,
    /// Throughput at the knee.
    pub qps: f64,
    /// Estimator-specific support figure (see the C documentation of each estimator).
    pub strength: f64,
}

/// The knee a C estimator writes into the struct it is given.
fn knee_of(estimate: impl FnOnce(*mut ffi::llmm_knee) -> ffi::llmm_status) -> Result<Knee> {
    knee_from(&sized::read(estimate)?)
}

fn knee_from(k: &ffi::llmm_knee) -> Result<Knee> {
    Ok(Knee {
        quality: KneeQuality::from_raw(k.quality)?,
        knee: k.knee,
        qps: k.qps,
        strength: k.strength,
    })
}

/// Knee as the inflection point `−b/(3a)` of a least-squares cubic, after trimming the first
/// and last `⌊trim·n⌋` samples (the reference uses 0.1).
///
/// # Errors
/// `Empty` when there is no inflection inside the retained range; `Invalid` for bad data or
/// fewer than 4 samples after trimming; `Range` for `trim` outside 0 ..= 0.45.
pub fn knee_inflection(conc: &[f64], qps: &[f64], trim: f64) -> Result<f64> {
    same_len(conc, qps)?;
    // SAFETY: both slices readable for `len`.
    get(|knee| unsafe {
        ffi::llmm_knee_inflection(conc.as_ptr(), qps.as_ptr(), conc.len(), trim, knee)
    })
}

/// The cubic-inflection estimator with its quality flag.
pub fn knee_inflection_ex(conc: &[f64], qps: &[f64], trim: f64) -> Result<Knee> {
    same_len(conc, qps)?;
    // SAFETY: both slices readable for `len`; `k` set up by knee_of.
    knee_of(|k| unsafe {
        ffi::llmm_knee_inflection_ex(conc.as_ptr(), qps.as_ptr(), conc.len(), trim, k)
    })
}

/// Knee where the smoothed marginal gain falls below `fraction` of the initial gain
/// (`smooth`: odd moving-average width in gains, 0 for automatic, 1 for none).
pub fn knee_collapse(conc: &[f64], qps: &[f64], fraction: f64, smooth: u32) -> Result<Knee> {
    same_len(conc, qps)?;
    // SAFETY: both slices readable for `len`; `k` set up by knee_of.
    knee_of(|k| unsafe {
        ffi::llmm_knee_collapse(conc.as_ptr(), qps.as_ptr(), conc.len(), fraction, smooth, k)
    })
}

/// Kneedle knee (Satopää et al., 2011) of a concave increasing curve; `sensitivity` S ≥ 0
/// (the paper's default is 1).
pub fn knee_kneedle(conc: &[f64], qps: &[f64], sensitivity: f64) -> Result<Knee> {
    same_len(conc, qps)?;
    // SAFETY: both slices readable for `len`; `k` set up by knee_of.
    knee_of(|k| unsafe {
        ffi::llmm_knee_kneedle(conc.as_ptr(), qps.as_ptr(), conc.len(), sensitivity, k)
    })
}

/// A Universal Scalability Law model `X(N) = λN / (1 + σ(N − 1) + κN(N − 1))`.
///
/// ```
/// use llmmetrics::Usl;
///
/// let m = Usl::new(100.0, 0.05, 0.001);   // λ, σ, κ
/// let x8 = m.throughput(8.0)?;
/// assert!((x8 - 800.0 / (1.0 + 0.05 * 7.0 + 0.001 * 56.0)).abs() < 1e-9);
/// assert!((m.latency(8.0)? - 8.0 / x8).abs() < 1e-15);  // Little's law
/// # Ok::<(), llmmetrics::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Usl {
    /// Quality of the fit (`None` for a model that was not fitted).
    pub quality: KneeQuality,
    /// Levenberg–Marquardt iterations used.
    pub iterations: u32,
    /// Whether κ was held at its bound 0 (no coherency cost).
    pub kappa_at_bound: bool,
    /// λ > 0, throughput at N = 1 before contention.
    pub lambda: f64,
    /// σ, contention (may be slightly negative).
    pub sigma: f64,
    /// κ ≥ 0, coherency.
    pub kappa: f64,
    /// `floor(sqrt((1 − σ)/κ))`, at least 1; +∞ without a peak.
    pub n_max: f64,
    /// X(n_max), or the limit of X when κ = 0.
    pub x_max: f64,
    /// R² of the fit on the throughput values.
    pub r2: f64,
    /// Residual sum of squares of the fit.
    pub rss: f64,
}

impl Usl {
    /// A model from its three parameters (the fit figures are NaN, quality `None`).
    pub fn new(lambda: f64, sigma: f64, kappa: f64) -> Usl {
        Usl {
            quality: KneeQuality::None,
            iterations: 0,
            kappa_at_bound: false,
            lambda,
            sigma,
            kappa,
            n_max: f64::NAN,
            x_max: f64::NAN,
            r2: f64::NAN,
            rss: f64::NAN,
        }
    }

    fn from_raw(m: &ffi::llmm_usl) -> Result<Usl> {
        Ok(Usl {
            quality: KneeQuality::from_raw(m.quality)?,
            iterations: m.iterations,
            kappa_at_bound: m.kappa_at_bound != 0,
            lambda: m.lambda,
            sigma: m.sigma,
            kappa: m.kappa,
            n_max: m.n_max,
            x_max: m.x_max,
            r2: m.r2,
            rss: m.rss,
        })
    }

    fn to_raw(self) -> Result<ffi::llmm_usl> {
        let mut m: ffi::llmm_usl = sized::try_defaults()?;
        m.quality = self.quality as ffi::llmm_knee_quality;
        m.iterations = self.iterations;
        m.kappa_at_bound = i32::from(self.kappa_at_bound);
        m.lambda = self.lambda;
        m.sigma = self.sigma;
        m.kappa = self.kappa;
        m.n_max = self.n_max;
        m.x_max = self.x_max;
        m.r2 = self.r2;
        m.rss = self.rss;
        Ok(m)
    }

    /// Throughput X(n) for a concurrency `n` > 0.
    ///
    /// # Errors
    /// `Invalid` for a bad `n` or model; `Range` outside the model's domain.
    pub fn throughput(&self, n: f64) -> Result<f64> {
        let m = self.to_raw()?;
        // SAFETY: `m` is a size-prefixed struct set up by the library.
        get(|x| unsafe { ffi::llmm_usl_throughput(&m, n, x) })
    }

    /// Latency R(n) = n / X(n) (Little's law), in the reciprocal of the throughput's unit.
    pub fn latency(&self, n: f64) -> Result<f64> {
        let m = self.to_raw()?;
        // SAFETY: as throughput.
        get(|r| unsafe { ffi::llmm_usl_latency(&m, n, r) })
    }

    /// Largest integer concurrency whose latency meets `max_latency` (0 if even N = 1 misses
    /// it, +∞ if latency never exceeds it).
    pub fn slo_concurrency(&self, max_latency: f64) -> Result<f64> {
        let m = self.to_raw()?;
        // SAFETY: as throughput.
        get(|n| unsafe { ffi::llmm_usl_slo_concurrency(&m, max_latency, n) })
    }
}

/// Fit the Universal Scalability Law to (concurrency, throughput) pairs (at least 6 samples,
/// 3 distinct concurrencies, all values > 0).
///
/// # Errors
/// `Invalid` for bad data; `Empty` for no samples; `NotConverged`.
pub fn usl_fit(conc: &[f64], qps: &[f64]) -> Result<Usl> {
    same_len(conc, qps)?;
    // SAFETY: both slices readable for `len`; `m` set up by sized::read.
    let m =
        sized::read(|m| unsafe { ffi::llmm_usl_fit(conc.as_ptr(), qps.as_ptr(), conc.len(), m) })?;
    Usl::from_raw(&m)
}

/// Parameters of [`knee_report`]; `Default` gives the library's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KneeOptions {
    /// Growth-collapse smoothing width, odd, 0 for automatic (default 0).
    pub smooth: u32,
    /// Inflection trim share, 0 ..= 0.45 (default 0.1).
    pub trim: f64,
    /// Growth-collapse threshold share, in (0, 1) (default 0.5).
    pub collapse_fraction: f64,
    /// Kneedle sensitivity S ≥ 0 (default 1).
    pub kneedle_sensitivity: f64,
}

impl Default for KneeOptions {
    fn default() -> KneeOptions {
        let o = sized::defaults::<ffi::llmm_knee_options>();
        KneeOptions {
            smooth: o.smooth,
            trim: o.trim,
            collapse_fraction: o.collapse_fraction,
            kneedle_sensitivity: o.kneedle_sensitivity,
        }
    }
}

/// Every knee estimator and the USL fit on one sweep, see [`knee_report`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KneeReport {
    /// Cubic-inflection estimate.
    pub inflection: Knee,
    /// Growth-collapse estimate.
    pub collapse: Knee,
    /// Kneedle estimate.
    pub kneedle: Knee,
    /// USL model; quality `None` (NaN parameters) when the fit failed.
    pub usl: Usl,
}

/// Run every knee estimator and the USL fit on one sweep (concurrencies > 0, strictly
/// increasing) for a side-by-side report. An estimator that finds nothing reports quality
/// `None`; that is not an error.
pub fn knee_report(conc: &[f64], qps: &[f64], options: &KneeOptions) -> Result<KneeReport> {
    same_len(conc, qps)?;
    let mut o = sized::defaults::<ffi::llmm_knee_options>();
    o.smooth = options.smooth;
    o.trim = options.trim;
    o.collapse_fraction = options.collapse_fraction;
    o.kneedle_sensitivity = options.kneedle_sensitivity;
    let mut k: [ffi::llmm_knee; 3] =
        [sized::try_defaults()?, sized::try_defaults()?, sized::try_defaults()?];
    let mut u: ffi::llmm_usl = sized::try_defaults()?;
    let [a, b, c] = &mut k;
    // SAFETY: slices readable for `len`; every out-struct set up by the library.
    check(unsafe {
        ffi::llmm_knee_report(conc.as_ptr(), qps.as_ptr(), conc.len(), &o, a, b, c, &mut u)
    })?;
    Ok(KneeReport {
        inflection: knee_from(&k[0])?,
        collapse: knee_from(&k[1])?,
        kneedle: knee_from(&k[2])?,
        usl: Usl::from_raw(&u)?,
    })
}
