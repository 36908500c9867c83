#!/usr/bin/env python3
"""The API snapshot check and its proof (TAP output, stdlib only; needs castxml and clang).

 1. tests/abi/libllmmetrics.api equals the snapshot of the headers (tools/abi/api_snapshot.py);
    any difference fails, with the diff. `./dev.sh abi-baseline` rewrites it on purpose.
 2. tests/abi/libllmmetrics.abignore suppresses "data member appended at the end" for exactly
    the size-prefixed structs of the headers (no more, no fewer), one entry each.
 3. The headers keep the 1.0 API (tests/abi/1.0): every 1.0 function, enumerator and typedef
    as it was, every 1.0 struct as it was but for fields appended to a size-prefixed one.
 4. The checks work: on a copy of the headers they pass unchanged, and both 1 and 3 fail for
    each mutation below (an argument type, an enum value, a struct field), naming it.

usage: check_api.py SOURCE_ROOT BUILD_ROOT
"""

import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "abi"))
import api_snapshot  # noqa: E402
import header_model  # noqa: E402

# (what it changes, header, pattern, replacement, a name the diff must mention)
MUTATIONS = [
    ("an argument type: llmm_polyfit's degree uint32_t -> uint64_t", "fit.h",
     r"(llmm_polyfit\(const double \*x, const double \*y, size_t n, )uint32_t( degree)",
     r"\1uint64_t\2", "llmm_polyfit"),
    ("an enum value: LLMM_CORRELATION_SPEARMAN 2 -> 3", "detect.h",
     r"(LLMM_CORRELATION_SPEARMAN = )2", r"\g<1>3", "LLMM_CORRELATION_SPEARMAN"),
    ("a struct field: llmm_tlb_reading's misses uint64_t -> uint32_t", "resource.h",
     r"(typedef struct llmm_tlb_reading \{.*?)uint64_t( misses;)", r"\1uint32_t\2",
     "misses"),
]


class Tap:
    def __init__(self):
        self.n = self.failed = 0
        self.lines = []

    def result(self, ok, desc, detail=""):
        self.n += 1
        self.failed += not ok
        self.lines.append("%s %d - %s" % ("ok" if ok else "not ok", self.n, desc))
        self.lines += ["# " + line for line in detail.splitlines()]

    def emit(self):
        print("1..%d" % self.n)
        print("\n".join(self.lines))
        return 1 if self.failed else 0


def abignore_structs(path):
    """{struct name: entries} of the `has_data_member_inserted_at = end` suppressions."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    found = {}
    for block in re.split(r"(?=\[suppress_type\])", text):
        name = re.search(r"^\s*name\s*=\s*(\S+)", block, re.M)
        if name and re.search(r"has_data_member_inserted_at\s*=\s*end", block):
            found[name.group(1)] = found.get(name.group(1), 0) + 1
    return found


def copy_headers(src_root, build_root, dest):
    os.makedirs(os.path.join(dest, "llmmetrics"))
    for d in (os.path.join(src_root, "include", "llmmetrics"),
              os.path.join(build_root, "include", "llmmetrics")):
        for name in os.listdir(d):
            if name.endswith(".h"):
                shutil.copy(os.path.join(d, name), os.path.join(dest, "llmmetrics", name))


def main():
    src, bld = sys.argv[1], sys.argv[2]
    snapshot_path = os.path.join(src, "tests", "abi", "libllmmetrics.api")
    tap = Tap()
    if not shutil.which("castxml") or not shutil.which("clang"):
        print("1..0 # SKIP castxml or clang not installed (Debian packages castxml, clang)")
        return 0
    with open(snapshot_path, encoding="utf-8") as f:
        committed = f.read()

    api = header_model.load([os.path.join(src, "include"), os.path.join(bld, "include")])
    diff = api_snapshot.compare(committed, api_snapshot.render(api), snapshot_path)
    tap.result(not diff, "tests/abi/libllmmetrics.api matches the headers (%d functions, "
               "%d structs, %d enums)" % (len(api.functions), len(api.structs), len(api.enums)),
               diff + ("If the change is intended: ./dev.sh abi-baseline" if diff else ""))

    sized = {s.name for s in api.size_prefixed()}
    entries = abignore_structs(os.path.join(src, "tests", "abi", "libllmmetrics.abignore"))
    problems = ["no entry for %s" % s for s in sorted(sized - set(entries))]
    problems += ["%s is not a size-prefixed struct" % s for s in sorted(set(entries) - sized)]
    problems += ["%d entries for %s" % (n, s) for s, n in sorted(entries.items()) if n > 1]
    tap.result(not problems, "libllmmetrics.abignore: one appended-fields entry per "
               "size-prefixed struct (%d)" % len(sized), "\n".join(problems))

    v1_0 = header_model.load([os.path.join(src, "tests", "abi", "1.0")])
    broken = api_snapshot.incompatibilities(v1_0, api)
    tap.result(not broken, "the headers keep the 1.0 API (%d functions, %d structs, %d enums)"
               % (len(v1_0.functions), len(v1_0.structs), len(v1_0.enums)), "\n".join(broken))

    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, "include")
        copy_headers(src, bld, inc)
        control = api_snapshot.compare(committed, api_snapshot.render(header_model.load([inc])),
                                       "snapshot")
        tap.result(not control, "control: the check passes on an unchanged copy of the headers",
                   control)
        for what, header, pattern, repl, name in MUTATIONS:
            path = os.path.join(inc, "llmmetrics", header)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            mutated, n = re.subn(pattern, repl, original, count=1, flags=re.S)
            if n != 1:
                tap.result(False, "mutation %s: pattern not found in %s" % (what, header))
                continue
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutated)
            mutated_api = header_model.load([inc])
            diff = api_snapshot.compare(committed, api_snapshot.render(mutated_api), "snapshot")
            broken = api_snapshot.incompatibilities(v1_0, mutated_api)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            changed = [line for line in diff.splitlines() if line[:1] in "+-"
                       and not line.startswith(("+++", "---"))]
            tap.result(any(name in line for line in changed) and any(name in b for b in broken),
                       "mutation caught by the snapshot and the 1.0 check: %s" % what,
                       "\n".join(changed[:6] + broken))
    return tap.emit()


if __name__ == "__main__":
    sys.exit(main())
