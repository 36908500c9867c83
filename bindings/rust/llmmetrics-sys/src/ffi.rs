// llmmetrics-sys: the declarations of every public header.
// Generated from include/llmmetrics/*.h by tools/bindings/generate.py (the header
// model tools/abi/header_model.py); do not edit. Regenerate with
// `python3 tools/bindings/generate.py --write` (`./dev.sh abi-baseline` runs it too).

#[allow(unused_imports)]
use super::{c_char, c_int, c_void, SizePrefixed};

// ------------------------------------------------------------------------------------------------
// version.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_VERSION_MAJOR: u32 = 1;
pub const LLMM_VERSION_MINOR: u32 = 2;
pub const LLMM_VERSION_PATCH: u32 = 0;
pub const LLMM_VERSION_NUMBER: u32 = 10200;
pub const LLMM_VERSION_STRING: &[u8] = b"1.2.0\0";

// ------------------------------------------------------------------------------------------------
// core.h
// ------------------------------------------------------------------------------------------------

/// Result of every fallible call: 0 is success, errors are negative.
pub type llmm_status = c_int;
pub const LLMM_OK: llmm_status = 0;
pub const LLMM_E_INVALID: llmm_status = -1;
pub const LLMM_E_NOMEM: llmm_status = -2;
pub const LLMM_E_RANGE: llmm_status = -3;
pub const LLMM_E_EMPTY: llmm_status = -4;
pub const LLMM_E_CORRUPT: llmm_status = -5;
pub const LLMM_E_VERSION: llmm_status = -6;
pub const LLMM_E_BUFFER: llmm_status = -7;
pub const LLMM_E_UNKNOWN_OPTION: llmm_status = -8;
pub const LLMM_E_STATE: llmm_status = -9;
pub const LLMM_E_NOT_CONVERGED: llmm_status = -10;
pub const LLMM_E_ABI: llmm_status = -11;

/// The size-prefixed structs, named for llmm_struct_init().
pub type llmm_struct_kind = c_int;
pub const LLMM_STRUCT_ALLOCATOR: llmm_struct_kind = 1;
pub const LLMM_STRUCT_SPIKE_STATS: llmm_struct_kind = 2;
pub const LLMM_STRUCT_COLLAPSE_VERDICT: llmm_struct_kind = 3;
pub const LLMM_STRUCT_COLLAPSE_REPORT: llmm_struct_kind = 4;
pub const LLMM_STRUCT_STABILITY_READING: llmm_struct_kind = 5;
pub const LLMM_STRUCT_SATURATION_READING: llmm_struct_kind = 6;
pub const LLMM_STRUCT_OTLP_OPTIONS: llmm_struct_kind = 7;
pub const LLMM_STRUCT_FIT_STATS: llmm_struct_kind = 8;
pub const LLMM_STRUCT_KNEE: llmm_struct_kind = 9;
pub const LLMM_STRUCT_USL: llmm_struct_kind = 10;
pub const LLMM_STRUCT_KNEE_OPTIONS: llmm_struct_kind = 11;
pub const LLMM_STRUCT_LII_READING: llmm_struct_kind = 12;
pub const LLMM_STRUCT_KV_OCCUPANCY_RESULT: llmm_struct_kind = 13;
pub const LLMM_STRUCT_KV_HIT_READING: llmm_struct_kind = 14;
pub const LLMM_STRUCT_TLB_READING: llmm_struct_kind = 15;
pub const LLMM_STRUCT_SCORE_RESULT: llmm_struct_kind = 16;
pub const LLMM_STRUCT_SLO_RESULT: llmm_struct_kind = 17;
pub const LLMM_STRUCT_GOODPUT_RESULT: llmm_struct_kind = 18;
pub const LLMM_STRUCT_BURN_RESULT: llmm_struct_kind = 19;
pub const LLMM_STRUCT_ERROR_TRIGGER_READING: llmm_struct_kind = 20;
pub const LLMM_STRUCT_OPTION_INFO: llmm_struct_kind = 21;
pub const LLMM_STRUCT_OTLP_EXEMPLAR: llmm_struct_kind = 22;
pub const LLMM_STRUCT_OTLP_POINT: llmm_struct_kind = 23;
pub const LLMM_STRUCT_OTLP_METRIC: llmm_struct_kind = 24;
pub const LLMM_STRUCT_OTLP_METRICS_REQUEST: llmm_struct_kind = 25;
pub const LLMM_STRUCT_OTLP_ATTRIBUTE: llmm_struct_kind = 26;
pub const LLMM_STRUCT_OTLP_SPAN: llmm_struct_kind = 27;
pub const LLMM_STRUCT_OTLP_TRACES_REQUEST: llmm_struct_kind = 28;
pub const LLMM_STRUCT_EXEMPLAR: llmm_struct_kind = 29;
pub const LLMM_STRUCT_DECODE_INFO: llmm_struct_kind = 30;
pub const LLMM_STRUCT_TRACED_EVENT: llmm_struct_kind = 31;

/// Allocation hooks. Every allocation the library makes for a handle goes through the allocator of the context the handle was made with.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_allocator {
    /// caller-sized: set by llmm_allocator_init()
    pub struct_size: u32,
    /// passed unchanged to every hook
    pub user: *mut c_void,
    /// Allocate `size` bytes; NULL on failure.
    pub alloc: Option<unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void>,
    /// Resize `ptr` from `old_size` to `new_size` bytes; NULL on failure (ptr stays valid).
    pub realloc: Option<unsafe extern "C" fn(*mut c_void, *mut c_void, usize, usize) -> *mut c_void>,
    /// Release `ptr`, which was allocated with `size` bytes.
    pub free: Option<unsafe extern "C" fn(*mut c_void, *mut c_void, usize)>,
}

/// The object kinds that have options, for llmm_option_describe().
pub type llmm_object_kind = c_int;
pub const LLMM_KIND_SPIKE: llmm_object_kind = 1;
pub const LLMM_KIND_COLLAPSE: llmm_object_kind = 2;
pub const LLMM_KIND_STABILITY: llmm_object_kind = 3;
pub const LLMM_KIND_SATURATION: llmm_object_kind = 4;
pub const LLMM_KIND_LII_MONITOR: llmm_object_kind = 5;
pub const LLMM_KIND_SCORECARD: llmm_object_kind = 6;
pub const LLMM_KIND_GOODPUT: llmm_object_kind = 7;
pub const LLMM_KIND_BURN: llmm_object_kind = 8;
pub const LLMM_KIND_ERROR_TRIGGER: llmm_object_kind = 9;
pub const LLMM_KIND_HOST_SAMPLER: llmm_object_kind = 10;

/// The type of an option, which names its setter and getter (`_set_f64`, `_set_u64`, `_set_i32`) and the fields of llmm_option_info that hold its bounds and default.
pub type llmm_option_type = c_int;
pub const LLMM_OPTION_F64: llmm_option_type = 1;
pub const LLMM_OPTION_U64: llmm_option_type = 2;
pub const LLMM_OPTION_I32: llmm_option_type = 3;

/// One option of an object kind (llmm_option_describe()).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_option_info {
    /// the caller's `sizeof(llmm_option_info)`
    pub struct_size: u32,
    /// the enumerator of the kind's option enum, e.g. LLMM_SPIKE_SEVERE_FACTOR
    pub key: i32,
    /// which setter and which fields below
    pub r#type: llmm_option_type,
    /// 1: the minimum itself is refused
    pub min_exclusive: i32,
    /// 1: the maximum itself is refused
    pub max_exclusive: i32,
    /// 1: may only change while the object holds no data (after creation or its reset); LLMM_E_STATE otherwise
    pub fixed_once_started: i32,
    /// 1: further constrained by another option or by how the object was made (see the key's documentation)
    pub cross_checked: i32,
    /// 0: the value comes from a constructor argument
    pub has_default: i32,
    /// stable lower-case name, e.g. `"severe_factor"`; static
    pub name: *const c_char,
    /// smallest value (f64 options)
    pub min_f64: f64,
    /// largest value (f64 options; may be +Inf)
    pub max_f64: f64,
    /// value of a new object (f64 options)
    pub default_f64: f64,
    /// smallest value (u64 options)
    pub min_u64: u64,
    /// largest value (u64 options)
    pub max_u64: u64,
    /// value of a new object (u64 options)
    pub default_u64: u64,
    /// smallest value (i32 options)
    pub min_i32: i32,
    /// largest value (i32 options)
    pub max_i32: i32,
    /// value of a new object (i32 options)
    pub default_i32: i32,
    /// @private padding, always 0
    pub reserved_: i32,
}

opaque! {
    /// An immutable library context: holds the allocator.
    llmm_ctx;
}

extern "C" {
    /// Symbolic name of a status, e.g. `"LLMM_E_INVALID"`.
    pub fn llmm_status_name(s: llmm_status) -> *const c_char;
    /// Human-readable message for a status, e.g. `"invalid argument"`.
    pub fn llmm_strerror(s: llmm_status) -> *const c_char;
    /// Version of the library actually loaded, as major·10000 + minor·100 + patch.
    pub fn llmm_version() -> u32;
    /// Version of the library actually loaded, as a static string such as `"1.0.0"`.
    pub fn llmm_version_string() -> *const c_char;
    /// Initialise a caller-sized struct of `size` bytes: the rule for every struct that starts with `uint32_t struct_size`.
    pub fn llmm_struct_init(kind: llmm_struct_kind, s: *mut c_void, size: u32) -> llmm_status;
    /// Initialise an llmm_allocator: libc-backed hooks, `user` NULL.
    pub fn llmm_allocator_init(a: *mut llmm_allocator) -> llmm_status;
    /// Create a context.
    pub fn llmm_ctx_new(a: *const llmm_allocator, out: *mut *mut llmm_ctx) -> llmm_status;
    /// Free a context. NULL is a no-op.
    pub fn llmm_ctx_free(ctx: *mut llmm_ctx);
    /// Read the monotonic clock (CLOCK_MONOTONIC) in nanoseconds.
    pub fn llmm_now_ns() -> u64;
    /// Describe the option at position `index` of an object kind: its key, name, type, bounds, default and flags.
    pub fn llmm_option_describe(kind: llmm_object_kind, index: u32, info: *mut llmm_option_info) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// sketch.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_SCALE_DEFAULT: i32 = 6;
pub const LLMM_SCALE_MIN: i32 = 0;
pub const LLMM_SCALE_MAX: i32 = 10;
pub const LLMM_SKETCH_RANGE_MIN_DEFAULT: f64 = 1e-09;
pub const LLMM_SKETCH_RANGE_MAX_DEFAULT: f64 = 1000000000000000.0;
pub const LLMM_SKETCH_RANGE_MIN_LIMIT: f64 = 1e-300;
pub const LLMM_SKETCH_RANGE_MAX_LIMIT: f64 = 1e+300;
pub const LLMM_SKETCH_FORMAT_VERSION: u32 = 1;

/// What llmm_sketch_deserialize_ex() found in a message: whether its bytes are intact, which rule of doc/format.md section 3.4 it breaks, and whether it was repaired.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_decode_info {
    /// the caller's `sizeof(llmm_decode_info)`
    pub struct_size: u32,
    /// 1: the magic and the CRC-32C check out, the bytes are as their writer wrote them (a refusal is then a contradiction, not damage); 0: damaged, truncated or not a sketch
    pub intact: i32,
    /// the format version byte of an intact message; 0 otherwise
    pub version: i32,
    /// 0: no rule of section 3.4 is broken (or the message was refused before they apply: see the status); 1 to 7: the first broken rule, in the order 1, 2, 3, 4, 5, 7, 6 (also when repaired)
    pub rule: i32,
    /// 1: the message broke rule 6 alone and was repaired (version 1)
    pub repaired: i32,
    /// the message's own min and max (intact messages; 0 otherwise):
    pub message_min: f64,
    /// the sketch holds the repaired ones when `repaired` is 1
    pub message_max: f64,
}

opaque! {
    /// A streaming, mergeable quantile sketch (opaque).
    llmm_sketch;
    /// A multi-writer recorder (opaque). @since 1.0.0
    llmm_recorder;
    /// A single-writer shard of a recorder (opaque, owned by the recorder). @since 1.0.0
    llmm_shard;
}

