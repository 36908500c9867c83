//! SLO checks, goodput, error-budget burn rates and the error-share trigger.
//!
//! Latency bounds are in the unit the latencies were recorded in; time stamps and durations
//! are nanoseconds on the caller's monotonic clock, under the rules of [`Window`](crate::Window).

use std::fmt;
use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use llmmetrics_sys as ffi;

use crate::context::{self, Context};
use crate::error::{check, Result};
use crate::sketch::Sketch;

/// The verdict of an SLO check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SloResult {
    /// `latency_ok && errors_ok`.
    pub satisfied: bool,
    /// There was a success and `latency` ≤ the latency bound.
    pub latency_ok: bool,
    /// `error_rate` ≤ the error-rate bound.
    pub errors_ok: bool,
    /// Successful requests (the latencies' count).
    pub successes: u64,
    /// Failed requests.
    pub errors: u64,
    /// The quantile level checked.
    pub quantile: f64,
    /// That quantile of the successful latencies; +∞ without a success.
    pub latency: f64,
    /// `errors / (successes + errors)`; 0 without requests.
    pub error_rate: f64,
}

fn slo_result(call: impl FnOnce(*mut ffi::llmm_slo_result) -> ffi::llmm_status) -> Result<SloResult> {
    let mut r = MaybeUninit::<ffi::llmm_slo_result>::zeroed();
    // SAFETY: initialised by its _init call before the check fills it.
    let r = unsafe {
        check(ffi::llmm_slo_result_init(r.as_mut_ptr()))?;
        check(call(r.as_mut_ptr()))?;
        r.assume_init()
    };
    Ok(SloResult {
        satisfied: r.satisfied != 0,
        latency_ok: r.latency_ok != 0,
        errors_ok: r.errors_ok != 0,
        successes: r.successes,
        errors: r.errors,
        quantile: r.quantile,
        latency: r.latency,
        error_rate: r.error_rate,
    })
}

/// The online SLO check of SPEC.md §2: `p95 ≤ p95_max && errors / (successes + errors) ≤
/// err_max`, the successes being the latencies in `ok_latencies`.
///
/// ```
/// use llmmetrics::{slo_check, Sketch};
///
/// let mut ok = Sketch::new()?;
/// ok.add_many(&(1..=99).map(|i| f64::from(i) * 10.0).collect::<Vec<_>>())?; // 10 … 990 ms
/// let r = slo_check(&ok, 1, 1000.0, 0.01)?;     // 1 error in 100 requests meets 1 %
/// assert!(r.satisfied && r.error_rate == 0.01);
/// assert!(!slo_check(&ok, 2, 1000.0, 0.01)?.satisfied);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for a bound that is NaN, infinite or out of range; `Range` on count overflow.
pub fn slo_check(ok_latencies: &Sketch, errors: u64, p95_max: f64, err_max: f64) -> Result<SloResult> {
    // SAFETY: live sketch, only read; `r` from slo_result.
    slo_result(|r| unsafe { ffi::llmm_slo_check(ok_latencies.as_ptr(), errors, p95_max, err_max, r) })
}

/// The SLO check at any quantile level `q` in [0, 1].
pub fn slo_check_quantile(
    ok_latencies: &Sketch,
    errors: u64,
    q: f64,
    latency_max: f64,
    err_max: f64,
) -> Result<SloResult> {
    // SAFETY: live sketch, only read; `r` from slo_result.
    slo_result(|r| unsafe {
        ffi::llmm_slo_check_quantile(ok_latencies.as_ptr(), errors, q, latency_max, err_max, r)
    })
}

