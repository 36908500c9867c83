//! Collapse detection after precision switches, the event log for spike attribution,
//! correlation of paired series, the stability gate and the saturation signal.

use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use llmmetrics_sys as ffi;

use crate::context::{self, Context};
use crate::error::{check, Error, Result};

/// Largest latency, TPS reading, mean or in-flight count the detectors accept.
pub const DETECT_VALUE_MAX: f64 = ffi::LLMM_DETECT_VALUE_MAX;

macro_rules! handle {
    ($name:ident, $raw:ty, $free:path) => {
        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: owned handle, freed once.
                unsafe { $free(self.ptr.as_ptr()) }
            }
        }
        // SAFETY: writers and clock-advancing calls take `&mut self`; the `&self` calls only
        // read (the C reads are pure: no cache, no allocation).
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}
        impl $name {
            fn wrap(p: *mut $raw, ctx: Option<&Context>) -> $name {
                let ptr = NonNull::new(p).expect("constructor returned LLMM_OK and NULL");
                $name { ptr, _ctx: ctx.cloned() }
            }
        }
    };
}

/// Floating-point options of a [`CollapseDetector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollapseF64 {
    /// k in `mean + k·σ`, in (0, 1000]; default 2.5.
    K = 2,
    /// σ is at least this share of the baseline mean, 0 ..= 1; default 0.01.
    SigmaFloor = 3,
    /// The TPS signal confirms when the drop exceeds this share, in (0, 1); default 0.65.
    TpsDrop = 6,
    /// The bandwidth signal confirms when utilisation is below this, in (0, 1]; default 0.30.
    MembwBelow = 7,
}

/// Integer options of a [`CollapseDetector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollapseU64 {
    /// W, latencies in the baseline, 2 ..= 4096; default 8. Only while no latency is held.
    Window = 1,
    /// A latency is matched to a switch at most this many ns after it; default 10 ms.
    SwitchNs = 4,
    /// 1: only latencies matched to a switch collapse; 0: every outlier does. Default 1.
    RequireSwitch = 5,
    /// TPS and bandwidth readings are matched within this many ns; default 10 ms.
    ConfirmNs = 8,
}

/// The verdict on one latency, see [`CollapseDetector::observe_ex`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollapseVerdict {
    /// Outlier and (if required) matched to a switch.
    pub collapsed: bool,
    /// A baseline of W earlier latencies existed.
    pub ready: bool,
    /// Above the threshold, whatever the switch.
    pub outlier: bool,
    /// Within the switch interval of the latest switch.
    pub after_switch: bool,
    /// σ was raised to its floor.
    pub floored: bool,
    /// Baseline mean (0 when not ready).
    pub mean: f64,
    /// Baseline σ after the floor.
    pub sigma: f64,
    /// `mean + k·σ`.
    pub threshold: f64,
    /// `now − latest switch`; `None` when no switch was marked.
    pub since_switch_ns: Option<u64>,
    /// Latencies observed, this one included.
    pub samples: u64,
}

/// The confirmation matrix of the latest switch, see [`CollapseDetector::switch_report`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollapseReport {
    /// Confirmed signals among latency, TPS and memory bandwidth (0 ..= 3).
    pub signals: i32,
    /// A latency matched to the switch was collapsed.
    pub latency_confirmed: bool,
    /// TPS readings exist before and after the switch.
    pub tps_known: bool,
    /// The TPS drop exceeds its option.
    pub tps_confirmed: bool,
    /// A bandwidth reading exists after the switch.
    pub membw_known: bool,
    /// The utilisation is below its option.
    pub membw_confirmed: bool,
    /// The report may still change (the clock is inside the matching intervals).
    pub open: bool,
    /// Time stamp of the switch.
    pub switch_ns: u64,
    /// Latencies matched to the switch.
    pub latencies: u64,
    /// Of those, collapsed.
    pub flagged: u64,
    /// Last TPS reading before the switch.
    pub tps_before: f64,
    /// Lowest TPS reading matched to the switch.
    pub tps_after: f64,
    /// `1 − after / before` (when known).
    pub tps_drop: f64,
    /// Lowest utilisation matched to the switch.
    pub membw: f64,
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

