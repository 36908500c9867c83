"""Exemplars and W3C trace context (``llmm_exemplars``, ``llmm_traceparent_*``).

An :class:`Exemplars` store keeps one exemplar (value, trace id, span id, wall-clock time,
labels) per bucket of a fixed layout, beside a sketch or recorder; a
:class:`~llmmetrics.PromWriter` adds them to OpenMetrics and protobuf expositions
(:meth:`~llmmetrics.PromWriter.sketch_exemplars`). Writer threads record through their own
:class:`ExemplarShard` (``record`` picks the calling thread's); reads run concurrently.
:func:`traceparent_parse` takes the ids from an incoming ``traceparent`` header.
"""

from __future__ import annotations

import ctypes
import enum
import threading
import time
from typing import Any, NamedTuple, Optional, Sequence, Tuple, Union

from . import _lib
from ._args import int32, real, uint32, uint64
from ._buffers import as_doubles
from ._structs import new_struct
from .context import Closing, Context
from .errors import check, error_for
from .recorder import _Users

__all__ = ["ExemplarKeep", "Exemplar", "Exemplars", "ExemplarShard", "traceparent_parse",
           "traceparent_format", "EXEMPLAR_BOUNDS_MAX"]

#: most bounds of an exemplar layout (``LLMM_EXEMPLAR_BOUNDS_MAX``)
EXEMPLAR_BOUNDS_MAX = 255
#: size of an exemplar's label buffer, NUL included (``LLMM_EXEMPLAR_LABELS_MAX``)
EXEMPLAR_LABELS_MAX = 64


class ExemplarKeep(enum.IntEnum):
    """Which exemplar a slot keeps (``llmm_exemplar_keep``)."""

    LATEST = 0
    MAX = 1


class Exemplar(NamedTuple):
    """One exemplar as read back: ids are bytes (all zero when absent)."""

    value: float
    trace_id: bytes
    span_id: bytes
    time_unix_nano: int
    labels: str

    def _struct(self) -> Any:
        e = new_struct(_lib.llmm_exemplar)
        e.value = real(self.value)
        e.time_unix_nano = uint64(self.time_unix_nano, "time_unix_nano")
        ctypes.memmove(e.trace_id, _id(self.trace_id, 16, "trace_id") or bytes(16), 16)
        ctypes.memmove(e.span_id, _id(self.span_id, 8, "span_id") or bytes(8), 8)
        lab = self.labels.encode("utf-8")
        if len(lab) >= EXEMPLAR_LABELS_MAX or b"\0" in lab:
            raise error_for(_lib.LLMM_E_INVALID, "llmm_prom_writer_value_exemplar",
                            "labels longer than %d bytes" % (EXEMPLAR_LABELS_MAX - 1))
        e.labels = lab
        return e


def _id(value: Optional[bytes], n: int, what: str) -> Optional[bytes]:
    if value is None:
        return None
    if not isinstance(value, (bytes, bytearray)) or len(value) != n:
        raise TypeError("llmmetrics: %s must be %d bytes" % (what, n))
    return bytes(value)


def _c_id(value: Optional[bytes], n: int, what: str) -> Any:
    """An id as the ``const uint8_t *`` argument (None stays NULL)."""
    b = _id(value, n, what)
    return None if b is None else (ctypes.c_uint8 * n).from_buffer_copy(b)


def _read(e: Any) -> Exemplar:
    return Exemplar(e.value, bytes(e.trace_id), bytes(e.span_id), int(e.time_unix_nano),
                    e.labels.decode("utf-8"))


class ExemplarShard(Closing):
    """A single-writer shard of an :class:`Exemplars` store (``llmm_exemplar_shard``)."""

    def __init__(self, store: "Exemplars", ptr: Any) -> None:
        self._store = store
        self._ptr = ptr
        self._lock = threading.Lock()

    def record(self, value: float, trace_id: Optional[bytes] = None,
               span_id: Optional[bytes] = None, time_unix_nano: Optional[int] = None,
               labels: Optional[str] = None) -> None:
        """Offer an exemplar; its slot keeps it or its current one by the keep rule.

        :param time_unix_nano: wall-clock Unix nanoseconds; None = now (``time.time_ns``)
        :raises InvalidArgument: value not finite, all-zero id, labels malformed or too long
        """
        call = "llmm_exemplar_shard_record"
        v = real(value)
        tr, sp = _c_id(trace_id, 16, "trace_id"), _c_id(span_id, 8, "span_id")
        t = time.time_ns() if time_unix_nano is None else uint64(time_unix_nano,
                                                                 "time_unix_nano", call)
        lb = None if labels is None else labels.encode("utf-8")
        self._store._users.enter("Exemplars")
        try:
            with self._lock:
                if not self._ptr:
                    raise ValueError("llmmetrics.ExemplarShard was released")
                st = _lib.llmm_exemplar_shard_record(self._ptr, v, tr, sp, t, lb)
        finally:
            self._store._users.leave()
        check(st, call, "value=%r labels=%r" % (value, labels))

    @property
    def released(self) -> bool:
        """True once the shard was given back."""
        return not self._ptr

    def release(self) -> None:
        """Give the shard back (idempotent); its exemplars stay in the store."""
        try:
            self._store._users.enter("Exemplars")
        except ValueError:
            self._ptr = None
            return
        try:
            with self._lock:
                ptr, self._ptr = self._ptr, None
                if ptr:
                    _lib.llmm_exemplar_shard_release(ptr)
        finally:
            self._store._users.leave()

    def close(self) -> None:
        """Same as :meth:`release`."""
        self.release()