/// Successful latencies and error counts over a time ring (`llmm_slo_window`); a check over a
/// span gives exactly the verdict of [`slo_check_quantile`] on the requests of its slots.
///
/// ```
/// use llmmetrics::SloWindow;
///
/// const S: u64 = 1_000_000_000;
/// let mut w = SloWindow::new(S, 60, 6)?;
/// for i in 0..19u64 {
///     w.add(i * S, 0.200)?;            // 19 fast successes
/// }
/// w.add_errors(19 * S, 1)?;            // and one failure
/// let r = w.check(19 * S, 60 * S, 0.95, 0.250, 0.05)?;
/// assert!(r.satisfied);
/// assert_eq!((r.successes, r.errors, r.error_rate), (19, 1, 0.05));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub struct SloWindow {
    ptr: NonNull<ffi::llmm_slo_window>,
    _ctx: Option<Context>,
}

// SAFETY: every call takes `&mut self` (checks advance the clock).
unsafe impl Send for SloWindow {}
unsafe impl Sync for SloWindow {}

impl SloWindow {
    /// A window of `slots` slots of `slot_ns` (0 for 60 × 1 s) with sketches of `scale`.
    pub fn new(slot_ns: u64, slots: u32, scale: i32) -> Result<SloWindow> {
        SloWindow::create(None, slot_ns, slots, scale)
    }

    /// As [`new`](SloWindow::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context, slot_ns: u64, slots: u32, scale: i32) -> Result<SloWindow> {
        SloWindow::create(Some(ctx), slot_ns, slots, scale)
    }

    fn create(ctx: Option<&Context>, slot_ns: u64, slots: u32, scale: i32) -> Result<SloWindow> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_slo_window_new(context::raw(ctx), slot_ns, slots, scale, &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_slo_window_new returned LLMM_OK and NULL");
        Ok(SloWindow { ptr, _ctx: ctx.cloned() })
    }

    /// Record a successful request and its latency at `now_ns`.
    pub fn add(&mut self, now_ns: u64, latency: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_add(self.ptr.as_ptr(), now_ns, latency) })
    }

    /// Record `errors` failed requests at `now_ns`.
    pub fn add_errors(&mut self, now_ns: u64, errors: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_add_errors(self.ptr.as_ptr(), now_ns, errors) })
    }

    /// The SLO check over the slots the span covers (q = 0.95 for SPEC.md §2).
    pub fn check(
        &mut self,
        now_ns: u64,
        span_ns: u64,
        q: f64,
        latency_max: f64,
        err_max: f64,
    ) -> Result<SloResult> {
        let w = self.ptr.as_ptr();
        // SAFETY: live handle, exclusive borrow; `r` from slo_result.
        slo_result(|r| unsafe { ffi::llmm_slo_window_check(w, now_ns, span_ns, q, latency_max, err_max, r) })
    }

    /// Forget every request and the clock.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_reset(self.ptr.as_ptr()) })
    }
}

impl Drop for SloWindow {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed once.
        unsafe { ffi::llmm_slo_window_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for SloWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SloWindow").field("ptr", &self.ptr).finish()
    }
}

/// vLLM's per-request time per output token: `(e2e − ttft) / (output_tokens − 1)`, 0 for at
/// most one token.
pub fn goodput_tpot(e2e: f64, ttft: f64, output_tokens: u64) -> Result<f64> {
    let mut t = 0.0;
    // SAFETY: valid out-pointer.
    check(unsafe { ffi::llmm_goodput_tpot(e2e, ttft, output_tokens, &mut t) })?;
    Ok(t)
}

/// Per-request SLO bounds of a [`Goodput`] counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoodputBound {
    /// Time to first token.
    TtftMax = 1,
    /// Time per output token.
    TpotMax = 2,
    /// End-to-end latency.
    E2eMax = 3,
}

/// Goodput over the requests counted, see [`Goodput::read`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoodputResult {
    /// All requests: completed + failed.
    pub requests: u64,
    /// Requests that completed successfully.
    pub completed: u64,
    /// Completed requests meeting every SLO given.
    pub good: u64,
    /// `good / requests`.
    pub fraction: f64,
    /// Good requests per second of the duration (vLLM's `request_goodput`).
    pub rate_per_s: f64,
    /// Completed requests per second (vLLM's `request_throughput`).
    pub throughput_per_s: f64,
}

