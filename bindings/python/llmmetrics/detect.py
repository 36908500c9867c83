"""Detectors driven by the caller's clock (``llmmetrics/detect.h``): ``SpikeDetector``,
``CollapseDetector``, ``EventLog`` (spike attribution), ``correlation``, ``StabilityGate``,
``SaturationSignal``.

As with windows, every method takes ``now_ns`` (default: the library's monotonic clock), and
a time stamp earlier than one already accepted raises :class:`InvalidArgument`.
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any, List, NamedTuple, Optional, Union

from . import _lib
from ._args import int32, real, uint32, uint64
from ._buffers import DoubleBuffer, as_doubles
from ._html import record_html
from ._options import ObjectKind, OptionCalls, check_kwargs, option_property
from .context import Context, Handle
from .errors import check, error_for
from ._structs import new_struct
from .window import read_at, time_arg

__all__ = ["SpikeLevel", "SpikeOption", "SpikeStats", "SpikeDetector", "CollapseOption",
           "CollapseVerdict", "CollapseReport", "CollapseCounts", "CollapseDetector",
           "EventType", "Event", "EventLogCounts", "EventLog", "event_attr_name",
           "CorrelationMethod", "correlation", "StabilityOption", "StabilityReading",
           "StabilityGate", "SaturationOption", "SaturationReading", "SaturationSignal",
           "COLLAPSE_WINDOW_DEFAULT", "COLLAPSE_WINDOW_MAX", "DETECT_VALUE_MAX",
           "EVENT_LOG_CAPACITY_DEFAULT", "EVENT_LOG_CAPACITY_MAX", "STABILITY_WINDOWS_DEFAULT",
           "STABILITY_WINDOWS_MAX", "SATURATION_WINDOW_DEFAULT", "SATURATION_WINDOW_MAX"]


class SpikeLevel(enum.IntEnum):
    """Classification of one latency (``llmm_spike_level``)."""

    NONE = 0    #: not above the base threshold, or still warming up
    LEVEL1 = 1  #: above P99, not severe: record, alert
    LEVEL2 = 2  #: above P99 and above factor × P99.9: check the circuit breaker


class SpikeOption(enum.IntEnum):
    """Options of a :class:`SpikeDetector` (``llmm_spike_option``); types, bounds and
    defaults: ``llmmetrics.options("spike")``."""

    BASE_QUANTILE = 1    #: quantile of the base threshold (P99)
    SEVERE_QUANTILE = 2  #: quantile of the severe threshold (P99.9)
    SEVERE_FACTOR = 3    #: level 2 needs latency > factor × severe threshold
    WARMUP = 4           #: baseline samples needed before classifying
    SLOT_NS = 5          #: slot length in ns; only before the first time stamp
    SLOTS = 6            #: slots in the window; only before the first time stamp
    SCALE = 7            #: sketch scale; only before the first time stamp


_SPIKE = OptionCalls(ObjectKind.SPIKE, _lib.llmm_spike_set_f64, _lib.llmm_spike_get_f64,
                                       _lib.llmm_spike_set_u64, _lib.llmm_spike_get_u64)


class SpikeStats(NamedTuple):
    """What a :class:`SpikeDetector` knows at a time stamp (``llmm_spike_stats``)."""

    ready: bool
    base_threshold: float
    severe_threshold: float
    baseline_samples: int
    window_samples: int
    window_classified: int
    window_level1: int
    window_level2: int
    total_samples: int
    total_classified: int
    total_level1: int
    total_level2: int

    _repr_html_ = record_html


class SpikeDetector(Handle):
    """P99 / P99.9 dual-threshold latency-spike detector over a sliding window
    (``llmm_spike``).

    Keyword options (see :class:`SpikeOption`): ``base_quantile``, ``severe_quantile``,
    ``severe_factor``, ``warmup``, ``slot_ns``, ``slots``, ``scale``; each is also a property.

    :param context: allocation context (None: libc)
    :raises OutOfRange: an option outside its bounds
    """

    _c_free = staticmethod(_lib.llmm_spike_free)

    def __init__(self, *, context: Optional[Context] = None, **options: Any) -> None:
        check_kwargs("SpikeDetector", SpikeOption, options)
        self._init_new(context, _lib.llmm_spike, "llmm_spike_new",
                       lambda ctx, out: _lib.llmm_spike_new(ctx, out))
        _SPIKE.apply_kwargs(self, SpikeOption, options)

    def set(self, option: Union[SpikeOption, int], value: Union[float, int]) -> None:
        """Set an option (float options take a float, the others an integer).

        :raises OutOfRange: outside the option's bounds
        :raises InvalidState: a geometry option after the first time stamp
        :raises UnknownOption: not an option of the detector
        """
        _SPIKE.set(self, option, value)

    def get(self, option: Union[SpikeOption, int]) -> Union[float, int]:
        """Read an option."""
        return _SPIKE.get(self, option)

    base_quantile = option_property(SpikeOption.BASE_QUANTILE, "Quantile of the base threshold.",
                                    float, settable=True)

    severe_quantile = option_property(SpikeOption.SEVERE_QUANTILE,
                                      "Quantile of the severe threshold.", float, settable=True)

    severe_factor = option_property(SpikeOption.SEVERE_FACTOR,
                                    "Level 2 needs latency > factor × severe threshold.",
                                    float, settable=True)

    warmup = option_property(SpikeOption.WARMUP, "Baseline samples needed before classifying.",
                             int, settable=True)

    slot_ns = option_property(SpikeOption.SLOT_NS,
                              "Slot length in ns; settable before the first time stamp.",
                              int, settable=True)

    slots = option_property(SpikeOption.SLOTS,
                            "Slots in the window; settable before the first time stamp.",
                            int, settable=True)

    scale = option_property(SpikeOption.SCALE,
                            "Sketch scale; settable before the first time stamp.",
                            int, settable=True)

    def observe(self, latency: float, now_ns: Optional[int] = None) -> SpikeLevel:
        """Record one latency and classify it against the baselines in force.

        :raises InvalidArgument: NaN, infinite or negative latency, or time going backwards
        """
        t = time_arg(now_ns, "llmm_spike_observe")
        v = latency if type(latency) is float else real(latency, "latency")
        level = ctypes.c_int()
        with self._lock:
            st = _lib.llmm_spike_observe(self._live(), t, v, ctypes.byref(level))
        if st:
            raise error_for(st, "llmm_spike_observe", "latency=%r now_ns=%r" % (latency, t))
        return SpikeLevel(level.value)

    def rate(self, now_ns: Optional[int] = None) -> float:
        """Spike rate over the window: classified samples above the base threshold on arrival
        over classified samples.

        :raises Empty: no classified sample in the window
        """
        t = time_arg(now_ns, "llmm_spike_rate")
        out = ctypes.c_double()
        self._call(_lib.llmm_spike_rate, t, ctypes.byref(out), detail="now_ns=%r" % t)
        return out.value

    def stats(self, now_ns: Optional[int] = None) -> SpikeStats:
        """Baselines in force and counts per level at ``now_ns``."""
        s = read_at(self, _lib.llmm_spike_get_stats, _lib.llmm_spike_stats, now_ns)
        return SpikeStats(bool(s.ready), s.base_threshold, s.severe_threshold,
                          s.baseline_samples, s.window_samples, s.window_classified,
                          s.window_level1, s.window_level2, s.total_samples,
                          s.total_classified, s.total_level1, s.total_level2)

    def reset(self) -> None:
        """Forget every sample, count, baseline and the clock; options stay."""
        self._call(_lib.llmm_spike_reset)

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.SpikeDetector closed>"
        return ("<llmmetrics.SpikeDetector P%g / P%g x %g, warm-up %d>"
                % (100 * self.base_quantile, 100 * self.severe_quantile, self.severe_factor,
                   self.warmup))



# -- collapse detector ---------------------------------------------------------------------

COLLAPSE_WINDOW_DEFAULT: int = _lib.LLMM_COLLAPSE_WINDOW_DEFAULT
COLLAPSE_WINDOW_MAX: int = _lib.LLMM_COLLAPSE_WINDOW_MAX
DETECT_VALUE_MAX: float = _lib.LLMM_DETECT_VALUE_MAX


class CollapseOption(enum.IntEnum):
    """Options of a :class:`CollapseDetector` (``llmm_collapse_option``); types, bounds and
    defaults: ``llmmetrics.options("collapse")``."""

    WINDOW = 1          #: W latencies in the baseline (only while empty)
    K = 2               #: k in mean + k·σ
    SIGMA_FLOOR = 3     #: σ ≥ floor · mean
    SWITCH_NS = 4       #: a latency this soon after a switch is matched
    REQUIRE_SWITCH = 5  #: 1: only latencies matched to a switch collapse
    TPS_DROP = 6        #: TPS drop that confirms
    MEMBW_BELOW = 7     #: memory-bandwidth utilisation that confirms
    CONFIRM_NS = 8      #: readings this soon after a switch are matched


_COLLAPSE = OptionCalls(ObjectKind.COLLAPSE, _lib.llmm_collapse_set_f64,
                                             _lib.llmm_collapse_get_f64,
                                             _lib.llmm_collapse_set_u64,
                                             _lib.llmm_collapse_get_u64)


class CollapseVerdict(NamedTuple):
    """The verdict on one latency (``llmm_collapse_verdict``)."""

    collapsed: bool
    ready: bool
    outlier: bool
    after_switch: bool
    floored: bool
    mean: float
    sigma: float
    threshold: float
    since_switch_ns: int  #: 2^64 − 1 when no switch was marked
    samples: int

    _repr_html_ = record_html


class CollapseReport(NamedTuple):
    """The confirmation matrix of the latest switch (``llmm_collapse_report``)."""

    signals: int
    latency_confirmed: bool
    tps_known: bool
    tps_confirmed: bool
    membw_known: bool
    membw_confirmed: bool
    open: bool
    switch_ns: int
    latencies: int
    flagged: int
    tps_before: float
    tps_after: float
    tps_drop: float
    membw: float

    _repr_html_ = record_html


class CollapseCounts(NamedTuple):
    """Counts of a :class:`CollapseDetector` since creation or reset."""

    samples: int
    collapsed: int
    switches: int

    _repr_html_ = record_html


class CollapseDetector(Handle):
    """Throughput collapse right after a precision switch, doc/spec.md §7 (``llmm_collapse``).

    A latency is an outlier above mean + k·σ of the W before it, and collapsed when it comes
    at most 10 ms after a switch marked with :meth:`mark_switch`. TPS and memory-bandwidth
    readings confirm a switch independently (:meth:`switch_report`).

    Keyword options: any :class:`CollapseOption` by lower-case name (``window=16, k=3``).
    """

    _c_free = staticmethod(_lib.llmm_collapse_free)

    def __init__(self, *, context: Optional[Context] = None, **options: Any) -> None:
        check_kwargs("CollapseDetector", CollapseOption, options)
        self._init_new(context, _lib.llmm_collapse, "llmm_collapse_new",
                       lambda ctx, out: _lib.llmm_collapse_new(ctx, out))
        _COLLAPSE.apply_kwargs(self, CollapseOption, options)

    def set(self, option: Union[CollapseOption, int], value: Union[float, int]) -> None:
        """Set an option (a float or an integer, as ``llmmetrics.options("collapse")`` types
        it)."""
        _COLLAPSE.set(self, option, value)

    def get(self, option: Union[CollapseOption, int]) -> Union[float, int]:
        """Read an option."""
        return _COLLAPSE.get(self, option)

    window = option_property(CollapseOption.WINDOW, "W, latencies in the baseline.", int)

    k = option_property(CollapseOption.K, "k in mean + k·σ.", float)

    def mark_switch(self, now_ns: Optional[int] = None) -> None:
        """Mark a weight (precision) switch; it replaces any earlier one."""
        t = time_arg(now_ns, "llmm_collapse_mark_switch")
        self._call(_lib.llmm_collapse_mark_switch, t, detail="now_ns=%r" % t)

    def observe(self, latency: float, now_ns: Optional[int] = None) -> bool:
        """Judge one batch latency against the W before it; True when collapsed."""
        t = time_arg(now_ns, "llmm_collapse_observe")
        out = ctypes.c_int32()
        self._call(_lib.llmm_collapse_observe, t, real(latency, "latency"), ctypes.byref(out),
                   detail="latency=%r now_ns=%r" % (latency, t))
        return bool(out.value)

    def observe_ex(self, latency: float, now_ns: Optional[int] = None) -> CollapseVerdict:
        """:meth:`observe` with the whole verdict (baseline, threshold, switch distance)."""
        t = time_arg(now_ns, "llmm_collapse_observe_ex")
        v = new_struct(_lib.llmm_collapse_verdict)
        self._call(_lib.llmm_collapse_observe_ex, t, real(latency, "latency"), ctypes.byref(v),
                   detail="latency=%r now_ns=%r" % (latency, t))
        return CollapseVerdict(bool(v.collapsed), bool(v.ready), bool(v.outlier),
                               bool(v.after_switch), bool(v.floored), v.mean, v.sigma,
                               v.threshold, v.since_switch_ns, v.samples)

    def observe_tps(self, tps: float, now_ns: Optional[int] = None) -> None:
        """Give a throughput reading (the last one before a switch is its reference)."""
        t = time_arg(now_ns, "llmm_collapse_observe_tps")
        self._call(_lib.llmm_collapse_observe_tps, t, real(tps, "tps"),
                   detail="tps=%r now_ns=%r" % (tps, t))

    def observe_membw(self, utilisation: float, now_ns: Optional[int] = None) -> None:
        """Give a memory-bandwidth utilisation reading in [0, 1]."""
        t = time_arg(now_ns, "llmm_collapse_observe_membw")
        self._call(_lib.llmm_collapse_observe_membw, t, real(utilisation, "utilisation"),
                   detail="utilisation=%r now_ns=%r" % (utilisation, t))

    def switch_report(self) -> CollapseReport:
        """The confirmation matrix of the latest switch.

        :raises Empty: no switch was marked
        """
        r = new_struct(_lib.llmm_collapse_report)
        self._call(_lib.llmm_collapse_switch_report, ctypes.byref(r))
        return CollapseReport(r.signals, bool(r.latency_confirmed), bool(r.tps_known),
                              bool(r.tps_confirmed), bool(r.membw_known),
                              bool(r.membw_confirmed), bool(r.open), r.switch_ns, r.latencies,
                              r.flagged, r.tps_before, r.tps_after, r.tps_drop, r.membw)

    @property
    def counts(self) -> CollapseCounts:
        """Latencies observed, of those collapsed, and switches marked."""
        a, b, c = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        self._call(_lib.llmm_collapse_counts, ctypes.byref(a), ctypes.byref(b), ctypes.byref(c))
        return CollapseCounts(a.value, b.value, c.value)

    def reset(self) -> None:
        """Forget every latency, reading, switch, count and the clock; options stay."""
        self._call(_lib.llmm_collapse_reset)

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.CollapseDetector closed>"
        return "<llmmetrics.CollapseDetector W=%d k=%g %s>" % (self.window, self.k,
                                                              self.counts)


# -- event log -------------------------------------------------------------------------------

EVENT_LOG_CAPACITY_DEFAULT: int = _lib.LLMM_EVENT_LOG_CAPACITY_DEFAULT
EVENT_LOG_CAPACITY_MAX: int = _lib.LLMM_EVENT_LOG_CAPACITY_MAX


class EventType(enum.IntEnum):
    """Known event types (``llmm_event_type``); ``USER`` and above are the caller's own."""

    TCP_RETRANSMIT = 1
    MAJOR_FAULT = 2
    SCHED_JITTER = 3
    NUMA_MIGRATION = 4
    WEIGHT_SWITCH = 5
    GC_PAUSE = 6
    CPU_PRESSURE = 7      #: since 1.1.0, logged by :class:`HostSampler`
    MEMORY_PRESSURE = 8   #: since 1.1.0
    IO_PRESSURE = 9       #: since 1.1.0
    CPU_FREQ_DROP = 10    #: since 1.1.0
    CTX_SWITCHES = 11     #: since 1.1.0
    CPU_THROTTLE = 12     #: since 1.1.0
    USER = 65536