/// Throughput collapse right after a precision switch (SPEC.md §7, `llmm_collapse`): a batch
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
pub struct CollapseDetector {
    ptr: NonNull<ffi::llmm_collapse>,
    _ctx: Option<Context>,
}

handle!(CollapseDetector, ffi::llmm_collapse, ffi::llmm_collapse_free);

impl CollapseDetector {
    /// A detector with the defaults (W 8, k 2.5, σ floor 1 %, switch required, 10 ms).
    pub fn new() -> Result<CollapseDetector> {
        CollapseDetector::create(None)
    }

    /// As [`new`](CollapseDetector::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context) -> Result<CollapseDetector> {
        CollapseDetector::create(Some(ctx))
    }

    fn create(ctx: Option<&Context>) -> Result<CollapseDetector> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_collapse_new(context::raw(ctx), &mut out) })?;
        Ok(CollapseDetector::wrap(out, ctx))
    }

    /// Set a floating-point option.
    pub fn set_f64(&mut self, key: CollapseF64, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_set_f64(self.ptr.as_ptr(), key as ffi::llmm_collapse_option, value) })
    }

    /// Read a floating-point option.
    pub fn get_f64(&self, key: CollapseF64) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_collapse_get_f64(self.ptr.as_ptr(), key as ffi::llmm_collapse_option, &mut v) })?;
        Ok(v)
    }

    /// Set an integer option.
    pub fn set_u64(&mut self, key: CollapseU64, value: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_set_u64(self.ptr.as_ptr(), key as ffi::llmm_collapse_option, value) })
    }

    /// Read an integer option.
    pub fn get_u64(&self, key: CollapseU64) -> Result<u64> {
        let mut v = 0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_collapse_get_u64(self.ptr.as_ptr(), key as ffi::llmm_collapse_option, &mut v) })?;
        Ok(v)
    }

    /// Mark a weight (precision) switch at `now_ns`; it replaces any earlier one.
    pub fn mark_switch(&mut self, now_ns: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_mark_switch(self.ptr.as_ptr(), now_ns) })
    }

    /// Judge one batch latency against the W before it; returns whether it collapsed.
    ///
    /// # Errors
    /// `Invalid` for a bad latency or time going backwards; `Range` above
    /// [`DETECT_VALUE_MAX`].
    pub fn observe(&mut self, now_ns: u64, latency: f64) -> Result<bool> {
        let mut collapsed = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_observe(self.ptr.as_ptr(), now_ns, latency, &mut collapsed) })?;
        Ok(collapsed != 0)
    }

    /// [`observe`](CollapseDetector::observe) with the whole verdict.
    pub fn observe_ex(&mut self, now_ns: u64, latency: f64) -> Result<CollapseVerdict> {
        let mut v = MaybeUninit::<ffi::llmm_collapse_verdict>::zeroed();
        // SAFETY: initialised by its _init call before the call fills it.
        let v = unsafe {
            check(ffi::llmm_collapse_verdict_init(v.as_mut_ptr()))?;
            check(ffi::llmm_collapse_observe_ex(self.ptr.as_ptr(), now_ns, latency, v.as_mut_ptr()))?;
            v.assume_init()
        };
        Ok(CollapseVerdict {
            collapsed: v.collapsed != 0,
            ready: v.ready != 0,
            outlier: v.outlier != 0,
            after_switch: v.after_switch != 0,
            floored: v.floored != 0,
            mean: v.mean,
            sigma: v.sigma,
            threshold: v.threshold,
            since_switch_ns: if v.since_switch_ns == u64::MAX { None } else { Some(v.since_switch_ns) },
            samples: v.samples,
        })
    }

    /// A throughput reading (a drop after a switch is the TPS signal).
    pub fn observe_tps(&mut self, now_ns: u64, tps: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_observe_tps(self.ptr.as_ptr(), now_ns, tps) })
    }

    /// A memory-bandwidth utilisation reading in [0, 1].
    pub fn observe_membw(&mut self, now_ns: u64, utilisation: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_observe_membw(self.ptr.as_ptr(), now_ns, utilisation) })
    }

    /// The confirmation matrix of the latest switch.
    ///
    /// # Errors
    /// `Empty` when no switch was marked.
    pub fn switch_report(&self) -> Result<CollapseReport> {
        let mut r = MaybeUninit::<ffi::llmm_collapse_report>::zeroed();
        // SAFETY: initialised by its _init call before the call fills it.
        let r = unsafe {
            check(ffi::llmm_collapse_report_init(r.as_mut_ptr()))?;
            check(ffi::llmm_collapse_switch_report(self.ptr.as_ptr(), r.as_mut_ptr()))?;
            r.assume_init()
        };
        Ok(CollapseReport {
            signals: r.signals,
            latency_confirmed: r.latency_confirmed != 0,
            tps_known: r.tps_known != 0,
            tps_confirmed: r.tps_confirmed != 0,
            membw_known: r.membw_known != 0,
            membw_confirmed: r.membw_confirmed != 0,
            open: r.open != 0,
            switch_ns: r.switch_ns,
            latencies: r.latencies,
            flagged: r.flagged,
            tps_before: r.tps_before,
            tps_after: r.tps_after,
            tps_drop: r.tps_drop,
            membw: r.membw,
        })
    }

    /// Counts since creation or reset.
    pub fn counts(&self) -> CollapseCounts {
        let mut c = CollapseCounts::default();
        // SAFETY: live handle; fails only for NULL.
        let st = unsafe { ffi::llmm_collapse_counts(self.ptr.as_ptr(), &mut c.samples, &mut c.collapsed, &mut c.switches) };
        debug_assert_eq!(st, ffi::LLMM_OK);
        c
    }

    /// Forget every latency, reading, switch, count and the clock; options stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_collapse_reset(self.ptr.as_ptr()) })
    }
}

