"""Resource signals: CPU-GPU load imbalance, KV-cache formulas and occupancy, TLB / page walks.

Thin wrappers over ``llmmetrics/resource.h``; every number comes from the C library.
"""

from __future__ import annotations

import array
import ctypes
import enum
from typing import Iterable, NamedTuple, Optional, Union

from . import _lib
from ._args import int32, real, uint32, uint64
from ._buffers import DoubleBuffer, as_doubles
from ._html import record_html
from ._options import ObjectKind, OptionCalls, option_property
from .context import Context, Handle
from .errors import Empty, check, error_for
from ._structs import new_struct
from .window import add_counts, read_at

__all__ = ["LiiTier", "LiiOption", "LiiReading", "LiiMonitor", "lii", "kv_fragmentation",
           "kv_evict_threshold", "kv_ttl", "KvOccupancy", "kv_occupancy", "TlbWorkload",
           "TlbPreset", "tlb_preset", "page_walk_ns", "LII_WINDOW_DEFAULT", "LII_WINDOW_MAX",
           "KvHitReading", "KvHitTracker", "TlbReading", "TlbMonitor",
           "KV_HIT_WINDOW_NS_DEFAULT", "RESOURCE_WINDOW_SLOTS"]

LII_WINDOW_DEFAULT: int = _lib.LLMM_LII_WINDOW_DEFAULT
LII_WINDOW_MAX: int = _lib.LLMM_LII_WINDOW_MAX


class LiiTier(enum.IntEnum):
    """Action tier of a load imbalance index (``llmm_lii_tier``)."""

    KEEP = 0
    PREFETCH = 1
    ADAPT = 2


class LiiOption(enum.IntEnum):
    """Thresholds of a :class:`LiiMonitor` (``llmm_lii_option``); bounds and defaults:
    ``llmmetrics.options("lii_monitor")``."""

    PREFETCH_AT = 0  #: lower bound of the prefetch tier (≤ ADAPT_AT)
    ADAPT_AT = 1     #: lower bound of the adapt tier
    SCALE_AT = 2     #: scaling decision when LII ≥ this


_LII = OptionCalls(ObjectKind.LII_MONITOR, _lib.llmm_lii_monitor_set_f64,
                                           _lib.llmm_lii_monitor_get_f64)


class TlbWorkload(enum.IntEnum):
    """TLB miss-rate alert presets (``llmm_tlb_workload``)."""

    OLTP_DATABASE = 0
    JAVA_MICROSERVICE = 1


class LiiReading(NamedTuple):
    """What a :class:`LiiMonitor` reads now."""

    lii: float
    tier: LiiTier
    scale: bool
    samples: int
    mean_cpu: float
    mean_gpu: float

    _repr_html_ = record_html


class KvOccupancy(NamedTuple):
    """Block- vs token-level occupancy of a paged KV cache (``llmm_kv_occupancy_result``)."""

    block_occupancy: float
    token_occupancy: float
    gap: float
    internal_fragmentation: float
    wasted_slots: int

    _repr_html_ = record_html


class TlbPreset(NamedTuple):
    """Threshold and window of a TLB preset."""

    max_miss_rate: float
    window_ns: int

    _repr_html_ = record_html


def lii(cpu: DoubleBuffer, gpu: DoubleBuffer) -> float:
    """Load imbalance index of paired utilisation samples in [0, 1]:
    ``|mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6)``.

    :raises InvalidArgument: a utilisation NaN or outside [0, 1], or different lengths
    :raises Empty: no samples
    """
    pc, nc, kc = as_doubles(cpu)
    pg, ng, kg = as_doubles(gpu)
    if nc != ng:
        raise error_for(_lib.LLMM_E_INVALID, "llmm_lii", "%d CPU but %d GPU samples" % (nc, ng))
    out = ctypes.c_double()
    st = _lib.llmm_lii(pc, pg, nc, ctypes.byref(out))
    del kc, kg
    check(st, "llmm_lii")
    return out.value


