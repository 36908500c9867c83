//! Closed-form capacity figures: throughput decay, roofline, scaling and communication
//! overhead, Little's-law capacity. Pure functions (thread-safe).

use llmmetrics_sys as ffi;

use crate::error::{check, Result};

/// Safety factor [`littles_law_tps`] uses when given 0.
pub const LITTLES_LAW_SAFETY_DEFAULT: f64 = ffi::LLMM_LITTLES_LAW_SAFETY_DEFAULT;

fn out1(f: impl FnOnce(&mut f64) -> ffi::llmm_status) -> Result<f64> {
    let mut v = 0.0;
    check(f(&mut v))?;
    Ok(v)
}

/// Throughput decay rate `η = 1 − actual / peak` (negative when actual exceeds the peak).
///
/// # Errors
/// `Invalid` for NaN or infinite values, `actual < 0` or `peak ≤ 0`.
pub fn decay_rate(actual: f64, peak: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_decay_rate(actual, peak, o) })
}

/// Roofline bound `min(peak_flops, bandwidth_bytes · intensity)`.
///
/// ```
/// // A100: 2039 GB/s, 312 TFLOP/s; a kernel of 16 FLOPs/byte attains 32.624 TFLOP/s.
/// let t = llmmetrics::roofline(312e12, 2039e9, 16.0)?;
/// assert!((t - 32.624e12).abs() < 1e3);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn roofline(peak_flops: f64, bandwidth_bytes: f64, intensity: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_roofline(peak_flops, bandwidth_bytes, intensity, o) })
}

/// Ridge-point intensity `peak_flops / bandwidth_bytes` (FLOPs per byte).
pub fn roofline_critical_intensity(peak_flops: f64, bandwidth_bytes: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_roofline_critical_intensity(peak_flops, bandwidth_bytes, o) })
}

/// Arithmetic intensity `flops / bytes`.
pub fn arithmetic_intensity(flops: f64, bytes: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_arithmetic_intensity(flops, bytes, o) })
}

/// Multi-GPU scaling decay `1 − measured / ideal`.
pub fn scaling_decay(ideal: f64, measured: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_scaling_decay(ideal, measured, o) })
}

/// Scaling decay from one device's throughput: `1 − measured / (single · devices)`.
pub fn scaling_decay_devices(single: f64, devices: u32, measured: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_scaling_decay_devices(single, devices, measured, o) })
}

/// Communication share of a step, `comm_time / step_time`.
pub fn comm_share(comm_time: f64, step_time: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_comm_share(comm_time, step_time, o) })
}

/// Sequence-length decay `1 − tps_long / tps_short`.
pub fn seqlen_decay(tps_short: f64, tps_long: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_seqlen_decay(tps_short, tps_long, o) })
}

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
pub fn littles_law_tps(p999_ms: f64, concurrency: f64, safety: f64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    out1(|o| unsafe { ffi::llmm_littles_law_tps(p999_ms, concurrency, safety, o) })
}
