"""``Window`` and ``RatioWindow``: time rings of sketches and of (events, total) counters.

Time is a caller's clock in nanoseconds. Every method takes ``now_ns``; leave it out to use
the library's monotonic clock (:func:`llmmetrics.now_ns`). Do not mix the two on one object:
a time stamp earlier than one already accepted raises :class:`InvalidArgument`. A span
(``span_ns``) rounds up to whole slots and ends with the current slot; leave it out for the
whole ring.
"""

from __future__ import annotations

import ctypes
import html
from typing import Any, List, Optional, Tuple

from . import _lib
from ._args import int32, real, uint32, uint64
from ._buffers import DoubleBuffer, as_address, as_doubles, batch_prototype
from ._html import cell, sketch_html
from .context import Context, Handle
from .errors import check, error_for
from ._structs import new_struct
from .sketch import SCALE_DEFAULT, Sketch

__all__ = ["Window", "RatioWindow", "WINDOW_SLOT_NS_DEFAULT", "WINDOW_SLOTS_DEFAULT",
           "WINDOW_SLOTS_MAX"]

WINDOW_SLOT_NS_DEFAULT: int = _lib.LLMM_WINDOW_SLOT_NS_DEFAULT
WINDOW_SLOTS_DEFAULT: int = _lib.LLMM_WINDOW_SLOTS_DEFAULT
WINDOW_SLOTS_MAX: int = _lib.LLMM_WINDOW_SLOTS_MAX

_c_add_many = batch_prototype(_lib.llmm_window_add_many)


def time_arg(now_ns: Optional[int], call: str = "") -> int:
    """``now_ns`` as a uint64, or the library's monotonic clock when None."""
    if now_ns is None:
        return int(_lib.llmm_now_ns())
    return uint64(now_ns, "now_ns", call)


def add_counts(obj: Handle, fn: Any, now_ns: Optional[int], **counts: int) -> None:
    """``fn(obj, now_ns, *counts)``: each count a uint64, named in errors as given."""
    call = fn.__name__
    t = time_arg(now_ns, call)
    args = [uint64(v, k, call) for k, v in counts.items()]
    detail = "".join("%s=%r " % kv for kv in counts.items())
    obj._call(fn, t, *args, detail=detail + "now_ns=%r" % t)


def read_at(obj: Handle, fn: Any, c_struct: Any, now_ns: Optional[int]) -> Any:
    """The caller-sized ``c_struct`` that ``fn(obj, now_ns, &struct)`` fills."""
    t = time_arg(now_ns, fn.__name__)
    r = new_struct(c_struct)
    obj._call(fn, t, ctypes.byref(r), detail="now_ns=%r" % t)
    return r


class _Ring(Handle):
    """Geometry shared by the two rings."""

    _slot_ns: int
    _slots: int
    #: the latest time stamp a call succeeded with (None: none yet, or reset): what the
    #: notebook view queries at, so that showing an object never advances its clock
    _last_ns: Optional[int] = None

    def _span_call(self, fn: Any, span_ns: Optional[int], now_ns: Optional[int],
                   *out: Any) -> None:
        """``fn(ring, now_ns, span, *out)`` over the slots a span covers."""
        call = fn.__name__
        s, t = self._span(span_ns, call), time_arg(now_ns, call)
        with self._lock:
            st = fn(self._live(), t, s, *out)
            self._advanced(st, t)
        check(st, call, "span_ns=%r now_ns=%r" % (s, t))

    @property
    def slot_ns(self) -> int:
        """Slot length in nanoseconds (defaults resolved)."""
        return self._slot_ns

    @property
    def slots(self) -> int:
        """Number of slots in the ring (defaults resolved)."""
        return self._slots

    @property
    def span_ns(self) -> int:
        """Length of the whole ring: the longest span a query accepts."""
        return self._slot_ns * self._slots

    def _span(self, span_ns: Optional[int], call: str) -> int:
        return self.span_ns if span_ns is None else uint64(span_ns, "span_ns", call)

    def _forget(self, reset: Any) -> None:
        """Run the ring's C ``reset``: no time stamp has been used since."""
        self._call(reset)
        self._last_ns = None

    def _advanced(self, st: int, t: int) -> None:
        """After a call at ``t`` (holding the lock): the clock is at ``t`` if it succeeded."""
        if not st:
            self._last_ns = t

    def _title(self, kind: str) -> str:
        return ("llmmetrics.%s: %d slots of %g s, the whole ring at t = %d ns"
                % (kind, self._slots, self._slot_ns / 1e9, self._last_ns or 0))


