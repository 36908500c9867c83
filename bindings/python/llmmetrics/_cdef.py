"""Render parsed declarations as a cffi ``cdef`` (ABI mode).

The text is generated from the same declarations the ctypes layer is built from, so the two
never disagree. Floating-point ``#define``\\ s are left out (cffi's ``cdef`` accepts integer
constants only); they are attributes of ``llmmetrics._lib`` instead.
"""

from __future__ import annotations

import re
from typing import List

from ._cparse import Decls, Param

__all__ = ["render_cdef", "declarator"]


def declarator(p: Param, decls: Decls) -> str:
    """C text declaring ``p.name`` with type ``p.type`` (function pointers; arrays get their
    dimension as a number, which cffi needs)."""
    m = re.match(r"^(.*) \[(\w+)\]$", p.type)
    if m:
        dim = m.group(2)
        n = int(dim) if dim.isdigit() else decls.defines[dim]
        return "%s[%d]" % (declarator(Param(m.group(1), p.name), decls), n)
    if "(*)" in p.type:
        return p.type.replace("(*)", "(*%s)" % p.name, 1)
    if not p.name:
        return p.type
    return p.type + p.name if p.type.endswith("*") else "%s %s" % (p.type, p.name)


def render_cdef(decls: Decls) -> str:
    """The whole cdef: integer constants, types in declaration order, then every prototype."""
    out: List[str] = []
    for name, value in decls.defines.items():
        if isinstance(value, int):
            out.append("#define %s %d" % (name, value))
    for kind, name in decls.order:
        if kind == "enum":
            body = ",\n".join("    %s = %d" % kv for kv in decls.enums[name].values)
            out.append("typedef enum %s {\n%s\n} %s;" % (name, body, name))
        elif kind == "struct":
            fields = decls.structs[name].fields
            if fields is None:
                out.append("typedef struct %s %s;" % (name, name))
            else:
                body = "".join("    %s;\n" % declarator(f, decls) for f in fields)
                out.append("typedef struct %s {\n%s} %s;" % (name, body, name))
        else:
            out.append("typedef %s;" % declarator(Param(decls.typedefs[name].type, name), decls))
    for fn in decls.functions.values():
        args = ", ".join(declarator(p, decls) for p in fn.params) or "void"
        out.append("%s;" % declarator(Param(fn.restype, "%s(%s)" % (fn.name, args)), decls))
    return "\n".join(out) + "\n"
