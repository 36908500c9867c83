#!/usr/bin/env python3
"""Exported-symbol check for libllmmetrics (TAP output, stdlib only).

Asserts exact agreement between three lists, none of them written down here:

  (a) every function declared with LLMM_API in include/llmmetrics/*.h; functions of
      experimental.h belong to the version node LLMM_EXPERIMENTAL, all others to a stable
      node (LLMM_<major>.<minor>);
  (b) lib/libllmmetrics.map: which node lists which symbol;
  (c) `nm -D --defined-only` of the built library: which symbol is exported under which
      default version (name@@NODE).

It also checks that every exported symbol is a function whose name starts with llmm_ (never the
internal llmm__ prefix) and that the SONAME is libllmmetrics.so.<major>.

usage: check_exports.py SOURCE_ROOT LIBRARY [--nm NM] [--readelf READELF] [--soname SONAME]
"""

import argparse
import glob
import os
import re
import subprocess
import sys

EXPERIMENTAL_NODE = "LLMM_EXPERIMENTAL"
EXPERIMENTAL_HEADER = "experimental.h"
STABLE_NODE_RE = re.compile(r"^LLMM_[0-9]+\.[0-9]+$")


def strip_c_comments(text):
    """Remove /* */ and // comments, keeping string literals and line structure."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end) or " ")
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_preprocessor(text):
    """Drop preprocessor directives (with their continuation lines)."""
    lines = text.split("\n")
    kept, in_directive = [], False
    for line in lines:
        starts = line.lstrip().startswith("#")
        if starts or in_directive:
            in_directive = line.rstrip().endswith("\\")
            kept.append("")
            continue
        kept.append(line)
    return "\n".join(kept)


DECL_RE = re.compile(r"\bLLMM_API\b([^;{}]*?)\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", re.S)


def header_functions(include_dir):
    """Map function name -> (header file name, expected node kind) for every LLMM_API decl."""
    found = {}
    problems = []
    headers = sorted(glob.glob(os.path.join(include_dir, "*.h")))
    for path in headers:
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            text = strip_preprocessor(strip_c_comments(f.read()))
        for m in DECL_RE.finditer(text):
            fn = m.group(2)
            # A declaration that returns a function pointer would put '(' before the name.
            if "(" in m.group(1):
                problems.append("%s: cannot parse declaration near %r" % (name, fn))
                continue
            kind = "experimental" if name == EXPERIMENTAL_HEADER else "stable"
            if fn in found:
                problems.append("%s: %s already declared in %s" % (name, fn, found[fn][0]))
                continue
            found[fn] = (name, kind)
        # LLMM_API that the regex did not consume (e.g. on a variable) is a problem too.
        count = len(re.findall(r"\bLLMM_API\b", text))
        parsed = len(DECL_RE.findall(text))
        if count != parsed:
            problems.append("%s: %d uses of LLMM_API but %d function declarations parsed"
                            % (name, count, parsed))
    return headers, found, problems


def parse_map(path):
    """Map symbol -> node from a GNU ld version script; also report structural problems."""
    with open(path, encoding="utf-8") as f:
        text = strip_c_comments(f.read())
    text = re.sub(r"#[^\n]*", "", text)
    symbols, problems, nodes = {}, [], []
    node_re = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\{(.*?)\}\s*([A-Za-z_][A-Za-z0-9_.]*)?\s*;",
                         re.S)
    pos = 0
    for m in node_re.finditer(text):
        if text[pos:m.start()].strip():
            problems.append("map: cannot parse %r" % text[pos:m.start()].strip()[:60])
        pos = m.end()
        node, body = m.group(1), m.group(2)
        nodes.append(node)
        scope = "global"
        for item in body.split(";"):
            item = item.strip()
            while True:
                sm = re.match(r"^(global|local)\s*:\s*", item)
                if not sm:
                    break
                scope = sm.group(1)
                item = item[sm.end():].strip()
            if not item:
                continue
            if scope == "local":
                if item != "*":
                    problems.append("map: unexpected local entry %r in %s" % (item, node))
                continue
            if any(ch in item for ch in "*?[") or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", item):
                problems.append("map: %s: global entry %r is not a plain symbol" % (node, item))
                continue
            if item in symbols:
                problems.append("map: %s listed in both %s and %s" % (item, symbols[item], node))
                continue
            symbols[item] = node
    if text[pos:].strip():
        problems.append("map: cannot parse trailing %r" % text[pos:].strip()[:60])
    return nodes, symbols, problems


def exported(nm, library):
    """Map symbol -> (nm type, version, default?) of the defined dynamic symbols."""
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    syms, version_defs = {}, set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        typ, name = parts[-2], parts[-1]
        if typ == "A" and "@" not in name:
            version_defs.add(name)
            continue
        if "@@" in name:
            sym, ver = name.split("@@", 1)
            default = True
        elif "@" in name:
            sym, ver = name.split("@", 1)
            default = False
        else:
            sym, ver, default = name, None, True
        syms[sym] = (typ, ver, default)
    return syms, version_defs


def soname(readelf, library):
    out = subprocess.run([readelf, "-d", library], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return m.group(1) if m else None


class Tap:
    def __init__(self):
        self.results = []

    def check(self, description, problems):
        self.results.append((description, list(problems)))

    def emit(self):
        print("1..%d" % len(self.results))
        failed = 0
        for i, (description, problems) in enumerate(self.results, 1):
            if problems:
                failed += 1
                print("not ok %d - %s" % (i, description))
                for p in problems:
                    print("#   %s" % p)
            else:
                print("ok %d - %s" % (i, description))
        return failed


def set_diff(name_a, a, name_b, b):
    problems = []
    for s in sorted(set(a) - set(b)):
        problems.append("%s in %s but not in %s" % (s, name_a, name_b))
    for s in sorted(set(b) - set(a)):
        problems.append("%s in %s but not in %s" % (s, name_b, name_a))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_root")
    ap.add_argument("library")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--readelf", default="readelf")
    ap.add_argument("--soname", default="libllmmetrics.so.1")
    args = ap.parse_args()

    include_dir = os.path.join(args.source_root, "include", "llmmetrics")
    map_path = os.path.join(args.source_root, "lib", "libllmmetrics.map")
    tap = Tap()

    headers, decls, header_problems = header_functions(include_dir)
    if not headers:
        header_problems.append("no headers found in %s" % include_dir)
    tap.check("parse LLMM_API declarations in %d headers (%d functions)"
              % (len(headers), len(decls)), header_problems)

    nodes, map_syms, map_problems = parse_map(map_path)
    for node in nodes:
        if node != EXPERIMENTAL_NODE and not STABLE_NODE_RE.match(node):
            map_problems.append("map: node %s is neither LLMM_<major>.<minor> nor %s"
                                % (node, EXPERIMENTAL_NODE))
    if EXPERIMENTAL_NODE not in nodes:
        map_problems.append("map: node %s missing" % EXPERIMENTAL_NODE)
    tap.check("parse version script (%d nodes, %d symbols)" % (len(nodes), len(map_syms)),
              map_problems)

    tap.check("header declarations == version script symbols",
              set_diff("headers", decls, "map", map_syms))

    node_problems = []
    for fn, (hdr, kind) in sorted(decls.items()):
        node = map_syms.get(fn)
        if node is None:
            continue
        if kind == "experimental" and node != EXPERIMENTAL_NODE:
            node_problems.append("%s (declared in %s) is in node %s, expected %s"
                                 % (fn, hdr, node, EXPERIMENTAL_NODE))
        if kind == "stable" and not STABLE_NODE_RE.match(node):
            node_problems.append("%s (declared in %s) is in node %s, expected a stable node"
                                 % (fn, hdr, node))
    tap.check("experimental.h calls in %s, all others in a stable node" % EXPERIMENTAL_NODE,
              node_problems)

    syms, version_defs = exported(args.nm, args.library)
    tap.check("nm -D exports == version script symbols",
              set_diff("nm -D", syms, "map", map_syms))

    version_problems = []
    for sym, (typ, ver, default) in sorted(syms.items()):
        want = map_syms.get(sym)
        if want is None:
            continue
        if ver != want or not default:
            version_problems.append("%s exported as %s%s, map says @@%s"
                                    % (sym, "@@" if default else "@", ver, want))
    for node in set(nodes) - version_defs:
        version_problems.append("version node %s not defined in the library" % node)
    for node in version_defs - set(nodes):
        version_problems.append("library defines version %s that the map does not" % node)
    tap.check("every export carries the default version of its map node", version_problems)

    name_problems = []
    for sym, (typ, ver, default) in sorted(syms.items()):
        if not sym.startswith("llmm_"):
            name_problems.append("%s: exported name does not start with llmm_" % sym)
        if sym.startswith("llmm__"):
            name_problems.append("%s: internal llmm__ name is exported" % sym)
        if typ not in ("T", "i"):
            name_problems.append("%s: exported symbol of nm type %s is not a function"
                                 % (sym, typ))
    for fn in decls:
        if not fn.startswith("llmm_") or fn.startswith("llmm__"):
            name_problems.append("%s: declared LLMM_API with a non-public name" % fn)
    tap.check("exports are functions named llmm_* (never llmm__*)", name_problems)

    so = soname(args.readelf, args.library)
    tap.check("SONAME is %s" % args.soname,
              [] if so == args.soname else ["SONAME is %r" % so])

    return 1 if tap.emit() else 0


if __name__ == "__main__":
    sys.exit(main())
