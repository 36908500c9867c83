"""``Recorder``: many writer threads into one set of counts (``llmm_recorder``).

Each writer thread records into its own :class:`Shard` (no lock in C, and ctypes releases the
GIL during the call, so writers really run in parallel); a reader takes :meth:`Recorder.snapshot`
at any time, concurrently with the writers. ``Recorder.add`` / ``add_many`` pick the calling
thread's shard automatically.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Optional, Tuple

from . import _lib
from ._args import int32, real
from ._buffers import DoubleBuffer, as_address, batch_prototype
from .context import Closing, Context
from .errors import check, error_for
from .sketch import SCALE_DEFAULT, Sketch

_c_shard_add_many = batch_prototype(_lib.llmm_shard_add_many)

__all__ = ["Recorder", "Shard"]


class _Users:
    """Counts calls in flight on a recorder so that ``close`` waits for them and no call
    starts after it: the C recorder may be freed only when nothing else uses it."""

    def __init__(self) -> None:
        # enter / leave take the condition's lock directly: ``with`` on a Condition goes
        # through two Python-level methods, a large share of a small batch's cost
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._active = 0
        self.closed = False

    def enter(self, what: str) -> None:
        lock = self._lock
        lock.acquire()
        try:
            if self.closed:
                raise ValueError("llmmetrics.%s is closed" % what)
            self._active += 1
        finally:
            lock.release()

    def leave(self) -> None:
        lock = self._lock
        lock.acquire()
        try:
            self._active -= 1
            if self._active == 0:
                self._cond.notify_all()
        finally:
            lock.release()

    def close(self) -> bool:
        """Mark closed and wait for calls in flight; True the first time only."""
        with self._cond:
            if self.closed:
                return False
            self.closed = True
            while self._active:
                self._cond.wait()
            return True


class Shard(Closing):
    """A single-writer shard of a :class:`Recorder` (``llmm_shard``).

    Obtain one with :meth:`Recorder.shard`; use it from one thread at a time; give it back with
    :meth:`release` (or a ``with`` block). Its counts stay in the recorder after release.
    """

    def __init__(self, recorder: "Recorder", ptr: Any) -> None:
        self._recorder = recorder
        self._ptr = ptr
        self._lock = threading.Lock()

    def _call(self, fn: Any, *args: Any) -> int:
        users = self._recorder._users
        users.enter("Recorder")
        try:
            lock = self._lock
            lock.acquire()
            try:
                ptr = self._ptr
                if not ptr:
                    raise ValueError("llmmetrics.Shard was released")
                return int(fn(ptr, *args))
            finally:
                lock.release()
        finally:
            users.leave()

    def add(self, value: float) -> None:
        """Record one value (finite, ≥ 0).

        :raises InvalidArgument: NaN, infinite or negative
        """
        v = value if type(value) is float else real(value)
        st = self._call(_lib.llmm_shard_add, v)
        if st:
            raise error_for(st, "llmm_shard_add", "value=%r" % (value,))

    def add_many(self, values: DoubleBuffer) -> None:
        """Record a batch, all or nothing (inputs as :meth:`Sketch.add_many`)."""
        addr, n, keep = as_address(values)
        st = self._call(_c_shard_add_many, addr, n)
        del keep
        if st:
            raise error_for(st, "llmm_shard_add_many", "%d values" % n)

    @property
    def released(self) -> bool:
        """True once the shard was given back."""
        return not self._ptr

    def release(self) -> None:
        """Give the shard back to the recorder (idempotent); its counts stay recorded."""
        rec = self._recorder
        try:
            rec._users.enter("Recorder")
        except ValueError:
            self._ptr = None  # the recorder, and with it every shard, is already freed
            return
        try:
            with self._lock:
                ptr, self._ptr = self._ptr, None
                if ptr:
                    _lib.llmm_shard_release(ptr)
        finally:
            rec._users.leave()

    def close(self) -> None:
        """Same as :meth:`release` (``with`` and garbage collection call it)."""
        self.release()

    def __repr__(self) -> str:
        return "<llmmetrics.Shard %s>" % ("released" if self.released else "active")


class Recorder(Closing):
    """A multi-writer recorder (``llmm_recorder``).

    :param scale: as :class:`Sketch`
    :param value_range: ``(lo, hi)`` tracked range, as :class:`Sketch`
    :param context: allocation context (its hooks must be thread-safe; Python hooks are)

    ``add`` / ``add_many`` record through a shard owned by the calling thread (made on first
    use). :meth:`snapshot` returns the cumulative totals as a :class:`Sketch`; subtract two
    snapshots for an interval. ``close`` (or ``with``) waits for calls in flight, then frees the
    recorder and every shard.
    """

    def __init__(self, scale: int = SCALE_DEFAULT, *,
                 value_range: Optional[Tuple[float, float]] = None,
                 context: Optional[Context] = None) -> None:
        self._users = _Users()
        self._ptr: Any = None
        self._context = context
        self._local = threading.local()
        sc = int32(scale, "scale", "llmm_recorder_new")
        ctx_ptr = None if context is None else context._acquire()
        out = ctypes.POINTER(_lib.llmm_recorder)()
        try:
            check(_lib.llmm_recorder_new(ctx_ptr, sc, ctypes.byref(out)), "llmm_recorder_new",
                  "scale=%r" % (scale,))
        except BaseException:
            self._users.closed = True
            if context is not None:
                context._release()
            raise
        self._ptr = out
        if value_range is not None:
            try:
                self.set_range(*value_range)
            except BaseException:
                self.close()
                raise

    def _call(self, fn: Any, *args: Any) -> int:
        self._users.enter("Recorder")
        try:
            return int(fn(self._ptr, *args))
        finally:
            self._users.leave()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._users.closed

    def set_range(self, lo: float, hi: float) -> None:
        """Set the tracked range; only before the first shard is handed out.

        :raises InvalidState: a shard was already handed out
        """
        st = self._call(_lib.llmm_recorder_set_range, real(lo, "lo"), real(hi, "hi"))
        check(st, "llmm_recorder_set_range", "lo=%r hi=%r" % (lo, hi))

    def shard(self) -> Shard:
        """A shard for the calling thread (thread-safe). Release it when the thread is done."""
        out = ctypes.POINTER(_lib.llmm_shard)()
        check(self._call(_lib.llmm_recorder_shard, ctypes.byref(out)), "llmm_recorder_shard")
        return Shard(self, out)

    def _thread_shard(self) -> Shard:
        sh = getattr(self._local, "shard", None)
        if sh is None:
            sh = self._local.shard = self.shard()
        return sh

    def add(self, value: float) -> None:
        """Record one value through the calling thread's shard."""
        self._thread_shard().add(value)

    def add_many(self, values: DoubleBuffer) -> None:
        """Record a batch through the calling thread's shard (all or nothing)."""
        self._thread_shard().add_many(values)

    def snapshot(self, into: Optional[Sketch] = None) -> Sketch:
        """The cumulative totals of every shard, safe while writers run.

        :param into: a sketch to overwrite (its context is kept); a new one when None
        :return: ``into`` or the new sketch
        """
        target = Sketch(context=self._context) if into is None else into
        try:
            with target._lock:
                st = self._call(_lib.llmm_recorder_snapshot, target._live())
            check(st, "llmm_recorder_snapshot")
        except BaseException:
            if into is None:
                target.close()
            raise
        return target

    def close(self) -> None:
        """Wait for calls in flight, then free the recorder and all its shards (idempotent)."""
        if self._users.close():
            _lib.llmm_recorder_free(self._ptr)
            self._ptr = None
            if self._context is not None:
                self._context._release()

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.Recorder closed>"
        with self.snapshot() as s:
            return "<llmmetrics.Recorder count=%d>" % len(s)
