//! The stability gate (steady state reached?) and the saturation signal (latency and
//! in-flight requests rising together).

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::Owned;

readings! {
/// The state of a [`StabilityGate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StabilityReading <- ffi::llmm_stability_reading {
    /// k means held and `max / min ≤ 1 + ε`.
    stable: bool,
    /// Means judged: `min(k, means added)`.
    held: u32,
    /// k.
    windows: u32,
    /// Smallest mean held (0 when none).
    min: f64,
    /// Largest mean held (0 when none).
    max: f64,
    /// `max / min` (0 when none).
    ratio: f64,
    /// Means added since creation or reset.
    total: u64,
}
}

constructors!(
    /// Are the last k window means within `1 + ε` of each other? (`llmm_stability`; bounds and
    /// defaults of k and ε: [`options`](crate::options)`(ObjectKind::Stability)`).
    ///
    /// ```
    /// let mut g = llmmetrics::StabilityGate::new()?;
    /// for m in [140.0, 100.0, 101.0, 103.0, 99.0, 102.0] {
    ///     g.add(m)?;
    /// }
    /// assert!(g.read()?.stable);          // the last 5, 99 … 103: within 5 %
    /// assert!(!g.add(120.0)?);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct StabilityGate(ffi::llmm_stability) = ffi::llmm_stability_new;
    /// A gate with the default options.
    ());

option_calls!(StabilityGate;
    /// Set ε.
    fn set_epsilon(epsilon: f64) = ffi::llmm_stability_set_f64[ffi::LLMM_STABILITY_EPSILON];
    /// ε.
    fn epsilon() -> f64 = ffi::llmm_stability_get_f64[ffi::LLMM_STABILITY_EPSILON];
    /// Set k; applies at once to the means already added.
    fn set_windows(k: u64) = ffi::llmm_stability_set_u64[ffi::LLMM_STABILITY_WINDOWS];
    /// k.
    fn windows() -> u64 = ffi::llmm_stability_get_u64[ffi::LLMM_STABILITY_WINDOWS];
);

calls!(StabilityGate;
    /// Add one window mean (finite, > 0); returns whether the gate is stable after it.
    fn add(&mut self, mean: f64) -> bool = flag ffi::llmm_stability_add;
    /// The verdict and the figures behind it.
    fn read(&self) -> StabilityReading = read ffi::llmm_stability_read;
    /// Forget every mean and the total; options stay.
    fn reset(&mut self) = ffi::llmm_stability_reset;
);

debug_fields!(StabilityGate, "reading" = { read().ok() });

readings! {
/// The state of a [`SaturationSignal`]; slopes per second of `now_ns`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SaturationReading <- ffi::llmm_saturation_reading {
    /// Ready and both slopes confidently positive.
    saturated: bool,
    /// The window holds N samples.
    ready: bool,
    /// The latency slope is confidently positive.
    latency_rising: bool,
    /// The in-flight slope is confidently positive.
    inflight_rising: bool,
    /// Samples held.
    samples: u32,
    /// Least-squares slope of latency over time.
    latency_slope: f64,
    /// Its standard error.
    latency_slope_se: f64,
    /// Least-squares slope of in-flight requests over time.
    inflight_slope: f64,
    /// Its standard error.
    inflight_slope_se: f64,
    /// Samples observed since creation or reset.
    total: u64,
}
}

constructors!(
    /// Latency and in-flight requests rising together over the last N samples
    /// (`llmm_saturation`; bounds and defaults of N and z:
    /// [`options`](crate::options)`(ObjectKind::Saturation)`).
    ///
    /// ```
    /// let mut s = llmmetrics::SaturationSignal::new()?;
    /// for i in 0..64u64 {
    ///     let t = i as f64;
    ///     s.observe(i * 1_000_000_000, 0.1 + 0.01 * t + 0.001 * (t % 3.0), 10.0 + t)?;
    /// }
    /// let r = s.read()?;
    /// assert!(r.saturated && (r.inflight_slope - 1.0).abs() < 1e-9);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct SaturationSignal(ffi::llmm_saturation) = ffi::llmm_saturation_new;
    /// A signal with N = 64, z = 3.
    ());

option_calls!(SaturationSignal;
    /// Set z.
    fn set_confidence(z: f64) = ffi::llmm_saturation_set_f64[ffi::LLMM_SATURATION_CONFIDENCE];
    /// z.
    fn confidence() -> f64 = ffi::llmm_saturation_get_f64[ffi::LLMM_SATURATION_CONFIDENCE];
    /// Set N; only while no sample is held.
    fn set_window(n: u64) = ffi::llmm_saturation_set_u64[ffi::LLMM_SATURATION_WINDOW];
    /// N.
    fn window() -> u64 = ffi::llmm_saturation_get_u64[ffi::LLMM_SATURATION_WINDOW];
);

calls!(SaturationSignal;
    /// Add one sample; returns whether the window is saturated after it.
    fn observe(&mut self, now_ns: u64, latency: f64, in_flight: f64) -> bool =
        flag ffi::llmm_saturation_observe;
    /// Slopes, standard errors and the verdict.
    fn read(&self) -> SaturationReading = read ffi::llmm_saturation_read;
    /// Forget every sample, the total and the clock; options stay.
    fn reset(&mut self) = ffi::llmm_saturation_reset;
);

debug_fields!(SaturationSignal, "reading" = { read().ok() });
