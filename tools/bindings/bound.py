#!/usr/bin/env python3
"""Every public C call is bound in each idiomatic layer, or allow-listed there with a reason.

For each binding, its idiomatic sources are searched for calls of the C functions the header
model lists (tools/abi/header_model.py), in the form the binding calls C:

  python  bindings/python/llmmetrics/*.py (not the declaration layer)   _lib.llmm_x
  go      bindings/go/llmmetrics/*.go (not the tests)                    C.llmm_x
  rust    bindings/rust/llmmetrics/src/**/*.rs                           ffi::llmm_x, sys::llmm_x

A function neither called nor listed in the binding's allow-list (bindings/<language>/
unbound.txt: `name  reason` a line, # comments) is an error, and so is an allow-list entry
without a reason, for a function no header declares, or for one the binding calls. One rule
holds for every binding and needs no entry: the exported `llmm_<type>_init` of a caller-sized
struct is for programs built against 1.0 (it writes the 1.0 size); the bindings set those
structs up with llmm_struct_init at their own size (doc/abi.md).

usage: bound.py [-I DIR ...]    TAP output; --self-test also proves that a new C call and a
                                stale entry are reported
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import sys
from typing import Dict, Iterable, List, NamedTuple, Set, Tuple

import common


class Binding(NamedTuple):
    name: str
    sources: str          # glob under the tree's root
    skip: Tuple[str, ...]  # file names (or suffixes) that are not the idiomatic layer
    call: str             # regular expression; group 1 is the C name
    allow: str            # the allow-list, under the tree's root


BINDINGS = (
    Binding("python", "bindings/python/llmmetrics/*.py", ("_lib.py", "_api.py", "_cdef.py"),
            r"\b_lib\.(llmm_\w+)\b", "bindings/python/unbound.txt"),
    Binding("go", "bindings/go/llmmetrics/*.go", ("_test.go",), r"\bC\.(llmm_\w+)\b",
            "bindings/go/unbound.txt"),
    Binding("rust", "bindings/rust/llmmetrics/src/**/*.rs", (), r"\b(?:ffi|sys)::(llmm_\w+)\b",
            "bindings/rust/unbound.txt"),
)


def calls(b: Binding, root: str = common.ROOT) -> Set[str]:
    """Every C name the binding's idiomatic sources call (or name) in its calling form."""
    found: Set[str] = set()
    for path in glob.glob(os.path.join(root, b.sources), recursive=True):
        if path.endswith(b.skip):
            continue
        with open(path, encoding="utf-8") as f:
            found.update(re.findall(b.call, f.read()))
    return found


def read_allow(path: str) -> Tuple[Dict[str, str], List[str]]:
    """({function: reason}, problems) of an allow-list."""
    allow: Dict[str, str] = {}
    problems: List[str] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, reason = line.partition(" ")
            if not reason.strip():
                problems.append("%s:%d: %s has no reason" % (path, n, name))
            allow[name] = reason.strip()
    return allow, problems


def check(functions: Dict[str, str], called: Set[str], allow: Dict[str, str]) -> List[str]:
    """What is wrong, one line each: `functions` maps each C function to its header."""
    out = ["%s (%s): not bound (call it, or allow-list it with a reason)" % (f, h)
           for f, h in sorted(functions.items()) if f not in called and f not in allow]
    out += ["%s: allow-listed, but no header declares it" % f
            for f in sorted(set(allow) - set(functions))]
    out += ["%s: allow-listed, but the binding calls it" % f
            for f in sorted(set(allow) & called & set(functions))]
    return out


def self_test(functions: Dict[str, str], b: Binding, called: Set[str],
              allow: Dict[str, str]) -> List[str]:
    """The check must report a C call added to the headers, an allow-list entry for a called
    function, and a call the binding no longer makes; what it missed, one line each."""
    some_called = min(called & set(functions))
    cases = [("a new C call", dict(functions, llmm_new_call="core.h"), called, allow,
              "llmm_new_call (core.h): not bound"),
             ("a stale allow-list entry", functions, called, dict(allow, **{some_called: "x"}),
              "%s: allow-listed, but the binding calls it" % some_called),
             ("a call removed", functions, called - {some_called}, allow,
              "%s (%s): not bound" % (some_called, functions[some_called]))]
    return ["%s: %s not reported" % (b.name, what) for what, fns, c, a, want in cases
            if not any(p.startswith(want) for p in check(fns, c, a))]


def tap(results: Iterable[Tuple[bool, str, List[str]]]) -> int:
    results = list(results)
    print("1..%d" % len(results))
    for i, (ok, what, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
        for line in detail:
            print("# " + line)
    return 0 if all(ok for ok, _, _ in results) else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-I", dest="include", action="append", default=[])
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if not shutil.which("castxml") or not shutil.which("clang"):
        print("1..0 # SKIP castxml or clang not installed (Debian packages castxml, clang)")
        return 0
    api = common.load(args.include)
    v1_0_inits = {s + "_init" for _, _, s in common.struct_kinds(api)} & set(api.functions)
    functions = {name: f.header for name, f in api.functions.items() if name not in v1_0_inits}
    results = []
    for b in BINDINGS:
        called = calls(b)
        allow, problems = read_allow(os.path.join(common.ROOT, b.allow))
        problems += check(functions, called, allow)
        bound = len(set(functions) & called)
        results.append((not problems, "%s: %d C functions (and %d exported 1.0 inits), %d "
                        "called, %d allow-listed (%s)" % (b.name, len(functions),
                                                          len(v1_0_inits), bound, len(allow),
                                                          b.allow), problems))
        if args.self_test:
            missed = self_test(functions, b, called, allow)
            results.append((not missed, "%s: the check reports a new call, a stale entry and a "
                            "dropped call" % b.name, missed))
    return tap(results)


if __name__ == "__main__":
    sys.exit(main())
