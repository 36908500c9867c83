//! Caller-sized structs: the C structs that start with `struct_size` are set up by the
//! library at this crate's own size of them (doc/abi.md).

use std::mem::size_of;

use llmmetrics_sys as ffi;

/// `llmm_struct_init(kind, p, size_of::<T>())`: the library writes its defaults into exactly
/// the `size_of::<T>()` bytes of the crate's definition of the struct, with `struct_size` set to
/// that size. A library older than the crate refuses a larger struct with `LLMM_E_ABI`.
///
/// # Safety
/// `p` must point to writable memory of at least `size_of::<T>()` bytes, and `kind` must name
/// the C struct that `T` is.
pub(crate) unsafe fn init<T>(kind: ffi::llmm_struct_kind, p: *mut T) -> ffi::llmm_status {
    ffi::llmm_struct_init(kind, p as *mut ffi::c_void, size_of::<T>() as u32)
}