class Exemplars(Closing):
    """One exemplar per bucket of a layout (``llmm_exemplars``).

    :param bounds: slot upper bounds in the recorded unit, strictly increasing (at most
                   255); ``len(bounds) + 1`` slots. Use the classic bucket bounds of the
                   family the store is exported with.
    :param keep: LATEST, or MAX (the largest since the last :meth:`roll`)
    :param context: allocation context (its hooks must be thread-safe)
    """

    def __init__(self, bounds: Sequence[float] = (), keep: Union[ExemplarKeep, int] =
                 ExemplarKeep.LATEST, *, context: Optional[Context] = None) -> None:
        self._users = _Users()
        self._ptr: Any = None
        self._context = context
        self._local = threading.local()
        call = "llmm_exemplars_new"
        k = int32(keep, "keep", call)
        ptr, n, held = as_doubles(bounds)
        ctx_ptr = None if context is None else context._acquire()
        out = ctypes.POINTER(_lib.llmm_exemplars)()
        try:
            check(_lib.llmm_exemplars_new(ctx_ptr, ptr, n, k, ctypes.byref(out)), call,
                  "%d bounds keep=%r" % (n, keep))
        except BaseException:
            self._users.closed = True
            if context is not None:
                context._release()
            raise
        del held
        self._ptr = out

    def _call(self, fn: Any, *args: Any) -> int:
        self._users.enter("Exemplars")
        try:
            return int(fn(self._ptr, *args))
        finally:
            self._users.leave()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._users.closed

    @property
    def slots(self) -> int:
        """Number of slots (bounds + 1)."""
        return self._call(_lib.llmm_exemplars_slots)

    def shard(self) -> ExemplarShard:
        """A shard for the calling thread (thread-safe)."""
        out = ctypes.POINTER(_lib.llmm_exemplar_shard)()
        check(self._call(_lib.llmm_exemplars_shard, ctypes.byref(out)), "llmm_exemplars_shard")
        return ExemplarShard(self, out)

    def record(self, value: float, trace_id: Optional[bytes] = None,
               span_id: Optional[bytes] = None, time_unix_nano: Optional[int] = None,
               labels: Optional[str] = None) -> None:
        """:meth:`ExemplarShard.record` through the calling thread's shard."""
        sh = getattr(self._local, "shard", None)
        if sh is None:
            sh = self._local.shard = self.shard()
        sh.record(value, trace_id, span_id, time_unix_nano, labels)

    def roll(self) -> None:
        """Start a new interval for MAX (erases nothing)."""
        check(self._call(_lib.llmm_exemplars_roll), "llmm_exemplars_roll")

    def get(self, slot: int) -> Optional[Exemplar]:
        """The exemplar a slot holds, or None when it never held one."""
        call = "llmm_exemplars_get"
        e = new_struct(_lib.llmm_exemplar)
        st = self._call(_lib.llmm_exemplars_get, uint32(slot, "slot", call), ctypes.byref(e))
        if st == _lib.LLMM_E_EMPTY:
            return None
        check(st, call, "slot=%r" % (slot,))
        return _read(e)

    def close(self) -> None:
        """Wait for calls in flight, then free the store and its shards (idempotent)."""
        if self._users.close():
            _lib.llmm_exemplars_free(self._ptr)
            self._ptr = None
            if self._context is not None:
                self._context._release()

    def __repr__(self) -> str:
        return "<llmmetrics.Exemplars %s>" % ("closed" if self.closed else
                                              "%d slots" % self.slots)


def traceparent_parse(header: str) -> Tuple[bytes, bytes, int]:
    """``(trace_id, span_id, flags)`` of a W3C ``traceparent`` header.

    :raises InvalidArgument: a malformed header
    """
    call = "llmm_traceparent_parse"
    h = header.encode("ascii", "replace") if isinstance(header, str) else None
    if h is None:
        raise TypeError("llmmetrics: header must be a str")
    tr, sp, fl = (ctypes.c_uint8 * 16)(), (ctypes.c_uint8 * 8)(), ctypes.c_uint8()
    check(_lib.llmm_traceparent_parse(h, tr, sp, ctypes.byref(fl)), call, repr(header))
    return bytes(tr), bytes(sp), fl.value


def traceparent_format(trace_id: bytes, span_id: bytes, flags: int = 1) -> str:
    """A version-00 ``traceparent`` value."""
    call = "llmm_traceparent_format"
    tr, sp = _c_id(trace_id, 16, "trace_id"), _c_id(span_id, 8, "span_id")
    if tr is None or sp is None:
        raise TypeError("llmmetrics: traceparent_format needs both ids")
    fl = uint32(flags, "flags", call)
    if fl > 255:
        raise error_for(_lib.LLMM_E_INVALID, call, "flags=%r" % (flags,))
    buf, n = (ctypes.c_uint8 * 55)(), ctypes.c_size_t()
    check(_lib.llmm_traceparent_format(tr, sp, fl, buf, 55, ctypes.byref(n)), call)
    return bytes(buf[:n.value]).decode("ascii")
