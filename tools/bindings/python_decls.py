"""The Python binding's declaration table, bindings/python/llmmetrics/_api.py: every constant,
enum, struct and function of the public headers as plain Python data, from which
llmmetrics/_lib.py declares everything to ctypes and llmmetrics/_cdef.py writes the cffi cdef.

A type is a C type name ("double", "uint32_t", "llmm_sketch") or a tuple: ("*", T) a pointer
to T, ("const", T), ("[]", T, N) an array of N, ("fn", R, (A, ...)) a function type.
"""

from __future__ import annotations

from typing import List

import common
from common import Api, ModelError, Type

PATH = "bindings/python/llmmetrics/_api.py"

DOC = '''"""The libllmmetrics public API as data: what ``_lib.py`` declares to ctypes and
``_cdef.py`` writes the cffi cdef from.

A type is a C type name (``"double"``, ``"uint32_t"``, ``"llmm_sketch"``) or a tuple:
``("*", T)`` a pointer to T, ``("const", T)``, ``("[]", T, N)`` an array of N,
``("fn", R, (A, ...))`` a function type. Enums are C ``int``.
"""
'''


def encode(t: Type) -> object:
    """The table's form of a model type."""
    if t.kind == "name":
        return common.type_name(t.name)
    if t.kind == "const":
        return ("const", encode(t.target))
    if t.kind == "pointer":
        return ("*", encode(t.target))
    if t.kind == "array":
        return ("[]", encode(t.target), t.length)
    if t.kind == "function":
        return ("fn", encode(t.returns), tuple(encode(p) for p in t.params))
    raise ModelError("type %s has no Python form" % t.spelling())


def render(api: Api) -> str:
    consts: List[str] = []
    enums: List[str] = []
    structs: List[str] = []
    typedefs: List[str] = []
    funcs: List[str] = []
    for header in common.headers(api):
        for kind, d in common.in_header(api, header):
            if kind == "constant":
                consts.append("    %r: %r,\n" % (d.name, d.value))
            elif kind == "enum":
                enums.append("    %r: %r,\n" % (d.name, tuple(common.enumerators(d))))
            elif kind == "struct":
                fields = None if d.opaque else tuple((f.name, encode(f.type)) for f in d.fields)
                structs.append("    %r: %r,\n" % (d.name, fields))
            elif kind == "typedef":
                typedefs.append("    %r: %r,\n" % (d.name, encode(d.type)))
            elif kind == "function":
                sig = (encode(d.returns), tuple(encode(p.type) for p in d.params))
                funcs.append("    %r: %r,\n" % (d.name, sig))
    out = [common.banner("#", "llmmetrics/_api.py: the declaration table"), DOC, "\n"]
    for name, doc, rows in (
            ("CONSTANTS", "name -> value (int, float or str) of every numeric and string "
                          "#define", consts),
            ("ENUMS", "enum -> its public enumerators, (name, value) in declaration order",
             enums),
            ("STRUCTS", "struct -> its fields, (name, type) in order; None for an opaque "
                        "handle", structs),
            ("TYPEDEFS", "other type names -> the type they stand for", typedefs),
            ("FUNCTIONS", "function -> (return type, parameter types)", funcs)):
        out.append("#: %s\n%s = {\n%s}\n" % (doc, name, "".join(rows)))
    return "".join(out[:3]) + "\n".join(out[3:])
