"""Typed option setters shared by the detectors and alerters.

The C objects take options through ``x_set_f64`` / ``x_set_u64`` keyed by an enum, each key
having one type. These helpers pick the setter by the key and apply keyword options in a
fixed order.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, FrozenSet, Iterable, Mapping, Optional, Type, Union

from ._args import int32, real, uint64
from .context import Handle
from .errors import check

__all__ = ["set_typed", "get_typed", "apply_kwargs", "check_kwargs"]


def set_typed(obj: Handle, key: int, value: Any, f64_keys: FrozenSet[int],
              set_f64: Callable[..., int], set_u64: Optional[Callable[..., int]],
              what: str) -> None:
    """Set option ``key`` of ``obj`` through the f64 or the u64 setter, as the key's type
    says (keys not in ``f64_keys`` are u64; with no u64 setter every key is f64)."""
    k = int32(key, "option")
    with obj._lock:
        if k in f64_keys or set_u64 is None:
            st = set_f64(obj._live(), k, real(value))
        else:
            st = set_u64(obj._live(), k, uint64(value, "value", what))
    check(st, what, "option %r = %r" % (key, value))


def get_typed(obj: Handle, key: int, f64_keys: FrozenSet[int], get_f64: Callable[..., int],
              get_u64: Optional[Callable[..., int]], what: str) -> Union[float, int]:
    """Read option ``key`` of ``obj`` (float for f64 keys, int for u64 keys)."""
    k = int32(key, "option")
    with obj._lock:
        if k in f64_keys or get_u64 is None:
            f = ctypes.c_double()
            st = get_f64(obj._live(), k, ctypes.byref(f))
            value: Union[float, int] = f.value
        else:
            u = ctypes.c_uint64()
            st = get_u64(obj._live(), k, ctypes.byref(u))
            value = u.value
    check(st, what, "option %r" % (key,))
    return value


def check_kwargs(cls_name: str, enum_cls: Type[Any], options: Mapping[str, Any]) -> None:
    """TypeError for keyword options that name no member of ``enum_cls`` (lower-case)."""
    unknown = set(options) - {m.name.lower() for m in enum_cls}
    if unknown:
        raise TypeError("llmmetrics.%s: unknown option(s) %s"
                        % (cls_name, ", ".join(sorted(unknown))))


def apply_kwargs(setter: Callable[[Any, Any], None], enum_cls: Type[Any],
                 options: Mapping[str, Any], order: Optional[Iterable[Any]] = None) -> None:
    """Call ``setter(member, value)`` for every option given (not None), in ``order`` (default:
    the enum's order)."""
    for member in (order if order is not None else enum_cls):
        value = options.get(member.name.lower())
        if value is not None:
            setter(member, value)
