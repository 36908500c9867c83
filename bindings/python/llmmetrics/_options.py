"""Options of the detectors, gates, monitors, alerters and the scorecard, as the library lists
them (``llmm_option_describe``).

The library holds one table per object kind: each option's key, name, type, bounds, default
and whether it may change once the object holds data. :func:`options` returns that table;
:class:`OptionCalls` picks an object's typed C setter and getter (``x_set_f64`` /
``x_set_u64`` / ``x_set_i32``) by the type the table gives, so no option type, bound or
default is restated in Python.
"""

from __future__ import annotations

import ctypes
import enum
import functools
from typing import Any, Callable, Iterable, List, Mapping, NamedTuple, Optional, Tuple
from typing import Type, Union

from . import _lib
from ._args import int32, real, uint64
from ._structs import new_struct
from .context import Handle
from .errors import check

__all__ = ["ObjectKind", "OptionType", "OptionInfo", "options", "OptionCalls", "check_kwargs",
           "apply_kwargs", "option_property"]


class ObjectKind(enum.IntEnum):
    """The object kinds that have options (``llmm_object_kind``)."""

    SPIKE = 1          #: :class:`SpikeDetector`
    COLLAPSE = 2       #: :class:`CollapseDetector`
    STABILITY = 3      #: :class:`StabilityGate`
    SATURATION = 4     #: :class:`SaturationSignal`
    LII_MONITOR = 5    #: :class:`LiiMonitor`
    SCORECARD = 6      #: :class:`Scorecard`
    GOODPUT = 7        #: :class:`Goodput`
    BURN = 8           #: :class:`BurnAlerter`
    ERROR_TRIGGER = 9  #: :class:`ErrorTrigger`
    HOST_SAMPLER = 10  #: :class:`HostSampler`


class OptionType(enum.IntEnum):
    """The type of an option (``llmm_option_type``): which C setter takes it."""

    F64 = 1  #: a float (``x_set_f64``)
    U64 = 2  #: an unsigned 64-bit integer (``x_set_u64``)
    I32 = 3  #: a signed 32-bit integer (``x_set_i32``)


Number = Union[float, int]


class OptionInfo(NamedTuple):
    """One option of an object kind, as the library lists it (``llmm_option_info``)."""

    name: str                 #: stable lower-case name, also the keyword of the constructor
    key: int                  #: the C enumerator (the value of the class's ``...Option`` enum)
    type: OptionType
    min: Number               #: smallest value (float for F64, exact int otherwise)
    max: Number               #: largest value (may be ``math.inf``)
    default: Optional[Number]  #: value of a new object; None when a constructor argument sets it
    min_exclusive: bool       #: the minimum itself is refused
    max_exclusive: bool       #: the maximum itself is refused
    fixed_once_started: bool  #: only while the object holds no data
    cross_checked: bool       #: also constrained by another option or by construction


_FIELDS = {OptionType.F64: ("min_f64", "max_f64", "default_f64"),
           OptionType.U64: ("min_u64", "max_u64", "default_u64"),
           OptionType.I32: ("min_i32", "max_i32", "default_i32")}


def _kind(kind: Union[ObjectKind, str, int]) -> ObjectKind:
    if isinstance(kind, str):
        try:
            return ObjectKind[kind.upper()]
        except KeyError:
            raise ValueError("llmmetrics: no object kind %r (one of %s)"
                             % (kind, ", ".join(k.name.lower() for k in ObjectKind))) from None
    return ObjectKind(int32(kind, "kind"))


def _info(d: Any) -> OptionInfo:
    t = OptionType(d.type)
    lo, hi, default = (getattr(d, f) for f in _FIELDS[t])
    return OptionInfo(d.name.decode("ascii"), d.key, t, lo, hi,
                      default if d.has_default else None, bool(d.min_exclusive),
                      bool(d.max_exclusive), bool(d.fixed_once_started), bool(d.cross_checked))


@functools.lru_cache(maxsize=None)
def _listing(kind: ObjectKind) -> Tuple[OptionInfo, ...]:
    out = []
    while True:
        d = new_struct(_lib.llmm_option_info)
        st = _lib.llmm_option_describe(int(kind), len(out), ctypes.byref(d))
        if st == _lib.LLMM_E_RANGE:
            return tuple(out)
        check(st, "llmm_option_describe", "kind=%s index=%d" % (kind.name, len(out)))
        out.append(_info(d))


