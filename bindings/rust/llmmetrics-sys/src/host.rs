//! `host.h`: host signals from /proc and /sys (since 1.1.0).

use super::*;

/// The host signals (`llmm_host_signal`).
pub type llmm_host_signal = c_int;
/// TCP segments retransmitted per second
pub const LLMM_HOST_TCP_RETRANS: llmm_host_signal = 1;
/// major page faults per second
pub const LLMM_HOST_MAJOR_FAULTS: llmm_host_signal = 2;
/// context switches per second
pub const LLMM_HOST_CTX_SWITCHES: llmm_host_signal = 3;
/// seconds per second the main thread waited for a CPU
pub const LLMM_HOST_RUN_DELAY: llmm_host_signal = 4;
/// pages migrated per second
pub const LLMM_HOST_NUMA_MIGRATIONS: llmm_host_signal = 5;
/// CPU pressure, stall seconds per second
pub const LLMM_HOST_PSI_CPU: llmm_host_signal = 6;
/// memory pressure, stall seconds per second
pub const LLMM_HOST_PSI_MEMORY: llmm_host_signal = 7;
/// I/O pressure, stall seconds per second
pub const LLMM_HOST_PSI_IO: llmm_host_signal = 8;
/// mean current CPU frequency in MHz (a level)
pub const LLMM_HOST_CPU_FREQ_MHZ: llmm_host_signal = 9;
/// seconds per second the cgroup was throttled
pub const LLMM_HOST_CPU_THROTTLE: llmm_host_signal = 10;

/// Event thresholds of the sampler, keyed by the signal's value (`llmm_host_option`).
pub type llmm_host_option = c_int;
/// f64: retransmits per second
pub const LLMM_HOST_TCP_RETRANS_ABOVE: llmm_host_option = 1;
/// f64: major faults per second
pub const LLMM_HOST_MAJOR_FAULTS_ABOVE: llmm_host_option = 2;
/// f64: context switches per second
pub const LLMM_HOST_CTX_SWITCHES_ABOVE: llmm_host_option = 3;
/// f64: run delay, s/s
pub const LLMM_HOST_RUN_DELAY_ABOVE: llmm_host_option = 4;
/// f64: pages migrated per second
pub const LLMM_HOST_NUMA_MIGRATIONS_ABOVE: llmm_host_option = 5;
/// f64: CPU pressure, s/s
pub const LLMM_HOST_PSI_CPU_ABOVE: llmm_host_option = 6;
/// f64: memory pressure, s/s
pub const LLMM_HOST_PSI_MEMORY_ABOVE: llmm_host_option = 7;
/// f64: I/O pressure, s/s
pub const LLMM_HOST_PSI_IO_ABOVE: llmm_host_option = 8;
/// f64: share the frequency must fall by
pub const LLMM_HOST_CPU_FREQ_DROP: llmm_host_option = 9;
/// f64: throttled time, s/s
pub const LLMM_HOST_CPU_THROTTLE_ABOVE: llmm_host_option = 10;

opaque! {
    /// A sampler of host signals (`llmm_host_sampler`).
    llmm_host_sampler;
}

extern "C" {
    pub fn llmm_host_signal_name(sig: llmm_host_signal) -> *const c_char;
    pub fn llmm_host_signal_event(sig: llmm_host_signal) -> i32;
    pub fn llmm_host_sampler_new(
        ctx: *mut llmm_ctx,
        root: *const c_char,
        out: *mut *mut llmm_host_sampler,
    ) -> llmm_status;
    pub fn llmm_host_sampler_free(s: *mut llmm_host_sampler);
    pub fn llmm_host_sampler_set_f64(
        s: *mut llmm_host_sampler,
        key: llmm_host_option,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_host_sampler_get_f64(
        s: *const llmm_host_sampler,
        key: llmm_host_option,
        value: *mut f64,
    ) -> llmm_status;
    pub fn llmm_host_sample(
        s: *mut llmm_host_sampler,
        now_ns: u64,
        log: *mut llmm_event_log,
    ) -> llmm_status;
    pub fn llmm_host_signal_rate(
        s: *const llmm_host_sampler,
        sig: llmm_host_signal,
        per_second: *mut f64,
    ) -> llmm_status;
}