extern "C" {
    /// Create an empty sketch.
    pub fn llmm_sketch_new(ctx: *mut llmm_ctx, scale: i32, out: *mut *mut llmm_sketch) -> llmm_status;
    /// Free a sketch. NULL is a no-op.
    pub fn llmm_sketch_free(s: *mut llmm_sketch);
    /// Set the accurately tracked value range. Only allowed while the sketch is empty.
    pub fn llmm_sketch_set_range(s: *mut llmm_sketch, lo: f64, hi: f64) -> llmm_status;
    /// Read the configured range.
    pub fn llmm_sketch_range(s: *const llmm_sketch, lo: *mut f64, hi: *mut f64) -> llmm_status;
    /// Record one value. The hot path: no allocation once its bucket region is touched.
    pub fn llmm_sketch_add(s: *mut llmm_sketch, v: f64) -> llmm_status;
    /// Record one value `n` times (n = 0 is a no-op that still validates `v`).
    pub fn llmm_sketch_add_n(s: *mut llmm_sketch, v: f64, n: u64) -> llmm_status;
    /// Record a batch. All or nothing: if any value is invalid (or memory runs out) the sketch is left exactly as it was and nothing of the batch is recorded. The sum is the same, bit for bit, as adding the values one by one with llmm_sketch_add().
    pub fn llmm_sketch_add_many(s: *mut llmm_sketch, v: *const f64, n: usize) -> llmm_status;
    /// Quantile `q` by the nearest-rank rule described in the file documentation.
    pub fn llmm_sketch_quantile(s: *const llmm_sketch, q: f64, out: *mut f64) -> llmm_status;
    /// Many quantiles in one pass over the buckets; `q` may be in any order.
    pub fn llmm_sketch_quantiles(s: *const llmm_sketch, q: *const f64, n: usize, out: *mut f64) -> llmm_status;
    /// Fraction of recorded values ≤ `v`.
    pub fn llmm_sketch_rank(s: *const llmm_sketch, v: f64, fraction_le: *mut f64) -> llmm_status;
    /// Number of recorded values (zero, in-range and out-of-range alike).
    pub fn llmm_sketch_count(s: *const llmm_sketch) -> u64;
    /// Sum of the recorded values (0 for an empty sketch), added in arrival order.
    pub fn llmm_sketch_sum(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    /// Exact smallest recorded value.
    pub fn llmm_sketch_min(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    /// Exact largest recorded value.
    pub fn llmm_sketch_max(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    /// Arithmetic mean (sum / count).
    pub fn llmm_sketch_mean(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    /// Counts outside the bucketed range: exact zeros, values below and above the range.
    pub fn llmm_sketch_special_counts(s: *const llmm_sketch, zero: *mut u64, under: *mut u64, over: *mut u64) -> llmm_status;
    /// Scale of the sketch.
    pub fn llmm_sketch_scale(s: *const llmm_sketch) -> i32;
    /// The smallest and largest non-empty bucket index (OpenTelemetry numbering).
    pub fn llmm_sketch_bucket_span(s: *const llmm_sketch, first: *mut i32, last: *mut i32) -> llmm_status;
    /// Count of one bucket (0 for any index the sketch has not touched).
    pub fn llmm_sketch_bucket_count(s: *const llmm_sketch, index: i32) -> u64;
    /// Bucket index of a value at a scale: `i` with base^i < v ≤ base^(i+1).
    pub fn llmm_sketch_index(scale: i32, v: f64, index: *mut i32) -> llmm_status;
    /// Bounds of bucket `index` at `scale`: (lower, upper] = (base^index, base^(index+1)].
    pub fn llmm_sketch_bucket_bounds(scale: i32, index: i32, lower: *mut f64, upper: *mut f64) -> llmm_status;
    /// Merge `src` into `dst` exactly.
    pub fn llmm_sketch_merge(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;
    /// Turn a later cumulative snapshot into the interval since an earlier one: `dst = dst − earlier`.
    pub fn llmm_sketch_subtract(dst: *mut llmm_sketch, earlier: *const llmm_sketch) -> llmm_status;
    /// Remove every value; scale, range and allocated memory stay.
    pub fn llmm_sketch_reset(s: *mut llmm_sketch) -> llmm_status;
    /// Deep copy (same context, scale, range and contents).
    pub fn llmm_sketch_clone(s: *const llmm_sketch, out: *mut *mut llmm_sketch) -> llmm_status;
    /// Lower the scale in place by an exact index shift (bucket i → i >> (scale − new)).
    pub fn llmm_sketch_downscale(s: *mut llmm_sketch, new_scale: i32) -> llmm_status;
    /// Copy `src`'s contents into `dst`, replacing all of `dst`'s contents, scale and range.
    pub fn llmm_sketch_copy(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;
    /// Create a recorder.
    pub fn llmm_recorder_new(ctx: *mut llmm_ctx, scale: i32, out: *mut *mut llmm_recorder) -> llmm_status;
    /// Set the tracked value range (as llmm_sketch_set_range()); only before the first shard is handed out.
    pub fn llmm_recorder_set_range(r: *mut llmm_recorder, lo: f64, hi: f64) -> llmm_status;
    /// Hand out a shard for the calling writer thread: a released one if there is one, else a new one.
    pub fn llmm_recorder_shard(r: *mut llmm_recorder, out: *mut *mut llmm_shard) -> llmm_status;
    /// Record one value into a shard.
    pub fn llmm_shard_add(sh: *mut llmm_shard, v: f64) -> llmm_status;
    /// Record a batch into a shard; all or nothing, as llmm_sketch_add_many(): the batch is checked (and the pages it needs made) before any of it is counted, so a concurrent snapshot never sees part of a failed batch.
    pub fn llmm_shard_add_many(sh: *mut llmm_shard, v: *const f64, n: usize) -> llmm_status;
    /// Give a shard back. Its counts stay in the recorder; the shard may be handed out again by llmm_recorder_shard(). NULL is a no-op.
    pub fn llmm_shard_release(sh: *mut llmm_shard);
    /// Replace `into`'s contents (and scale and range) with the cumulative totals of every shard. Safe while writers run.
    pub fn llmm_recorder_snapshot(r: *mut llmm_recorder, into: *mut llmm_sketch) -> llmm_status;
    /// Free a recorder and all its shards. NULL is a no-op.
    pub fn llmm_recorder_free(r: *mut llmm_recorder);
    /// Encode a sketch into a caller buffer.
    pub fn llmm_sketch_serialize(s: *const llmm_sketch, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Decode a sketch encoded by llmm_sketch_serialize() (format versions up to LLMM_SKETCH_FORMAT_VERSION).
    pub fn llmm_sketch_deserialize(ctx: *mut llmm_ctx, buf: *const u8, len: usize, out: *mut *mut llmm_sketch) -> llmm_status;
    /// Decode as llmm_sketch_deserialize() does, saying why a message is refused, and read the messages the 1.0 recorder wrote with its known extreme bug.
    pub fn llmm_sketch_deserialize_ex(ctx: *mut llmm_ctx, buf: *const u8, len: usize, out: *mut *mut llmm_sketch, info: *mut llmm_decode_info) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// window.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_WINDOW_SLOT_NS_DEFAULT: u64 = 1000000000;
pub const LLMM_WINDOW_SLOTS_DEFAULT: u32 = 60;
pub const LLMM_WINDOW_SLOTS_MAX: u32 = 100000;

opaque! {
    /// A ring of per-slot quantile sketches driven by the caller's clock (opaque).
    llmm_window;
    /// A time ring of (events, total) counters (opaque).
    llmm_ratio_window;
}

extern "C" {
    /// Create an empty window.
    pub fn llmm_window_new(ctx: *mut llmm_ctx, slot_ns: u64, slots: u32, scale: i32, out: *mut *mut llmm_window) -> llmm_status;
    /// Free a window. NULL is a no-op.
    pub fn llmm_window_free(w: *mut llmm_window);
    /// The window's geometry as created (defaults resolved).
    pub fn llmm_window_geometry(w: *const llmm_window, slot_ns: *mut u64, slots: *mut u32) -> llmm_status;
    /// Record one value at time `now_ns` (into the slot containing `now_ns`).
    pub fn llmm_window_add(w: *mut llmm_window, now_ns: u64, v: f64) -> llmm_status;
    /// Record a batch of values, all at time `now_ns`. All or nothing: if any value is invalid nothing is recorded.
    pub fn llmm_window_add_many(w: *mut llmm_window, now_ns: u64, v: *const f64, n: usize) -> llmm_status;
    /// Number of values recorded in the slots that a span covers.
    pub fn llmm_window_count(w: *mut llmm_window, now_ns: u64, span_ns: u64, count: *mut u64) -> llmm_status;
    /// Quantile `q` of the values in the slots a span covers (nearest-rank rule of sketch.h, same relative error as one sketch: merging slots is exact).
    pub fn llmm_window_quantile(w: *mut llmm_window, now_ns: u64, span_ns: u64, q: f64, out: *mut f64) -> llmm_status;
    /// Many quantiles of the values in the slots a span covers, in one merge and one pass.
    pub fn llmm_window_quantiles(w: *mut llmm_window, now_ns: u64, span_ns: u64, q: *const f64, n: usize, out: *mut f64) -> llmm_status;
    /// Merge the slots a span covers into `into`, replacing its contents.
    pub fn llmm_window_snapshot(w: *mut llmm_window, now_ns: u64, span_ns: u64, into: *mut llmm_sketch) -> llmm_status;
    /// Forget every value and the clock: the window is as new (any `now_ns` is accepted next). Allocated memory is kept.
    pub fn llmm_window_reset(w: *mut llmm_window) -> llmm_status;
    /// Create an empty ratio window.
    pub fn llmm_ratio_window_new(ctx: *mut llmm_ctx, slot_ns: u64, slots: u32, out: *mut *mut llmm_ratio_window) -> llmm_status;
    /// Free a ratio window. NULL is a no-op.
    pub fn llmm_ratio_window_free(rw: *mut llmm_ratio_window);
    /// Count `events` out of `total` at time `now_ns` (e.g. 1 of 1 for a failed request, 0 of 1 for a good one, or a batch).
    pub fn llmm_ratio_window_add(rw: *mut llmm_ratio_window, now_ns: u64, events: u64, total: u64) -> llmm_status;
    /// Sums of events and totals over the slots a span covers.
    pub fn llmm_ratio_window_counts(rw: *mut llmm_ratio_window, now_ns: u64, span_ns: u64, events: *mut u64, total: *mut u64) -> llmm_status;
    /// events / total over the slots a span covers, in [0, 1].
    pub fn llmm_ratio_window_ratio(rw: *mut llmm_ratio_window, now_ns: u64, span_ns: u64, ratio: *mut f64) -> llmm_status;
    /// Forget every count and the clock: the ratio window is as new.
    pub fn llmm_ratio_window_reset(rw: *mut llmm_ratio_window) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// detect.h
// ------------------------------------------------------------------------------------------------

/// Classification of one latency.
pub type llmm_spike_level = c_int;
pub const LLMM_SPIKE_NONE: llmm_spike_level = 0;
pub const LLMM_SPIKE_LEVEL1: llmm_spike_level = 1;
pub const LLMM_SPIKE_LEVEL2: llmm_spike_level = 2;

/// Option keys of the spike detector. Each key has one type: the f64 keys are set with llmm_spike_set_f64(), the u64 keys with llmm_spike_set_u64(). Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_SPIKE).
pub type llmm_spike_option = c_int;
pub const LLMM_SPIKE_BASE_QUANTILE: llmm_spike_option = 1;
pub const LLMM_SPIKE_SEVERE_QUANTILE: llmm_spike_option = 2;
pub const LLMM_SPIKE_SEVERE_FACTOR: llmm_spike_option = 3;
pub const LLMM_SPIKE_WARMUP: llmm_spike_option = 4;
pub const LLMM_SPIKE_SLOT_NS: llmm_spike_option = 5;
pub const LLMM_SPIKE_SLOTS: llmm_spike_option = 6;
pub const LLMM_SPIKE_SCALE: llmm_spike_option = 7;

/// What the detector knows at a time stamp: baselines in force and counts per level.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_spike_stats {
    /// caller-sized: set by llmm_spike_stats_init()
    pub struct_size: u32,
    /// 1 when samples are being classified (warm-up done), else 0
    pub ready: i32,
    /// base quantile (P99) in force; 0 when no baseline
    pub base_threshold: f64,
    /// severe quantile (P99.9) in force; 0 when no baseline
    pub severe_threshold: f64,
    /// latencies the baselines in force were computed from
    pub baseline_samples: u64,
    /// samples observed in the window
    pub window_samples: u64,
    /// of those, classified (observed after warm-up)
    pub window_classified: u64,
    /// of those, level 1
    pub window_level1: u64,
    /// of those, level 2
    pub window_level2: u64,
    /// samples observed since creation or reset
    pub total_samples: u64,
    /// of those, classified
    pub total_classified: u64,
    /// of those, level 1
    pub total_level1: u64,
    /// of those, level 2
    pub total_level2: u64,
}

pub const LLMM_COLLAPSE_WINDOW_DEFAULT: u32 = 8;
pub const LLMM_COLLAPSE_WINDOW_MAX: u32 = 4096;
pub const LLMM_DETECT_VALUE_MAX: f64 = 1e+100;

/// Option keys of the collapse detector. Each key has one type: the f64 keys are set with llmm_collapse_set_f64(), the u64 keys with llmm_collapse_set_u64(). Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_COLLAPSE).
pub type llmm_collapse_option = c_int;
pub const LLMM_COLLAPSE_WINDOW: llmm_collapse_option = 1;
pub const LLMM_COLLAPSE_K: llmm_collapse_option = 2;
pub const LLMM_COLLAPSE_SIGMA_FLOOR: llmm_collapse_option = 3;
pub const LLMM_COLLAPSE_SWITCH_NS: llmm_collapse_option = 4;
pub const LLMM_COLLAPSE_REQUIRE_SWITCH: llmm_collapse_option = 5;
pub const LLMM_COLLAPSE_TPS_DROP: llmm_collapse_option = 6;
pub const LLMM_COLLAPSE_MEMBW_BELOW: llmm_collapse_option = 7;
pub const LLMM_COLLAPSE_CONFIRM_NS: llmm_collapse_option = 8;

/// The verdict on one latency (llmm_collapse_observe_ex()).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_collapse_verdict {
    /// caller-sized: set by llmm_collapse_verdict_init()
    pub struct_size: u32,
    /// 1: outlier and (if required) matched to a switch
    pub collapsed: i32,
    /// 1: a baseline of W earlier latencies existed
    pub ready: i32,
    /// 1: latency > threshold (whatever the switch)
    pub outlier: i32,
    /// 1: at most LLMM_COLLAPSE_SWITCH_NS after the latest switch
    pub after_switch: i32,
    /// 1: σ was raised to the floor
    pub floored: i32,
    /// baseline mean; 0 when not ready
    pub mean: f64,
    /// baseline σ after the floor; 0 when not ready
    pub sigma: f64,
    /// mean + k·σ; 0 when not ready
    pub threshold: f64,
    /// now − latest switch; UINT64_MAX when no switch was marked
    pub since_switch_ns: u64,
    /// latencies observed since creation or reset, this one included
    pub samples: u64,
}

/// The confirmation matrix of the latest switch (llmm_collapse_switch_report()).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_collapse_report {
    /// caller-sized: set by llmm_collapse_report_init()
    pub struct_size: u32,
    /// confirmed signals among latency, TPS, memory bandwidth: 0 … 3
    pub signals: i32,
    /// 1: a latency matched to the switch was collapsed
    pub latency_confirmed: i32,
    /// 1: a reading before and one after the switch, before > 0
    pub tps_known: i32,
    /// 1: tps_known and tps_drop > LLMM_COLLAPSE_TPS_DROP
    pub tps_confirmed: i32,
    /// 1: a memory-bandwidth reading after the switch
    pub membw_known: i32,
    /// 1: membw_known and membw < LLMM_COLLAPSE_MEMBW_BELOW
    pub membw_confirmed: i32,
    /// 1: the latest time stamp accepted is still inside the switch's matching intervals, so the report may change
    pub open: i32,
    /// time stamp of the switch
    pub switch_ns: u64,
    /// latencies matched to the switch
    pub latencies: u64,
    /// of those, collapsed
    pub flagged: u64,
    /// last TPS reading before the switch; 0 when none
    pub tps_before: f64,
    /// lowest TPS reading matched to the switch; 0 when none
    pub tps_after: f64,
    /// 1 − after / before when tps_known (negative for a rise), else 0
    pub tps_drop: f64,
    /// lowest utilisation matched to the switch; 0 when none
    pub membw: f64,
}

pub const LLMM_EVENT_LOG_CAPACITY_DEFAULT: u32 = 1024;
pub const LLMM_EVENT_LOG_CAPACITY_MAX: u32 = 16777216;
pub const LLMM_EVENT_ATTR_TCP_RETRANSMIT: &[u8] = b"net.tcp.retrans\0";
pub const LLMM_EVENT_ATTR_MAJOR_FAULT: &[u8] = b"mem.major_fault\0";
pub const LLMM_EVENT_ATTR_SCHED_JITTER: &[u8] = b"sched.jitter\0";
pub const LLMM_EVENT_ATTR_NUMA_MIGRATION: &[u8] = b"mem.numa_migration\0";
pub const LLMM_EVENT_ATTR_WEIGHT_SWITCH: &[u8] = b"model.weight_switch\0";
pub const LLMM_EVENT_ATTR_GC_PAUSE: &[u8] = b"runtime.gc_pause\0";
pub const LLMM_EVENT_ATTR_CPU_PRESSURE: &[u8] = b"cpu.pressure\0";
pub const LLMM_EVENT_ATTR_MEMORY_PRESSURE: &[u8] = b"mem.pressure\0";
pub const LLMM_EVENT_ATTR_IO_PRESSURE: &[u8] = b"io.pressure\0";
pub const LLMM_EVENT_ATTR_CPU_FREQ_DROP: &[u8] = b"cpu.freq_drop\0";
pub const LLMM_EVENT_ATTR_CTX_SWITCHES: &[u8] = b"sched.ctx_switches\0";
pub const LLMM_EVENT_ATTR_CPU_THROTTLE: &[u8] = b"cpu.throttle\0";

/// Known event types (values pinned). Calls take the type as `int32_t` so that the caller's own ids (LLMM_EVENT_USER and above) pass unchanged.
pub type llmm_event_type = c_int;
pub const LLMM_EVENT_TCP_RETRANSMIT: llmm_event_type = 1;
pub const LLMM_EVENT_MAJOR_FAULT: llmm_event_type = 2;
pub const LLMM_EVENT_SCHED_JITTER: llmm_event_type = 3;
pub const LLMM_EVENT_NUMA_MIGRATION: llmm_event_type = 4;
pub const LLMM_EVENT_WEIGHT_SWITCH: llmm_event_type = 5;
pub const LLMM_EVENT_GC_PAUSE: llmm_event_type = 6;
pub const LLMM_EVENT_CPU_PRESSURE: llmm_event_type = 7;
pub const LLMM_EVENT_MEMORY_PRESSURE: llmm_event_type = 8;
pub const LLMM_EVENT_IO_PRESSURE: llmm_event_type = 9;
pub const LLMM_EVENT_CPU_FREQ_DROP: llmm_event_type = 10;
pub const LLMM_EVENT_CTX_SWITCHES: llmm_event_type = 11;
pub const LLMM_EVENT_CPU_THROTTLE: llmm_event_type = 12;
pub const LLMM_EVENT_USER: llmm_event_type = 65536;

/// One event as returned by llmm_event_log_lookback().
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_event {
    /// the event's time stamp
    pub time_ns: u64,
    /// how long before the query's time stamp it happened (≥ 0)
    pub before_ns: u64,
    /// the value given with the event
    pub value: f64,
    /// its type (llmm_event_type or a user id)
    pub r#type: i32,
    /// 0
    pub reserved: u32,
}

/// One event with the trace it belongs to, as returned by llmm_event_log_lookback_traced(): the 1.0 llmm_event (which stays 32 bytes) plus the W3C trace and span ids given to llmm_event_log_add_traced().
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_traced_event {
    /// caller-sized: set by llmm_traced_event_init()
    pub struct_size: u32,
    /// its type (llmm_event_type or a user id)
    pub r#type: i32,
    /// the event's time stamp
    pub time_ns: u64,
    /// how long before the query's time stamp it happened (≥ 0)
    pub before_ns: u64,
    /// the value given with the event
    pub value: f64,
    /// the trace it belongs to; all zero: none
    pub trace_id: [u8; 16],
    /// the span within it; all zero: none
    pub span_id: [u8; 8],
}

/// Correlation coefficient.
pub type llmm_correlation_method = c_int;
pub const LLMM_CORRELATION_PEARSON: llmm_correlation_method = 1;
pub const LLMM_CORRELATION_SPEARMAN: llmm_correlation_method = 2;

pub const LLMM_STABILITY_WINDOWS_DEFAULT: u32 = 5;
pub const LLMM_STABILITY_WINDOWS_MAX: u32 = 64;

/// Option keys of the stability gate. Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_STABILITY).
pub type llmm_stability_option = c_int;
pub const LLMM_STABILITY_WINDOWS: llmm_stability_option = 1;
pub const LLMM_STABILITY_EPSILON: llmm_stability_option = 2;

/// The gate's state (llmm_stability_read()).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_stability_reading {
    /// caller-sized: set by llmm_stability_reading_init()
    pub struct_size: u32,
    /// 1: k means held and max / min ≤ 1 + ε
    pub stable: i32,
    /// means judged: min(k, means added), ≤ k
    pub held: u32,
    /// k
    pub windows: u32,
    /// smallest mean held; 0 when none
    pub min: f64,
    /// largest mean held; 0 when none
    pub max: f64,
    /// max / min; 0 when none
    pub ratio: f64,
    /// means added since creation or reset
    pub total: u64,
}

pub const LLMM_SATURATION_WINDOW_DEFAULT: u32 = 64;
pub const LLMM_SATURATION_WINDOW_MAX: u32 = 1048576;

/// Option keys of the saturation signal. Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_SATURATION).
pub type llmm_saturation_option = c_int;
pub const LLMM_SATURATION_WINDOW: llmm_saturation_option = 1;
pub const LLMM_SATURATION_CONFIDENCE: llmm_saturation_option = 2;

/// The signal's state (llmm_saturation_read()).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_saturation_reading {
    /// caller-sized: set by llmm_saturation_reading_init()
    pub struct_size: u32,
    /// 1: ready and both slopes confidently positive
    pub saturated: i32,
    /// 1: the window holds N samples
    pub ready: i32,
    /// 1: the latency slope is confidently positive
    pub latency_rising: i32,
    /// 1: the in-flight slope is confidently positive
    pub inflight_rising: i32,
    /// samples held, ≤ N
    pub samples: u32,
    /// least-squares slope of latency over time; 0 when < 2 samples
    pub latency_slope: f64,
    /// its standard error; 0 when < 3 samples
    pub latency_slope_se: f64,
    /// least-squares slope of in-flight requests over time
    pub inflight_slope: f64,
    /// its standard error
    pub inflight_slope_se: f64,
    /// samples observed since creation or reset
    pub total: u64,
}

opaque! {
    /// A latency-spike detector (opaque).
    llmm_spike;
    /// A throughput-collapse detector (opaque).
    llmm_collapse;
    /// A bounded, time-ordered ring of events (opaque).
    llmm_event_log;
    /// A stability gate (opaque).
    llmm_stability;
    /// An online saturation signal (opaque).
    llmm_saturation;
}

extern "C" {
    /// Create a spike detector with the default options (options_reference).
    pub fn llmm_spike_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_spike) -> llmm_status;
    /// Free a detector. NULL is a no-op.
    pub fn llmm_spike_free(d: *mut llmm_spike);
    /// Set a floating-point option (bounds: options_reference).
    pub fn llmm_spike_set_f64(d: *mut llmm_spike, key: llmm_spike_option, value: f64) -> llmm_status;
    /// Read a floating-point option.
    pub fn llmm_spike_get_f64(d: *const llmm_spike, key: llmm_spike_option, value: *mut f64) -> llmm_status;
    /// Set an integer option (bounds: options_reference).
    pub fn llmm_spike_set_u64(d: *mut llmm_spike, key: llmm_spike_option, value: u64) -> llmm_status;
    /// Read an integer option.
    pub fn llmm_spike_get_u64(d: *const llmm_spike, key: llmm_spike_option, value: *mut u64) -> llmm_status;
    /// Record one latency and classify it against the baselines in force.
    pub fn llmm_spike_observe(d: *mut llmm_spike, now_ns: u64, latency: f64, level: *mut llmm_spike_level) -> llmm_status;
    /// Spike rate over the window: classified samples above the base threshold in force on arrival, divided by the classified samples in the window.
    pub fn llmm_spike_rate(d: *mut llmm_spike, now_ns: u64, rate: *mut f64) -> llmm_status;
    /// Initialise a llmm_spike_stats: every field 0.
    pub fn llmm_spike_stats_init(s: *mut llmm_spike_stats) -> llmm_status;
    /// Baselines in force and counts per level at `now_ns`.
    pub fn llmm_spike_get_stats(d: *mut llmm_spike, now_ns: u64, s: *mut llmm_spike_stats) -> llmm_status;
    /// Forget every sample, count, baseline and the clock; options stay.
    pub fn llmm_spike_reset(d: *mut llmm_spike) -> llmm_status;
    /// Create a collapse detector with the default options (options_reference).
    pub fn llmm_collapse_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_collapse) -> llmm_status;
    /// Free a detector. NULL is a no-op.
    pub fn llmm_collapse_free(c: *mut llmm_collapse);
    /// Set a floating-point option (bounds: options_reference). Takes effect with the next call.
    pub fn llmm_collapse_set_f64(c: *mut llmm_collapse, key: llmm_collapse_option, value: f64) -> llmm_status;
    /// Read a floating-point option.
    pub fn llmm_collapse_get_f64(c: *const llmm_collapse, key: llmm_collapse_option, value: *mut f64) -> llmm_status;
    /// Set an integer option (bounds: options_reference).
    pub fn llmm_collapse_set_u64(c: *mut llmm_collapse, key: llmm_collapse_option, value: u64) -> llmm_status;
    /// Read an integer option.
    pub fn llmm_collapse_get_u64(c: *const llmm_collapse, key: llmm_collapse_option, value: *mut u64) -> llmm_status;
    /// Mark a weight (precision) switch at `now_ns`.
    pub fn llmm_collapse_mark_switch(c: *mut llmm_collapse, now_ns: u64) -> llmm_status;
    /// Judge one batch latency against the W before it, then add it to the window.
    pub fn llmm_collapse_observe(c: *mut llmm_collapse, now_ns: u64, latency: f64, collapsed: *mut i32) -> llmm_status;
    /// Initialise a llmm_collapse_verdict: every field 0.
    pub fn llmm_collapse_verdict_init(v: *mut llmm_collapse_verdict) -> llmm_status;
    /// llmm_collapse_observe() with the whole verdict: baseline, threshold, switch distance.
    pub fn llmm_collapse_observe_ex(c: *mut llmm_collapse, now_ns: u64, latency: f64, v: *mut llmm_collapse_verdict) -> llmm_status;
    /// Give a throughput reading (tokens per second, or any rate where a drop is bad).
    pub fn llmm_collapse_observe_tps(c: *mut llmm_collapse, now_ns: u64, tps: f64) -> llmm_status;
    /// Give a memory-bandwidth utilisation reading in [0, 1].
    pub fn llmm_collapse_observe_membw(c: *mut llmm_collapse, now_ns: u64, utilisation: f64) -> llmm_status;
    /// Initialise a llmm_collapse_report: every field 0.
    pub fn llmm_collapse_report_init(r: *mut llmm_collapse_report) -> llmm_status;
    /// The confirmation matrix of the latest switch: latency, TPS drop, memory bandwidth, each reported on its own.
    pub fn llmm_collapse_switch_report(c: *const llmm_collapse, r: *mut llmm_collapse_report) -> llmm_status;
    /// Counts since creation or reset.
    pub fn llmm_collapse_counts(c: *const llmm_collapse, samples: *mut u64, collapsed: *mut u64, switches: *mut u64) -> llmm_status;
    /// Forget every latency, reading, switch, count and the clock; options stay.
    pub fn llmm_collapse_reset(c: *mut llmm_collapse) -> llmm_status;
    /// The stable attribute name of a known event type.
    pub fn llmm_event_attr_name(r#type: i32) -> *const c_char;
    /// Create an empty event log.
    pub fn llmm_event_log_new(ctx: *mut llmm_ctx, capacity: u32, out: *mut *mut llmm_event_log) -> llmm_status;
    /// Free a log. NULL is a no-op.
    pub fn llmm_event_log_free(log: *mut llmm_event_log);
    /// Record an event; when the ring is full the oldest event is dropped.
    pub fn llmm_event_log_add(log: *mut llmm_event_log, now_ns: u64, r#type: i32, value: f64) -> llmm_status;
    /// The events stamped in `[at_ns − lookback_ns, at_ns]` (clamped at 0), nearest to `at_ns` first; among equal time stamps the one added last comes first.
    pub fn llmm_event_log_lookback(log: *const llmm_event_log, at_ns: u64, lookback_ns: u64, out: *mut llmm_event, cap: usize, len: *mut usize) -> llmm_status;
    /// Count the events of one type (or of every type) stamped in `[from_ns, to_ns]`.
    pub fn llmm_event_log_count(log: *const llmm_event_log, r#type: i32, from_ns: u64, to_ns: u64, count: *mut u64) -> llmm_status;
    /// How many events the log holds, has accepted and has dropped since creation or reset.
    pub fn llmm_event_log_counts(log: *const llmm_event_log, held: *mut u64, total: *mut u64, dropped: *mut u64) -> llmm_status;
    /// Forget every event, the counts and the clock; the capacity stays.
    pub fn llmm_event_log_reset(log: *mut llmm_event_log) -> llmm_status;
    /// Record an event that belongs to a trace (a kernel event attributed to a request, a request's own latency spike): as llmm_event_log_add(), with the trace and span ids kept beside it for llmm_event_log_lookback_traced().
    pub fn llmm_event_log_add_traced(log: *mut llmm_event_log, now_ns: u64, r#type: i32, value: f64, trace_id: *const u8, span_id: *const u8) -> llmm_status;
    /// The events stamped in `[at_ns − lookback_ns, at_ns]` with their traces: as llmm_event_log_lookback() (same events, same order), into caller-sized records.
    pub fn llmm_event_log_lookback_traced(log: *const llmm_event_log, at_ns: u64, lookback_ns: u64, out: *mut llmm_traced_event, cap: usize, len: *mut usize) -> llmm_status;
    /// Correlation of the pairs `(x[i], y[i])`, i < n.
    pub fn llmm_correlation(ctx: *mut llmm_ctx, x: *const f64, y: *const f64, n: usize, method: llmm_correlation_method, r: *mut f64) -> llmm_status;
    /// Create a gate with the default options (options_reference).
    pub fn llmm_stability_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_stability) -> llmm_status;
    /// Free a gate. NULL is a no-op.
    pub fn llmm_stability_free(s: *mut llmm_stability);
    /// Set ε (LLMM_STABILITY_EPSILON).
    pub fn llmm_stability_set_f64(s: *mut llmm_stability, key: llmm_stability_option, value: f64) -> llmm_status;
    /// Read ε.
    pub fn llmm_stability_get_f64(s: *const llmm_stability, key: llmm_stability_option, value: *mut f64) -> llmm_status;
    /// Set k (LLMM_STABILITY_WINDOWS); it applies at once to the means already added.
    pub fn llmm_stability_set_u64(s: *mut llmm_stability, key: llmm_stability_option, value: u64) -> llmm_status;
    /// Read k.
    pub fn llmm_stability_get_u64(s: *const llmm_stability, key: llmm_stability_option, value: *mut u64) -> llmm_status;
    /// Add the mean of one window and judge the last k.
    pub fn llmm_stability_add(s: *mut llmm_stability, mean: f64, stable: *mut i32) -> llmm_status;
    /// Initialise a llmm_stability_reading: every field 0.
    pub fn llmm_stability_reading_init(r: *mut llmm_stability_reading) -> llmm_status;
    /// The gate's verdict and the figures behind it.
    pub fn llmm_stability_read(s: *const llmm_stability, r: *mut llmm_stability_reading) -> llmm_status;
    /// Forget every mean and the total; options stay.
    pub fn llmm_stability_reset(s: *mut llmm_stability) -> llmm_status;
    /// Create a saturation signal with the default options (options_reference).
    pub fn llmm_saturation_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_saturation) -> llmm_status;
    /// Free a saturation signal. NULL is a no-op.
    pub fn llmm_saturation_free(s: *mut llmm_saturation);
    /// Set z (LLMM_SATURATION_CONFIDENCE); takes effect with the next call.
    pub fn llmm_saturation_set_f64(s: *mut llmm_saturation, key: llmm_saturation_option, value: f64) -> llmm_status;
    /// Read z.
    pub fn llmm_saturation_get_f64(s: *const llmm_saturation, key: llmm_saturation_option, value: *mut f64) -> llmm_status;
    /// Set N (LLMM_SATURATION_WINDOW); reallocates the ring.
    pub fn llmm_saturation_set_u64(s: *mut llmm_saturation, key: llmm_saturation_option, value: u64) -> llmm_status;
    /// Read N.
    pub fn llmm_saturation_get_u64(s: *const llmm_saturation, key: llmm_saturation_option, value: *mut u64) -> llmm_status;
    /// Add one sample and judge the window.
    pub fn llmm_saturation_observe(s: *mut llmm_saturation, now_ns: u64, latency: f64, in_flight: f64, saturated: *mut i32) -> llmm_status;
    /// Initialise a llmm_saturation_reading: every field 0.
    pub fn llmm_saturation_reading_init(r: *mut llmm_saturation_reading) -> llmm_status;
    /// Slopes, standard errors and the verdict over the samples held.
    pub fn llmm_saturation_read(s: *const llmm_saturation, r: *mut llmm_saturation_reading) -> llmm_status;
    /// Forget every sample, the total and the clock; options stay.
    pub fn llmm_saturation_reset(s: *mut llmm_saturation) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// fit.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_POLY_MAX_DEGREE: u32 = 16;

/// Diagnostics of a least-squares polynomial fit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_fit_stats {
    /// caller-sized: set by llmm_fit_stats_init()
    pub struct_size: u32,
    /// Numerical rank of the centred, scaled, column-equilibrated Vandermonde matrix: the number of columns whose distance from the span of the lower powers exceeds `max(n, degree + 1) · DBL_EPSILON` of their norm. A successful fit always has rank = degree + 1.
    pub rank: u32,
    /// points that entered the fit (weight > 0)
    pub n: u64,
    /// coefficient of determination 1 − rss/tss; 1 when tss = 0
    pub r2: f64,
    /// residual sum of squares Σ wᵢ (yᵢ − p(xᵢ))²
    pub rss: f64,
    /// total sum of squares about the (weighted) mean of y
    pub tss: f64,
    /// sqrt(rss / (n − degree − 1)); 0 when n = degree + 1
    pub residual_std: f64,
    /// 1-norm condition number of the triangular factor of the column-equilibrated, centred and scaled Vandermonde matrix (≥ 1; large values mean the coefficients are poorly determined by the data).
    pub condition: f64,
    /// c of the abscissa map t = (x − c)/h, the midpoint of x
    pub centre: f64,
    /// h of the abscissa map, a power of two ≥ half the range of x
    pub scale: f64,
}

/// How well an estimate is supported by the data.
pub type llmm_knee_quality = c_int;
pub const LLMM_KNEE_NONE: llmm_knee_quality = 0;
pub const LLMM_KNEE_WEAK: llmm_knee_quality = 1;
pub const LLMM_KNEE_OK: llmm_knee_quality = 2;

/// One knee estimate.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_knee {
    /// caller-sized: set by llmm_knee_init()
    pub struct_size: u32,
    /// see each estimator
    pub quality: llmm_knee_quality,
    /// concurrency at the knee; NaN when quality is NONE
    pub knee: f64,
    /// throughput at the knee (see each estimator); NaN when NONE
    pub qps: f64,
    /// estimator-specific support figure, documented per call
    pub strength: f64,
}

/// A fitted USL model.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_usl {
    /// caller-sized: set by llmm_usl_init()
    pub struct_size: u32,
    /// OK: converged fit with R² ≥ 0.9 and N_max no farther than twice the largest measured concurrency; WEAK: the fit is poor, there is no throughput peak (κ = 0), or N_max is an extrapolation beyond that; NONE: no model (only in llmm_knee_report() when the fit failed).
    pub quality: llmm_knee_quality,
    /// Levenberg–Marquardt iterations used
    pub iterations: u32,
    /// 1 when κ was held at its bound 0 (no coherency cost)
    pub kappa_at_bound: i32,
    /// λ > 0, throughput at N = 1 before any contention
    pub lambda: f64,
    /// σ, contention; may be slightly negative
    pub sigma: f64,
    /// κ ≥ 0, coherency
    pub kappa: f64,
    /// floor(sqrt((1 − σ)/κ)), at least 1; +Inf when κ = 0 and σ < 1 (no peak)
    pub n_max: f64,
    /// X(n_max); when κ = 0 the limit of X as N → ∞ (λ/σ, or +Inf when σ ≤ 0)
    pub x_max: f64,
    /// R² of the fit on the throughput values
    pub r2: f64,
    /// residual sum of squares of the fit
    pub rss: f64,
}

/// Parameters of llmm_knee_report().
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_knee_options {
    /// caller-sized: set by llmm_knee_options_init()
    pub struct_size: u32,
    /// growth-collapse smoothing width, odd, 0 = auto (default 0)
    pub smooth: u32,
    /// inflection trim share, 0 … 0.45 (default 0.1)
    pub trim: f64,
    /// growth-collapse threshold share, (0, 1) (default 0.5)
    pub collapse_fraction: f64,
    /// Kneedle S ≥ 0 (default 1)
    pub kneedle_sensitivity: f64,
}

extern "C" {
    /// Initialise a llmm_fit_stats: every field 0.
    pub fn llmm_fit_stats_init(st: *mut llmm_fit_stats) -> llmm_status;
    /// Least-squares polynomial fit, the equivalent of `numpy.polyfit(x, y, degree)`.
    pub fn llmm_polyfit(x: *const f64, y: *const f64, n: usize, degree: u32, coeffs: *mut f64, st: *mut llmm_fit_stats) -> llmm_status;
    /// Weighted least-squares polynomial fit: minimises Σ wᵢ (yᵢ − p(xᵢ))².
    pub fn llmm_polyfit_weighted(x: *const f64, y: *const f64, w: *const f64, n: usize, degree: u32, coeffs: *mut f64, st: *mut llmm_fit_stats) -> llmm_status;
    /// Evaluate a polynomial at one point by Horner's rule (as `numpy.polyval`).
    pub fn llmm_poly_eval(coeffs: *const f64, degree: u32, x: f64, y: *mut f64) -> llmm_status;
    /// Residuals of a polynomial against data, and their sum of squares.
    pub fn llmm_poly_residuals(coeffs: *const f64, degree: u32, x: *const f64, y: *const f64, n: usize, residuals: *mut f64, rss: *mut f64) -> llmm_status;
    /// Derivative of any order of a polynomial (as `numpy.polyder(p, order)`).
    pub fn llmm_poly_deriv(coeffs: *const f64, degree: u32, order: u32, out: *mut f64, out_degree: *mut u32) -> llmm_status;
    /// All real roots of a polynomial, ascending, each as often as its multiplicity.
    pub fn llmm_poly_roots(coeffs: *const f64, degree: u32, roots: *mut f64, cap: usize, nroots: *mut usize) -> llmm_status;
    /// Initialise a llmm_knee: quality NONE, NaN values.
    pub fn llmm_knee_init(k: *mut llmm_knee) -> llmm_status;
    /// Knee as the inflection point of a least-squares cubic (the reference method).
    pub fn llmm_knee_inflection(conc: *const f64, qps: *const f64, n: usize, trim: f64, knee: *mut f64) -> llmm_status;
    /// The cubic-inflection estimator of llmm_knee_inflection() with its quality flag.
    pub fn llmm_knee_inflection_ex(conc: *const f64, qps: *const f64, n: usize, trim: f64, out: *mut llmm_knee) -> llmm_status;
    /// Knee where the smoothed marginal gain collapses ("QPS growth collapse").
    pub fn llmm_knee_collapse(conc: *const f64, qps: *const f64, n: usize, fraction: f64, smooth: u32, out: *mut llmm_knee) -> llmm_status;
    /// Kneedle knee (Satopää, Albrecht, Irwin, Raghavan, 2011) for a concave increasing curve.
    pub fn llmm_knee_kneedle(conc: *const f64, qps: *const f64, n: usize, sensitivity: f64, out: *mut llmm_knee) -> llmm_status;
    /// Initialise a llmm_usl: NaN parameters, quality NONE.
    pub fn llmm_usl_init(m: *mut llmm_usl) -> llmm_status;
    /// Fit the Universal Scalability Law to (concurrency, throughput) pairs.
    pub fn llmm_usl_fit(conc: *const f64, qps: *const f64, n: usize, model: *mut llmm_usl) -> llmm_status;
    /// USL throughput X(N) of a model.
    pub fn llmm_usl_throughput(model: *const llmm_usl, n: f64, x: *mut f64) -> llmm_status;
    /// USL latency R(N) = N / X(N) = (1 + σ(N − 1) + κN(N − 1)) / λ (Little's law).
    pub fn llmm_usl_latency(model: *const llmm_usl, n: f64, latency: *mut f64) -> llmm_status;
    /// Largest integer concurrency N ≥ 1 whose USL latency N / X(N) meets a latency SLO.
    pub fn llmm_usl_slo_concurrency(model: *const llmm_usl, max_latency: f64, n: *mut f64) -> llmm_status;
    /// Initialise a llmm_knee_options: `smooth` 0, `trim` 0.1, `collapse_fraction` 0.5, `kneedle_sensitivity` 1.
    pub fn llmm_knee_options_init(o: *mut llmm_knee_options) -> llmm_status;
    /// Run every knee estimator and the USL fit on one sweep, for a side-by-side report.
    pub fn llmm_knee_report(conc: *const f64, qps: *const f64, n: usize, opt: *const llmm_knee_options, inflection: *mut llmm_knee, collapse: *mut llmm_knee, kneedle: *mut llmm_knee, usl: *mut llmm_usl) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// capacity.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_LITTLES_LAW_SAFETY_DEFAULT: f64 = 0.85;

extern "C" {
    /// Throughput decay rate η = 1 − T_actual / T_peak.
    pub fn llmm_decay_rate(actual: f64, peak: f64, eta: *mut f64) -> llmm_status;
    /// Roofline bound T_attainable = min(T_peak, B · I).
    pub fn llmm_roofline(peak_flops: f64, bandwidth_bytes: f64, intensity: f64, attainable: *mut f64) -> llmm_status;
    /// Critical (ridge-point) intensity I_crit = T_peak / B: kernels below it are memory-bound, above it compute-bound.
    pub fn llmm_roofline_critical_intensity(peak_flops: f64, bandwidth_bytes: f64, intensity: *mut f64) -> llmm_status;
    /// Arithmetic intensity I = FLOPs / bytes moved (e.g. 2048 FLOPs over 128 bytes = 16).
    pub fn llmm_arithmetic_intensity(flops: f64, bytes: f64, intensity: *mut f64) -> llmm_status;
    /// Multi-GPU scaling decay against linear scaling: 1 − measured / ideal.
    pub fn llmm_scaling_decay(ideal: f64, measured: f64, decay: *mut f64) -> llmm_status;
    /// Scaling decay from a single-device throughput and a device count: 1 − measured / (single · devices).
    pub fn llmm_scaling_decay_devices(single: f64, devices: u32, measured: f64, decay: *mut f64) -> llmm_status;
    /// Communication share of a step: comm_time / step_time (e.g. AllReduce 0.82 ms of a 3.5 ms step → 0.2343).
    pub fn llmm_comm_share(comm_time: f64, step_time: f64, share: *mut f64) -> llmm_status;
    /// Sequence-length decay between two measured throughputs: 1 − tps_long / tps_short.
    pub fn llmm_seqlen_decay(tps_short: f64, tps_long: f64, decay: *mut f64) -> llmm_status;
    /// SLO-driven capacity from Little's law (L = λW): tps = max(1, L / W · safety).
    pub fn llmm_littles_law_tps(p999_ms: f64, concurrency: f64, safety: f64, tps: *mut f64) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// resource.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_LII_WINDOW_DEFAULT: u32 = 64;
pub const LLMM_LII_WINDOW_MAX: u32 = 1048576;

/// Action tier for a load imbalance index (doc/spec.md §8).
pub type llmm_lii_tier = c_int;
pub const LLMM_LII_KEEP: llmm_lii_tier = 0;
pub const LLMM_LII_PREFETCH: llmm_lii_tier = 1;
pub const LLMM_LII_ADAPT: llmm_lii_tier = 2;

/// Double options of a llmm_lii_monitor, for llmm_lii_monitor_set_f64().
pub type llmm_lii_option = c_int;
pub const LLMM_LII_PREFETCH_AT: llmm_lii_option = 0;
pub const LLMM_LII_ADAPT_AT: llmm_lii_option = 1;
pub const LLMM_LII_SCALE_AT: llmm_lii_option = 2;

/// What a llmm_lii_monitor reads now.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_lii_reading {
    /// caller-sized: set by llmm_lii_reading_init()
    pub struct_size: u32,
    /// the action tier of `lii`
    pub tier: llmm_lii_tier,
    /// 1 when `lii` ≥ the scaling threshold, else 0
    pub scale: i32,
    /// samples in the window (≤ the window size)
    pub samples: u32,
    /// load imbalance index over the window, in [0, 1]
    pub lii: f64,
    /// mean CPU utilisation over the window
    pub mean_cpu: f64,
    /// mean GPU utilisation over the window
    pub mean_gpu: f64,
}

/// Block-level and token-level occupancy of a paged KV cache.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_kv_occupancy_result {
    /// caller-sized: set by llmm_kv_occupancy_result_init()
    pub struct_size: u32,
    /// @private padding, always 0
    pub reserved_: u32,
    /// U·B − K: token slots reserved but empty
    pub wasted_slots: u64,
    /// U / T
    pub block_occupancy: f64,
    /// K / (T·B)
    pub token_occupancy: f64,
    /// block_occupancy − token_occupancy, ≥ 0
    pub gap: f64,
    /// 1 − K / (U·B); 0 when U = 0
    pub internal_fragmentation: f64,
}

pub const LLMM_KV_HIT_WINDOW_NS_DEFAULT: u64 = 60000000000;
pub const LLMM_RESOURCE_WINDOW_SLOTS: u32 = 60;

/// The KV-cache hit rate over a window.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_kv_hit_reading {
    /// caller-sized: set by llmm_kv_hit_reading_init()
    pub struct_size: u32,
    /// @private padding, always 0
    pub reserved_: u32,
    /// hits in the window
    pub hits: u64,
    /// lookups in the window, > 0
    pub lookups: u64,
    /// hits / lookups, in [0, 1]
    pub hit_rate: f64,
    /// the cache TTL for that hit rate, as llmm_kv_ttl() gives it
    pub ttl: i64,
}

/// TLB miss-rate alert presets (doc/spec.md §8).
pub type llmm_tlb_workload = c_int;
pub const LLMM_TLB_OLTP_DATABASE: llmm_tlb_workload = 0;
pub const LLMM_TLB_JAVA_MICROSERVICE: llmm_tlb_workload = 1;

/// What a llmm_tlb_monitor reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_tlb_reading {
    /// caller-sized: set by llmm_tlb_reading_init()
    pub struct_size: u32,
    /// 1 when `miss_rate` > `max_miss_rate`, else 0
    pub alert: i32,
    /// TLB misses in the window
    pub misses: u64,
    /// TLB accesses in the window, > 0
    pub accesses: u64,
    /// the monitor's window
    pub window_ns: u64,
    /// misses / accesses, in [0, 1]
    pub miss_rate: f64,
    /// the monitor's threshold
    pub max_miss_rate: f64,
}

