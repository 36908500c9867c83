//! Many writer threads, one set of counts: a recorder hands each writer its own shard.

use std::fmt;
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Result};
use crate::object::Owned;
use crate::sketch::{Sketch, SCALE_DEFAULT};

/// A multi-writer recorder (`llmm_recorder`).
///
/// Each writer thread takes a [`Shard`] with [`shard`](Recorder::shard) and records into it
/// without locks or atomic read-modify-writes; any thread may take a
/// [`snapshot`](Recorder::snapshot) of the cumulative totals while the writers run. Two
/// snapshots and [`Sketch::subtract`] give an interval.
///
/// ```
/// use llmmetrics::Recorder;
///
/// let rec = Recorder::new()?;
/// std::thread::scope(|s| {
///     for t in 0..2 {
///         let mut shard = rec.shard().unwrap();
///         s.spawn(move || {
///             for i in 1..=500 {
///                 shard.add(f64::from(t * 500 + i) * 1e-3).unwrap();
///             }
///         });
///     }
/// });
/// let total = rec.snapshot()?;
/// assert_eq!(total.count(), 1000);
/// assert_eq!(total.max()?, 1.0);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Threads
///
/// `Recorder` is `Send + Sync`: handing out shards and taking snapshots are thread-safe in C
/// and take `&self`. [`set_range`](Recorder::set_range) takes `&mut self`, and freeing (drop)
/// needs ownership, which the borrow checker only grants once every [`Shard`] (which borrows
/// the recorder) is gone, as the C contract requires.
pub struct Recorder {
    raw: Owned<ffi::llmm_recorder>,
}

impl Recorder {
    /// A recorder at the default scale (6) with libc's allocator.
    pub fn new() -> Result<Recorder> {
        Recorder::create(None, SCALE_DEFAULT)
    }

    /// A recorder at `scale` (0 ..= 10).
    ///
    /// # Errors
    /// `Invalid` for a bad scale; `NoMem`.
    pub fn with_scale(scale: i32) -> Result<Recorder> {
        Recorder::create(None, scale)
    }

    /// A recorder whose shards allocate from `ctx` (from the writer threads).
    pub fn with_context(ctx: &Context, scale: i32) -> Result<Recorder> {
        Recorder::create(Some(ctx), scale)
    }

    fn create(ctx: Option<&Context>, scale: i32) -> Result<Recorder> {
        // SAFETY: context NULL or live; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe { ffi::llmm_recorder_new(c, scale, out) })?;
        Ok(Recorder { raw })
    }

    /// Set the tracked value range; only before the first shard is handed out.
    ///
    /// # Errors
    /// `Invalid` for bad bounds (as [`Sketch::set_range`]); `State` once a shard was handed
    /// out (even if it was released since).
    pub fn set_range(&mut self, lo: f64, hi: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_recorder_set_range(self.raw.ptr(), lo, hi) })
    }

    /// Hand out a shard for one writer (a released one if any, else a new one).
    ///
    /// # Errors
    /// `NoMem`.
    pub fn shard(&self) -> Result<Shard<'_>> {
        let mut out = ptr::null_mut();
        // SAFETY: thread-safe C call on a live handle.
        check(unsafe { ffi::llmm_recorder_shard(self.raw.ptr(), &mut out) })?;
        let ptr = NonNull::new(out).expect("llmm_recorder_shard returned LLMM_OK and NULL");
        Ok(Shard { ptr, _recorder: PhantomData })
    }

    /// The cumulative totals of every shard as a new sketch (allocated from the recorder's
    /// context). Safe while writers run; exact once they are quiet.
    pub fn snapshot(&self) -> Result<Sketch> {
        let mut s = Sketch::create(self.raw.context(), SCALE_DEFAULT)?;
        self.snapshot_into(&mut s)?;
        Ok(s)
    }

    /// Replace `into`'s contents, scale and range with the cumulative totals (`into` keeps its
    /// context and, once grown, its memory: no allocation for repeated snapshots).
    ///
    /// # Errors
    /// `NoMem`, leaving `into` unchanged.
    pub fn snapshot_into(&self, into: &mut Sketch) -> Result<()> {
        // SAFETY: thread-safe C call on a live recorder; `into` is borrowed exclusively.
        check(unsafe { ffi::llmm_recorder_snapshot(self.raw.ptr(), into.as_mut_ptr()) })
    }

    /// The raw handle, for calls through `llmmetrics-sys`.
    pub fn as_ptr(&self) -> *mut ffi::llmm_recorder {
        self.raw.ptr()
    }
}

impl fmt::Debug for Recorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recorder").field("ptr", &self.raw.ptr()).finish()
    }
}

/// A single-writer shard of a [`Recorder`] (`llmm_shard`); released back to the recorder on
/// drop, its counts staying in the recorder.
///
/// A shard is `Send` (it may move to another thread between uses) but not `Sync`, and it
/// borrows its recorder, so it cannot outlive it:
///
/// ```compile_fail,E0597
/// let shard = {
///     let rec = llmmetrics::Recorder::new().unwrap();
///     rec.shard().unwrap()
/// }; // `rec` dropped while borrowed
/// ```
///
/// ```compile_fail,E0277
/// fn shared<T: Sync>(_: &T) {}
/// let rec = llmmetrics::Recorder::new().unwrap();
/// shared(&rec.shard().unwrap()); // Shard is not Sync
/// ```
pub struct Shard<'r> {
    ptr: NonNull<ffi::llmm_shard>,
    // The raw pointer keeps Shard !Sync; `Send` is granted below.
    _recorder: PhantomData<(&'r Recorder, *mut ffi::llmm_shard)>,
}

// SAFETY: a shard is used by one thread at a time and may move between threads between uses;
// every writing call takes `&mut self`.
unsafe impl Send for Shard<'_> {}

impl Shard<'_> {
    /// Record one value (finite, ≥ 0).
    ///
    /// # Errors
    /// `Invalid` for NaN, an infinity or a negative value (nothing recorded); `NoMem` when the
    /// first touch of a bucket page failed.
    pub fn add(&mut self, v: f64) -> Result<()> {
        // SAFETY: live shard, single writer by `&mut self`.
        check(unsafe { ffi::llmm_shard_add(self.ptr.as_ptr(), v) })
    }

    /// Record a batch, all or nothing.
    pub fn add_many(&mut self, values: &[f64]) -> Result<()> {
        // SAFETY: live shard; slice valid for `len` reads.
        check(unsafe { ffi::llmm_shard_add_many(self.ptr.as_ptr(), values.as_ptr(), values.len()) })
    }

    /// Give the shard back now (the same as dropping it).
    pub fn release(self) {}
}

impl Drop for Shard<'_> {
    fn drop(&mut self) {
        // SAFETY: thread-safe C call; the recorder is alive (borrowed).
        unsafe { ffi::llmm_shard_release(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Shard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shard").field("ptr", &self.ptr).finish()
    }
}
