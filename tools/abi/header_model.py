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

Only declarations made in a file named llmmetrics/*.h count; types from stddef.h and stdint.h
appear by name (`size_t`, `uint32_t`). Sizes, alignments and offsets are in bytes.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["Type", "Param", "Function", "Field", "Struct", "Enum", "Typedef", "Api", "load",
           "DEFAULT_TARGET", "ModelError"]

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

    def prototype(self) -> str:
        args = ", ".join(p.type.spelling(p.name) for p in self.params) or "void"
        return self.returns.spelling("%s(%s)" % (self.name, args))


@dataclass(frozen=True)
class Field:
    name: str
    type: Type
    offset: int
    size: int


@dataclass(frozen=True)
class Struct:
    name: str
    header: str
    size: int = 0
    align: int = 0
    fields: Optional[Tuple[Field, ...]] = None  # None: opaque (declared, never defined)

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


@dataclass(frozen=True)
class Typedef:
    name: str
    header: str
    type: Type  # what the name stands for, e.g. the name type "struct llmm_x"


@dataclass
class Api:
    """Everything the public headers declare, by name."""

    target: str
    functions: Dict[str, Function] = field(default_factory=dict)
    structs: Dict[str, Struct] = field(default_factory=dict)
    enums: Dict[str, Enum] = field(default_factory=dict)
    typedefs: Dict[str, Typedef] = field(default_factory=dict)

    def size_prefixed(self) -> List[Struct]:
        return [s for s in self.structs.values() if s.size_prefixed]


def _run_castxml(include_dirs: Sequence[str], headers: Sequence[str], target: str,
                 castxml: str, cc: str) -> ET.Element:
    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, "api.c")
        out = os.path.join(tmp, "api.xml")
        with open(tu, "w", encoding="utf-8") as f:
            for h in headers:
                f.write('#include "%s"\n' % h)
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


class _Reader:
    """Turns castxml's XML (format 1.x) into the model."""

    def __init__(self, root: ET.Element):
        self.by_id = {e.get("id"): e for e in root if e.get("id")}
        self.files = {e.get("id"): e.get("name") for e in root if e.tag == "File"}
        self.cache: Dict[str, Type] = {}

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
    root = _run_castxml(include_dirs, headers, target, castxml, cc)
    r = _Reader(root)
    api = Api(target=target)
    for e in root:
        hdr = r.header_of(e) if e.get("file") else None
        name = e.get("name", "")
        if hdr is None or not name:
            continue
        if e.tag == "Function":
            params = tuple(Param(a.get("name", ""), r.type(a.get("type")))
                           for a in e if a.tag == "Argument")
            api.functions[name] = Function(name, r.type(e.get("returns")), params, hdr)
        elif e.tag == "Struct":
            if e.get("incomplete") == "1":
                api.structs.setdefault(name, Struct(name, hdr))
                continue
            fields = []
            for mid in e.get("members", "").split():
                m = r.by_id[mid]
                if m.tag != "Field":
                    continue
                t = r.type(m.get("type"))
                fields.append(Field(m.get("name"), t, int(m.get("offset")) // 8,
                                    r.field_size(t)))
            api.structs[name] = Struct(name, hdr, int(e.get("size")) // 8,
                                       int(e.get("align")) // 8, tuple(fields))
        elif e.tag == "Enumeration":
            values = {v.get("name"): int(v.get("init")) for v in e if v.tag == "EnumValue"}
            api.enums[name] = Enum(name, hdr, int(e.get("size")) // 8, values)
        elif e.tag == "Typedef":
            api.typedefs[name] = Typedef(name, hdr, r.type(e.get("type")))
    if not api.functions:
        raise ModelError("no function declared in llmmetrics/*.h: wrong include directories?")
    return api
