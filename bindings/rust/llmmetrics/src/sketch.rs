//! Streaming quantile sketches with a guaranteed relative error.

use std::fmt;
use std::ptr::{self};

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::{get, Owned};

/// Default scale: 64 buckets per power of two, worst relative error 0.542 %.
pub const SCALE_DEFAULT: i32 = ffi::LLMM_SCALE_DEFAULT;
/// Smallest scale (1 bucket per power of two).
pub const SCALE_MIN: i32 = ffi::LLMM_SCALE_MIN;
/// Largest scale (1024 buckets per power of two).
pub const SCALE_MAX: i32 = ffi::LLMM_SCALE_MAX;
/// Default lower end of the accurately tracked range.
pub const RANGE_MIN_DEFAULT: f64 = ffi::LLMM_SKETCH_RANGE_MIN_DEFAULT;
/// Default upper end of the accurately tracked range.
pub const RANGE_MAX_DEFAULT: f64 = ffi::LLMM_SKETCH_RANGE_MAX_DEFAULT;
/// Format version [`Sketch::to_bytes`] writes.
pub const SKETCH_FORMAT_VERSION: u32 = ffi::LLMM_SKETCH_FORMAT_VERSION;

/// Worst relative error of any quantile at `scale` (in range): `(base − 1) / (base + 1)` with
/// `base = 2^(2^−scale)`; 0.005415 at the default scale 6.
pub fn relative_error(scale: i32) -> f64 {
    let base = 2f64.powf(2f64.powi(-scale));
    (base - 1.0) / (base + 1.0)
}

/// Counts kept outside the buckets, see [`Sketch::special_counts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpecialCounts {
    /// Exact zeros.
    pub zero: u64,
    /// Positive values below the tracked range.
    pub under: u64,
    /// Values above the tracked range.
    pub over: u64,
}

/// A streaming, mergeable quantile sketch (`llmm_sketch`).
///
/// Values (finite, ≥ 0) are counted in OpenTelemetry base-2 exponential buckets; every
/// quantile inside the tracked range is within [`relative_error`]`(scale)` of the exact
/// nearest-rank answer, and count, min, max and sum are exact. Quantile `q` of `n` values is
/// the value of rank `max(1, ceil(q·n))`.
///
/// ```
/// use llmmetrics::Sketch;
///
/// let mut s = Sketch::new()?;
/// s.add_many(&[0.120, 0.250, 0.180, 0.900, 0.210])?;
/// assert_eq!(s.count(), 5);
/// assert_eq!(s.quantile(0.0)?, 0.120);   // rank 1 is the exact minimum
/// assert_eq!(s.quantile(1.0)?, 0.900);   // rank n is the exact maximum
/// let p50 = s.quantile(0.5)?;            // rank 3: 0.210 within 0.542 %
/// assert!((p50 - 0.210).abs() <= 0.00542 * 0.210);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Threads
///
/// The C sketch is single-writer and may be read concurrently while nobody writes. In Rust
/// every call that writes takes `&mut self` and every call that only reads takes `&self`
/// (the read calls of the C library are pure: they neither cache nor allocate, except
/// [`try_clone`](Sketch::try_clone), which allocates through the thread-safe context
/// allocator). The borrow checker therefore enforces the C rule exactly: `Sketch` is `Send`
/// (it may move to another thread) and `Sync` (shared `&Sketch` references only read).
/// Writers on several threads at once need a [`Recorder`](crate::Recorder).
///
/// Writing through a shared reference does not compile:
///
/// ```compile_fail,E0596
/// fn record(s: &llmmetrics::Sketch) {
///     s.add(1.0).unwrap();
/// }
/// ```
pub struct Sketch {
    raw: Owned<ffi::llmm_sketch>,
}

impl Sketch {
    /// An empty sketch at [`SCALE_DEFAULT`] with libc's allocator.
    pub fn new() -> Result<Sketch> {
        Sketch::create(None, SCALE_DEFAULT)
    }