def event_attr_name(type: Union[EventType, int]) -> Optional[str]:
    """The stable attribute name of a known event type (``"net.tcp.retrans"``, ...), or None
    for user, reserved and invalid types."""
    name = _lib.llmm_event_attr_name(int32(type, "type"))
    return None if name is None else str(name.decode("ascii"))


class Event(NamedTuple):
    """One event returned by :meth:`EventLog.lookback` (``llmm_event``)."""

    time_ns: int
    before_ns: int  #: how long before the query's time stamp it happened
    value: float
    type: int

    @property
    def attr_name(self) -> Optional[str]:
        """The type's attribute name (None for user types)."""
        return event_attr_name(self.type)


class TracedEvent(NamedTuple):
    """One event with its trace, returned by :meth:`EventLog.lookback_traced`
    (``llmm_traced_event``); ids are bytes, all zero when the event has none."""

    time_ns: int
    before_ns: int  #: how long before the query's time stamp it happened
    value: float
    type: int
    trace_id: bytes
    span_id: bytes


def _id_arg(value: Optional[bytes], n: int, what: str, call: str) -> Any:
    """An id as a ``const uint8_t *`` argument (None stays NULL)."""
    if value is None:
        return None
    if not isinstance(value, (bytes, bytearray)) or len(value) != n:
        raise error_for(_lib.LLMM_E_INVALID, call, "%s must be %d bytes" % (what, n))
    return (ctypes.c_uint8 * n).from_buffer_copy(bytes(value))


