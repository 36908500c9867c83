#!/usr/bin/env python3
"""Every public header compiles on its own, as C11 and as C++11 (TAP output, stdlib only).

The headers are discovered at test time: every include/llmmetrics/*.h of the source tree plus
the generated ones in the build tree (version.h). Each is included twice in an otherwise empty
translation unit (a missing guard then fails on any enum or struct definition) and compiled with -fsyntax-only and
all warnings as errors.

usage: check_headers.py SOURCE_ROOT BUILD_ROOT --cc "CC ARGS" [--cxx "CXX ARGS"]
"""

import argparse
import glob
import os
import shlex
import subprocess
import sys
import tempfile

C_FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow", "-Wconversion",
           "-Wstrict-prototypes", "-fsyntax-only", "-x", "c"]
CXX_FLAGS = ["-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow",
             "-fsyntax-only", "-x", "c++"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_root")
    ap.add_argument("build_root")
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx", default="")
    args = ap.parse_args()

    src_inc = os.path.join(args.source_root, "include")
    bld_inc = os.path.join(args.build_root, "include")
    headers = {}
    for inc in (src_inc, bld_inc):
        for path in glob.glob(os.path.join(inc, "llmmetrics", "*.h")):
            headers.setdefault(os.path.basename(path), path)
    names = sorted(headers)
    if not names:
        print("1..1\nnot ok 1 - no public headers found under %s" % src_inc)
        return 1

    compilers = [("C11", shlex.split(args.cc), C_FLAGS),
                 ("C++11", shlex.split(args.cxx), CXX_FLAGS)]
    print("1..%d" % (len(names) * len(compilers)))
    n = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            tu = os.path.join(tmp, "tu_" + name.replace(".", "_"))
            with open(tu, "w", encoding="utf-8") as f:
                # The typedef keeps a macro-only header from being an empty unit (-Wpedantic).
                f.write('#include "llmmetrics/%s"\n#include "llmmetrics/%s"\n'
                        'typedef int llmm_header_check_nonempty_;\n' % (name, name))
            for lang, cmd, flags in compilers:
                n += 1
                desc = "%s compiles alone as %s" % (name, lang)
                if not cmd:
                    print("ok %d - %s # SKIP no compiler for %s" % (n, desc, lang))
                    continue
                full = cmd + flags + ["-I" + bld_inc, "-I" + src_inc, tu]
                proc = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      universal_newlines=True)
                if proc.returncode == 0 and not proc.stdout.strip():
                    print("ok %d - %s" % (n, desc))
                    continue
                failed += 1
                print("not ok %d - %s" % (n, desc))
                print("# $ %s" % " ".join(shlex.quote(a) for a in full))
                for line in proc.stdout.splitlines():
                    print("#   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