opaque! {
    /// A streaming load imbalance index over the last W (CPU, GPU) utilisation samples.
    llmm_lii_monitor;
    /// KV-cache hits and lookups over a time window (opaque).
    llmm_kv_hit_tracker;
    /// TLB misses and accesses over a time window against a miss-rate threshold (opaque).
    llmm_tlb_monitor;
}

extern "C" {
    /// Load imbalance index of n paired utilisation samples: `|mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6)`.
    pub fn llmm_lii(cpu: *const f64, gpu: *const f64, n: usize, lii: *mut f64) -> llmm_status;
    /// Initialise a llmm_lii_reading: every field 0.
    pub fn llmm_lii_reading_init(r: *mut llmm_lii_reading) -> llmm_status;
    /// Create a streaming LII monitor with the default thresholds (options_reference).
    pub fn llmm_lii_monitor_new(ctx: *mut llmm_ctx, window: u32, out: *mut *mut llmm_lii_monitor) -> llmm_status;
    /// Free a monitor. NULL is a no-op.
    pub fn llmm_lii_monitor_free(m: *mut llmm_lii_monitor);
    /// Set a threshold (bounds: options_reference).
    pub fn llmm_lii_monitor_set_f64(m: *mut llmm_lii_monitor, opt: llmm_lii_option, value: f64) -> llmm_status;
    /// Read a threshold.
    pub fn llmm_lii_monitor_get_f64(m: *const llmm_lii_monitor, opt: llmm_lii_option, value: *mut f64) -> llmm_status;
    /// Add one (CPU, GPU) utilisation sample; the oldest leaves once the window is full.
    pub fn llmm_lii_monitor_add(m: *mut llmm_lii_monitor, cpu: f64, gpu: f64) -> llmm_status;
    /// Read the LII over the samples in the window, its tier and the scaling trigger.
    pub fn llmm_lii_monitor_read(m: *const llmm_lii_monitor, r: *mut llmm_lii_reading) -> llmm_status;
    /// Drop every sample; the thresholds stay.
    pub fn llmm_lii_monitor_reset(m: *mut llmm_lii_monitor) -> llmm_status;
    /// External fragmentation of the KV-cache free pool: `1 − largest / total` free extent.
    pub fn llmm_kv_fragmentation(free_extents: *const u64, n: usize, f: *mut f64) -> llmm_status;
    /// KV-cache eviction threshold for a fragmentation: `max(0.65, 0.85 − 0.2·f)`.
    pub fn llmm_kv_evict_threshold(fragmentation: f64, threshold: *mut f64) -> llmm_status;
    /// KV-cache TTL for an average hit rate: `int(128 · (1 + 0.5·(h − 0.75)))`.
    pub fn llmm_kv_ttl(avg_hit_rate: f64, ttl: *mut i64) -> llmm_status;
    /// Initialise a llmm_kv_occupancy_result: every field 0.
    pub fn llmm_kv_occupancy_result_init(r: *mut llmm_kv_occupancy_result) -> llmm_status;
    /// Block-level vs token-level occupancy and their gap (see llmm_kv_occupancy_result).
    pub fn llmm_kv_occupancy(block_size: u64, blocks_total: u64, blocks_used: u64, tokens_stored: u64, r: *mut llmm_kv_occupancy_result) -> llmm_status;
    /// Initialise a llmm_kv_hit_reading: every field 0.
    pub fn llmm_kv_hit_reading_init(r: *mut llmm_kv_hit_reading) -> llmm_status;
    /// Create a hit-rate tracker.
    pub fn llmm_kv_hit_tracker_new(ctx: *mut llmm_ctx, window_ns: u64, out: *mut *mut llmm_kv_hit_tracker) -> llmm_status;
    /// Free a tracker. NULL is a no-op.
    pub fn llmm_kv_hit_tracker_free(t: *mut llmm_kv_hit_tracker);
    /// Count `hits` hits out of `lookups` lookups at time `now_ns`.
    pub fn llmm_kv_hit_tracker_add(t: *mut llmm_kv_hit_tracker, now_ns: u64, hits: u64, lookups: u64) -> llmm_status;
    /// The hit rate over the window ending at `now_ns`, and the TTL it gives.
    pub fn llmm_kv_hit_tracker_read(t: *mut llmm_kv_hit_tracker, now_ns: u64, r: *mut llmm_kv_hit_reading) -> llmm_status;
    /// Forget every count and the clock.
    pub fn llmm_kv_hit_tracker_reset(t: *mut llmm_kv_hit_tracker) -> llmm_status;
    /// The miss-rate threshold and window of a TLB preset.
    pub fn llmm_tlb_preset(workload: llmm_tlb_workload, max_miss_rate: *mut f64, window_ns: *mut u64) -> llmm_status;
    /// Page-table-walk latency from cycles: `ns = cycles / cpu_hz · 1e9`.
    pub fn llmm_page_walk_ns(cycles: f64, cpu_hz: f64, ns: *mut f64) -> llmm_status;
    /// Initialise a llmm_tlb_reading: every field 0.
    pub fn llmm_tlb_reading_init(r: *mut llmm_tlb_reading) -> llmm_status;
    /// Create a TLB miss-rate monitor with a preset's threshold and window (see llmm_tlb_workload).
    pub fn llmm_tlb_monitor_new(ctx: *mut llmm_ctx, workload: llmm_tlb_workload, out: *mut *mut llmm_tlb_monitor) -> llmm_status;
    /// Create a TLB miss-rate monitor with a custom threshold and window.
    pub fn llmm_tlb_monitor_new_custom(ctx: *mut llmm_ctx, max_miss_rate: f64, window_ns: u64, out: *mut *mut llmm_tlb_monitor) -> llmm_status;
    /// Free a monitor. NULL is a no-op.
    pub fn llmm_tlb_monitor_free(m: *mut llmm_tlb_monitor);
    /// Count `misses` TLB misses out of `accesses` accesses at time `now_ns` (for example the deltas of the dTLB-load-misses and dTLB-loads hardware counters since the last call).
    pub fn llmm_tlb_monitor_add(m: *mut llmm_tlb_monitor, now_ns: u64, misses: u64, accesses: u64) -> llmm_status;
    /// The miss rate over the window ending at `now_ns` and whether it exceeds the threshold.
    pub fn llmm_tlb_monitor_read(m: *mut llmm_tlb_monitor, now_ns: u64, r: *mut llmm_tlb_reading) -> llmm_status;
    /// Forget every count and the clock; the threshold and window stay.
    pub fn llmm_tlb_monitor_reset(m: *mut llmm_tlb_monitor) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// slo.h
// ------------------------------------------------------------------------------------------------

/// The verdict of an SLO check.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_slo_result {
    /// caller-sized: set by llmm_slo_result_init()
    pub struct_size: u32,
    /// 1 when `latency_ok` and `errors_ok`, else 0
    pub satisfied: i32,
    /// 1 when there was a success and `latency` ≤ the latency bound
    pub latency_ok: i32,
    /// 1 when `error_rate` ≤ the error-rate bound
    pub errors_ok: i32,
    /// successful requests (the latencies' count)
    pub successes: u64,
    /// failed requests
    pub errors: u64,
    /// the quantile level checked (0.95 for llmm_slo_check())
    pub quantile: f64,
    /// that quantile of the successful latencies (`p95` of doc/spec.md §2); +Inf when there was no success
    pub latency: f64,
    /// errors / (successes + errors); 0 when there was no request
    pub error_rate: f64,
}

