//! CPU-GPU load imbalance, KV-cache formulas and occupancy, TLB / page-walk signals.

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::{get, FromC, Owned};
use crate::sized;

/// Default window of a [`LiiMonitor`], in samples.
pub const LII_WINDOW_DEFAULT: u32 = ffi::LLMM_LII_WINDOW_DEFAULT;
/// Largest window of a [`LiiMonitor`], in samples.
pub const LII_WINDOW_MAX: u32 = ffi::LLMM_LII_WINDOW_MAX;

/// Load imbalance index of paired utilisation samples in [0, 1]:
/// `|mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6)`.
///
/// ```
/// let lii = llmmetrics::lii(&[0.2, 0.4], &[0.6, 0.6])?; // means 0.3 and 0.6
/// assert!((lii - 0.5).abs() < 1e-15);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` when the slices differ in length or a utilisation is NaN or outside [0, 1];
/// `Empty` for no samples.
pub fn lii(cpu: &[f64], gpu: &[f64]) -> Result<f64> {
    if cpu.len() != gpu.len() {
        return Err(Error::invalid());
    }
    // SAFETY: both slices readable for `len` elements.
    get(|out| unsafe { ffi::llmm_lii(cpu.as_ptr(), gpu.as_ptr(), cpu.len(), out) })
}

/// Action tier of a load imbalance index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiiTier {
    /// Below the prefetch threshold: keep the batch size.
    Keep = 0,
    /// Between the thresholds: enable prefetch buffering.
    Prefetch = 1,
    /// At or above the adapt threshold: adapt the batch size.
    Adapt = 2,
}

/// Thresholds of a [`LiiMonitor`]; bounds and defaults:
/// [`options`](crate::options)`(ObjectKind::LiiMonitor)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiiThreshold {
    /// Lower bound of the prefetch tier; at most the adapt threshold.
    PrefetchAt = 0,
    /// Lower bound of the adapt tier.
    AdaptAt = 1,
    /// Scaling decision when the LII reaches this.
    ScaleAt = 2,
}

/// What a [`LiiMonitor`] reads now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiiReading {
    /// The action tier of `lii`.
    pub tier: LiiTier,
    /// Whether `lii` reached the scaling threshold.
    pub scale: bool,
    /// Samples in the window.
    pub samples: u32,
    /// Load imbalance index over the window.
    pub lii: f64,
    /// Mean CPU utilisation over the window.
    pub mean_cpu: f64,
    /// Mean GPU utilisation over the window.
    pub mean_gpu: f64,
}

constructors!(
    /// A streaming load imbalance index over the last W (CPU, GPU) samples (`llmm_lii_monitor`).
    ///
    /// ```
    /// use llmmetrics::{LiiMonitor, LiiTier};
    ///
    /// let mut m = LiiMonitor::new(4)?;
    /// for _ in 0..4 {
    ///     m.add(0.5, 1.0)?;
    /// }
    /// let r = m.read()?;
    /// assert_eq!((r.lii, r.tier, r.scale), (0.5, LiiTier::Adapt, true));
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    ///
    /// `LiiMonitor` is `Send + Sync`: writers take `&mut self`; reading only reads.
    pub struct LiiMonitor(ffi::llmm_lii_monitor) = ffi::llmm_lii_monitor_new;
    /// A monitor over the last `window` samples (0 for [`LII_WINDOW_DEFAULT`]).
    ///
    /// # Errors
    /// `Range` for a window above [`LII_WINDOW_MAX`]; `NoMem`.
    (window: u32));

option_calls!(LiiMonitor;
    /// Set a threshold.
    ///
    /// # Errors
    /// `Invalid` for NaN or an infinity; `Range` outside [0, 1] or when the prefetch threshold
    /// would exceed the adapt threshold (raise the adapt threshold first).
    fn set_threshold(which: LiiThreshold as ffi::llmm_lii_option, value: f64) = ffi::llmm_lii_monitor_set_f64;
    /// Read a threshold.
    fn threshold(which: LiiThreshold as ffi::llmm_lii_option) -> f64 = ffi::llmm_lii_monitor_get_f64;
);

calls!(LiiMonitor;
    /// Add one (CPU, GPU) utilisation sample, each in [0, 1].
    ///
    /// # Errors
    /// `Invalid` for NaN or a value outside [0, 1]; nothing changes.
    fn add(&mut self, cpu: f64, gpu: f64) = ffi::llmm_lii_monitor_add;
    /// Drop every sample; the thresholds stay.
    fn reset(&mut self) = ffi::llmm_lii_monitor_reset;
);