class Window(_Ring):
    """A ring of per-slot quantile sketches (``llmm_window``).

    :param slot_ns: slot length in ns (0: 1 s)
    :param slots: number of slots (0: 60), at most ``WINDOW_SLOTS_MAX``
    :param scale: sketch scale, as :class:`Sketch`
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_window_free)

    def __init__(self, slot_ns: int = 0, slots: int = 0, scale: int = SCALE_DEFAULT, *,
                 context: Optional[Context] = None) -> None:
        call = "llmm_window_new"
        a = uint64(slot_ns, "slot_ns", call)
        b = uint32(slots, "slots", call)
        c = int32(scale, "scale", call)
        self._init_new(context, _lib.llmm_window, call,
                       lambda ctx, out: _lib.llmm_window_new(ctx, a, b, c, out),
                       "slot_ns=%r slots=%r scale=%r" % (slot_ns, slots, scale))
        ns, n = ctypes.c_uint64(), ctypes.c_uint32()
        check(_lib.llmm_window_geometry(self._live(), ctypes.byref(ns), ctypes.byref(n)),
              "llmm_window_geometry")
        self._slot_ns, self._slots = ns.value, n.value
        self._scale = c

    @property
    def scale(self) -> int:
        """Scale of the slot sketches."""
        return self._scale

    def add(self, value: float, now_ns: Optional[int] = None) -> None:
        """Record one value (finite, ≥ 0) into the slot of ``now_ns``.

        :raises InvalidArgument: bad value, or time going backwards
        """
        t = time_arg(now_ns, "llmm_window_add")
        v = value if type(value) is float else real(value)
        with self._lock:
            st = _lib.llmm_window_add(self._live(), t, v)
            if not st:
                self._last_ns = t
        if st:
            raise error_for(st, "llmm_window_add", "value=%r now_ns=%r" % (value, t))

    def add_many(self, values: DoubleBuffer, now_ns: Optional[int] = None) -> None:
        """Record a batch at one time stamp, all or nothing (inputs as
        :meth:`Sketch.add_many`)."""
        t = time_arg(now_ns, "llmm_window_add_many")
        addr, n, keep = as_address(values)
        with self._lock:
            st = _c_add_many(self._live(), t, addr, n)
            if not st:
                self._last_ns = t
        del keep
        if st:
            raise error_for(st, "llmm_window_add_many", "%d values now_ns=%r" % (n, t))

    def count(self, span_ns: Optional[int] = None, now_ns: Optional[int] = None) -> int:
        """Number of values in the slots a span covers."""
        out = ctypes.c_uint64()
        self._span_call(_lib.llmm_window_count, span_ns, now_ns, ctypes.byref(out))
        return out.value

    def quantile(self, q: float, span_ns: Optional[int] = None,
                 now_ns: Optional[int] = None) -> float:
        """Quantile ``q`` of the values in a span (nearest rank, the sketch's relative error).

        :raises Empty: no values in the span
        :raises OutOfRange: ``span_ns`` longer than the ring
        """
        call = "llmm_window_quantile"
        s, t = self._span(span_ns, call), time_arg(now_ns, call)
        out = ctypes.c_double()
        with self._lock:
            st = _lib.llmm_window_quantile(self._live(), t, s, real(q, "q"), ctypes.byref(out))
            self._advanced(st, t)
        check(st, call, "q=%r span_ns=%r now_ns=%r" % (q, s, t))
        return out.value

    def quantiles(self, qs: DoubleBuffer, span_ns: Optional[int] = None,
                  now_ns: Optional[int] = None) -> List[float]:
        """Many quantiles of a span in one pass, in the order of ``qs``."""
        call = "llmm_window_quantiles"
        s, t = self._span(span_ns, call), time_arg(now_ns, call)
        ptr, n, keep = as_doubles(qs)
        out = (ctypes.c_double * max(n, 1))()
        with self._lock:
            st = _lib.llmm_window_quantiles(self._live(), t, s, ptr, n, out)
            self._advanced(st, t)
        del keep
        check(st, call, "span_ns=%r now_ns=%r" % (s, t))
        return list(out[:n])

    def snapshot(self, span_ns: Optional[int] = None, now_ns: Optional[int] = None,
                 into: Optional[Sketch] = None) -> Sketch:
        """The exact merge of the slots a span covers, as a :class:`Sketch`.

        :param into: a sketch to overwrite; a new one (same context) when None
        """
        call = "llmm_window_snapshot"
        s, t = self._span(span_ns, call), time_arg(now_ns, call)
        target = Sketch(context=self._context) if into is None else into
        try:
            with self._lock, target._lock:
                st = _lib.llmm_window_snapshot(self._live(), t, s, target._live())
                self._advanced(st, t)
            check(st, call, "span_ns=%r now_ns=%r" % (s, t))
        except BaseException:
            if into is None:
                target.close()
            raise
        return target

    def reset(self) -> None:
        """Forget every value and the clock (any ``now_ns`` is accepted next)."""
        self._forget(_lib.llmm_window_reset)

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.Window closed>"
        return "<llmmetrics.Window %d slots of %g s, scale %d>" % (self._slots,
                                                                   self._slot_ns / 1e9,
                                                                   self._scale)

    def _repr_html_(self) -> str:
        """What the whole ring holds at the latest time stamp used (a sketch's table and
        histogram), for Jupyter; showing it does not advance the clock."""
        if self.closed or self._last_ns is None:
            return "<p>%s</p>" % html.escape(repr(self))
        with self.snapshot(now_ns=self._last_ns) as s:
            return sketch_html(s.scale, s.summary(), list(s.buckets()), s.special_counts,
                               self._title("Window"))


class RatioWindow(_Ring):
    """A ring of (events, total) counters: error rates, miss rates, hit rates
    (``llmm_ratio_window``).

    :param slot_ns: slot length in ns (0: 1 s)
    :param slots: number of slots (0: 60)
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_ratio_window_free)

    def __init__(self, slot_ns: int = 0, slots: int = 0, *,
                 context: Optional[Context] = None) -> None:
        call = "llmm_ratio_window_new"
        a = uint64(slot_ns, "slot_ns", call)
        b = uint32(slots, "slots", call)
        self._init_new(context, _lib.llmm_ratio_window, call,
                       lambda ctx, out: _lib.llmm_ratio_window_new(ctx, a, b, out),
                       "slot_ns=%r slots=%r" % (slot_ns, slots))
        self._slot_ns = a or WINDOW_SLOT_NS_DEFAULT
        self._slots = b or WINDOW_SLOTS_DEFAULT

    def add(self, events: int, total: int = 1, now_ns: Optional[int] = None) -> None:
        """Count ``events`` out of ``total`` (``add(1)`` for a failed request, ``add(0)`` for
        a good one).

        :raises InvalidArgument: ``events > total``, or time going backwards
        :raises OutOfRange: a counter would overflow
        """
        call = "llmm_ratio_window_add"
        e, n = uint64(events, "events", call), uint64(total, "total", call)
        t = time_arg(now_ns, call)
        with self._lock:
            st = _lib.llmm_ratio_window_add(self._live(), t, e, n)
            self._advanced(st, t)
        check(st, call, "events=%r total=%r now_ns=%r" % (events, total, t))

    def counts(self, span_ns: Optional[int] = None,
               now_ns: Optional[int] = None) -> Tuple[int, int]:
        """Sums ``(events, total)`` over a span."""
        e, n = ctypes.c_uint64(), ctypes.c_uint64()
        self._span_call(_lib.llmm_ratio_window_counts, span_ns, now_ns, ctypes.byref(e),
                        ctypes.byref(n))
        return e.value, n.value

    def ratio(self, span_ns: Optional[int] = None, now_ns: Optional[int] = None) -> float:
        """events / total over a span, in [0, 1].

        :raises Empty: the total over the span is 0
        """
        out = ctypes.c_double()
        self._span_call(_lib.llmm_ratio_window_ratio, span_ns, now_ns, ctypes.byref(out))
        return out.value

    def reset(self) -> None:
        """Forget every count and the clock."""
        self._forget(_lib.llmm_ratio_window_reset)

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.RatioWindow closed>"
        return "<llmmetrics.RatioWindow %d slots of %g s>" % (self._slots, self._slot_ns / 1e9)

    def _repr_html_(self) -> str:
        """Events, total and their ratio over the whole ring at the latest time stamp used,
        for Jupyter; showing it does not advance the clock."""
        if self.closed or self._last_ns is None:
            return "<p>%s</p>" % html.escape(repr(self))
        events, total = self.counts(now_ns=self._last_ns)
        ratio = cell(events / total) if total else "no events"
        return ("<div class='llmmetrics-ratio-window'><b>%s</b><table style='font-size:smaller'>"
                "<tr><th>events</th><th>total</th><th>ratio</th></tr>"
                "<tr><td>%d</td><td>%d</td><td>%s</td></tr></table></div>"
                % (html.escape(self._title("RatioWindow")), events, total, ratio))
