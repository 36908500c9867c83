//! Multi-window error-budget burn-rate alerts and the error-share self-healing trigger.

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::Owned;

value_fns! {
/// Burn rate `error_rate / (1 − slo_target)`.
///
/// ```
/// let b = llmmetrics::burn_rate(0.0144, 0.999)?;
/// assert!((b - 14.4).abs() < 1e-9);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
fn burn_rate(error_rate: f64, slo_target: f64) -> f64 = ffi::llmm_burn_rate;

/// Share of a period's error budget that a window burning at `burn_rate` spends:
/// `burn_rate · window / period`.
fn burn_budget_spent(burn_rate: f64, window_ns: u64, period_ns: u64) -> f64 =
    ffi::llmm_burn_budget_spent;
}

/// Slot length of a [`BurnAlerter`] when 0 is given: ten seconds.
pub const BURN_SLOT_NS_DEFAULT: u64 = ffi::LLMM_BURN_SLOT_NS_DEFAULT;

/// The four windows of a [`BurnResult`], in array order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnWindow {
    /// Fast alert, long window.
    FastLong = 0,
    /// Fast alert, short window.
    FastShort = 1,
    /// Slow alert, long window.
    SlowLong = 2,
    /// Slow alert, short window.
    SlowShort = 3,
}

/// Floating-point options of a [`BurnAlerter`]; bounds and defaults:
/// [`options`](crate::options)`(ObjectKind::Burn)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnF64 {
    /// The SLO target T (set at creation).
    SloTarget = 1,
    /// The fast alert's factor.
    FastFactor = 2,
    /// The slow alert's factor.
    SlowFactor = 3,
}

/// Window-length options of a [`BurnAlerter`], in ns (short ≤ long ≤ the ring); bounds and
/// defaults: [`options`](crate::options)`(ObjectKind::Burn)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnU64 {
    /// Fast alert, long window.
    FastLongNs = 4,
    /// Fast alert, short window.
    FastShortNs = 5,
    /// Slow alert, long window.
    SlowLongNs = 6,
    /// Slow alert, short window.
    SlowShortNs = 7,
}

readings! {
/// Burn rates and alerts at a time stamp; arrays indexed by [`BurnWindow`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurnResult <- ffi::llmm_burn_result {
    /// Both fast windows burn faster than the fast factor.
    fast_alert: bool,
    /// Both slow windows burn faster than the slow factor.
    slow_alert: bool,
    /// Requests counted in each window.
    requests: [u64; 4],
    /// Failed requests in each window.
    errors: [u64; 4],
    /// `errors / requests` (0 for an idle window).
    error_rate: [f64; 4],
    /// `error_rate / (1 − T)`.
    burn_rate: [f64; 4],
}
}

constructors!(
    /// Multi-window, multi-burn-rate error-budget alerts as in the Google SRE workbook
    /// (`llmm_burn`): fast (1 h and 5 min above 14.4) and slow (6 h and 30 min above 6).
    ///
    /// ```
    /// use llmmetrics::{BurnAlerter, BurnWindow};
    ///
    /// const MIN: u64 = 60_000_000_000;
    /// let mut b = BurnAlerter::new(0.999, 0, 0)?;
    /// for m in 0..60 {
    ///     b.add(m * MIN, 2, 100)?;           // 2 % errors: burn rate 20
    /// }
    /// let r = b.evaluate(60 * MIN)?;
    /// assert!(r.fast_alert && r.slow_alert);
    /// assert!((r.burn_rate[BurnWindow::FastShort as usize] - 20.0).abs() < 1e-9);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct BurnAlerter(ffi::llmm_burn) = ffi::llmm_burn_new;
    /// An alerter for `slo_target` (e.g. 0.999) on `slots` slots of `slot_ns` (0, 0: 10 s
    /// slots, just enough for the 6 h window).
    ///
    /// # Errors
    /// `Invalid` for NaN; `Range` for a target outside (0, 1) or a ring shorter than 6 h.
    (slo_target: f64, slot_ns: u64, slots: u32));

