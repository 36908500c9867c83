"""The header model: what include/llmmetrics/*.h declare, as data (stdlib only).

One model of the public headers serves everything that must agree with them: the API snapshot
(tools/abi/api_snapshot.py, checked by the `abi` suite), the struct-size table
(tools/abi/struct_sizes.py) and the binding generators. The headers are parsed by castxml
(Debian package castxml), clang's own front end, for a chosen target, so sizes, offsets and
enumerator values are the compiler's, for that data model, and nothing is guessed from text.

    api = load(["include", "build/include"])                  # the host-independent default
    api.functions["llmm_polyfit"].params[3].type.spelling()   # 'uint32_t'
    api.structs["llmm_fit_stats"].fields[1].offset            # 4
    api.enums["llmm_status"].values["LLMM_E_ABI"]              # -11
    api.constants["LLMM_SCALE_DEFAULT"].value                  # 6
    api.structs["llmm_fit_stats"].doc                          # the Doxygen brief

Only declarations made in a file named llmmetrics/*.h count; types from stddef.h and stdint.h
appear by name (`size_t`, `uint32_t`). Sizes, alignments and offsets are in bytes. The
constants are the object-like `LLMM_*` macros of those headers whose value is a number or a
string; clang evaluates each (its type and value for the target), nothing is read from the
macro's text but its name. `doc` is the brief of a declaration's Doxygen comment, as clang
attaches comments to declarations (enumerators have none); `line` and `doc` take no part in
comparisons.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["Type", "Param", "Function", "Field", "Struct", "Enum", "Typedef", "Constant", "Api",
           "load", "DEFAULT_TARGET", "ModelError"]

#: the target the committed snapshot is made for (LP64, as every 64-bit Linux)
DEFAULT_TARGET = "x86_64-linux-gnu"


class ModelError(RuntimeError):
    """castxml failed or produced something the model does not understand."""


@dataclass(frozen=True)
class Type:
    """A C type as written in the headers.

    kind is one of: "name" (a fundamental type, typedef, struct or enum, referred to by `name`),
    "pointer", "const", "array" (of `length` elements), "function" (`returns`, `params`).
    """

    kind: str
    name: str = ""
    target: Optional["Type"] = None
    length: int = 0
    returns: Optional["Type"] = None
    params: Tuple["Type", ...] = ()
    size: int = 0
    align: int = 0

    def spelling(self, declarator: str = "") -> str:
        """C text declaring `declarator` (may be empty) with this type: 'const double *x',
        'void *(*alloc)(void *, size_t)', 'double layer_score[4]'."""
        if self.kind == "name":
            return (self.name + " " + declarator).rstrip()
        if self.kind == "const":
            inner = self.target
            if inner.kind == "name":
                return ("const " + inner.name + " " + declarator).rstrip()
            return inner.spelling(("const " + declarator).rstrip())
        if self.kind == "pointer":
            if self.target.kind in ("function", "array"):
                return self.target.spelling("(*" + declarator + ")")
            return self.target.spelling("*" + declarator)
        if self.kind == "array":
            return self.target.spelling(declarator + "[%d]" % self.length)
        if self.kind == "function":
            args = ", ".join(p.spelling() for p in self.params) or "void"
            return self.returns.spelling(declarator + "(" + args + ")")
        raise ModelError("unknown type kind %r" % self.kind)

    def __str__(self) -> str:
        return self.spelling()


@dataclass(frozen=True)
class Param:
    name: str
    type: Type


@dataclass(frozen=True)
class Function:
    name: str
    returns: Type
    params: Tuple[Param, ...]
    header: str  # file name, e.g. "fit.h"
    line: int = field(default=0, compare=False)
    doc: str = field(default="", compare=False)

    def prototype(self) -> str:
        args = ", ".join(p.type.spelling(p.name) for p in self.params) or "void"
        return self.returns.spelling("%s(%s)" % (self.name, args))


@dataclass(frozen=True)
class Field:
    name: str
    type: Type
    offset: int
    size: int
    doc: str = field(default="", compare=False)


@dataclass(frozen=True)
class Struct:
    name: str
    header: str
    size: int = 0
    align: int = 0
    fields: Optional[Tuple[Field, ...]] = None  # None: opaque (declared, never defined)
    line: int = field(default=0, compare=False)
    doc: str = field(default="", compare=False)

    @property
    def opaque(self) -> bool:
        return self.fields is None

    @property
    def size_prefixed(self) -> bool:
        """Caller-sized: the first member is `uint32_t struct_size`."""
        return bool(self.fields) and self.fields[0].name == "struct_size" and \
            self.fields[0].type.spelling() == "uint32_t"


@dataclass(frozen=True)
class Enum:
    name: str
    header: str
    size: int
    values: Dict[str, int] = field(default_factory=dict)  # in declaration order
    line: int = field(default=0, compare=False)
    doc: str = field(default="", compare=False)


@dataclass(frozen=True)
class Typedef:
    name: str
    header: str
    type: Type  # what the name stands for, e.g. the name type "struct llmm_x"
    line: int = field(default=0, compare=False)
    doc: str = field(default="", compare=False)


@dataclass(frozen=True)
class Constant:
    """An object-like `#define LLMM_...` with a number or string value. type is the type clang
    gives the expansion on the target: a fundamental type such as "int", "unsigned int",
    "long unsigned int" (UINT64_C on LP64) or "double", or an array of char for a string."""

    name: str
    header: str
    type: Type
    value: object  # int, float or str
    line: int = field(default=0, compare=False)


@dataclass
class Api:
    """Everything the public headers declare, by name."""

    target: str
    functions: Dict[str, Function] = field(default_factory=dict)
    structs: Dict[str, Struct] = field(default_factory=dict)
    enums: Dict[str, Enum] = field(default_factory=dict)
    typedefs: Dict[str, Typedef] = field(default_factory=dict)
    constants: Dict[str, Constant] = field(default_factory=dict)
    headers: List[str] = field(default_factory=list)  # in the order the compiler read them

    def size_prefixed(self) -> List[Struct]:
        return [s for s in self.structs.values() if s.size_prefixed]


# An object-like public macro: `#define LLMM_NAME value` (not LLMM_API, not a private NAME_).
_MACRO_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(LLMM_[A-Z0-9_]*[A-Z0-9])[ \t]+\S", re.M)
_NOT_CONSTANTS = {"LLMM_API"}
_PROBE = "llmm__probe_"
# The types a constant may have, numbered for the probe; a string is a char array.
_CONSTANT_TYPES = ("int", "unsigned int", "long int", "long unsigned int", "long long int",
                   "long long unsigned int", "float", "double", "char *")
# For a candidate macro N, three enumerators: which of those types its expansion has, its size
# and, for an integer, its value (an integer constant expression); and its value as clang
# prints an initialiser (for a floating value or a string).
_PROBE_TEXT = """#ifdef {n}
enum {{ {p}k_{n} = _Generic(({n}), {kinds}, default: 0),
       {p}s_{n} = sizeof({n}),
       {p}e_{n} = _Generic(({n}), float: 0, double: 0, char *: 0, default: ({n})) }};
