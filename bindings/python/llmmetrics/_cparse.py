"""A small parser for the subset of C that the libllmmetrics public headers use.

The binding keeps its own copy of the public API as C text (``_decls.py``). This module turns
that text, and the real headers, into one simple model, so that

* the ctypes layer (``_lib.py``) derives every ``argtypes`` / ``restype`` and every structure
  layout from the same declarations a C programmer reads,
* ``llmmetrics.cffi_cdef`` is generated from the very same model, and
* the drift test can compare the binding's declarations with the headers symbol by symbol,
  type by type.

Supported: ``#define NAME <number>`` and ``#define NAME "text"``, ``typedef struct X X;``
(opaque handles), ``typedef struct X { ... } X;`` (members may be function pointers or
one-dimensional arrays), ``typedef enum X { ... } X;``
(integer literals, implicit increments), ``typedef RET (*NAME)(ARGS);``, plain
``typedef T NAME;``, and function prototypes, optionally prefixed with ``LLMM_API``.
``#ifdef __cplusplus`` blocks are skipped. Anything else raises :class:`CParseError`, so that a
header construct the binding does not understand is noticed instead of silently ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

__all__ = [
    "CParseError",
    "Param",
    "Function",
    "Struct",
    "Enum",
    "Typedef",
    "Decls",
    "parse",
    "parse_status_list",
    "normalize_type",
]

Number = Union[int, float]
#: the value of a ``#define`` the parser keeps: a number or a plain string literal
Define = Union[int, float, str]


class CParseError(ValueError):
    """Raised for C text outside the subset this parser understands."""


@dataclass(frozen=True)
class Param:
    """A function parameter or structure member: normalised C type and (possibly empty) name."""

    type: str
    name: str = ""


@dataclass(frozen=True)
class Function:
    """A function prototype."""

    name: str
    restype: str
    params: Tuple[Param, ...]
    exported: bool = False

    def signature(self) -> str:
        """The prototype without parameter names, e.g. ``int32_t (const llmm_sketch *)``."""
        return "%s (%s)" % (self.restype, ", ".join(p.type for p in self.params) or "void")


@dataclass(frozen=True)
class Struct:
    """A structure typedef; ``fields`` is None for an opaque handle type."""

    name: str
    fields: Optional[Tuple[Param, ...]]


@dataclass(frozen=True)
class Enum:
    """An enumeration typedef with its public enumerators in declaration order."""

    name: str
    values: Tuple[Tuple[str, int], ...]


@dataclass(frozen=True)
class Typedef:
    """``typedef <type> name;``, including function-pointer typedefs."""

    name: str
    type: str


@dataclass
class Decls:
    """Everything parsed from one or more C texts, in declaration order."""

    defines: Dict[str, Define] = field(default_factory=dict)
    structs: Dict[str, Struct] = field(default_factory=dict)
    enums: Dict[str, Enum] = field(default_factory=dict)
    typedefs: Dict[str, Typedef] = field(default_factory=dict)
    functions: Dict[str, Function] = field(default_factory=dict)
    #: every type name in the order it was declared: (kind, name), kind in struct/enum/typedef
    order: List[Tuple[str, str]] = field(default_factory=list)

    def update(self, other: "Decls") -> None:
        """Add the declarations of ``other``; a name declared twice is an error."""
        for mine, theirs in ((self.defines, other.defines), (self.structs, other.structs),
                             (self.enums, other.enums), (self.typedefs, other.typedefs),
                             (self.functions, other.functions)):
            dup = set(mine) & set(theirs)
            if dup:
                raise CParseError("declared twice: %s" % ", ".join(sorted(dup)))
            mine.update(theirs)  # type: ignore[attr-defined]
        self.order.extend(other.order)


_IDENT = r"[A-Za-z_]\w*"
_NUMBER_RE = re.compile(
    r"^\(?\s*([-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))"
    r"([uUlL]*)\s*\)?$")


def _number(text: str) -> Optional[Number]:
    """The value of a C integer or floating literal (optionally parenthesised or wrapped in
    ``UINT64_C(...)`` and its kin), else None."""
    text = text.strip()
    m = re.match(r"^U?INT(8|16|32|64|MAX)_C\((.*)\)$", text)
    if m:
        text = m.group(2)
    m = _NUMBER_RE.match(text.strip())
    if not m:
        return None
    lit = m.group(1)
    if re.match(r"^[-+]?0[xX]", lit):
        return int(lit, 16)
    if re.search(r"[.eE]", lit):
        return float(lit)
    return int(lit, 10)


def normalize_type(text: str) -> str:
    """Canonical spelling of a C type: single spaces, ``T *``, ``T **``, ``R (*)(A, B)``."""
    t = " ".join(text.split())
    t = re.sub(r"\s*\*\s*", "*", t)
    t = re.sub(r"(?<=[\w)])\*", " *", t)
    t = re.sub(r"\(\s*", "(", t)
    t = re.sub(r"\s*\)", ")", t)
    t = re.sub(r"\s*,\s*", ", ", t)
    return t.strip()


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _preprocess(text: str, defines: Dict[str, Define]) -> str:
    """Drop preprocessor lines (collecting numeric and string #defines) and ``__cplusplus``
    blocks."""
    text = text.replace("\\\n", " ")
    out: List[str] = []
    skip_depth = 0  # > 0 while inside an #ifdef __cplusplus block
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("#"):
            d = s[1:].strip()
            if skip_depth:
                if d.startswith("if"):
                    skip_depth += 1
                elif d.startswith("endif"):
                    skip_depth -= 1
                continue
            if re.match(r"^(ifdef\s+|if\s+defined\s*\(?\s*)__cplusplus\b", d):
                skip_depth = 1
                continue
            m = re.match(r"^define\s+(%s)\s+(.+)$" % _IDENT, d)
            if m:
                value: Optional[Define] = _number(m.group(2))
                if value is None:
                    s = re.match(r'^"([^"\\]*)"$', m.group(2).strip())
                    value = s.group(1) if s else None
                if value is not None:
                    defines[m.group(1)] = value
            continue
        if not skip_depth:
            out.append(line)
    return "\n".join(out)


def _split_top(text: str, sep: str) -> List[str]:
    """Split at ``sep`` where no (), {} or [] is open."""
    parts: List[str] = []
    depth = 0
    cur: List[str] = []
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


_FUNCPTR_RE = re.compile(r"^(.*?)\(\s*\*\s*(%s)?\s*\)\s*\((.*)\)$" % _IDENT, re.S)


def _param(text: str) -> Param:
    """Parse ``const T *name``, ``T name``, ``T``, ``T name[N]`` (type ``T [N]``, N a number
    or a #define'd name) or ``R (*name)(A)`` into a Param."""
    t = " ".join(text.split())
    if "[" in t:
        m = re.match(r"^(.*?)(%s)\s*\[\s*(\w+)\s*\]$" % _IDENT, t)
        if not m or not m.group(1).strip():
            raise CParseError("unsupported array declarator %r" % t)
        return Param("%s [%s]" % (normalize_type(m.group(1)), m.group(3)), m.group(2))
    m = _FUNCPTR_RE.match(t)
    if m:
        ret, name, args = m.group(1), m.group(2) or "", m.group(3)
        arg_types = [p.type for p in _params(args)]
        return Param(normalize_type("%s (*)(%s)" % (ret, ", ".join(arg_types) or "void")), name)
    m = re.match(r"^(.*?)(%s)$" % _IDENT, t)
    if not m:
        raise CParseError("cannot parse declaration %r" % t)
    head, name = m.group(1), m.group(2)
    if not re.sub(r"\b(const|volatile|struct|enum|unsigned|signed)\b|\*|\s", "", head):
        # `double`, `const char`, `unsigned int`: no name, the identifier is the type
        return Param(normalize_type(t), "")
    return Param(normalize_type(head), name)


def _params(text: str) -> Tuple[Param, ...]:
    text = text.strip()
    if text in ("", "void"):
        return ()
    return tuple(_param(p) for p in _split_top(text, ","))


def _enum_values(body: str) -> Tuple[Tuple[str, int], ...]:
    values: List[Tuple[str, int]] = []
    nxt = 0
    # an X-macro expansion such as LLMM_STATUS_LIST(...) is not expanded: see parse_status_list
    body = re.sub(r"\b%s\([^()]*\)" % _IDENT, " ", body)
    for item in _split_top(body, ","):
        item = item.strip()
        if not item:
            continue
        m = re.match(r"^(%s)\s*(?:=\s*(.+))?$" % _IDENT, item, re.S)
        if not m:
            raise CParseError("cannot parse enumerator %r" % item)
        name, expr = m.group(1), m.group(2)
        if expr is not None:
            v = _number(expr)
            if not isinstance(v, int):
                raise CParseError("enumerator %s: only integer literals are supported" % name)
            nxt = v
        if not name.endswith("_"):  # NAME_ (trailing underscore) marks a private enumerator
            values.append((name, nxt))
        nxt += 1
    return tuple(values)


def _statement(stmt: str, decls: Decls, require_api: bool) -> None:
    s = " ".join(stmt.split())
    if not s:
        return
    s = re.sub(r'^extern "C" \{\s*', "", s)
    m = re.match(r"^typedef (struct|enum) (%s) \{(.*)\} (%s)$" % (_IDENT, _IDENT), s)
    if m:
        kind, tag, body, name = m.groups()
        if tag != name:
            raise CParseError("typedef %s %s ... %s: tag and name differ" % (kind, tag, name))
        if kind == "struct":
            members = tuple(_param(x) for x in _split_top(body, ";") if x.strip())
            decls.structs[name] = Struct(name, members)
        else:
            decls.enums[name] = Enum(name, _enum_values(body))
        decls.order.append((kind, name))
        return
    m = re.match(r"^typedef struct (%s) (%s)$" % (_IDENT, _IDENT), s)
    if m:
        if m.group(1) != m.group(2):
            raise CParseError("opaque typedef %r: tag and name differ" % s)
        decls.structs[m.group(2)] = Struct(m.group(2), None)
        decls.order.append(("struct", m.group(2)))
        return
    if s.startswith("typedef "):
        p = _param(s[len("typedef "):])
        if not p.name:
            raise CParseError("typedef without a name: %r" % s)
        decls.typedefs[p.name] = Typedef(p.name, p.type)
        decls.order.append(("typedef", p.name))
        return
    exported = False
    if s.startswith("LLMM_API "):
        exported = True
        s = s[len("LLMM_API "):]
    m = re.match(r"^(.*?)\b(%s)\s*\((.*)\)$" % _IDENT, s)
    if not m or "{" in s:
        raise CParseError("cannot parse statement %r" % s)
    if require_api and not exported:
        return
    restype, name, args = m.groups()
    decls.functions[name] = Function(name, normalize_type(restype), _params(args), exported)


def parse(text: str, require_api: bool = False) -> Decls:
    """Parse C declarations.

    :param text: C source text (a header or the binding's own declarations)
    :param require_api: keep only prototypes marked ``LLMM_API`` (used for the real headers)
    :return: the parsed declarations
    :raises CParseError: on a construct outside the supported subset
    """
    decls = Decls()
    body = _preprocess(_strip_comments(text), decls.defines)
    for stmt in _split_top(body, ";"):
        stmt = stmt.strip()
        # the closing brace of an `extern "C" {` block that was not inside #ifdef __cplusplus
        while stmt.startswith("}"):
            stmt = stmt[1:].strip()
        _statement(stmt, decls, require_api)
    return decls


def parse_status_list(text: str) -> Dict[str, int]:
    """The status codes of core.h's ``LLMM_STATUS_LIST`` X-macro: name -> value."""
    out: Dict[str, int] = {}
    for m in re.finditer(r"\bX\(\s*(LLMM_\w+)\s*,\s*(-?\d+)\s*,", text):
        out[m.group(1)] = int(m.group(2))
    return out