class EventLogCounts(NamedTuple):
    """Events held, accepted and dropped by an :class:`EventLog`."""

    held: int
    total: int
    dropped: int

    _repr_html_ = record_html


class EventLog(Handle):
    """A bounded, time-ordered ring of typed events for spike attribution
    (``llmm_event_log``).

    :param capacity: events kept (0: 1024); the oldest is dropped when full
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_event_log_free)

    def __init__(self, capacity: int = 0, *, context: Optional[Context] = None) -> None:
        cap = uint32(capacity, "capacity", "llmm_event_log_new")
        self._init_new(context, _lib.llmm_event_log, "llmm_event_log_new",
                       lambda ctx, out: _lib.llmm_event_log_new(ctx, cap, out),
                       "capacity=%r" % (capacity,))

    def add(self, type: Union[EventType, int], value: float = 0.0,
            now_ns: Optional[int] = None) -> None:
        """Record an event of a known type (1 … 12) or a user type (``EventType.USER`` …)."""
        t = time_arg(now_ns, "llmm_event_log_add")
        self._call(_lib.llmm_event_log_add, t, int32(type, "type"), real(value),
                   detail="type=%r value=%r now_ns=%r" % (type, value, t))

    def add_traced(self, type: Union[EventType, int], value: float = 0.0,
                   trace_id: Optional[bytes] = None, span_id: Optional[bytes] = None,
                   now_ns: Optional[int] = None) -> None:
        """Record an event that belongs to a trace (16-byte ``trace_id``, 8-byte ``span_id``;
        None: none), read back by :meth:`lookback_traced`."""
        call = "llmm_event_log_add_traced"
        t = time_arg(now_ns, call)
        tr, sp = _id_arg(trace_id, 16, "trace_id", call), _id_arg(span_id, 8, "span_id", call)
        self._call(_lib.llmm_event_log_add_traced, t, int32(type, "type"), real(value), tr, sp,
                   detail="type=%r value=%r now_ns=%r" % (type, value, t))

    def _lookback(self, fn: Any, call: str, at_ns: int, lookback_ns: int, record: Any,
                  sized: bool) -> List[Any]:
        """The records the look-back call fn (named call) writes (caller-sized ones set up
        first). fn is passed as ``_lib.llmm_…`` so that the binding check sees the call."""
        at, back = uint64(at_ns, "at_ns", call), uint64(lookback_ns, "lookback_ns", call)
        n = ctypes.c_size_t()
        with self._lock:
            ptr = self._live()
            st = fn(ptr, at, back, None, 0, ctypes.byref(n))
            if st not in (0, _lib.LLMM_E_BUFFER):
                check(st, call)
            out = (record * max(n.value, 1))()
            for i in range(len(out) if sized else 0):
                out[i] = new_struct(record)
            check(fn(ptr, at, back, out, n.value, ctypes.byref(n)), call)
        return list(out[:n.value])

    def lookback_traced(self, at_ns: int, lookback_ns: int) -> List[TracedEvent]:
        """:meth:`lookback` with each event's trace and span ids."""
        return [TracedEvent(e.time_ns, e.before_ns, e.value, e.type, bytes(e.trace_id),
                            bytes(e.span_id))
                for e in self._lookback(_lib.llmm_event_log_lookback_traced,
                                        "llmm_event_log_lookback_traced", at_ns, lookback_ns,
                                        _lib.llmm_traced_event, True)]

    def lookback(self, at_ns: int, lookback_ns: int) -> List[Event]:
        """The events stamped in [at_ns − lookback_ns, at_ns], nearest first: the candidate
        causes of a spike at ``at_ns``."""
        return [Event(e.time_ns, e.before_ns, e.value, e.type)
                for e in self._lookback(_lib.llmm_event_log_lookback, "llmm_event_log_lookback",
                                        at_ns, lookback_ns, _lib.llmm_event, False)]

    def count(self, type: Union[EventType, int] = 0, from_ns: int = 0,
              to_ns: int = 2 ** 64 - 1) -> int:
        """Events of ``type`` (0: every type) stamped in [from_ns, to_ns]."""
        call = "llmm_event_log_count"
        out = ctypes.c_uint64()
        with self._lock:
            st = _lib.llmm_event_log_count(self._live(), int32(type, "type", call),
                                           uint64(from_ns, "from_ns", call),
                                           uint64(to_ns, "to_ns", call), ctypes.byref(out))
        check(st, call, "type=%r from_ns=%r to_ns=%r" % (type, from_ns, to_ns))
        return out.value

    @property
    def counts(self) -> EventLogCounts:
        """Events held now, accepted and dropped since creation or reset."""
        a, b, c = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        self._call(_lib.llmm_event_log_counts, ctypes.byref(a), ctypes.byref(b), ctypes.byref(c))
        return EventLogCounts(a.value, b.value, c.value)

    def __len__(self) -> int:
        """Events held now."""
        return self.counts.held

    def reset(self) -> None:
        """Forget every event, the counts and the clock."""
        self._call(_lib.llmm_event_log_reset)