static const __typeof__({n}) {p}v_{n} = {n};
#endif
"""


def _macro_candidates(include_dirs: Sequence[str]) -> Dict[str, Tuple[str, int]]:
    """{name: (header, line)} of every object-like LLMM_ macro in llmmetrics/*.h."""
    found: Dict[str, Tuple[str, int]] = {}
    for d in include_dirs:
        sub = os.path.join(d, "llmmetrics")
        for name in sorted(os.listdir(sub)) if os.path.isdir(sub) else ():
            if not name.endswith(".h"):
                continue
            with open(os.path.join(sub, name), encoding="utf-8") as f:
                text = f.read()
            for m in _MACRO_RE.finditer(text):
                if m.group(1) not in _NOT_CONSTANTS:
                    found.setdefault(m.group(1), (name, text.count("\n", 0, m.start()) + 1))
    return found


def _run_castxml(include_dirs: Sequence[str], headers: Sequence[str], target: str,
                 castxml: str, cc: str, macros: Sequence[str]) -> ET.Element:
    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, "api.c")
        out = os.path.join(tmp, "api.xml")
        kinds = ", ".join("%s: %d" % (t, i + 1) for i, t in enumerate(_CONSTANT_TYPES))
        with open(tu, "w", encoding="utf-8") as f:
            for h in headers:
                f.write('#include "%s"\n' % h)
            for n in macros:
                f.write(_PROBE_TEXT.format(n=n, p=_PROBE, kinds=kinds))
        # castxml takes the preprocessor and target from `cc`; freestanding, so that stddef.h
        # and stdint.h come from clang and any target works without its C library.
        cmd = [castxml, "--castxml-output=1", "--castxml-cc-gnu-c",
               "(", cc, "--target=" + target, "-ffreestanding", ")", "-std=c11"]
        cmd += ["-I" + d for d in include_dirs] + ["-o", out, tu]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True)
        except OSError as e:
            raise ModelError("cannot run %s: %s (Debian package castxml)" % (castxml, e))
        if proc.returncode != 0 or not os.path.exists(out):
            raise ModelError("castxml failed:\n" + proc.stdout)
        return ET.parse(out).getroot()


# A Doxygen command that starts a new block (@since, @param, @note, @{ ...), not an inline one.
_BLOCK_COMMAND = re.compile(r"^\s*[@\\](?!(?:ref|p|c|a|b|e)\b)")


def _brief(comment: str) -> str:
    """The brief of a Doxygen comment as one line of plain text: the @brief paragraph (else
    the first), markers, commands and reference prefixes (::name, #NAME) removed."""
    text = re.sub(r"^/\*[*!]<?|\*/$", "", comment.strip())
    lines = [re.sub(r"^\s*\*? ?", "", ln).rstrip() for ln in text.splitlines()]
    out: List[str] = []
    for ln in lines:
        if ln.lstrip().startswith(("@brief", "\\brief")):
            out = [ln.lstrip()[6:]]
            continue
        if (not ln.strip() or _BLOCK_COMMAND.match(ln)) and any(out):
            break
        out.append(ln)
    brief = " ".join(" ".join(out).split())
    brief = re.sub(r"[@\\](?:ref|p|c|a) (\S)", r"\1", brief)
    return re.sub(r"(?<![\w:])(?:::|#)(?=[A-Za-z_])", "", brief)


