//! Raw FFI declarations of libllmmetrics 1.x, written by hand from `include/llmmetrics/*.h`.
//!
//! Everything here is `unsafe` to call and follows the C contract described in the headers:
//! opaque handles are created by `llmm_*_new` and released by `llmm_*_free`, every fallible
//! call returns an [`llmm_status`] (0 is [`LLMM_OK`], errors are negative), results go
//! through out-pointers, and size-prefixed structs must be filled by their `_init` call first.
//! The safe API is the `llmmetrics` crate.
//!
//! Mapping rules: C enums are int-sized, so each is a `c_int` type alias plus constants (a
//! newer library may return values this crate does not name); `size_t` is `usize`; opaque
//! structs are zero-sized `#[repr(C)]` types that are neither `Send`, `Sync` nor `Unpin`.
//! A drift test (`bindings/rust/check_drift.py`) checks every `LLMM_API` function of the
//! headers against these declarations, parameter by parameter.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
pub use std::os::raw::{c_char, c_int, c_void};

macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

// ---------------------------------------------------------------------------------------------
// core.h
// ---------------------------------------------------------------------------------------------

/// Result of every fallible call: 0 is success, errors are negative (`llmm_status`).
pub type llmm_status = c_int;
/// success
pub const LLMM_OK: llmm_status = 0;
/// invalid argument
pub const LLMM_E_INVALID: llmm_status = -1;
/// out of memory
pub const LLMM_E_NOMEM: llmm_status = -2;
/// value outside the configured range
pub const LLMM_E_RANGE: llmm_status = -3;
/// no data
pub const LLMM_E_EMPTY: llmm_status = -4;
/// damaged or truncated encoding
pub const LLMM_E_CORRUPT: llmm_status = -5;
/// unknown format version
pub const LLMM_E_VERSION: llmm_status = -6;
/// buffer too small
pub const LLMM_E_BUFFER: llmm_status = -7;
/// unknown option
pub const LLMM_E_UNKNOWN_OPTION: llmm_status = -8;
/// call not valid in the current state
pub const LLMM_E_STATE: llmm_status = -9;
/// iteration did not converge
pub const LLMM_E_NOT_CONVERGED: llmm_status = -10;
/// struct_size not understood
pub const LLMM_E_ABI: llmm_status = -11;

/// Major version these declarations were written for.
pub const LLMM_VERSION_MAJOR: u32 = 1;
/// Minor version these declarations were written for.
pub const LLMM_VERSION_MINOR: u32 = 0;
/// Patch version these declarations were written for.
pub const LLMM_VERSION_PATCH: u32 = 0;
/// `major·10000 + minor·100 + patch` of the headers these declarations follow.
pub const LLMM_VERSION_NUMBER: u32 =
    LLMM_VERSION_MAJOR * 10000 + LLMM_VERSION_MINOR * 100 + LLMM_VERSION_PATCH;

/// Allocation hooks (`llmm_allocator`); fill with [`llmm_allocator_init`] first.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_allocator {
    /// `sizeof(llmm_allocator)`, set by [`llmm_allocator_init`].
    pub struct_size: u32,
    /// Passed unchanged to every hook.
    pub user: *mut c_void,
    /// Allocate `size` bytes, aligned like `malloc`; NULL on failure.
    pub alloc: Option<unsafe extern "C" fn(user: *mut c_void, size: usize) -> *mut c_void>,
    /// Resize `ptr` from `old_size` to `new_size` bytes; NULL on failure.
    pub realloc: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            ptr: *mut c_void,
            old_size: usize,
            new_size: usize,
        ) -> *mut c_void,
    >,
    /// Release `ptr`, allocated with `size` bytes.
    pub free: Option<unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void, size: usize)>,
}

opaque! {
    /// An immutable library context holding the allocator (`llmm_ctx`).
    llmm_ctx;
}

extern "C" {
    pub fn llmm_status_name(s: llmm_status) -> *const c_char;
    pub fn llmm_strerror(s: llmm_status) -> *const c_char;
    pub fn llmm_version() -> u32;
    pub fn llmm_version_string() -> *const c_char;
    pub fn llmm_allocator_init(a: *mut llmm_allocator) -> llmm_status;
    pub fn llmm_ctx_new(a: *const llmm_allocator, out: *mut *mut llmm_ctx) -> llmm_status;
    pub fn llmm_ctx_free(ctx: *mut llmm_ctx);
    pub fn llmm_now_ns() -> u64;
}

// ---------------------------------------------------------------------------------------------
// sketch.h
// ---------------------------------------------------------------------------------------------

/// Default scale: 64 buckets per power of two, 0.542 % worst relative error.
pub const LLMM_SCALE_DEFAULT: i32 = 6;
/// Smallest supported scale.
pub const LLMM_SCALE_MIN: i32 = 0;
/// Largest supported scale.
pub const LLMM_SCALE_MAX: i32 = 10;
/// Default lower end of the accurately tracked range.
pub const LLMM_SKETCH_RANGE_MIN_DEFAULT: f64 = 1e-9;
/// Default upper end of the accurately tracked range.
pub const LLMM_SKETCH_RANGE_MAX_DEFAULT: f64 = 1e15;
/// Smallest accepted lower range bound.
pub const LLMM_SKETCH_RANGE_MIN_LIMIT: f64 = 1e-300;
/// Largest accepted upper range bound.
pub const LLMM_SKETCH_RANGE_MAX_LIMIT: f64 = 1e300;

opaque! {
    /// A streaming, mergeable quantile sketch (`llmm_sketch`).
    llmm_sketch;
    /// A multi-writer recorder (`llmm_recorder`).
    llmm_recorder;
    /// A single-writer shard of a recorder, owned by the recorder (`llmm_shard`).
    llmm_shard;
}