impl LiiMonitor {
    /// The LII over the window, its tier and the scaling trigger.
    ///
    /// # Errors
    /// `Empty` before the first sample.
    pub fn read(&self) -> Result<LiiReading> {
        // SAFETY: live handle; sized::read sets the struct up.
        let r = sized::read(|r| unsafe { ffi::llmm_lii_monitor_read(self.raw.ptr(), r) })?;
        let tier = match r.tier {
            ffi::LLMM_LII_KEEP => LiiTier::Keep,
            ffi::LLMM_LII_PREFETCH => LiiTier::Prefetch,
            ffi::LLMM_LII_ADAPT => LiiTier::Adapt,
            _ => return Err(Error::abi()),
        };
        Ok(LiiReading {
            tier,
            scale: r.scale != 0,
            samples: r.samples,
            lii: r.lii,
            mean_cpu: r.mean_cpu,
            mean_gpu: r.mean_gpu,
        })
    }
}

debug_fields!(LiiMonitor, "reading" = { read().ok() });

/// External fragmentation of a KV-cache free pool: `1 − largest / total` free extent (0 for
/// an empty pool or a single extent).
pub fn kv_fragmentation(free_extents: &[u64]) -> Result<f64> {
    // SAFETY: slice readable for `len` elements.
    get(|f| unsafe { ffi::llmm_kv_fragmentation(free_extents.as_ptr(), free_extents.len(), f) })
}

value_fns! {
/// KV-cache eviction threshold `max(0.65, 0.85 − 0.2·f)` for a fragmentation `f` in [0, 1].
fn kv_evict_threshold(fragmentation: f64) -> f64 = ffi::llmm_kv_evict_threshold;

/// KV-cache TTL `int(128 · (1 + 0.5·(h − 0.75)))` for an average hit rate `h` in [0, 1].
///
/// ```
/// assert_eq!(llmmetrics::kv_ttl(0.75)?, 128);
/// assert_eq!(llmmetrics::kv_ttl(1.0)?, 144);
/// assert_eq!(llmmetrics::kv_ttl(0.0)?, 80);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
fn kv_ttl(avg_hit_rate: f64) -> i64 = ffi::llmm_kv_ttl;
}

readings! {
/// Block- and token-level occupancy of a paged KV cache, see [`kv_occupancy`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KvOccupancy <- ffi::llmm_kv_occupancy_result {
    /// `U·B − K`: token slots reserved in used blocks but empty.
    wasted_slots: u64,
    /// `U / T`.
    block_occupancy: f64,
    /// `K / (T·B)`.
    token_occupancy: f64,
    /// `block_occupancy − token_occupancy`, the internal fragmentation as a share of the pool.
    gap: f64,
    /// `1 − K / (U·B)`, the internal fragmentation as a share of the reserved slots.
    internal_fragmentation: f64,
}
}

/// Occupancy of a paged KV cache with `blocks_total` blocks of `block_size` tokens,
/// `blocks_used` of them in use, holding `tokens_stored` tokens.
///
/// # Errors
/// `Invalid` for a zero block size or pool, more blocks used than exist, more tokens than the
/// used blocks hold, or a pool beyond 2^64 − 1 slots.
pub fn kv_occupancy(
    block_size: u64,
    blocks_total: u64,
    blocks_used: u64,
    tokens_stored: u64,
) -> Result<KvOccupancy> {
    // SAFETY: plain values; sized::read sets the struct up.
    sized::read(|r| unsafe {
        ffi::llmm_kv_occupancy(block_size, blocks_total, blocks_used, tokens_stored, r)
    })
    .map(FromC::from_c)
}

/// TLB miss-rate alert presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TlbWorkload {
    /// OLTP database: 12.5 % over 1 s.
    OltpDatabase = 0,
    /// Java micro-service: 8.2 % over 500 ms.
    JavaMicroservice = 1,
}

/// A TLB preset's miss-rate threshold (a fraction) and window (ns).
///
/// ```
/// use llmmetrics::{tlb_preset, TlbWorkload};
/// assert_eq!(tlb_preset(TlbWorkload::JavaMicroservice)?, (0.082, 500_000_000));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn tlb_preset(workload: TlbWorkload) -> Result<(f64, u64)> {
    let (mut rate, mut window) = (0.0, 0);
    // SAFETY: valid out-pointers.
    check(unsafe {
        ffi::llmm_tlb_preset(workload as ffi::llmm_tlb_workload, &mut rate, &mut window)
    })?;
    Ok((rate, window))
}

value_fns! {
/// Page-table-walk latency in ns from cycles: `cycles / cpu_hz · 1e9`.
fn page_walk_ns(cycles: f64, cpu_hz: f64) -> f64 = ffi::llmm_page_walk_ns;
}

/// Window of a [`KvHitTracker`] when 0 is given: one minute.
pub const KV_HIT_WINDOW_NS_DEFAULT: u64 = ffi::LLMM_KV_HIT_WINDOW_NS_DEFAULT;

readings! {
/// The KV-cache hit rate over a window, see [`KvHitTracker::read`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KvHitReading <- ffi::llmm_kv_hit_reading {
    /// Hits in the window.
    hits: u64,
    /// Lookups in the window (> 0).
    lookups: u64,
    /// `hits / lookups`.
    hit_rate: f64,
    /// The cache TTL for that hit rate, as [`kv_ttl`] gives it.
    ttl: i64,
}
}

