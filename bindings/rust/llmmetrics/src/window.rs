//! Time rings of sketches and of ratio counters, driven by the caller's clock.

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::{get, Owned};
use crate::sketch::{Sketch, SCALE_DEFAULT};

/// Slot length used when 0 is given: one second.
pub const WINDOW_SLOT_NS_DEFAULT: u64 = ffi::LLMM_WINDOW_SLOT_NS_DEFAULT;
/// Slot count used when 0 is given.
pub const WINDOW_SLOTS_DEFAULT: u32 = ffi::LLMM_WINDOW_SLOTS_DEFAULT;
/// Largest slot count.
pub const WINDOW_SLOTS_MAX: u32 = ffi::LLMM_WINDOW_SLOTS_MAX;

/// A ring of per-slot quantile sketches (`llmm_window`).
///
/// Slot `k` covers the time stamps `[k·slot_ns, (k+1)·slot_ns)`; the ring holds the current
/// slot and the `slots − 1` before it. A query over `span_ns` covers the current slot and the
/// ones before it, `ceil(span_ns / slot_ns)` in all. Time stamps are the caller's (any
/// monotonic nanosecond clock, e.g. [`now_ns`](crate::now_ns)) and may never go backwards:
/// a call with an earlier time stamp than one accepted before fails with `Invalid`.
///
/// ```
/// use llmmetrics::Window;
///
/// const S: u64 = 1_000_000_000;
/// let mut w = Window::new(S, 60)?;                // 60 slots of one second
/// w.add_many(10 * S, &[0.1, 0.2, 0.3])?;
/// w.add(11 * S, 0.9)?;
/// assert_eq!(w.count(11 * S, S)?, 1);            // the current slot only
/// assert_eq!(w.count(11 * S, 2 * S)?, 4);        // and the one before
/// assert_eq!(w.quantile(11 * S, 60 * S, 1.0)?, 0.9);
/// assert_eq!(w.count(70 * S, 60 * S)?, 1);       // slots 11 ..= 70: slot 10 has expired
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// Queries advance the window's clock and use internal scratch space, so they take
/// `&mut self` like the writers; `Window` is `Send + Sync`.
pub struct Window {
    raw: Owned<ffi::llmm_window>,
}

impl Window {
    /// A window of `slots` slots of `slot_ns` nanoseconds (0 for the defaults: 60 × 1 s) at
    /// the default sketch scale.
    ///
    /// # Errors
    /// `Invalid` for more than [`WINDOW_SLOTS_MAX`] slots or a ring longer than 2^64 ns.
    pub fn new(slot_ns: u64, slots: u32) -> Result<Window> {
        Window::create(None, slot_ns, slots, SCALE_DEFAULT)
    }

    /// As [`new`](Window::new) with a sketch scale and an optional context.
    pub fn with_options(
        ctx: Option<&Context>,
        slot_ns: u64,
        slots: u32,
        scale: i32,
    ) -> Result<Window> {
        Window::create(ctx, slot_ns, slots, scale)
    }

