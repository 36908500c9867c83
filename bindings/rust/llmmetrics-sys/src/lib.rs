//! Raw FFI declarations of libllmmetrics 1.x, generated from `include/llmmetrics/*.h`.
//!
//! Everything here is `unsafe` to call and follows the C contract described in the headers:
//! opaque handles are created by `llmm_*_new` and released by `llmm_*_free`, every fallible
//! call returns an [`llmm_status`] (0 is [`LLMM_OK`], errors are negative), results go
//! through out-pointers, and size-prefixed structs must be set up first, by
//! [`llmm_struct_init`] with the crate's size of the struct ([`SizePrefixed`]).
//! The safe API is the `llmmetrics` crate.
//!
//! Mapping rules: C enums are int-sized, so each is a `c_int` type alias plus constants (a
//! newer library may return values this crate does not name); `size_t` is `usize`; `T *` is
//! `*mut T` and `const T *` is `*const T`; function pointers are
//! `Option<unsafe extern "C" fn(..)>`; opaque structs are zero-sized `#[repr(C)]` types that
//! are neither `Send`, `Sync` nor `Unpin`.
//!
//! The declarations (`src/ffi.rs`) are generated from the headers by
//! `tools/bindings/generate.py`; the `bindings` test suite regenerates them and fails on any
//! difference.
#![allow(non_camel_case_types)]

pub use std::os::raw::{c_char, c_int, c_void};

macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
            _marker: ::std::marker::PhantomData<(*mut u8, ::std::marker::PhantomPinned)>,
        }
    )*};
}

/// A caller-sized struct: it starts with `uint32_t struct_size`, and [`llmm_struct_init`]
/// sets it up with `KIND` at the crate's `size_of::<Self>()` (doc/abi.md).
///
/// # Safety
/// `KIND` must be the `llmm_struct_kind` of the C struct that `Self` is.
pub unsafe trait SizePrefixed: Copy {
    /// The `LLMM_STRUCT_*` kind of the struct.
    const KIND: llmm_struct_kind;
}

/// `SizePrefixed` for each caller-sized struct, and the list of them all.
macro_rules! size_prefixed {
    ($($name:ident = $kind:ident,)*) => {
        $(
            unsafe impl SizePrefixed for $name {
                const KIND: llmm_struct_kind = $kind;
            }
        )*
        /// Every caller-sized struct, by kind: its `llmm_struct_kind` and the crate's
        /// `size_of` of it.
        pub const SIZE_PREFIXED: &[(llmm_struct_kind, usize)] =
            &[$(($kind, std::mem::size_of::<$name>())),*];
    };
}

#[rustfmt::skip]
mod ffi;
pub use ffi::*;

#[cfg(test)]
mod tests;