/// Goodput as vLLM's benchmark defines it (`llmm_goodput`): a request is good when it
/// completed and meets every per-request bound set (`value ≤ bound`).
///
/// ```
/// use llmmetrics::{Goodput, GoodputBound};
///
/// let mut g = Goodput::new()?;
/// g.set_bound(GoodputBound::TtftMax, 0.5)?;
/// assert!(g.observe(0.2, 0.01, 1.0)?);
/// assert!(!g.observe(0.7, 0.01, 1.0)?);   // TTFT too slow
/// g.add_failures(2)?;
/// let r = g.read(2_000_000_000)?;          // over 2 s
/// assert_eq!((r.requests, r.completed, r.good), (4, 2, 1));
/// assert_eq!((r.fraction, r.rate_per_s), (0.25, 0.5));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub struct Goodput {
    ptr: NonNull<ffi::llmm_goodput>,
    _ctx: Option<Context>,
}

// SAFETY: writers take `&mut self`; `bound` and `read` only read.
unsafe impl Send for Goodput {}
unsafe impl Sync for Goodput {}

impl Goodput {
    /// A counter with no bound set (every completed request is good).
    pub fn new() -> Result<Goodput> {
        Goodput::create(None)
    }

    /// As [`new`](Goodput::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context) -> Result<Goodput> {
        Goodput::create(Some(ctx))
    }

    fn create(ctx: Option<&Context>) -> Result<Goodput> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_goodput_new(context::raw(ctx), &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_goodput_new returned LLMM_OK and NULL");
        Ok(Goodput { ptr, _ctx: ctx.cloned() })
    }

    /// Set a bound (finite ≥ 0, or +∞ for "not checked"); only before any request is counted.
    ///
    /// # Errors
    /// `Invalid` for NaN; `Range` for a negative bound; `State` once requests were counted.
    pub fn set_bound(&mut self, which: GoodputBound, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_set_f64(self.ptr.as_ptr(), which as ffi::llmm_goodput_option, value) })
    }

    /// A bound (+∞ when not checked).
    pub fn bound(&self, which: GoodputBound) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_goodput_get_f64(self.ptr.as_ptr(), which as ffi::llmm_goodput_option, &mut v) })?;
        Ok(v)
    }

    /// Count one completed request; returns whether it is good.
    pub fn observe(&mut self, ttft: f64, tpot: f64, e2e: f64) -> Result<bool> {
        let mut good = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_observe(self.ptr.as_ptr(), ttft, tpot, e2e, &mut good) })?;
        Ok(good != 0)
    }

    /// Count `n` failed requests.
    pub fn add_failures(&mut self, n: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_add_failures(self.ptr.as_ptr(), n) })
    }

    /// Goodput as a fraction and as a rate over `duration_ns` (> 0).
    ///
    /// # Errors
    /// `Empty` when no request was counted.
    pub fn read(&self, duration_ns: u64) -> Result<GoodputResult> {
        let mut r = MaybeUninit::<ffi::llmm_goodput_result>::zeroed();
        // SAFETY: initialised by its _init call before the read fills it.
        let r = unsafe {
            check(ffi::llmm_goodput_result_init(r.as_mut_ptr()))?;
            check(ffi::llmm_goodput_read(self.ptr.as_ptr(), duration_ns, r.as_mut_ptr()))?;
            r.assume_init()
        };
        Ok(GoodputResult {
            requests: r.requests,
            completed: r.completed,
            good: r.good,
            fraction: r.fraction,
            rate_per_s: r.rate_per_s,
            throughput_per_s: r.throughput_per_s,
        })
    }

    /// Forget the counts; the bounds stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_reset(self.ptr.as_ptr()) })
    }
}

