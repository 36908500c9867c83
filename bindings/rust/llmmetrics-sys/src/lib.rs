//! Raw FFI declarations of libllmmetrics 1.x, written by hand from `include/llmmetrics/*.h`.
//!
//! Everything here is `unsafe` to call and follows the C contract described in the headers:
//! opaque handles are created by `llmm_*_new` and released by `llmm_*_free`, every fallible
//! call returns an [`llmm_status`] (0 is [`LLMM_OK`], errors are negative), results go
//! through out-pointers, and size-prefixed structs must be filled by their `_init` call first.
//! The safe API is the `llmmetrics` crate.
//!
//! Mapping rules: C enums are int-sized, so each is a `c_int` type alias plus constants (a
//! newer library may return values this crate does not name); `size_t` is `usize`; opaque
//! structs are zero-sized `#[repr(C)]` types that are neither `Send`, `Sync` nor `Unpin`.
//! A drift test (`bindings/rust/check_drift.py`) checks every `LLMM_API` function of the
//! headers against these declarations, parameter by parameter.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
pub use std::os::raw::{c_char, c_int, c_void};

macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

mod base;
mod capacity;
mod detect;
mod export;
mod fit;
mod host;
mod resource;
mod score;
mod sketch;
mod slo;
mod window;

pub use base::*;
pub use capacity::*;
pub use detect::*;
pub use export::*;
pub use fit::*;
pub use host::*;
pub use resource::*;
pub use score::*;
pub use sketch::*;
pub use slo::*;
pub use window::*;

#[cfg(test)]
mod tests;
