#!/usr/bin/env python3
"""Write, or check, the bindings' generated declarations, from the header model of the public
headers (tools/abi/header_model.py: castxml, for x86-64 Linux):

  bindings/python/llmmetrics/_api.py         the ctypes declaration table (and cffi cdef)
  bindings/rust/llmmetrics-sys/src/ffi.rs    the -sys crate's constants, types, extern blocks
  bindings/go/llmmetrics/sized_gen.go        the caller-sized structs, for the Go tests

usage: generate.py [-I DIR ...] (--write | --check)
  -I DIR   where llmmetrics/*.h and the generated llmmetrics/version.h are (default: include
           and build/include of this tree)
  --write  rewrite the files
  --check  exit 1 with a diff when a file differs from what the headers give
(stdlib only; needs castxml and clang)
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from typing import Dict

import common
import go_decls
import python_decls
import rust_decls


def render(api: common.Api) -> Dict[str, str]:
    """{path relative to the tree: text} of every generated file."""
    files = {python_decls.PATH: python_decls.render(api)}
    files.update(rust_decls.render(api))
    files.update(go_decls.render(api))
    return files


def read(path: str) -> str:
    try:
        with open(os.path.join(common.ROOT, path), encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def check(files: Dict[str, str]) -> str:
    """A unified diff from the committed files to the generated ones ('' when equal)."""
    out = []
    for path, text in sorted(files.items()):
        old = read(path)
        if old != text:
            out += difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                        path, path + " (from the headers)")
    return "".join(out)


def write(files: Dict[str, str]) -> None:
    for path, text in sorted(files.items()):
        if read(path) != text:
            full = os.path.join(common.ROOT, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote %s" % path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-I", dest="include", action="append", default=[])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    try:
        files = render(common.load(args.include))
    except common.ModelError as e:
        sys.stderr.write("generate.py: %s\n" % e)
        return 2
    if args.write:
        write(files)
        return 0
    diff = check(files)
    sys.stdout.write(diff)
    if diff:
        print("The generated bindings differ from the headers: run `%s`." % common.REGENERATE)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