/// Per-request SLO bounds of a llmm_goodput, for llmm_goodput_set_f64().
pub type llmm_goodput_option = c_int;
pub const LLMM_GOODPUT_TTFT_MAX: llmm_goodput_option = 1;
pub const LLMM_GOODPUT_TPOT_MAX: llmm_goodput_option = 2;
pub const LLMM_GOODPUT_E2E_MAX: llmm_goodput_option = 3;

/// Goodput over the requests counted.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_goodput_result {
    /// caller-sized: set by llmm_goodput_result_init()
    pub struct_size: u32,
    /// @private padding, always 0
    pub reserved_: u32,
    /// all requests: completed + failed
    pub requests: u64,
    /// requests that completed successfully
    pub completed: u64,
    /// completed requests meeting every SLO given
    pub good: u64,
    /// goodput as a fraction: good / requests, in [0, 1]
    pub fraction: f64,
    /// goodput as vLLM's rate: good requests per second of the duration (vLLM's `request_goodput`)
    pub rate_per_s: f64,
    /// completed requests per second of the duration (vLLM's `request_throughput`)
    pub throughput_per_s: f64,
}

pub const LLMM_BURN_SLOT_NS_DEFAULT: u64 = 10000000000;
pub const LLMM_BURN_WINDOWS: usize = 4;

