// Package llmmetrics is the Go binding of libllmmetrics, a C library that measures LLM
// inference online: streaming quantile sketches with a guaranteed relative error, per-goroutine
// recorders, a four-layer weighted scorecard and resource-efficiency signals.
//
// The binding is a thin cgo layer: every method is one call into the shared library (found
// through pkg-config, module llmmetrics), and every batch call passes a Go slice to C in one
// crossing without copying it or keeping it after the call returns.
//
// # Handles and lifetime
//
// Types that own C memory ([Sketch], [Recorder], [Window], [RatioWindow], [SpikeDetector],
// [CollapseDetector], [EventLog], [StabilityGate], [SaturationSignal], [SLOWindow], [Goodput],
// [BurnAlerter], [ErrorTrigger], [Scorecard], [LIIMonitor], [KVHitTracker], [TLBMonitor],
// [PromWriter], [Context]) have an idempotent Close method and a finalizer that closes them if
// they become unreachable; call Close as soon as you are done to return the memory promptly. A method called on a closed
// handle returns an error for which errors.Is(err, ErrState) holds.
//
// # Errors
//
// Every failure of the C library is reported as an [*Error] carrying the library status, its
// symbolic name and its message. Compare with errors.Is against the sentinel values
// ([ErrInvalid], [ErrEmpty], [ErrNoMem], ...), or extract the details with errors.As.
//
// # Concurrency
//
// The C library's rules apply unchanged: every handle except a [Recorder] is used by one
// goroutine at a time (it may move between goroutines; the queries of a Window or a
// SpikeDetector advance its clock, so they count as writes); a Recorder hands each writer
// goroutine its own [Shard] and may be snapshotted concurrently with the writers. The
// package-level functions are safe for concurrent use.
//
// # Time
//
// Time-dependent calls take the time stamp as an argument, now, in nanoseconds on any
// monotonic clock ([Now] reads the library's), so that their results are deterministic;
// durations (slot lengths, spans) are time.Duration.
package llmmetrics

/*
#cgo pkg-config: llmmetrics
#include <llmmetrics/llmmetrics.h>
*/
import "C"

// Version is the version number of the C library actually loaded, as
// major·10000 + minor·100 + patch (10000 for 1.0.0).
func Version() uint32 {
	return uint32(C.llmm_version())
}

// VersionString is the version of the C library actually loaded, such as "1.0.0".
func VersionString() string {
	return C.GoString(C.llmm_version_string())
}

// HeaderVersion is the version number of the C headers this package was compiled against,
// in the same encoding as [Version]. The two differ when the program loads another build of
// the shared library than the one it was built with.
const HeaderVersion = uint32(C.LLMM_VERSION_NUMBER)

// Now reads the library's monotonic clock (CLOCK_MONOTONIC) in nanoseconds since an
// unspecified start point: the time base that time-dependent calls of the library expect.
func Now() uint64 {
	return uint64(C.llmm_now_ns())
}
