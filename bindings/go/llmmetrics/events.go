package llmmetrics

/*
#include <llmmetrics/detect.h>
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// Capacity limits of an [EventLog].
const (
	EventLogCapacityDefault = 1024     // capacity used for 0
	EventLogCapacityMax     = 16777216 // largest capacity
)

// EventType is the type of a host event: one of the known causes, or a caller's own id
// (EventUser and above).
type EventType int32

// The known event types (values pinned) and the first user id.
const (
	EventTCPRetransmit  EventType = C.LLMM_EVENT_TCP_RETRANSMIT  // net.tcp.retrans: a TCP segment was retransmitted
	EventMajorFault     EventType = C.LLMM_EVENT_MAJOR_FAULT     // mem.major_fault: a page was read from disk
	EventSchedJitter    EventType = C.LLMM_EVENT_SCHED_JITTER    // sched.jitter: scheduler wake-up jitter above a bound
	EventNUMAMigration  EventType = C.LLMM_EVENT_NUMA_MIGRATION  // mem.numa_migration: a migration between NUMA nodes
	EventWeightSwitch   EventType = C.LLMM_EVENT_WEIGHT_SWITCH   // model.weight_switch: weights changed precision or were swapped
	EventGCPause        EventType = C.LLMM_EVENT_GC_PAUSE        // runtime.gc_pause: a garbage-collection pause
	EventCPUPressure    EventType = C.LLMM_EVENT_CPU_PRESSURE    // cpu.pressure: tasks stalled waiting for a CPU (since 1.1.0)
	EventMemoryPressure EventType = C.LLMM_EVENT_MEMORY_PRESSURE // mem.pressure: tasks stalled on memory (since 1.1.0)
	EventIOPressure     EventType = C.LLMM_EVENT_IO_PRESSURE     // io.pressure: tasks stalled on block I/O (since 1.1.0)
	EventCPUFreqDrop    EventType = C.LLMM_EVENT_CPU_FREQ_DROP   // cpu.freq_drop: the CPU frequency fell (since 1.1.0)
	EventCtxSwitches    EventType = C.LLMM_EVENT_CTX_SWITCHES    // sched.ctx_switches: context switches above a bound (since 1.1.0)
	EventCPUThrottle    EventType = C.LLMM_EVENT_CPU_THROTTLE    // cpu.throttle: the cgroup's CPU quota ran out (since 1.1.0)
	EventUser           EventType = C.LLMM_EVENT_USER            // first id of the caller's own types
)

// AttrName is the library's stable attribute name of a known type, such as
// "net.tcp.retrans" ("" for user, reserved and invalid types).
func (t EventType) AttrName() string {
	return goString(C.llmm_event_attr_name(C.int32_t(t)))
}

// goString is the library's static string p, or "" for NULL.
func goString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// String is [EventType.AttrName], or "EventType(n)" for types without a name.
func (t EventType) String() string {
	return nameOr(t.AttrName(), "EventType", int64(t))
}

// Event is one event returned by [EventLog.Lookback].
type Event struct {
	TimeNs uint64        // the event's time stamp
	Before time.Duration // how long before the queried time it happened
	Value  float64       // the value given with the event
	Type   EventType     // its type
}

// EventLog keeps the most recent host events (TCP retransmits, major faults, ...) in a
// time-ordered ring, so that a latency spike can be attributed to the events just before it.
//
// An EventLog is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type EventLog struct{ handle[C.llmm_event_log] }

// NewEventLog creates a log keeping capacity events (0 for [EventLogCapacityDefault]).
func NewEventLog(capacity int, opts ...Option) (*EventLog, error) {
	const op = "llmm_event_log_new"
	if capacity < 0 {
		return nil, errArg(op, "negative capacity")
	}
	if capacity > EventLogCapacityMax {
		return nil, newError(op, StatusRange, "")
	}
	l := &EventLog{}
	return owned(l, l.open(op, opts, func(cctx *C.llmm_ctx, out **C.llmm_event_log) C.llmm_status {
		return C.llmm_event_log_new(cctx, C.uint32_t(capacity), out)
	}))
}

// Add records an event at time stamp now (not earlier than the latest accepted); when the
// ring is full the oldest event is dropped.
func (l *EventLog) Add(now uint64, typ EventType, value float64) error {
	return l.call("llmm_event_log_add", func(c *C.llmm_event_log) C.llmm_status {
		return C.llmm_event_log_add(c, C.uint64_t(now), C.int32_t(typ), C.double(value))
	})
}

// lookbackArg is the look-back of an open log as the C argument.
func (l *EventLog) lookbackArg(op string, lookback time.Duration) (C.uint64_t, error) {
	if l.c == nil {
		return 0, errClosed(op, l.what())
	}
	return durationArg(op, "look-back", lookback)
}

// Lookback returns the events stamped in [at − lookback, at], nearest to at first: the
// candidate causes of a spike at at.
func (l *EventLog) Lookback(at uint64, lookback time.Duration) ([]Event, error) {
	const op = "llmm_event_log_lookback"
	lb, err := l.lookbackArg(op, lookback)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(l)
	buf, err := grow(op, 16, func(buf []C.llmm_event, n *C.size_t) C.llmm_status {
		return C.llmm_event_log_lookback(l.c, C.uint64_t(at), lb, &buf[0], C.size_t(len(buf)), n)
	})
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(buf))
	for i := range out {
		e := &buf[i]
		out[i] = Event{TimeNs: uint64(e.time_ns), Before: time.Duration(e.before_ns), Value: float64(e.value),
			Type: EventType(e._type)}
	}
	return out, nil
}

// TracedEvent is one event with the trace it belongs to, returned by
// [EventLog.LookbackTraced]; a zero TraceID or SpanID means none.
type TracedEvent struct {
	Event
	TraceID [16]byte // W3C trace id
	SpanID  [8]byte  // span id within it
}

// AddTraced records an event that belongs to a trace, as [EventLog.Add] does, with its trace
// and span ids (nil: none) kept for [EventLog.LookbackTraced]. The first traced event of a
// log allocates 24 bytes per event of its capacity for the ids.
func (l *EventLog) AddTraced(now uint64, typ EventType, value float64, traceID *[16]byte,
	spanID *[8]byte) error {
	var tr, sp *C.uint8_t
	if traceID != nil {
		tr = (*C.uint8_t)(unsafe.Pointer(&traceID[0]))
	}
	if spanID != nil {
		sp = (*C.uint8_t)(unsafe.Pointer(&spanID[0]))
	}
	defer runtime.KeepAlive(traceID)
	defer runtime.KeepAlive(spanID)
	return l.call("llmm_event_log_add_traced", func(c *C.llmm_event_log) C.llmm_status {
		return C.llmm_event_log_add_traced(c, C.uint64_t(now), C.int32_t(typ), C.double(value), tr, sp)
	})
}

// LookbackTraced is [EventLog.Lookback] with each event's trace and span ids.
func (l *EventLog) LookbackTraced(at uint64, lookback time.Duration) ([]TracedEvent, error) {
	const op = "llmm_event_log_lookback_traced"
	lb, err := l.lookbackArg(op, lookback)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(l)
	buf, err := grow(op, 16, func(buf []C.llmm_traced_event, n *C.size_t) C.llmm_status {
		for i := range buf { // caller-sized records, every one set up alike
			if err := initStruct(C.LLMM_STRUCT_TRACED_EVENT, unsafe.Pointer(&buf[i]),
				C.sizeof_llmm_traced_event); err != nil {
				return C.LLMM_E_ABI
			}
		}
		return C.llmm_event_log_lookback_traced(l.c, C.uint64_t(at), lb, &buf[0], C.size_t(len(buf)), n)
	})
	if err != nil {
		return nil, err
	}
	out := make([]TracedEvent, len(buf))
	for i := range out {
		e := &buf[i]
		out[i].Event = Event{TimeNs: uint64(e.time_ns), Before: time.Duration(e.before_ns),
			Value: float64(e.value), Type: EventType(e._type)}
		for k := range out[i].TraceID {
			out[i].TraceID[k] = byte(e.trace_id[k])
		}
		for k := range out[i].SpanID {
			out[i].SpanID[k] = byte(e.span_id[k])
		}
	}
	return out, nil
}

// Count returns the number of events of one type (0 for every type) stamped in
// [from, to].
func (l *EventLog) Count(typ EventType, from, to uint64) (uint64, error) {
	return l.getU64("llmm_event_log_count", func(c *C.llmm_event_log, n *C.uint64_t) C.llmm_status {
		return C.llmm_event_log_count(c, C.int32_t(typ), C.uint64_t(from), C.uint64_t(to), n)
	})
}

// Counts returns how many events the log holds, has accepted and has dropped since
// creation or Reset.
func (l *EventLog) Counts() (held, total, dropped uint64, err error) {
	return l.counts("llmm_event_log_counts", func(c *C.llmm_event_log, h, t, d *C.uint64_t) C.llmm_status {
		return C.llmm_event_log_counts(c, h, t, d)
	})
}

// Reset forgets every event, the counts and the clock; the capacity stays.
func (l *EventLog) Reset() error {
	return l.call("llmm_event_log_reset", func(c *C.llmm_event_log) C.llmm_status {
		return C.llmm_event_log_reset(c)
	})
}

// CorrelationMethod is a correlation coefficient.
type CorrelationMethod int32

// The correlation coefficients.
const (
	Pearson  CorrelationMethod = C.LLMM_CORRELATION_PEARSON  // Pearson's product-moment r
	Spearman CorrelationMethod = C.LLMM_CORRELATION_SPEARMAN // Spearman's ρ, ties sharing the average rank
)

// Correlation is the correlation coefficient of the pairs (x[i], y[i]) in [−1, 1]. It
// returns an error matching ErrEmpty for fewer than 2 pairs and ErrRange when a series is
// constant. Spearman's scratch memory is allocated through the context of [WithContext].
func Correlation(x, y []float64, method CorrelationMethod, opts ...Option) (float64, error) {
	const op = "llmm_correlation"
	if len(x) != len(y) {
		return 0, errArg(op, "x and y differ in length")
	}
	if len(x) < 2 {
		return 0, newError(op, StatusEmpty, "")
	}
	o := collect(opts)
	cctx, err := o.ctx.acquire(op)
	if err != nil {
		return 0, err
	}
	defer o.ctx.release()
	var r C.double
	st := C.llmm_correlation(cctx, f64ptr(x), f64ptr(y), C.size_t(len(x)), C.llmm_correlation_method(method), &r)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	return float64(r), check(op, st)
}
