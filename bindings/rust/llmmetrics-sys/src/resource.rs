//! `resource.h`: Load imbalance, KV cache, TLB and page-walk signals.

use super::*;

/// Default window of a [`llmm_lii_monitor`], in samples.
pub const LLMM_LII_WINDOW_DEFAULT: u32 = 64;
/// Largest window of a [`llmm_lii_monitor`], in samples.
pub const LLMM_LII_WINDOW_MAX: u32 = 1048576;

/// Action tier for a load imbalance index (`llmm_lii_tier`).
pub type llmm_lii_tier = c_int;
/// keep the batch size
pub const LLMM_LII_KEEP: llmm_lii_tier = 0;
/// enable prefetch buffering
pub const LLMM_LII_PREFETCH: llmm_lii_tier = 1;
/// adapt the batch size
pub const LLMM_LII_ADAPT: llmm_lii_tier = 2;

/// Double options of a [`llmm_lii_monitor`] (`llmm_lii_option`).
pub type llmm_lii_option = c_int;
/// lower bound of the prefetch tier; default 0.2
pub const LLMM_LII_PREFETCH_AT: llmm_lii_option = 0;
/// lower bound of the adapt tier; default 0.4
pub const LLMM_LII_ADAPT_AT: llmm_lii_option = 1;
/// scaling decision when LII ≥ this; default 0.3
pub const LLMM_LII_SCALE_AT: llmm_lii_option = 2;

/// What a [`llmm_lii_monitor`] reads now (`llmm_lii_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_lii_reading {
    /// `sizeof(llmm_lii_reading)`, set by [`llmm_lii_reading_init`].
    pub struct_size: u32,
    /// The action tier of `lii`.
    pub tier: llmm_lii_tier,
    /// 1 when `lii` ≥ the scaling threshold.
    pub scale: i32,
    /// Samples in the window.
    pub samples: u32,
    /// Load imbalance index over the window.
    pub lii: f64,
    /// Mean CPU utilisation over the window.
    pub mean_cpu: f64,
    /// Mean GPU utilisation over the window.
    pub mean_gpu: f64,
}

/// Block- and token-level occupancy of a paged KV cache (`llmm_kv_occupancy_result`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_kv_occupancy_result {
    /// `sizeof(llmm_kv_occupancy_result)`, set by [`llmm_kv_occupancy_result_init`].
    pub struct_size: u32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// U·B − K: token slots reserved but empty.
    pub wasted_slots: u64,
    /// U / T
    pub block_occupancy: f64,
    /// K / (T·B)
    pub token_occupancy: f64,
    /// block_occupancy − token_occupancy
    pub gap: f64,
    /// 1 − K / (U·B); 0 when U = 0
    pub internal_fragmentation: f64,
}

/// TLB miss-rate alert presets (`llmm_tlb_workload`).
pub type llmm_tlb_workload = c_int;
/// 0.125 over 1 s
pub const LLMM_TLB_OLTP_DATABASE: llmm_tlb_workload = 0;
/// 0.082 over 500 ms
pub const LLMM_TLB_JAVA_MICROSERVICE: llmm_tlb_workload = 1;

opaque! {
    /// A streaming load imbalance index (`llmm_lii_monitor`).
    llmm_lii_monitor;
}