extern "C" {
    pub fn llmm_sketch_new(ctx: *mut llmm_ctx, scale: i32, out: *mut *mut llmm_sketch)
        -> llmm_status;
    pub fn llmm_sketch_free(s: *mut llmm_sketch);
    pub fn llmm_sketch_set_range(s: *mut llmm_sketch, lo: f64, hi: f64) -> llmm_status;
    pub fn llmm_sketch_range(s: *const llmm_sketch, lo: *mut f64, hi: *mut f64) -> llmm_status;
    pub fn llmm_sketch_add(s: *mut llmm_sketch, v: f64) -> llmm_status;
    pub fn llmm_sketch_add_n(s: *mut llmm_sketch, v: f64, n: u64) -> llmm_status;
    pub fn llmm_sketch_add_many(s: *mut llmm_sketch, v: *const f64, n: usize) -> llmm_status;
    pub fn llmm_sketch_quantile(s: *const llmm_sketch, q: f64, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_quantiles(
        s: *const llmm_sketch,
        q: *const f64,
        n: usize,
        out: *mut f64,
    ) -> llmm_status;
    pub fn llmm_sketch_rank(s: *const llmm_sketch, v: f64, fraction_le: *mut f64)
        -> llmm_status;
    pub fn llmm_sketch_count(s: *const llmm_sketch) -> u64;
    pub fn llmm_sketch_sum(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_min(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_max(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_mean(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_special_counts(
        s: *const llmm_sketch,
        zero: *mut u64,
        under: *mut u64,
        over: *mut u64,
    ) -> llmm_status;
    pub fn llmm_sketch_scale(s: *const llmm_sketch) -> i32;
    pub fn llmm_sketch_bucket_span(
        s: *const llmm_sketch,
        first: *mut i32,
        last: *mut i32,
    ) -> llmm_status;
    pub fn llmm_sketch_bucket_count(s: *const llmm_sketch, index: i32) -> u64;
    pub fn llmm_sketch_index(scale: i32, v: f64, index: *mut i32) -> llmm_status;
    pub fn llmm_sketch_bucket_bounds(
        scale: i32,
        index: i32,
        lower: *mut f64,
        upper: *mut f64,
    ) -> llmm_status;
    pub fn llmm_sketch_merge(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_subtract(dst: *mut llmm_sketch, earlier: *const llmm_sketch)
        -> llmm_status;
    pub fn llmm_sketch_reset(s: *mut llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_clone(s: *const llmm_sketch, out: *mut *mut llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_downscale(s: *mut llmm_sketch, new_scale: i32) -> llmm_status;
    pub fn llmm_sketch_copy(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;

    pub fn llmm_recorder_new(ctx: *mut llmm_ctx, scale: i32, out: *mut *mut llmm_recorder)
        -> llmm_status;
    pub fn llmm_recorder_set_range(r: *mut llmm_recorder, lo: f64, hi: f64) -> llmm_status;
    pub fn llmm_recorder_shard(r: *mut llmm_recorder, out: *mut *mut llmm_shard) -> llmm_status;
    pub fn llmm_shard_add(sh: *mut llmm_shard, v: f64) -> llmm_status;
    pub fn llmm_shard_add_many(sh: *mut llmm_shard, v: *const f64, n: usize) -> llmm_status;
    pub fn llmm_shard_release(sh: *mut llmm_shard);
    pub fn llmm_recorder_snapshot(r: *mut llmm_recorder, into: *mut llmm_sketch) -> llmm_status;
    pub fn llmm_recorder_free(r: *mut llmm_recorder);
}

/// Format version written by [`llmm_sketch_serialize`].
pub const LLMM_SKETCH_FORMAT_VERSION: u32 = 1;

extern "C" {
    pub fn llmm_sketch_serialize(s: *const llmm_sketch, buf: *mut u8, cap: usize, len: *mut usize)
        -> llmm_status;
    pub fn llmm_sketch_deserialize(
        ctx: *mut llmm_ctx,
        buf: *const u8,
        len: usize,
        out: *mut *mut llmm_sketch,
    ) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// window.h
// ---------------------------------------------------------------------------------------------

/// Slot length used when 0 is given: one second.
pub const LLMM_WINDOW_SLOT_NS_DEFAULT: u64 = 1000000000;
/// Slot count used when 0 is given.
pub const LLMM_WINDOW_SLOTS_DEFAULT: u32 = 60;
/// Largest slot count a window accepts.
pub const LLMM_WINDOW_SLOTS_MAX: u32 = 100000;

opaque! {
    /// A ring of per-slot quantile sketches driven by the caller's clock (`llmm_window`).
    llmm_window;
    /// A time ring of (events, total) counters (`llmm_ratio_window`).
    llmm_ratio_window;
}

extern "C" {
    pub fn llmm_window_new(
        ctx: *mut llmm_ctx,
        slot_ns: u64,
        slots: u32,
        scale: i32,
        out: *mut *mut llmm_window,
    ) -> llmm_status;
    pub fn llmm_window_free(w: *mut llmm_window);
    pub fn llmm_window_geometry(w: *const llmm_window, slot_ns: *mut u64, slots: *mut u32)
        -> llmm_status;
    pub fn llmm_window_add(w: *mut llmm_window, now_ns: u64, v: f64) -> llmm_status;
    pub fn llmm_window_add_many(w: *mut llmm_window, now_ns: u64, v: *const f64, n: usize)
        -> llmm_status;
    pub fn llmm_window_count(w: *mut llmm_window, now_ns: u64, span_ns: u64, count: *mut u64)
        -> llmm_status;
    pub fn llmm_window_quantile(
        w: *mut llmm_window,
        now_ns: u64,
        span_ns: u64,
        q: f64,
        out: *mut f64,
    ) -> llmm_status;
    pub fn llmm_window_quantiles(
        w: *mut llmm_window,
        now_ns: u64,
        span_ns: u64,
        q: *const f64,
        n: usize,
        out: *mut f64,
    ) -> llmm_status;
    pub fn llmm_window_snapshot(
        w: *mut llmm_window,
        now_ns: u64,
        span_ns: u64,
        into: *mut llmm_sketch,
    ) -> llmm_status;
    pub fn llmm_window_reset(w: *mut llmm_window) -> llmm_status;

    pub fn llmm_ratio_window_new(
        ctx: *mut llmm_ctx,
        slot_ns: u64,
        slots: u32,
        out: *mut *mut llmm_ratio_window,
    ) -> llmm_status;
    pub fn llmm_ratio_window_free(rw: *mut llmm_ratio_window);
    pub fn llmm_ratio_window_add(
        rw: *mut llmm_ratio_window,
        now_ns: u64,
        events: u64,
        total: u64,
    ) -> llmm_status;
    pub fn llmm_ratio_window_counts(
        rw: *mut llmm_ratio_window,
        now_ns: u64,
        span_ns: u64,
        events: *mut u64,
        total: *mut u64,
    ) -> llmm_status;
    pub fn llmm_ratio_window_ratio(
        rw: *mut llmm_ratio_window,
        now_ns: u64,
        span_ns: u64,
        ratio: *mut f64,
    ) -> llmm_status;
    pub fn llmm_ratio_window_reset(rw: *mut llmm_ratio_window) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// detect.h
// ---------------------------------------------------------------------------------------------

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
    pub fn llmm_spike_set_f64(d: *mut llmm_spike, key: llmm_spike_option, value: f64)
        -> llmm_status;
    pub fn llmm_spike_get_f64(d: *const llmm_spike, key: llmm_spike_option, value: *mut f64)
        -> llmm_status;
    pub fn llmm_spike_set_u64(d: *mut llmm_spike, key: llmm_spike_option, value: u64)
        -> llmm_status;
    pub fn llmm_spike_get_u64(d: *const llmm_spike, key: llmm_spike_option, value: *mut u64)
        -> llmm_status;
    pub fn llmm_spike_observe(
        d: *mut llmm_spike,
        now_ns: u64,
        latency: f64,
        level: *mut llmm_spike_level,
    ) -> llmm_status;
    pub fn llmm_spike_rate(d: *mut llmm_spike, now_ns: u64, rate: *mut f64) -> llmm_status;
    pub fn llmm_spike_stats_init(s: *mut llmm_spike_stats) -> llmm_status;
    pub fn llmm_spike_get_stats(d: *mut llmm_spike, now_ns: u64, s: *mut llmm_spike_stats)
        -> llmm_status;
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
    pub fn llmm_collapse_set_f64(c: *mut llmm_collapse, key: llmm_collapse_option, value: f64)
        -> llmm_status;
    pub fn llmm_collapse_get_f64(c: *const llmm_collapse, key: llmm_collapse_option, value: *mut f64)
        -> llmm_status;
    pub fn llmm_collapse_set_u64(c: *mut llmm_collapse, key: llmm_collapse_option, value: u64)
        -> llmm_status;
    pub fn llmm_collapse_get_u64(c: *const llmm_collapse, key: llmm_collapse_option, value: *mut u64)
        -> llmm_status;
    pub fn llmm_collapse_mark_switch(c: *mut llmm_collapse, now_ns: u64) -> llmm_status;
    pub fn llmm_collapse_observe(c: *mut llmm_collapse, now_ns: u64, latency: f64, collapsed: *mut i32)
        -> llmm_status;
    pub fn llmm_collapse_verdict_init(v: *mut llmm_collapse_verdict) -> llmm_status;
    pub fn llmm_collapse_observe_ex(
        c: *mut llmm_collapse,
        now_ns: u64,
        latency: f64,
        v: *mut llmm_collapse_verdict,
    ) -> llmm_status;
    pub fn llmm_collapse_observe_tps(c: *mut llmm_collapse, now_ns: u64, tps: f64) -> llmm_status;
    pub fn llmm_collapse_observe_membw(c: *mut llmm_collapse, now_ns: u64, utilisation: f64)
        -> llmm_status;
    pub fn llmm_collapse_report_init(r: *mut llmm_collapse_report) -> llmm_status;
    pub fn llmm_collapse_switch_report(c: *const llmm_collapse, r: *mut llmm_collapse_report)
        -> llmm_status;
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
    pub fn llmm_event_log_new(ctx: *mut llmm_ctx, capacity: u32, out: *mut *mut llmm_event_log)
        -> llmm_status;
    pub fn llmm_event_log_free(log: *mut llmm_event_log);
    pub fn llmm_event_log_add(log: *mut llmm_event_log, now_ns: u64, type_: i32, value: f64)
        -> llmm_status;
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
    pub fn llmm_stability_set_f64(s: *mut llmm_stability, key: llmm_stability_option, value: f64)
        -> llmm_status;
    pub fn llmm_stability_get_f64(
        s: *const llmm_stability,
        key: llmm_stability_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_stability_set_u64(s: *mut llmm_stability, key: llmm_stability_option, value: u64)
        -> llmm_status;
    pub fn llmm_stability_get_u64(
        s: *const llmm_stability,
        key: llmm_stability_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_stability_add(s: *mut llmm_stability, mean: f64, stable: *mut i32) -> llmm_status;
    pub fn llmm_stability_reading_init(r: *mut llmm_stability_reading) -> llmm_status;
    pub fn llmm_stability_read(s: *const llmm_stability, r: *mut llmm_stability_reading)
        -> llmm_status;
    pub fn llmm_stability_reset(s: *mut llmm_stability) -> llmm_status;

    pub fn llmm_saturation_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_saturation) -> llmm_status;
    pub fn llmm_saturation_free(s: *mut llmm_saturation);
    pub fn llmm_saturation_set_f64(s: *mut llmm_saturation, key: llmm_saturation_option, value: f64)
        -> llmm_status;
    pub fn llmm_saturation_get_f64(
        s: *const llmm_saturation,
        key: llmm_saturation_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_saturation_set_u64(s: *mut llmm_saturation, key: llmm_saturation_option, value: u64)
        -> llmm_status;
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
    pub fn llmm_saturation_read(s: *const llmm_saturation, r: *mut llmm_saturation_reading)
        -> llmm_status;
    pub fn llmm_saturation_reset(s: *mut llmm_saturation) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// fit.h
// ---------------------------------------------------------------------------------------------

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
    pub fn llmm_usl_fit(conc: *const f64, qps: *const f64, n: usize, model: *mut llmm_usl)
        -> llmm_status;
    pub fn llmm_usl_throughput(model: *const llmm_usl, n: f64, x: *mut f64) -> llmm_status;
    pub fn llmm_usl_latency(model: *const llmm_usl, n: f64, latency: *mut f64) -> llmm_status;
    pub fn llmm_usl_slo_concurrency(model: *const llmm_usl, max_latency: f64, n: *mut f64)
        -> llmm_status;
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

// ---------------------------------------------------------------------------------------------
// capacity.h
// ---------------------------------------------------------------------------------------------

/// Safety factor used by [`llmm_littles_law_tps`] when 0 is passed.
pub const LLMM_LITTLES_LAW_SAFETY_DEFAULT: f64 = 0.85;

extern "C" {
    pub fn llmm_decay_rate(actual: f64, peak: f64, eta: *mut f64) -> llmm_status;
    pub fn llmm_roofline(
        peak_flops: f64,
        bandwidth_bytes: f64,
        intensity: f64,
        attainable: *mut f64,
    ) -> llmm_status;
    pub fn llmm_roofline_critical_intensity(
        peak_flops: f64,
        bandwidth_bytes: f64,
        intensity: *mut f64,
    ) -> llmm_status;
    pub fn llmm_arithmetic_intensity(flops: f64, bytes: f64, intensity: *mut f64) -> llmm_status;
    pub fn llmm_scaling_decay(ideal: f64, measured: f64, decay: *mut f64) -> llmm_status;
    pub fn llmm_scaling_decay_devices(
        single: f64,
        devices: u32,
        measured: f64,
        decay: *mut f64,
    ) -> llmm_status;
    pub fn llmm_comm_share(comm_time: f64, step_time: f64, share: *mut f64) -> llmm_status;
    pub fn llmm_seqlen_decay(tps_short: f64, tps_long: f64, decay: *mut f64) -> llmm_status;
    pub fn llmm_littles_law_tps(
        p999_ms: f64,
        concurrency: f64,
        safety: f64,
        tps: *mut f64,
    ) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// score.h
// ---------------------------------------------------------------------------------------------

/// Number of evaluation layers; every weight array has this many entries.
pub const LLMM_LAYER_COUNT: usize = 4;
/// Longest metric name accepted, in bytes, without the terminating NUL.
pub const LLMM_SCORE_NAME_MAX: usize = 255;

/// The four evaluation layers (`llmm_layer`).
pub type llmm_layer = c_int;
/// factual consistency, reasoning robustness, ...
pub const LLMM_LAYER_CAPABILITY: llmm_layer = 0;
/// P95 latency, throughput, peak GPU memory, ...
pub const LLMM_LAYER_PERFORMANCE: llmm_layer = 1;
/// API error rate, cold-start time, rollback success, ...
pub const LLMM_LAYER_ENGINEERING: llmm_layer = 2;
/// dwell-time uplift, ticket reduction, review pass rate, ...
pub const LLMM_LAYER_BUSINESS: llmm_layer = 3;

/// Scenario weight presets (`llmm_scenario`).
pub type llmm_scenario = c_int;
/// 0.25 / 0.40 / 0.20 / 0.15
pub const LLMM_SCENARIO_CUSTOMER_SERVICE: llmm_scenario = 0;
/// 0.45 / 0.20 / 0.15 / 0.20
pub const LLMM_SCENARIO_CODE_ASSISTANT: llmm_scenario = 1;
/// 0.35 / 0.10 / 0.25 / 0.30
pub const LLMM_SCENARIO_CONTENT_GENERATION: llmm_scenario = 2;
/// weights set by [`llmm_scorecard_set_weights`]
pub const LLMM_SCENARIO_CUSTOM: llmm_scenario = 3;

/// Which way a metric improves (`llmm_direction`).
pub type llmm_direction = c_int;
/// target > worst
pub const LLMM_HIGHER_IS_BETTER: llmm_direction = 0;
/// target < worst
pub const LLMM_LOWER_IS_BETTER: llmm_direction = 1;

/// What the overall score does when a weighted layer is missing (`llmm_missing_policy`).
pub type llmm_missing_policy = c_int;
/// Refuse with `LLMM_E_STATE` (the default).
pub const LLMM_MISSING_REFUSE: llmm_missing_policy = 0;
/// Renormalise the layer weights over the present layers.
pub const LLMM_MISSING_RENORMALIZE: llmm_missing_policy = 1;

/// Integer options of a scorecard (`llmm_scorecard_option`).
pub type llmm_scorecard_option = c_int;
/// A [`llmm_missing_policy`] value.
pub const LLMM_SCORECARD_MISSING: llmm_scorecard_option = 0;

/// Result of [`llmm_scorecard_evaluate`] (`llmm_score_result`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_score_result {
    /// `sizeof(llmm_score_result)`, set by [`llmm_score_result_init`].
    pub struct_size: u32,
    /// The scorecard's scenario.
    pub scenario: llmm_scenario,
    /// Layers without an observed metric.
    pub layers_missing: u32,
    /// 1 when the weights were renormalised.
    pub renormalized: i32,
    /// Overall score in [0, 1]; NaN on error.
    pub overall: f64,
    /// Layer score; NaN when missing.
    pub layer_score: [f64; LLMM_LAYER_COUNT],
    /// Configured weight.
    pub layer_weight: [f64; LLMM_LAYER_COUNT],
    /// Weight used for `overall`.
    pub layer_effective_weight: [f64; LLMM_LAYER_COUNT],
    /// Effective weight × layer score.
    pub layer_contribution: [f64; LLMM_LAYER_COUNT],
    /// 1 when the layer has an observed metric.
    pub layer_present: [i32; LLMM_LAYER_COUNT],
    /// Metrics defined in the layer.
    pub layer_metrics: [u32; LLMM_LAYER_COUNT],
    /// Metrics of the layer that have an observation.
    pub layer_observed: [u32; LLMM_LAYER_COUNT],
}

opaque! {
    /// A four-layer scorecard (`llmm_scorecard`).
    llmm_scorecard;
}

extern "C" {
    pub fn llmm_score_result_init(r: *mut llmm_score_result) -> llmm_status;
    pub fn llmm_scenario_weights(preset: llmm_scenario, weights: *mut f64, n: usize)
        -> llmm_status;
    pub fn llmm_score_normalize(
        dir: llmm_direction,
        target: f64,
        worst: f64,
        value: f64,
        score: *mut f64,
    ) -> llmm_status;
    pub fn llmm_scorecard_new(
        ctx: *mut llmm_ctx,
        preset: llmm_scenario,
        out: *mut *mut llmm_scorecard,
    ) -> llmm_status;
    pub fn llmm_scorecard_free(sc: *mut llmm_scorecard);
    pub fn llmm_scorecard_set_weights(sc: *mut llmm_scorecard, weights: *const f64, n: usize)
        -> llmm_status;
    pub fn llmm_scorecard_weights(sc: *const llmm_scorecard, weights: *mut f64, n: usize)
        -> llmm_status;
    pub fn llmm_scorecard_set_i32(
        sc: *mut llmm_scorecard,
        opt: llmm_scorecard_option,
        value: i32,
    ) -> llmm_status;
    pub fn llmm_scorecard_get_i32(
        sc: *const llmm_scorecard,
        opt: llmm_scorecard_option,
        value: *mut i32,
    ) -> llmm_status;
    pub fn llmm_scorecard_add_metric(
        sc: *mut llmm_scorecard,
        layer: llmm_layer,
        name: *const c_char,
        dir: llmm_direction,
        target: f64,
        worst: f64,
        weight: f64,
        id: *mut u32,
    ) -> llmm_status;
    pub fn llmm_scorecard_observe(sc: *mut llmm_scorecard, name: *const c_char, value: f64)
        -> llmm_status;
    pub fn llmm_scorecard_observe_id(sc: *mut llmm_scorecard, id: u32, value: f64)
        -> llmm_status;
    pub fn llmm_scorecard_clear(sc: *mut llmm_scorecard) -> llmm_status;
    pub fn llmm_scorecard_metric_score(sc: *const llmm_scorecard, id: u32, score: *mut f64)
        -> llmm_status;
    pub fn llmm_scorecard_evaluate(sc: *const llmm_scorecard, r: *mut llmm_score_result)
        -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// resource.h
// ---------------------------------------------------------------------------------------------

/// Default window of a [`llmm_lii_monitor`], in samples.
pub const LLMM_LII_WINDOW_DEFAULT: u32 = 64;
/// Largest window of a [`llmm_lii_monitor`], in samples.
pub const LLMM_LII_WINDOW_MAX: u32 = 1048576;

/// Action tier for a load imbalance index (`llmm_lii_tier`).
pub type llmm_lii_tier = c_int;
/// keep the batch size
pub const LLMM_LII_KEEP: llmm_lii_tier = 0;
/// enable prefetch buffering
pub const LLMM_LII_PREFETCH: llmm_lii_tier = 1;
/// adapt the batch size
pub const LLMM_LII_ADAPT: llmm_lii_tier = 2;

/// Double options of a [`llmm_lii_monitor`] (`llmm_lii_option`).
pub type llmm_lii_option = c_int;
/// lower bound of the prefetch tier; default 0.2
pub const LLMM_LII_PREFETCH_AT: llmm_lii_option = 0;
/// lower bound of the adapt tier; default 0.4
pub const LLMM_LII_ADAPT_AT: llmm_lii_option = 1;
/// scaling decision when LII ≥ this; default 0.3
pub const LLMM_LII_SCALE_AT: llmm_lii_option = 2;

/// What a [`llmm_lii_monitor`] reads now (`llmm_lii_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_lii_reading {
    /// `sizeof(llmm_lii_reading)`, set by [`llmm_lii_reading_init`].
    pub struct_size: u32,
    /// The action tier of `lii`.
    pub tier: llmm_lii_tier,
    /// 1 when `lii` ≥ the scaling threshold.
    pub scale: i32,
    /// Samples in the window.
    pub samples: u32,
    /// Load imbalance index over the window.
    pub lii: f64,
    /// Mean CPU utilisation over the window.
    pub mean_cpu: f64,
    /// Mean GPU utilisation over the window.
    pub mean_gpu: f64,
}

/// Block- and token-level occupancy of a paged KV cache (`llmm_kv_occupancy_result`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_kv_occupancy_result {
    /// `sizeof(llmm_kv_occupancy_result)`, set by [`llmm_kv_occupancy_result_init`].
    pub struct_size: u32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// U·B − K: token slots reserved but empty.
    pub wasted_slots: u64,
    /// U / T
    pub block_occupancy: f64,
    /// K / (T·B)
    pub token_occupancy: f64,
    /// block_occupancy − token_occupancy
    pub gap: f64,
    /// 1 − K / (U·B); 0 when U = 0
    pub internal_fragmentation: f64,
}

/// TLB miss-rate alert presets (`llmm_tlb_workload`).
pub type llmm_tlb_workload = c_int;
/// 0.125 over 1 s
pub const LLMM_TLB_OLTP_DATABASE: llmm_tlb_workload = 0;
/// 0.082 over 500 ms
pub const LLMM_TLB_JAVA_MICROSERVICE: llmm_tlb_workload = 1;

opaque! {
    /// A streaming load imbalance index (`llmm_lii_monitor`).
    llmm_lii_monitor;
}

extern "C" {
    pub fn llmm_lii(cpu: *const f64, gpu: *const f64, n: usize, lii: *mut f64) -> llmm_status;
    pub fn llmm_lii_reading_init(r: *mut llmm_lii_reading) -> llmm_status;
    pub fn llmm_lii_monitor_new(ctx: *mut llmm_ctx, window: u32, out: *mut *mut llmm_lii_monitor)
        -> llmm_status;
    pub fn llmm_lii_monitor_free(m: *mut llmm_lii_monitor);
    pub fn llmm_lii_monitor_set_f64(m: *mut llmm_lii_monitor, opt: llmm_lii_option, value: f64)
        -> llmm_status;
    pub fn llmm_lii_monitor_get_f64(
        m: *const llmm_lii_monitor,
        opt: llmm_lii_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_lii_monitor_add(m: *mut llmm_lii_monitor, cpu: f64, gpu: f64) -> llmm_status;
    pub fn llmm_lii_monitor_read(m: *const llmm_lii_monitor, r: *mut llmm_lii_reading)
        -> llmm_status;
    pub fn llmm_lii_monitor_reset(m: *mut llmm_lii_monitor) -> llmm_status;
    pub fn llmm_kv_fragmentation(free_extents: *const u64, n: usize, f: *mut f64)
        -> llmm_status;
    pub fn llmm_kv_evict_threshold(fragmentation: f64, threshold: *mut f64) -> llmm_status;
    pub fn llmm_kv_ttl(avg_hit_rate: f64, ttl: *mut i64) -> llmm_status;
    pub fn llmm_kv_occupancy_result_init(r: *mut llmm_kv_occupancy_result) -> llmm_status;
    pub fn llmm_kv_occupancy(
        block_size: u64,
        blocks_total: u64,
        blocks_used: u64,
        tokens_stored: u64,
        r: *mut llmm_kv_occupancy_result,
    ) -> llmm_status;
    pub fn llmm_tlb_preset(
        workload: llmm_tlb_workload,
        max_miss_rate: *mut f64,
        window_ns: *mut u64,
    ) -> llmm_status;
    pub fn llmm_page_walk_ns(cycles: f64, cpu_hz: f64, ns: *mut f64) -> llmm_status;
}

/// Window of a KV hit-rate tracker when 0 is given: one minute.
pub const LLMM_KV_HIT_WINDOW_NS_DEFAULT: u64 = 60000000000;
/// Slots the window of a resource monitor is divided into.
pub const LLMM_RESOURCE_WINDOW_SLOTS: u32 = 60;

/// The KV-cache hit rate over a window (`llmm_kv_hit_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_kv_hit_reading {
    /// `sizeof(llmm_kv_hit_reading)`, set by [`llmm_kv_hit_reading_init`].
    pub struct_size: u32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// Hits in the window.
    pub hits: u64,
    /// Lookups in the window.
    pub lookups: u64,
    /// hits / lookups.
    pub hit_rate: f64,
    /// The cache TTL for that hit rate.
    pub ttl: i64,
}

/// What a [`llmm_tlb_monitor`] reads (`llmm_tlb_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_tlb_reading {
    /// `sizeof(llmm_tlb_reading)`, set by [`llmm_tlb_reading_init`].
    pub struct_size: u32,
    /// 1 when `miss_rate` > `max_miss_rate`.
    pub alert: i32,
    /// TLB misses in the window.
    pub misses: u64,
    /// TLB accesses in the window.
    pub accesses: u64,
    /// The monitor's window.
    pub window_ns: u64,
    /// misses / accesses.
    pub miss_rate: f64,
    /// The monitor's threshold.
    pub max_miss_rate: f64,
}

opaque! {
    /// KV-cache hits and lookups over a time window (`llmm_kv_hit_tracker`).
    llmm_kv_hit_tracker;
    /// TLB misses and accesses against a miss-rate threshold (`llmm_tlb_monitor`).
    llmm_tlb_monitor;
}

extern "C" {
    pub fn llmm_kv_hit_reading_init(r: *mut llmm_kv_hit_reading) -> llmm_status;
    pub fn llmm_kv_hit_tracker_new(
        ctx: *mut llmm_ctx,
        window_ns: u64,
        out: *mut *mut llmm_kv_hit_tracker,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_free(t: *mut llmm_kv_hit_tracker);
    pub fn llmm_kv_hit_tracker_add(
        t: *mut llmm_kv_hit_tracker,
        now_ns: u64,
        hits: u64,
        lookups: u64,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_read(
        t: *mut llmm_kv_hit_tracker,
        now_ns: u64,
        r: *mut llmm_kv_hit_reading,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_reset(t: *mut llmm_kv_hit_tracker) -> llmm_status;
    pub fn llmm_tlb_reading_init(r: *mut llmm_tlb_reading) -> llmm_status;
    pub fn llmm_tlb_monitor_new(
        ctx: *mut llmm_ctx,
        workload: llmm_tlb_workload,
        out: *mut *mut llmm_tlb_monitor,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_new_custom(
        ctx: *mut llmm_ctx,
        max_miss_rate: f64,
        window_ns: u64,
        out: *mut *mut llmm_tlb_monitor,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_free(m: *mut llmm_tlb_monitor);
    pub fn llmm_tlb_monitor_add(m: *mut llmm_tlb_monitor, now_ns: u64, misses: u64, accesses: u64)
        -> llmm_status;
    pub fn llmm_tlb_monitor_read(m: *mut llmm_tlb_monitor, now_ns: u64, r: *mut llmm_tlb_reading)
        -> llmm_status;
    pub fn llmm_tlb_monitor_reset(m: *mut llmm_tlb_monitor) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// slo.h
// ---------------------------------------------------------------------------------------------

/// The verdict of an SLO check (`llmm_slo_result`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_slo_result {
    /// `sizeof(llmm_slo_result)`, set by [`llmm_slo_result_init`].
    pub struct_size: u32,
    /// 1 when `latency_ok` and `errors_ok`.
    pub satisfied: i32,
    /// 1 when there was a success and `latency` ≤ the bound.
    pub latency_ok: i32,
    /// 1 when `error_rate` ≤ the bound.
    pub errors_ok: i32,
    /// Successful requests.
    pub successes: u64,
    /// Failed requests.
    pub errors: u64,
    /// The quantile level checked.
    pub quantile: f64,
    /// That quantile of the successful latencies; +Inf without success.
    pub latency: f64,
    /// errors / (successes + errors).
    pub error_rate: f64,
}

opaque! {
    /// Successful latencies and error counts over a time ring (`llmm_slo_window`).
    llmm_slo_window;
    /// Per-request SLO bounds and request counts (`llmm_goodput`).
    llmm_goodput;
    /// Multi-window burn-rate alerting (`llmm_burn`).
    llmm_burn;
    /// An error-share trigger over a time window (`llmm_error_trigger`).
    llmm_error_trigger;
}

/// Per-request SLO bounds of a [`llmm_goodput`] (`llmm_goodput_option`).
pub type llmm_goodput_option = c_int;
/// bound on the time to first token
pub const LLMM_GOODPUT_TTFT_MAX: llmm_goodput_option = 1;
/// bound on the time per output token
pub const LLMM_GOODPUT_TPOT_MAX: llmm_goodput_option = 2;
/// bound on the end-to-end latency
pub const LLMM_GOODPUT_E2E_MAX: llmm_goodput_option = 3;

/// Goodput over the requests counted (`llmm_goodput_result`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_goodput_result {
    /// `sizeof(llmm_goodput_result)`, set by [`llmm_goodput_result_init`].
    pub struct_size: u32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// All requests.
    pub requests: u64,
    /// Requests that completed successfully.
    pub completed: u64,
    /// Completed requests meeting every SLO given.
    pub good: u64,
    /// good / requests.
    pub fraction: f64,
    /// Good requests per second.
    pub rate_per_s: f64,
    /// Completed requests per second.
    pub throughput_per_s: f64,
}

/// Slot length of a burn-rate alerter when 0 is given: ten seconds.
pub const LLMM_BURN_SLOT_NS_DEFAULT: u64 = 10000000000;
/// Number of windows reported by [`llmm_burn_evaluate`].
pub const LLMM_BURN_WINDOWS: usize = 4;

/// Index of a window in the arrays of [`llmm_burn_result`] (`llmm_burn_window`).
pub type llmm_burn_window = c_int;
/// fast alert, long window
pub const LLMM_BURN_FAST_LONG: llmm_burn_window = 0;
/// fast alert, short window
pub const LLMM_BURN_FAST_SHORT: llmm_burn_window = 1;
/// slow alert, long window
pub const LLMM_BURN_SLOW_LONG: llmm_burn_window = 2;
/// slow alert, short window
pub const LLMM_BURN_SLOW_SHORT: llmm_burn_window = 3;

/// Option keys of a [`llmm_burn`] (`llmm_burn_option`).
pub type llmm_burn_option = c_int;
/// f64: SLO target
pub const LLMM_BURN_SLO_TARGET: llmm_burn_option = 1;
/// f64: fast factor, default 14.4
pub const LLMM_BURN_FAST_FACTOR: llmm_burn_option = 2;
/// f64: slow factor, default 6
pub const LLMM_BURN_SLOW_FACTOR: llmm_burn_option = 3;
/// u64: fast long window, default 1 h
pub const LLMM_BURN_FAST_LONG_NS: llmm_burn_option = 4;
/// u64: fast short window, default 5 min
pub const LLMM_BURN_FAST_SHORT_NS: llmm_burn_option = 5;
/// u64: slow long window, default 6 h
pub const LLMM_BURN_SLOW_LONG_NS: llmm_burn_option = 6;
/// u64: slow short window, default 30 min
pub const LLMM_BURN_SLOW_SHORT_NS: llmm_burn_option = 7;

/// Burn rates and alerts at a time stamp (`llmm_burn_result`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_burn_result {
    /// `sizeof(llmm_burn_result)`, set by [`llmm_burn_result_init`].
    pub struct_size: u32,
    /// 1 when both fast windows burn faster than the fast factor.
    pub fast_alert: i32,
    /// 1 when both slow windows burn faster than the slow factor.
    pub slow_alert: i32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// Requests counted in each window.
    pub requests: [u64; LLMM_BURN_WINDOWS],
    /// Failed requests in each window.
    pub errors: [u64; LLMM_BURN_WINDOWS],
    /// errors / requests.
    pub error_rate: [f64; LLMM_BURN_WINDOWS],
    /// error_rate / (1 − T).
    pub burn_rate: [f64; LLMM_BURN_WINDOWS],
}

/// Window of an error trigger when 0 is given: five minutes.
pub const LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT: u64 = 300000000000;
/// Default threshold on the failed-request share.
pub const LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT: f64 = 0.05;
/// Slots the trigger's window is divided into.
pub const LLMM_ERROR_TRIGGER_SLOTS: u32 = 60;

/// Option keys of a [`llmm_error_trigger`] (`llmm_error_trigger_option`).
pub type llmm_error_trigger_option = c_int;
/// f64: fire when the failed share exceeds this
pub const LLMM_ERROR_TRIGGER_MAX_SHARE: llmm_error_trigger_option = 1;
/// u64: fire only with at least this many requests
pub const LLMM_ERROR_TRIGGER_MIN_REQUESTS: llmm_error_trigger_option = 2;

/// What the trigger reads (`llmm_error_trigger_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_error_trigger_reading {
    /// `sizeof(llmm_error_trigger_reading)`, set by [`llmm_error_trigger_reading_init`].
    pub struct_size: u32,
    /// 1 when `share` > the threshold and `requests` ≥ the minimum.
    pub fired: i32,
    /// Failed requests in the window.
    pub errors: u64,
    /// All requests in the window.
    pub requests: u64,
    /// errors / requests.
    pub share: f64,
}

extern "C" {
    pub fn llmm_slo_result_init(r: *mut llmm_slo_result) -> llmm_status;
    pub fn llmm_slo_check(
        ok_latencies: *const llmm_sketch,
        errors: u64,
        p95_max: f64,
        err_max: f64,
        r: *mut llmm_slo_result,
    ) -> llmm_status;
    pub fn llmm_slo_check_quantile(
        ok_latencies: *const llmm_sketch,
        errors: u64,
        q: f64,
        latency_max: f64,
        err_max: f64,
        r: *mut llmm_slo_result,
    ) -> llmm_status;
    pub fn llmm_slo_window_new(
        ctx: *mut llmm_ctx,
        slot_ns: u64,
        slots: u32,
        scale: i32,
        out: *mut *mut llmm_slo_window,
    ) -> llmm_status;
    pub fn llmm_slo_window_free(w: *mut llmm_slo_window);
    pub fn llmm_slo_window_add(w: *mut llmm_slo_window, now_ns: u64, latency: f64) -> llmm_status;
    pub fn llmm_slo_window_add_errors(w: *mut llmm_slo_window, now_ns: u64, errors: u64)
        -> llmm_status;
    pub fn llmm_slo_window_check(
        w: *mut llmm_slo_window,
        now_ns: u64,
        span_ns: u64,
        q: f64,
        latency_max: f64,
        err_max: f64,
        r: *mut llmm_slo_result,
    ) -> llmm_status;
    pub fn llmm_slo_window_reset(w: *mut llmm_slo_window) -> llmm_status;

    pub fn llmm_goodput_result_init(r: *mut llmm_goodput_result) -> llmm_status;
    pub fn llmm_goodput_tpot(e2e: f64, ttft: f64, output_tokens: u64, tpot: *mut f64)
        -> llmm_status;
    pub fn llmm_goodput_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_goodput) -> llmm_status;
    pub fn llmm_goodput_free(g: *mut llmm_goodput);
    pub fn llmm_goodput_set_f64(g: *mut llmm_goodput, opt: llmm_goodput_option, value: f64)
        -> llmm_status;
    pub fn llmm_goodput_get_f64(g: *const llmm_goodput, opt: llmm_goodput_option, value: *mut f64)
        -> llmm_status;
    pub fn llmm_goodput_observe(
        g: *mut llmm_goodput,
        ttft: f64,
        tpot: f64,
        e2e: f64,
        good: *mut i32,
    ) -> llmm_status;
    pub fn llmm_goodput_add_failures(g: *mut llmm_goodput, n: u64) -> llmm_status;
    pub fn llmm_goodput_read(g: *const llmm_goodput, duration_ns: u64, r: *mut llmm_goodput_result)
        -> llmm_status;
    pub fn llmm_goodput_reset(g: *mut llmm_goodput) -> llmm_status;

    pub fn llmm_burn_result_init(r: *mut llmm_burn_result) -> llmm_status;
    pub fn llmm_burn_rate(error_rate: f64, slo_target: f64, burn: *mut f64) -> llmm_status;
    pub fn llmm_burn_budget_spent(
        burn_rate: f64,
        window_ns: u64,
        period_ns: u64,
        spent: *mut f64,
    ) -> llmm_status;
    pub fn llmm_burn_new(
        ctx: *mut llmm_ctx,
        slo_target: f64,
        slot_ns: u64,
        slots: u32,
        out: *mut *mut llmm_burn,
    ) -> llmm_status;
    pub fn llmm_burn_free(b: *mut llmm_burn);
    pub fn llmm_burn_set_f64(b: *mut llmm_burn, opt: llmm_burn_option, value: f64) -> llmm_status;
    pub fn llmm_burn_get_f64(b: *const llmm_burn, opt: llmm_burn_option, value: *mut f64)
        -> llmm_status;
    pub fn llmm_burn_set_u64(b: *mut llmm_burn, opt: llmm_burn_option, value: u64) -> llmm_status;
    pub fn llmm_burn_get_u64(b: *const llmm_burn, opt: llmm_burn_option, value: *mut u64)
        -> llmm_status;
    pub fn llmm_burn_add(b: *mut llmm_burn, now_ns: u64, errors: u64, requests: u64)
        -> llmm_status;
    pub fn llmm_burn_evaluate(b: *mut llmm_burn, now_ns: u64, r: *mut llmm_burn_result)
        -> llmm_status;
    pub fn llmm_burn_reset(b: *mut llmm_burn) -> llmm_status;

    pub fn llmm_error_trigger_reading_init(r: *mut llmm_error_trigger_reading) -> llmm_status;
    pub fn llmm_error_trigger_new(
        ctx: *mut llmm_ctx,
        window_ns: u64,
        out: *mut *mut llmm_error_trigger,
    ) -> llmm_status;
    pub fn llmm_error_trigger_free(t: *mut llmm_error_trigger);
    pub fn llmm_error_trigger_set_f64(
        t: *mut llmm_error_trigger,
        opt: llmm_error_trigger_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_error_trigger_get_f64(
        t: *const llmm_error_trigger,
        opt: llmm_error_trigger_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_error_trigger_set_u64(
        t: *mut llmm_error_trigger,
        opt: llmm_error_trigger_option,
        value: u64,
    ) -> llmm_status;
    pub fn llmm_error_trigger_get_u64(
        t: *const llmm_error_trigger,
        opt: llmm_error_trigger_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_error_trigger_add(
        t: *mut llmm_error_trigger,
        now_ns: u64,
        errors: u64,
        requests: u64,
    ) -> llmm_status;
    pub fn llmm_error_trigger_check(
        t: *mut llmm_error_trigger,
        now_ns: u64,
        r: *mut llmm_error_trigger_reading,
    ) -> llmm_status;
    pub fn llmm_error_trigger_reset(t: *mut llmm_error_trigger) -> llmm_status;
}

// ---------------------------------------------------------------------------------------------
// export.h
// ---------------------------------------------------------------------------------------------

/// Exposition format of a [`llmm_prom_writer`] (`llmm_prom_format`).
pub type llmm_prom_format = c_int;
/// Text format 0.0.4.
pub const LLMM_PROM_TEXT: llmm_prom_format = 0;
/// Length-delimited protobuf `MetricFamily` messages (native histograms).
pub const LLMM_PROM_PROTOBUF: llmm_prom_format = 1;

/// Metric family types of a [`llmm_prom_writer`] (`llmm_prom_type`).
pub type llmm_prom_type = c_int;
/// Monotonic counter.
pub const LLMM_PROM_COUNTER: llmm_prom_type = 0;
/// Gauge.
pub const LLMM_PROM_GAUGE: llmm_prom_type = 1;
/// Summary at the family's quantiles.
pub const LLMM_PROM_SUMMARY: llmm_prom_type = 2;
/// Classic histogram.
pub const LLMM_PROM_HISTOGRAM: llmm_prom_type = 3;
/// Native histogram (protobuf; classic in text).
pub const LLMM_PROM_NATIVE_HISTOGRAM: llmm_prom_type = 4;

/// Named classic bucket lists (`llmm_bucket_list`).
pub type llmm_bucket_list = c_int;
/// vLLM `time_to_first_token_seconds`.
pub const LLMM_BUCKETS_VLLM_TTFT: llmm_bucket_list = 0;
/// vLLM `inter_token_latency_seconds`.
pub const LLMM_BUCKETS_VLLM_INTER_TOKEN: llmm_bucket_list = 1;
/// vLLM `e2e_request_latency_seconds`.
pub const LLMM_BUCKETS_VLLM_REQUEST_LATENCY: llmm_bucket_list = 2;
/// OpenTelemetry GenAI operation duration.
pub const LLMM_BUCKETS_OTEL_GENAI_DURATION: llmm_bucket_list = 3;
/// OpenTelemetry GenAI time to first token.
pub const LLMM_BUCKETS_OTEL_GENAI_TTFT: llmm_bucket_list = 4;
/// OpenTelemetry GenAI time per output token.
pub const LLMM_BUCKETS_OTEL_GENAI_TPOT: llmm_bucket_list = 5;
/// OpenTelemetry GenAI token usage (tokens).
pub const LLMM_BUCKETS_OTEL_GENAI_TOKENS: llmm_bucket_list = 6;

/// OTLP aggregation temporality (`llmm_otlp_temporality`).
pub type llmm_otlp_temporality = c_int;
/// Each point covers (start, time] only.
pub const LLMM_OTLP_DELTA: llmm_otlp_temporality = 1;
/// Each point covers everything since a fixed start.
pub const LLMM_OTLP_CUMULATIVE: llmm_otlp_temporality = 2;

/// Options of the OTLP JSON exporters (`llmm_otlp_options`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_otlp_options {
    /// `sizeof(llmm_otlp_options)`, set by [`llmm_otlp_options_init`].
    pub struct_size: u32,
    /// Start of the covered interval.
    pub start_time_unix_nano: u64,
    /// End of the covered interval.
    pub time_unix_nano: u64,
    /// Factor applied to every value.
    pub unit_to_seconds: f64,
    /// Largest number of positive buckets (0 = no limit).
    pub max_buckets: u32,
    /// Cumulative or delta.
    pub temporality: llmm_otlp_temporality,
    /// Point attributes as a preformatted label list, or NULL.
    pub attributes: *const c_char,
    /// Metric description, or NULL.
    pub description: *const c_char,
    /// Metric unit; NULL gives "s".
    pub unit: *const c_char,
    /// Resource attributes, or NULL.
    pub resource_attributes: *const c_char,
}

opaque! {
    /// A Prometheus exposition under construction (`llmm_prom_writer`).
    llmm_prom_writer;
}

extern "C" {
    pub fn llmm_export_prometheus_text(
        s: *const llmm_sketch,
        name: *const c_char,
        labels: *const c_char,
        unit_to_seconds: f64,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_label_escape(value: *const c_char, buf: *mut u8, cap: usize, len: *mut usize)
        -> llmm_status;
    pub fn llmm_prom_writer_new(
        ctx: *mut llmm_ctx,
        format: llmm_prom_format,
        out: *mut *mut llmm_prom_writer,
    ) -> llmm_status;
    pub fn llmm_prom_writer_free(w: *mut llmm_prom_writer);
    pub fn llmm_prom_writer_reset(w: *mut llmm_prom_writer, format: llmm_prom_format)
        -> llmm_status;
    pub fn llmm_prom_writer_family(
        w: *mut llmm_prom_writer,
        name: *const c_char,
        help: *const c_char,
        type_: llmm_prom_type,
        points: *const f64,
        npoints: usize,
    ) -> llmm_status;
    pub fn llmm_prom_writer_value(w: *mut llmm_prom_writer, labels: *const c_char, value: f64)
        -> llmm_status;
    pub fn llmm_prom_writer_sketch(
        w: *mut llmm_prom_writer,
        labels: *const c_char,
        s: *const llmm_sketch,
        unit_to_seconds: f64,
    ) -> llmm_status;
    pub fn llmm_prom_writer_finish(w: *mut llmm_prom_writer, buf: *mut u8, cap: usize, len: *mut usize)
        -> llmm_status;
    pub fn llmm_prom_writer_data(w: *mut llmm_prom_writer, data: *mut *const u8, len: *mut usize)
        -> llmm_status;
    pub fn llmm_prom_negotiate(
        accept: *const c_char,
        format: *mut llmm_prom_format,
        content_type: *mut *const c_char,
    ) -> llmm_status;
    pub fn llmm_prom_content_type(format: llmm_prom_format) -> *const c_char;
    pub fn llmm_prom_buckets(which: llmm_bucket_list, out: *mut f64, cap: usize, n: *mut usize)
        -> llmm_status;
    pub fn llmm_otlp_options_init(o: *mut llmm_otlp_options) -> llmm_status;
    pub fn llmm_export_otlp_json_point(
        s: *const llmm_sketch,
        earlier: *const llmm_sketch,
        o: *const llmm_otlp_options,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_export_otlp_json(
        s: *const llmm_sketch,
        earlier: *const llmm_sketch,
        name: *const c_char,
        o: *const llmm_otlp_options,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
}

#[cfg(test)]
mod tests;
