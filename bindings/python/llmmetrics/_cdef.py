"""The public API as a cffi ``cdef`` (ABI mode), written from the declaration table
``_api.py``, so that it says exactly what the ctypes layer declares.

Floating-point and string ``#define``\\ s are left out (cffi's ``cdef`` takes integer constants
only); they are attributes of ``llmmetrics._lib`` instead.
"""

from __future__ import annotations

from typing import Any, List

from . import _api

__all__ = ["render_cdef", "declarator"]


def declarator(t: Any, name: str = "") -> str:
    """C text declaring ``name`` (may be empty) with type ``t`` of the declaration table:
    ``declarator(("*", ("const", "double")), "v")`` is ``'const double *v'``."""
    if isinstance(t, str):
        return ("%s %s" % (t, name)).rstrip()
    op = t[0]
    if op == "const":
        if isinstance(t[1], str):
            return ("const %s %s" % (t[1], name)).rstrip()
        return declarator(t[1], ("const " + name).rstrip())
    if op == "*":
        inner = t[1]
        if not isinstance(inner, str) and inner[0] in ("fn", "[]"):
            return declarator(inner, "(*%s)" % name)
        return declarator(inner, "*" + name)
    if op == "[]":
        return declarator(t[1], "%s[%d]" % (name, t[2]))
    args = ", ".join(declarator(a) for a in t[2]) or "void"
    return declarator(t[1], "%s(%s)" % (name, args))


def render_cdef() -> str:
    """The whole cdef: integer constants, enums, structs, other typedefs, then every
    prototype."""
    out: List[str] = ["#define %s %d" % (name, value) for name, value in _api.CONSTANTS.items()
                      if isinstance(value, int)]
    for name, values in _api.ENUMS.items():
        body = ",\n".join("    %s = %d" % kv for kv in values)
        out.append("typedef enum %s {\n%s\n} %s;" % (name, body, name))
    out += ["typedef struct %s %s;" % (name, name) for name in _api.STRUCTS]
    for name, fields in _api.STRUCTS.items():
        if fields is not None:
            body = "".join("    %s;\n" % declarator(t, f) for f, t in fields)
            out.append("struct %s {\n%s};" % (name, body))
    out += ["typedef %s;" % declarator(t, name) for name, t in _api.TYPEDEFS.items()]
    out += ["%s;" % declarator(("fn", ret, params), name)
            for name, (ret, params) in _api.FUNCTIONS.items()]
    return "\n".join(out) + "\n"