class _Reader:
    """Turns castxml's XML (format 1.x) into the model."""

    def __init__(self, root: ET.Element):
        self.by_id = {e.get("id"): e for e in root if e.get("id")}
        self.files = {e.get("id"): e.get("name") for e in root if e.tag == "File"}
        self.cache: Dict[str, Type] = {}
        self.texts: Dict[str, bytes] = {}

    def doc(self, e: ET.Element) -> str:
        """The brief of the Doxygen comment clang attached to `e` ('' when none)."""
        c = self.by_id.get(e.get("comment", ""))
        if c is None:
            return ""
        fid = c.get("file")
        if fid not in self.texts:
            with open(self.files[fid], "rb") as f:
                self.texts[fid] = f.read()
        raw = self.texts[fid][int(c.get("begin_offset")):int(c.get("end_offset"))]
        return _brief(raw.decode("utf-8"))

    def header_of(self, e: ET.Element) -> Optional[str]:
        """The llmmetrics header a declaration is in, or None for anything else."""
        path = self.files.get(e.get("file"), "")
        if os.path.basename(os.path.dirname(path)) != "llmmetrics":
            return None
        return os.path.basename(path)

    def type(self, tid: str) -> Type:
        if tid not in self.cache:
            self.cache[tid] = self._type(tid)
        return self.cache[tid]

    def _type(self, tid: str) -> Type:
        e = self.by_id.get(tid)
        if e is None:
            raise ModelError("castxml type id %s not found" % tid)
        size, align = int(e.get("size", 0)) // 8, int(e.get("align", 0)) // 8
        tag = e.tag
        if tag == "FundamentalType":
            return Type("name", name=e.get("name"), size=size, align=align)
        if tag == "Typedef":
            inner = self.type(e.get("type"))
            return Type("name", name=e.get("name"), size=inner.size, align=inner.align)
        if tag in ("Struct", "Enumeration", "Union"):
            keyword = {"Struct": "struct", "Enumeration": "enum", "Union": "union"}[tag]
            return Type("name", name=keyword + " " + e.get("name"), size=size, align=align)
        if tag == "ElaboratedType":
            return self.type(e.get("type"))
        if tag == "CvQualifiedType":
            if e.get("volatile") == "1" or e.get("restrict") == "1":
                raise ModelError("volatile/restrict in the public API: %s" % tid)
            return Type("const", target=self.type(e.get("type")))
        if tag == "PointerType":
            return Type("pointer", target=self.type(e.get("type")), size=size, align=align)
        if tag == "ArrayType":
            return Type("array", target=self.type(e.get("type")),
                        length=int(e.get("max")) + 1)
        if tag == "FunctionType":
            params = tuple(self.type(a.get("type")) for a in e if a.tag == "Argument")
            return Type("function", returns=self.type(e.get("returns")), params=params)
        raise ModelError("castxml element %s (%s) is not a type the model knows" % (tag, tid))

    def field_size(self, t: Type) -> int:
        """Byte size of a field's type (typedef names resolved)."""
        if t.kind == "const":
            return self.field_size(t.target)
        if t.kind == "array":
            return t.length * self.field_size(t.target)
        if t.size:
            return t.size
        raise ModelError("size of %s unknown" % t.spelling())


