//! The stability gate (steady state reached?) and the saturation signal (latency and
//! in-flight requests rising together).

use std::fmt;

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::Owned;
use crate::sized;

/// The state of a [`StabilityGate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StabilityReading {
    /// k means held and `max / min ≤ 1 + ε`.
    pub stable: bool,
    /// Means judged: `min(k, means added)`.
    pub held: u32,
    /// k.
    pub windows: u32,
    /// Smallest mean held (0 when none).
    pub min: f64,
    /// Largest mean held (0 when none).
    pub max: f64,
    /// `max / min` (0 when none).
    pub ratio: f64,
    /// Means added since creation or reset.
    pub total: u64,
}

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
pub struct StabilityGate {
    raw: Owned<ffi::llmm_stability>,
}

constructors!(StabilityGate = ffi::llmm_stability_new;
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

impl StabilityGate {
    /// Add one window mean (finite, > 0); returns whether the gate is stable after it.
    pub fn add(&mut self, mean: f64) -> Result<bool> {
        let mut stable = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_stability_add(self.raw.ptr(), mean, &mut stable) })?;
        Ok(stable != 0)
    }

    /// The verdict and the figures behind it.
    pub fn read(&self) -> Result<StabilityReading> {
        // SAFETY: live handle; sized::read sets the struct up.
        let r = sized::read(|r| unsafe { ffi::llmm_stability_read(self.raw.ptr(), r) })?;
        Ok(StabilityReading {
            stable: r.stable != 0,
            held: r.held,
            windows: r.windows,
            min: r.min,
            max: r.max,
            ratio: r.ratio,
            total: r.total,
        })
    }

    /// Forget every mean and the total; options stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_stability_reset(self.raw.ptr()) })
    }
}

impl fmt::Debug for StabilityGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StabilityGate").field("reading", &self.read().ok()).finish()
    }
}

/// The state of a [`SaturationSignal`]; slopes per second of `now_ns`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SaturationReading {
    /// Ready and both slopes confidently positive.
    pub saturated: bool,
    /// The window holds N samples.
    pub ready: bool,
    /// The latency slope is confidently positive.
    pub latency_rising: bool,
    /// The in-flight slope is confidently positive.
    pub inflight_rising: bool,
    /// Samples held.
    pub samples: u32,
    /// Least-squares slope of latency over time.
    pub latency_slope: f64,
    /// Its standard error.
    pub latency_slope_se: f64,
    /// Least-squares slope of in-flight requests over time.
    pub inflight_slope: f64,
    /// Its standard error.
    pub inflight_slope_se: f64,
    /// Samples observed since creation or reset.
    pub total: u64,
}

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
pub struct SaturationSignal {
    raw: Owned<ffi::llmm_saturation>,
}

constructors!(SaturationSignal = ffi::llmm_saturation_new;
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

impl SaturationSignal {
    /// Add one sample; returns whether the window is saturated after it.
    pub fn observe(&mut self, now_ns: u64, latency: f64, in_flight: f64) -> Result<bool> {
        let mut sat = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_saturation_observe(self.raw.ptr(), now_ns, latency, in_flight, &mut sat)
        })?;
        Ok(sat != 0)
    }

    /// Slopes, standard errors and the verdict.
    pub fn read(&self) -> Result<SaturationReading> {
        // SAFETY: live handle; sized::read sets the struct up.
        let r = sized::read(|r| unsafe { ffi::llmm_saturation_read(self.raw.ptr(), r) })?;
        Ok(SaturationReading {
            saturated: r.saturated != 0,
            ready: r.ready != 0,
            latency_rising: r.latency_rising != 0,
            inflight_rising: r.inflight_rising != 0,
            samples: r.samples,
            latency_slope: r.latency_slope,
            latency_slope_se: r.latency_slope_se,
            inflight_slope: r.inflight_slope,
            inflight_slope_se: r.inflight_slope_se,
            total: r.total,
        })
    }

    /// Forget every sample, the total and the clock; options stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_saturation_reset(self.raw.ptr()) })
    }
}

impl fmt::Debug for SaturationSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SaturationSignal").field("reading", &self.read().ok()).finish()
    }
}
