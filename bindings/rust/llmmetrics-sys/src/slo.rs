//! `slo.h`: SLO checks, goodput, burn rates, error trigger.

use super::*;

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
    pub fn llmm_slo_window_add_errors(
        w: *mut llmm_slo_window,
        now_ns: u64,
        errors: u64,
    ) -> llmm_status;
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
    pub fn llmm_goodput_tpot(
        e2e: f64,
        ttft: f64,
        output_tokens: u64,
        tpot: *mut f64,
    ) -> llmm_status;
    pub fn llmm_goodput_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_goodput) -> llmm_status;
    pub fn llmm_goodput_free(g: *mut llmm_goodput);
    pub fn llmm_goodput_set_f64(
        g: *mut llmm_goodput,
        opt: llmm_goodput_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_goodput_get_f64(
        g: *const llmm_goodput,
        opt: llmm_goodput_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_goodput_observe(
        g: *mut llmm_goodput,
        ttft: f64,
        tpot: f64,
        e2e: f64,
        good: *mut i32,
    ) -> llmm_status;
    pub fn llmm_goodput_add_failures(g: *mut llmm_goodput, n: u64) -> llmm_status;
    pub fn llmm_goodput_read(
        g: *const llmm_goodput,
        duration_ns: u64,
        r: *mut llmm_goodput_result,
    ) -> llmm_status;
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
    pub fn llmm_burn_get_f64(
        b: *const llmm_burn,
        opt: llmm_burn_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_burn_set_u64(b: *mut llmm_burn, opt: llmm_burn_option, value: u64) -> llmm_status;
    pub fn llmm_burn_get_u64(
        b: *const llmm_burn,
        opt: llmm_burn_option,
        value: *mut u64,
    ) -> llmm_status;
    pub fn llmm_burn_add(b: *mut llmm_burn, now_ns: u64, errors: u64, requests: u64)
        -> llmm_status;
    pub fn llmm_burn_evaluate(
        b: *mut llmm_burn,
        now_ns: u64,
        r: *mut llmm_burn_result,
    ) -> llmm_status;
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