def load(include_dirs: Sequence[str], headers: Sequence[str] = ("llmmetrics/llmmetrics.h",),
         target: str = DEFAULT_TARGET, castxml: str = "castxml", cc: str = "clang") -> Api:
    """Parse the public headers for `target` (a clang triple) and return the model.

    include_dirs: where `llmmetrics/*.h` and the generated `llmmetrics/version.h` are found.
    """
    macros = _macro_candidates(include_dirs)
    root = _run_castxml(include_dirs, headers, target, castxml, cc, sorted(macros))
    r = _Reader(root)
    api = Api(target=target)
    api.headers = [os.path.basename(e.get("name")) for e in root if e.tag == "File"
                   and os.path.basename(os.path.dirname(e.get("name"))) == "llmmetrics"]
    for e in root:
        hdr = r.header_of(e) if e.get("file") else None
        name = e.get("name", "")
        if hdr is None or not name:
            continue
        line, doc = int(e.get("line", 0)), r.doc(e)
        if e.tag == "Function":
            params = tuple(Param(a.get("name", ""), r.type(a.get("type")))
                           for a in e if a.tag == "Argument")
            api.functions[name] = Function(name, r.type(e.get("returns")), params, hdr,
                                           line, doc)
        elif e.tag == "Struct":
            if e.get("incomplete") == "1":
                api.structs.setdefault(name, Struct(name, hdr, line=line, doc=doc))
                continue
            fields = []
            for mid in e.get("members", "").split():
                m = r.by_id[mid]
                if m.tag != "Field":
                    continue
                t = r.type(m.get("type"))
                fields.append(Field(m.get("name"), t, int(m.get("offset")) // 8,
                                    r.field_size(t), r.doc(m)))
            api.structs[name] = Struct(name, hdr, int(e.get("size")) // 8,
                                       int(e.get("align")) // 8, tuple(fields), line, doc)
        elif e.tag == "Enumeration":
            values = {v.get("name"): int(v.get("init")) for v in e if v.tag == "EnumValue"}
            api.enums[name] = Enum(name, hdr, int(e.get("size")) // 8, values, line, doc)
        elif e.tag == "Typedef":
            api.typedefs[name] = Typedef(name, hdr, r.type(e.get("type")), line, doc)
    if not api.functions:
        raise ModelError("no function declared in llmmetrics/*.h: wrong include directories?")
    api.constants = _constants(root, macros)
    return api


def _constants(root: ET.Element, macros: Dict[str, Tuple[str, int]]) -> Dict[str, Constant]:
    """The probed macros that are numbers or strings, by name (in name order)."""
    probes = {e.get("name"): e for e in root if e.get("name", "").startswith(_PROBE)}
    for e in root:
        if e.tag == "Enumeration" and not e.get("name"):
            probes.update((v.get("name"), v) for v in e if v.tag == "EnumValue")
    out: Dict[str, Constant] = {}
    for name, (header, line) in sorted(macros.items()):
        kind = probes.get(_PROBE + "k_" + name)
        if kind is None:
            continue  # not defined for this target and these headers
        kind, size = int(kind.get("init")), int(probes[_PROBE + "s_" + name].get("init"))
        init = probes[_PROBE + "v_" + name].get("init", "")
        tname = _CONSTANT_TYPES[kind - 1] if kind else ""
        if tname == "char *" and re.fullmatch(r'"[^"\\]*"', init):
            t, value = Type("array", target=Type("name", name="char", size=1, align=1),
                            length=size), init[1:-1]  # type: Tuple[Type, object]
        elif tname in ("float", "double"):
            t, value = Type("name", name=tname, size=size, align=size), float(init)
        elif tname:
            t = Type("name", name=tname, size=size, align=size)
            value = int(probes[_PROBE + "e_" + name].get("init"))
        else:
            raise ModelError("macro %s (%s) is not a number or a plain string" % (name, header))
        out[name] = Constant(name, header, t, value, line)
    return out