def options(kind: Union[ObjectKind, str, int]) -> List[OptionInfo]:
    """The options of an object kind, in key order: ``llmmetrics.options("spike")``.

    :param kind: an :class:`ObjectKind`, or its lower-case name (``"spike"``,
                 ``"lii_monitor"``, ``"error_trigger"`` ...)
    :raises ValueError: a kind this binding does not know
    """
    return list(_listing(_kind(kind)))


class OptionCalls:
    """The typed option calls of one object kind (``llmm_spike_set_f64`` ...), each picked for
    a key by the type the library lists for it.

    :param kind: the object kind
    :param calls: the kind's ``_lib`` setters and getters, in any order
    """

    def __init__(self, kind: ObjectKind, *calls: Callable[..., int]) -> None:
        self.kind = kind
        #: (verb, type) -> (C name, function): ("set", OptionType.F64) -> llmm_spike_set_f64
        self.calls = {(c.__name__.split("_")[-2], OptionType[c.__name__.split("_")[-1].upper()]):
                      (c.__name__, c) for c in calls}

    def info(self, key: int) -> Optional[OptionInfo]:
        """The listing entry of ``key``, or None for a key the kind does not have."""
        for o in _listing(self.kind):
            if o.key == key:
                return o
        return None

    def _type(self, key: int) -> OptionType:
        o = self.info(key)
        # a key the kind lacks goes to a setter the kind has, which reports UnknownOption
        return o.type if o is not None else _listing(self.kind)[0].type

    def _call(self, verb: str, t: OptionType) -> Tuple[str, Callable[..., int]]:
        return self.calls[verb, t]

    def set(self, obj: Handle, key: Any, value: Any) -> None:
        """Set option ``key`` of ``obj`` through the setter of its type."""
        k = int32(key, "option")
        t = self._type(k)
        name, fn = self._call("set", t)
        v = real(value) if t is OptionType.F64 else (
            uint64(value, "value", name) if t is OptionType.U64 else int32(value, "value", name))
        with obj._lock:
            st = fn(obj._live(), k, v)
        check(st, name, "option %r = %r" % (key, value))

    def get(self, obj: Handle, key: Any) -> Number:
        """Read option ``key`` of ``obj`` (a float for F64 options, an int otherwise)."""
        k = int32(key, "option")
        t = self._type(k)
        name, fn = self._call("get", t)
        out = {OptionType.F64: ctypes.c_double, OptionType.U64: ctypes.c_uint64,
               OptionType.I32: ctypes.c_int32}[t]()
        with obj._lock:
            st = fn(obj._live(), k, ctypes.byref(out))
        check(st, name, "option %r" % (key,))
        return out.value

    def apply_kwargs(self, obj: Handle, enum_cls: Type[Any], given: Mapping[str, Any]) -> None:
        """Set every keyword option given (not None) on ``obj``, just made: the options fixed
        once the object holds data first, then the others, each group in key order. On any
        failure ``obj`` is closed and the error raised."""
        listing = sorted(_listing(self.kind), key=lambda o: not o.fixed_once_started)
        try:
            apply_kwargs(lambda m, v: self.set(obj, m, v), enum_cls, given,
                         [enum_cls(o.key) for o in listing])
        except BaseException:
            obj.close()
            raise


def check_kwargs(cls_name: str, enum_cls: Type[Any], given: Mapping[str, Any]) -> None:
    """TypeError for keyword options that name no member of ``enum_cls`` (lower-case)."""
    unknown = set(given) - {m.name.lower() for m in enum_cls}
    if unknown:
        raise TypeError("llmmetrics.%s: unknown option(s) %s"
                        % (cls_name, ", ".join(sorted(unknown))))


def apply_kwargs(setter: Callable[[Any, Any], None], enum_cls: Type[Any],
                 given: Mapping[str, Any], order: Optional[Iterable[Any]] = None) -> None:
    """Call ``setter(member, value)`` for every option given (not None), in ``order`` (default:
    the enum's order)."""
    for member in (order if order is not None else enum_cls):
        value = given.get(member.name.lower())
        if value is not None:
            setter(member, value)


def option_property(key: Any, doc: str, kind: Callable[[Any], Any] = float,
                    settable: bool = False) -> property:
    """A property reading option ``key`` through the object's ``get`` (converted by ``kind``,
    ``float`` or ``int``) and, when ``settable``, setting it through its ``set``."""
    def fget(self: Any) -> Any:
        return kind(self.get(key))

    def fset(self: Any, value: Any) -> None:
        self.set(key, value)

    fget.__doc__ = doc
    fget.__annotations__ = {"return": kind}
    fset.__annotations__ = {"value": kind, "return": None}
    return property(fget, fset if settable else None, doc=doc)