    /// An empty sketch at `scale` ([`SCALE_MIN`] ..= [`SCALE_MAX`]).
    ///
    /// # Errors
    /// `Invalid` for a scale out of bounds, `NoMem`.
    pub fn with_scale(scale: i32) -> Result<Sketch> {
        Sketch::create(None, scale)
    }

    /// An empty sketch at `scale` whose memory comes from `ctx`'s allocator.
    pub fn with_context(ctx: &Context, scale: i32) -> Result<Sketch> {
        Sketch::create(Some(ctx), scale)
    }

    pub(crate) fn create(ctx: Option<&Context>, scale: i32) -> Result<Sketch> {
        // SAFETY: the context pointer is NULL or live; `out` is a valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe { ffi::llmm_sketch_new(c, scale, out) })?;
        Ok(Sketch { raw })
    }

    /// The raw handle, for calls through `llmmetrics-sys` that only read.
    pub fn as_ptr(&self) -> *const ffi::llmm_sketch {
        self.raw.ptr()
    }

    /// The raw handle, for calls through `llmmetrics-sys` that write.
    pub fn as_mut_ptr(&mut self) -> *mut ffi::llmm_sketch {
        self.raw.ptr()
    }

    /// The context the sketch allocates from (`None`: libc).
    pub fn context(&self) -> Option<&Context> {
        self.raw.context()
    }