    fn create(ctx: Option<&Context>, slot_ns: u64, slots: u32, scale: i32) -> Result<Window> {
        // SAFETY: context NULL or live; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe {
            ffi::llmm_window_new(c, slot_ns, slots, scale, out)
        })?;
        Ok(Window { raw })
    }

    /// `(slot_ns, slots)` with the defaults resolved.
    pub fn geometry(&self) -> (u64, u32) {
        let (mut slot_ns, mut slots) = (0, 0);
        // SAFETY: live handle; read-only call, fails only for NULL.
        let st = unsafe { ffi::llmm_window_geometry(self.raw.ptr(), &mut slot_ns, &mut slots) };
        debug_assert_eq!(st, ffi::LLMM_OK);
        (slot_ns, slots)
    }

    /// Record one value (finite, ≥ 0) at `now_ns`.
    pub fn add(&mut self, now_ns: u64, v: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_window_add(self.raw.ptr(), now_ns, v) })
    }

    /// Record a batch at `now_ns`, all or nothing.
    pub fn add_many(&mut self, now_ns: u64, values: &[f64]) -> Result<()> {
        // SAFETY: live handle; slice valid for `len` reads.
        check(unsafe {
            ffi::llmm_window_add_many(self.raw.ptr(), now_ns, values.as_ptr(), values.len())
        })
    }

    /// Number of values in the slots the span covers.
    ///
    /// # Errors
    /// `Invalid` for a zero span or time going backwards; `Range` for a span longer than the
    /// ring.
    pub fn count(&mut self, now_ns: u64, span_ns: u64) -> Result<u64> {
        // SAFETY: live handle, exclusive borrow.
        get(|n| unsafe { ffi::llmm_window_count(self.raw.ptr(), now_ns, span_ns, n) })
    }

    /// Quantile `q` over the span (exact merge of its slots, the sketch's relative error).
    ///
    /// # Errors
    /// As [`count`](Window::count); `Empty` when the span holds no values.
    pub fn quantile(&mut self, now_ns: u64, span_ns: u64, q: f64) -> Result<f64> {
        // SAFETY: live handle, exclusive borrow.
        get(|out| unsafe { ffi::llmm_window_quantile(self.raw.ptr(), now_ns, span_ns, q, out) })
    }

    /// Many quantiles over the span in one merge.
    pub fn quantiles(&mut self, now_ns: u64, span_ns: u64, qs: &[f64]) -> Result<Vec<f64>> {
        let mut out = vec![0.0; qs.len()];
        self.quantiles_into(now_ns, span_ns, qs, &mut out)?;
        Ok(out)
    }

    /// Many quantiles into a slice of the same length as `qs`.
    pub fn quantiles_into(
        &mut self,
        now_ns: u64,
        span_ns: u64,
        qs: &[f64],
        out: &mut [f64],
    ) -> Result<()> {
        if out.len() != qs.len() {
            return Err(Error::invalid());
        }
        // SAFETY: live handle; `qs` readable and `out` writable for `len` elements.
        check(unsafe {
            ffi::llmm_window_quantiles(
                self.raw.ptr(),
                now_ns,
                span_ns,
                qs.as_ptr(),
                qs.len(),
                out.as_mut_ptr(),
            )
        })
    }

    /// The exact merge of the slots the span covers, as a new sketch.
    pub fn snapshot(&mut self, now_ns: u64, span_ns: u64) -> Result<Sketch> {
        let mut s = Sketch::create(self.raw.context(), SCALE_DEFAULT)?;
        self.snapshot_into(now_ns, span_ns, &mut s)?;
        Ok(s)
    }

    /// The exact merge of the slots the span covers, replacing `into`'s contents, scale and
    /// range (its context stays).
    pub fn snapshot_into(&mut self, now_ns: u64, span_ns: u64, into: &mut Sketch) -> Result<()> {
        // SAFETY: live handles, both borrowed exclusively.
        check(unsafe {
            ffi::llmm_window_snapshot(self.raw.ptr(), now_ns, span_ns, into.as_mut_ptr())
        })
    }

    /// Forget every value and the clock; memory is kept.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_window_reset(self.raw.ptr()) })
    }
}

debug_fields!(Window, "geometry" = { geometry() });

constructors!(
    /// A time ring of (events, total) counters: errors / requests, misses / accesses, hits /
    /// lookups (`llmm_ratio_window`). Same slot, span and clock rules as [`Window`].
    ///
    /// ```
    /// use llmmetrics::RatioWindow;
    ///
    /// const S: u64 = 1_000_000_000;
    /// let mut errors = RatioWindow::new(S, 60)?;
    /// errors.add(5 * S, 1, 1)?;      // a failed request
    /// errors.add(5 * S, 0, 3)?;      // three good ones
    /// assert_eq!(errors.counts(6 * S, 60 * S)?, (1, 4));
    /// assert_eq!(errors.ratio(6 * S, 60 * S)?, 0.25);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct RatioWindow(ffi::llmm_ratio_window) = ffi::llmm_ratio_window_new;
    /// A ratio window of `slots` slots of `slot_ns` nanoseconds (0 for the defaults).
    (slot_ns: u64, slots: u32));

impl RatioWindow {
    /// Count `events` out of `total` at `now_ns`.
    ///
    /// # Errors
    /// `Invalid` for `events > total` or time going backwards; `Range` on counter overflow.
    pub fn add(&mut self, now_ns: u64, events: u64, total: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_ratio_window_add(self.raw.ptr(), now_ns, events, total) })
    }

    /// `(events, total)` summed over the span.
    pub fn counts(&mut self, now_ns: u64, span_ns: u64) -> Result<(u64, u64)> {
        let (mut e, mut t) = (0, 0);
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_ratio_window_counts(self.raw.ptr(), now_ns, span_ns, &mut e, &mut t)
        })?;
        Ok((e, t))
    }

    /// `events / total` over the span.
    ///
    /// # Errors
    /// `Empty` when the total over the span is 0.
    pub fn ratio(&mut self, now_ns: u64, span_ns: u64) -> Result<f64> {
        // SAFETY: live handle, exclusive borrow.
        get(|r| unsafe { ffi::llmm_ratio_window_ratio(self.raw.ptr(), now_ns, span_ns, r) })
    }

    /// Forget every count and the clock.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_ratio_window_reset(self.raw.ptr()) })
    }
}

debug_fields!(RatioWindow, "ptr" = { raw.ptr() });