constructors!(
    /// KV-cache hits and lookups over a time window (`llmm_kv_hit_tracker`); reads give the hit
    /// rate and the TTL it implies. Time stamps follow the rules of [`Window`](crate::Window).
    ///
    /// ```
    /// use llmmetrics::KvHitTracker;
    ///
    /// let mut t = KvHitTracker::new(0)?;               // one minute
    /// t.add(1_000_000_000, 3, 4)?;
    /// let r = t.read(2_000_000_000)?;
    /// assert_eq!((r.hits, r.lookups, r.hit_rate, r.ttl), (3, 4, 0.75, 128));
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub struct KvHitTracker(ffi::llmm_kv_hit_tracker) = ffi::llmm_kv_hit_tracker_new;
    /// A tracker over `window_ns` (0 for [`KV_HIT_WINDOW_NS_DEFAULT`]).
    (window_ns: u64));

calls!(KvHitTracker;
    /// Count `hits` of `lookups` at `now_ns`.
    ///
    /// # Errors
    /// `Invalid` for `hits > lookups` or time going backwards; `Range` on overflow.
    fn add(&mut self, now_ns: u64, hits: u64, lookups: u64) = ffi::llmm_kv_hit_tracker_add;
    /// The hit rate over the window ending at `now_ns`.
    ///
    /// # Errors
    /// `Empty` when the window holds no lookup.
    fn read(&mut self, now_ns: u64) -> KvHitReading = read ffi::llmm_kv_hit_tracker_read;
    /// Forget every count and the clock.
    fn reset(&mut self) = ffi::llmm_kv_hit_tracker_reset;
);

debug_fields!(KvHitTracker, "ptr" = { raw.ptr() });

readings! {
/// What a [`TlbMonitor`] reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TlbReading <- ffi::llmm_tlb_reading {
    /// Whether `miss_rate` exceeds `max_miss_rate` (strictly).
    alert: bool,
    /// TLB misses in the window.
    misses: u64,
    /// TLB accesses in the window (> 0).
    accesses: u64,
    /// The monitor's window.
    window_ns: u64,
    /// `misses / accesses`.
    miss_rate: f64,
    /// The monitor's threshold.
    max_miss_rate: f64,
}
}

/// TLB misses and accesses over a time window against a miss-rate threshold
/// (`llmm_tlb_monitor`).
///
/// ```
/// use llmmetrics::{TlbMonitor, TlbWorkload};
///
/// let mut m = TlbMonitor::new(TlbWorkload::JavaMicroservice)?;   // 8.2 % over 500 ms
/// m.add(1_000_000, 90, 1000)?;
/// let r = m.read(2_000_000)?;
/// assert!(r.alert && r.miss_rate == 0.09);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub struct TlbMonitor {
    raw: Owned<ffi::llmm_tlb_monitor>,
}

impl TlbMonitor {
    /// A monitor with a preset's threshold and window.
    pub fn new(workload: TlbWorkload) -> Result<TlbMonitor> {
        TlbMonitor::new_in(None, workload)
    }

    /// A monitor with a custom threshold (a fraction in [0, 1]) and window (ns, > 0).
    ///
    /// # Errors
    /// `Invalid` for NaN or a zero window; `Range` for a threshold outside [0, 1].
    pub fn custom(max_miss_rate: f64, window_ns: u64) -> Result<TlbMonitor> {
        TlbMonitor::custom_in(None, max_miss_rate, window_ns)
    }

    /// As [`new`](TlbMonitor::new) with an optional context.
    pub fn new_in(ctx: Option<&Context>, workload: TlbWorkload) -> Result<TlbMonitor> {
        // SAFETY: context NULL or live; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe {
            ffi::llmm_tlb_monitor_new(c, workload as ffi::llmm_tlb_workload, out)
        })?;
        Ok(TlbMonitor { raw })
    }

    /// As [`custom`](TlbMonitor::custom) with an optional context.
    pub fn custom_in(
        ctx: Option<&Context>,
        max_miss_rate: f64,
        window_ns: u64,
    ) -> Result<TlbMonitor> {
        // SAFETY: context NULL or live; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe {
            ffi::llmm_tlb_monitor_new_custom(c, max_miss_rate, window_ns, out)
        })?;
        Ok(TlbMonitor { raw })
    }
}

calls!(TlbMonitor;
    /// Count `misses` of `accesses` at `now_ns` (e.g. hardware counter deltas).
    fn add(&mut self, now_ns: u64, misses: u64, accesses: u64) = ffi::llmm_tlb_monitor_add;
    /// The miss rate over the window ending at `now_ns` and the alert.
    ///
    /// # Errors
    /// `Empty` when the window holds no access.
    fn read(&mut self, now_ns: u64) -> TlbReading = read ffi::llmm_tlb_monitor_read;
    /// Forget every count and the clock.
    fn reset(&mut self) = ffi::llmm_tlb_monitor_reset;
);

debug_fields!(TlbMonitor, "ptr" = { raw.ptr() });
