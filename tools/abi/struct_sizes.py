#!/usr/bin/env python3
"""Print the size of every size-prefixed struct on each data model, as lib/core/abi_sizes.h
records it: `LLMM__SZ(p64, p32, p32a8)`.

Use it when a struct grows (or a new one is added) during an open release: put the printed
numbers in that struct's LLMM__SIZES_<type> entry for the release (doc/abi.md). The abi suite
then checks them on nine targets (tests/abi/check_sizes_models.py).

usage: struct_sizes.py [-I DIR ...]     (default: include and build/include of this tree)
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_model  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# One target per data model of LLMM__SZ, in its argument order.
MODELS = [("p64", "x86_64-linux-gnu"), ("p32", "i386-linux-gnu"),
          ("p32a8", "armv7-linux-gnueabihf")]


def sizes(include_dirs):
    """{struct name: (p64, p32, p32a8)} for every size-prefixed struct."""
    per_model = [header_model.load(include_dirs, target=t) for _, t in MODELS]
    return {s.name: tuple(api.structs[s.name].size for api in per_model)
            for s in per_model[0].size_prefixed()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-I", dest="include", action="append")
    args = ap.parse_args(argv)
    include = args.include or [os.path.join(ROOT, "include"), os.path.join(ROOT, "build", "include")]
    for name, (p64, p32, p32a8) in sorted(sizes(include).items()):
        print("%-40s LLMM__SZ(%d, %d, %d)" % (name, p64, p32, p32a8))
    return 0


if __name__ == "__main__":
    sys.exit(main())