/// Index of a window in the arrays of llmm_burn_result.
pub type llmm_burn_window = c_int;
pub const LLMM_BURN_FAST_LONG: llmm_burn_window = 0;
pub const LLMM_BURN_FAST_SHORT: llmm_burn_window = 1;
pub const LLMM_BURN_SLOW_LONG: llmm_burn_window = 2;
pub const LLMM_BURN_SLOW_SHORT: llmm_burn_window = 3;

/// Option keys of a llmm_burn. Each key has one type: the f64 keys are set with llmm_burn_set_f64(), the u64 keys with llmm_burn_set_u64(). All may change at any time; they apply from the next llmm_burn_evaluate(). Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_BURN).
pub type llmm_burn_option = c_int;
pub const LLMM_BURN_SLO_TARGET: llmm_burn_option = 1;
pub const LLMM_BURN_FAST_FACTOR: llmm_burn_option = 2;
pub const LLMM_BURN_SLOW_FACTOR: llmm_burn_option = 3;
pub const LLMM_BURN_FAST_LONG_NS: llmm_burn_option = 4;
pub const LLMM_BURN_FAST_SHORT_NS: llmm_burn_option = 5;
pub const LLMM_BURN_SLOW_LONG_NS: llmm_burn_option = 6;
pub const LLMM_BURN_SLOW_SHORT_NS: llmm_burn_option = 7;

/// Burn rates and alerts at a time stamp. The arrays are indexed by llmm_burn_window.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_burn_result {
    /// caller-sized: set by llmm_burn_result_init()
    pub struct_size: u32,
    /// 1 when both fast windows burn faster than the fast factor
    pub fast_alert: i32,
    /// 1 when both slow windows burn faster than the slow factor
    pub slow_alert: i32,
    /// @private padding, always 0
    pub reserved_: u32,
    /// requests counted in each window
    pub requests: [u64; 4],
    /// failed requests in each window
    pub errors: [u64; 4],
    /// errors / requests, 0 for an idle window
    pub error_rate: [f64; 4],
    /// error_rate / (1 − T)
    pub burn_rate: [f64; 4],
}

pub const LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT: u64 = 300000000000;
pub const LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT: f64 = 0.05;
pub const LLMM_ERROR_TRIGGER_SLOTS: u32 = 60;

/// Option keys of a llmm_error_trigger. Each key has one type. Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_ERROR_TRIGGER).
pub type llmm_error_trigger_option = c_int;
pub const LLMM_ERROR_TRIGGER_MAX_SHARE: llmm_error_trigger_option = 1;
pub const LLMM_ERROR_TRIGGER_MIN_REQUESTS: llmm_error_trigger_option = 2;