class LiiMonitor(Handle):
    """A streaming load imbalance index over the last ``window`` samples
    (``llmm_lii_monitor``).

    :param window: samples kept; 0 for the default (64), at most ``LII_WINDOW_MAX``
    :param prefetch_at: optional lower bound of the prefetch tier
    :param adapt_at: optional lower bound of the adapt tier
    :param scale_at: optional scaling threshold
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_lii_monitor_free)

    def __init__(self, window: int = 0, *, prefetch_at: Optional[float] = None,
                 adapt_at: Optional[float] = None, scale_at: Optional[float] = None,
                 context: Optional[Context] = None) -> None:
        w = uint32(window, "window", "llmm_lii_monitor_new")
        self._init_new(context, _lib.llmm_lii_monitor, "llmm_lii_monitor_new",
                       lambda ctx, out: _lib.llmm_lii_monitor_new(ctx, w, out),
                       "window=%r" % (window,))
        try:
            # prefetch ≤ adapt must hold after each step: lower the prefetch threshold first
            # when it stays at or below the current adapt threshold, else raise adapt first
            if prefetch_at is not None and real(prefetch_at) <= self.adapt_at:
                order = (LiiOption.PREFETCH_AT, LiiOption.ADAPT_AT, LiiOption.SCALE_AT)
            else:
                order = (LiiOption.ADAPT_AT, LiiOption.PREFETCH_AT, LiiOption.SCALE_AT)
            values = {LiiOption.PREFETCH_AT: prefetch_at, LiiOption.ADAPT_AT: adapt_at,
                      LiiOption.SCALE_AT: scale_at}
            for opt in order:
                if values[opt] is not None:
                    self.set(opt, values[opt])  # type: ignore[arg-type]
        except BaseException:
            self.close()
            raise

    def set(self, option: LiiOption, value: float) -> None:
        """Set a threshold in [0, 1] (prefetch ≤ adapt).

        :raises OutOfRange: outside [0, 1] or prefetch above adapt
        :raises UnknownOption: unknown option
        """
        _LII.set(self, option, value)

    def get(self, option: LiiOption) -> float:
        """Read a threshold."""
        return float(_LII.get(self, option))

    prefetch_at = option_property(LiiOption.PREFETCH_AT, "Lower bound of the prefetch tier.",
                                  float, settable=True)

    adapt_at = option_property(LiiOption.ADAPT_AT, "Lower bound of the adapt tier.",
                               float, settable=True)

    scale_at = option_property(LiiOption.SCALE_AT,
                               "The scaling decision is taken when LII ≥ this.",
                               float, settable=True)

    def add(self, cpu: float, gpu: float) -> None:
        """Add one (CPU, GPU) utilisation sample, each in [0, 1].

        :raises InvalidArgument: NaN or outside [0, 1]; nothing changed
        """
        self._call(_lib.llmm_lii_monitor_add, real(cpu, "cpu"), real(gpu, "gpu"),
                   detail="cpu=%r gpu=%r" % (cpu, gpu))

    def read(self) -> LiiReading:
        """The LII over the window, its tier and the scaling trigger.

        :raises Empty: no sample yet
        """
        r = new_struct(_lib.llmm_lii_reading)
        self._call(_lib.llmm_lii_monitor_read, ctypes.byref(r))
        return LiiReading(r.lii, LiiTier(r.tier), bool(r.scale), r.samples, r.mean_cpu,
                          r.mean_gpu)

    def reset(self) -> None:
        """Drop every sample; thresholds stay."""
        self._call(_lib.llmm_lii_monitor_reset)

    def __len__(self) -> int:
        """Samples in the window."""
        try:
            return self.read().samples
        except Empty:
            return 0

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.LiiMonitor closed>"
        if len(self) == 0:
            return "<llmmetrics.LiiMonitor empty>"
        r = self.read()
        return "<llmmetrics.LiiMonitor lii=%.4g tier=%s samples=%d>" % (r.lii, r.tier.name,
                                                                       r.samples)


def kv_fragmentation(free_extents: Iterable[int]) -> float:
    """External fragmentation of a free pool, ``1 − largest / total`` free extent, in [0, 1).

    :param free_extents: sizes of the free extents (non-negative integers, any unit)
    """
    if isinstance(free_extents, array.array) and free_extents.typecode == "Q":
        arr = free_extents
    else:
        arr = array.array("Q", [uint64(x, "extent", "llmm_kv_fragmentation")
                                for x in free_extents])
    n = len(arr)
    ptr = (ctypes.c_uint64 * n).from_buffer(arr) if n else None
    out = ctypes.c_double()
    check(_lib.llmm_kv_fragmentation(ptr, n, ctypes.byref(out)), "llmm_kv_fragmentation")
    return out.value


def kv_evict_threshold(fragmentation: float) -> float:
    """Eviction threshold ``max(0.65, 0.85 − 0.2·f)`` for a fragmentation f in [0, 1]."""
    out = ctypes.c_double()
    check(_lib.llmm_kv_evict_threshold(real(fragmentation), ctypes.byref(out)),
          "llmm_kv_evict_threshold", "fragmentation=%r" % (fragmentation,))
    return out.value


def kv_ttl(avg_hit_rate: float) -> int:
    """KV-cache TTL ``int(128 · (1 + 0.5·(h − 0.75)))`` for an average hit rate h in [0, 1]."""
    out = ctypes.c_int64()
    check(_lib.llmm_kv_ttl(real(avg_hit_rate), ctypes.byref(out)), "llmm_kv_ttl",
          "avg_hit_rate=%r" % (avg_hit_rate,))
    return out.value


def kv_occupancy(block_size: int, blocks_total: int, blocks_used: int,
                 tokens_stored: int) -> KvOccupancy:
    """Block-level vs token-level occupancy of a paged KV cache and their gap.

    :raises InvalidArgument: zero block size or pool, used > total, tokens > used·block_size
    """
    r = new_struct(_lib.llmm_kv_occupancy_result)
    call = "llmm_kv_occupancy"
    st = _lib.llmm_kv_occupancy(uint64(block_size, "block_size", call),
                                uint64(blocks_total, "blocks_total", call),
                                uint64(blocks_used, "blocks_used", call),
                                uint64(tokens_stored, "tokens_stored", call), ctypes.byref(r))
    check(st, call)
    return KvOccupancy(r.block_occupancy, r.token_occupancy, r.gap, r.internal_fragmentation,
                       r.wasted_slots)


def tlb_preset(workload: Union[TlbWorkload, int]) -> TlbPreset:
    """Miss-rate threshold (a fraction) and window of a TLB preset."""
    rate, window = ctypes.c_double(), ctypes.c_uint64()
    check(_lib.llmm_tlb_preset(int32(workload, "workload"), ctypes.byref(rate),
                               ctypes.byref(window)),
          "llmm_tlb_preset", "workload=%r" % (workload,))
    return TlbPreset(rate.value, window.value)


def page_walk_ns(cycles: float, cpu_hz: float) -> float:
    """Page-table-walk latency in nanoseconds: ``cycles / cpu_hz · 1e9``."""
    out = ctypes.c_double()
    check(_lib.llmm_page_walk_ns(real(cycles, "cycles"), real(cpu_hz, "cpu_hz"),
                                 ctypes.byref(out)), "llmm_page_walk_ns")
    return out.value


KV_HIT_WINDOW_NS_DEFAULT: int = _lib.LLMM_KV_HIT_WINDOW_NS_DEFAULT
RESOURCE_WINDOW_SLOTS: int = _lib.LLMM_RESOURCE_WINDOW_SLOTS


class KvHitReading(NamedTuple):
    """The KV-cache hit rate over a window and the TTL it gives (``llmm_kv_hit_reading``)."""

    hits: int
    lookups: int
    hit_rate: float
    ttl: int

    _repr_html_ = record_html


class KvHitTracker(Handle):
    """KV-cache hits and lookups over a time window (``llmm_kv_hit_tracker``).

    :param window_ns: the window (0: 1 min), in ``RESOURCE_WINDOW_SLOTS`` slots
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_kv_hit_tracker_free)

    def __init__(self, window_ns: int = 0, *, context: Optional[Context] = None) -> None:
        w = uint64(window_ns, "window_ns", "llmm_kv_hit_tracker_new")
        self._init_new(context, _lib.llmm_kv_hit_tracker, "llmm_kv_hit_tracker_new",
                       lambda ctx, out: _lib.llmm_kv_hit_tracker_new(ctx, w, out),
                       "window_ns=%r" % (window_ns,))

    def add(self, hits: int, lookups: int, now_ns: Optional[int] = None) -> None:
        """Count ``hits`` hits out of ``lookups`` lookups."""
        add_counts(self, _lib.llmm_kv_hit_tracker_add, now_ns, hits=hits, lookups=lookups)

    def read(self, now_ns: Optional[int] = None) -> KvHitReading:
        """The hit rate over the window and its TTL.

        :raises Empty: no lookup in the window
        """
        r = read_at(self, _lib.llmm_kv_hit_tracker_read, _lib.llmm_kv_hit_reading, now_ns)
        return KvHitReading(r.hits, r.lookups, r.hit_rate, r.ttl)

    def reset(self) -> None:
        """Forget every count and the clock."""
        self._call(_lib.llmm_kv_hit_tracker_reset)


