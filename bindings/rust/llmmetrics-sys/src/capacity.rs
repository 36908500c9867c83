//! `capacity.h`: Capacity formulas.

use super::*;

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
