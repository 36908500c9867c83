//! Host signals: the kernel's counters of the usual causes of latency spikes, read from
//! /proc and /sys each time the caller samples.

use std::ffi::{CStr, CString};
use std::fmt;
use std::ptr;

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::events::{EventLog, EventType};
use crate::object::{get, Owned};

/// One of the host's counters a [`HostSampler`] reads (`llmm_host_signal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostSignal {
    /// TCP segments retransmitted per second.
    TcpRetrans = 1,
    /// Major page faults per second.
    MajorFaults = 2,
    /// Context switches per second, all CPUs.
    CtxSwitches = 3,
    /// Seconds per second the process's main thread waited for a CPU.
    RunDelay = 4,
    /// Pages migrated per second.
    NumaMigrations = 5,
    /// CPU pressure: stall seconds per second ("some").
    PsiCpu = 6,
    /// Memory pressure: stall seconds per second ("some").
    PsiMemory = 7,
    /// I/O pressure: stall seconds per second ("some").
    PsiIo = 8,
    /// Mean current CPU frequency in MHz (a level, not a rate).
    CpuFreqMhz = 9,
    /// Seconds per second the cgroup was throttled.
    CpuThrottle = 10,
}

impl HostSignal {
    /// Every signal, in order.
    pub const ALL: [HostSignal; 10] = [
        HostSignal::TcpRetrans,
        HostSignal::MajorFaults,
        HostSignal::CtxSwitches,
        HostSignal::RunDelay,
        HostSignal::NumaMigrations,
        HostSignal::PsiCpu,
        HostSignal::PsiMemory,
        HostSignal::PsiIo,
        HostSignal::CpuFreqMhz,
        HostSignal::CpuThrottle,
    ];

    /// The stable name (`"tcp_retrans"`, `"psi_cpu"`, …).
    pub fn name(self) -> &'static str {
        // SAFETY: any value is accepted; the result is NULL or a static string.
        let p = unsafe { ffi::llmm_host_signal_name(self as ffi::llmm_host_signal) };
        if p.is_null() {
            return "";
        }
        // SAFETY: static NUL-terminated ASCII string.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
    }

    /// The type the signal's events are logged as.
    pub fn event_type(self) -> EventType {
        // SAFETY: any value is accepted.
        EventType(unsafe { ffi::llmm_host_signal_event(self as ffi::llmm_host_signal) })
    }
}

/// The event threshold of each signal, keyed by the signal's value (`llmm_host_option`);
/// bounds and defaults: [`options`](crate::options)`(ObjectKind::HostSampler)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostThreshold {
    /// An event when the retransmit rate is above this.
    TcpRetransAbove = 1,
    /// An event when the major-fault rate is above this.
    MajorFaultsAbove = 2,
    /// An event when the context-switch rate is above this.
    CtxSwitchesAbove = 3,
    /// An event when the run delay is above this.
    RunDelayAbove = 4,
    /// An event when the page-migration rate is above this.
    NumaMigrationsAbove = 5,
    /// An event when the CPU pressure is above this.
    PsiCpuAbove = 6,
    /// An event when the memory pressure is above this.
    PsiMemoryAbove = 7,
    /// An event when the I/O pressure is above this.
    PsiIoAbove = 8,
    /// An event when the frequency fell by more than this share since the previous sample.
    CpuFreqDrop = 9,
    /// An event when the throttled time is above this.
    CpuThrottleAbove = 10,
}

/// A sampler of host signals (`llmm_host_sampler`): call [`sample`](HostSampler::sample)
/// from your own timer (50 ms is the method's granularity); each sample turns the counters'
/// growth since the previous one into rates, and logs an event for each signal above its
/// threshold. Signals the host does not expose (every one off Linux) answer
/// [`rate`](HostSampler::rate) with `State`.
///
/// ```
/// use llmmetrics::{EventLog, HostSampler, HostSignal};
///
/// let mut host = HostSampler::new(None)?;      // reads /proc and /sys
/// let mut log = EventLog::new(0)?;
/// let t0 = llmmetrics::now_ns();
/// host.sample(t0, Some(&mut log))?;
/// host.sample(t0 + 50_000_000, Some(&mut log))?;
/// if let Ok(r) = host.rate(HostSignal::CtxSwitches) {
///     assert!(r >= 0.0);
/// }
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub struct HostSampler {
    raw: Owned<ffi::llmm_host_sampler>,
}

option_calls!(HostSampler;
    /// Set an event threshold; it applies from the next sample (`f64::INFINITY`: no events).
    /// Errors: `Range` outside the bounds, `Invalid` for NaN.
    fn set_threshold(key: HostThreshold as ffi::llmm_host_option, value: f64) =
        ffi::llmm_host_sampler_set_f64;
    /// An event threshold.
    fn threshold(key: HostThreshold as ffi::llmm_host_option) -> f64 =
        ffi::llmm_host_sampler_get_f64;
);

impl HostSampler {
    /// A sampler of the files under `root`, the directory that stands for `/` (a container's
    /// view of the host, or a captured tree; `None` for `/`).
    ///
    /// # Errors
    /// `Invalid` for a root longer than 2048 bytes or holding a NUL; `NoMem`.
    pub fn new(root: Option<&str>) -> Result<HostSampler> {
        HostSampler::create(None, root)
    }

    /// As [`new`](HostSampler::new), allocating from `ctx`.
    pub fn with_context(ctx: &Context, root: Option<&str>) -> Result<HostSampler> {
        HostSampler::create(Some(ctx), root)
    }

    fn create(ctx: Option<&Context>, root: Option<&str>) -> Result<HostSampler> {
        let root = root.map(CString::new).transpose().map_err(|_| Error::invalid())?;
        let r = root.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        // SAFETY: context NULL or live; root NULL or a NUL-terminated string; valid out-pointer.
        let raw = Owned::new(ctx, |c, out| unsafe { ffi::llmm_host_sampler_new(c, r, out) })?;
        Ok(HostSampler { raw })
    }

    /// Re-read every available signal at `now_ns` (later than the previous sample's); with a
    /// log, add one event at `now_ns` per signal above its threshold.
    ///
    /// # Errors
    /// `Invalid` when `now_ns` is not later than the previous sample's, or the log holds a
    /// later event; nothing changes then.
    pub fn sample(&mut self, now_ns: u64, log: Option<&mut EventLog>) -> Result<()> {
        let l = log.map_or(ptr::null_mut(), |l| l.as_mut_ptr());
        // SAFETY: live handles, exclusive borrows.
        check(unsafe { ffi::llmm_host_sample(self.raw.ptr(), now_ns, l) })
    }

    /// The signal's rate per second over the last interval (for
    /// [`HostSignal::CpuFreqMhz`], the level at the latest sample).
    ///
    /// # Errors
    /// `State` for a signal the host does not expose; `Empty` before a rate exists (fewer
    /// than two samples, or a refused reading before the latest); `Corrupt` when the latest
    /// reading was refused (garbage, a read error, a counter that went backwards).
    pub fn rate(&self, signal: HostSignal) -> Result<f64> {
        // SAFETY: live handle; read-only call.
        get(|v| unsafe {
            ffi::llmm_host_signal_rate(self.raw.ptr(), signal as ffi::llmm_host_signal, v)
        })
    }
}

impl fmt::Debug for HostSampler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("HostSampler");
        for sig in HostSignal::ALL {
            d.field(sig.name(), &self.rate(sig).ok());
        }
        d.finish()
    }
}