option_calls!(BurnAlerter;
    /// Set the SLO target or a factor.
    fn set_f64(key: BurnF64 as ffi::llmm_burn_option, value: f64) = ffi::llmm_burn_set_f64;
    /// Read the SLO target or a factor.
    fn get_f64(key: BurnF64 as ffi::llmm_burn_option) -> f64 = ffi::llmm_burn_get_f64;
    /// Set a window length (keep short ≤ long at every step).
    fn set_u64(key: BurnU64 as ffi::llmm_burn_option, value: u64) = ffi::llmm_burn_set_u64;
    /// Read a window length.
    fn get_u64(key: BurnU64 as ffi::llmm_burn_option) -> u64 = ffi::llmm_burn_get_u64;
);

calls!(BurnAlerter;
    /// Count `errors` failed requests of `requests` at `now_ns`.
    fn add(&mut self, now_ns: u64, errors: u64, requests: u64) = ffi::llmm_burn_add;
    /// Burn rates of the four windows at `now_ns` and the two alerts.
    fn evaluate(&mut self, now_ns: u64) -> BurnResult = read ffi::llmm_burn_evaluate;
    /// Forget every count and the clock; the options stay.
    fn reset(&mut self) = ffi::llmm_burn_reset;
);

debug_fields!(BurnAlerter, "slo_target" = { get_f64(BurnF64::SloTarget).ok() });

/// Window of an [`ErrorTrigger`] when 0 is given: five minutes.
pub const ERROR_TRIGGER_WINDOW_NS_DEFAULT: u64 = ffi::LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT;
/// Default failed-share threshold of an [`ErrorTrigger`]: 5 %.
pub const ERROR_TRIGGER_MAX_SHARE_DEFAULT: f64 = ffi::LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT;

readings! {
/// What an [`ErrorTrigger`] reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorTriggerReading <- ffi::llmm_error_trigger_reading {
    /// `share` > the threshold and `requests` ≥ the minimum.
    fired: bool,
    /// Failed requests in the window.
    errors: u64,
    /// All requests in the window.
    requests: u64,
    /// `errors / requests`.
    share: f64,
}
}

constructors!(
    /// "5xx share over the last 5 min > 5 %": an error-share trigger over a time window
    /// (`llmm_error_trigger`).
    ///
    /// ```
    /// use llmmetrics::ErrorTrigger;
    ///
    /// let mut t = ErrorTrigger::new(0)?;          // 5 min, 5 %, at least 1 request
    /// t.add(1_000_000_000, 5, 100)?;
    /// assert!(!t.check(2_000_000_000)?.fired);   // exactly 5 % does not fire
    /// t.add(2_000_000_000, 1, 1)?;
    /// assert!(t.check(3_000_000_000)?.fired);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct ErrorTrigger(ffi::llmm_error_trigger) = ffi::llmm_error_trigger_new;
    /// A trigger over `window_ns` (0 for five minutes) with threshold 5 % and minimum 1.
    (window_ns: u64));

option_calls!(ErrorTrigger;
    /// Set the failed-share threshold, in [0, 1].
    fn set_max_share(share: f64) = ffi::llmm_error_trigger_set_f64[ffi::LLMM_ERROR_TRIGGER_MAX_SHARE];
    /// The failed-share threshold.
    fn max_share() -> f64 = ffi::llmm_error_trigger_get_f64[ffi::LLMM_ERROR_TRIGGER_MAX_SHARE];
    /// Set the minimum number of requests in the window (≥ 1) for the trigger to fire.
    fn set_min_requests(n: u64) = ffi::llmm_error_trigger_set_u64[ffi::LLMM_ERROR_TRIGGER_MIN_REQUESTS];
    /// The minimum number of requests.
    fn min_requests() -> u64 = ffi::llmm_error_trigger_get_u64[ffi::LLMM_ERROR_TRIGGER_MIN_REQUESTS];
);

calls!(ErrorTrigger;
    /// Count `errors` failed requests of `requests` at `now_ns`.
    fn add(&mut self, now_ns: u64, errors: u64, requests: u64) = ffi::llmm_error_trigger_add;
    /// The failed share over the window ending at `now_ns` and whether it fires.
    ///
    /// # Errors
    /// `Empty` when the window holds no request.
    fn check(&mut self, now_ns: u64) -> ErrorTriggerReading = read ffi::llmm_error_trigger_check;
    /// Forget every count and the clock; the options stay.
    fn reset(&mut self) = ffi::llmm_error_trigger_reset;
);

debug_fields!(
    ErrorTrigger,
    "max_share" = { max_share().ok() },
    "min_requests" = { min_requests().ok() }
);
