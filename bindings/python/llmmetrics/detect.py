"""Detectors driven by the caller's clock (``llmmetrics/detect.h``): ``SpikeDetector``.

As with windows, every method takes ``now_ns`` (default: the library's monotonic clock), and
a time stamp earlier than one already accepted raises :class:`InvalidArgument`.
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any, NamedTuple, Optional, Union

from . import _lib
from ._args import int32, real, uint64
from .context import Context, Handle
from .errors import check, error_for
from .window import time_arg

__all__ = ["SpikeLevel", "SpikeOption", "SpikeStats", "SpikeDetector"]


class SpikeLevel(enum.IntEnum):
    """Classification of one latency (``llmm_spike_level``)."""

    NONE = 0    #: not above the base threshold, or still warming up
    LEVEL1 = 1  #: above P99, not severe: record, alert
    LEVEL2 = 2  #: above P99 and above factor × P99.9: check the circuit breaker


class SpikeOption(enum.IntEnum):
    """Options of a :class:`SpikeDetector` (``llmm_spike_option``)."""

    BASE_QUANTILE = 1    #: float, default 0.99
    SEVERE_QUANTILE = 2  #: float, default 0.999
    SEVERE_FACTOR = 3    #: float, default 1.2
    WARMUP = 4           #: int, default 1000
    SLOT_NS = 5          #: int, default 10^9; only before the first time stamp
    SLOTS = 6            #: int, default 60; only before the first time stamp
    SCALE = 7            #: int, default 6; only before the first time stamp


_F64_OPTIONS = frozenset({SpikeOption.BASE_QUANTILE, SpikeOption.SEVERE_QUANTILE,
                          SpikeOption.SEVERE_FACTOR})
# geometry first: it rebuilds the window, which is only allowed before the first time stamp
_KWARG_ORDER = (SpikeOption.SLOT_NS, SpikeOption.SLOTS, SpikeOption.SCALE,
                SpikeOption.BASE_QUANTILE, SpikeOption.SEVERE_QUANTILE,
                SpikeOption.SEVERE_FACTOR, SpikeOption.WARMUP)


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
        unknown = set(options) - {o.name.lower() for o in SpikeOption}
        if unknown:
            raise TypeError("llmmetrics.SpikeDetector: unknown option(s) %s"
                            % ", ".join(sorted(unknown)))
        self._init_new(context, _lib.llmm_spike, "llmm_spike_new",
                       lambda ctx, out: _lib.llmm_spike_new(ctx, out))
        try:
            for opt in _KWARG_ORDER:
                value = options.get(opt.name.lower())
                if value is not None:
                    self.set(opt, value)
        except BaseException:
            self.close()
            raise

    def set(self, option: Union[SpikeOption, int], value: Union[float, int]) -> None:
        """Set an option (float options take a float, the others an integer).

        :raises OutOfRange: outside the option's bounds
        :raises InvalidState: a geometry option after the first time stamp
        :raises UnknownOption: not an option of the detector
        """
        key = int32(option, "option")
        with self._lock:
            if key in _F64_OPTIONS:
                st = _lib.llmm_spike_set_f64(self._live(), key, real(value))
            else:
                st = _lib.llmm_spike_set_u64(self._live(), key,
                                             uint64(value, "value", "llmm_spike_set_u64"))
        check(st, "llmm_spike_set", "%s=%r" % (_name(option), value))

    def get(self, option: Union[SpikeOption, int]) -> Union[float, int]:
        """Read an option."""
        key = int32(option, "option")
        with self._lock:
            if key in _F64_OPTIONS:
                f = ctypes.c_double()
                st = _lib.llmm_spike_get_f64(self._live(), key, ctypes.byref(f))
                value: Union[float, int] = f.value
            else:
                u = ctypes.c_uint64()
                st = _lib.llmm_spike_get_u64(self._live(), key, ctypes.byref(u))
                value = u.value
        check(st, "llmm_spike_get", _name(option))
        return value

    @property
    def base_quantile(self) -> float:
        """Quantile of the base threshold (default 0.99)."""
        return self.get(SpikeOption.BASE_QUANTILE)  # type: ignore[return-value]

    @base_quantile.setter
    def base_quantile(self, value: float) -> None:
        self.set(SpikeOption.BASE_QUANTILE, value)

    @property
    def severe_quantile(self) -> float:
        """Quantile of the severe threshold (default 0.999)."""
        return self.get(SpikeOption.SEVERE_QUANTILE)  # type: ignore[return-value]

    @severe_quantile.setter
    def severe_quantile(self, value: float) -> None:
        self.set(SpikeOption.SEVERE_QUANTILE, value)

    @property
    def severe_factor(self) -> float:
        """Level 2 needs latency > factor × severe threshold (default 1.2)."""
        return self.get(SpikeOption.SEVERE_FACTOR)  # type: ignore[return-value]

    @severe_factor.setter
    def severe_factor(self, value: float) -> None:
        self.set(SpikeOption.SEVERE_FACTOR, value)

    @property
    def warmup(self) -> int:
        """Baseline samples needed before classifying (default 1000)."""
        return self.get(SpikeOption.WARMUP)  # type: ignore[return-value]

    @warmup.setter
    def warmup(self, value: int) -> None:
        self.set(SpikeOption.WARMUP, value)

    @property
    def slot_ns(self) -> int:
        """Slot length in ns (default 1 s); settable before the first time stamp."""
        return self.get(SpikeOption.SLOT_NS)  # type: ignore[return-value]

    @slot_ns.setter
    def slot_ns(self, value: int) -> None:
        self.set(SpikeOption.SLOT_NS, value)

    @property
    def slots(self) -> int:
        """Slots in the window (default 60); settable before the first time stamp."""
        return self.get(SpikeOption.SLOTS)  # type: ignore[return-value]

    @slots.setter
    def slots(self, value: int) -> None:
        self.set(SpikeOption.SLOTS, value)

    @property
    def scale(self) -> int:
        """Sketch scale (default 6); settable before the first time stamp."""
        return self.get(SpikeOption.SCALE)  # type: ignore[return-value]

    @scale.setter
    def scale(self, value: int) -> None:
        self.set(SpikeOption.SCALE, value)

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
        with self._lock:
            st = _lib.llmm_spike_rate(self._live(), t, ctypes.byref(out))
        check(st, "llmm_spike_rate", "now_ns=%r" % t)
        return out.value

    def stats(self, now_ns: Optional[int] = None) -> SpikeStats:
        """Baselines in force and counts per level at ``now_ns``."""
        t = time_arg(now_ns, "llmm_spike_get_stats")
        s = _lib.llmm_spike_stats()
        check(_lib.llmm_spike_stats_init(ctypes.byref(s)), "llmm_spike_stats_init")
        with self._lock:
            st = _lib.llmm_spike_get_stats(self._live(), t, ctypes.byref(s))
        check(st, "llmm_spike_get_stats", "now_ns=%r" % t)
        return SpikeStats(bool(s.ready), s.base_threshold, s.severe_threshold,
                          s.baseline_samples, s.window_samples, s.window_classified,
                          s.window_level1, s.window_level2, s.total_samples,
                          s.total_classified, s.total_level1, s.total_level2)

    def reset(self) -> None:
        """Forget every sample, count, baseline and the clock; options stay."""
        with self._lock:
            check(_lib.llmm_spike_reset(self._live()), "llmm_spike_reset")

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.SpikeDetector closed>"
        return ("<llmmetrics.SpikeDetector P%g / P%g x %g, warm-up %d>"
                % (100 * self.base_quantile, 100 * self.severe_quantile, self.severe_factor,
                   self.warmup))


def _name(option: Any) -> str:
    try:
        return SpikeOption(option).name.lower()
    except ValueError:
        return repr(option)