impl fmt::Debug for CollapseDetector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CollapseDetector").field("counts", &self.counts()).finish()
    }
}

/// An event type: one of the known causes or a caller's own id (≥ [`EventType::USER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventType(pub i32);

impl EventType {
    /// A TCP segment was retransmitted (`net.tcp.retrans`).
    pub const TCP_RETRANSMIT: EventType = EventType(ffi::LLMM_EVENT_TCP_RETRANSMIT);
    /// A major page fault (`mem.major_fault`).
    pub const MAJOR_FAULT: EventType = EventType(ffi::LLMM_EVENT_MAJOR_FAULT);
    /// Scheduler wake-up jitter (`sched.jitter`).
    pub const SCHED_JITTER: EventType = EventType(ffi::LLMM_EVENT_SCHED_JITTER);
    /// A page or task migrated between NUMA nodes (`mem.numa_migration`).
    pub const NUMA_MIGRATION: EventType = EventType(ffi::LLMM_EVENT_NUMA_MIGRATION);
    /// Weights changed precision or were swapped (`model.weight_switch`).
    pub const WEIGHT_SWITCH: EventType = EventType(ffi::LLMM_EVENT_WEIGHT_SWITCH);
    /// A garbage-collection pause (`runtime.gc_pause`).
    pub const GC_PAUSE: EventType = EventType(ffi::LLMM_EVENT_GC_PAUSE);
    /// The first id of the caller's own types.
    pub const USER: EventType = EventType(ffi::LLMM_EVENT_USER);

    /// The library's stable attribute name of a known type (`None` for user and other ids).
    pub fn attr_name(self) -> Option<&'static str> {
        // SAFETY: any value is accepted; the result is NULL or a static string.
        let p = unsafe { ffi::llmm_event_attr_name(self.0) };
        if p.is_null() {
            None
        } else {
            // SAFETY: static NUL-terminated string.
            unsafe { CStr::from_ptr(p) }.to_str().ok()
        }
    }
}

