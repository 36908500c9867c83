"""Caller-sized structs: the binding's own definition, initialised by the library.

A C struct that starts with ``uint32_t struct_size`` is sized by its caller (doc/abi.md): the
binding passes ``ctypes.sizeof`` of its own ctypes definition to ``llmm_struct_init``, which
writes that many bytes of defaults. A library newer than the binding accepts the binding's
(older, smaller) size; an older library refuses a newer binding's size with ``AbiMismatch``.
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any

from . import _api, _lib
from .errors import check

__all__ = ["StructKind", "new_struct", "struct_kind"]


#: The caller-sized C structs (``llmm_struct_kind``): ``LLMM_STRUCT_`` + the struct's C name
#: without ``llmm_``, in capitals (the members come from the headers, ``_api.py``).
StructKind = enum.IntEnum("StructKind", [(name[len("LLMM_STRUCT_"):], value) for name, value
                                         in _api.ENUMS["llmm_struct_kind"]], module=__name__)
StructKind.__doc__ = """The caller-sized C structs (``llmm_struct_kind``): ``LLMM_STRUCT_`` + the
struct's C name without ``llmm_``, in capitals."""


def struct_kind(cls: Any) -> StructKind:
    """The kind of a ctypes struct class, from its C name (``llmm_slo_result`` ->
    ``StructKind.SLO_RESULT``)."""
    return StructKind[cls.__name__[len("llmm_"):].upper()]


def new_struct(cls: Any) -> Any:
    """A new ``cls`` with the library's defaults and ``struct_size = ctypes.sizeof(cls)``.

    :raises AbiMismatch: the loaded library does not know this struct or this size of it
    """
    s = cls()
    check(_lib.llmm_struct_init(struct_kind(cls), ctypes.byref(s), ctypes.sizeof(s)),
          "llmm_struct_init", cls.__name__)
    return s