# -- correlation -----------------------------------------------------------------------------

class CorrelationMethod(enum.IntEnum):
    """Correlation coefficient (``llmm_correlation_method``)."""

    PEARSON = 1
    SPEARMAN = 2


def correlation(x: DoubleBuffer, y: DoubleBuffer,
                method: Union[CorrelationMethod, int] = CorrelationMethod.PEARSON, *,
                context: Optional[Context] = None) -> float:
    """Pearson's r or Spearman's ρ (ties averaged) of paired series.

    :raises Empty: fewer than 2 pairs
    :raises OutOfRange: a series is constant
    """
    px, nx, kx = as_doubles(x)
    py, ny, ky = as_doubles(y)
    if nx != ny:
        raise error_for(_lib.LLMM_E_INVALID, "llmm_correlation", "%d and %d values" % (nx, ny))
    out = ctypes.c_double()
    ctx = None if context is None else context._acquire()
    try:
        st = _lib.llmm_correlation(ctx, px, py, nx, int32(method, "method"), ctypes.byref(out))
    finally:
        if context is not None:
            context._release()
    del kx, ky
    check(st, "llmm_correlation", "method=%r" % (method,))
    return out.value


# -- stability gate --------------------------------------------------------------------------

STABILITY_WINDOWS_DEFAULT: int = _lib.LLMM_STABILITY_WINDOWS_DEFAULT
STABILITY_WINDOWS_MAX: int = _lib.LLMM_STABILITY_WINDOWS_MAX


