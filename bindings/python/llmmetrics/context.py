"""``Context``: the library context (allocator hooks), and the base class of every handle.

Most programs never need a ``Context``: every class takes ``context=None``, which means the
C library's default (libc) allocator. A ``Context`` with Python hooks is useful to account for
or limit the memory the library uses, and to test allocation failures.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Callable, Optional, Type, TypeVar

from . import _lib
from .errors import check
from ._structs import new_struct

__all__ = ["Context", "Handle", "AllocHook", "ReallocHook", "FreeHook"]


class Closing:
    """What every object that owns C memory does with ``with`` and when collected: it calls
    ``close()`` (idempotent), quietly at interpreter shutdown."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may already be gone
            pass


#: ``alloc(size) -> address or 0``
AllocHook = Callable[[int], Optional[int]]
#: ``realloc(address, old_size, new_size) -> new address or 0 (the old block stays valid)``
ReallocHook = Callable[[int, int, int], Optional[int]]
#: ``free(address, size)``
FreeHook = Callable[[int, int], None]


class Context(Closing):
    """An immutable library context holding the allocator every object made with it uses.

    :param alloc: Python allocation hook, or None for the libc default
    :param realloc: Python reallocation hook, or None for the libc default
    :param free: Python release hook, or None for the libc default

    Hooks receive and return raw addresses (``int``); returning None or 0 reports failure.
    Replace either all three hooks or none: memory from one allocator must go back to it.
    An exception raised in a hook is reported as an allocation failure.

    The C context is released when the ``Context`` and every object made from it are gone
    (objects keep their context alive), or on :meth:`close` once no object uses it.
    """

    def __init__(self, alloc: Optional[AllocHook] = None, realloc: Optional[ReallocHook] = None,
                 free: Optional[FreeHook] = None) -> None:
        hooks = (alloc, realloc, free)
        if any(h is not None for h in hooks) and not all(h is not None for h in hooks):
            raise ValueError("llmmetrics.Context: give all three hooks (alloc, realloc, free) "
                             "or none")
        self._ptr: Any = None
        self._users = 0
        self._closing = False
        self._guard = threading.Lock()
        a = new_struct(_lib.llmm_allocator)
        self._callbacks: tuple = ()
        if alloc is not None:
            self._callbacks = _make_callbacks(alloc, realloc, free)  # type: ignore[arg-type]
            a.alloc, a.realloc, a.free = self._callbacks
        ptr = ctypes.POINTER(_lib.llmm_ctx)()
        check(_lib.llmm_ctx_new(ctypes.byref(a), ctypes.byref(ptr)), "llmm_ctx_new")
        self._ptr = ptr

    @property
    def _as_parameter_(self) -> Any:
        if not self._ptr or self._closing:
            raise ValueError("llmmetrics.Context is closed")
        return self._ptr

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closing

    def _acquire(self) -> Any:
        """Register one more object made from this context; returns the C pointer."""
        with self._guard:
            ptr = self._as_parameter_
            self._users += 1
            return ptr

    def _release(self) -> None:
        """An object made from this context was freed; free the context if it was closed."""
        with self._guard:
            self._users -= 1
            self._free_if_unused()

    def _free_if_unused(self) -> None:
        if self._closing and self._users == 0 and self._ptr:
            _lib.llmm_ctx_free(self._ptr)
            self._ptr = None

    def close(self) -> None:
        """Release the C context as soon as no object made from it is alive (now, usually).

        After ``close`` no new object can be made with this context. Idempotent.
        """
        with self._guard:
            self._closing = True
            self._free_if_unused()

    def __repr__(self) -> str:
        hooks = "python hooks" if self._callbacks else "libc allocator"
        state = "closed" if self._closing else "open"
        return "<llmmetrics.Context %s, %s, %d users>" % (hooks, state, self._users)