impl Drop for Goodput {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed once.
        unsafe { ffi::llmm_goodput_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Goodput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Goodput")
            .field("ttft_max", &self.bound(GoodputBound::TtftMax).ok())
            .field("tpot_max", &self.bound(GoodputBound::TpotMax).ok())
            .field("e2e_max", &self.bound(GoodputBound::E2eMax).ok())
            .finish()
    }
}

/// Burn rate `error_rate / (1 − slo_target)`.
///
/// ```
/// let b = llmmetrics::burn_rate(0.0144, 0.999)?;
/// assert!((b - 14.4).abs() < 1e-9);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn burn_rate(error_rate: f64, slo_target: f64) -> Result<f64> {
    let mut b = 0.0;
    // SAFETY: valid out-pointer.
    check(unsafe { ffi::llmm_burn_rate(error_rate, slo_target, &mut b) })?;
    Ok(b)
}

/// Share of a period's error budget that a window burning at `burn_rate` spends:
/// `burn_rate · window / period`.
pub fn burn_budget_spent(burn_rate: f64, window_ns: u64, period_ns: u64) -> Result<f64> {
    let mut s = 0.0;
    // SAFETY: valid out-pointer.
    check(unsafe { ffi::llmm_burn_budget_spent(burn_rate, window_ns, period_ns, &mut s) })?;
    Ok(s)
}

/// Slot length of a [`BurnAlerter`] when 0 is given: ten seconds.
pub const BURN_SLOT_NS_DEFAULT: u64 = ffi::LLMM_BURN_SLOT_NS_DEFAULT;

/// The four windows of a [`BurnResult`], in array order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnWindow {
    /// Fast alert, long window (default 1 h).
    FastLong = 0,
    /// Fast alert, short window (default 5 min).
    FastShort = 1,
    /// Slow alert, long window (default 6 h).
    SlowLong = 2,
    /// Slow alert, short window (default 30 min).
    SlowShort = 3,
}

/// Floating-point options of a [`BurnAlerter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnF64 {
    /// The SLO target T, in (0, 1).
    SloTarget = 1,
    /// The fast alert's factor (default 14.4).
    FastFactor = 2,
    /// The slow alert's factor (default 6).
    SlowFactor = 3,
}

/// Window-length options of a [`BurnAlerter`], in ns (short ≤ long ≤ the ring).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BurnU64 {
    /// Fast alert, long window (default 1 h).
    FastLongNs = 4,
    /// Fast alert, short window (default 5 min).
    FastShortNs = 5,
    /// Slow alert, long window (default 6 h).
    SlowLongNs = 6,
    /// Slow alert, short window (default 30 min).
    SlowShortNs = 7,
}

/// Burn rates and alerts at a time stamp; arrays indexed by [`BurnWindow`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurnResult {
    /// Both fast windows burn faster than the fast factor.
    pub fast_alert: bool,
    /// Both slow windows burn faster than the slow factor.
    pub slow_alert: bool,
    /// Requests counted in each window.
    pub requests: [u64; 4],
    /// Failed requests in each window.
    pub errors: [u64; 4],
    /// `errors / requests` (0 for an idle window).
    pub error_rate: [f64; 4],
    /// `error_rate / (1 − T)`.
    pub burn_rate: [f64; 4],
}

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
pub struct BurnAlerter {
    ptr: NonNull<ffi::llmm_burn>,
    _ctx: Option<Context>,
}

// SAFETY: writers and clock-advancing calls take `&mut self`; option reads only read.
unsafe impl Send for BurnAlerter {}
unsafe impl Sync for BurnAlerter {}

impl BurnAlerter {
    /// An alerter for `slo_target` (e.g. 0.999) on `slots` slots of `slot_ns` (0, 0: 10 s
    /// slots, just enough for the 6 h window).
    ///
    /// # Errors
    /// `Invalid` for NaN; `Range` for a target outside (0, 1) or a ring shorter than 6 h.
    pub fn new(slo_target: f64, slot_ns: u64, slots: u32) -> Result<BurnAlerter> {
        BurnAlerter::create(None, slo_target, slot_ns, slots)
    }

