//! SLO checks, goodput, error-budget burn rates and the error-share trigger.
//!
//! Latency bounds are in the unit the latencies were recorded in; time stamps and durations
//! are nanoseconds on the caller's monotonic clock, under the rules of [`Window`](crate::Window).

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::{FromC, Owned};
use crate::sized;
use crate::sketch::Sketch;

readings! {
/// The verdict of an SLO check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SloResult <- ffi::llmm_slo_result {
    /// `latency_ok && errors_ok`.
    satisfied: bool,
    /// There was a success and `latency` ≤ the latency bound.
    latency_ok: bool,
    /// `error_rate` ≤ the error-rate bound.
    errors_ok: bool,
    /// Successful requests (the latencies' count).
    successes: u64,
    /// Failed requests.
    errors: u64,
    /// The quantile level checked.
    quantile: f64,
    /// That quantile of the successful latencies; +∞ without a success.
    latency: f64,
    /// `errors / (successes + errors)`; 0 without requests.
    error_rate: f64,
}
}

fn slo_result(
    call: impl FnOnce(*mut ffi::llmm_slo_result) -> ffi::llmm_status,
) -> Result<SloResult> {
    sized::read(call).map(FromC::from_c)
}

/// The online SLO check of doc/spec.md §2: `p95 ≤ p95_max && errors / (successes + errors) ≤
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
pub fn slo_check(
    ok_latencies: &Sketch,
    errors: u64,
    p95_max: f64,
    err_max: f64,
) -> Result<SloResult> {
    // SAFETY: live sketch, only read; `r` from slo_result.
    slo_result(|r| unsafe {
        ffi::llmm_slo_check(ok_latencies.as_ptr(), errors, p95_max, err_max, r)
    })
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

constructors!(
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
    pub struct SloWindow(ffi::llmm_slo_window) = ffi::llmm_slo_window_new;
    /// A window of `slots` slots of `slot_ns` (0 for 60 × 1 s) with sketches of `scale`.
    (slot_ns: u64, slots: u32, scale: i32));

calls!(SloWindow;
    /// Record a successful request and its latency at `now_ns`.
    fn add(&mut self, now_ns: u64, latency: f64) = ffi::llmm_slo_window_add;
    /// Record `errors` failed requests at `now_ns`.
    fn add_errors(&mut self, now_ns: u64, errors: u64) = ffi::llmm_slo_window_add_errors;
    /// The SLO check over the slots the span covers (q = 0.95 for doc/spec.md §2).
    fn check(&mut self, now_ns: u64, span_ns: u64, q: f64, latency_max: f64, err_max: f64)
        -> SloResult = read ffi::llmm_slo_window_check;
    /// Forget every request and the clock.
    fn reset(&mut self) = ffi::llmm_slo_window_reset;
);

debug_fields!(SloWindow, "ptr" = { raw.ptr() });

value_fns! {
/// vLLM's per-request time per output token: `(e2e − ttft) / (output_tokens − 1)`, 0 for at
/// most one token.
fn goodput_tpot(e2e: f64, ttft: f64, output_tokens: u64) -> f64 = ffi::llmm_goodput_tpot;
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

readings! {
/// Goodput over the requests counted, see [`Goodput::read`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoodputResult <- ffi::llmm_goodput_result {
    /// All requests: completed + failed.
    requests: u64,
    /// Requests that completed successfully.
    completed: u64,
    /// Completed requests meeting every SLO given.
    good: u64,
    /// `good / requests`.
    fraction: f64,
    /// Good requests per second of the duration (vLLM's `request_goodput`).
    rate_per_s: f64,
    /// Completed requests per second (vLLM's `request_throughput`).
    throughput_per_s: f64,
}
}

constructors!(
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
    pub struct Goodput(ffi::llmm_goodput) = ffi::llmm_goodput_new;
    /// A counter with no bound set (every completed request is good).
    ());

option_calls!(Goodput;
    /// Set a bound (finite ≥ 0, or +∞ for "not checked"); only before any request is counted.
    ///
    /// # Errors
    /// `Invalid` for NaN; `Range` for a negative bound; `State` once requests were counted.
    fn set_bound(which: GoodputBound as ffi::llmm_goodput_option, value: f64) = ffi::llmm_goodput_set_f64;
    /// A bound (+∞ when not checked).
    fn bound(which: GoodputBound as ffi::llmm_goodput_option) -> f64 = ffi::llmm_goodput_get_f64;
);

calls!(Goodput;
    /// Count one completed request; returns whether it is good.
    fn observe(&mut self, ttft: f64, tpot: f64, e2e: f64) -> bool = flag ffi::llmm_goodput_observe;
    /// Count `n` failed requests.
    fn add_failures(&mut self, n: u64) = ffi::llmm_goodput_add_failures;
    /// Goodput as a fraction and as a rate over `duration_ns` (> 0).
    ///
    /// # Errors
    /// `Empty` when no request was counted.
    fn read(&self, duration_ns: u64) -> GoodputResult = read ffi::llmm_goodput_read;
    /// Forget the counts; the bounds stay.
    fn reset(&mut self) = ffi::llmm_goodput_reset;
);

debug_fields!(
    Goodput,
    "ttft_max" = { bound(GoodputBound::TtftMax).ok() },
    "tpot_max" = { bound(GoodputBound::TpotMax).ok() },
    "e2e_max" = { bound(GoodputBound::E2eMax).ok() }
);
