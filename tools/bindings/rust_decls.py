"""The Rust -sys crate's declarations, bindings/rust/llmmetrics-sys/src/ffi.rs: header by
header, its constants, enums, structs and `extern "C"` block; at the end each caller-sized
struct paired with its kind.

Mapping (the rules the crate documents in its lib.rs): an enum is a `c_int` type alias plus a
constant per enumerator (a newer library may return values the crate does not name); `size_t`
is `usize`; `T *` is `*mut T`, `const T *` is `*const T`; a function pointer is
`Option<unsafe extern "C" fn(..)>`; an opaque struct is declared with the crate's `opaque!`
macro; a struct is `#[repr(C)]` with the fields of the header, in order.
"""

from __future__ import annotations

from typing import Dict, List

import common
from common import Api, ModelError, Type

PATH = "bindings/rust/llmmetrics-sys/src/ffi.rs"

_BASE = {"double": "f64", "float": "f32", "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16",
         "uint16_t": "u16", "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64",
         "uint64_t": "u64", "size_t": "usize", "char": "c_char", "int": "c_int",
         "void": "c_void"}

# The Rust type of a #define: by its C type (int i32, unsigned int u32, a 64-bit integer u64 or
# i64, double f64, a string &[u8] with its NUL), except for the constants below, whose types
# the crate published before it was generated (a length is usize).
_CONSTANT_TYPES = {"LLMM_POLY_MAX_DEGREE": "u32", "LLMM_LAYER_COUNT": "usize",
                   "LLMM_SCORE_NAME_MAX": "usize", "LLMM_BURN_WINDOWS": "usize",
                   "LLMM_SKETCH_FORMAT_VERSION": "u32", "LLMM_WINDOW_SLOT_NS_DEFAULT": "u64",
                   "LLMM_VERSION_MAJOR": "u32", "LLMM_VERSION_MINOR": "u32",
                   "LLMM_VERSION_PATCH": "u32", "LLMM_VERSION_NUMBER": "u32"}

_KEYWORDS = set("""as async await break const continue dyn else enum extern false fn for if impl
in let loop match mod move mut pub ref return static struct trait true type unsafe use where
while abstract become box do final macro override priv typeof unsized virtual yield try""".split())


def ident(name: str) -> str:
    """A C name as a Rust identifier (keywords raw, `self` and its kin with a `_`)."""
    if name in ("self", "Self", "super", "crate"):
        return name + "_"
    return "r#" + name if name in _KEYWORDS else name


def rust_type(t: Type) -> str:
    if t.kind == "name":
        name = common.type_name(t.name)
        if name in _BASE:
            return _BASE[name]
        if name.startswith("llmm_"):
            return name
        raise ModelError("C type %s has no Rust mapping" % name)
    if t.kind == "pointer":
        target = t.target
        if target.kind == "function":
            return "Option<%s>" % fn_type(target)
        if target.kind == "const":
            return "*const " + rust_type(target.target)
        return "*mut " + rust_type(target)
    if t.kind == "array":
        return "[%s; %d]" % (rust_type(t.target), t.length)
    if t.kind == "const":
        return rust_type(t.target)
    raise ModelError("C type %s has no Rust mapping" % t.spelling())


def fn_type(t: Type) -> str:
    args = ", ".join(rust_type(p) for p in t.params)
    return 'unsafe extern "C" fn(%s)%s' % (args, returns(t.returns))


def returns(t: Type) -> str:
    return "" if common.is_void(t) else " -> " + rust_type(t)


def doc(text: str, indent: str = "") -> str:
    return "%s/// %s\n" % (indent, text) if text else ""


def constant(c) -> str:
    if isinstance(c.value, str):
        return 'pub const %s: &[u8] = b"%s\\0";\n' % (c.name, c.value)
    t = _CONSTANT_TYPES.get(c.name)
    if t is None and isinstance(c.value, float):
        t = "f64"
    elif t is None:
        t = ("u" if "unsigned" in c.type.name else "i") + str(8 * c.type.size)
    return "pub const %s: %s = %r;\n" % (c.name, t, c.value)


def enum(e) -> str:
    if e.size != 4:
        raise ModelError("enum %s is not int-sized" % e.name)
    out = doc(e.doc) + "pub type %s = c_int;\n" % e.name
    return out + "".join("pub const %s: %s = %d;\n" % (k, e.name, v)
                         for k, v in common.enumerators(e))


def struct(s) -> str:
    fields = "".join(doc(f.doc, "    ") + "    pub %s: %s,\n" % (ident(f.name), rust_type(f.type))
                     for f in s.fields)
    # Default where every field has one (a raw pointer has none, nor an array of more than 32
    # elements before const generics reached Default)
    derive = "Clone, Copy, Debug" + ("" if any((f.type.kind == "pointer" and f.type.target.kind
                                                != "function") or
                                               (f.type.kind == "array" and f.type.length > 32)
                                               for f in s.fields) else ", Default")
    return (doc(s.doc) + "#[repr(C)]\n#[derive(%s)]\npub struct %s {\n%s}\n"
            % (derive, s.name, fields))


def function(f) -> str:
    params = ", ".join("%s: %s" % (ident(p.name or "arg%d" % i), rust_type(p.type))
                       for i, p in enumerate(f.params))
    return doc(f.doc, "    ") + "    pub fn %s(%s)%s;\n" % (f.name, params, returns(f.returns))


def section(api: Api, header: str) -> str:
    """Everything `header` declares."""
    items: List[str] = []  # each with a blank line before it, but a constant after a constant
    opaque: List[str] = []
    functions: List[str] = []
    for kind, d in common.in_header(api, header):
        if kind == "constant" and items and items[-1].startswith("pub const"):
            items[-1] += constant(d)
        elif kind == "constant":
            items.append(constant(d))
        elif kind == "enum":
            items.append(enum(d))
        elif kind == "struct" and d.opaque:
            text = d.doc or getattr(api.typedefs.get(d.name), "doc", "")
            opaque.append(doc(text, "    ") + "    %s;\n" % d.name)
        elif kind == "struct":
            items.append(struct(d))
        elif kind == "typedef":
            items.append(doc(d.doc) + "pub type %s = %s;\n" % (d.name, rust_type(d.type)))
        elif kind == "function":
            functions.append(function(d))
    if opaque:
        items.append("opaque! {\n%s}\n" % "".join(opaque))
    if functions:
        items.append('extern "C" {\n%s}\n' % "".join(functions))
    rule = "// " + "-" * 96 + "\n"
    return "\n%s// %s\n%s" % (rule, header, rule) + "".join("\n" + i for i in items)


def render(api: Api) -> Dict[str, str]:
    """{path: text} of the generated file of the crate."""
    out = [common.banner("//", "llmmetrics-sys: the declarations of every public header"),
           "\n#[allow(unused_imports)]\nuse super::{c_char, c_int, c_void, SizePrefixed};\n"]
    out += [section(api, h) for h in common.headers(api)]
    out.append("\n// Every caller-sized struct and its kind.\nsize_prefixed! {\n")
    out += ["    %s = %s,\n" % (struct_name, enumerator)
            for enumerator, _, struct_name in common.struct_kinds(api)]
    return {PATH: "".join(out) + "}\n"}
