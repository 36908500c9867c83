//! `fit.h`: Least squares, polynomials, knees, Universal Scalability Law.

use super::*;

/// Highest degree the polynomial fits and root finder accept.
pub const LLMM_POLY_MAX_DEGREE: u32 = 16;

/// Diagnostics of a least-squares polynomial fit (`llmm_fit_stats`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_fit_stats {
    /// `sizeof(llmm_fit_stats)`, set by [`llmm_fit_stats_init`].
    pub struct_size: u32,
    /// Numerical rank of the scaled Vandermonde matrix.
    pub rank: u32,
    /// Points that entered the fit.
    pub n: u64,
    /// Coefficient of determination.
    pub r2: f64,
    /// Residual sum of squares.
    pub rss: f64,
    /// Total sum of squares.
    pub tss: f64,
    /// sqrt(rss / (n − degree − 1)).
    pub residual_std: f64,
    /// 1-norm condition number of the triangular factor.
    pub condition: f64,
    /// Centre of the abscissa map.
    pub centre: f64,
    /// Scale of the abscissa map.
    pub scale: f64,
}

/// How well a knee estimate is supported (`llmm_knee_quality`).
pub type llmm_knee_quality = c_int;
/// no estimate
pub const LLMM_KNEE_NONE: llmm_knee_quality = 0;
/// a weakly supported estimate
pub const LLMM_KNEE_WEAK: llmm_knee_quality = 1;
/// a well-supported estimate
pub const LLMM_KNEE_OK: llmm_knee_quality = 2;

/// One knee estimate (`llmm_knee`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_knee {
    /// `sizeof(llmm_knee)`, set by [`llmm_knee_init`].
    pub struct_size: u32,
    /// Quality of the estimate.
    pub quality: llmm_knee_quality,
    /// Concurrency at the knee; NaN when NONE.
    pub knee: f64,
    /// Throughput at the knee; NaN when NONE.
    pub qps: f64,
    /// Estimator-specific support figure.
    pub strength: f64,
}

/// A fitted Universal Scalability Law model (`llmm_usl`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_usl {
    /// `sizeof(llmm_usl)`, set by [`llmm_usl_init`].
    pub struct_size: u32,
    /// Quality of the fit.
    pub quality: llmm_knee_quality,
    /// Levenberg–Marquardt iterations used.
    pub iterations: u32,
    /// 1 when κ was held at its bound 0.
    pub kappa_at_bound: i32,
    /// λ, throughput at N = 1.
    pub lambda: f64,
    /// σ, contention.
    pub sigma: f64,
    /// κ, coherency.
    pub kappa: f64,
    /// Concurrency of the throughput peak.
    pub n_max: f64,
    /// Throughput at `n_max`.
    pub x_max: f64,
    /// R² of the fit.
    pub r2: f64,
    /// Residual sum of squares.
    pub rss: f64,
}

/// Parameters of [`llmm_knee_report`] (`llmm_knee_options`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_knee_options {
    /// `sizeof(llmm_knee_options)`, set by [`llmm_knee_options_init`].
    pub struct_size: u32,
    /// Growth-collapse smoothing width (0 = auto).
    pub smooth: u32,
    /// Inflection trim share.
    pub trim: f64,
    /// Growth-collapse threshold share.
    pub collapse_fraction: f64,
    /// Kneedle sensitivity.
    pub kneedle_sensitivity: f64,
}

extern "C" {
    pub fn llmm_fit_stats_init(st: *mut llmm_fit_stats) -> llmm_status;
    pub fn llmm_polyfit(
        x: *const f64,
        y: *const f64,
        n: usize,
        degree: u32,
        coeffs: *mut f64,
        st: *mut llmm_fit_stats,
    ) -> llmm_status;
    pub fn llmm_polyfit_weighted(
        x: *const f64,
        y: *const f64,
        w: *const f64,
        n: usize,
        degree: u32,
        coeffs: *mut f64,
        st: *mut llmm_fit_stats,
    ) -> llmm_status;
    pub fn llmm_poly_eval(coeffs: *const f64, degree: u32, x: f64, y: *mut f64) -> llmm_status;
    pub fn llmm_poly_residuals(
        coeffs: *const f64,
        degree: u32,
        x: *const f64,
        y: *const f64,
        n: usize,
        residuals: *mut f64,
        rss: *mut f64,
    ) -> llmm_status;
    pub fn llmm_poly_deriv(
        coeffs: *const f64,
        degree: u32,
        order: u32,
        out: *mut f64,
        out_degree: *mut u32,
    ) -> llmm_status;
    pub fn llmm_poly_roots(
        coeffs: *const f64,
        degree: u32,
        roots: *mut f64,
        cap: usize,
        nroots: *mut usize,
    ) -> llmm_status;
    pub fn llmm_knee_init(k: *mut llmm_knee) -> llmm_status;
    pub fn llmm_knee_inflection(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        trim: f64,
        knee: *mut f64,
    ) -> llmm_status;
    pub fn llmm_knee_inflection_ex(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        trim: f64,
        out: *mut llmm_knee,
    ) -> llmm_status;
    pub fn llmm_knee_collapse(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        fraction: f64,
        smooth: u32,
        out: *mut llmm_knee,
    ) -> llmm_status;
    pub fn llmm_knee_kneedle(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        sensitivity: f64,
        out: *mut llmm_knee,
    ) -> llmm_status;
    pub fn llmm_usl_init(m: *mut llmm_usl) -> llmm_status;
    pub fn llmm_usl_fit(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        model: *mut llmm_usl,
    ) -> llmm_status;
    pub fn llmm_usl_throughput(model: *const llmm_usl, n: f64, x: *mut f64) -> llmm_status;
    pub fn llmm_usl_latency(model: *const llmm_usl, n: f64, latency: *mut f64) -> llmm_status;
    pub fn llmm_usl_slo_concurrency(
        model: *const llmm_usl,
        max_latency: f64,
        n: *mut f64,
    ) -> llmm_status;
    pub fn llmm_knee_options_init(o: *mut llmm_knee_options) -> llmm_status;
    pub fn llmm_knee_report(
        conc: *const f64,
        qps: *const f64,
        n: usize,
        opt: *const llmm_knee_options,
        inflection: *mut llmm_knee,
        collapse: *mut llmm_knee,
        kneedle: *mut llmm_knee,
        usl: *mut llmm_usl,
    ) -> llmm_status;
}
