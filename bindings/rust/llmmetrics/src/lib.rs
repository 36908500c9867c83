//! Safe Rust API of libllmmetrics: streaming latency sketches with a guaranteed relative
//! error, multi-writer recorders, the four-layer scorecard and resource signals for LLM
//! inference serving.
//!
//! The crate wraps the C library through `llmmetrics-sys` (which finds it with `pkg-config`
//! or `LLMMETRICS_LIB_DIR`). Every fallible call returns [`Result<T, Error>`](Error); an
//! [`Error`] carries the C status code with its name and message. Handles free themselves on
//! drop.
//!
//! ```
//! use llmmetrics::Sketch;
//!
//! let mut ttft = Sketch::new()?;               // scale 6: 0.542 % worst relative error
//! ttft.add_many(&[0.180, 0.210, 0.190, 0.950, 0.205])?;
//! let p = ttft.quantiles(&[0.5, 0.95, 0.99])?;
//! println!("p50 {:.3} s, p95 {:.3} s, p99 {:.3} s", p[0], p[1], p[2]);
//! assert_eq!(ttft.max()?, 0.950);
//! # Ok::<(), llmmetrics::Error>(())
//! ```
//!
//! # Threads
//!
//! The C library has no global mutable state; a handle is used by one thread at a time and
//! may move between threads; read-only calls may run concurrently while nobody writes. This
//! crate maps that contract onto the borrow checker: writing methods take `&mut self`,
//! reading methods `&self`, so:
//!
//! | type | `Send` | `Sync` | why |
//! |---|---|---|---|
//! | [`Context`] | yes | yes | immutable after creation |
//! | [`Sketch`], [`Scorecard`], [`LiiMonitor`] | yes | yes | `&self` calls only read (no cache, no allocation but through the thread-safe context) |
//! | [`Window`], [`RatioWindow`], [`SpikeDetector`] | yes | yes | queries advance the clock and use scratch space, so they take `&mut self` like writers |
//! | [`PromWriter`] | yes | yes | every call takes `&mut self` |
//! | [`SloWindow`], [`BurnAlerter`], [`ErrorTrigger`], [`KvHitTracker`], [`TlbMonitor`] | yes | yes | reads advance the clock, so they take `&mut self`; option reads are pure |
//! | [`Goodput`] | yes | yes | writers take `&mut self`; `bound` and `read` only read |
//! | [`CollapseDetector`], [`EventLog`], [`StabilityGate`], [`SaturationSignal`] | yes | yes | writers take `&mut self`; reports, counts, look-backs and readings only read |
//! | [`HostSampler`] | yes | yes | `sample` and the threshold setter take `&mut self`; rates and thresholds only read |
//! | [`Recorder`] | yes | yes | shard handout and snapshots are thread-safe in C |
//! | [`Shard`] | yes | no | one writer at a time; borrows its recorder, so it cannot outlive it |
//!
//! # Linking
//!
//! `llmmetrics-sys` finds the C library through `LLMMETRICS_LIB_DIR` or `pkg-config`.
//! Running a program (or `cargo test`) needs the shared library on the loader path, e.g.
//! `LD_LIBRARY_PATH=build/lib` for a meson build tree together with
//! `PKG_CONFIG_PATH=build/meson-uninstalled` at build time. With the feature `static` the
//! archive `libllmmetrics.a` is linked into the program instead (a C library built with
//! `-Ddefault_library=static` or `both`). `examples/serving_report.rs` is a complete program.
#![deny(missing_docs)]

#[macro_use]
mod object;

mod burn;
mod capacity;
mod collapse;
mod context;
mod error;
mod events;
mod exemplar;
mod export;
mod fit;
mod gates;
mod host;
mod options;
mod otlp;
mod recorder;
mod resource;
mod score;
mod sized;
mod sketch;
mod slo;
mod spike;
mod window;

pub use llmmetrics_sys as sys;

