//! Caller-sized structs: the C structs that start with `struct_size` are set up by the
//! library at this crate's own size of them (doc/abi.md).

use std::mem::{size_of, MaybeUninit};

use llmmetrics_sys::{self as ffi, SizePrefixed};

use crate::error::{check, Result};

/// `llmm_struct_init(T::KIND, p, size_of::<T>())`: the library writes its defaults into exactly
/// the `size_of::<T>()` bytes of the crate's definition of the struct, with `struct_size` set to
/// that size. A library older than the crate refuses a larger struct with `LLMM_E_ABI`.
///
/// # Safety
/// `p` must point to writable memory of at least `size_of::<T>()` bytes.
pub(crate) unsafe fn init<T: SizePrefixed>(p: *mut T) -> ffi::llmm_status {
    ffi::llmm_struct_init(T::KIND, p as *mut ffi::c_void, size_of::<T>() as u32)
}

/// The struct `call` fills, set up by [`init`] first.
pub(crate) fn read<T: SizePrefixed>(call: impl FnOnce(*mut T) -> ffi::llmm_status) -> Result<T> {
    let mut r = MaybeUninit::<T>::zeroed();
    // SAFETY: `r` is as large as `T`; init writes every byte of it (defaults), then `call`.
    unsafe {
        check(init(r.as_mut_ptr()))?;
        check(call(r.as_mut_ptr()))?;
        Ok(r.assume_init())
    }
}

/// The library's defaults of a caller-sized struct, at the crate's size of it.
pub(crate) fn try_defaults<T: SizePrefixed>() -> Result<T> {
    read(|_| ffi::LLMM_OK)
}

/// [`try_defaults`], all zero when the library refuses the crate's size (a library older than
/// the crate), which debug builds report.
pub(crate) fn defaults<T: SizePrefixed>() -> T {
    let r = try_defaults();
    debug_assert!(r.is_ok(), "llmm_struct_init refused the crate's own struct");
    // SAFETY: all zero is a value of every C struct of the library.
    r.unwrap_or_else(|_| unsafe { MaybeUninit::zeroed().assume_init() })
}
