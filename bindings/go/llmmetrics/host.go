package llmmetrics

/*
#include <stdlib.h>
#include <llmmetrics/host.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// HostSignal is one of the host's counters a [HostSampler] reads (llmm_host_signal).
type HostSignal int32

// The host signals (values pinned); each is also the key of its event threshold.
const (
	HostTCPRetrans     HostSignal = C.LLMM_HOST_TCP_RETRANS     // TCP segments retransmitted per second
	HostMajorFaults    HostSignal = C.LLMM_HOST_MAJOR_FAULTS    // major page faults per second
	HostCtxSwitches    HostSignal = C.LLMM_HOST_CTX_SWITCHES    // context switches per second, all CPUs
	HostRunDelay       HostSignal = C.LLMM_HOST_RUN_DELAY       // seconds per second the main thread waited for a CPU
	HostNUMAMigrations HostSignal = C.LLMM_HOST_NUMA_MIGRATIONS // pages migrated per second
	HostPSICPU         HostSignal = C.LLMM_HOST_PSI_CPU         // CPU pressure: stall seconds per second ("some")
	HostPSIMemory      HostSignal = C.LLMM_HOST_PSI_MEMORY      // memory pressure: stall seconds per second
	HostPSIIO          HostSignal = C.LLMM_HOST_PSI_IO          // I/O pressure: stall seconds per second
	HostCPUFreqMHz     HostSignal = C.LLMM_HOST_CPU_FREQ_MHZ    // mean current CPU frequency in MHz (a level)
	HostCPUThrottle    HostSignal = C.LLMM_HOST_CPU_THROTTLE    // seconds per second the cgroup was throttled
)

// HostSignals lists every signal, in order.
var HostSignals = []HostSignal{HostTCPRetrans, HostMajorFaults, HostCtxSwitches, HostRunDelay,
	HostNUMAMigrations, HostPSICPU, HostPSIMemory, HostPSIIO, HostCPUFreqMHz, HostCPUThrottle}

// Name is the signal's stable name ("tcp_retrans", "psi_cpu", ...; "" for an unknown value).
func (s HostSignal) Name() string {
	return goString(C.llmm_host_signal_name(C.llmm_host_signal(s)))
}

// String is [HostSignal.Name], or "HostSignal(n)" for an unknown value.
func (s HostSignal) String() string {
	return nameOr(s.Name(), "HostSignal", int64(s))
}

// EventType is the type the signal's events are logged as (0 for an unknown value).
func (s HostSignal) EventType() EventType {
	return EventType(C.llmm_host_signal_event(C.llmm_host_signal(s)))
}

// HostOption is the event threshold of one signal, keyed by the signal's value
// (llmm_host_option); bounds and defaults: Options(KindHostSampler).
type HostOption int32

// The thresholds: an event when the signal's rate is above its threshold (the frequency:
// when it fell by more than HostCPUFreqDrop since the previous sample).
const (
	HostTCPRetransAbove     HostOption = C.LLMM_HOST_TCP_RETRANS_ABOVE
	HostMajorFaultsAbove    HostOption = C.LLMM_HOST_MAJOR_FAULTS_ABOVE
	HostCtxSwitchesAbove    HostOption = C.LLMM_HOST_CTX_SWITCHES_ABOVE
	HostRunDelayAbove       HostOption = C.LLMM_HOST_RUN_DELAY_ABOVE
	HostNUMAMigrationsAbove HostOption = C.LLMM_HOST_NUMA_MIGRATIONS_ABOVE
	HostPSICPUAbove         HostOption = C.LLMM_HOST_PSI_CPU_ABOVE
	HostPSIMemoryAbove      HostOption = C.LLMM_HOST_PSI_MEMORY_ABOVE
	HostPSIIOAbove          HostOption = C.LLMM_HOST_PSI_IO_ABOVE
	HostCPUFreqDrop         HostOption = C.LLMM_HOST_CPU_FREQ_DROP
	HostCPUThrottleAbove    HostOption = C.LLMM_HOST_CPU_THROTTLE_ABOVE
)

// HostSampler reads the host's counters of the usual causes of latency spikes from /proc and
// /sys each time Sample is called (typically from a 50 ms ticker), as rates per second, and
// logs an event for each signal above its threshold. Signals the host does not expose (all of
// them off Linux) answer Rate with ErrState.
//
// A HostSampler is used by one goroutine at a time. Close it when done (it holds its files
// open); a finalizer closes a forgotten one.
type HostSampler struct{ handle[C.llmm_host_sampler] }

// NewHostSampler opens the files of every signal the host exposes under root, the directory
// that stands for / (a container's view of the host, or a captured tree; "" for /).
func NewHostSampler(root string, opts ...Option) (*HostSampler, error) {
	var croot *C.char
	if root != "" {
		croot = C.CString(root)
		defer C.free(unsafe.Pointer(croot))
	}
	s := &HostSampler{}
	return owned(s, s.open("llmm_host_sampler_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_host_sampler) C.llmm_status {
		return C.llmm_host_sampler_new(cctx, croot, out)
	}))
}

// SetFloat64 sets an event threshold; it applies from the next sample (+Inf: no events).
func (s *HostSampler) SetFloat64(opt HostOption, value float64) error {
	return s.call("llmm_host_sampler_set_f64", func(c *C.llmm_host_sampler) C.llmm_status {
		return C.llmm_host_sampler_set_f64(c, C.llmm_host_option(opt), C.double(value))
	})
}

// Float64 reads an event threshold.
func (s *HostSampler) Float64(opt HostOption) (float64, error) {
	return s.getF64("llmm_host_sampler_get_f64", func(c *C.llmm_host_sampler, v *C.double) C.llmm_status {
		return C.llmm_host_sampler_get_f64(c, C.llmm_host_option(opt), v)
	})
}

// Sample re-reads every available signal at time stamp now (later than the previous
// sample's); with a log (nil for none), it adds one event at now per signal above its
// threshold (the log must not hold a later event).
func (s *HostSampler) Sample(now uint64, log *EventLog) error {
	const op = "llmm_host_sample"
	var cl *C.llmm_event_log
	if log != nil {
		if log.c == nil {
			return errClosed(op, "event log")
		}
		cl = log.c
	}
	defer runtime.KeepAlive(log)
	return s.call(op, func(c *C.llmm_host_sampler) C.llmm_status {
		return C.llmm_host_sample(c, C.uint64_t(now), cl)
	})
}

// Rate is the signal's rate per second over the last interval (for HostCPUFreqMHz, the level
// at the latest sample). Errors: ErrState for a signal the host does not expose, ErrEmpty
// before a rate exists (fewer than two samples, or a refused reading before), ErrCorrupt when
// the latest reading was refused (garbage, a read error, a counter that went backwards).
func (s *HostSampler) Rate(sig HostSignal) (float64, error) {
	return s.getF64("llmm_host_signal_rate", func(c *C.llmm_host_sampler, v *C.double) C.llmm_status {
		return C.llmm_host_signal_rate(c, C.llmm_host_signal(sig), v)
	})
}
