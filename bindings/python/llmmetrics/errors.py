"""Exceptions: one ``LlmmError`` subclass per ``llmm_status`` error code.

Every exception carries the numeric status (``status``), its symbolic name from
``llmm_status_name`` (``name``), the library's message from ``llmm_strerror`` (``message``) and
the C call that failed (``call``). Each subclass also derives from the closest built-in
exception, so generic handlers work: ``except ValueError`` catches a NaN passed to
``Sketch.add``, ``except MemoryError`` an allocation failure.
"""

from __future__ import annotations

import enum
from typing import Dict, Optional, Type

from . import _lib

__all__ = [
    "Status",
    "LlmmError",
    "InvalidArgument",
    "OutOfMemory",
    "OutOfRange",
    "Empty",
    "Corrupt",
    "UnsupportedVersion",
    "BufferTooSmall",
    "UnknownOption",
    "InvalidState",
    "NotConverged",
    "AbiMismatch",
    "check",
    "error_for",
]


class Status(enum.IntEnum):
    """The ``llmm_status`` codes (values pinned forever by the C library)."""

    OK = 0
    E_INVALID = -1
    E_NOMEM = -2
    E_RANGE = -3
    E_EMPTY = -4
    E_CORRUPT = -5
    E_VERSION = -6
    E_BUFFER = -7
    E_UNKNOWN_OPTION = -8
    E_STATE = -9
    E_NOT_CONVERGED = -10
    E_ABI = -11


class LlmmError(Exception):
    """A libllmmetrics call returned an error status.

    :ivar status: the numeric ``llmm_status`` (negative)
    :ivar name: its symbolic name, e.g. ``"LLMM_E_INVALID"``
    :ivar message: the library's message, e.g. ``"invalid argument"``
    :ivar call: the C function that returned it, e.g. ``"llmm_sketch_add"`` (may be empty)
    :ivar detail: what the binding knows about the arguments (may be empty)
    """

    #: the status this class stands for (None for the base class)
    STATUS: Optional[int] = None

    def __init__(self, status: int, call: str = "", detail: str = "") -> None:
        self.status = int(status)
        self.name = _lib.llmm_status_name(self.status).decode("ascii", "replace")
        self.message = _lib.llmm_strerror(self.status).decode("utf-8", "replace")
        self.call = call
        self.detail = detail
        text = "%s (%d): %s" % (self.name, self.status, self.message)
        if call:
            text += " [%s]" % call
        if detail:
            text += ": " + detail
        super().__init__(text)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # pickle through the constructor: the default would pass only the formatted text
        return (type(self), (self.status, self.call, self.detail))


class InvalidArgument(LlmmError, ValueError):
    """``LLMM_E_INVALID``: bad argument (NaN, infinity, negative latency, time going
    backwards, ...)."""

    STATUS = _lib.LLMM_E_INVALID


class OutOfMemory(LlmmError, MemoryError):
    """``LLMM_E_NOMEM``: the allocator failed; nothing was changed."""

    STATUS = _lib.LLMM_E_NOMEM


class OutOfRange(LlmmError, ValueError):
    """``LLMM_E_RANGE``: a value outside a configured range, or a count that would overflow."""

    STATUS = _lib.LLMM_E_RANGE


class Empty(LlmmError, ValueError):
    """``LLMM_E_EMPTY``: no data to answer from (like ``min([])``, hence a ValueError)."""

    STATUS = _lib.LLMM_E_EMPTY


class Corrupt(LlmmError, ValueError):
    """``LLMM_E_CORRUPT``: a damaged or truncated encoding."""

    STATUS = _lib.LLMM_E_CORRUPT


class UnsupportedVersion(LlmmError, ValueError):
    """``LLMM_E_VERSION``: an encoding of a format version this library does not know."""

    STATUS = _lib.LLMM_E_VERSION


class BufferTooSmall(LlmmError, ValueError):
    """``LLMM_E_BUFFER``: a caller buffer was too small (the binding normally retries)."""

    STATUS = _lib.LLMM_E_BUFFER


class UnknownOption(LlmmError, ValueError):
    """``LLMM_E_UNKNOWN_OPTION``: an option key this object does not know."""

    STATUS = _lib.LLMM_E_UNKNOWN_OPTION


class InvalidState(LlmmError, RuntimeError):
    """``LLMM_E_STATE``: the call is not valid in the object's current state."""

    STATUS = _lib.LLMM_E_STATE


class NotConverged(LlmmError, ArithmeticError):
    """``LLMM_E_NOT_CONVERGED``: an iterative method did not converge."""

    STATUS = _lib.LLMM_E_NOT_CONVERGED


class AbiMismatch(LlmmError, RuntimeError):
    """``LLMM_E_ABI``: the library did not understand a struct's ``struct_size``."""

    STATUS = _lib.LLMM_E_ABI


_BY_STATUS: Dict[int, Type[LlmmError]] = {
    cls.STATUS: cls  # type: ignore[misc]
    for cls in (InvalidArgument, OutOfMemory, OutOfRange, Empty, Corrupt, UnsupportedVersion,
                BufferTooSmall, UnknownOption, InvalidState, NotConverged, AbiMismatch)
}


def error_for(status: int, call: str = "", detail: str = "") -> LlmmError:
    """The exception for an error status (``LlmmError`` itself for a code this binding does
    not know, e.g. one added by a newer library)."""
    return _BY_STATUS.get(int(status), LlmmError)(status, call, detail)


def check(status: int, call: str = "", detail: str = "") -> None:
    """Raise the matching ``LlmmError`` subclass unless ``status`` is ``LLMM_OK``.

    :param status: a value returned by a status-returning C function
    :param call: the C function's name, for the message
    :param detail: extra context for the message, e.g. the offending argument
    :raises LlmmError: a subclass chosen by ``status``
    """
    if status != 0:
        raise error_for(status, call, detail)
