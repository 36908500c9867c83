#!/usr/bin/env python3
"""The released struct sizes hold on every data model (TAP output, stdlib only).

lib/core/abi_sizes.h records each released size of each size-prefixed struct as three numbers,
one per data model. This compiles tests/abi/sizes_models.c with clang for foreign targets,
freestanding (the public headers need only stddef.h and stdint.h, which clang brings), once
against the current headers (newest size == sizeof) and once against the frozen 1.0 headers
(1.0 size == 1.0 sizeof). Nothing is linked or run, so no cross toolchain is needed.

usage: check_sizes_models.py SOURCE_ROOT BUILD_ROOT [--clang CLANG]
"""

import argparse
import os
import shutil
import subprocess
import sys

# (triple, data model): two of each model, covering LP64, LLP64 and both 32-bit layouts.
TARGETS = [
    ("x86_64-linux-gnu", "p64"), ("aarch64-linux-gnu", "p64"), ("s390x-linux-gnu", "p64"),
    ("x86_64-w64-windows-gnu", "p64 (LLP64)"),
    ("i386-linux-gnu", "p32"), ("i686-unknown-freebsd", "p32"),
    ("armv7-linux-gnueabihf", "p32a8"), ("i686-w64-windows-gnu", "p32a8"),
    ("powerpc-linux-gnu", "p32a8"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_root")
    ap.add_argument("build_root")
    ap.add_argument("--clang", default="clang")
    args = ap.parse_args()
    clang = shutil.which(args.clang)
    if not clang:
        print("1..0 # SKIP clang not installed")
        return 0
    src = args.source_root
    tu = os.path.join(src, "tests", "abi", "sizes_models.c")
    lib = os.path.join(src, "lib")
    variants = [
        ("current headers", ["-I" + os.path.join(args.build_root, "include"),
                             "-I" + os.path.join(src, "include")]),
        ("frozen 1.0 headers", ["-DFROZEN_1_0", "-I" + os.path.join(src, "tests", "abi", "1.0")]),
    ]
    print("1..%d" % (len(TARGETS) * len(variants)))
    n = failed = 0
    for triple, model in TARGETS:
        for name, incs in variants:
            n += 1
            cmd = [clang, "--target=" + triple, "-ffreestanding", "-std=c11", "-fsyntax-only",
                   "-Werror"] + incs + ["-I" + lib, tu]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True)
            desc = "%s (%s): released sizes match the %s" % (triple, model, name)
            if proc.returncode == 0:
                print("ok %d - %s" % (n, desc))
                continue
            failed += 1
            print("not ok %d - %s" % (n, desc))
            for line in proc.stdout.splitlines():
                print("#   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
