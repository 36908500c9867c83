#!/usr/bin/env python3
"""The committed generated declarations of the bindings are what the headers give (TAP).

 1. Every file tools/bindings/generate.py writes equals the committed one; any difference
    fails, with the diff.
 2. The check works: on a copy of the headers it passes unchanged, and each mutation below
    (an argument type, a new call, a field appended to a caller-sized struct) changes the
    Python table and the Rust declarations, naming what changed.

usage: check_generated.py [-I DIR ...]   (default: include and build/include of this tree)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile

import bound
import common
import generate

# (what, header, pattern, replacement, a name each changed file must mention)
MUTATIONS = [
    ("an argument type: llmm_polyfit's degree uint32_t -> uint64_t", "fit.h",
     r"(llmm_polyfit\(const double \*x, const double \*y, size_t n, )uint32_t( degree)",
     r"\1uint64_t\2", "llmm_polyfit"),
    ("a new call in core.h", "core.h", r"(LLMM_API uint64_t llmm_now_ns\(void\);)",
     r"\1\nLLMM_API llmm_status llmm_new_call(const double *v, size_t n);", "llmm_new_call"),
    ("a field appended to llmm_tlb_reading", "resource.h",
     r"(typedef struct llmm_tlb_reading \{.*?)(\} llmm_tlb_reading;)",
     r"\1    double appended_field;\n\2", "appended_field"),
]


def changed_lines(files, expected):
    """{path: the lines of `files` that differ from `expected`}."""
    out = {}
    for path, text in files.items():
        old = set(expected.get(path, "").splitlines())
        new = [ln for ln in text.splitlines() if ln not in old]
        if new:
            out[path] = new
    return out


def copy_headers(dirs, dest):
    os.makedirs(os.path.join(dest, "llmmetrics"))
    for d in dirs:
        sub = os.path.join(d, "llmmetrics")
        for name in os.listdir(sub):
            if name.endswith(".h"):
                shutil.copy(os.path.join(sub, name), os.path.join(dest, "llmmetrics", name))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-I", dest="include", action="append", default=[])
    args = ap.parse_args(argv)
    if not shutil.which("castxml") or not shutil.which("clang"):
        print("1..0 # SKIP castxml or clang not installed (Debian packages castxml, clang)")
        return 0
    dirs = args.include or [os.path.join(common.ROOT, "include"),
                            os.path.join(common.ROOT, "build", "include")]
    files = generate.render(common.load(dirs))
    committed = {p: generate.read(p) for p in files}
    diff = generate.check(files)
    results = [(not diff, "the generated declarations match the headers (%d files)"
                % len(files), (diff + "Regenerate: " + common.REGENERATE).splitlines()
                if diff else [])]
    with tempfile.TemporaryDirectory() as tmp:
        copy_headers(dirs, tmp)
        control = changed_lines(generate.render(common.load([tmp])), committed)
        results.append((not control, "control: an unchanged copy of the headers gives the "
                        "committed files", ["%s: %s" % kv for kv in control.items()]))
        for what, header, pattern, repl, name in MUTATIONS:
            path = os.path.join(tmp, "llmmetrics", header)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            mutated, n = re.subn(pattern, repl, original, count=1, flags=re.S)
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutated)
            changed = changed_lines(generate.render(common.load([tmp])), committed)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            langs = {p.split("/")[1] for p, lines in changed.items()
                     if any(name in ln for ln in lines)}
            results.append((n == 1 and {"python", "rust"} <= langs,
                            "mutation caught in the Python and Rust declarations: " + what,
                            ["%s: %s" % (p, ln) for p, lines in changed.items()
                             for ln in lines[:3]]))
    return bound.tap(results)


if __name__ == "__main__":
    sys.exit(main())