class StabilityOption(enum.IntEnum):
    """Options of a :class:`StabilityGate` (``llmm_stability_option``); types, bounds and
    defaults: ``llmmetrics.options("stability")``."""

    WINDOWS = 1  #: k means compared
    EPSILON = 2  #: stable when max / min ≤ 1 + ε


_STABILITY = OptionCalls(ObjectKind.STABILITY, _lib.llmm_stability_set_f64,
                                               _lib.llmm_stability_get_f64,
                                               _lib.llmm_stability_set_u64,
                                               _lib.llmm_stability_get_u64)


class StabilityReading(NamedTuple):
    """A :class:`StabilityGate`'s verdict (``llmm_stability_reading``)."""

    stable: bool
    held: int
    windows: int
    min: float
    max: float
    ratio: float
    total: int

    _repr_html_ = record_html


class StabilityGate(Handle):
    """Are the last k window means within 1 + ε of each other? (``llmm_stability``)

    :param windows: k (None: the library's default)
    :param epsilon: ε (None: the library's default)
    """

    _c_free = staticmethod(_lib.llmm_stability_free)

    def __init__(self, *, windows: Optional[int] = None, epsilon: Optional[float] = None,
                 context: Optional[Context] = None) -> None:
        self._init_new(context, _lib.llmm_stability, "llmm_stability_new",
                       lambda ctx, out: _lib.llmm_stability_new(ctx, out))
        _STABILITY.apply_kwargs(self, StabilityOption, {"windows": windows, "epsilon": epsilon})

    def set(self, option: Union[StabilityOption, int], value: Union[float, int]) -> None:
        """Set k (int) or ε (float); applies at once to the means already added."""
        _STABILITY.set(self, option, value)

    def get(self, option: Union[StabilityOption, int]) -> Union[float, int]:
        """Read k or ε."""
        return _STABILITY.get(self, option)

    windows = option_property(StabilityOption.WINDOWS, "k, the number of window means compared.",
                              int)

    epsilon = option_property(StabilityOption.EPSILON, "ε: stable when max / min ≤ 1 + ε.", float)

    def add(self, mean: float) -> bool:
        """Add one window's mean (> 0); True when the last k are stable."""
        out = ctypes.c_int32()
        self._call(_lib.llmm_stability_add, real(mean, "mean"), ctypes.byref(out),
                   detail="mean=%r" % (mean,))
        return bool(out.value)

    def read(self) -> StabilityReading:
        """The verdict and the figures behind it."""
        r = new_struct(_lib.llmm_stability_reading)
        self._call(_lib.llmm_stability_read, ctypes.byref(r))
        return StabilityReading(bool(r.stable), r.held, r.windows, r.min, r.max, r.ratio,
                                r.total)

    def reset(self) -> None:
        """Forget every mean and the total; options stay."""
        self._call(_lib.llmm_stability_reset)


