//! Throughput collapse right after a precision switch (doc/spec.md §7).

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::Owned;

/// Largest latency, TPS reading, mean or in-flight count the detectors accept.
pub const DETECT_VALUE_MAX: f64 = ffi::LLMM_DETECT_VALUE_MAX;

/// Floating-point options of a [`CollapseDetector`]; bounds and defaults:
/// [`options`](crate::options)`(ObjectKind::Collapse)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollapseF64 {
    /// k in `mean + k·σ`.
    K = 2,
    /// σ is at least this share of the baseline mean.
    SigmaFloor = 3,
    /// The TPS signal confirms when the drop exceeds this share.
    TpsDrop = 6,
    /// The bandwidth signal confirms when utilisation is below this.
    MembwBelow = 7,
}

/// Integer options of a [`CollapseDetector`]; bounds and defaults:
/// [`options`](crate::options)`(ObjectKind::Collapse)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollapseU64 {
    /// W, latencies in the baseline. Only while no latency is held.
    Window = 1,
    /// A latency is matched to a switch at most this many ns after it.
    SwitchNs = 4,
    /// 1: only latencies matched to a switch collapse; 0: every outlier does.
    RequireSwitch = 5,
    /// TPS and bandwidth readings are matched within this many ns.
    ConfirmNs = 8,
}

readings! {
/// The verdict on one latency, see [`CollapseDetector::observe_ex`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollapseVerdict <- ffi::llmm_collapse_verdict {
    /// Outlier and (if required) matched to a switch.
    collapsed: bool,
    /// A baseline of W earlier latencies existed.
    ready: bool,
    /// Above the threshold, whatever the switch.
    outlier: bool,
    /// Within the switch interval of the latest switch.
    after_switch: bool,
    /// σ was raised to its floor.
    floored: bool,
    /// Baseline mean (0 when not ready).
    mean: f64,
    /// Baseline σ after the floor.
    sigma: f64,
    /// `mean + k·σ`.
    threshold: f64,
    /// `now − latest switch`; `None` when no switch was marked.
    since_switch_ns: Option<u64>,
    /// Latencies observed, this one included.
    samples: u64,
}
}

readings! {
/// The confirmation matrix of the latest switch, see [`CollapseDetector::switch_report`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollapseReport <- ffi::llmm_collapse_report {
    /// Confirmed signals among latency, TPS and memory bandwidth (0 ..= 3).
    signals: i32,
    /// A latency matched to the switch was collapsed.
    latency_confirmed: bool,
    /// TPS readings exist before and after the switch.
    tps_known: bool,
    /// The TPS drop exceeds its option.
    tps_confirmed: bool,
    /// A bandwidth reading exists after the switch.
    membw_known: bool,
    /// The utilisation is below its option.
    membw_confirmed: bool,
    /// The report may still change (the clock is inside the matching intervals).
    open: bool,
    /// Time stamp of the switch.
    switch_ns: u64,
    /// Latencies matched to the switch.
    latencies: u64,
    /// Of those, collapsed.
    flagged: u64,
    /// Last TPS reading before the switch.
    tps_before: f64,
    /// Lowest TPS reading matched to the switch.
    tps_after: f64,
    /// `1 − after / before` (when known).
    tps_drop: f64,
    /// Lowest utilisation matched to the switch.
    membw: f64,
}
}

/// Counts of a [`CollapseDetector`] since creation or reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollapseCounts {
    /// Latencies observed.
    pub samples: u64,
    /// Of those, collapsed.
    pub collapsed: u64,
    /// Switches marked.
    pub switches: u64,
}

constructors!(
    /// Throughput collapse right after a precision switch (doc/spec.md §7, `llmm_collapse`): a batch
    /// latency is an outlier above `mean + k·σ` of the W before it, and collapsed when it comes
    /// within 10 ms of the latest switch.
    ///
    /// ```
    /// use llmmetrics::CollapseDetector;
    ///
    /// const MS: u64 = 1_000_000;
    /// let mut c = CollapseDetector::new()?;
    /// for i in 0..8 {
    ///     c.observe(i * MS, 0.050 + (i % 2) as f64 * 0.001)?;   // a calm baseline
    /// }
    /// c.mark_switch(8 * MS)?;                                    // FP16 → INT8
    /// assert!(c.observe(10 * MS, 0.200)?);                       // 2 ms later: collapsed
    /// assert!(!c.observe(30 * MS, 0.200)?);                      // 22 ms later: too late
    /// assert_eq!(c.counts().collapsed, 1);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct CollapseDetector(ffi::llmm_collapse) = ffi::llmm_collapse_new;
    /// A detector with the default options.
    ());

option_calls!(CollapseDetector;
    /// Set a floating-point option.
    fn set_f64(key: CollapseF64 as ffi::llmm_collapse_option, value: f64) = ffi::llmm_collapse_set_f64;
    /// Read a floating-point option.
    fn get_f64(key: CollapseF64 as ffi::llmm_collapse_option) -> f64 = ffi::llmm_collapse_get_f64;
    /// Set an integer option.
    fn set_u64(key: CollapseU64 as ffi::llmm_collapse_option, value: u64) = ffi::llmm_collapse_set_u64;
    /// Read an integer option.
    fn get_u64(key: CollapseU64 as ffi::llmm_collapse_option) -> u64 = ffi::llmm_collapse_get_u64;
);

calls!(CollapseDetector;
    /// Mark a weight (precision) switch at `now_ns`; it replaces any earlier one.
    fn mark_switch(&mut self, now_ns: u64) = ffi::llmm_collapse_mark_switch;
    /// Judge one batch latency against the W before it; returns whether it collapsed.
    ///
    /// # Errors
    /// `Invalid` for a bad latency or time going backwards; `Range` above
    /// [`DETECT_VALUE_MAX`].
    fn observe(&mut self, now_ns: u64, latency: f64) -> bool = flag ffi::llmm_collapse_observe;
    /// [`observe`](CollapseDetector::observe) with the whole verdict.
    fn observe_ex(&mut self, now_ns: u64, latency: f64) -> CollapseVerdict =
        read ffi::llmm_collapse_observe_ex;
    /// A throughput reading (a drop after a switch is the TPS signal).
    fn observe_tps(&mut self, now_ns: u64, tps: f64) = ffi::llmm_collapse_observe_tps;
    /// A memory-bandwidth utilisation reading in [0, 1].
    fn observe_membw(&mut self, now_ns: u64, utilisation: f64) = ffi::llmm_collapse_observe_membw;
    /// The confirmation matrix of the latest switch.
    ///
    /// # Errors
    /// `Empty` when no switch was marked.
    fn switch_report(&self) -> CollapseReport = read ffi::llmm_collapse_switch_report;
    /// Forget every latency, reading, switch, count and the clock; options stay.
    fn reset(&mut self) = ffi::llmm_collapse_reset;
);

impl CollapseDetector {
    /// Counts since creation or reset.
    pub fn counts(&self) -> CollapseCounts {
        let mut c = CollapseCounts::default();
        // SAFETY: live handle; fails only for NULL.
        let st = unsafe {
            ffi::llmm_collapse_counts(
                self.raw.ptr(),
                &mut c.samples,
                &mut c.collapsed,
                &mut c.switches,
            )
        };
        debug_assert_eq!(st, ffi::LLMM_OK);
        c
    }
}

debug_fields!(CollapseDetector, "counts" = { counts() });