    /// Set the accurately tracked range; only while the sketch is empty.
    ///
    /// # Errors
    /// `Invalid` for a bound that is not finite, beyond its limit (1e-300 ..= 1e300), or
    /// `hi <= lo`; `State` once the sketch holds values.
    pub fn set_range(&mut self, lo: f64, hi: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_sketch_set_range(self.raw.ptr(), lo, hi) })
    }

    /// The configured range `(lo, hi)`.
    pub fn range(&self) -> (f64, f64) {
        let (mut lo, mut hi) = (0.0, 0.0);
        // SAFETY: live handle; the call only fails for NULL arguments.
        let st = unsafe { ffi::llmm_sketch_range(self.raw.ptr(), &mut lo, &mut hi) };
        debug_assert_eq!(st, ffi::LLMM_OK);
        (lo, hi)
    }

    /// Record one value (finite, ≥ 0).
    ///
    /// # Errors
    /// `Invalid` for NaN, an infinity or a negative value (nothing recorded); `NoMem`.
    pub fn add(&mut self, v: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_sketch_add(self.raw.ptr(), v) })
    }

    /// Record one value `n` times.
    ///
    /// # Errors
    /// As [`add`](Sketch::add); `Range` when the total count would pass `u64::MAX`.
    pub fn add_n(&mut self, v: f64, n: u64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_sketch_add_n(self.raw.ptr(), v, n) })
    }

    /// Record a batch, all or nothing: if any value is invalid nothing is recorded.
    ///
    /// ```
    /// # use llmmetrics::{ErrorKind, Sketch};
    /// let mut s = Sketch::new()?;
    /// let err = s.add_many(&[1.0, -2.0, 3.0]).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Invalid);
    /// assert_eq!(s.count(), 0);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub fn add_many(&mut self, values: &[f64]) -> Result<()> {
        // SAFETY: live handle; the slice is valid for `len` reads.
        check(unsafe { ffi::llmm_sketch_add_many(self.raw.ptr(), values.as_ptr(), values.len()) })
    }

    /// Quantile `q` in [0, 1] by the nearest-rank rule.
    ///
    /// # Errors
    /// `Invalid` for `q` outside [0, 1] or NaN; `Empty` when the sketch holds no values.
    pub fn quantile(&self, q: f64) -> Result<f64> {
        // SAFETY: live handle, read-only call.
        get(|out| unsafe { ffi::llmm_sketch_quantile(self.raw.ptr(), q, out) })
    }

    /// Many quantiles in one pass; `qs` may be in any order.
    ///
    /// ```
    /// # use llmmetrics::Sketch;
    /// let mut s = Sketch::new()?;
    /// s.add_many(&(1..=1000).map(f64::from).collect::<Vec<_>>())?;
    /// let p = s.quantiles(&[0.99, 0.5, 0.999])?;
    /// for (got, exact) in p.iter().zip([990.0, 500.0, 999.0]) {
    ///     assert!((got - exact).abs() <= 0.00542 * exact);
    /// }
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub fn quantiles(&self, qs: &[f64]) -> Result<Vec<f64>> {
        let mut out = vec![0.0; qs.len()];
        self.quantiles_into(qs, &mut out)?;
        Ok(out)
    }

    /// Many quantiles into a caller slice of the same length as `qs` (`out` is untouched on
    /// error).
    ///
    /// # Errors
    /// `Invalid` when the lengths differ or any `q` is outside [0, 1]; `Empty`.
    pub fn quantiles_into(&self, qs: &[f64], out: &mut [f64]) -> Result<()> {
        if out.len() != qs.len() {
            return Err(Error::invalid());
        }
        // SAFETY: live handle; `qs` readable and `out` writable for `len` elements.
        check(unsafe {
            ffi::llmm_sketch_quantiles(self.raw.ptr(), qs.as_ptr(), qs.len(), out.as_mut_ptr())
        })
    }

    /// Fraction of the recorded values ≤ `v` (within one bucket).
    ///
    /// # Errors
    /// `Invalid` for NaN; `Empty`.
    pub fn rank(&self, v: f64) -> Result<f64> {
        // SAFETY: live handle, read-only call.
        get(|out| unsafe { ffi::llmm_sketch_rank(self.raw.ptr(), v, out) })
    }

    /// Number of recorded values (zeros and out-of-range values included).
    pub fn count(&self) -> u64 {
        // SAFETY: live handle.
        unsafe { ffi::llmm_sketch_count(self.raw.ptr()) }
    }

    /// `true` when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// Sum of the recorded values: a double sum in arrival order, 0 when empty.
    pub fn sum(&self) -> f64 {
        let mut out = 0.0;
        // SAFETY: live handle; fails only for NULL arguments.
        let st = unsafe { ffi::llmm_sketch_sum(self.raw.ptr(), &mut out) };
        debug_assert_eq!(st, ffi::LLMM_OK);
        out
    }

    fn stat(
        &self,
        f: unsafe extern "C" fn(*const ffi::llmm_sketch, *mut f64) -> ffi::llmm_status,
    ) -> Result<f64> {
        let mut out = 0.0;
        // SAFETY: live handle, read-only call.
        check(unsafe { f(self.raw.ptr(), &mut out) })?;
        Ok(out)
    }

    /// Exact smallest value. `Empty` when nothing was recorded.
    pub fn min(&self) -> Result<f64> {
        self.stat(ffi::llmm_sketch_min)
    }

    /// Exact largest value. `Empty` when nothing was recorded.
    pub fn max(&self) -> Result<f64> {
        self.stat(ffi::llmm_sketch_max)
    }

    /// Arithmetic mean. `Empty` when nothing was recorded.
    pub fn mean(&self) -> Result<f64> {
        self.stat(ffi::llmm_sketch_mean)
    }

    /// Zeros and the values below / above the tracked range.
    pub fn special_counts(&self) -> SpecialCounts {
        let mut c = SpecialCounts::default();
        // SAFETY: live handle; fails only for a NULL sketch.
        let st = unsafe {
            ffi::llmm_sketch_special_counts(self.raw.ptr(), &mut c.zero, &mut c.under, &mut c.over)
        };
        debug_assert_eq!(st, ffi::LLMM_OK);
        c
    }

    /// The scale (0 ..= 10).
    pub fn scale(&self) -> i32 {
        // SAFETY: live handle.
        unsafe { ffi::llmm_sketch_scale(self.raw.ptr()) }
    }

    /// Lowest and highest non-empty bucket index (OpenTelemetry numbering).
    ///
    /// # Errors
    /// `Empty` when no value is in range (zeros and out-of-range counts may still exist).
    pub fn bucket_span(&self) -> Result<(i32, i32)> {
        let (mut first, mut last) = (0, 0);
        // SAFETY: live handle, read-only call.
        check(unsafe { ffi::llmm_sketch_bucket_span(self.raw.ptr(), &mut first, &mut last) })?;
        Ok((first, last))
    }

    /// Count of bucket `index` (0 for buckets never touched).
    pub fn bucket_count(&self, index: i32) -> u64 {
        // SAFETY: live handle.
        unsafe { ffi::llmm_sketch_bucket_count(self.raw.ptr(), index) }
    }

    /// The non-empty buckets as `(index, count)`, lowest index first.
    ///
    /// ```
    /// # use llmmetrics::{bucket_bounds, Sketch};
    /// let mut s = Sketch::with_scale(0)?;        // buckets (2^i, 2^(i+1)]
    /// s.add_many(&[3.0, 3.5, 10.0])?;
    /// let b: Vec<(i32, u64)> = s.buckets().collect();
    /// assert_eq!(b, [(1, 2), (3, 1)]);           // (2, 4] twice, (8, 16] once
    /// assert_eq!(bucket_bounds(0, 3)?, (8.0, 16.0));
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub fn buckets(&self) -> Buckets<'_> {
        match self.bucket_span() {
            Ok((first, last)) => Buckets { sketch: self, next: Some(first), last },
            Err(_) => Buckets { sketch: self, next: None, last: 0 },
        }
    }

    /// Merge `other` into `self` exactly (the coarser scale wins); all or nothing.
    ///
    /// # Errors
    /// `Range` when a count would overflow; `NoMem`.
    pub fn merge(&mut self, other: &Sketch) -> Result<()> {
        // SAFETY: two live handles; `&mut self` and `&Sketch` cannot alias.
        check(unsafe { ffi::llmm_sketch_merge(self.raw.ptr(), other.raw.ptr()) })
    }

    /// Turn a later cumulative snapshot into the interval since `earlier`: `self −= earlier`.
    ///
    /// ```
    /// # use llmmetrics::Recorder;
    /// let rec = Recorder::new()?;
    /// let mut shard = rec.shard()?;
    /// shard.add_many(&[1.0, 2.0])?;
    /// let before = rec.snapshot()?;
    /// shard.add_many(&[3.0, 4.0, 5.0])?;
    /// let mut interval = rec.snapshot()?;
    /// interval.subtract(&before)?;
    /// assert_eq!(interval.count(), 3);
    /// assert_eq!(interval.sum(), 12.0);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    ///
    /// # Errors
    /// `Invalid` for different scales or ranges; `State` when `earlier` is not contained in
    /// `self` (then `self` is unchanged).
    pub fn subtract(&mut self, earlier: &Sketch) -> Result<()> {
        // SAFETY: two live handles that cannot alias.
        check(unsafe { ffi::llmm_sketch_subtract(self.raw.ptr(), earlier.raw.ptr()) })
    }

    /// Remove every value; scale, range and memory stay.
    pub fn reset(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_sketch_reset(self.raw.ptr()) })
    }

    /// Lower the scale in place by an exact index shift.
    ///
    /// # Errors
    /// `Invalid` for a scale outside 0 ..= the current scale.
    pub fn downscale(&mut self, new_scale: i32) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_sketch_downscale(self.raw.ptr(), new_scale) })
    }

    /// Replace contents, scale and range with those of `src` (the context stays).
    ///
    /// # Errors
    /// `NoMem`, leaving `self` unchanged.
    pub fn copy_from(&mut self, src: &Sketch) -> Result<()> {
        // SAFETY: two live handles that cannot alias.
        check(unsafe { ffi::llmm_sketch_copy(self.raw.ptr(), src.raw.ptr()) })
    }

    /// The exact size of [`to_bytes`](Sketch::to_bytes)'s encoding (it depends on the
    /// contents only, so it holds until the sketch changes).
    pub fn serialized_len(&self) -> usize {
        let mut len = 0usize;
        // SAFETY: live handle; a size query (NULL, 0) writes nothing but `len`.
        let st =
            unsafe { ffi::llmm_sketch_serialize(self.raw.ptr(), ptr::null_mut(), 0, &mut len) };
        debug_assert!(st == ffi::LLMM_E_BUFFER || st == ffi::LLMM_OK);
        len
    }

    /// Encode into `buf`; returns the number of bytes written.
    ///
    /// # Errors
    /// `Buffer` when `buf` is shorter than [`serialized_len`](Sketch::serialized_len)
    /// (`buf` untouched).
    pub fn serialize_into(&self, buf: &mut [u8]) -> Result<usize> {
        let mut len = 0usize;
        // SAFETY: live handle; `buf` writable for its length.
        check(unsafe {
            ffi::llmm_sketch_serialize(self.raw.ptr(), buf.as_mut_ptr(), buf.len(), &mut len)
        })?;
        Ok(len)
    }

    /// The sketch's binary encoding (versioned, checksummed, little-endian): scale, range,
    /// count, min, max, sum bit for bit, the special counts and every bucket.
    ///
    /// ```
    /// use llmmetrics::Sketch;
    ///
    /// let mut s = Sketch::new()?;
    /// s.add_many(&[0.2, 0.3, 5.0])?;
    /// let bytes = s.to_bytes()?;
    /// let t = Sketch::from_bytes(&bytes)?;
    /// assert_eq!((t.count(), t.sum(), t.max()?), (3, s.sum(), 5.0));
    /// assert_eq!(t.to_bytes()?, bytes);
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; self.serialized_len()];
        let n = self.serialize_into(&mut buf)?;
        buf.truncate(n);
        Ok(buf)
    }

    /// Decode an encoding made by [`to_bytes`](Sketch::to_bytes) (libc allocator).
    ///
    /// # Errors
    /// `Corrupt` for truncated, extended or damaged input; `Version` for an intact encoding of
    /// a newer format; `NoMem`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Sketch> {
        Sketch::decode(None, bytes)
    }

    /// Decode into a sketch that allocates from `ctx`.
    pub fn from_bytes_with_context(ctx: &Context, bytes: &[u8]) -> Result<Sketch> {
        Sketch::decode(Some(ctx), bytes)
    }

    fn decode(ctx: Option<&Context>, bytes: &[u8]) -> Result<Sketch> {
        // SAFETY: `bytes` readable for its length; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe {
            ffi::llmm_sketch_deserialize(c, bytes.as_ptr(), bytes.len(), out)
        })?;
        Ok(Sketch { raw })
    }

    /// Decode as [`from_bytes`](Sketch::from_bytes) does and say what was found
    /// (`llmm_sketch_deserialize_ex`): an intact version-1 message whose only broken rule is
    /// rule 6 of doc/format.md section 3.4 (the shape of 1.0's recorder bug) is read with its
    /// min and max repaired ([`DecodeInfo::repaired`]). The info comes with a refusal too: it
    /// says whether the bytes were intact and which rule they break.
    pub fn decode_checked(bytes: &[u8]) -> (Result<Sketch>, DecodeInfo) {
        let mut info = crate::sized::defaults::<ffi::llmm_decode_info>();
        // SAFETY: `bytes` readable for its length; valid out-pointer; `info` set up at the
        // crate's size by llmm_struct_init.
        let raw = Owned::new(None, |c, out| unsafe {
            ffi::llmm_sketch_deserialize_ex(c, bytes.as_ptr(), bytes.len(), out, &mut info)
        });
        let info = DecodeInfo {
            intact: info.intact != 0,
            version: info.version,
            rule: info.rule,
            repaired: info.repaired != 0,
            message_min: info.message_min,
            message_max: info.message_max,
        };
        (raw.map(|raw| Sketch { raw }), info)
    }

    /// A deep copy with the same context (`llmm_sketch_clone`).
    ///
    /// # Errors
    /// `NoMem`.
    pub fn try_clone(&self) -> Result<Sketch> {
        // SAFETY: live handle, read-only for the source; the copy allocates from its context.
        let raw = Owned::new(self.context(), |_, out| unsafe {
            ffi::llmm_sketch_clone(self.raw.ptr(), out)
        })?;
        Ok(Sketch { raw })
    }
}