extern "C" {
    pub fn llmm_lii(cpu: *const f64, gpu: *const f64, n: usize, lii: *mut f64) -> llmm_status;
    pub fn llmm_lii_reading_init(r: *mut llmm_lii_reading) -> llmm_status;
    pub fn llmm_lii_monitor_new(
        ctx: *mut llmm_ctx,
        window: u32,
        out: *mut *mut llmm_lii_monitor,
    ) -> llmm_status;
    pub fn llmm_lii_monitor_free(m: *mut llmm_lii_monitor);
    pub fn llmm_lii_monitor_set_f64(
        m: *mut llmm_lii_monitor,
        opt: llmm_lii_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_lii_monitor_get_f64(
        m: *const llmm_lii_monitor,
        opt: llmm_lii_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_lii_monitor_add(m: *mut llmm_lii_monitor, cpu: f64, gpu: f64) -> llmm_status;
    pub fn llmm_lii_monitor_read(
        m: *const llmm_lii_monitor,
        r: *mut llmm_lii_reading,
    ) -> llmm_status;
    pub fn llmm_lii_monitor_reset(m: *mut llmm_lii_monitor) -> llmm_status;
    pub fn llmm_kv_fragmentation(free_extents: *const u64, n: usize, f: *mut f64) -> llmm_status;
    pub fn llmm_kv_evict_threshold(fragmentation: f64, threshold: *mut f64) -> llmm_status;
    pub fn llmm_kv_ttl(avg_hit_rate: f64, ttl: *mut i64) -> llmm_status;
    pub fn llmm_kv_occupancy_result_init(r: *mut llmm_kv_occupancy_result) -> llmm_status;
    pub fn llmm_kv_occupancy(
        block_size: u64,
        blocks_total: u64,
        blocks_used: u64,
        tokens_stored: u64,
        r: *mut llmm_kv_occupancy_result,
    ) -> llmm_status;
    pub fn llmm_tlb_preset(
        workload: llmm_tlb_workload,
        max_miss_rate: *mut f64,
        window_ns: *mut u64,
    ) -> llmm_status;
    pub fn llmm_page_walk_ns(cycles: f64, cpu_hz: f64, ns: *mut f64) -> llmm_status;
}

/// Window of a KV hit-rate tracker when 0 is given: one minute.
pub const LLMM_KV_HIT_WINDOW_NS_DEFAULT: u64 = 60000000000;
/// Slots the window of a resource monitor is divided into.
pub const LLMM_RESOURCE_WINDOW_SLOTS: u32 = 60;

/// The KV-cache hit rate over a window (`llmm_kv_hit_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_kv_hit_reading {
    /// `sizeof(llmm_kv_hit_reading)`, set by [`llmm_kv_hit_reading_init`].
    pub struct_size: u32,
    /// Padding, always 0.
    pub reserved_: u32,
    /// Hits in the window.
    pub hits: u64,
    /// Lookups in the window.
    pub lookups: u64,
    /// hits / lookups.
    pub hit_rate: f64,
    /// The cache TTL for that hit rate.
    pub ttl: i64,
}

/// What a [`llmm_tlb_monitor`] reads (`llmm_tlb_reading`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_tlb_reading {
    /// `sizeof(llmm_tlb_reading)`, set by [`llmm_tlb_reading_init`].
    pub struct_size: u32,
    /// 1 when `miss_rate` > `max_miss_rate`.
    pub alert: i32,
    /// TLB misses in the window.
    pub misses: u64,
    /// TLB accesses in the window.
    pub accesses: u64,
    /// The monitor's window.
    pub window_ns: u64,
    /// misses / accesses.
    pub miss_rate: f64,
    /// The monitor's threshold.
    pub max_miss_rate: f64,
}

opaque! {
    /// KV-cache hits and lookups over a time window (`llmm_kv_hit_tracker`).
    llmm_kv_hit_tracker;
    /// TLB misses and accesses against a miss-rate threshold (`llmm_tlb_monitor`).
    llmm_tlb_monitor;
}

extern "C" {
    pub fn llmm_kv_hit_reading_init(r: *mut llmm_kv_hit_reading) -> llmm_status;
    pub fn llmm_kv_hit_tracker_new(
        ctx: *mut llmm_ctx,
        window_ns: u64,
        out: *mut *mut llmm_kv_hit_tracker,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_free(t: *mut llmm_kv_hit_tracker);
    pub fn llmm_kv_hit_tracker_add(
        t: *mut llmm_kv_hit_tracker,
        now_ns: u64,
        hits: u64,
        lookups: u64,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_read(
        t: *mut llmm_kv_hit_tracker,
        now_ns: u64,
        r: *mut llmm_kv_hit_reading,
    ) -> llmm_status;
    pub fn llmm_kv_hit_tracker_reset(t: *mut llmm_kv_hit_tracker) -> llmm_status;
    pub fn llmm_tlb_reading_init(r: *mut llmm_tlb_reading) -> llmm_status;
    pub fn llmm_tlb_monitor_new(
        ctx: *mut llmm_ctx,
        workload: llmm_tlb_workload,
        out: *mut *mut llmm_tlb_monitor,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_new_custom(
        ctx: *mut llmm_ctx,
        max_miss_rate: f64,
        window_ns: u64,
        out: *mut *mut llmm_tlb_monitor,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_free(m: *mut llmm_tlb_monitor);
    pub fn llmm_tlb_monitor_add(
        m: *mut llmm_tlb_monitor,
        now_ns: u64,
        misses: u64,
        accesses: u64,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_read(
        m: *mut llmm_tlb_monitor,
        now_ns: u64,
        r: *mut llmm_tlb_reading,
    ) -> llmm_status;
    pub fn llmm_tlb_monitor_reset(m: *mut llmm_tlb_monitor) -> llmm_status;
}
