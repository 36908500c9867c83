"""Low-level layer: load libllmmetrics and declare every public C function for ctypes.

Every C function of the public API is an attribute of this module under its C name
(``_lib.llmm_sketch_add``), with ``argtypes`` and ``restype`` derived from the C declarations
in ``_decls.py``. Every enumerator and numeric ``#define`` is an ``int`` / ``float`` attribute
under its C name (``_lib.LLMM_E_INVALID``, ``_lib.LLMM_SCALE_DEFAULT``), every struct and
opaque handle type a ctypes class under its C name (``_lib.llmm_allocator``,
``_lib.llmm_sketch``). Status-returning functions return the plain ``int`` status: this layer
mirrors C exactly and never raises for a status; ``llmmetrics.errors.check`` turns a status into
an exception.

Loading order (the first that loads wins):

1. the path in ``$LLMMETRICS_LIBRARY``;
2. the soname ``libllmmetrics.so.1`` through the dynamic loader's search path;
3. whatever ``ctypes.util.find_library('llmmetrics')`` finds.

If none loads, one ``ImportError`` lists every attempt and why it failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import warnings
from typing import Any, Callable, Dict, List, Tuple

from . import _cparse
from ._decls import MODULES

__all__ = ["lib", "library_path", "SONAME", "DECLS", "FUNCTIONS", "MISSING", "ctype_of",
           "as_u8_ptr"]

#: the soname this binding is written for: major version 1
SONAME = "libllmmetrics.so.1"
_ABI_MAJOR = 1
ENV_VAR = "LLMMETRICS_LIBRARY"


def _load() -> Tuple[ctypes.CDLL, str]:
    """Load the shared library in the documented order; ImportError listing every attempt."""
    tried: List[str] = []
    env = os.environ.get(ENV_VAR)
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            tried.append("$%s=%r: %s" % (ENV_VAR, env, e))
            warnings.warn("llmmetrics: $%s=%r could not be loaded (%s); trying the soname"
                          % (ENV_VAR, env, e), RuntimeWarning, stacklevel=3)
    else:
        tried.append("$%s: not set" % ENV_VAR)
    try:
        return ctypes.CDLL(SONAME), SONAME
    except OSError as e:
        tried.append("soname %r: %s" % (SONAME, e))
    found = ctypes.util.find_library("llmmetrics")
    if found is None:
        tried.append("ctypes.util.find_library('llmmetrics'): found nothing")
    else:
        try:
            return ctypes.CDLL(found), found
        except OSError as e:
            tried.append("ctypes.util.find_library('llmmetrics') -> %r: %s" % (found, e))
    raise ImportError("llmmetrics: cannot load the libllmmetrics shared library; tried:\n  "
                      + "\n  ".join(tried)
                      + "\nInstall libllmmetrics or set $%s to the path of %s."
                      % (ENV_VAR, SONAME))


lib, library_path = _load()

#: every declaration of the binding (all modules), parsed from ``_decls.py``
DECLS = _cparse.Decls()
for _text in MODULES.values():
    DECLS.update(_cparse.parse(_text))
#: C name -> parsed prototype, for every bound function
FUNCTIONS: Dict[str, _cparse.Function] = dict(DECLS.functions)

_BASE: Dict[str, Any] = {
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
_TYPES: Dict[str, Any] = dict(_BASE)
_ARRAY_RE = re.compile(r"^(.*) \[(\w+)\]$")
_FUNCPTR_RE = re.compile(r"^(.*?)\s*\(\*\)\((.*)\)$")


def ctype_of(ctype: str) -> Any:
    """The ctypes type for a normalised C type string such as ``const llmm_sketch *``.

    ``char *`` (const or not) maps to ``c_char_p`` and ``void *`` to ``c_void_p``; every enum is
    a C ``int``; function-pointer types become ``CFUNCTYPE`` prototypes; ``T [N]`` (a struct
    member array) becomes ``T * N``.
    """
    m = _ARRAY_RE.match(ctype)
    if m:
        dim = m.group(2)
        n = int(dim) if dim.isdigit() else DECLS.defines.get(dim)
        if not isinstance(n, int):
            raise TypeError("llmmetrics: array dimension %r is not an integer constant" % dim)
        return ctype_of(m.group(1)) * n
    t = _cparse.normalize_type(re.sub(r"\bconst\b", "", ctype))
    m = _FUNCPTR_RE.match(t)
    if m:
        args = [] if m.group(2) in ("", "void") else [a.strip() for a in m.group(2).split(",")]
        return ctypes.CFUNCTYPE(ctype_of(m.group(1)), *[ctype_of(a) for a in args])
    stars = len(t) - len(t.rstrip("*"))
    base = t.rstrip("*").strip()
    if stars and base == "char":
        stars, result = stars - 1, ctypes.c_char_p
    elif stars and base == "void":
        stars, result = stars - 1, ctypes.c_void_p
    elif base in _TYPES:
        result = _TYPES[base]
    else:
        raise TypeError("llmmetrics: no ctypes mapping for C type %r" % ctype)
    for _ in range(stars):
        result = ctypes.POINTER(result)
    return result


def _define_types() -> None:
    g = globals()
    for kind, name in DECLS.order:
        if kind == "enum":
            _TYPES[name] = ctypes.c_int  # every public enum is int-sized by contract
            for enumerator, value in DECLS.enums[name].values:
                g[enumerator] = value
        elif kind == "struct":
            cls = type(name, (ctypes.Structure,), {"__module__": __name__,
                                                   "__doc__": "C type ``%s``." % name})
            _TYPES[name] = cls
            g[name] = cls
            fields = DECLS.structs[name].fields
            if fields is not None:
                cls._fields_ = [(p.name, ctype_of(p.type)) for p in fields]
        else:
            _TYPES[name] = ctype_of(DECLS.typedefs[name].type)
            g[name] = _TYPES[name]
    for name, value in DECLS.defines.items():
        g[name] = value


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
    for name, proto in FUNCTIONS.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.add(name)
            g[name] = _missing_stub(name)
            continue
        fn.restype = ctype_of(proto.restype)
        fn.argtypes = [ctype_of(p.type) for p in proto.params]
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