pub use burn::{
    burn_budget_spent, burn_rate, BurnAlerter, BurnF64, BurnResult, BurnU64, BurnWindow,
    ErrorTrigger, ErrorTriggerReading, BURN_SLOT_NS_DEFAULT, ERROR_TRIGGER_MAX_SHARE_DEFAULT,
    ERROR_TRIGGER_WINDOW_NS_DEFAULT,
};
pub use capacity::{
    arithmetic_intensity, comm_share, decay_rate, littles_law_tps, roofline,
    roofline_critical_intensity, scaling_decay, scaling_decay_devices, seqlen_decay,
    LITTLES_LAW_SAFETY_DEFAULT,
};
pub use collapse::{
    CollapseCounts, CollapseDetector, CollapseF64, CollapseReport, CollapseU64, CollapseVerdict,
    DETECT_VALUE_MAX,
};
pub use context::{Context, RawAllocator, RustAllocator};
pub use error::{Error, ErrorKind, Result};
pub use events::{
    correlation, correlation_in, CorrelationMethod, Event, EventLog, EventLogCounts, EventType,
    TracedEvent, EVENT_LOG_CAPACITY_DEFAULT,
};
pub use exemplar::{
    prom_negotiate_openmetrics, traceparent_format, traceparent_parse, Exemplar, ExemplarKeep,
    ExemplarShard, Exemplars,
};
pub use export::{
    otlp_json, otlp_json_point, prom_buckets, prom_label_escape, prom_negotiate, prometheus_text,
    BucketList, OtlpOptions, OtlpTemporality, PromFormat, PromType, PromWriter,
};
pub use fit::{
    knee_collapse, knee_inflection, knee_inflection_ex, knee_kneedle, knee_report, poly_deriv,
    poly_eval, poly_residuals, poly_roots, polyfit, polyfit_weighted, usl_fit, FitStats, Knee,
    KneeOptions, KneeQuality, KneeReport, Usl, POLY_MAX_DEGREE,
};
pub use gates::{SaturationReading, SaturationSignal, StabilityGate, StabilityReading};
pub use host::{HostSampler, HostSignal, HostThreshold};
pub use options::{options, ObjectKind, OptionBounds, OptionInfo, Options};
pub use otlp::{
    otlp_metrics, otlp_traces, OtlpEncoding, OtlpExemplar, OtlpMetric, OtlpMetricType, OtlpPoint,
    OtlpScope, OtlpSpan, OtlpSpanKind, OtlpStatusCode, OtlpValue,
};
pub use recorder::{Recorder, Shard};
pub use resource::{
    kv_evict_threshold, kv_fragmentation, kv_occupancy, kv_ttl, lii, page_walk_ns, tlb_preset,
    KvHitReading, KvHitTracker, KvOccupancy, LiiMonitor, LiiReading, LiiThreshold, LiiTier,
    TlbMonitor, TlbReading, TlbWorkload, KV_HIT_WINDOW_NS_DEFAULT, LII_WINDOW_DEFAULT,
    LII_WINDOW_MAX,
};
pub use score::{
    normalize, scenario_weights, Direction, Layer, LayerScore, MetricId, MissingPolicy, Scenario,
    ScoreResult, Scorecard, LAYER_COUNT,
};
pub use sketch::{
    bucket_bounds, bucket_index, relative_error, Buckets, DecodeInfo, Sketch, SpecialCounts,
    RANGE_MAX_DEFAULT, RANGE_MIN_DEFAULT, SCALE_DEFAULT, SCALE_MAX, SCALE_MIN,
    SKETCH_FORMAT_VERSION,
};
pub use slo::{
    goodput_tpot, slo_check, slo_check_quantile, Goodput, GoodputBound, GoodputResult, SloResult,
    SloWindow,
};
pub use spike::{SpikeDetector, SpikeF64, SpikeLevel, SpikeStats, SpikeU64};
pub use window::{
    RatioWindow, Window, WINDOW_SLOTS_DEFAULT, WINDOW_SLOTS_MAX, WINDOW_SLOT_NS_DEFAULT,
};

use std::ffi::CStr;

/// Version of the loaded C library as `major·10000 + minor·100 + patch`.
pub fn version() -> u32 {
    // SAFETY: no arguments, no state.
    unsafe { sys::llmm_version() }
}

/// Version of the loaded C library as a string such as `"1.0.0"`.
///
/// ```
/// let v = llmmetrics::version_string();
/// assert!(v.starts_with("1."));
/// assert_eq!(llmmetrics::version() / 10000, 1);
/// ```
pub fn version_string() -> &'static str {
    // SAFETY: the library returns a static NUL-terminated string, never NULL.
    unsafe { CStr::from_ptr(sys::llmm_version_string()) }.to_str().unwrap_or("")
}

/// The monotonic clock (CLOCK_MONOTONIC) in nanoseconds, as every time-dependent call of the
/// library expects its `now_ns`.
pub fn now_ns() -> u64 {
    // SAFETY: no arguments, no state.
    unsafe { sys::llmm_now_ns() }
}
