//! SLO checks, goodput, error-budget burn rates and the error-share trigger.
//!
//! Latency bounds are in the unit the latencies were recorded in; time stamps and durations
//! are nanoseconds on the caller's monotonic clock, under the rules of [`Window`](crate::Window).

use std::fmt;

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::{get, Owned};
use crate::sized;
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

fn slo_result(
    call: impl FnOnce(*mut ffi::llmm_slo_result) -> ffi::llmm_status,
) -> Result<SloResult> {
    let r = sized::read(call)?;
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
    raw: Owned<ffi::llmm_slo_window>,
}

constructors!(SloWindow = ffi::llmm_slo_window_new;
    /// A window of `slots` slots of `slot_ns` (0 for 60 × 1 s) with sketches of `scale`.
    (slot_ns: u64, slots: u32, scale: i32));

impl SloWindow {
    /// Record a successful request and its latency at `now_ns`.
    pub fn add(&mut self, now_ns: u64, latency: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_add(self.raw.ptr(), now_ns, latency) })
    }

    /// Record `errors` failed requests at `now_ns`.
    pub fn add_errors(&mut self, now_ns: u64, errors: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_add_errors(self.raw.ptr(), now_ns, errors) })
    }

    /// The SLO check over the slots the span covers (q = 0.95 for doc/spec.md §2).
    pub fn check(
        &mut self,
        now_ns: u64,
        span_ns: u64,
        q: f64,
        latency_max: f64,
        err_max: f64,
    ) -> Result<SloResult> {
        let w = self.raw.ptr();
        // SAFETY: live handle, exclusive borrow; `r` from slo_result.
        slo_result(|r| unsafe {
            ffi::llmm_slo_window_check(w, now_ns, span_ns, q, latency_max, err_max, r)
        })
    }

    /// Forget every request and the clock.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_slo_window_reset(self.raw.ptr()) })
    }
}

impl fmt::Debug for SloWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SloWindow").field("ptr", &self.raw.ptr()).finish()
    }
}

/// vLLM's per-request time per output token: `(e2e − ttft) / (output_tokens − 1)`, 0 for at
/// most one token.
pub fn goodput_tpot(e2e: f64, ttft: f64, output_tokens: u64) -> Result<f64> {
    // SAFETY: valid out-pointer.
    get(|t| unsafe { ffi::llmm_goodput_tpot(e2e, ttft, output_tokens, t) })
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
    raw: Owned<ffi::llmm_goodput>,
}

constructors!(Goodput = ffi::llmm_goodput_new;
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

impl Goodput {
    /// Count one completed request; returns whether it is good.
    pub fn observe(&mut self, ttft: f64, tpot: f64, e2e: f64) -> Result<bool> {
        let mut good = 0;
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_observe(self.raw.ptr(), ttft, tpot, e2e, &mut good) })?;
        Ok(good != 0)
    }

    /// Count `n` failed requests.
    pub fn add_failures(&mut self, n: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_goodput_add_failures(self.raw.ptr(), n) })
    }

    /// Goodput as a fraction and as a rate over `duration_ns` (> 0).
    ///
    /// # Errors
    /// `Empty` when no request was counted.
    pub fn read(&self, duration_ns: u64) -> Result<GoodputResult> {
        // SAFETY: live handle; sized::read sets the struct up.
        let r = sized::read(|r| unsafe { ffi::llmm_goodput_read(self.raw.ptr(), duration_ns, r) })?;
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
        check(unsafe { ffi::llmm_goodput_reset(self.raw.ptr()) })
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
