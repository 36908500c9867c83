#!/usr/bin/env python3
"""The llmm_<type>_init(p) macros of the headers are type-checked (TAP output, stdlib only).

Each macro passes sizeof of its own struct to llmm_struct_init, so handing it a pointer to
another struct must not compile (C with -Werror, C++), while the right struct, and the
exported 1.0 function called through parentheses, must.

usage: check_init_macros.py SOURCE_ROOT BUILD_ROOT --cc "CC ARGS" [--cxx "CXX ARGS"]
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

CASES = [  # (description, statements, must compile)
    ("the macro with its own struct", "llmm_knee k; (void)llmm_knee_init(&k);", True),
    ("the exported 1.0 function through parentheses",
     "llmm_knee k; (void)(llmm_knee_init)(&k);", True),
    ("the macro with another struct's pointer", "llmm_fit_stats s; (void)llmm_knee_init(&s);",
     False),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_root")
    ap.add_argument("build_root")
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx", default="")
    args = ap.parse_args()
    incs = ["-I" + os.path.join(args.build_root, "include"),
            "-I" + os.path.join(args.source_root, "include")]
    langs = [("C11", shlex.split(args.cc), ["-std=c11", "-x", "c"]),
             ("C++11", shlex.split(args.cxx), ["-std=c++11", "-x", "c++"])]
    print("1..%d" % (len(CASES) * len(langs)))
    n = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for desc, body, ok_expected in CASES:
            tu = os.path.join(tmp, "tu.c")
            with open(tu, "w", encoding="utf-8") as f:
                f.write('#include "llmmetrics/llmmetrics.h"\nvoid f(void);\n'
                        "void f(void) { %s }\n" % body)
            for lang, cmd, flags in langs:
                n += 1
                what = "%s: %s %s" % (lang, desc, "compiles" if ok_expected else "is refused")
                if not cmd:
                    print("ok %d - %s # SKIP no compiler" % (n, what))
                    continue
                proc = subprocess.run(cmd + flags + ["-Wall", "-Werror", "-fsyntax-only"] + incs
                                      + [tu], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      universal_newlines=True)
                if (proc.returncode == 0) == ok_expected:
                    print("ok %d - %s" % (n, what))
                else:
                    failed += 1
                    print("not ok %d - %s" % (n, what))
                    print("".join("# " + line + "\n" for line in proc.stdout.splitlines()), end="")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
