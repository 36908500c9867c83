//! `detect.h`: Spike and collapse detectors, event log, correlation, stability gate, saturation signal.

use super::*;

/// Classification of one latency (`llmm_spike_level`).
pub type llmm_spike_level = c_int;
/// not above the base threshold, or not classified (warm-up)
pub const LLMM_SPIKE_NONE: llmm_spike_level = 0;
/// above the base threshold (P99), not severe
pub const LLMM_SPIKE_LEVEL1: llmm_spike_level = 1;
/// above P99 and above factor × P99.9
pub const LLMM_SPIKE_LEVEL2: llmm_spike_level = 2;

/// Option keys of the spike detector (`llmm_spike_option`).
pub type llmm_spike_option = c_int;
/// f64, default 0.99
pub const LLMM_SPIKE_BASE_QUANTILE: llmm_spike_option = 1;
/// f64, default 0.999
pub const LLMM_SPIKE_SEVERE_QUANTILE: llmm_spike_option = 2;
/// f64, default 1.2
pub const LLMM_SPIKE_SEVERE_FACTOR: llmm_spike_option = 3;
/// u64, default 1000
pub const LLMM_SPIKE_WARMUP: llmm_spike_option = 4;
/// u64, default 10^9
pub const LLMM_SPIKE_SLOT_NS: llmm_spike_option = 5;
/// u64, default 60
pub const LLMM_SPIKE_SLOTS: llmm_spike_option = 6;
/// u64, default 6
pub const LLMM_SPIKE_SCALE: llmm_spike_option = 7;

/// Baselines in force and counts per level (`llmm_spike_stats`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_spike_stats {
    /// `sizeof(llmm_spike_stats)`, set by [`llmm_spike_stats_init`].
    pub struct_size: u32,
    /// 1 when samples are being classified.
    pub ready: i32,
    /// Base quantile in force; 0 when no baseline.
    pub base_threshold: f64,
    /// Severe quantile in force; 0 when no baseline.
    pub severe_threshold: f64,
    /// Latencies the baselines were computed from.
    pub baseline_samples: u64,
    /// Samples observed in the window.
    pub window_samples: u64,
    /// Of those, classified.
    pub window_classified: u64,
    /// Of those, level 1.
    pub window_level1: u64,
    /// Of those, level 2.
    pub window_level2: u64,
    /// Samples observed since creation or reset.
    pub total_samples: u64,
    /// Of those, classified.
    pub total_classified: u64,
    /// Of those, level 1.
    pub total_level1: u64,
    /// Of those, level 2.
    pub total_level2: u64,
}

opaque! {
    /// A latency-spike detector (`llmm_spike`).
    llmm_spike;
}

