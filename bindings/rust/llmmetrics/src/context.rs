//! Allocation contexts: route the library's allocations through an allocator of your choice.

use std::alloc::Layout;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::Arc;

use llmmetrics_sys as ffi;

use crate::error::{check, Result};

/// An allocator the C library can call from any thread.
///
/// The library passes the size to every hook, so an implementation needs no header. It
/// never asks for 0 bytes and never frees NULL.
///
/// # Safety
///
/// Implementations must behave like `malloc` / `realloc` / `free`: `alloc` returns null or a
/// block of at least `size` bytes aligned for any C type (16 bytes on the 64-bit targets the
/// library supports); `realloc` keeps the first `min(old, new)` bytes and leaves `ptr` valid
/// when it returns null; `free` releases a block this allocator returned. All three may be
/// called concurrently from several threads (recorder shards allocate from their writers).
/// A panic inside `alloc` or `realloc` is reported to the library as an allocation failure;
/// a panic inside `free` aborts the process.
pub unsafe trait RawAllocator: Send + Sync + 'static {
    /// Allocate `size` bytes; null on failure.
    fn alloc(&self, size: usize) -> *mut u8;
    /// Resize a block from `old_size` to `new_size` bytes; null on failure (the block stays).
    ///
    /// # Safety
    /// `ptr` was returned by this allocator with `old_size` bytes and not freed yet.
    unsafe fn realloc(&self, ptr: *mut u8, old_size: usize, new_size: usize) -> *mut u8;
    /// Release a block.
    ///
    /// # Safety
    /// `ptr` was returned by this allocator with `size` bytes and not freed yet.
    unsafe fn free(&self, ptr: *mut u8, size: usize);
}

/// Alignment the library expects from its allocator (that of C's `max_align_t`).
const C_ALIGN: usize = 16;

/// [`RawAllocator`] backed by Rust's global allocator (`#[global_allocator]`), so that a
/// program's allocation accounting also sees the library's memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustAllocator;

// SAFETY: std::alloc with a 16-byte alignment meets every requirement; the global allocator is
// thread-safe.
unsafe impl RawAllocator for RustAllocator {
    fn alloc(&self, size: usize) -> *mut u8 {
        match Layout::from_size_align(size, C_ALIGN) {
            // SAFETY: the library never asks for 0 bytes.
            Ok(layout) if size > 0 => unsafe { std::alloc::alloc(layout) },
            _ => ptr::null_mut(),
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, old_size: usize, new_size: usize) -> *mut u8 {
        match (
            Layout::from_size_align(old_size, C_ALIGN),
            Layout::from_size_align(new_size, C_ALIGN),
        ) {
            (Ok(old), Ok(_)) if new_size > 0 => std::alloc::realloc(ptr, old, new_size),
            _ => ptr::null_mut(),
        }
    }

    unsafe fn free(&self, ptr: *mut u8, size: usize) {
        if let Ok(layout) = Layout::from_size_align(size, C_ALIGN) {
            std::alloc::dealloc(ptr, layout)
        }
    }
}

type Hooks = Box<dyn RawAllocator>;

unsafe extern "C" fn hook_alloc(user: *mut ffi::c_void, size: usize) -> *mut ffi::c_void {
    let hooks = &*(user as *const Hooks);
    catch_unwind(AssertUnwindSafe(|| hooks.alloc(size))).unwrap_or(ptr::null_mut()) as *mut _
}

unsafe extern "C" fn hook_realloc(
    user: *mut ffi::c_void,
    p: *mut ffi::c_void,
    old_size: usize,
    new_size: usize,
) -> *mut ffi::c_void {
    let hooks = &*(user as *const Hooks);
    catch_unwind(AssertUnwindSafe(|| hooks.realloc(p as *mut u8, old_size, new_size)))
        .unwrap_or(ptr::null_mut()) as *mut _
}

unsafe extern "C" fn hook_free(user: *mut ffi::c_void, p: *mut ffi::c_void, size: usize) {
    let hooks = &*(user as *const Hooks);
    if catch_unwind(AssertUnwindSafe(|| hooks.free(p as *mut u8, size))).is_err() {
        // Unwinding into C is undefined behaviour, and the block's fate is unknown.
        std::process::abort();
    }
}

struct Inner {
    ptr: NonNull<ffi::llmm_ctx>,
    // Dropped after `llmm_ctx_free` (which frees the context through these hooks).
    _hooks: Option<Box<Hooks>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // SAFETY: every object made from the context holds a `Context` clone, so this runs
        // after the last of them has been freed.
        unsafe { ffi::llmm_ctx_free(self.ptr.as_ptr()) }
    }
}

/// A library context: the allocator every object made with it uses.
///
/// Objects created without a context use libc's allocator. A context is immutable, so it is
/// `Send + Sync` and cheap to clone (a reference count); every object made from it keeps it
/// alive, so it is freed after the last of them.
///
/// ```
/// use llmmetrics::{Context, RustAllocator, Sketch};
///
/// let ctx = Context::with_allocator(RustAllocator)?;
/// let mut s = Sketch::with_context(&ctx, 6)?;
/// s.add(0.25)?;
/// drop(ctx); // the sketch keeps the context alive
/// assert_eq!(s.count(), 1);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

// SAFETY: a llmm_ctx is immutable after creation and documented as shareable by any number of
// threads; the hooks are `Send + Sync` by the `RawAllocator` bound.
unsafe impl Send for Inner {}
unsafe impl Sync for Inner {}

impl Context {
    /// A context with libc's allocator (the same as using no context).
    pub fn new() -> Result<Context> {
        let mut out = ptr::null_mut();
        // SAFETY: a NULL allocator means libc; `out` is a valid out-pointer.
        check(unsafe { ffi::llmm_ctx_new(ptr::null(), &mut out) })?;
        Ok(Context::wrap(out, None))
    }

    /// A context whose allocations go through `allocator`.
    pub fn with_allocator<A: RawAllocator>(allocator: A) -> Result<Context> {
        let hooks: Box<Hooks> = Box::new(Box::new(allocator));
        let mut a: ffi::llmm_allocator = crate::sized::try_defaults()?;
        a.user = &*hooks as *const Hooks as *mut ffi::c_void;
        a.alloc = Some(hook_alloc);
        a.realloc = Some(hook_realloc);
        a.free = Some(hook_free);
        let mut out = ptr::null_mut();
        // SAFETY: `a` is set up by the library; the user pointer stays valid until after
        // llmm_ctx_free (see `Inner`).
        check(unsafe { ffi::llmm_ctx_new(&a, &mut out) })?;
        Ok(Context::wrap(out, Some(hooks)))
    }

    fn wrap(p: *mut ffi::llmm_ctx, hooks: Option<Box<Hooks>>) -> Context {
        let ptr = NonNull::new(p).expect("llmm_ctx_new returned LLMM_OK and NULL");
        Context { inner: Arc::new(Inner { ptr, _hooks: hooks }) }
    }

    /// The raw handle, for calls through `llmmetrics-sys`. Valid while this context lives.
    pub fn as_ptr(&self) -> *mut ffi::llmm_ctx {
        self.inner.ptr.as_ptr()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context").field("ptr", &self.inner.ptr).finish()
    }
}

/// The raw context pointer of an optional context (NULL for libc).
pub(crate) fn raw(ctx: Option<&Context>) -> *mut ffi::llmm_ctx {
    ctx.map_or(ptr::null_mut(), Context::as_ptr)
}
