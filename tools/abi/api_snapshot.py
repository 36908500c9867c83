#!/usr/bin/env python3
"""The API snapshot: a normalised listing of everything the public headers declare.

Every function with its full prototype, every struct with each field's name, type, offset and
size, every enum with each enumerator's value, every typedef, from the header model
(tools/abi/header_model.py) for one target. Sorted by name, one fact per line, so that any
change to the public API is a line of `diff`. The `abi` suite compares the committed snapshot
tests/abi/libllmmetrics.api with the headers; `./dev.sh abi-baseline` rewrites it.

usage: api_snapshot.py -I DIR [-I DIR ...] [--target TRIPLE] (--write FILE | --check FILE)
       (stdlib only; needs castxml and clang)
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_model  # noqa: E402  (a sibling module, importable without installation)

HEADER = ("# libllmmetrics public API, generated from the headers by tools/abi/api_snapshot.py"
          " for %s.\n# Do not edit: ./dev.sh abi-baseline regenerates it after an intended "
          "change (doc/abi.md).\n")


def render(api: header_model.Api) -> str:
    """The snapshot text of a header model."""
    out = [HEADER % api.target]
    for name in sorted(api.functions):
        f = api.functions[name]
        out.append("function %s  [%s]\n" % (f.prototype(), f.header))
    for name in sorted(api.structs):
        s = api.structs[name]
        if s.opaque:
            out.append("struct %s opaque  [%s]\n" % (name, s.header))
            continue
        out.append("struct %s size %d align %d  [%s]\n" % (name, s.size, s.align, s.header))
        for fl in s.fields:
            out.append("  field %s offset %d size %d\n"
                       % (fl.type.spelling(fl.name), fl.offset, fl.size))
    for name in sorted(api.enums):
        e = api.enums[name]
        out.append("enum %s size %d  [%s]\n" % (name, e.size, e.header))
        for k, v in e.values.items():
            out.append("  %s = %d\n" % (k, v))
    for name in sorted(api.typedefs):
        t = api.typedefs[name]
        out.append("typedef %s  [%s]\n" % (t.type.spelling(name), t.header))
    return "".join(out)


def incompatibilities(old: header_model.Api, new: header_model.Api) -> list:
    """What `new` breaks of `old`, by the rules of a minor release (doc/abi.md): every
    function, typedef and enumerator kept as it was; every struct kept, except that a
    size-prefixed one may append fields. An empty list means `new` can replace `old`."""
    out = []
    for name, f in old.functions.items():
        g = new.functions.get(name)
        if g is None or g.prototype() != f.prototype():
            out.append("function %s: %s" % (name, g.prototype() if g else "removed"))
    for name, e in old.enums.items():
        values = new.enums[name].values if name in new.enums else {}
        out += ["enum %s: %s %s" % (name, k, values.get(k, "removed"))
                for k, v in e.values.items() if values.get(k) != v]
    for name, t in old.typedefs.items():
        u = new.typedefs.get(name)
        if u is None or u.type.spelling(name) != t.type.spelling(name):
            out.append("typedef %s changed or removed" % name)
    for name, s in old.structs.items():
        n = new.structs.get(name)
        if n is None or n.opaque != s.opaque:
            out.append("struct %s removed or (un)defined" % name)
        elif not s.opaque:
            out += _struct_changes(s, n)
    return out


def _struct_changes(old: header_model.Struct, new: header_model.Struct) -> list:
    def show(f):
        return "%s at %d" % (f.type.spelling(f.name), f.offset) if f else "nothing"
    out = ["struct %s: field %s is now %s" % (old.name, show(f), show(g))
           for f, g in zip(old.fields, new.fields[:len(old.fields)] + (None,) * len(old.fields))
           if f != g][:1]
    if new.align != old.align or (new.size != old.size and not old.size_prefixed):
        out.append("struct %s: size %d align %d, was %d and %d"
                   % (old.name, new.size, new.align, old.size, old.align))
    return out


def compare(expected: str, actual: str, expected_name: str) -> str:
    """A unified diff from the committed snapshot to the headers' one ('' when equal)."""
    if expected == actual:
        return ""
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        expected_name, "headers"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-I", dest="include", action="append", required=True,
                    help="directory holding llmmetrics/*.h (repeat for the generated version.h)")
    ap.add_argument("--target", default=header_model.DEFAULT_TARGET)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="FILE")
    mode.add_argument("--check", metavar="FILE")
    args = ap.parse_args(argv)
    try:
        text = render(header_model.load(args.include, target=args.target))
    except header_model.ModelError as e:
        sys.stderr.write("api_snapshot.py: %s\n" % e)
        return 2
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (args.write, text.count("\n")))
        return 0
    with open(args.check, encoding="utf-8") as f:
        diff = compare(f.read(), text, args.check)
    if diff:
        sys.stdout.write(diff)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