/// What the trigger reads at a time stamp.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_error_trigger_reading {
    /// caller-sized: set by llmm_error_trigger_reading_init()
    pub struct_size: u32,
    /// 1 when `share` > the threshold and `requests` ≥ the minimum
    pub fired: i32,
    /// failed requests in the window
    pub errors: u64,
    /// all requests in the window
    pub requests: u64,
    /// errors / requests
    pub share: f64,
}

opaque! {
    /// Successful latencies and error counts over a time ring (opaque).
    llmm_slo_window;
    /// Per-request SLO bounds and good / completed / failed request counts (opaque).
    llmm_goodput;
    /// Multi-window burn-rate alerting over a ring of error and request counts (opaque).
    llmm_burn;
    /// An error-share trigger over a time window (opaque).
    llmm_error_trigger;
}

extern "C" {
    /// Initialise a llmm_slo_result: every field 0.
    pub fn llmm_slo_result_init(r: *mut llmm_slo_result) -> llmm_status;
    /// The online SLO check of doc/spec.md §2 over a sketch of successful latencies.
    pub fn llmm_slo_check(ok_latencies: *const llmm_sketch, errors: u64, p95_max: f64, err_max: f64, r: *mut llmm_slo_result) -> llmm_status;
    /// The SLO check at any quantile level (llmm_slo_check() is this with q = 0.95).
    pub fn llmm_slo_check_quantile(ok_latencies: *const llmm_sketch, errors: u64, q: f64, latency_max: f64, err_max: f64, r: *mut llmm_slo_result) -> llmm_status;
    /// Create an empty SLO window.
    pub fn llmm_slo_window_new(ctx: *mut llmm_ctx, slot_ns: u64, slots: u32, scale: i32, out: *mut *mut llmm_slo_window) -> llmm_status;
    /// Free an SLO window. NULL is a no-op.
    pub fn llmm_slo_window_free(w: *mut llmm_slo_window);
    /// Record a successful request and its latency at time `now_ns`.
    pub fn llmm_slo_window_add(w: *mut llmm_slo_window, now_ns: u64, latency: f64) -> llmm_status;
    /// Record `errors` failed requests at time `now_ns` (0 only advances the clock).
    pub fn llmm_slo_window_add_errors(w: *mut llmm_slo_window, now_ns: u64, errors: u64) -> llmm_status;
    /// The SLO check over the slots a span covers (see llmm_slo_check_quantile()).
    pub fn llmm_slo_window_check(w: *mut llmm_slo_window, now_ns: u64, span_ns: u64, q: f64, latency_max: f64, err_max: f64, r: *mut llmm_slo_result) -> llmm_status;
    /// Forget every request and the clock: the window is as new.
    pub fn llmm_slo_window_reset(w: *mut llmm_slo_window) -> llmm_status;
    /// Initialise a llmm_goodput_result: every field 0.
    pub fn llmm_goodput_result_init(r: *mut llmm_goodput_result) -> llmm_status;
    /// vLLM's per-request time per output token: `(e2e − ttft) / (output_tokens − 1)` when there are at least two output tokens, else 0.
    pub fn llmm_goodput_tpot(e2e: f64, ttft: f64, output_tokens: u64, tpot: *mut f64) -> llmm_status;
    /// Create a goodput counter with no SLO set (every completed request is good until bounds are set).
    pub fn llmm_goodput_new(ctx: *mut llmm_ctx, out: *mut *mut llmm_goodput) -> llmm_status;
    /// Free a goodput counter. NULL is a no-op.
    pub fn llmm_goodput_free(g: *mut llmm_goodput);
    /// Set a per-request SLO bound. Only while no request has been counted (after creation or llmm_goodput_reset()), so that every request counted is judged by the same bounds.
    pub fn llmm_goodput_set_f64(g: *mut llmm_goodput, opt: llmm_goodput_option, value: f64) -> llmm_status;
    /// Read a per-request SLO bound (+Inf when not checked).
    pub fn llmm_goodput_get_f64(g: *const llmm_goodput, opt: llmm_goodput_option, value: *mut f64) -> llmm_status;
    /// Count one successfully completed request and judge it against the bounds.
    pub fn llmm_goodput_observe(g: *mut llmm_goodput, ttft: f64, tpot: f64, e2e: f64, good: *mut i32) -> llmm_status;
    /// Count `n` failed requests (never good).
    pub fn llmm_goodput_add_failures(g: *mut llmm_goodput, n: u64) -> llmm_status;
    /// Goodput of the requests counted, as a fraction and as a rate over `duration_ns`.
    pub fn llmm_goodput_read(g: *const llmm_goodput, duration_ns: u64, r: *mut llmm_goodput_result) -> llmm_status;
    /// Forget the counts; the bounds stay.
    pub fn llmm_goodput_reset(g: *mut llmm_goodput) -> llmm_status;
    /// Initialise a llmm_burn_result: every field 0.
    pub fn llmm_burn_result_init(r: *mut llmm_burn_result) -> llmm_status;
    /// Burn rate of an error rate against an SLO target: `error_rate / (1 − slo_target)`.
    pub fn llmm_burn_rate(error_rate: f64, slo_target: f64, burn: *mut f64) -> llmm_status;
    /// Share of the error budget of an SLO period that a window burning at `burn_rate` spends: `burn_rate · window / period`.
    pub fn llmm_burn_budget_spent(burn_rate: f64, window_ns: u64, period_ns: u64, spent: *mut f64) -> llmm_status;
    /// Create a burn-rate alerter with the SRE workbook's windows and factors.
    pub fn llmm_burn_new(ctx: *mut llmm_ctx, slo_target: f64, slot_ns: u64, slots: u32, out: *mut *mut llmm_burn) -> llmm_status;
    /// Free a burn-rate alerter. NULL is a no-op.
    pub fn llmm_burn_free(b: *mut llmm_burn);
    /// Set an f64 option (the SLO target or a factor).
    pub fn llmm_burn_set_f64(b: *mut llmm_burn, opt: llmm_burn_option, value: f64) -> llmm_status;
    /// Read an f64 option.
    pub fn llmm_burn_get_f64(b: *const llmm_burn, opt: llmm_burn_option, value: *mut f64) -> llmm_status;
    /// Set a window length (a u64 option). A long window may not be shorter than its short window, nor longer than the ring; to move both windows of a pair, set them in an order that keeps short ≤ long at each step.
    pub fn llmm_burn_set_u64(b: *mut llmm_burn, opt: llmm_burn_option, value: u64) -> llmm_status;
    /// Read a window length (a u64 option).
    pub fn llmm_burn_get_u64(b: *const llmm_burn, opt: llmm_burn_option, value: *mut u64) -> llmm_status;
    /// Count `errors` failed requests out of `requests` at time `now_ns`.
    pub fn llmm_burn_add(b: *mut llmm_burn, now_ns: u64, errors: u64, requests: u64) -> llmm_status;
    /// Burn rates of the four windows at `now_ns` and the two alerts.
    pub fn llmm_burn_evaluate(b: *mut llmm_burn, now_ns: u64, r: *mut llmm_burn_result) -> llmm_status;
    /// Forget every count and the clock; the options stay.
    pub fn llmm_burn_reset(b: *mut llmm_burn) -> llmm_status;
    /// Initialise a llmm_error_trigger_reading: every field 0.
    pub fn llmm_error_trigger_reading_init(r: *mut llmm_error_trigger_reading) -> llmm_status;
    /// Create an error-share trigger with the default threshold (5 %) and minimum (1).
    pub fn llmm_error_trigger_new(ctx: *mut llmm_ctx, window_ns: u64, out: *mut *mut llmm_error_trigger) -> llmm_status;
    /// Free a trigger. NULL is a no-op.
    pub fn llmm_error_trigger_free(t: *mut llmm_error_trigger);
    /// Set the threshold (an f64 option).
    pub fn llmm_error_trigger_set_f64(t: *mut llmm_error_trigger, opt: llmm_error_trigger_option, value: f64) -> llmm_status;
    /// Read the threshold (an f64 option).
    pub fn llmm_error_trigger_get_f64(t: *const llmm_error_trigger, opt: llmm_error_trigger_option, value: *mut f64) -> llmm_status;
    /// Set the minimum request count (a u64 option).
    pub fn llmm_error_trigger_set_u64(t: *mut llmm_error_trigger, opt: llmm_error_trigger_option, value: u64) -> llmm_status;
    /// Read the minimum request count (a u64 option).
    pub fn llmm_error_trigger_get_u64(t: *const llmm_error_trigger, opt: llmm_error_trigger_option, value: *mut u64) -> llmm_status;
    /// Count `errors` failed requests out of `requests` at time `now_ns`.
    pub fn llmm_error_trigger_add(t: *mut llmm_error_trigger, now_ns: u64, errors: u64, requests: u64) -> llmm_status;
    /// Read the failed share over the window ending at `now_ns` and whether it fires.
    pub fn llmm_error_trigger_check(t: *mut llmm_error_trigger, now_ns: u64, r: *mut llmm_error_trigger_reading) -> llmm_status;
    /// Forget every count and the clock; the options stay.
    pub fn llmm_error_trigger_reset(t: *mut llmm_error_trigger) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// score.h
// ------------------------------------------------------------------------------------------------

pub const LLMM_LAYER_COUNT: usize = 4;
pub const LLMM_SCORE_NAME_MAX: usize = 255;

/// The four evaluation layers (doc/spec.md §1), in the order of every weight array.
pub type llmm_layer = c_int;
pub const LLMM_LAYER_CAPABILITY: llmm_layer = 0;
pub const LLMM_LAYER_PERFORMANCE: llmm_layer = 1;
pub const LLMM_LAYER_ENGINEERING: llmm_layer = 2;
pub const LLMM_LAYER_BUSINESS: llmm_layer = 3;

/// Scenario weight presets (capability / performance / engineering / business).
pub type llmm_scenario = c_int;
pub const LLMM_SCENARIO_CUSTOMER_SERVICE: llmm_scenario = 0;
pub const LLMM_SCENARIO_CODE_ASSISTANT: llmm_scenario = 1;
pub const LLMM_SCENARIO_CONTENT_GENERATION: llmm_scenario = 2;
pub const LLMM_SCENARIO_CUSTOM: llmm_scenario = 3;

/// Which way a metric improves.
pub type llmm_direction = c_int;
pub const LLMM_HIGHER_IS_BETTER: llmm_direction = 0;
pub const LLMM_LOWER_IS_BETTER: llmm_direction = 1;

/// What the overall score does when a layer with a positive weight is missing.
pub type llmm_missing_policy = c_int;
pub const LLMM_MISSING_REFUSE: llmm_missing_policy = 0;
pub const LLMM_MISSING_RENORMALIZE: llmm_missing_policy = 1;

/// Integer options of a scorecard, for llmm_scorecard_set_i32() / llmm_scorecard_get_i32(). Bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_SCORECARD).
pub type llmm_scorecard_option = c_int;
pub const LLMM_SCORECARD_MISSING: llmm_scorecard_option = 0;

/// Result of llmm_scorecard_evaluate(). Arrays are indexed by llmm_layer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct llmm_score_result {
    /// caller-sized: set by llmm_score_result_init()
    pub struct_size: u32,
    /// the scorecard's scenario (LLMM_SCENARIO_CUSTOM once weights were set)
    pub scenario: llmm_scenario,
    /// number of layers without an observed metric (any weight)
    pub layers_missing: u32,
    /// 1 when a positively weighted layer was missing and the weights were renormalised, else 0
    pub renormalized: i32,
    /// overall score in [0, 1]; NaN when the call did not return `LLMM_OK`
    pub overall: f64,
    /// layer score in [0, 1]; NaN when missing
    pub layer_score: [f64; 4],
    /// configured weight
    pub layer_weight: [f64; 4],
    /// weight used for `overall`; 0 when missing or on error
    pub layer_effective_weight: [f64; 4],
    /// effective weight × layer score; 0 when missing or on error
    pub layer_contribution: [f64; 4],
    /// 1 when the layer has an observed metric, else 0
    pub layer_present: [i32; 4],
    /// metrics defined in the layer
    pub layer_metrics: [u32; 4],
    /// metrics of the layer that have an observation
    pub layer_observed: [u32; 4],
}

opaque! {
    /// A scorecard: layer weights, metric definitions and their latest observations.
    llmm_scorecard;
}