/// One event returned by [`EventLog::lookback`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// The event's time stamp.
    pub time_ns: u64,
    /// How long before the query's time stamp it happened.
    pub before_ns: u64,
    /// The value given with the event.
    pub value: f64,
    /// Its type.
    pub kind: EventType,
}

/// Counts of an [`EventLog`] since creation or reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventLogCounts {
    /// Events in the ring now.
    pub held: u64,
    /// Events accepted.
    pub total: u64,
    /// Events pushed out of the full ring.
    pub dropped: u64,
}

/// Default capacity of an [`EventLog`].
pub const EVENT_LOG_CAPACITY_DEFAULT: u32 = ffi::LLMM_EVENT_LOG_CAPACITY_DEFAULT;

/// A bounded, time-ordered ring of typed events (`llmm_event_log`): the candidate causes of
/// a spike are the events shortly before it.
///
/// ```
/// use llmmetrics::{EventLog, EventType};
///
/// const MS: u64 = 1_000_000;
/// let mut log = EventLog::new(0)?;
/// log.add(100 * MS, EventType::GC_PAUSE, 12.0)?;
/// log.add(180 * MS, EventType::TCP_RETRANSMIT, 1.0)?;
/// let causes = log.lookback(200 * MS, 50 * MS)?;   // what happened in the 50 ms before
/// assert_eq!(causes.len(), 1);
/// assert_eq!(causes[0].kind, EventType::TCP_RETRANSMIT);
/// assert_eq!(causes[0].before_ns, 20 * MS);
/// assert_eq!(EventType::GC_PAUSE.attr_name(), Some("runtime.gc_pause"));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub struct EventLog {
    ptr: NonNull<ffi::llmm_event_log>,
    _ctx: Option<Context>,
}

handle!(EventLog, ffi::llmm_event_log, ffi::llmm_event_log_free);

impl EventLog {
    /// A log keeping the last `capacity` events (0 for 1024).
    ///
    /// # Errors
    /// `Range` for a capacity above 16777216; `NoMem`.
    pub fn new(capacity: u32) -> Result<EventLog> {
        EventLog::create(None, capacity)
    }

    /// As [`new`](EventLog::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context, capacity: u32) -> Result<EventLog> {
        EventLog::create(Some(ctx), capacity)
    }

    fn create(ctx: Option<&Context>, capacity: u32) -> Result<EventLog> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_event_log_new(context::raw(ctx), capacity, &mut out) })?;
        Ok(EventLog::wrap(out, ctx))
    }

    /// Record an event (time stamps never go backwards; the oldest event leaves a full ring).
    ///
    /// # Errors
    /// `Invalid` for type 0, a negative or reserved type, a non-finite value or time going
    /// backwards.
    pub fn add(&mut self, now_ns: u64, kind: EventType, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_event_log_add(self.ptr.as_ptr(), now_ns, kind.0, value) })
    }

    /// The events stamped in `[at_ns − lookback_ns, at_ns]`, nearest to `at_ns` first.
    pub fn lookback(&self, at_ns: u64, lookback_ns: u64) -> Result<Vec<Event>> {
        let mut raw: Vec<ffi::llmm_event> = Vec::new();
        loop {
            let mut len = 0usize;
            // SAFETY: `raw` has `len()` initialised elements to write into.
            let st = unsafe {
                ffi::llmm_event_log_lookback(self.ptr.as_ptr(), at_ns, lookback_ns, raw.as_mut_ptr(), raw.len(), &mut len)
            };
            if st == ffi::LLMM_E_BUFFER && len > raw.len() {
                raw.resize(len, ffi::llmm_event::default());
                continue;
            }
            check(st)?;
            raw.truncate(len);
            return Ok(raw
                .iter()
                .map(|e| Event { time_ns: e.time_ns, before_ns: e.before_ns, value: e.value, kind: EventType(e.r#type) })
                .collect());
        }
    }

    /// Events of one type (`None`: every type) stamped in `[from_ns, to_ns]`.
    pub fn count(&self, kind: Option<EventType>, from_ns: u64, to_ns: u64) -> Result<u64> {
        let mut n = 0;
        let t = kind.map_or(0, |k| k.0);
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_event_log_count(self.ptr.as_ptr(), t, from_ns, to_ns, &mut n) })?;
        Ok(n)
    }

    /// Events held, accepted and dropped.
    pub fn counts(&self) -> EventLogCounts {
        let mut c = EventLogCounts::default();
        // SAFETY: live handle; fails only for NULL.
        let st = unsafe { ffi::llmm_event_log_counts(self.ptr.as_ptr(), &mut c.held, &mut c.total, &mut c.dropped) };
        debug_assert_eq!(st, ffi::LLMM_OK);
        c
    }

    /// Forget every event, the counts and the clock; the capacity stays.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_event_log_reset(self.ptr.as_ptr()) })
    }
}