# -- saturation signal -----------------------------------------------------------------------

SATURATION_WINDOW_DEFAULT: int = _lib.LLMM_SATURATION_WINDOW_DEFAULT
SATURATION_WINDOW_MAX: int = _lib.LLMM_SATURATION_WINDOW_MAX


class SaturationOption(enum.IntEnum):
    """Options of a :class:`SaturationSignal` (``llmm_saturation_option``); types, bounds and
    defaults: ``llmmetrics.options("saturation")``."""

    WINDOW = 1      #: N samples (only while empty)
    CONFIDENCE = 2  #: z: a slope counts when slope > z·se


_SATURATION = OptionCalls(ObjectKind.SATURATION, _lib.llmm_saturation_set_f64,
                                                 _lib.llmm_saturation_get_f64,
                                                 _lib.llmm_saturation_set_u64,
                                                 _lib.llmm_saturation_get_u64)


class SaturationReading(NamedTuple):
    """A :class:`SaturationSignal`'s state (``llmm_saturation_reading``); slopes per second."""

    saturated: bool
    ready: bool
    latency_rising: bool
    inflight_rising: bool
    samples: int
    latency_slope: float
    latency_slope_se: float
    inflight_slope: float
    inflight_slope_se: float
    total: int

    _repr_html_ = record_html


