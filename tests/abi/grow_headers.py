#!/usr/bin/env python3
"""Write copies of the public headers in which every size-prefixed struct has one more field.

The test-only grown library (tests/abi/meson.build) is built from these copies: it is what a
1.x release that appended a field to every caller-sized struct would be, so the 1.0 program can
prove the caller-sized rule before any struct really grows. A struct is size-prefixed when its
first member is `uint32_t struct_size`; the field appended is a uint64_t, which makes every
struct larger whatever its tail padding (the grown build checks that it did).

usage: grow_headers.py OUTDIR HEADER...   (stdlib only; writes OUTDIR/<basename> for each)
"""

import os
import re
import sys

STRUCT_RE = re.compile(
    r"(typedef struct (llmm_\w+) \{\n\s*uint32_t struct_size;.*?\n)(\} \2;)", re.S)
FIELD = "    uint64_t abi_test_appended_; /**< @private test-only field of the grown build */\n"


def grow(text):
    """The header text with the field appended to each size-prefixed struct; and their count."""
    return STRUCT_RE.subn(lambda m: m.group(1) + FIELD + m.group(3), text)


def main(argv):
    out_dir, headers = argv[1], argv[2:]
    total = 0
    for path in headers:
        with open(path, encoding="utf-8") as f:
            text, n = grow(f.read())
        total += n
        with open(os.path.join(out_dir, os.path.basename(path)), "w", encoding="utf-8") as f:
            f.write(text)
    if total == 0:
        sys.stderr.write("grow_headers.py: no size-prefixed struct found\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