/// Iterator over the non-empty buckets of a sketch, see [`Sketch::buckets`].
#[derive(Clone, Debug)]
pub struct Buckets<'a> {
    sketch: &'a Sketch,
    next: Option<i32>,
    last: i32,
}

impl Iterator for Buckets<'_> {
    type Item = (i32, u64);

    fn next(&mut self) -> Option<(i32, u64)> {
        while let Some(i) = self.next {
            self.next = if i < self.last { Some(i + 1) } else { None };
            let c = self.sketch.bucket_count(i);
            if c > 0 {
                return Some((i, c));
            }
        }
        None
    }
}

/// Deep copy through `llmm_sketch_clone`.
///
/// # Panics
/// When the allocator fails; use [`Sketch::try_clone`] to handle that.
impl Clone for Sketch {
    fn clone(&self) -> Sketch {
        match self.try_clone() {
            Ok(s) => s,
            Err(e) => panic!("llmm_sketch_clone: {}", e),
        }
    }

    /// Reuses `self`'s memory and keeps its context (`llmm_sketch_copy`).
    fn clone_from(&mut self, source: &Sketch) {
        if let Err(e) = self.copy_from(source) {
            panic!("llmm_sketch_copy: {}", e);
        }
    }
}

impl fmt::Debug for Sketch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Sketch");
        d.field("scale", &self.scale()).field("count", &self.count());
        if let (Ok(min), Ok(max)) = (self.min(), self.max()) {
            d.field("min", &min).field("max", &max);
        }
        d.field("sum", &self.sum()).field("range", &self.range()).finish()
    }
}