impl fmt::Debug for EventLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventLog").field("counts", &self.counts()).finish()
    }
}

/// Correlation coefficient of [`correlation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CorrelationMethod {
    /// Pearson's product-moment r.
    Pearson = 1,
    /// Spearman's ρ (Pearson's r of the ranks, ties averaged).
    Spearman = 2,
}

/// Correlation of the pairs `(x[i], y[i])` (at least 2), in [−1, 1].
///
/// ```
/// use llmmetrics::{correlation, CorrelationMethod};
///
/// // SPEC.md §6: scheduler jitter against NUMA-binding failure rates.
/// let jitter = [5.0, 25.0, 50.0];
/// let numa = [1.2, 37.6, 89.3];
/// assert!(correlation(&jitter, &numa, CorrelationMethod::Pearson)? > 0.99);
/// assert_eq!(correlation(&jitter, &numa, CorrelationMethod::Spearman)?, 1.0);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for slices of different lengths or non-finite values; `Empty` for fewer than 2
/// pairs; `Range` when a series is constant; `NoMem` (Spearman's scratch).
pub fn correlation(x: &[f64], y: &[f64], method: CorrelationMethod) -> Result<f64> {
    correlation_in(None, x, y, method)
}

/// [`correlation`] with Spearman's scratch allocated from `ctx`.
pub fn correlation_in(ctx: Option<&Context>, x: &[f64], y: &[f64], method: CorrelationMethod) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::invalid());
    }
    let mut r = 0.0;
    // SAFETY: both slices readable for `len`; valid out-pointer.
    check(unsafe {
        ffi::llmm_correlation(context::raw(ctx), x.as_ptr(), y.as_ptr(), x.len(), method as ffi::llmm_correlation_method, &mut r)
    })?;
    Ok(r)
}

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

/// Are the last k window means within `1 + ε` of each other? (`llmm_stability`; k = 5,
/// ε = 0.05 by default).
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
    ptr: NonNull<ffi::llmm_stability>,
    _ctx: Option<Context>,
}

handle!(StabilityGate, ffi::llmm_stability, ffi::llmm_stability_free);

impl StabilityGate {
    /// A gate with k = 5, ε = 0.05.
    pub fn new() -> Result<StabilityGate> {
        StabilityGate::create(None)
    }

