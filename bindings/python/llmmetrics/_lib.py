"""Low-level layer: load libllmmetrics and declare every public C function for ctypes.

Every C function of the public API is an attribute of this module under its C name
(``_lib.llmm_sketch_add``), with ``argtypes`` and ``restype`` from the declaration table
``_api.py``, generated from the headers. Every enumerator and numeric or string ``#define`` is
an ``int`` / ``float`` / ``str`` attribute under its C name (``_lib.LLMM_E_INVALID``,
``_lib.LLMM_SCALE_DEFAULT``), every struct and opaque handle type a ctypes class under its C
name (``_lib.llmm_allocator``, ``_lib.llmm_sketch``). Status-returning functions return the
plain ``int`` status: this layer mirrors C exactly and never raises for a status;
``llmmetrics.errors.check`` turns a status into an exception.

Loading order (the first that loads wins):

1. the path in ``$LLMMETRICS_LIBRARY``;
2. the library bundled with an installed package (``pip install .``: the file that
   ``_bundle.LIBRARY`` names, next to this module), by path, so that no other copy on the
   loader's path can win;
3. the soname ``libllmmetrics.so.1`` through the dynamic loader's search path;
4. whatever ``ctypes.util.find_library('llmmetrics')`` finds.

If none loads, one ``ImportError`` lists every attempt and why it failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from . import _api

__all__ = ["lib", "library_path", "SONAME", "FUNCTIONS", "MISSING", "ctype_of", "as_u8_ptr"]

#: the soname this binding is written for: major version 1
SONAME = "libllmmetrics.so.1"
_ABI_MAJOR = 1
ENV_VAR = "LLMMETRICS_LIBRARY"


def _bundled_path() -> Optional[str]:
    """The library installed inside this package (``_bundle.py`` is written at install), or
    None in a source tree."""
    try:
        from ._bundle import LIBRARY
    except ImportError:
        return None
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY)


def _candidates() -> Iterator[Tuple[str, Optional[str]]]:
    """(what to report, what to load or None) in the loading order; find_library (which runs
    other programs) only if everything before it failed."""
    env = os.environ.get(ENV_VAR)
    yield ("$%s=%r" % (ENV_VAR, env) if env else "$%s: not set" % ENV_VAR), env or None
    bundled = _bundled_path()
    yield ("bundled library %r" % bundled if bundled
           else "bundled library: none (not an installed package)"), bundled
    yield "soname %r" % SONAME, SONAME
    found = ctypes.util.find_library("llmmetrics")
    yield ("ctypes.util.find_library('llmmetrics') -> %r" % found if found
           else "ctypes.util.find_library('llmmetrics'): found nothing"), found


def _load() -> Tuple[ctypes.CDLL, str]:
    """Load the shared library in the documented order; ImportError listing every attempt."""
    tried: List[str] = []
    for what, path in _candidates():
        if path is None:
            tried.append(what)
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s: %s" % (what, e))
            if what.startswith("$"):  # $LLMMETRICS_LIBRARY is set but names no library
                warnings.warn("llmmetrics: %s could not be loaded (%s); trying the others"
                              % (what, e), RuntimeWarning, stacklevel=3)
    raise ImportError("llmmetrics: cannot load the libllmmetrics shared library; tried:\n  "
                      + "\n  ".join(tried)
                      + "\nInstall libllmmetrics or set $%s to the path of %s."
                      % (ENV_VAR, SONAME))


lib, library_path = _load()

#: C name -> (return type, parameter types) of every bound function (``_api.py`` types)
FUNCTIONS: Dict[str, Tuple[Any, Tuple[Any, ...]]] = _api.FUNCTIONS

_TYPES: Dict[str, Any] = {
    "void": None,
    "char": ctypes.c_char,
    "int": ctypes.c_int,
    "unsigned int": ctypes.c_uint,
    "int8_t": ctypes.c_int8,
    "uint8_t": ctypes.c_uint8,
    "int16_t": ctypes.c_int16,
    "uint16_t": ctypes.c_uint16,
    "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "double": ctypes.c_double,
    "float": ctypes.c_float,
}


def ctype_of(t: Any) -> Any:
    """The ctypes type of a type of the declaration table (``_api.py``): ``("*", "llmm_sketch")``
    -> ``POINTER(llmm_sketch)``.

    A pointer to ``char`` (const or not) is ``c_char_p`` and a pointer to ``void``
    ``c_void_p``; every enum is a C ``int``; a pointer to a function type is a ``CFUNCTYPE``
    prototype; an array of N ``T`` is ``T * N``.
    """
    if isinstance(t, str):
        try:
            return _TYPES[t]
        except KeyError:
            raise TypeError("llmmetrics: no ctypes mapping for C type %r" % (t,)) from None
    op = t[0]
    if op == "const":
        return ctype_of(t[1])
    if op == "[]":
        return ctype_of(t[1]) * t[2]
    if op == "fn":
        return ctypes.CFUNCTYPE(ctype_of(t[1]), *[ctype_of(a) for a in t[2]])
    target = t[1][1] if t[1][0] == "const" else t[1]
    if target == "char":
        return ctypes.c_char_p
    if target == "void":
        return ctypes.c_void_p
    if target[0] == "fn":
        return ctype_of(target)
    return ctypes.POINTER(ctype_of(target))


def _define_types() -> None:
    g = globals()
    for name in _api.ENUMS:
        _TYPES[name] = ctypes.c_int  # every public enum is int-sized by contract
        g.update(_api.ENUMS[name])
    for name in _api.STRUCTS:
        _TYPES[name] = g[name] = type(name, (ctypes.Structure,), {
            "__module__": __name__, "__doc__": "C type ``%s``." % name})
    for name, fields in _api.STRUCTS.items():
        if fields is not None:
            g[name]._fields_ = [(f, ctype_of(t)) for f, t in fields]
    for name, t in _api.TYPEDEFS.items():
        _TYPES[name] = g[name] = ctype_of(t)
    g.update(_api.CONSTANTS)


def _loaded_version() -> str:
    return str(lib.llmm_version_string().decode())


def _missing_stub(name: str) -> Callable[..., Any]:
    def stub(*args: Any) -> Any:
        raise NotImplementedError("llmmetrics: %s is not exported by the loaded library %s "
                                  "(version %s)" % (name, library_path, _loaded_version()))
    stub.__name__ = name
    return stub


#: names of declared functions that the loaded library does not export (empty when the
#: library is at least as new as the binding)
MISSING: frozenset = frozenset()


def _bind_functions() -> None:
    global MISSING
    g = globals()
    missing = set()
    for name, (restype, params) in FUNCTIONS.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.add(name)
            g[name] = _missing_stub(name)
            continue
        fn.restype = ctype_of(restype)
        fn.argtypes = [ctype_of(p) for p in params]
        g[name] = fn
    MISSING = frozenset(missing)


_define_types()
_bind_functions()


_loaded_major = int(lib.llmm_version()) // 10000
if _loaded_major != _ABI_MAJOR:
    raise ImportError("llmmetrics: %s is libllmmetrics %s, but this binding needs major version %d"
                      % (library_path, _loaded_version(), _ABI_MAJOR))


def as_u8_ptr(data: bytes) -> Any:
    """A ``const uint8_t *`` pointing into ``data`` without copying (keep ``data`` alive)."""
    return ctypes.cast(ctypes.c_char_p(data), ctypes.POINTER(ctypes.c_uint8))
