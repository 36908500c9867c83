#!/usr/bin/env python3
"""Doxygen input filter: spell out X-macro enumerators so that each one is documented.

core.h keeps the status codes in one X-macro list (LLMM_STATUS_LIST) and builds the enum with
`LLMM_STATUS_LIST(LLMM_STATUS_ENUMERATOR_)`. Doxygen drops comments from macro expansions, so
the enumerators would appear without text. This filter finds every
`#define LLMM_<NAME>_LIST(X)` whose entries have the form `X(ENUMERATOR, value, "message")` and
replaces each line consisting only of `LLMM_<NAME>_LIST(<macro>)` with the enumerators, each
documented by its message. The replacement stays on one line, so line numbers do not move.
Everything else passes through unchanged.

usage (from Doxyfile FILTER_PATTERNS): doxygen_filter.py FILE
"""

import re
import sys


def expand(text):
    lists = {}
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(LLMM_\w+_LIST)\((\w+)\)((?:[^\n]*\\\n)*[^\n]*)",
                         text, re.M):
        name, param, body = m.groups()
        entry = re.compile(r"\b%s\(\s*(\w+)\s*,\s*([^,]+?)\s*,\s*\"((?:[^\"\\]|\\.)*)\"\s*\)"
                           % re.escape(param))
        lists[name] = entry.findall(body)

    def replace(m):
        entries = lists.get(m.group(2))
        if not entries:
            return m.group(0)
        return m.group(1) + " ".join("%s = %s, /**< %s */" % (e, v, msg.replace("*/", "* /"))
                                     for e, v, msg in entries)

    return re.sub(r"^([ \t]*)(LLMM_\w+_LIST)\(\s*\w+\s*\)[ \t]*$", replace, text, flags=re.M)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(expand(f.read()))


if __name__ == "__main__":
    main()