    /// As [`new`](StabilityGate::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context) -> Result<StabilityGate> {
        StabilityGate::create(Some(ctx))
    }

    fn create(ctx: Option<&Context>) -> Result<StabilityGate> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_stability_new(context::raw(ctx), &mut out) })?;
        Ok(StabilityGate::wrap(out, ctx))
    }

    /// Set ε (0 ..= 10).
    pub fn set_epsilon(&mut self, epsilon: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_stability_set_f64(self.ptr.as_ptr(), ffi::LLMM_STABILITY_EPSILON, epsilon) })
    }

    /// ε.
    pub fn epsilon(&self) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_stability_get_f64(self.ptr.as_ptr(), ffi::LLMM_STABILITY_EPSILON, &mut v) })?;
        Ok(v)
    }

    /// Set k (2 ..= 64); applies at once to the means already added.
    pub fn set_windows(&mut self, k: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_stability_set_u64(self.ptr.as_ptr(), ffi::LLMM_STABILITY_WINDOWS, k) })
    }

    /// k.
    pub fn windows(&self) -> Result<u64> {
        let mut v = 0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_stability_get_u64(self.ptr.as_ptr(), ffi::LLMM_STABILITY_WINDOWS, &mut v) })?;
        Ok(v)
    }

    /// Add one window mean (finite, > 0); returns whether the gate is stable after it.
    pub fn add(&mut self, mean: f64) -> Result<bool> {
        let mut stable = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_stability_add(self.ptr.as_ptr(), mean, &mut stable) })?;
        Ok(stable != 0)
    }

    /// The verdict and the figures behind it.
    pub fn read(&self) -> Result<StabilityReading> {
        let mut r = MaybeUninit::<ffi::llmm_stability_reading>::zeroed();
        // SAFETY: initialised by its _init call before the read fills it.
        let r = unsafe {
            check(ffi::llmm_stability_reading_init(r.as_mut_ptr()))?;
            check(ffi::llmm_stability_read(self.ptr.as_ptr(), r.as_mut_ptr()))?;
            r.assume_init()
        };
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
        check(unsafe { ffi::llmm_stability_reset(self.ptr.as_ptr()) })
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
/// (`llmm_saturation`; N = 64, z = 3 by default).
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
    ptr: NonNull<ffi::llmm_saturation>,
    _ctx: Option<Context>,
}

handle!(SaturationSignal, ffi::llmm_saturation, ffi::llmm_saturation_free);

impl SaturationSignal {
    /// A signal with N = 64, z = 3.
    pub fn new() -> Result<SaturationSignal> {
        SaturationSignal::create(None)
    }

    /// As [`new`](SaturationSignal::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context) -> Result<SaturationSignal> {
        SaturationSignal::create(Some(ctx))
    }

    fn create(ctx: Option<&Context>) -> Result<SaturationSignal> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_saturation_new(context::raw(ctx), &mut out) })?;
        Ok(SaturationSignal::wrap(out, ctx))
    }

    /// Set z, in (0, 100].
    pub fn set_confidence(&mut self, z: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_saturation_set_f64(self.ptr.as_ptr(), ffi::LLMM_SATURATION_CONFIDENCE, z) })
    }

    /// z.
    pub fn confidence(&self) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_saturation_get_f64(self.ptr.as_ptr(), ffi::LLMM_SATURATION_CONFIDENCE, &mut v) })?;
        Ok(v)
    }

    /// Set N (3 ..= 1048576); only while no sample is held.
    pub fn set_window(&mut self, n: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_saturation_set_u64(self.ptr.as_ptr(), ffi::LLMM_SATURATION_WINDOW, n) })
    }

    /// N.
    pub fn window(&self) -> Result<u64> {
        let mut v = 0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_saturation_get_u64(self.ptr.as_ptr(), ffi::LLMM_SATURATION_WINDOW, &mut v) })?;
        Ok(v)
    }

    /// Add one sample; returns whether the window is saturated after it.
    pub fn observe(&mut self, now_ns: u64, latency: f64, in_flight: f64) -> Result<bool> {
        let mut sat = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_saturation_observe(self.ptr.as_ptr(), now_ns, latency, in_flight, &mut sat) })?;
        Ok(sat != 0)
    }

    /// Slopes, standard errors and the verdict.
    pub fn read(&self) -> Result<SaturationReading> {
        let mut r = MaybeUninit::<ffi::llmm_saturation_reading>::zeroed();
        // SAFETY: initialised by its _init call before the read fills it.
        let r = unsafe {
            check(ffi::llmm_saturation_reading_init(r.as_mut_ptr()))?;
            check(ffi::llmm_saturation_read(self.ptr.as_ptr(), r.as_mut_ptr()))?;
            r.assume_init()
        };
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
        check(unsafe { ffi::llmm_saturation_reset(self.ptr.as_ptr()) })
    }
}

impl fmt::Debug for SaturationSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SaturationSignal").field("reading", &self.read().ok()).finish()
    }
}