extern "C" {
    /// Initialise a llmm_score_result: every field 0.
    pub fn llmm_score_result_init(r: *mut llmm_score_result) -> llmm_status;
    /// Read the layer weights of a scenario preset (table at llmm_scenario).
    pub fn llmm_scenario_weights(preset: llmm_scenario, weights: *mut f64, n: usize) -> llmm_status;
    /// Normalise one observation to a 0..1 score: `clamp((value − worst) / (target − worst), 0, 1)`.
    pub fn llmm_score_normalize(dir: llmm_direction, target: f64, worst: f64, value: f64, score: *mut f64) -> llmm_status;
    /// Create a scorecard with the weights of a scenario.
    pub fn llmm_scorecard_new(ctx: *mut llmm_ctx, preset: llmm_scenario, out: *mut *mut llmm_scorecard) -> llmm_status;
    /// Free a scorecard and the metric names it holds. NULL is a no-op.
    pub fn llmm_scorecard_free(sc: *mut llmm_scorecard);
    /// Set custom layer weights; the scorecard's scenario becomes LLMM_SCENARIO_CUSTOM.
    pub fn llmm_scorecard_set_weights(sc: *mut llmm_scorecard, weights: *const f64, n: usize) -> llmm_status;
    /// Read the scorecard's layer weights as configured (not renormalised).
    pub fn llmm_scorecard_weights(sc: *const llmm_scorecard, weights: *mut f64, n: usize) -> llmm_status;
    /// Set an integer option.
    pub fn llmm_scorecard_set_i32(sc: *mut llmm_scorecard, opt: llmm_scorecard_option, value: i32) -> llmm_status;
    /// Read an integer option.
    pub fn llmm_scorecard_get_i32(sc: *const llmm_scorecard, opt: llmm_scorecard_option, value: *mut i32) -> llmm_status;
    /// Define a metric in a layer.
    pub fn llmm_scorecard_add_metric(sc: *mut llmm_scorecard, layer: llmm_layer, name: *const c_char, dir: llmm_direction, target: f64, worst: f64, weight: f64, id: *mut u32) -> llmm_status;
    /// Record the latest observation of a metric, by name (replaces the previous one).
    pub fn llmm_scorecard_observe(sc: *mut llmm_scorecard, name: *const c_char, value: f64) -> llmm_status;
    /// Record the latest observation of a metric, by id (replaces the previous one).
    pub fn llmm_scorecard_observe_id(sc: *mut llmm_scorecard, id: u32, value: f64) -> llmm_status;
    /// Forget every observation; metric definitions, weights and options stay.
    pub fn llmm_scorecard_clear(sc: *mut llmm_scorecard) -> llmm_status;
    /// Read one metric's normalised score (see llmm_score_normalize()).
    pub fn llmm_scorecard_metric_score(sc: *const llmm_scorecard, id: u32, score: *mut f64) -> llmm_status;
    /// Compute the overall score, each layer's score and its contribution.
    pub fn llmm_scorecard_evaluate(sc: *const llmm_scorecard, r: *mut llmm_score_result) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// export.h
// ------------------------------------------------------------------------------------------------

/// Exposition format of a llmm_prom_writer (int-sized).
pub type llmm_prom_format = c_int;
pub const LLMM_PROM_TEXT: llmm_prom_format = 0;
pub const LLMM_PROM_PROTOBUF: llmm_prom_format = 1;
pub const LLMM_PROM_OPENMETRICS: llmm_prom_format = 2;

/// Metric family types of a llmm_prom_writer (int-sized).
pub type llmm_prom_type = c_int;
pub const LLMM_PROM_COUNTER: llmm_prom_type = 0;
pub const LLMM_PROM_GAUGE: llmm_prom_type = 1;
pub const LLMM_PROM_SUMMARY: llmm_prom_type = 2;
pub const LLMM_PROM_HISTOGRAM: llmm_prom_type = 3;
pub const LLMM_PROM_NATIVE_HISTOGRAM: llmm_prom_type = 4;

/// Named classic bucket lists (int-sized), in seconds unless noted.
pub type llmm_bucket_list = c_int;
pub const LLMM_BUCKETS_VLLM_TTFT: llmm_bucket_list = 0;
pub const LLMM_BUCKETS_VLLM_INTER_TOKEN: llmm_bucket_list = 1;
pub const LLMM_BUCKETS_VLLM_REQUEST_LATENCY: llmm_bucket_list = 2;
pub const LLMM_BUCKETS_OTEL_GENAI_DURATION: llmm_bucket_list = 3;
pub const LLMM_BUCKETS_OTEL_GENAI_TTFT: llmm_bucket_list = 4;
pub const LLMM_BUCKETS_OTEL_GENAI_TPOT: llmm_bucket_list = 5;
pub const LLMM_BUCKETS_OTEL_GENAI_TOKENS: llmm_bucket_list = 6;

/// OTLP aggregation temporality (values as in OTLP's `AggregationTemporality`).
pub type llmm_otlp_temporality = c_int;
pub const LLMM_OTLP_DELTA: llmm_otlp_temporality = 1;
pub const LLMM_OTLP_CUMULATIVE: llmm_otlp_temporality = 2;

/// Options of the OTLP JSON exporters.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_options {
    /// caller-sized: set by llmm_otlp_options_init()
    pub struct_size: u32,
    /// start of the covered interval (default 0)
    pub start_time_unix_nano: u64,
    /// end of the covered interval (default 0)
    pub time_unix_nano: u64,
    /// factor applied to every value (default 1)
    pub unit_to_seconds: f64,
    /// Largest number of positive buckets (default 0 = no limit, OTel SDKs use 160): the scale is lowered by exact downscaling, down to −10, until the buckets fit.
    pub max_buckets: u32,
    /// LLMM_OTLP_CUMULATIVE (default) or LLMM_OTLP_DELTA.
    pub temporality: llmm_otlp_temporality,
    /// Point attributes as a preformatted label list whose keys may also contain `.` and `-` (`gen_ai.request.model="m"`), or NULL. Exported as string attributes.
    pub attributes: *const c_char,
    /// Metric description (request form only), or NULL.
    pub description: *const c_char,
    /// Metric unit (request form only); NULL gives `"s"`.
    pub unit: *const c_char,
    /// Resource attributes (request form only), same syntax as `attributes`, or NULL.
    pub resource_attributes: *const c_char,
}

pub const LLMM_EXEMPLAR_BOUNDS_MAX: i32 = 255;
pub const LLMM_EXEMPLAR_LABELS_MAX: i32 = 64;

/// Which exemplar a slot keeps (int-sized).
pub type llmm_exemplar_keep = c_int;
pub const LLMM_EXEMPLAR_LATEST: llmm_exemplar_keep = 0;
pub const LLMM_EXEMPLAR_MAX: llmm_exemplar_keep = 1;

/// One exemplar as read back (caller-sized: see llmm_struct_init()).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_exemplar {
    /// caller-sized: set by llmm_exemplar_init()
    pub struct_size: u32,
    /// @private always 0
    pub reserved_: u32,
    /// the value, in the recorded unit
    pub value: f64,
    /// wall-clock time in Unix nanoseconds (0 = none given)
    pub time_unix_nano: u64,
    /// trace id, all zero when absent
    pub trace_id: [u8; 16],
    /// span id, all zero when absent
    pub span_id: [u8; 8],
    /// Extra labels as a NUL-terminated preformatted list (`""` for none).
    pub labels: [c_char; 64],
}

opaque! {
    /// A Prometheus exposition under construction: many families, many labelled series per family (opaque).
    llmm_prom_writer;
    /// The exemplars of one series (opaque). @since 1.2.0
    llmm_exemplars;
    /// A single-writer shard of a llmm_exemplars (opaque, owned by it). @since 1.2.0
    llmm_exemplar_shard;
}

