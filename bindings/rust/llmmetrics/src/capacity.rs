//! Closed-form capacity figures: throughput decay, roofline, scaling and communication
//! overhead, Little's-law capacity. Pure functions (thread-safe).

use llmmetrics_sys as ffi;

use crate::error::Result;

/// Safety factor [`littles_law_tps`] uses when given 0.
pub const LITTLES_LAW_SAFETY_DEFAULT: f64 = ffi::LLMM_LITTLES_LAW_SAFETY_DEFAULT;

value_fns! {
/// Throughput decay rate `η = 1 − actual / peak` (negative when actual exceeds the peak).
///
/// # Errors
/// `Invalid` for NaN or infinite values, `actual < 0` or `peak ≤ 0`.
fn decay_rate(actual: f64, peak: f64) -> f64 = ffi::llmm_decay_rate;

/// Roofline bound `min(peak_flops, bandwidth_bytes · intensity)`.
///
/// ```
/// // A100: 2039 GB/s, 312 TFLOP/s; a kernel of 16 FLOPs/byte attains 32.624 TFLOP/s.
/// let t = llmmetrics::roofline(312e12, 2039e9, 16.0)?;
/// assert!((t - 32.624e12).abs() < 1e3);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
fn roofline(peak_flops: f64, bandwidth_bytes: f64, intensity: f64) -> f64 = ffi::llmm_roofline;

/// Ridge-point intensity `peak_flops / bandwidth_bytes` (FLOPs per byte).
fn roofline_critical_intensity(peak_flops: f64, bandwidth_bytes: f64) -> f64 =
    ffi::llmm_roofline_critical_intensity;

/// Arithmetic intensity `flops / bytes`.
fn arithmetic_intensity(flops: f64, bytes: f64) -> f64 = ffi::llmm_arithmetic_intensity;

/// Multi-GPU scaling decay `1 − measured / ideal`.
fn scaling_decay(ideal: f64, measured: f64) -> f64 = ffi::llmm_scaling_decay;

/// Scaling decay from one device's throughput: `1 − measured / (single · devices)`.
fn scaling_decay_devices(single: f64, devices: u32, measured: f64) -> f64 =
    ffi::llmm_scaling_decay_devices;

/// Communication share of a step, `comm_time / step_time`.
fn comm_share(comm_time: f64, step_time: f64) -> f64 = ffi::llmm_comm_share;

/// Sequence-length decay `1 − tps_long / tps_short`.
fn seqlen_decay(tps_short: f64, tps_long: f64) -> f64 = ffi::llmm_seqlen_decay;

/// SLO-driven capacity from Little's law: `max(1, concurrency / (p999_ms / 1000) · safety)`
/// requests per second; `safety` in (0, 1], or 0 for [`LITTLES_LAW_SAFETY_DEFAULT`].
///
/// ```
/// let tps = llmmetrics::littles_law_tps(200.0, 45.0, 0.0)?;   // 45 / 0.2 s · 0.85
/// assert!((tps - 191.25).abs() < 1e-9);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for bad latency or concurrency; `Range` for a safety factor outside [0, 1].
fn littles_law_tps(p999_ms: f64, concurrency: f64, safety: f64) -> f64 = ffi::llmm_littles_law_tps;
}
