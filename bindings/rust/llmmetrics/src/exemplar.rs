//! Exemplars (the trace of a request, beside its sketch) and W3C trace context.

use std::fmt;
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::export::{c_opt, c_string, opt_ptr, PromFormat};
use crate::object::Owned;

/// Which exemplar a slot keeps (`llmm_exemplar_keep`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExemplarKeep {
    /// The one with the latest time.
    Latest = 0,
    /// The largest since the last [`Exemplars::roll`].
    Max = 1,
}

/// One exemplar: a value and the trace it came from. Zero ids mean absent; the time is
/// wall-clock Unix nanoseconds (0: none); `labels` a preformatted list under 64 bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exemplar {
    /// The value, in the recorded unit.
    pub value: f64,
    /// Trace id.
    pub trace_id: [u8; 16],
    /// Span id.
    pub span_id: [u8; 8],
    /// Wall-clock time, Unix nanoseconds.
    pub time_unix_nano: u64,
    /// Extra labels (preformatted), or empty.
    pub labels: String,
}

pub(crate) fn to_c(e: &Exemplar) -> Result<ffi::llmm_exemplar> {
    let mut c: ffi::llmm_exemplar = crate::sized::try_defaults()?;
    let lab = e.labels.as_bytes();
    if lab.len() >= c.labels.len() || lab.contains(&0) {
        return Err(Error::invalid());
    }
    for (d, s) in c.labels.iter_mut().zip(lab) {
        *d = *s as ffi::c_char;
    }
    c.value = e.value;
    c.time_unix_nano = e.time_unix_nano;
    c.trace_id = e.trace_id;
    c.span_id = e.span_id;
    Ok(c)
}

fn from_c(c: &ffi::llmm_exemplar) -> Exemplar {
    let n = c.labels.iter().position(|&b| b == 0).unwrap_or(c.labels.len());
    let lab: Vec<u8> = c.labels[..n].iter().map(|&b| b as u8).collect();
    Exemplar {
        value: c.value,
        trace_id: c.trace_id,
        span_id: c.span_id,
        time_unix_nano: c.time_unix_nano,
        labels: String::from_utf8_lossy(&lab).into_owned(),
    }
}

/// One exemplar per bucket of a fixed layout (`llmm_exemplars`): `bounds` (recorded unit,
/// strictly increasing, at most 255) give `bounds.len() + 1` slots.
///
/// ```
/// use llmmetrics::{ExemplarKeep, Exemplars, Exemplar, PromFormat, PromType, PromWriter, Sketch};
///
/// let ex = Exemplars::new(&[0.1, 0.5], ExemplarKeep::Latest)?;
/// let (trace_id, span_id, _) =
///     llmmetrics::traceparent_parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")?;
/// ex.shard()?.record(&Exemplar { value: 0.3, trace_id, span_id, ..Default::default() })?;
/// let mut s = Sketch::new()?;
/// s.add(0.3)?;
/// let mut w = PromWriter::new(PromFormat::OpenMetrics)?;
/// w.family("lat_seconds", None, PromType::Histogram, &[0.1, 0.5])?;
/// w.sketch_exemplars(None, &s, 1.0, Some(&ex))?;
/// let text = String::from_utf8(w.finish()?).unwrap();
/// assert!(text.contains("lat_seconds_bucket{le=\"0.5\"} 1 # {trace_id=\"4bf92f3577b34da6a3ce929d0e0e4736\""));
/// assert!(text.ends_with("# EOF\n"));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// `Exemplars` is `Send + Sync`: handing out shards, reading and rolling are thread-safe.
pub struct Exemplars {
    raw: Owned<ffi::llmm_exemplars>,
}

// SAFETY: the C store is thread-safe for every call taking `&self`; freeing needs ownership.
unsafe impl Send for Exemplars {}
unsafe impl Sync for Exemplars {}

impl Exemplars {
    /// A store with libc's allocator.
    ///
    /// # Errors
    /// `Invalid` for bounds not finite and strictly increasing, or more than 255.
    pub fn new(bounds: &[f64], keep: ExemplarKeep) -> Result<Exemplars> {
        Exemplars::create(None, bounds, keep)
    }

    /// A store allocating from `ctx` (its allocator must be thread-safe).
    pub fn with_context(ctx: &Context, bounds: &[f64], keep: ExemplarKeep) -> Result<Exemplars> {
        Exemplars::create(Some(ctx), bounds, keep)
    }