extern "C" {
    pub fn llmm_spike_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_spike) -> llmm_status;
    pub fn llmm_spike_free(d: *mut llmm_spike);
    pub fn llmm_spike_set_f64(
        d: *mut llmm_spike,
        key: llmm_spike_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_spike_get_f64(
        d: *const llmm_spike,
        key: llmm_spike_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_spike_set_u64(
        d: *mut llmm_spike,
        key: llmm_spike_option,
        value: u64,
    ) -> llmm_status;
    pub fn llmm_spike_get_u64(
        d: *const llmm_spike,
        key: llmm_spike_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_spike_observe(
        d: *mut llmm_spike,
        now_ns: u64,
        latency: f64,
        level: *mut llmm_spike_level,
    ) -> llmm_status;
    pub fn llmm_spike_rate(d: *mut llmm_spike, now_ns: u64, rate: *mut f64) -> llmm_status;
    pub fn llmm_spike_stats_init(s: *mut llmm_spike_stats) -> llmm_status;
    pub fn llmm_spike_get_stats(
        d: *mut llmm_spike,
        now_ns: u64,
        s: *mut llmm_spike_stats,
    ) -> llmm_status;
    pub fn llmm_spike_reset(d: *mut llmm_spike) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// detect.h: collapse detector
// ---------------------------------------------------------------------------------------------

/// Default W of the collapse detector.
pub const LLMM_COLLAPSE_WINDOW_DEFAULT: u32 = 8;
/// Largest W of the collapse detector.
pub const LLMM_COLLAPSE_WINDOW_MAX: u32 = 4096;
/// Largest latency, TPS reading or in-flight count the detectors accept.
pub const LLMM_DETECT_VALUE_MAX: f64 = 1e100;

/// Option keys of the collapse detector (`llmm_collapse_option`).
pub type llmm_collapse_option = c_int;
/// u64, default 8: W
pub const LLMM_COLLAPSE_WINDOW: llmm_collapse_option = 1;
/// f64, default 2.5: k
pub const LLMM_COLLAPSE_K: llmm_collapse_option = 2;
/// f64, default 0.01: σ floor as a share of the mean
pub const LLMM_COLLAPSE_SIGMA_FLOOR: llmm_collapse_option = 3;
/// u64, default 10 ms: latency matched to a switch within this
pub const LLMM_COLLAPSE_SWITCH_NS: llmm_collapse_option = 4;
/// u64, default 1: only switch-matched outliers collapse
pub const LLMM_COLLAPSE_REQUIRE_SWITCH: llmm_collapse_option = 5;
/// f64, default 0.65: TPS drop that confirms
pub const LLMM_COLLAPSE_TPS_DROP: llmm_collapse_option = 6;
/// f64, default 0.30: memory-bandwidth utilisation that confirms
pub const LLMM_COLLAPSE_MEMBW_BELOW: llmm_collapse_option = 7;
/// u64, default 10 ms: TPS / bandwidth readings matched within this
pub const LLMM_COLLAPSE_CONFIRM_NS: llmm_collapse_option = 8;

/// The verdict on one latency (`llmm_collapse_verdict`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_collapse_verdict {
    /// `sizeof(llmm_collapse_verdict)`, set by [`llmm_collapse_verdict_init`].
    pub struct_size: u32,
    /// 1: outlier and (if required) matched to a switch.
    pub collapsed: i32,
    /// 1: a baseline of W earlier latencies existed.
    pub ready: i32,
    /// 1: latency > threshold.
    pub outlier: i32,
    /// 1: within the switch interval.
    pub after_switch: i32,
    /// 1: σ was raised to the floor.
    pub floored: i32,
    /// Baseline mean.
    pub mean: f64,
    /// Baseline σ after the floor.
    pub sigma: f64,
    /// mean + k·σ.
    pub threshold: f64,
    /// now − latest switch; `u64::MAX` without a switch.
    pub since_switch_ns: u64,
    /// Latencies observed, this one included.
    pub samples: u64,
}

/// The confirmation matrix of the latest switch (`llmm_collapse_report`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_collapse_report {
    /// `sizeof(llmm_collapse_report)`, set by [`llmm_collapse_report_init`].
    pub struct_size: u32,
    /// Confirmed signals, 0 … 3.
    pub signals: i32,
    /// 1: a matched latency was collapsed.
    pub latency_confirmed: i32,
    /// 1: TPS readings before and after the switch.
    pub tps_known: i32,
    /// 1: the TPS drop exceeds the option.
    pub tps_confirmed: i32,
    /// 1: a bandwidth reading after the switch.
    pub membw_known: i32,
    /// 1: the utilisation is below the option.
    pub membw_confirmed: i32,
    /// 1: the report may still change.
    pub open: i32,
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
    /// 1 − after / before.
    pub tps_drop: f64,
    /// Lowest utilisation matched to the switch.
    pub membw: f64,
}

opaque! {
    /// A throughput-collapse detector (`llmm_collapse`).
    llmm_collapse;
}

extern "C" {
    pub fn llmm_collapse_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_collapse) -> llmm_status;
    pub fn llmm_collapse_free(c: *mut llmm_collapse);
    pub fn llmm_collapse_set_f64(
        c: *mut llmm_collapse,
        key: llmm_collapse_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_collapse_get_f64(
        c: *const llmm_collapse,
        key: llmm_collapse_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_collapse_set_u64(
        c: *mut llmm_collapse,
        key: llmm_collapse_option,
        value: u64,
    ) -> llmm_status;
    pub fn llmm_collapse_get_u64(
        c: *const llmm_collapse,
        key: llmm_collapse_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_collapse_mark_switch(c: *mut llmm_collapse, now_ns: u64) -> llmm_status;
    pub fn llmm_collapse_observe(
        c: *mut llmm_collapse,
        now_ns: u64,
        latency: f64,
        collapsed: *mut i32,
    ) -> llmm_status;
    pub fn llmm_collapse_verdict_init(v: *mut llmm_collapse_verdict) -> llmm_status;
    pub fn llmm_collapse_observe_ex(
        c: *mut llmm_collapse,
        now_ns: u64,
        latency: f64,
        v: *mut llmm_collapse_verdict,
    ) -> llmm_status;
    pub fn llmm_collapse_observe_tps(c: *mut llmm_collapse, now_ns: u64, tps: f64) -> llmm_status;
    pub fn llmm_collapse_observe_membw(
        c: *mut llmm_collapse,
        now_ns: u64,
        utilisation: f64,
    ) -> llmm_status;
    pub fn llmm_collapse_report_init(r: *mut llmm_collapse_report) -> llmm_status;
    pub fn llmm_collapse_switch_report(
        c: *const llmm_collapse,
        r: *mut llmm_collapse_report,
    ) -> llmm_status;
    pub fn llmm_collapse_counts(
        c: *const llmm_collapse,
        samples: *mut u64,
        collapsed: *mut u64,
        switches: *mut u64,
    ) -> llmm_status;
    pub fn llmm_collapse_reset(c: *mut llmm_collapse) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// detect.h: event log
// ---------------------------------------------------------------------------------------------

/// Default capacity of an event log.
pub const LLMM_EVENT_LOG_CAPACITY_DEFAULT: u32 = 1024;
/// Largest capacity of an event log.
pub const LLMM_EVENT_LOG_CAPACITY_MAX: u32 = 16777216;
/// Attribute name of [`LLMM_EVENT_TCP_RETRANSMIT`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_TCP_RETRANSMIT: &[u8] = b"net.tcp.retrans\0";
/// Attribute name of [`LLMM_EVENT_MAJOR_FAULT`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_MAJOR_FAULT: &[u8] = b"mem.major_fault\0";
/// Attribute name of [`LLMM_EVENT_SCHED_JITTER`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_SCHED_JITTER: &[u8] = b"sched.jitter\0";
/// Attribute name of [`LLMM_EVENT_NUMA_MIGRATION`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_NUMA_MIGRATION: &[u8] = b"mem.numa_migration\0";
/// Attribute name of [`LLMM_EVENT_WEIGHT_SWITCH`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_WEIGHT_SWITCH: &[u8] = b"model.weight_switch\0";
/// Attribute name of [`LLMM_EVENT_GC_PAUSE`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_GC_PAUSE: &[u8] = b"runtime.gc_pause\0";
/// Attribute name of [`LLMM_EVENT_CPU_PRESSURE`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_CPU_PRESSURE: &[u8] = b"cpu.pressure\0";
/// Attribute name of [`LLMM_EVENT_MEMORY_PRESSURE`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_MEMORY_PRESSURE: &[u8] = b"mem.pressure\0";
/// Attribute name of [`LLMM_EVENT_IO_PRESSURE`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_IO_PRESSURE: &[u8] = b"io.pressure\0";
/// Attribute name of [`LLMM_EVENT_CPU_FREQ_DROP`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_CPU_FREQ_DROP: &[u8] = b"cpu.freq_drop\0";
/// Attribute name of [`LLMM_EVENT_CTX_SWITCHES`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_CTX_SWITCHES: &[u8] = b"sched.ctx_switches\0";
/// Attribute name of [`LLMM_EVENT_CPU_THROTTLE`] (NUL-terminated).
pub const LLMM_EVENT_ATTR_CPU_THROTTLE: &[u8] = b"cpu.throttle\0";

/// Known event types (`llmm_event_type`); calls take the type as `i32`.
pub type llmm_event_type = c_int;
/// a TCP segment was retransmitted
pub const LLMM_EVENT_TCP_RETRANSMIT: llmm_event_type = 1;
/// a major page fault
pub const LLMM_EVENT_MAJOR_FAULT: llmm_event_type = 2;
/// scheduler wake-up jitter
pub const LLMM_EVENT_SCHED_JITTER: llmm_event_type = 3;
/// a NUMA migration
pub const LLMM_EVENT_NUMA_MIGRATION: llmm_event_type = 4;
/// a weight (precision) switch
pub const LLMM_EVENT_WEIGHT_SWITCH: llmm_event_type = 5;
/// a garbage-collection pause
pub const LLMM_EVENT_GC_PAUSE: llmm_event_type = 6;
/// tasks stalled waiting for a CPU (since 1.1.0)
pub const LLMM_EVENT_CPU_PRESSURE: llmm_event_type = 7;
/// tasks stalled on memory (since 1.1.0)
pub const LLMM_EVENT_MEMORY_PRESSURE: llmm_event_type = 8;
/// tasks stalled on block I/O (since 1.1.0)
pub const LLMM_EVENT_IO_PRESSURE: llmm_event_type = 9;
/// the CPU frequency fell (since 1.1.0)
pub const LLMM_EVENT_CPU_FREQ_DROP: llmm_event_type = 10;
/// context switches above a bound (since 1.1.0)
pub const LLMM_EVENT_CTX_SWITCHES: llmm_event_type = 11;
/// the cgroup's CPU quota ran out (since 1.1.0)
pub const LLMM_EVENT_CPU_THROTTLE: llmm_event_type = 12;
/// first id of the caller's own types
pub const LLMM_EVENT_USER: llmm_event_type = 65536;

/// One event as returned by [`llmm_event_log_lookback`] (`llmm_event`; fixed 32-byte layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct llmm_event {
    /// The event's time stamp.
    pub time_ns: u64,
    /// How long before the query's time stamp it happened.
    pub before_ns: u64,
    /// The value given with the event.
    pub value: f64,
    /// Its type.
    pub r#type: i32,
    /// 0.
    pub reserved: u32,
}

opaque! {
    /// A bounded, time-ordered ring of events (`llmm_event_log`).
    llmm_event_log;
}

extern "C" {
    pub fn llmm_event_attr_name(type_: i32) -> *const c_char;
    pub fn llmm_event_log_new(
        ctx: *mut llmm_ctx,
        capacity: u32,
        out: *mut *mut llmm_event_log,
    ) -> llmm_status;
    pub fn llmm_event_log_free(log: *mut llmm_event_log);
    pub fn llmm_event_log_add(
        log: *mut llmm_event_log,
        now_ns: u64,
        type_: i32,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_event_log_lookback(
        log: *const llmm_event_log,
        at_ns: u64,
        lookback_ns: u64,
        out: *mut llmm_event,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_event_log_count(
        log: *const llmm_event_log,
        type_: i32,
        from_ns: u64,
        to_ns: u64,
        count: *mut u64,
    ) -> llmm_status;
    pub fn llmm_event_log_counts(
        log: *const llmm_event_log,
        held: *mut u64,
        total: *mut u64,
        dropped: *mut u64,
    ) -> llmm_status;
    pub fn llmm_event_log_reset(log: *mut llmm_event_log) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// detect.h: correlation, stability gate, saturation signal
// ---------------------------------------------------------------------------------------------

/// Correlation coefficient (`llmm_correlation_method`).
pub type llmm_correlation_method = c_int;
/// Pearson's r
pub const LLMM_CORRELATION_PEARSON: llmm_correlation_method = 1;
/// Spearman's ρ, ties averaged
pub const LLMM_CORRELATION_SPEARMAN: llmm_correlation_method = 2;

/// Default k of the stability gate.
pub const LLMM_STABILITY_WINDOWS_DEFAULT: u32 = 5;
/// Largest k of the stability gate.
pub const LLMM_STABILITY_WINDOWS_MAX: u32 = 64;

/// Option keys of the stability gate (`llmm_stability_option`).
pub type llmm_stability_option = c_int;
/// u64, default 5: k
pub const LLMM_STABILITY_WINDOWS: llmm_stability_option = 1;
/// f64, default 0.05: ε
pub const LLMM_STABILITY_EPSILON: llmm_stability_option = 2;

/// The gate's state (`llmm_stability_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_stability_reading {
    /// `sizeof(llmm_stability_reading)`, set by [`llmm_stability_reading_init`].
    pub struct_size: u32,
    /// 1: k means held and max / min ≤ 1 + ε.
    pub stable: i32,
    /// Means judged.
    pub held: u32,
    /// k.
    pub windows: u32,
    /// Smallest mean held.
    pub min: f64,
    /// Largest mean held.
    pub max: f64,
    /// max / min.
    pub ratio: f64,
    /// Means added since creation or reset.
    pub total: u64,
}

/// Default N of the saturation signal.
pub const LLMM_SATURATION_WINDOW_DEFAULT: u32 = 64;
/// Largest N of the saturation signal.
pub const LLMM_SATURATION_WINDOW_MAX: u32 = 1048576;

/// Option keys of the saturation signal (`llmm_saturation_option`).
pub type llmm_saturation_option = c_int;
/// u64, default 64: N
pub const LLMM_SATURATION_WINDOW: llmm_saturation_option = 1;
/// f64, default 3: z
pub const LLMM_SATURATION_CONFIDENCE: llmm_saturation_option = 2;

/// The signal's state (`llmm_saturation_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_saturation_reading {
    /// `sizeof(llmm_saturation_reading)`, set by [`llmm_saturation_reading_init`].
    pub struct_size: u32,
    /// 1: ready and both slopes confidently positive.
    pub saturated: i32,
    /// 1: the window holds N samples.
    pub ready: i32,
    /// 1: the latency slope is confidently positive.
    pub latency_rising: i32,
    /// 1: the in-flight slope is confidently positive.
    pub inflight_rising: i32,
    /// Samples held.
    pub samples: u32,
    /// Latency slope per second.
    pub latency_slope: f64,
    /// Its standard error.
    pub latency_slope_se: f64,
    /// In-flight slope per second.
    pub inflight_slope: f64,
    /// Its standard error.
    pub inflight_slope_se: f64,
    /// Samples observed since creation or reset.
    pub total: u64,
}

opaque! {
    /// A stability gate (`llmm_stability`).
    llmm_stability;
    /// An online saturation signal (`llmm_saturation`).
    llmm_saturation;
}

extern "C" {
    pub fn llmm_correlation(
        ctx: *mut llmm_ctx,
        x: *const f64,
        y: *const f64,
        n: usize,
        method: llmm_correlation_method,
        r: *mut f64,
    ) -> llmm_status;

    pub fn llmm_stability_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_stability) -> llmm_status;
    pub fn llmm_stability_free(s: *mut llmm_stability);
    pub fn llmm_stability_set_f64(
        s: *mut llmm_stability,
        key: llmm_stability_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_stability_get_f64(
        s: *const llmm_stability,
        key: llmm_stability_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_stability_set_u64(
        s: *mut llmm_stability,
        key: llmm_stability_option,
        value: u64,
    ) -> llmm_status;
    pub fn llmm_stability_get_u64(
        s: *const llmm_stability,
        key: llmm_stability_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_stability_add(s: *mut llmm_stability, mean: f64, stable: *mut i32) -> llmm_status;
    pub fn llmm_stability_reading_init(r: *mut llmm_stability_reading) -> llmm_status;
    pub fn llmm_stability_read(
        s: *const llmm_stability,
        r: *mut llmm_stability_reading,
    ) -> llmm_status;
    pub fn llmm_stability_reset(s: *mut llmm_stability) -> llmm_status;

    pub fn llmm_saturation_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_saturation) -> llmm_status;
    pub fn llmm_saturation_free(s: *mut llmm_saturation);
    pub fn llmm_saturation_set_f64(
        s: *mut llmm_saturation,
        key: llmm_saturation_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_saturation_get_f64(
        s: *const llmm_saturation,
        key: llmm_saturation_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_saturation_set_u64(
        s: *mut llmm_saturation,
        key: llmm_saturation_option,
        value: u64,
    ) -> llmm_status;
    pub fn llmm_saturation_get_u64(
        s: *const llmm_saturation,
        key: llmm_saturation_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_saturation_observe(
        s: *mut llmm_saturation,
        now_ns: u64,
        latency: f64,
        in_flight: f64,
        saturated: *mut i32,
    ) -> llmm_status;
    pub fn llmm_saturation_reading_init(r: *mut llmm_saturation_reading) -> llmm_status;
    pub fn llmm_saturation_read(
        s: *const llmm_saturation,
        r: *mut llmm_saturation_reading,
    ) -> llmm_status;
    pub fn llmm_saturation_reset(s: *mut llmm_saturation) -> llmm_status;
}