class TlbReading(NamedTuple):
    """What a :class:`TlbMonitor` reads (``llmm_tlb_reading``)."""

    alert: bool
    misses: int
    accesses: int
    window_ns: int
    miss_rate: float
    max_miss_rate: float

    _repr_html_ = record_html


class TlbMonitor(Handle):
    """TLB miss rate over a time window against a threshold (``llmm_tlb_monitor``).

    Give a preset (``TlbMonitor(TlbWorkload.OLTP_DATABASE)``) or a custom threshold and window
    (``TlbMonitor(max_miss_rate=0.1, window_ns=10**9)``).
    """

    _c_free = staticmethod(_lib.llmm_tlb_monitor_free)

    def __init__(self, workload: Optional[Union[TlbWorkload, int]] = None, *,
                 max_miss_rate: Optional[float] = None, window_ns: Optional[int] = None,
                 context: Optional[Context] = None) -> None:
        if workload is not None:
            if max_miss_rate is not None or window_ns is not None:
                raise TypeError("llmmetrics.TlbMonitor: a preset or a custom threshold and "
                                "window, not both")
            wl = int32(workload, "workload", "llmm_tlb_monitor_new")
            self._init_new(context, _lib.llmm_tlb_monitor, "llmm_tlb_monitor_new",
                           lambda ctx, out: _lib.llmm_tlb_monitor_new(ctx, wl, out),
                           "workload=%r" % (workload,))
            return
        if max_miss_rate is None or window_ns is None:
            raise TypeError("llmmetrics.TlbMonitor: give a preset, or max_miss_rate and "
                            "window_ns")
        call = "llmm_tlb_monitor_new_custom"
        rate, w = real(max_miss_rate, "max_miss_rate"), uint64(window_ns, "window_ns", call)
        self._init_new(context, _lib.llmm_tlb_monitor, call,
                       lambda ctx, out: _lib.llmm_tlb_monitor_new_custom(ctx, rate, w, out),
                       "max_miss_rate=%r window_ns=%r" % (max_miss_rate, window_ns))

    def add(self, misses: int, accesses: int, now_ns: Optional[int] = None) -> None:
        """Count ``misses`` TLB misses out of ``accesses`` accesses (counter deltas)."""
        add_counts(self, _lib.llmm_tlb_monitor_add, now_ns, misses=misses, accesses=accesses)

    def read(self, now_ns: Optional[int] = None) -> TlbReading:
        """The miss rate over the window and whether it exceeds the threshold.

        :raises Empty: no access in the window
        """
        r = read_at(self, _lib.llmm_tlb_monitor_read, _lib.llmm_tlb_reading, now_ns)
        return TlbReading(bool(r.alert), r.misses, r.accesses, r.window_ns, r.miss_rate,
                          r.max_miss_rate)

    def reset(self) -> None:
        """Forget every count and the clock; threshold and window stay."""
        self._call(_lib.llmm_tlb_monitor_reset)