    fn create(ctx: Option<&Context>, bounds: &[f64], keep: ExemplarKeep) -> Result<Exemplars> {
        // SAFETY: context NULL or live; bounds readable for `len`; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe {
            ffi::llmm_exemplars_new(
                c,
                bounds.as_ptr(),
                bounds.len(),
                keep as ffi::llmm_exemplar_keep,
                out,
            )
        })?;
        Ok(Exemplars { raw })
    }

    /// Number of slots.
    pub fn slots(&self) -> u32 {
        // SAFETY: live handle.
        unsafe { ffi::llmm_exemplars_slots(self.raw.ptr()) }
    }

    /// A shard for one writer thread.
    pub fn shard(&self) -> Result<ExemplarShard<'_>> {
        let mut out = ptr::null_mut();
        // SAFETY: thread-safe C call on a live handle.
        check(unsafe { ffi::llmm_exemplars_shard(self.raw.ptr(), &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_exemplars_shard returned LLMM_OK and NULL");
        Ok(ExemplarShard { ptr, _store: PhantomData })
    }

    /// Start a new interval for [`ExemplarKeep::Max`] (erases nothing).
    pub fn roll(&self) -> Result<()> {
        // SAFETY: thread-safe C call on a live handle.
        check(unsafe { ffi::llmm_exemplars_roll(self.raw.ptr()) })
    }

    /// The exemplar a slot holds, `None` when it never held one.
    ///
    /// # Errors
    /// `Invalid` for a slot out of range.
    pub fn get(&self, slot: u32) -> Result<Option<Exemplar>> {
        let mut c: ffi::llmm_exemplar = crate::sized::try_defaults()?;
        // SAFETY: live handle; `c` set up at the crate's size.
        let st = unsafe { ffi::llmm_exemplars_get(self.raw.ptr(), slot, &mut c) };
        if st == ffi::LLMM_E_EMPTY {
            return Ok(None);
        }
        check(st)?;
        Ok(Some(from_c(&c)))
    }

    /// The raw handle, for calls through `llmmetrics-sys`.
    pub fn as_ptr(&self) -> *mut ffi::llmm_exemplars {
        self.raw.ptr()
    }
}

impl fmt::Debug for Exemplars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Exemplars").field("slots", &self.slots()).finish()
    }
}

/// A single-writer shard of an [`Exemplars`] store; released on drop (its exemplars stay).
pub struct ExemplarShard<'x> {
    ptr: NonNull<ffi::llmm_exemplar_shard>,
    _store: PhantomData<(&'x Exemplars, *mut ffi::llmm_exemplar_shard)>,
}

// SAFETY: one thread at a time; it may move between threads between uses.
unsafe impl Send for ExemplarShard<'_> {}

impl ExemplarShard<'_> {
    /// Offer an exemplar to the slot of its value (zero ids are left out).
    ///
    /// # Errors
    /// `Invalid` for a value that is not finite or malformed or too long labels.
    pub fn record(&mut self, e: &Exemplar) -> Result<()> {
        let labels = c_opt(if e.labels.is_empty() { None } else { Some(&e.labels) })?;
        let tr = if e.trace_id == [0; 16] { ptr::null() } else { e.trace_id.as_ptr() };
        let sp = if e.span_id == [0; 8] { ptr::null() } else { e.span_id.as_ptr() };
        // SAFETY: live shard, single writer by `&mut self`; ids readable for 16 / 8 bytes.
        check(unsafe {
            ffi::llmm_exemplar_shard_record(
                self.ptr.as_ptr(),
                e.value,
                tr,
                sp,
                e.time_unix_nano,
                opt_ptr(&labels),
            )
        })
    }
}

impl Drop for ExemplarShard<'_> {
    fn drop(&mut self) {
        // SAFETY: thread-safe C call; the store is alive (borrowed).
        unsafe { ffi::llmm_exemplar_shard_release(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for ExemplarShard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExemplarShard").field("ptr", &self.ptr).finish()
    }
}

/// [`prom_negotiate`](crate::prom_negotiate) with OpenMetrics as a third choice. Since 1.2.0.
pub fn prom_negotiate_openmetrics(accept: Option<&str>) -> Result<(PromFormat, &'static str)> {
    crate::export::negotiate(accept, ffi::llmm_prom_negotiate_openmetrics)
}

/// The trace id, span id and flags of a W3C `traceparent` header.
///
/// # Errors
/// `Invalid` for a malformed header.
pub fn traceparent_parse(header: &str) -> Result<([u8; 16], [u8; 8], u8)> {
    let h = c_string(header)?;
    let (mut tr, mut sp, mut fl) = ([0u8; 16], [0u8; 8], 0u8);
    // SAFETY: NUL-terminated input; outputs writable for 16, 8 and 1 bytes.
    check(unsafe {
        ffi::llmm_traceparent_parse(h.as_ptr(), tr.as_mut_ptr(), sp.as_mut_ptr(), &mut fl)
    })?;
    Ok((tr, sp, fl))
}

/// A version-00 `traceparent` value.
///
/// # Errors
/// `Invalid` for an all-zero id.
pub fn traceparent_format(trace_id: &[u8; 16], span_id: &[u8; 8], flags: u8) -> Result<String> {
    let mut buf = [0u8; 55];
    let mut n = 0usize;
    // SAFETY: ids readable for 16 / 8 bytes; `buf` writable for 55.
    check(unsafe {
        ffi::llmm_traceparent_format(
            trace_id.as_ptr(),
            span_id.as_ptr(),
            flags,
            buf.as_mut_ptr(),
            buf.len(),
            &mut n,
        )
    })?;
    crate::export::text(buf[..n].to_vec())
}