extern "C" {
    /// Write one complete Prometheus text (0.0.4) family for a sketch: `# HELP`, `# TYPE histogram` and one classic-histogram series.
    pub fn llmm_export_prometheus_text(s: *const llmm_sketch, name: *const c_char, labels: *const c_char, unit_to_seconds: f64, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Escape one label value for a preformatted label list: `\` → `\\`, `"` → `\"`, newline → `\n`; every other byte is copied.
    pub fn llmm_prom_label_escape(value: *const c_char, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Create an empty writer.
    pub fn llmm_prom_writer_new(ctx: *mut llmm_ctx, format: llmm_prom_format, out: *mut *mut llmm_prom_writer) -> llmm_status;
    /// Free a writer. NULL is a no-op.
    pub fn llmm_prom_writer_free(w: *mut llmm_prom_writer);
    /// Drop everything written and start a new exposition in `format`; memory is kept.
    pub fn llmm_prom_writer_reset(w: *mut llmm_prom_writer, format: llmm_prom_format) -> llmm_status;
    /// Start a new metric family (ending the current one).
    pub fn llmm_prom_writer_family(w: *mut llmm_prom_writer, name: *const c_char, help: *const c_char, r#type: llmm_prom_type, points: *const f64, npoints: usize) -> llmm_status;
    /// Add one series to the current counter or gauge family.
    pub fn llmm_prom_writer_value(w: *mut llmm_prom_writer, labels: *const c_char, value: f64) -> llmm_status;
    /// Add one series, computed from a sketch, to the current summary or histogram family.
    pub fn llmm_prom_writer_sketch(w: *mut llmm_prom_writer, labels: *const c_char, s: *const llmm_sketch, unit_to_seconds: f64) -> llmm_status;
    /// End the current family and copy the whole exposition into `buf`.
    pub fn llmm_prom_writer_finish(w: *mut llmm_prom_writer, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// End the current family and give read access to the exposition without copying (in LLMM_PROM_OPENMETRICS, ending with `# EOF`).
    pub fn llmm_prom_writer_data(w: *mut llmm_prom_writer, data: *mut *const u8, len: *mut usize) -> llmm_status;
    /// Choose the exposition format for an HTTP `Accept` header.
    pub fn llmm_prom_negotiate(accept: *const c_char, format: *mut llmm_prom_format, content_type: *mut *const c_char) -> llmm_status;
    /// The `Content-Type` of a format.
    pub fn llmm_prom_content_type(format: llmm_prom_format) -> *const c_char;
    /// Copy a named bucket list (ascending upper bounds, without `+Inf`).
    pub fn llmm_prom_buckets(which: llmm_bucket_list, out: *mut f64, cap: usize, n: *mut usize) -> llmm_status;
    /// Classic buckets from a named list for the histogram families without bounds of their own that start after this call (the default, with LLMM_BUCKETS_OTEL_GENAI_DURATION).
    pub fn llmm_prom_writer_set_classic_list(w: *mut llmm_prom_writer, which: llmm_bucket_list) -> llmm_status;
    /// Classic buckets from each sketch's own bucket grid, downscaled to at most `max_bounds` finite `le` bounds, for the histogram families without bounds of their own that start after this call.
    pub fn llmm_prom_writer_set_classic_max(w: *mut llmm_prom_writer, max_bounds: u32) -> llmm_status;
    /// Initialise a llmm_otlp_options: the defaults documented with each field.
    pub fn llmm_otlp_options_init(o: *mut llmm_otlp_options) -> llmm_status;
    /// Write one OTLP/JSON `ExponentialHistogramDataPoint` object.
    pub fn llmm_export_otlp_json_point(s: *const llmm_sketch, earlier: *const llmm_sketch, o: *const llmm_otlp_options, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Write a complete OTLP/JSON `ExportMetricsServiceRequest` (the body of a POST to `/v1/metrics` with `Content-Type: application/json`) holding one metric with one exponential-histogram point.
    pub fn llmm_export_otlp_json(s: *const llmm_sketch, earlier: *const llmm_sketch, name: *const c_char, o: *const llmm_otlp_options, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Create an exemplar store with `nbounds + 1` slots.
    pub fn llmm_exemplars_new(ctx: *mut llmm_ctx, bounds: *const f64, nbounds: usize, keep: llmm_exemplar_keep, out: *mut *mut llmm_exemplars) -> llmm_status;
    /// Free a store and all its shards. NULL is a no-op.
    pub fn llmm_exemplars_free(ex: *mut llmm_exemplars);
    /// Hand out a shard for the calling writer thread: a released one if there is one, else a new one.
    pub fn llmm_exemplars_shard(ex: *mut llmm_exemplars, out: *mut *mut llmm_exemplar_shard) -> llmm_status;
    /// Give a shard back; its exemplars stay in the store and it may be handed out again. NULL is a no-op.
    pub fn llmm_exemplar_shard_release(sh: *mut llmm_exemplar_shard);
    /// Offer one exemplar to the slot of its value; the slot keeps it or its current one by the store's keep rule.
    pub fn llmm_exemplar_shard_record(sh: *mut llmm_exemplar_shard, value: f64, trace_id: *const u8, span_id: *const u8, time_unix_nano: u64, labels: *const c_char) -> llmm_status;
    /// Start a new interval for LLMM_EXEMPLAR_MAX: the next exemplar of each slot replaces the one it holds, whatever its value. Nothing is erased; a no-op for LLMM_EXEMPLAR_LATEST.
    pub fn llmm_exemplars_roll(ex: *mut llmm_exemplars) -> llmm_status;
    /// Number of slots (`nbounds + 1`).
    pub fn llmm_exemplars_slots(ex: *const llmm_exemplars) -> u32;
    /// Read the exemplar a slot holds (chosen among the shards by the keep rule).
    pub fn llmm_exemplars_get(ex: *const llmm_exemplars, slot: u32, e: *mut llmm_exemplar) -> llmm_status;
    /// Add one histogram or summary series, as llmm_prom_writer_sketch(), with the exemplars of `ex` where the format carries them (see the group documentation).
    pub fn llmm_prom_writer_sketch_exemplars(w: *mut llmm_prom_writer, labels: *const c_char, s: *const llmm_sketch, unit_to_seconds: f64, ex: *const llmm_exemplars) -> llmm_status;
    /// Add one counter series, as llmm_prom_writer_value(), with one exemplar (written in LLMM_PROM_OPENMETRICS and LLMM_PROM_PROTOBUF; its value is written as it is).
    pub fn llmm_prom_writer_value_exemplar(w: *mut llmm_prom_writer, labels: *const c_char, value: f64, e: *const llmm_exemplar) -> llmm_status;
    /// Choose the exposition format for an HTTP `Accept` header, OpenMetrics included.
    pub fn llmm_prom_negotiate_openmetrics(accept: *const c_char, format: *mut llmm_prom_format, content_type: *mut *const c_char) -> llmm_status;
    /// Parse a W3C Trace Context `traceparent` header (`00-<32 hex>-<16 hex>-<2 hex>`).
    pub fn llmm_traceparent_parse(header: *const c_char, trace_id: *mut u8, span_id: *mut u8, flags: *mut u8) -> llmm_status;
    /// Write a version-00 `traceparent` value (55 bytes, no NUL).
    pub fn llmm_traceparent_format(trace_id: *const u8, span_id: *const u8, flags: u8, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// otlp.h
// ------------------------------------------------------------------------------------------------

/// The encoding of an OTLP request.
pub type llmm_otlp_encoding = c_int;
pub const LLMM_OTLP_PROTOBUF: llmm_otlp_encoding = 1;
pub const LLMM_OTLP_JSON: llmm_otlp_encoding = 2;

/// The data type of an OTLP metric.
pub type llmm_otlp_metric_type = c_int;
pub const LLMM_OTLP_EXPONENTIAL_HISTOGRAM: llmm_otlp_metric_type = 1;
pub const LLMM_OTLP_HISTOGRAM: llmm_otlp_metric_type = 2;
pub const LLMM_OTLP_SUM: llmm_otlp_metric_type = 3;
pub const LLMM_OTLP_GAUGE: llmm_otlp_metric_type = 4;
pub const LLMM_OTLP_SUMMARY: llmm_otlp_metric_type = 5;

/// One exemplar of a point: a recorded value and the trace it belongs to.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_exemplar {
    /// caller-sized: set by llmm_otlp_exemplar_init()
    pub struct_size: u32,
    /// the recorded value (in the metric's exported unit)
    pub value: f64,
    /// when it was recorded
    pub time_unix_nano: u64,
    /// W3C trace id; all zero: none (the field is left out)
    pub trace_id: [u8; 16],
    /// span id; all zero: none (the field is left out)
    pub span_id: [u8; 8],
    /// `filtered_attributes` as a label list (see llmm_otlp_options), or NULL.
    pub attributes: *const c_char,
}

/// One data point of a metric.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_point {
    /// caller-sized: set by llmm_otlp_point_init()
    pub struct_size: u32,
    /// point attributes as a label list, or NULL
    pub attributes: *const c_char,
    /// start of the covered interval
    pub start_time_unix_nano: u64,
    /// end of the covered interval
    pub time_unix_nano: u64,
    /// The data of a histogram or summary point (only read); NULL for sums and gauges.
    pub sketch: *const llmm_sketch,
    /// Histograms of delta temporality only: an earlier snapshot of the same series; the point is then `sketch − earlier` (llmm_sketch_subtract() on a clone), or NULL.
    pub earlier: *const llmm_sketch,
    /// the value of a sum or gauge point (`as_double`)
    pub value: f64,
    /// Exemplars of the point (histograms, sums, gauges; a summary has none), or NULL.
    pub exemplars: *const llmm_otlp_exemplar,
    /// number of `exemplars`
    pub exemplar_count: usize,
}

/// One metric and its points.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_metric {
    /// caller-sized: set by llmm_otlp_metric_init()
    pub struct_size: u32,
    /// metric name, non-empty UTF-8
    pub name: *const c_char,
    /// description (UTF-8), or NULL for none
    pub description: *const c_char,
    /// unit (UTF-8, e.g. `"s"`, `"{request}"`), or NULL: none
    pub unit: *const c_char,
    /// the data type; must be set
    pub r#type: llmm_otlp_metric_type,
    /// Histograms and sums: LLMM_OTLP_CUMULATIVE (default) or LLMM_OTLP_DELTA.
    pub temporality: llmm_otlp_temporality,
    /// sums: 1 for a monotonic sum (a counter), 0 otherwise
    pub monotonic: i32,
    /// Histograms and summaries: factor from a recorded value to the exported unit (default 1; see export.h, "Units"). Exemplar values are not converted.
    pub unit_to_seconds: f64,
    /// Exponential histograms: the largest number of buckets (0 = no limit; see llmm_otlp_options).
    pub max_buckets: u32,
    /// Explicit-bucket histograms: the finite, strictly increasing bounds (NULL: the list LLMM_BUCKETS_OTEL_GENAI_DURATION); summaries: the quantiles, each in [0, 1] (NULL: 0.5, 0.9, 0.99).
    pub bounds: *const f64,
    /// number of `bounds`
    pub bound_count: usize,
    /// the points (see the file documentation on arrays)
    pub points: *const llmm_otlp_point,
    /// number of `points`
    pub point_count: usize,
}

/// A whole metrics request: resource, scope and metrics.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_metrics_request {
    /// caller-sized: set by llmm_otlp_metrics_request_init()
    pub struct_size: u32,
    /// resource attributes as a label list, or NULL
    pub resource_attributes: *const c_char,
    /// instrumentation scope name; NULL: `"libllmmetrics"`
    pub scope_name: *const c_char,
    /// scope version; NULL: the library's version with the default name, none with a name of the caller's
    pub scope_version: *const c_char,
    /// scope attributes as a label list, or NULL
    pub scope_attributes: *const c_char,
    /// the metrics (see the file documentation on arrays)
    pub metrics: *const llmm_otlp_metric,
    /// number of `metrics`
    pub metric_count: usize,
}

/// The type of a span attribute's value.
pub type llmm_otlp_value_type = c_int;
pub const LLMM_OTLP_STRING: llmm_otlp_value_type = 1;
pub const LLMM_OTLP_INT: llmm_otlp_value_type = 2;
pub const LLMM_OTLP_DOUBLE: llmm_otlp_value_type = 3;

/// One typed attribute of a span.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_attribute {
    /// caller-sized: set by llmm_otlp_attribute_init()
    pub struct_size: u32,
    /// attribute key, non-empty UTF-8
    pub key: *const c_char,
    /// which value field is written
    pub r#type: llmm_otlp_value_type,
    /// LLMM_OTLP_STRING: the value (UTF-8)
    pub string_value: *const c_char,
    /// LLMM_OTLP_INT: the value
    pub int_value: i64,
    /// LLMM_OTLP_DOUBLE: the value
    pub double_value: f64,
}

/// The kind of a span (OTLP `Span.SpanKind`).
pub type llmm_otlp_span_kind = c_int;
pub const LLMM_OTLP_SPAN_INTERNAL: llmm_otlp_span_kind = 1;
pub const LLMM_OTLP_SPAN_SERVER: llmm_otlp_span_kind = 2;
pub const LLMM_OTLP_SPAN_CLIENT: llmm_otlp_span_kind = 3;
pub const LLMM_OTLP_SPAN_PRODUCER: llmm_otlp_span_kind = 4;
pub const LLMM_OTLP_SPAN_CONSUMER: llmm_otlp_span_kind = 5;

/// The status of a span (OTLP `Status.StatusCode`).
pub type llmm_otlp_status_code = c_int;
pub const LLMM_OTLP_STATUS_UNSET: llmm_otlp_status_code = 0;
pub const LLMM_OTLP_STATUS_OK: llmm_otlp_status_code = 1;
pub const LLMM_OTLP_STATUS_ERROR: llmm_otlp_status_code = 2;

/// One span.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_span {
    /// caller-sized: set by llmm_otlp_span_init()
    pub struct_size: u32,
    /// W3C trace id, not all zero
    pub trace_id: [u8; 16],
    /// span id, not all zero
    pub span_id: [u8; 8],
    /// the parent's span id; all zero: a root span (left out)
    pub parent_span_id: [u8; 8],
    /// span name, non-empty UTF-8
    pub name: *const c_char,
    /// default LLMM_OTLP_SPAN_CLIENT
    pub kind: llmm_otlp_span_kind,
    /// start
    pub start_time_unix_nano: u64,
    /// end, ≥ start
    pub end_time_unix_nano: u64,
    /// typed attributes (an array), or NULL
    pub attributes: *const llmm_otlp_attribute,
    /// number of `attributes`
    pub attribute_count: usize,
    /// default LLMM_OTLP_STATUS_UNSET
    pub status_code: llmm_otlp_status_code,
    /// status message (UTF-8), or NULL for none
    pub status_message: *const c_char,
}

/// A whole traces request: resource, scope and spans.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct llmm_otlp_traces_request {
    /// caller-sized: set by llmm_otlp_traces_request_init()
    pub struct_size: u32,
    /// resource attributes as a label list, or NULL
    pub resource_attributes: *const c_char,
    /// as in llmm_otlp_metrics_request
    pub scope_name: *const c_char,
    /// as in llmm_otlp_metrics_request
    pub scope_version: *const c_char,
    /// scope attributes as a label list, or NULL
    pub scope_attributes: *const c_char,
    /// the spans (see the file documentation on arrays)
    pub spans: *const llmm_otlp_span,
    /// number of `spans`
    pub span_count: usize,
}

extern "C" {
    /// Write an `ExportMetricsServiceRequest` holding every metric and point of `r`.
    pub fn llmm_export_otlp_metrics(r: *const llmm_otlp_metrics_request, encoding: llmm_otlp_encoding, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
    /// Write an `ExportTraceServiceRequest` holding every span of `r`.
    pub fn llmm_export_otlp_traces(r: *const llmm_otlp_traces_request, encoding: llmm_otlp_encoding, buf: *mut u8, cap: usize, len: *mut usize) -> llmm_status;
}

// ------------------------------------------------------------------------------------------------
// host.h
// ------------------------------------------------------------------------------------------------

/// The host signals (values pinned). Each is also the key of its event threshold (llmm_host_option).
pub type llmm_host_signal = c_int;
pub const LLMM_HOST_TCP_RETRANS: llmm_host_signal = 1;
pub const LLMM_HOST_MAJOR_FAULTS: llmm_host_signal = 2;
pub const LLMM_HOST_CTX_SWITCHES: llmm_host_signal = 3;
pub const LLMM_HOST_RUN_DELAY: llmm_host_signal = 4;
pub const LLMM_HOST_NUMA_MIGRATIONS: llmm_host_signal = 5;
pub const LLMM_HOST_PSI_CPU: llmm_host_signal = 6;
pub const LLMM_HOST_PSI_MEMORY: llmm_host_signal = 7;
pub const LLMM_HOST_PSI_IO: llmm_host_signal = 8;
pub const LLMM_HOST_CPU_FREQ_MHZ: llmm_host_signal = 9;
pub const LLMM_HOST_CPU_THROTTLE: llmm_host_signal = 10;

/// Option keys of the sampler: the event threshold of each signal, keyed by the signal's own value; all f64. Types, bounds and defaults: options_reference (llmm_option_describe() with LLMM_KIND_HOST_SAMPLER). A threshold may change at any time and applies from the next sample; +Inf turns a signal's events off.
pub type llmm_host_option = c_int;
pub const LLMM_HOST_TCP_RETRANS_ABOVE: llmm_host_option = 1;
pub const LLMM_HOST_MAJOR_FAULTS_ABOVE: llmm_host_option = 2;
pub const LLMM_HOST_CTX_SWITCHES_ABOVE: llmm_host_option = 3;
pub const LLMM_HOST_RUN_DELAY_ABOVE: llmm_host_option = 4;
pub const LLMM_HOST_NUMA_MIGRATIONS_ABOVE: llmm_host_option = 5;
pub const LLMM_HOST_PSI_CPU_ABOVE: llmm_host_option = 6;
pub const LLMM_HOST_PSI_MEMORY_ABOVE: llmm_host_option = 7;
pub const LLMM_HOST_PSI_IO_ABOVE: llmm_host_option = 8;
pub const LLMM_HOST_CPU_FREQ_DROP: llmm_host_option = 9;
pub const LLMM_HOST_CPU_THROTTLE_ABOVE: llmm_host_option = 10;

opaque! {
    /// A sampler of host signals (opaque).
    llmm_host_sampler;
}

extern "C" {
    /// The stable name of a signal, for files, labels and reports: `tcp_retrans`, `major_faults`, `ctx_switches`, `run_delay`, `numa_migrations`, `psi_cpu`, `psi_memory`, `psi_io`, `cpu_freq_mhz`, `cpu_throttle`.
    pub fn llmm_host_signal_name(sig: llmm_host_signal) -> *const c_char;
    /// The event type a signal's threshold crossings are logged as (the table above).
    pub fn llmm_host_signal_event(sig: llmm_host_signal) -> i32;
    /// Create a sampler: open the files of every signal the host exposes under `root`.
    pub fn llmm_host_sampler_new(ctx: *mut llmm_ctx, root: *const c_char, out: *mut *mut llmm_host_sampler) -> llmm_status;
    /// Free a sampler and close its files. NULL is a no-op.
    pub fn llmm_host_sampler_free(s: *mut llmm_host_sampler);
    /// Set an event threshold (bounds: options_reference).
    pub fn llmm_host_sampler_set_f64(s: *mut llmm_host_sampler, key: llmm_host_option, value: f64) -> llmm_status;
    /// Read an event threshold.
    pub fn llmm_host_sampler_get_f64(s: *const llmm_host_sampler, key: llmm_host_option, value: *mut f64) -> llmm_status;
    /// Take one sample: re-read every available signal, compute the rates over the interval since the previous sample and, when `log` is given, log one event per signal above its threshold at `now_ns`.
    pub fn llmm_host_sample(s: *mut llmm_host_sampler, now_ns: u64, log: *mut llmm_event_log) -> llmm_status;
    /// A signal's rate over the last interval (the interval between the two latest samples), per second; for LLMM_HOST_CPU_FREQ_MHZ the level at the latest sample, in MHz.
    pub fn llmm_host_signal_rate(s: *const llmm_host_sampler, sig: llmm_host_signal, per_second: *mut f64) -> llmm_status;
}

// Every caller-sized struct and its kind.
size_prefixed! {
    llmm_allocator = LLMM_STRUCT_ALLOCATOR,
    llmm_spike_stats = LLMM_STRUCT_SPIKE_STATS,
    llmm_collapse_verdict = LLMM_STRUCT_COLLAPSE_VERDICT,
    llmm_collapse_report = LLMM_STRUCT_COLLAPSE_REPORT,
    llmm_stability_reading = LLMM_STRUCT_STABILITY_READING,
    llmm_saturation_reading = LLMM_STRUCT_SATURATION_READING,
    llmm_otlp_options = LLMM_STRUCT_OTLP_OPTIONS,
    llmm_fit_stats = LLMM_STRUCT_FIT_STATS,
    llmm_knee = LLMM_STRUCT_KNEE,
    llmm_usl = LLMM_STRUCT_USL,
    llmm_knee_options = LLMM_STRUCT_KNEE_OPTIONS,
    llmm_lii_reading = LLMM_STRUCT_LII_READING,
    llmm_kv_occupancy_result = LLMM_STRUCT_KV_OCCUPANCY_RESULT,
    llmm_kv_hit_reading = LLMM_STRUCT_KV_HIT_READING,
    llmm_tlb_reading = LLMM_STRUCT_TLB_READING,
    llmm_score_result = LLMM_STRUCT_SCORE_RESULT,
    llmm_slo_result = LLMM_STRUCT_SLO_RESULT,
    llmm_goodput_result = LLMM_STRUCT_GOODPUT_RESULT,
    llmm_burn_result = LLMM_STRUCT_BURN_RESULT,
    llmm_error_trigger_reading = LLMM_STRUCT_ERROR_TRIGGER_READING,
    llmm_option_info = LLMM_STRUCT_OPTION_INFO,
    llmm_otlp_exemplar = LLMM_STRUCT_OTLP_EXEMPLAR,
    llmm_otlp_point = LLMM_STRUCT_OTLP_POINT,
    llmm_otlp_metric = LLMM_STRUCT_OTLP_METRIC,
    llmm_otlp_metrics_request = LLMM_STRUCT_OTLP_METRICS_REQUEST,
    llmm_otlp_attribute = LLMM_STRUCT_OTLP_ATTRIBUTE,
    llmm_otlp_span = LLMM_STRUCT_OTLP_SPAN,
    llmm_otlp_traces_request = LLMM_STRUCT_OTLP_TRACES_REQUEST,
    llmm_exemplar = LLMM_STRUCT_EXEMPLAR,
    llmm_decode_info = LLMM_STRUCT_DECODE_INFO,
    llmm_traced_event = LLMM_STRUCT_TRACED_EVENT,
}