/// Bucket index of `v` (finite, > 0) at `scale`: `i` with `base^i < v ≤ base^(i+1)`.
///
/// # Errors
/// `Invalid` for a bad scale or a value that is not finite and positive.
pub fn bucket_index(scale: i32, v: f64) -> Result<i32> {
    // SAFETY: pure function with a valid out-pointer.
    get(|index| unsafe { ffi::llmm_sketch_index(scale, v, index) })
}

/// Bounds `(lower, upper]` of bucket `index` at `scale`.
///
/// # Errors
/// `Invalid` for a bad scale; `Range` when a bound is not a finite double.
pub fn bucket_bounds(scale: i32, index: i32) -> Result<(f64, f64)> {
    let (mut lower, mut upper) = (0.0, 0.0);
    // SAFETY: pure function with valid out-pointers.
    check(unsafe { ffi::llmm_sketch_bucket_bounds(scale, index, &mut lower, &mut upper) })?;
    Ok((lower, upper))
}

/// What [`Sketch::decode_checked`] found in a message (`llmm_decode_info`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeInfo {
    /// The magic and the CRC-32C check out: the bytes are as their writer wrote them.
    pub intact: bool,
    /// The format version byte of an intact message, else 0.
    pub version: i32,
    /// 0, or the first broken rule of doc/format.md section 3.4 (1 to 7).
    pub rule: i32,
    /// Rule 6 alone was broken and min / max were repaired.
    pub repaired: bool,
    /// The message's own min (the sketch holds the repaired one).
    pub message_min: f64,
    /// The message's own max (the sketch holds the repaired one).
    pub message_max: f64,
}