    /// As [`new`](BurnAlerter::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context, slo_target: f64, slot_ns: u64, slots: u32) -> Result<BurnAlerter> {
        BurnAlerter::create(Some(ctx), slo_target, slot_ns, slots)
    }

    fn create(ctx: Option<&Context>, slo_target: f64, slot_ns: u64, slots: u32) -> Result<BurnAlerter> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_burn_new(context::raw(ctx), slo_target, slot_ns, slots, &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_burn_new returned LLMM_OK and NULL");
        Ok(BurnAlerter { ptr, _ctx: ctx.cloned() })
    }

    /// Set the SLO target or a factor.
    pub fn set_f64(&mut self, key: BurnF64, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_burn_set_f64(self.ptr.as_ptr(), key as ffi::llmm_burn_option, value) })
    }

    /// Read the SLO target or a factor.
    pub fn get_f64(&self, key: BurnF64) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_burn_get_f64(self.ptr.as_ptr(), key as ffi::llmm_burn_option, &mut v) })?;
        Ok(v)
    }

    /// Set a window length (keep short ≤ long at every step).
    pub fn set_u64(&mut self, key: BurnU64, value: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_burn_set_u64(self.ptr.as_ptr(), key as ffi::llmm_burn_option, value) })
    }

    /// Read a window length.
    pub fn get_u64(&self, key: BurnU64) -> Result<u64> {
        let mut v = 0;
        // SAFETY: live handle; read-only call.
        check(unsafe { ffi::llmm_burn_get_u64(self.ptr.as_ptr(), key as ffi::llmm_burn_option, &mut v) })?;
        Ok(v)
    }

    /// Count `errors` failed requests of `requests` at `now_ns`.
    pub fn add(&mut self, now_ns: u64, errors: u64, requests: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_burn_add(self.ptr.as_ptr(), now_ns, errors, requests) })
    }

    /// Burn rates of the four windows at `now_ns` and the two alerts.
    pub fn evaluate(&mut self, now_ns: u64) -> Result<BurnResult> {
        let mut r = MaybeUninit::<ffi::llmm_burn_result>::zeroed();
        // SAFETY: initialised by its _init call before the evaluation fills it.
        let r = unsafe {
            check(ffi::llmm_burn_result_init(r.as_mut_ptr()))?;
            check(ffi::llmm_burn_evaluate(self.ptr.as_ptr(), now_ns, r.as_mut_ptr()))?;
            r.assume_init()
        };
        Ok(BurnResult {
            fast_alert: r.fast_alert != 0,
            slow_alert: r.slow_alert != 0,
            requests: r.requests,
            errors: r.errors,
            error_rate: r.error_rate,
            burn_rate: r.burn_rate,
        })
    }

    /// Forget every count and the clock; the options stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_burn_reset(self.ptr.as_ptr()) })
    }
}

impl Drop for BurnAlerter {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed once.
        unsafe { ffi::llmm_burn_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for BurnAlerter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BurnAlerter").field("slo_target", &self.get_f64(BurnF64::SloTarget).ok()).finish()
    }
}

/// Window of an [`ErrorTrigger`] when 0 is given: five minutes.
pub const ERROR_TRIGGER_WINDOW_NS_DEFAULT: u64 = ffi::LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT;
/// Default failed-share threshold of an [`ErrorTrigger`]: 5 %.
pub const ERROR_TRIGGER_MAX_SHARE_DEFAULT: f64 = ffi::LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT;

/// What an [`ErrorTrigger`] reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorTriggerReading {
    /// `share` > the threshold and `requests` ≥ the minimum.
    pub fired: bool,
    /// Failed requests in the window.
    pub errors: u64,
    /// All requests in the window.
    pub requests: u64,
    /// `errors / requests`.
    pub share: f64,
}

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
pub struct ErrorTrigger {
    ptr: NonNull<ffi::llmm_error_trigger>,
    _ctx: Option<Context>,
}

