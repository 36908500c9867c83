//! What every type that owns a C object shares: [`Owned`] holds the object and the context it
//! was made from, frees it on drop and is `Send + Sync`; [`get`] runs a call that writes one
//! value; the macros write the constructors and typed option calls that several types share.

use std::ptr::{self, NonNull};

use llmmetrics_sys as ffi;

use crate::context::{self, Context};
use crate::error::{check, Result};

/// A C object type of the library and the call that frees it.
pub(crate) trait Free {
    /// Free `p`, made by the library's constructor of this type.
    ///
    /// # Safety
    /// `p` is an object of this type, freed once.
    unsafe fn free(p: *mut Self);
}

macro_rules! free {
    ($($t:path => $f:path,)*) => {$(
        impl Free for $t {
            unsafe fn free(p: *mut Self) {
                $f(p)
            }
        }
    )*};
}

free! {
    ffi::llmm_sketch => ffi::llmm_sketch_free,
    ffi::llmm_recorder => ffi::llmm_recorder_free,
    ffi::llmm_window => ffi::llmm_window_free,
    ffi::llmm_ratio_window => ffi::llmm_ratio_window_free,
    ffi::llmm_spike => ffi::llmm_spike_free,
    ffi::llmm_collapse => ffi::llmm_collapse_free,
    ffi::llmm_event_log => ffi::llmm_event_log_free,
    ffi::llmm_stability => ffi::llmm_stability_free,
    ffi::llmm_saturation => ffi::llmm_saturation_free,
    ffi::llmm_slo_window => ffi::llmm_slo_window_free,
    ffi::llmm_goodput => ffi::llmm_goodput_free,
    ffi::llmm_burn => ffi::llmm_burn_free,
    ffi::llmm_error_trigger => ffi::llmm_error_trigger_free,
    ffi::llmm_scorecard => ffi::llmm_scorecard_free,
    ffi::llmm_lii_monitor => ffi::llmm_lii_monitor_free,
    ffi::llmm_kv_hit_tracker => ffi::llmm_kv_hit_tracker_free,
    ffi::llmm_tlb_monitor => ffi::llmm_tlb_monitor_free,
    ffi::llmm_prom_writer => ffi::llmm_prom_writer_free,
    ffi::llmm_host_sampler => ffi::llmm_host_sampler_free,
    ffi::llmm_exemplars => ffi::llmm_exemplars_free,
}

/// An owned C object and the context it was made from, which it keeps alive.
pub(crate) struct Owned<T: Free> {
    ptr: NonNull<T>,
    ctx: Option<Context>,
}

impl<T: Free> Owned<T> {
    /// The object `make` creates from the context (NULL: libc) and an out-pointer.
    pub(crate) fn new(
        ctx: Option<&Context>,
        make: impl FnOnce(*mut ffi::llmm_ctx, *mut *mut T) -> ffi::llmm_status,
    ) -> Result<Owned<T>> {
        let mut out = ptr::null_mut();
        check(make(context::raw(ctx), &mut out))?;
        Ok(Owned::wrap(out, ctx.cloned()))
    }

    /// Take `p`, which a constructor returned with `LLMM_OK`.
    pub(crate) fn wrap(p: *mut T, ctx: Option<Context>) -> Owned<T> {
        let ptr = NonNull::new(p).expect("constructor returned LLMM_OK and NULL");
        Owned { ptr, ctx }
    }

    /// The object, for a call.
    pub(crate) fn ptr(&self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// The context the object was made from (`None`: libc).
    pub(crate) fn context(&self) -> Option<&Context> {
        self.ctx.as_ref()
    }
}

impl<T: Free> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: owned object, freed once.
        unsafe { T::free(self.ptr.as_ptr()) }
    }
}

// SAFETY: the types that own one take `&mut self` for writers and clock-advancing calls; their
// `&self` calls only read (the C reads are pure: no cache, no allocation) or are documented
// thread-safe. The context is `Send + Sync`.
unsafe impl<T: Free> Send for Owned<T> {}
unsafe impl<T: Free> Sync for Owned<T> {}

/// The value a call writes through its last argument (which starts as `V::default()`).
pub(crate) fn get<V: Default>(call: impl FnOnce(&mut V) -> ffi::llmm_status) -> Result<V> {
    let mut v = V::default();
    check(call(&mut v))?;
    Ok(v)
}

