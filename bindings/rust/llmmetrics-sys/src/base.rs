//! `core.h`: Status codes, version, allocation context, clock.

use super::*;

/// Result of every fallible call: 0 is success, errors are negative (`llmm_status`).
pub type llmm_status = c_int;
/// success
pub const LLMM_OK: llmm_status = 0;
/// invalid argument
pub const LLMM_E_INVALID: llmm_status = -1;
/// out of memory
pub const LLMM_E_NOMEM: llmm_status = -2;
/// value outside the configured range
pub const LLMM_E_RANGE: llmm_status = -3;
/// no data
pub const LLMM_E_EMPTY: llmm_status = -4;
/// damaged or truncated encoding
pub const LLMM_E_CORRUPT: llmm_status = -5;
/// unknown format version
pub const LLMM_E_VERSION: llmm_status = -6;
/// buffer too small
pub const LLMM_E_BUFFER: llmm_status = -7;
/// unknown option
pub const LLMM_E_UNKNOWN_OPTION: llmm_status = -8;
/// call not valid in the current state
pub const LLMM_E_STATE: llmm_status = -9;
/// iteration did not converge
pub const LLMM_E_NOT_CONVERGED: llmm_status = -10;
/// struct_size not understood
pub const LLMM_E_ABI: llmm_status = -11;

/// Major version these declarations were written for.
pub const LLMM_VERSION_MAJOR: u32 = 1;
/// Minor version these declarations were written for.
pub const LLMM_VERSION_MINOR: u32 = 1;
/// Patch version these declarations were written for.
pub const LLMM_VERSION_PATCH: u32 = 0;
/// `major·10000 + minor·100 + patch` of the headers these declarations follow.
pub const LLMM_VERSION_NUMBER: u32 =
    LLMM_VERSION_MAJOR * 10000 + LLMM_VERSION_MINOR * 100 + LLMM_VERSION_PATCH;

/// The caller-sized structs, named for [`llmm_struct_init`] (`llmm_struct_kind`): `LLMM_STRUCT_`
/// and the struct's C name without `llmm_`, in capitals.
pub type llmm_struct_kind = c_int;
/// `llmm_allocator`
pub const LLMM_STRUCT_ALLOCATOR: llmm_struct_kind = 1;
/// `llmm_spike_stats`
pub const LLMM_STRUCT_SPIKE_STATS: llmm_struct_kind = 2;
/// `llmm_collapse_verdict`
pub const LLMM_STRUCT_COLLAPSE_VERDICT: llmm_struct_kind = 3;
/// `llmm_collapse_report`
pub const LLMM_STRUCT_COLLAPSE_REPORT: llmm_struct_kind = 4;
/// `llmm_stability_reading`
pub const LLMM_STRUCT_STABILITY_READING: llmm_struct_kind = 5;
/// `llmm_saturation_reading`
pub const LLMM_STRUCT_SATURATION_READING: llmm_struct_kind = 6;
/// `llmm_otlp_options`
pub const LLMM_STRUCT_OTLP_OPTIONS: llmm_struct_kind = 7;
/// `llmm_fit_stats`
pub const LLMM_STRUCT_FIT_STATS: llmm_struct_kind = 8;
/// `llmm_knee`
pub const LLMM_STRUCT_KNEE: llmm_struct_kind = 9;
/// `llmm_usl`
pub const LLMM_STRUCT_USL: llmm_struct_kind = 10;
/// `llmm_knee_options`
pub const LLMM_STRUCT_KNEE_OPTIONS: llmm_struct_kind = 11;
/// `llmm_lii_reading`
pub const LLMM_STRUCT_LII_READING: llmm_struct_kind = 12;
/// `llmm_kv_occupancy_result`
pub const LLMM_STRUCT_KV_OCCUPANCY_RESULT: llmm_struct_kind = 13;
/// `llmm_kv_hit_reading`
pub const LLMM_STRUCT_KV_HIT_READING: llmm_struct_kind = 14;
/// `llmm_tlb_reading`
pub const LLMM_STRUCT_TLB_READING: llmm_struct_kind = 15;
/// `llmm_score_result`
pub const LLMM_STRUCT_SCORE_RESULT: llmm_struct_kind = 16;
/// `llmm_slo_result`
pub const LLMM_STRUCT_SLO_RESULT: llmm_struct_kind = 17;
/// `llmm_goodput_result`
pub const LLMM_STRUCT_GOODPUT_RESULT: llmm_struct_kind = 18;
/// `llmm_burn_result`
pub const LLMM_STRUCT_BURN_RESULT: llmm_struct_kind = 19;
/// `llmm_error_trigger_reading`
pub const LLMM_STRUCT_ERROR_TRIGGER_READING: llmm_struct_kind = 20;

/// Allocation hooks (`llmm_allocator`); fill with [`llmm_struct_init`] first.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_allocator {
    /// The caller's `size_of::<llmm_allocator>()`, set by [`llmm_struct_init`].
    pub struct_size: u32,
    /// Passed unchanged to every hook.
    pub user: *mut c_void,
    /// Allocate `size` bytes, aligned like `malloc`; NULL on failure.
    pub alloc: Option<unsafe extern "C" fn(user: *mut c_void, size: usize) -> *mut c_void>,
    /// Resize `ptr` from `old_size` to `new_size` bytes; NULL on failure.
    pub realloc: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            ptr: *mut c_void,
            old_size: usize,
            new_size: usize,
        ) -> *mut c_void,
    >,
    /// Release `ptr`, allocated with `size` bytes.
    pub free: Option<unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void, size: usize)>,
}

opaque! {
    /// An immutable library context holding the allocator (`llmm_ctx`).
    llmm_ctx;
}

extern "C" {
    pub fn llmm_status_name(s: llmm_status) -> *const c_char;
    pub fn llmm_strerror(s: llmm_status) -> *const c_char;
    pub fn llmm_version() -> u32;
    pub fn llmm_version_string() -> *const c_char;
    pub fn llmm_allocator_init(a: *mut llmm_allocator) -> llmm_status;
    pub fn llmm_struct_init(kind: llmm_struct_kind, s: *mut c_void, size: u32) -> llmm_status;
    pub fn llmm_ctx_new(a: *const llmm_allocator, out: *mut *mut llmm_ctx) -> llmm_status;
    pub fn llmm_ctx_free(ctx: *mut llmm_ctx);
    pub fn llmm_now_ns() -> u64;
}
