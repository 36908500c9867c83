//! `window.h`: Time rings of sketches and of ratio counters.

use super::*;

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
    pub fn llmm_window_geometry(
        w: *const llmm_window,
        slot_ns: *mut u64,
        slots: *mut u32,
    ) -> llmm_status;
    pub fn llmm_window_add(w: *mut llmm_window, now_ns: u64, v: f64) -> llmm_status;
    pub fn llmm_window_add_many(
        w: *mut llmm_window,
        now_ns: u64,
        v: *const f64,
        n: usize,
    ) -> llmm_status;
    pub fn llmm_window_count(
        w: *mut llmm_window,
        now_ns: u64,
        span_ns: u64,
        count: *mut u64,
    ) -> llmm_status;
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
