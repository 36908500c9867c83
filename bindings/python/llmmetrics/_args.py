"""Argument conversion shared by the Pythonic classes.

ctypes silently wraps integers that do not fit a C integer type (``c_int32(2**32 + 6)`` is 6,
``c_uint64(-1)`` is 2^64 − 1) and rejects numpy scalars for ``double``. These helpers convert
explicitly and raise the same ``LlmmError`` subclasses the C library would.
"""

from __future__ import annotations

import operator
from typing import Any, Optional

from . import _lib
from .errors import error_for

__all__ = ["real", "int32", "uint32", "uint64", "int64", "opt_real"]


def real(value: Any, name: str = "value", call: str = "") -> float:
    """``value`` as a Python float (ints, floats, numpy scalars, Fractions...).

    :raises TypeError: for text, bytes or objects without ``__float__``
    """
    if type(value) is float:
        return value
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError("llmmetrics: %s must be a real number, not %s"
                        % (name, type(value).__name__))
    try:
        return float(value)
    except TypeError:
        raise TypeError("llmmetrics: %s must be a real number, not %s"
                        % (name, type(value).__name__)) from None


def opt_real(value: Any, name: str = "value", call: str = "") -> Optional[float]:
    """None stays None, anything else as :func:`real`."""
    return None if value is None else real(value, name, call)


def _integer(value: Any, name: str, lo: int, hi: int, call: str) -> int:
    if isinstance(value, float):
        if not value.is_integer():
            raise TypeError("llmmetrics: %s must be an integer, not %r" % (name, value))
        value = int(value)
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("llmmetrics: %s must be an integer, not %s"
                        % (name, type(value).__name__)) from None
    if v < lo:
        status = _lib.LLMM_E_INVALID
        raise error_for(status, call, "%s = %d is below %d" % (name, v, lo))
    if v > hi:
        status = _lib.LLMM_E_RANGE if lo == 0 else _lib.LLMM_E_INVALID
        raise error_for(status, call, "%s = %d is above %d" % (name, v, hi))
    return v


def int32(value: Any, name: str = "value", call: str = "") -> int:
    """An ``int32_t`` argument; out of range raises InvalidArgument."""
    return _integer(value, name, -2 ** 31, 2 ** 31 - 1, call)


def uint32(value: Any, name: str = "value", call: str = "") -> int:
    """A ``uint32_t`` argument; negative raises InvalidArgument, too large OutOfRange."""
    return _integer(value, name, 0, 2 ** 32 - 1, call)


def int64(value: Any, name: str = "value", call: str = "") -> int:
    """An ``int64_t`` argument; out of range raises InvalidArgument."""
    return _integer(value, name, -2 ** 63, 2 ** 63 - 1, call)


def uint64(value: Any, name: str = "value", call: str = "") -> int:
    """A ``uint64_t`` argument; negative raises InvalidArgument, too large OutOfRange."""
    return _integer(value, name, 0, 2 ** 64 - 1, call)
