#!/usr/bin/env python3
"""Drift test of the Rust binding against the public C headers (stdlib only).

Checks, for include/llmmetrics/*.h:
  1. every LLMM_API function is declared in llmmetrics-sys with the same return type and the
     same parameter types (C types mapped to Rust by fixed rules), and nothing else is
     declared there;
  2. every such function is called by the safe crate (as `ffi::name` or `sys::name` in
     llmmetrics/src), or listed in the allow-list with a reason; allow-list entries that are
     bound, unknown or without a reason are errors too;
  3. every enumerator (the status X-macro list included) and every numeric #define has a
     `pub const` of the same value in llmmetrics-sys;
  4. every public struct with a body has a #[repr(C)] struct of the same name in
     llmmetrics-sys with the same fields, in the same order, of the mapped types.

Exit status 0 when everything agrees, 1 with one line per problem otherwise.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BASE_TYPES = {
    "double": "f64", "float": "f32",
    "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16",
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64",
    "size_t": "usize", "char": "c_char", "int": "c_int", "void": "c_void",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def split_top(text, sep=","):
    """Split on `sep` outside parentheses, brackets and angle brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def c_type_to_rust(ctype):
    """'const llmm_sketch *' -> '*const llmm_sketch'; 'void' -> '()'; None if unmappable."""
    tokens = re.findall(r"\w+|\*", ctype)
    tokens = [t for t in tokens if t not in ("struct", "enum")]
    base_const = False
    base = None
    levels = []  # constness of each pointer level, innermost first
    for t in tokens:
        if t == "const":
            if base is None or not levels:
                base_const = True
            else:
                levels[-1] = True
        elif t == "*":
            levels.append(False)
        elif base is None:
            base = t
        else:
            return None
    if base is None:
        return None
    rust = BASE_TYPES.get(base, base if base.startswith("llmm_") else None)
    if rust is None:
        return None
    if not levels:
        return "()" if base == "void" else rust
    # A pointer's own constness (`T * const p`) does not change the Rust type.
    out = ("*const " if base_const else "*mut ") + rust
    for _ in levels[1:]:
        out = "*mut " + out
    return out


def split_c_param(param):
    """'const double *v' -> ('const double *', 'v'); an unnamed parameter keeps its type."""
    m = re.match(r"^(.*?[\s*])(\w+)\s*$", param)
    if m and m.group(2) not in BASE_TYPES and not m.group(1).strip().endswith(("struct", "enum")):
        typ = m.group(1).strip()
        if typ and typ not in ("const",):
            return typ, m.group(2)
    return param, None


def norm(rust_type):
    return re.sub(r"\s+", "", rust_type)


