//! `sketch.h`: Quantile sketch, recorder and shards, binary form.

use super::*;

/// Default scale: 64 buckets per power of two, 0.542 % worst relative error.
pub const LLMM_SCALE_DEFAULT: i32 = 6;
/// Smallest supported scale.
pub const LLMM_SCALE_MIN: i32 = 0;
/// Largest supported scale.
pub const LLMM_SCALE_MAX: i32 = 10;
/// Default lower end of the accurately tracked range.
pub const LLMM_SKETCH_RANGE_MIN_DEFAULT: f64 = 1e-9;
/// Default upper end of the accurately tracked range.
pub const LLMM_SKETCH_RANGE_MAX_DEFAULT: f64 = 1e15;
/// Smallest accepted lower range bound.
pub const LLMM_SKETCH_RANGE_MIN_LIMIT: f64 = 1e-300;
/// Largest accepted upper range bound.
pub const LLMM_SKETCH_RANGE_MAX_LIMIT: f64 = 1e300;

opaque! {
    /// A streaming, mergeable quantile sketch (`llmm_sketch`).
    llmm_sketch;
    /// A multi-writer recorder (`llmm_recorder`).
    llmm_recorder;
    /// A single-writer shard of a recorder, owned by the recorder (`llmm_shard`).
    llmm_shard;
}

extern "C" {
    pub fn llmm_sketch_new(
        ctx: *mut llmm_ctx,
        scale: i32,
        out: *mut *mut llmm_sketch,
    ) -> llmm_status;
    pub fn llmm_sketch_free(s: *mut llmm_sketch);
    pub fn llmm_sketch_set_range(s: *mut llmm_sketch, lo: f64, hi: f64) -> llmm_status;
    pub fn llmm_sketch_range(s: *const llmm_sketch, lo: *mut f64, hi: *mut f64) -> llmm_status;
    pub fn llmm_sketch_add(s: *mut llmm_sketch, v: f64) -> llmm_status;
    pub fn llmm_sketch_add_n(s: *mut llmm_sketch, v: f64, n: u64) -> llmm_status;
    pub fn llmm_sketch_add_many(s: *mut llmm_sketch, v: *const f64, n: usize) -> llmm_status;
    pub fn llmm_sketch_quantile(s: *const llmm_sketch, q: f64, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_quantiles(
        s: *const llmm_sketch,
        q: *const f64,
        n: usize,
        out: *mut f64,
    ) -> llmm_status;
    pub fn llmm_sketch_rank(s: *const llmm_sketch, v: f64, fraction_le: *mut f64) -> llmm_status;
    pub fn llmm_sketch_count(s: *const llmm_sketch) -> u64;
    pub fn llmm_sketch_sum(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_min(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_max(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_mean(s: *const llmm_sketch, out: *mut f64) -> llmm_status;
    pub fn llmm_sketch_special_counts(
        s: *const llmm_sketch,
        zero: *mut u64,
        under: *mut u64,
        over: *mut u64,
    ) -> llmm_status;
    pub fn llmm_sketch_scale(s: *const llmm_sketch) -> i32;
    pub fn llmm_sketch_bucket_span(
        s: *const llmm_sketch,
        first: *mut i32,
        last: *mut i32,
    ) -> llmm_status;
    pub fn llmm_sketch_bucket_count(s: *const llmm_sketch, index: i32) -> u64;
    pub fn llmm_sketch_index(scale: i32, v: f64, index: *mut i32) -> llmm_status;
    pub fn llmm_sketch_bucket_bounds(
        scale: i32,
        index: i32,
        lower: *mut f64,
        upper: *mut f64,
    ) -> llmm_status;
    pub fn llmm_sketch_merge(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_subtract(dst: *mut llmm_sketch, earlier: *const llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_reset(s: *mut llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_clone(s: *const llmm_sketch, out: *mut *mut llmm_sketch) -> llmm_status;
    pub fn llmm_sketch_downscale(s: *mut llmm_sketch, new_scale: i32) -> llmm_status;
    pub fn llmm_sketch_copy(dst: *mut llmm_sketch, src: *const llmm_sketch) -> llmm_status;

    pub fn llmm_recorder_new(
        ctx: *mut llmm_ctx,
        scale: i32,
        out: *mut *mut llmm_recorder,
    ) -> llmm_status;
    pub fn llmm_recorder_set_range(r: *mut llmm_recorder, lo: f64, hi: f64) -> llmm_status;
    pub fn llmm_recorder_shard(r: *mut llmm_recorder, out: *mut *mut llmm_shard) -> llmm_status;
    pub fn llmm_shard_add(sh: *mut llmm_shard, v: f64) -> llmm_status;
    pub fn llmm_shard_add_many(sh: *mut llmm_shard, v: *const f64, n: usize) -> llmm_status;
    pub fn llmm_shard_release(sh: *mut llmm_shard);
    pub fn llmm_recorder_snapshot(r: *mut llmm_recorder, into: *mut llmm_sketch) -> llmm_status;
    pub fn llmm_recorder_free(r: *mut llmm_recorder);
}

/// Format version written by [`llmm_sketch_serialize`].
pub const LLMM_SKETCH_FORMAT_VERSION: u32 = 1;

extern "C" {
    pub fn llmm_sketch_serialize(
        s: *const llmm_sketch,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_sketch_deserialize(
        ctx: *mut llmm_ctx,
        buf: *const u8,
        len: usize,
        out: *mut *mut llmm_sketch,
    ) -> llmm_status;
}
