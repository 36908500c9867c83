"""What the binding generators and the binding check share: the header model, loaded once,
seen as a binding sees it.

The model is tools/abi/header_model.py (castxml on the public headers). Here it is put in the
order a reader of the headers meets it (header by header, line by line), private enumerators
(a name ending in `_`) are dropped, `struct X` / `enum X` are called by their typedef name X,
and each caller-sized struct is paired with its ::llmm_struct_kind enumerator.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "abi"))
import header_model  # noqa: E402  (tools/abi, importable without installation)
from header_model import Api, ModelError, Type  # noqa: E402,F401

#: the command that rewrites every generated binding file (and checks them: --check)
REGENERATE = "python3 tools/bindings/generate.py --write"


def load(include_dirs: Sequence[str] = ()) -> Api:
    """The model of the public headers (default: include/ and build/include/ of this tree,
    the latter for the generated version.h)."""
    dirs = list(include_dirs) or [os.path.join(ROOT, "include"),
                                  os.path.join(ROOT, "build", "include")]
    return header_model.load(dirs)


def banner(comment: str, what: str) -> str:
    """The first lines of a generated file, as comments starting with `comment`."""
    lines = [what + ".",
             "Generated from include/llmmetrics/*.h by tools/bindings/generate.py (the header",
             "model tools/abi/header_model.py); do not edit. Regenerate with",
             "`%s` (`./dev.sh abi-baseline` runs it too)." % REGENERATE]
    return "".join("%s %s\n" % (comment, ln) for ln in lines)


def headers(api: Api) -> List[str]:
    """Every header that declares something, in the order the compiler reads them (headers
    that only define constants, such as the generated version.h, first)."""
    extra = sorted({c.header for c in api.constants.values()} - set(api.headers))
    return extra + list(api.headers)


def in_header(api: Api, header: str) -> List[Tuple[str, object]]:
    """(kind, declaration) for everything `header` declares, in line order; kind is one of
    "enum", "struct", "typedef" (those that are not just `typedef struct X X`), "constant",
    "function"."""
    items: List[Tuple[int, str, object]] = []
    for kind, table in (("enum", api.enums), ("struct", api.structs),
                        ("constant", api.constants), ("function", api.functions)):
        items += [(d.line, kind, d) for d in table.values() if d.header == header]
    items += [(t.line, "typedef", t) for t in api.typedefs.values()
              if t.header == header and not is_alias(t)]
    return [(kind, d) for _, kind, d in sorted(items, key=lambda x: (x[0], x[1]))]


def is_alias(t: "header_model.Typedef") -> bool:
    """`typedef struct X X;` or `typedef enum X X;`: the name the bindings use anyway."""
    return t.type.kind == "name" and t.type.name in ("struct " + t.name, "enum " + t.name)


def type_name(name: str) -> str:
    """`struct X` and `enum X` by their typedef name X (every public one has it)."""
    for keyword in ("struct ", "enum "):
        if name.startswith(keyword):
            return name[len(keyword):]
    return name


def enumerators(e: "header_model.Enum") -> List[Tuple[str, int]]:
    """The public enumerators of an enum (a name ending in `_` is private)."""
    return [(k, v) for k, v in e.values.items() if not k.endswith("_")]


def struct_kinds(api: Api) -> List[Tuple[str, int, str]]:
    """(enumerator, value, struct name) of every caller-sized struct, by kind value: the kind of
    `llmm_x` is LLMM_STRUCT_X (doc/abi.md). Every caller-sized struct has one and every kind
    names one, else ModelError."""
    kinds = dict(enumerators(api.enums["llmm_struct_kind"]))
    sized = {s.name for s in api.size_prefixed()}
    out = []
    for enumerator, value in kinds.items():
        struct = "llmm_" + enumerator[len("LLMM_STRUCT_"):].lower()
        if struct not in sized:
            raise ModelError("%s names no caller-sized struct %s" % (enumerator, struct))
        out.append((enumerator, value, struct))
    missing = sized - {s for _, _, s in out}
    if missing:
        raise ModelError("caller-sized structs without a kind: %s" % ", ".join(sorted(missing)))
    return sorted(out, key=lambda k: k[1])


def functions(api: Api) -> Dict[str, "header_model.Function"]:
    """Every public function, by name."""
    return dict(sorted(api.functions.items()))


def is_void(t: Type) -> bool:
    return t.kind == "name" and t.name == "void"