def parse_headers(include_dir):
    functions, constants, structs = {}, {}, {}
    for name in sorted(os.listdir(include_dir)):
        if not name.endswith(".h"):
            continue
        raw = open(os.path.join(include_dir, name), encoding="utf-8").read()
        text = strip_comments(raw)
        for m in re.finditer(r"\bLLMM_API\s+([^;]*?)\b(llmm_\w+)\s*\(([^;]*?)\)\s*;", text, re.S):
            ret, fname, params = m.group(1), m.group(2), m.group(3).strip()
            plist = [] if params in ("", "void") else split_top(params)
            functions[fname] = {
                "header": name,
                "ret": c_type_to_rust(ret),
                "params": [c_type_to_rust(split_c_param(p)[0]) for p in plist],
                "c": " ".join(m.group(0).split()),
            }
        for m in re.finditer(r"typedef\s+enum\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            for item in split_top(m.group(1)):
                em = re.match(r"^(\w+)\s*(?:=\s*(.+))?$", item.strip())
                if not em or em.group(1).endswith("_FORCE_INT_"):
                    continue
                if em.group(2) is None or "(" in em.group(2):
                    continue  # generated from the X-macro list, handled below
                constants[em.group(1)] = (int(em.group(2), 0), name)
        for m in re.finditer(r"\bX\((LLMM_\w+),\s*(-?\d+),", text):
            constants[m.group(1)] = (int(m.group(2)), name)
        for m in re.finditer(r"^\s*#\s*define\s+(LLMM_\w+)[ \t]+([^\n]+)$", text, re.M):
            value = m.group(2).strip()
            # UINT64_C(n), INT64_C(n), ... and plain parentheses are spellings of the number.
            value = re.sub(r"^U?INT(?:8|16|32|64)_C\((.*)\)$", r"\1", value)
            value = re.sub(r"^\((.*)\)$", r"\1", value).strip()
            num = re.fullmatch(r"(-?[0-9][0-9.eE+-]*)(?:[uU]?[lL]{0,2}|[lL]{0,2}[uU]?)", value)
            if not num:
                continue
            txt = num.group(1)
            constants[m.group(1)] = (float(txt) if re.search(r"[.eE]", txt) else int(txt), name)
        for m in re.finditer(r'^\s*#\s*define\s+(LLMM_\w+)[ \t]+"([^"\\]*)"[ \t]*$', text, re.M):
            constants[m.group(1)] = (("str", m.group(2)), name)
        for m in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            fields = []
            for decl in m.group(2).split(";"):
                decl = " ".join(decl.split())
                if not decl:
                    continue
                fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
                if fp:
                    fields.append((fp.group(1), None))
                    continue
                am = re.match(r"^(.*?)(\w+)\s*\[\s*(\w+)\s*\]$", decl)
                if am:
                    fields.append((am.group(2), ("array", c_type_to_rust(am.group(1)), am.group(3))))
                    continue
                typ, fname = split_c_param(decl)
                fields.append((fname, c_type_to_rust(typ)))
            structs[m.group(3)] = (fields, name)
    return functions, constants, structs


def read_sys(path):
    """The declarations of llmmetrics-sys: one file, or every .rs of a directory but tests.rs."""
    if os.path.isfile(path):
        return open(path, encoding="utf-8").read()
    return "\n".join(open(os.path.join(path, f), encoding="utf-8").read()
                     for f in sorted(os.listdir(path)) if f.endswith(".rs") and f != "tests.rs")


def parse_sys(path):
    text = strip_comments(read_sys(path))
    decls = {}
    for block in re.finditer(r'extern\s+"C"\s*\{(.*?)\n\}', text, re.S):
        for m in re.finditer(r"\bpub\s+fn\s+(\w+)\s*\((.*?)\)\s*(?:->\s*([^;]+?))?\s*;", block.group(1), re.S):
            params = []
            for p in split_top(m.group(2)):
                if ":" in p:
                    params.append(norm(p.split(":", 1)[1]))
            decls[m.group(1)] = {"params": params, "ret": norm(m.group(3) or "()")}
    consts = {}
    for m in re.finditer(r"\bpub\s+const\s+(\w+)\s*:\s*([^=;]+?)\s*=\s*([^;]+);", text):
        consts[m.group(1)] = m.group(3).strip()
    structs = {}
    for m in re.finditer(r"#\[repr\(C\)\][^{;]*?\bpub\s+struct\s+(\w+)\s*\{(.*?)\n\}", text, re.S):
        fields = []
        for fm in re.finditer(r"\bpub\s+(?:r#)?(\w+)\s*:\s*(.+?),\s*$", m.group(2), re.M | re.S):
            fields.append((fm.group(1), norm(fm.group(2))))
        structs[m.group(1)] = fields
    return decls, consts, structs


def eval_rust_const(expr, consts, depth=0):
    """Value of a simple Rust constant expression (literals, names, + - * and parentheses)."""
    if depth > 10:
        raise ValueError(expr)
    expr = re.sub(r"(?<=\d)_(?=\d)", "", expr)

    def name(m):
        return "(%r)" % (eval_rust_const(consts[m.group(0)], consts, depth + 1),)

    expr = re.sub(r"\b[A-Za-z_]\w*\b", name, expr)
    expr = re.sub(r"(?<=\d)(?:u32|u64|i32|i64|usize|f64)\b", "", expr)
    if not re.fullmatch(r"[0-9eE.+\-*/() ]+", expr):
        raise ValueError(expr)
    return eval(expr, {"__builtins__": {}}, {})  # only digits and operators reach here


def read_allow(path):
    allow, problems = {}, []
    if not os.path.exists(path):
        return allow, problems
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[1].strip():
            problems.append("%s:%d: %s has no reason" % (path, n, parts[0]))
        allow[parts[0]] = parts[1].strip() if len(parts) > 1 else ""
    return allow, problems


def safe_uses(src_dir):
    used = set()
    for dirpath, _, files in os.walk(src_dir):
        for f in files:
            if f.endswith(".rs"):
                text = strip_comments(open(os.path.join(dirpath, f), encoding="utf-8").read())
                used.update(re.findall(r"\b(?:ffi|sys)::(llmm_\w+)\b", text))
    return used


def check(include, sys_rs, safe, allow_path):
    """Every disagreement between the headers and the binding, one line each."""
    functions, constants, structs = parse_headers(include)
    decls, consts, rstructs = parse_sys(sys_rs)
    allow, problems = read_allow(allow_path)
    used = safe_uses(safe)
    if not functions:
        problems.append("no LLMM_API functions found under %s" % include)

    for fname, f in sorted(functions.items()):
        d = decls.get(fname)
        where = "%s (%s)" % (fname, f["header"])
        if d is None:
            problems.append("%s: not declared in llmmetrics-sys: %s" % (where, f["c"]))
        else:
            if f["ret"] is None or None in f["params"]:
                problems.append("%s: a C type has no mapping rule: %s" % (where, f["c"]))
            else:
                want = [norm(p) for p in f["params"]]
                if want != d["params"]:
                    problems.append("%s: parameters %s in C, %s in llmmetrics-sys"
                                    % (where, want, d["params"]))
                if norm(f["ret"]) != d["ret"]:
                    problems.append("%s: returns %s in C, %s in llmmetrics-sys"
                                    % (where, norm(f["ret"]), d["ret"]))
        if fname in used and fname in allow:
            problems.append("%s: bound by the safe crate but still in the allow-list" % where)
        elif fname not in used and fname not in allow:
            problems.append("%s: not used by the safe crate (bind it or allow-list it with a reason)"
                            % where)
    for fname in sorted(set(decls) - set(functions)):
        problems.append("%s: declared in llmmetrics-sys but not in any header" % fname)
    for fname in sorted(set(allow) - set(functions)):
        problems.append("%s: in the allow-list but not in any header" % fname)

    for cname, (value, header) in sorted(constants.items()):
        if cname not in consts:
            problems.append("%s (%s): constant missing in llmmetrics-sys" % (cname, header))
            continue
        if isinstance(value, tuple):  # a string #define: a NUL-terminated byte string in Rust
            if consts[cname] != 'b"%s\\0"' % value[1]:
                problems.append("%s (%s): \"%s\" in C, %s in llmmetrics-sys"
                                % (cname, header, value[1], consts[cname]))
            continue
        try:
            got = eval_rust_const(consts[cname], consts)
        except (ValueError, KeyError, SyntaxError):
            problems.append("%s: cannot evaluate %r" % (cname, consts[cname]))
            continue
        if got != value:
            problems.append("%s (%s): %r in C, %r in llmmetrics-sys" % (cname, header, value, got))

    for sname, (fields, header) in sorted(structs.items()):
        rfields = rstructs.get(sname)
        if rfields is None:
            problems.append("%s (%s): no #[repr(C)] struct in llmmetrics-sys" % (sname, header))
            continue
        if [f[0] for f in fields] != [f[0] for f in rfields]:
            problems.append("%s: fields %s in C, %s in llmmetrics-sys"
                            % (sname, [f[0] for f in fields], [f[0] for f in rfields]))
            continue
        for (fname, ctype), (_, rtype) in zip(fields, rfields):
            if ctype is None:
                continue  # a function pointer: checked by the struct_size test in the crate
            if isinstance(ctype, tuple):
                _, elem, count = ctype
                ok = elem is not None and re.fullmatch(r"\[%s;(\w+)\]" % re.escape(norm(elem)), rtype)
                if ok:
                    cval = constants.get(count, (count,))[0]
                    try:
                        ok = eval_rust_const(ok.group(1), consts) == int(cval)
                    except (ValueError, KeyError, SyntaxError):
                        ok = False
            else:
                ok = ctype is not None and norm(ctype) == rtype
            if not ok:
                problems.append("%s.%s: %s in C, %s in llmmetrics-sys" % (sname, fname, ctype, rtype))

    bound = len([f for f in functions if f in used])
    allowed = len([f for f in functions if f in allow and f not in used])
    summary = ("rust drift: %d C functions (%d bound by the safe crate, %d allow-listed), "
               "%d constants, %d structs" % (len(functions), bound, allowed,
                                              len(constants), len(structs)))
    return summary, problems


def self_test(args):
    """Each kind of drift, made on a copy, must be reported."""
    import shutil
    import tempfile

    mutations = [
        ("header", "LLMM_API uint64_t llmm_now_ns(void);",
         "LLMM_API uint64_t llmm_now_ns(void);\nLLMM_API llmm_status llmm_new_call(const double *v, size_t n);",
         "llmm_new_call (core.h): not declared"),
        ("sys", "pub fn llmm_sketch_add(s: *mut llmm_sketch, v: f64)",
         "pub fn llmm_sketch_add(s: *const llmm_sketch, v: f64)", "llmm_sketch_add (sketch.h): parameters"),
        ("sys", "pub fn llmm_version() -> u32;", "pub fn llmm_version() -> u64;",
         "llmm_version (core.h): returns"),
        ("sys", "pub const LLMM_E_STATE: llmm_status = -9;", "pub const LLMM_E_STATE: llmm_status = -8;",
         "LLMM_E_STATE (core.h): -9 in C, -8"),
        ("sys", "    pub layers_missing: u32,\n    /// 1 when", "    pub layers_missing: i32,\n    /// 1 when",
         "llmm_score_result.layers_missing"),
        ("sys", "pub fn llmm_ctx_free(ctx: *mut llmm_ctx);",
         "pub fn llmm_ctx_free(ctx: *mut llmm_ctx);\n    pub fn llmm_gone();", "llmm_gone: declared"),
        ("sys", 'b"net.tcp.retrans\\0"', 'b"net.tcp.retransmit\\0"', "LLMM_EVENT_ATTR_TCP_RETRANSMIT (detect.h)"),
        ("sys", "pub r#type: i32,", "pub kind: i32,", "llmm_event: fields"),
        ("safe", "ffi::llmm_sketch_rank(", "sketch_rank_unbound(", "llmm_sketch_rank (sketch.h): not used"),
        ("allow", "", "llmm_sketch_add\n", "llmm_sketch_add has no reason"),
    ]
    failures = 0
    for kind, old, new, expect in mutations:
        tmp = tempfile.mkdtemp(prefix="llmm-drift-")
        try:
            inc = os.path.join(tmp, "include")
            shutil.copytree(args.include, inc)
            sys_rs = os.path.join(tmp, "sys")
            if os.path.isdir(args.sys):
                shutil.copytree(args.sys, sys_rs)
            else:
                os.mkdir(sys_rs)
                shutil.copy(args.sys, sys_rs)
            safe = os.path.join(tmp, "src")
            shutil.copytree(args.safe, safe)
            allow = os.path.join(tmp, "allow.txt")
            open(allow, "w").write(open(args.allow).read() if os.path.exists(args.allow) else "")
            target = {"header": os.path.join(inc, "core.h"), "sys": None,
                      "safe": os.path.join(safe, "sketch.rs"), "allow": allow}[kind]
            if target is None:  # the -sys file that holds the text to change
                target = next((os.path.join(sys_rs, f) for f in sorted(os.listdir(sys_rs))
                               if old in open(os.path.join(sys_rs, f), encoding="utf-8").read()),
                              os.path.join(sys_rs, "lib.rs"))
            text = open(target, encoding="utf-8").read()
            if old and old not in text:
                print("SELF-TEST: %r not found in %s copy" % (old, kind))
                failures += 1
                continue
            text = text.replace(old, new, 1) if old else text + new
            open(target, "w", encoding="utf-8").write(text)
            _, problems = check(inc, sys_rs, safe, allow)
            if not any(expect in p for p in problems):
                print("SELF-TEST: %s mutation not reported (wanted %r; got %r)" % (kind, expect, problems))
                failures += 1
        finally:
            shutil.rmtree(tmp)
    print("rust drift self-test: %d of %d mutations reported" % (len(mutations) - failures, len(mutations)))
    return failures == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", default=os.path.join(ROOT, "include", "llmmetrics"))
    ap.add_argument("--sys", default=os.path.join(HERE, "llmmetrics-sys", "src"),
                    help="the -sys crate's source directory (or one file)")
    ap.add_argument("--safe", default=os.path.join(HERE, "llmmetrics", "src"))
    ap.add_argument("--allow", default=os.path.join(HERE, "drift-allow.txt"))
    ap.add_argument("--self-test", action="store_true",
                    help="also check that drift made on copies is reported")
    args = ap.parse_args()

    ok = self_test(args) if args.self_test else True
    summary, problems = check(args.include, args.sys, args.safe, args.allow)
    print(summary)
    for p in problems:
        print("DRIFT: " + p)
    return 0 if ok and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