// SAFETY: writers and clock-advancing calls take `&mut self`; option reads only read.
unsafe impl Send for ErrorTrigger {}
unsafe impl Sync for ErrorTrigger {}

impl ErrorTrigger {
    /// A trigger over `window_ns` (0 for five minutes) with threshold 5 % and minimum 1.
    pub fn new(window_ns: u64) -> Result<ErrorTrigger> {
        ErrorTrigger::create(None, window_ns)
    }

    /// As [`new`](ErrorTrigger::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context, window_ns: u64) -> Result<ErrorTrigger> {
        ErrorTrigger::create(Some(ctx), window_ns)
    }

    fn create(ctx: Option<&Context>, window_ns: u64) -> Result<ErrorTrigger> {
        let mut out = ptr::null_mut();
        // SAFETY: context NULL or live; valid out-pointer.
        check(unsafe { ffi::llmm_error_trigger_new(context::raw(ctx), window_ns, &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_error_trigger_new returned LLMM_OK and NULL");
        Ok(ErrorTrigger { ptr, _ctx: ctx.cloned() })
    }

    /// Set the failed-share threshold, in [0, 1].
    pub fn set_max_share(&mut self, share: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_error_trigger_set_f64(self.ptr.as_ptr(), ffi::LLMM_ERROR_TRIGGER_MAX_SHARE, share)
        })
    }

    /// The failed-share threshold.
    pub fn max_share(&self) -> Result<f64> {
        let mut v = 0.0;
        // SAFETY: live handle; read-only call.
        check(unsafe {
            ffi::llmm_error_trigger_get_f64(self.ptr.as_ptr(), ffi::LLMM_ERROR_TRIGGER_MAX_SHARE, &mut v)
        })?;
        Ok(v)
    }

    /// Set the minimum number of requests in the window (≥ 1) for the trigger to fire.
    pub fn set_min_requests(&mut self, n: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_error_trigger_set_u64(self.ptr.as_ptr(), ffi::LLMM_ERROR_TRIGGER_MIN_REQUESTS, n)
        })
    }

    /// The minimum number of requests.
    pub fn min_requests(&self) -> Result<u64> {
        let mut v = 0;
        // SAFETY: live handle; read-only call.
        check(unsafe {
            ffi::llmm_error_trigger_get_u64(self.ptr.as_ptr(), ffi::LLMM_ERROR_TRIGGER_MIN_REQUESTS, &mut v)
        })?;
        Ok(v)
    }

    /// Count `errors` failed requests of `requests` at `now_ns`.
    pub fn add(&mut self, now_ns: u64, errors: u64, requests: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_error_trigger_add(self.ptr.as_ptr(), now_ns, errors, requests) })
    }

    /// The failed share over the window ending at `now_ns` and whether it fires.
    ///
    /// # Errors
    /// `Empty` when the window holds no request.
    pub fn check(&mut self, now_ns: u64) -> Result<ErrorTriggerReading> {
        let mut r = MaybeUninit::<ffi::llmm_error_trigger_reading>::zeroed();
        // SAFETY: initialised by its _init call before the check fills it.
        let r = unsafe {
            check(ffi::llmm_error_trigger_reading_init(r.as_mut_ptr()))?;
            check(ffi::llmm_error_trigger_check(self.ptr.as_ptr(), now_ns, r.as_mut_ptr()))?;
            r.assume_init()
        };
        Ok(ErrorTriggerReading { fired: r.fired != 0, errors: r.errors, requests: r.requests, share: r.share })
    }

    /// Forget every count and the clock; the options stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_error_trigger_reset(self.ptr.as_ptr()) })
    }
}

impl Drop for ErrorTrigger {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed once.
        unsafe { ffi::llmm_error_trigger_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for ErrorTrigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorTrigger")
            .field("max_share", &self.max_share().ok())
            .field("min_requests", &self.min_requests().ok())
            .finish()
    }
}