/// `new(args)` and `with_context(ctx, args)` of a type (a struct with one field, `raw`) whose
/// C constructor takes the context, the arguments (each converted `as` a C type if given) and
/// the out-pointer.
///
/// Given as `$(#[doc])* pub struct T(c_type) = c_new; ...`, it also declares the type.
macro_rules! constructors {
    ($(#[$tdoc:meta])* pub struct $t:ident($c:ty) = $new:path; $($rest:tt)*) => {
        $(#[$tdoc])*
        pub struct $t {
            raw: Owned<$c>,
        }

        constructors!($t = $new; $($rest)*);
    };
    ($t:ident = $new:path; $(#[$doc:meta])* ($($arg:ident: $ty:ty $(as $cty:ty)?),*)) => {
        impl $t {
            $(#[$doc])*
            pub fn new($($arg: $ty),*) -> Result<$t> {
                $t::create(None $(, $arg)*)
            }

            #[doc = concat!("As [`new`](", stringify!($t), "::new), allocating from `ctx`.")]
            pub fn with_context(ctx: &Context $(, $arg: $ty)*) -> Result<$t> {
                $t::create(Some(ctx) $(, $arg)*)
            }

            fn create(ctx: Option<&Context> $(, $arg: $ty)*) -> Result<$t> {
                // SAFETY: context NULL or live; valid out-pointer.
                let raw = Owned::new(ctx, |c, out| unsafe { $new(c $(, $arg $(as $cty)?)*, out) })?;
                Ok($t { raw })
            }
        }
    };
}

/// Option calls of a type (a struct whose field `raw` holds the object), each item one method:
///
/// - `fn set_x(key: K as CKey, value: V) = c_setter;` and `fn x(key: K as CKey) -> V = c_getter;`
///   take the key (an enum of the binding, converted to the C key type);
/// - `fn set_x(value: V) = c_setter[C_KEY];` and `fn x() -> V = c_getter[C_KEY];` set and read
///   one fixed key.
macro_rules! option_calls {
    ($t:ident; $($items:tt)*) => {
        impl $t {
            option_calls!(@item $($items)*);
        }
    };
    (@item) => {};
    (@item $(#[$d:meta])* fn $name:ident($k:ident: $kty:ty as $cty:ty, $v:ident: $vty:ty) = $c:path;
     $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&mut self, $k: $kty, $v: $vty) -> Result<()> {
            // SAFETY: live handle, exclusive borrow.
            check(unsafe { $c(self.raw.ptr(), $k as $cty, $v) })
        }
        option_calls!(@item $($rest)*);
    };
    (@item $(#[$d:meta])* fn $name:ident($k:ident: $kty:ty as $cty:ty) -> $vty:ty = $c:path;
     $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&self, $k: $kty) -> Result<$vty> {
            // SAFETY: live handle; read-only call.
            crate::object::get(|v| unsafe { $c(self.raw.ptr(), $k as $cty, v) })
        }
        option_calls!(@item $($rest)*);
    };
    (@item $(#[$d:meta])* fn $name:ident($v:ident: $vty:ty) = $c:path[$key:expr]; $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&mut self, $v: $vty) -> Result<()> {
            // SAFETY: live handle, exclusive borrow.
            check(unsafe { $c(self.raw.ptr(), $key, $v) })
        }
        option_calls!(@item $($rest)*);
    };
    (@item $(#[$d:meta])* fn $name:ident() -> $vty:ty = $c:path[$key:expr]; $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&self) -> Result<$vty> {
            // SAFETY: live handle; read-only call.
            crate::object::get(|v| unsafe { $c(self.raw.ptr(), $key, v) })
        }
        option_calls!(@item $($rest)*);
    };
}

/// A field of a binding struct made from the field of the same name of the C struct: the same
/// type as it is, a C flag (nonzero: true) as `bool`, a time span whose "none" is `u64::MAX`
/// as `Option<u64>`; and a binding struct made from its C struct ([`readings!`]).
pub(crate) trait FromC<C> {
    /// The binding's value of `c`.
    fn from_c(c: C) -> Self;
}

impl<T> FromC<T> for T {
    fn from_c(c: T) -> T {
        c
    }
}

impl FromC<i32> for bool {
    fn from_c(c: i32) -> bool {
        c != 0
    }
}

impl FromC<u64> for Option<u64> {
    fn from_c(c: u64) -> Option<u64> {
        (c != u64::MAX).then_some(c)
    }
}

/// A public struct of the binding (each field `pub`) and its [`FromC`] conversion from the C
/// struct with the same field names, field by field.
macro_rules! readings {
    ($(#[$m:meta])* pub struct $t:ident <- $c:ty {
        $($(#[$fm:meta])* $f:ident: $fty:ty,)*
    }) => {
        $(#[$m])*
        pub struct $t {
            $($(#[$fm])* pub $f: $fty,)*
        }

        impl crate::object::FromC<$c> for $t {
            fn from_c(c: $c) -> $t {
                $t { $($f: crate::object::FromC::from_c(c.$f),)* }
            }
        }
    };
}

/// Calls of a type (a struct whose field `raw` holds the object) that pass the object and the
/// arguments on as they are, each item one method:
///
/// - `fn x(&mut self, args) = c_call;` returns the status;
/// - `fn x(&mut self or &self, args) -> V = get c_call;` the value the call writes last;
/// - `... -> bool = flag c_call;` the C flag the call writes last;
/// - `... -> S = read c_call;` the caller-sized struct the call fills, as [`FromC`] makes `S`.
macro_rules! calls {
    ($t:ident; $($items:tt)*) => {
        impl $t {
            calls!(@item $($items)*);
        }
    };
    (@item) => {};
    (@item $(#[$d:meta])* fn $name:ident(&mut self $(, $a:ident: $aty:ty)*) = $c:path;
     $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&mut self $(, $a: $aty)*) -> Result<()> {
            // SAFETY: live handle, exclusive borrow.
            check(unsafe { $c(self.raw.ptr() $(, $a)*) })
        }
        calls!(@item $($rest)*);
    };
    (@item $(#[$d:meta])* fn $name:ident(&mut self $(, $a:ident: $aty:ty)*) -> $r:ty =
     $k:ident $c:path; $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&mut self $(, $a: $aty)*) -> Result<$r> {
            calls!(@$k $c, self.raw.ptr() $(, $a)*)
        }
        calls!(@item $($rest)*);
    };
    (@item $(#[$d:meta])* fn $name:ident(&self $(, $a:ident: $aty:ty)*) -> $r:ty =
     $k:ident $c:path; $($rest:tt)*) => {
        $(#[$d])*
        pub fn $name(&self $(, $a: $aty)*) -> Result<$r> {
            calls!(@$k $c, self.raw.ptr() $(, $a)*)
        }
        calls!(@item $($rest)*);
    };
    // SAFETY (the three below): live handle (`&mut self` where the call writes); valid
    // out-pointer, or a struct sized::read sets up.
    (@get $c:path, $($a:expr),*) => {
        crate::object::get(|v| unsafe { $c($($a,)* v) })
    };
    (@flag $c:path, $($a:expr),*) => {
        crate::object::get(|v| unsafe { $c($($a,)* v) }).map(|f: i32| f != 0)
    };
    (@read $c:path, $($a:expr),*) => {
        crate::sized::read(|r| unsafe { $c($($a,)* r) }).map(crate::object::FromC::from_c)
    };
}

/// Free functions that pass their arguments (plain values) on as they are and return the
/// value the C call writes last: `fn x(args) -> V = c_call;`.
macro_rules! value_fns {
    ($($(#[$d:meta])* fn $name:ident($($a:ident: $aty:ty),*) -> $r:ty = $c:path;)*) => {$(
        $(#[$d])*
        pub fn $name($($a: $aty),*) -> Result<$r> {
            // SAFETY: plain values; valid out-pointer.
            crate::object::get(|v| unsafe { $c($($a,)* v) })
        }
    )*};
}

/// `Debug` of a type of the crate: its name and fields, each `"name" = { reads }` showing
/// `self.reads` (`{ read().ok() }`, `{ raw.ptr() }` …).
macro_rules! debug_fields {
    ($t:ident $(, $f:literal = { $($e:tt)* })*) => {
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t))$(.field($f, &self.$($e)*))*.finish()
            }
        }
    };
}
