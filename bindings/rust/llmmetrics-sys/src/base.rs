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
pub const LLMM_STRUCT_OPTION_INFO: llmm_struct_kind = 21;

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

/// The object kinds that have options, for [`llmm_option_describe`] (`llmm_object_kind`).
pub type llmm_object_kind = c_int;
/// `llmm_spike`
pub const LLMM_KIND_SPIKE: llmm_object_kind = 1;
/// `llmm_collapse`
pub const LLMM_KIND_COLLAPSE: llmm_object_kind = 2;
/// `llmm_stability`
pub const LLMM_KIND_STABILITY: llmm_object_kind = 3;
/// `llmm_saturation`
pub const LLMM_KIND_SATURATION: llmm_object_kind = 4;
/// `llmm_lii_monitor`
pub const LLMM_KIND_LII_MONITOR: llmm_object_kind = 5;
/// `llmm_scorecard`
pub const LLMM_KIND_SCORECARD: llmm_object_kind = 6;
/// `llmm_goodput`
pub const LLMM_KIND_GOODPUT: llmm_object_kind = 7;
/// `llmm_burn`
pub const LLMM_KIND_BURN: llmm_object_kind = 8;
/// `llmm_error_trigger`
pub const LLMM_KIND_ERROR_TRIGGER: llmm_object_kind = 9;
/// `llmm_host_sampler` (since 1.1.0)
pub const LLMM_KIND_HOST_SAMPLER: llmm_object_kind = 10;

/// The type of an option (`llmm_option_type`): which setter takes it.
pub type llmm_option_type = c_int;
/// `double`, set with `_set_f64`
pub const LLMM_OPTION_F64: llmm_option_type = 1;
/// `uint64_t`, set with `_set_u64`
pub const LLMM_OPTION_U64: llmm_option_type = 2;
/// `int32_t`, set with `_set_i32`
pub const LLMM_OPTION_I32: llmm_option_type = 3;

/// One option of an object kind (`llmm_option_info`); set `struct_size` to
/// `size_of::<llmm_option_info>()` before [`llmm_option_describe`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_option_info {
    /// The caller's `size_of::<llmm_option_info>()`.
    pub struct_size: u32,
    /// The key (an enumerator of the kind's option enum).
    pub key: i32,
    /// Which setter and which fields below.
    pub r#type: llmm_option_type,
    /// 1: the minimum itself is refused.
    pub min_exclusive: i32,
    /// 1: the maximum itself is refused.
    pub max_exclusive: i32,
    /// 1: may only change while the object holds no data.
    pub fixed_once_started: i32,
    /// 1: further constrained by another option or by construction.
    pub cross_checked: i32,
    /// 0: the value comes from a constructor argument.
    pub has_default: i32,
    /// Stable lower-case name; a static string.
    pub name: *const c_char,
    /// Smallest value (f64 options).
    pub min_f64: f64,
    /// Largest value (f64 options).
    pub max_f64: f64,
    /// Value of a new object (f64 options).
    pub default_f64: f64,
    /// Smallest value (u64 options).
    pub min_u64: u64,
    /// Largest value (u64 options).
    pub max_u64: u64,
    /// Value of a new object (u64 options).
    pub default_u64: u64,
    /// Smallest value (i32 options).
    pub min_i32: i32,
    /// Largest value (i32 options).
    pub max_i32: i32,
    /// Value of a new object (i32 options).
    pub default_i32: i32,
    /// Padding, 0.
    pub reserved_: i32,
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
    pub fn llmm_option_describe(
        kind: llmm_object_kind,
        index: u32,
        info: *mut llmm_option_info,
    ) -> llmm_status;
}
