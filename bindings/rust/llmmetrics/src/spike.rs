//! Latency-spike detection: P99 / P99.9 dual threshold over a sliding window.

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::Owned;

/// Classification of one latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpikeLevel {
    /// Not above the base threshold, or not classified (warm-up).
    None = 0,
    /// Above the base threshold (P99), not severe: record, alert.
    Level1 = 1,
    /// Above P99 and above factor × P99.9: check the circuit breaker.
    Level2 = 2,
}

/// Floating-point options of a [`SpikeDetector`]; bounds and defaults:
/// [`options`](crate::options)`(ObjectKind::Spike)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpikeF64 {
    /// Quantile of the base threshold (P99).
    BaseQuantile = 1,
    /// Quantile of the severe threshold (P99.9).
    SevereQuantile = 2,
    /// Level 2 needs latency > factor × severe threshold.
    SevereFactor = 3,
}

/// Integer options of a [`SpikeDetector`]. The geometry keys (`SlotNs`, `Slots`, `Scale`)
/// may only change before the first time stamp (after creation or a reset). Bounds and
/// defaults: [`options`](crate::options)`(ObjectKind::Spike)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpikeU64 {
    /// Baseline samples needed before classifying.
    Warmup = 4,
    /// Slot length in ns.
    SlotNs = 5,
    /// Slots in the window.
    Slots = 6,
    /// Sketch scale.
    Scale = 7,
}

readings! {
/// Baselines in force and counts per level, see [`SpikeDetector::stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpikeStats <- ffi::llmm_spike_stats {
    /// Whether samples are being classified (warm-up done).
    ready: bool,
    /// Base quantile (P99) in force; 0 when no baseline.
    base_threshold: f64,
    /// Severe quantile (P99.9) in force; 0 when no baseline.
    severe_threshold: f64,
    /// Latencies the baselines in force were computed from.
    baseline_samples: u64,
    /// Samples observed in the window.
    window_samples: u64,
    /// Of those, classified.
    window_classified: u64,
    /// Of those, level 1.
    window_level1: u64,
    /// Of those, level 2.
    window_level2: u64,
    /// Samples observed since creation or reset.
    total_samples: u64,
    /// Of those, classified.
    total_classified: u64,
    /// Of those, level 1.
    total_level1: u64,
    /// Of those, level 2.
    total_level2: u64,
}
}

constructors!(
    /// A latency-spike detector (`llmm_spike`): each latency is classified against the P99 and
    /// P99.9 of the closed slots of its window (default 60 × 1 s) once `warm-up` samples
    /// (default 1000) back the baselines.
    ///
    /// ```
    /// use llmmetrics::{SpikeDetector, SpikeLevel, SpikeU64};
    ///
    /// const S: u64 = 1_000_000_000;
    /// let mut d = SpikeDetector::new()?;
    /// d.set_u64(SpikeU64::Warmup, 100)?;
    /// for i in 0..1000u64 {
    ///     d.observe(i * S / 100, 0.100 + (i % 10) as f64 * 0.001)?;   // 10 s of 100..109 ms
    /// }
    /// assert_eq!(d.observe(10 * S, 0.105)?, SpikeLevel::None);
    /// assert_eq!(d.observe(10 * S, 0.500)?, SpikeLevel::Level2);      // > 1.2 × P99.9
    /// assert_eq!(d.stats(10 * S)?.total_level2, 1);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    ///
    /// Every call that takes a time stamp advances the detector's clock, so it takes `&mut self`;
    /// reading an option takes `&self`. `SpikeDetector` is `Send + Sync`.
    pub struct SpikeDetector(ffi::llmm_spike) = ffi::llmm_spike_new;
    /// A detector with the default options.
    ());

option_calls!(SpikeDetector;
    /// Set a floating-point option.
    ///
    /// # Errors
    /// `Range` for NaN or a value outside the option's bounds (nothing changes).
    fn set_f64(key: SpikeF64 as ffi::llmm_spike_option, value: f64) = ffi::llmm_spike_set_f64;
    /// Read a floating-point option.
    fn get_f64(key: SpikeF64 as ffi::llmm_spike_option) -> f64 = ffi::llmm_spike_get_f64;
    /// Set an integer option.
    ///
    /// # Errors
    /// `Range` outside the option's bounds; `State` for a geometry key after the first time
    /// stamp; `NoMem` when rebuilding the window failed (nothing changes).
    fn set_u64(key: SpikeU64 as ffi::llmm_spike_option, value: u64) = ffi::llmm_spike_set_u64;
    /// Read an integer option.
    fn get_u64(key: SpikeU64 as ffi::llmm_spike_option) -> u64 = ffi::llmm_spike_get_u64;
);

impl SpikeDetector {
    /// Record one latency (finite, ≥ 0) at `now_ns` and classify it.
    ///
    /// # Errors
    /// `Invalid` for a bad latency or time going backwards; `NoMem`. Nothing changes on error.
    pub fn observe(&mut self, now_ns: u64, latency: f64) -> Result<SpikeLevel> {
        let mut level = ffi::LLMM_SPIKE_NONE;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_spike_observe(self.raw.ptr(), now_ns, latency, &mut level) })?;
        match level {
            ffi::LLMM_SPIKE_NONE => Ok(SpikeLevel::None),
            ffi::LLMM_SPIKE_LEVEL1 => Ok(SpikeLevel::Level1),
            ffi::LLMM_SPIKE_LEVEL2 => Ok(SpikeLevel::Level2),
            _ => Err(Error::abi()),
        }
    }
}

calls!(SpikeDetector;
    /// Spike rate over the window: classified samples above the base threshold on arrival
    /// divided by the classified samples in the window.
    ///
    /// # Errors
    /// `Empty` when no classified sample is in the window.
    fn rate(&mut self, now_ns: u64) -> f64 = get ffi::llmm_spike_rate;
    /// Baselines in force and counts per level at `now_ns`.
    fn stats(&mut self, now_ns: u64) -> SpikeStats = read ffi::llmm_spike_get_stats;
    /// Forget every sample, count, baseline and the clock; options stay.
    fn reset(&mut self) = ffi::llmm_spike_reset;
);

debug_fields!(
    SpikeDetector,
    "base_quantile" = { get_f64(SpikeF64::BaseQuantile).ok() },
    "severe_quantile" = { get_f64(SpikeF64::SevereQuantile).ok() },
    "severe_factor" = { get_f64(SpikeF64::SevereFactor).ok() },
    "warmup" = { get_u64(SpikeU64::Warmup).ok() }
);
