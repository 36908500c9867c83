#!/usr/bin/env python3
"""The clang target of `./dev.sh test`: clang compiles every source with the warnings gcc does.

Reads compile_commands.json of a gcc build and of a clang build of the same tree (same meson
options) and checks, in TAP, that each compiler was the one named, that both compiled the same
C sources, and that every source got the same warning options (-W..., -pedantic) from both:
meson.build adds only warnings both compilers support (cc.get_supported_arguments), so one
that clang lacks would silently be gcc's alone. With -Werror in both builds, both then compile
the tree cleanly under the same rules.

usage: same_warnings.py GCC_BUILD CLANG_BUILD   (stdlib only)
"""
import json
import os
import shlex
import sys


def commands(builddir):
    """Map source file -> (compiler, [warning options in order]) for each C compile command."""
    with open(os.path.join(builddir, "compile_commands.json"), encoding="utf-8") as f:
        db = json.load(f)
    out = {}
    for entry in db:
        if not entry["file"].endswith(".c"):
            continue
        args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
        source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        out[source] = (os.path.basename(args[0]),
                       [a for a in args if a.startswith("-W") or a in ("-pedantic", "-pedantic-errors")])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gcc, clang = commands(sys.argv[1]), commands(sys.argv[2])
    results = []

    wrong = sorted({c for c, _ in gcc.values() if "gcc" not in c} |
                   {c for c, _ in clang.values() if "clang" not in c})
    results.append((not wrong and bool(gcc) and bool(clang),
                    "the first build compiles with gcc, the second with clang", wrong))

    only = sorted(set(gcc) ^ set(clang))
    results.append((not only, "both compile the same %d C sources" % len(gcc), only))

    differ = ["%s: gcc %s, clang %s" % (s, " ".join(gcc[s][1]), " ".join(clang[s][1]))
              for s in sorted(set(gcc) & set(clang)) if gcc[s][1] != clang[s][1]]
    sample = next(iter(gcc.values()))[1] if gcc else []
    results.append((not differ, "every source gets the same warning options (%s)"
                    % " ".join(sample), differ))

    print("1..%d" % len(results))
    for i, (good, what, details) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, what))
        for d in details[:20]:
            print("# %s" % d)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