class SaturationSignal(Handle):
    """Latency and in-flight requests rising together over the last N samples
    (``llmm_saturation``).

    :param window: N (None: the library's default)
    :param confidence: z (None: the library's default)
    """

    _c_free = staticmethod(_lib.llmm_saturation_free)

    def __init__(self, *, window: Optional[int] = None, confidence: Optional[float] = None,
                 context: Optional[Context] = None) -> None:
        self._init_new(context, _lib.llmm_saturation, "llmm_saturation_new",
                       lambda ctx, out: _lib.llmm_saturation_new(ctx, out))
        _SATURATION.apply_kwargs(self, SaturationOption,
                                 {"window": window, "confidence": confidence})

    def set(self, option: Union[SaturationOption, int], value: Union[float, int]) -> None:
        """Set N (int, only while empty) or z (float)."""
        _SATURATION.set(self, option, value)

    def get(self, option: Union[SaturationOption, int]) -> Union[float, int]:
        """Read N or z."""
        return _SATURATION.get(self, option)

    window = option_property(SaturationOption.WINDOW, "N, samples in the window.", int)

    confidence = option_property(SaturationOption.CONFIDENCE,
                                 "z: a slope is confidently positive when slope > z·se.", float)

    def observe(self, latency: float, in_flight: float, now_ns: Optional[int] = None) -> bool:
        """Add one sample; True when saturated after it."""
        t = time_arg(now_ns, "llmm_saturation_observe")
        out = ctypes.c_int32()
        self._call(_lib.llmm_saturation_observe, t, real(latency, "latency"),
                   real(in_flight, "in_flight"), ctypes.byref(out),
                   detail="latency=%r in_flight=%r now_ns=%r" % (latency, in_flight, t))
        return bool(out.value)

    def read(self) -> SaturationReading:
        """Slopes, standard errors and the verdict over the samples held."""
        r = new_struct(_lib.llmm_saturation_reading)
        self._call(_lib.llmm_saturation_read, ctypes.byref(r))
        return SaturationReading(bool(r.saturated), bool(r.ready), bool(r.latency_rising),
                                 bool(r.inflight_rising), r.samples, r.latency_slope,
                                 r.latency_slope_se, r.inflight_slope, r.inflight_slope_se,
                                 r.total)

    def reset(self) -> None:
        """Forget every sample, the total and the clock; options stay."""
        self._call(_lib.llmm_saturation_reset)