def _make_callbacks(alloc: AllocHook, realloc: ReallocHook, free: FreeHook) -> tuple:
    fields = dict(_lib.llmm_allocator._fields_)

    def c_alloc(user: Any, size: int) -> Optional[int]:
        try:
            return alloc(size) or None
        except Exception:
            return None

    def c_realloc(user: Any, ptr: Any, old: int, new: int) -> Optional[int]:
        try:
            return realloc(ptr, old, new) or None
        except Exception:
            return None

    def c_free(user: Any, ptr: Any, size: int) -> None:
        try:
            free(ptr, size)
        except Exception:
            pass

    return (fields["alloc"](c_alloc), fields["realloc"](c_realloc), fields["free"](c_free))


H = TypeVar("H", bound="Handle")


class Handle(Closing):
    """Base class of every object that owns a C handle.

    Gives each object ``close()`` (idempotent), ``closed``, the context-manager protocol,
    release on garbage collection, and a lock: the C handles are single-writer, and ctypes
    releases the GIL during calls, so every call on one object is serialised by its lock.
    Instances pass straight to the low-level functions (``_as_parameter_``).
    """

    #: the C function that frees this kind of handle (a staticmethod), set by each subclass
    _c_free: Callable[[Any], None]

    def _init_handle(self, ptr: Any, context: Optional[Context]) -> None:
        self._lock = threading.Lock()
        self._ptr = ptr
        # the handle as an int, 0 once closed: what the batch calls pass (``batch_prototype``
        # types it void *; an int converts faster than the pointer object)
        self._address: int = ctypes.c_void_p.from_buffer(ptr).value or 0
        self._context = context

    def _init_new(self, context: Optional[Context], c_type: Any, call: str,
                  make: Callable[[Any, Any], int], detail: str = "") -> None:
        """Run a C constructor ``make(ctx_ptr, byref(out))`` and own the handle it returns.

        :param context: the context the new object is made with (None: default)
        :param c_type: the ctypes class of the handle (``_lib.llmm_sketch``, ...)
        :param call: the C constructor's name, for error messages
        :param make: calls the constructor with the context pointer and the out-pointer
        :param detail: argument description for error messages
        :raises LlmmError: the constructor failed (nothing is leaked)
        """
        ctx_ptr = None if context is None else context._acquire()
        out = ctypes.POINTER(c_type)()
        try:
            check(make(ctx_ptr, ctypes.byref(out)), call, detail)
        except BaseException:
            if context is not None:
                context._release()
            raise
        self._init_handle(out, context)

    @classmethod
    def _new_from(cls: Type[H], context: Optional[Context], c_type: Any, call: str,
                  make: Callable[[Any, Any], int], detail: str = "") -> H:
        """Like :meth:`_init_new` for a new instance made without calling ``__init__``
        (clones, decoded objects)."""
        obj = cls.__new__(cls)
        obj._init_new(context, c_type, call, make, detail)
        return obj

    def _call(self, fn: Callable[..., int], *args: Any, detail: str = "") -> None:
        """``fn(handle, *args)`` under the object's lock; raises for a failing status, naming
        ``fn`` and ``detail``."""
        with self._lock:
            st = fn(self._live(), *args)
        check(st, fn.__name__, detail)

    def _live(self) -> Any:
        """The C handle; ValueError once closed. Call with the object's lock held."""
        ptr = self._ptr
        if not ptr:
            raise ValueError("llmmetrics.%s is closed" % type(self).__name__)
        return ptr

    @property
    def _as_parameter_(self) -> Any:
        return self._live()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return not getattr(self, "_ptr", None)

    @property
    def context(self) -> Optional[Context]:
        """The context this object was made with (None: the default allocator)."""
        return self._context

    def close(self) -> None:
        """Free the C object now. Idempotent; any later use raises ``ValueError``."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            ptr, self._ptr = self._ptr, None
            self._address = 0
            if ptr:
                type(self)._c_free(ptr)
                if self._context is not None:
                    self._context._release()
