"""Host signals (``llmmetrics/host.h``): :class:`HostSampler` reads Linux's own counters of the
usual causes of latency spikes (TCP retransmits, major faults, context switches, run delay,
page migrations, pressure stalls, CPU frequency, cgroup throttling) from ``/proc`` and ``/sys``,
each time the caller samples it, and turns them into rates per second and, with an
:class:`EventLog`, into events for spike attribution.

On systems other than Linux, and for files the host does not expose, a signal is unavailable:
:meth:`HostSampler.rate` raises :class:`InvalidState` for it.
"""

from __future__ import annotations

import ctypes
import enum
import os
from typing import Dict, Optional, Union

from . import _lib
from ._args import int32
from ._options import ObjectKind, OptionCalls, check_kwargs
from .context import Context, Handle
from .detect import EventLog
from .errors import check
from .window import time_arg

__all__ = ["HostSignal", "HostOption", "HostSampler", "host_signal_name", "host_signal_event"]


class HostSignal(enum.IntEnum):
    """The host signals (``llmm_host_signal``); each is also the key of its threshold."""

    TCP_RETRANS = 1      #: TCP segments retransmitted per second
    MAJOR_FAULTS = 2     #: major page faults per second
    CTX_SWITCHES = 3     #: context switches per second, all CPUs
    RUN_DELAY = 4        #: seconds per second the main thread waited for a CPU
    NUMA_MIGRATIONS = 5  #: pages migrated per second
    PSI_CPU = 6          #: CPU pressure, stall seconds per second ("some")
    PSI_MEMORY = 7       #: memory pressure, stall seconds per second ("some")
    PSI_IO = 8           #: I/O pressure, stall seconds per second ("some")
    CPU_FREQ_MHZ = 9     #: mean current CPU frequency in MHz (a level)
    CPU_THROTTLE = 10    #: seconds per second the cgroup was throttled


class HostOption(enum.IntEnum):
    """Event thresholds of a :class:`HostSampler` (``llmm_host_option``), one per signal and
    keyed by its value; bounds and defaults: ``llmmetrics.options("host_sampler")``."""

    TCP_RETRANS_ABOVE = 1      #: an event when the retransmit rate is above this
    MAJOR_FAULTS_ABOVE = 2     #: an event when the major-fault rate is above this
    CTX_SWITCHES_ABOVE = 3     #: an event when the context-switch rate is above this
    RUN_DELAY_ABOVE = 4        #: an event when the run delay is above this
    NUMA_MIGRATIONS_ABOVE = 5  #: an event when the page-migration rate is above this
    PSI_CPU_ABOVE = 6          #: an event when the CPU pressure is above this
    PSI_MEMORY_ABOVE = 7       #: an event when the memory pressure is above this
    PSI_IO_ABOVE = 8           #: an event when the I/O pressure is above this
    CPU_FREQ_DROP = 9          #: an event when the frequency fell by more than this share
    CPU_THROTTLE_ABOVE = 10    #: an event when the throttled time is above this


_HOST = OptionCalls(ObjectKind.HOST_SAMPLER, _lib.llmm_host_sampler_set_f64,
                    _lib.llmm_host_sampler_get_f64)


def host_signal_name(signal: Union[HostSignal, int]) -> Optional[str]:
    """The stable name of a signal (``"tcp_retrans"``, ``"psi_cpu"``, ...), or None."""
    name = _lib.llmm_host_signal_name(int32(signal, "signal"))
    return None if name is None else str(name.decode("ascii"))


def host_signal_event(signal: Union[HostSignal, int]) -> int:
    """The event type a signal's events are logged as (an ``EventType`` value), or 0."""
    return int(_lib.llmm_host_signal_event(int32(signal, "signal")))


class HostSampler(Handle):
    """A sampler of host signals (``llmm_host_sampler``), driven by the caller's clock.

    :param root: the directory that stands for ``/`` (a container's view of the host, or a
                 captured tree); None: ``/``
    :param context: allocation context (None: libc)
    :param thresholds: event thresholds by :class:`HostOption` name in lower case
                       (``psi_cpu_above=0.1``); the others keep the library's defaults
    """

    _c_free = staticmethod(_lib.llmm_host_sampler_free)

    def __init__(self, root: Union[str, bytes, "os.PathLike[str]", None] = None, *,
                 context: Optional[Context] = None, **thresholds: Optional[float]) -> None:
        check_kwargs("HostSampler", HostOption, thresholds)
        path = None if root is None else os.fsencode(root)
        self._init_new(context, _lib.llmm_host_sampler, "llmm_host_sampler_new",
                       lambda ctx, out: _lib.llmm_host_sampler_new(ctx, path, out),
                       "root=%r" % (root,))
        try:
            _HOST.apply_kwargs(self, HostOption, thresholds)
        except BaseException:
            self.close()
            raise

    def set(self, option: Union[HostOption, int], value: float) -> None:
        """Set an event threshold; applies from the next sample."""
        _HOST.set(self, option, value)

    def get(self, option: Union[HostOption, int]) -> float:
        """Read an event threshold."""
        return float(_HOST.get(self, option))

    def sample(self, now_ns: Optional[int] = None, log: Optional[EventLog] = None) -> None:
        """Re-read every available signal; with ``log``, one event per signal above its
        threshold at ``now_ns`` (default: the library's monotonic clock), which must be later
        than the previous sample's and not earlier than the log's latest event."""
        t = time_arg(now_ns, "llmm_host_sample")
        if log is None:
            with self._lock:
                st = _lib.llmm_host_sample(self._live(), t, None)
        else:
            with self._lock, log._lock:
                st = _lib.llmm_host_sample(self._live(), t, log._live())
        check(st, "llmm_host_sample", "now_ns=%r" % (t,))

    def rate(self, signal: Union[HostSignal, int]) -> float:
        """The signal's rate per second over the last interval (the frequency: its level in
        MHz at the latest sample).

        :raises InvalidState: the host does not expose the signal
        :raises Empty: no rate yet (fewer than two samples, or a refused reading before)
        :raises Corrupt: the latest reading was refused (garbage, a read error, a counter
                         that went backwards)
        """
        out = ctypes.c_double()
        with self._lock:
            st = _lib.llmm_host_signal_rate(self._live(), int32(signal, "signal"),
                                            ctypes.byref(out))
        check(st, "llmm_host_signal_rate", "signal=%r" % (signal,))
        return out.value

    def available(self, signal: Union[HostSignal, int]) -> bool:
        """Whether the host exposes the signal."""
        out = ctypes.c_double()
        with self._lock:
            st = _lib.llmm_host_signal_rate(self._live(), int32(signal, "signal"),
                                            ctypes.byref(out))
        if st == _lib.LLMM_E_INVALID:
            check(st, "llmm_host_signal_rate", "signal=%r" % (signal,))
        return st != _lib.LLMM_E_STATE

    def rates(self) -> Dict[HostSignal, Optional[float]]:
        """Every signal the host exposes: its rate over the last interval, or None when it has
        none this sample."""
        out: Dict[HostSignal, Optional[float]] = {}
        v = ctypes.c_double()
        with self._lock:
            ptr = self._live()
            for sig in HostSignal:
                st = _lib.llmm_host_signal_rate(ptr, int(sig), ctypes.byref(v))
                if st != _lib.LLMM_E_STATE:
                    out[sig] = v.value if st == 0 else None
        return out


