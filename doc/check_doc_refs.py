#!/usr/bin/env python3
"""Suite 'docs': every name the user documentation mentions exists.

Reads README.md, doc/*.md and bindings/*/README.md and checks, with TAP output:
  * every `llmm_*` identifier (functions, types, enum constants, fields; `llmm__*` internals
    and `llmm_<x>` placeholders are not identifiers) is declared in a public header
    (include/llmmetrics/*.h, *.h.in);
  * every command of `llmm COMMAND` written in code is one of the commands `llmm --help`
    lists, and every `--flag` that follows such a command in the same paragraph or table
    row (and every `-x` in the same code span) appears in `llmm COMMAND --help`, which must
    exit 0;
  * the same for `metrics_server --flag` against `metrics_server --help`.
Usage: check_doc_refs.py SOURCE_ROOT BUILD_ROOT [METRICS_SERVER]
A program that was not built (no YAJL for llmm, no libmicrohttpd for metrics_server) has
its checks reported as skipped.
"""
import glob
import os
import re
import subprocess
import sys

IDENT = re.compile(r'\bllmm_[a-z0-9][a-z0-9_]*')
CODE = re.compile(r'`([^`\n]+)`')
LONG = re.compile(r'(?<![\w-])--[a-z][a-z0-9-]*')
SHORT = re.compile(r'(?<![\w-])-[a-zA-Z](?![\w-])')


def documents(src):
    paths = [os.path.join(src, 'README.md')]
    paths += sorted(glob.glob(os.path.join(src, 'doc', '*.md')))
    paths += sorted(glob.glob(os.path.join(src, 'bindings', '*', 'README.md')))
    return [p for p in paths if os.path.isfile(p)]


def header_names(src):
    """Names the public headers declare, the `llmm_cli_*` names of the tool's own headers
    (the maintainers' layout in doc/cli.md names them) and the `llmm_push_*` names of the
    OTLP sender (tools/otlp, doc/exporting.md)."""
    names = set()
    paths = glob.glob(os.path.join(src, 'include', 'llmmetrics', '*.h*'))
    paths += glob.glob(os.path.join(src, 'tools', 'llmm', '**', '*.h'), recursive=True)
    paths += glob.glob(os.path.join(src, 'tools', 'otlp', '*.h'))
    for h in paths:
        with open(h, encoding='utf-8') as f:
            found = IDENT.findall(f.read())
        if '/tools/otlp/' in h.replace(os.sep, '/'):
            found = [n for n in found if n.startswith('llmm_push_')]
        elif '/tools/' in h.replace(os.sep, '/'):
            found = [n for n in found if n.startswith('llmm_cli_')]
        names.update(found)
    return names


def segments(text):
    """Paragraphs, with each table row and each list item a segment of its own; fenced code
    blocks are one segment per line (a shell line is one command)."""
    out, cur, fenced = [], [], False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith('~~~') or s.startswith('```'):
            out.append(' '.join(cur))
            cur, fenced = [], not fenced
            continue
        if fenced:
            out.append('`%s`' % s)
            continue
        if not s or s.startswith('|') or s.startswith('- ') or s.startswith('#'):
            out.append(' '.join(cur))
            cur = []
            if s:
                out.append(s)
            continue
        cur.append(s)
    out.append(' '.join(cur))
    return [x for x in out if x]


def program_refs(seg, program, commands):
    """(command or None, flag) pairs for `program [COMMAND]` mentions in code in `seg`; an
    unknown command is returned with flag None."""
    refs, owner, pos = [], None, 0
    word = re.compile(r'(?<![\w/.-])%s(?: +([a-z][a-z-]*))?' % re.escape(program))
    spans = [(m.start(), m.end(), m.group(1)) for m in CODE.finditer(seg)]
    for start, end, code in spans:
        # long flags between code spans belong to the last command named
        if owner is not None:
            refs += [(owner, f) for f in LONG.findall(seg[pos:start])]
        for m in word.finditer(code):
            cmd = m.group(1) if commands is not None else ''
            if commands is not None and cmd is None:
                continue
            if commands is not None and cmd not in commands:
                refs.append((cmd, None))
                continue
            owner = cmd
            tail = code[m.end():]
            refs += [(owner, f) for f in LONG.findall(tail) + SHORT.findall(tail)]
            break
        else:
            if LONG.search(code) and not code.lstrip().startswith('-'):
                owner = None  # another program's command line: its flags are not ours
            elif owner is not None:
                refs += [(owner, f) for f in LONG.findall(code)]
        pos = end
    if owner is not None:
        refs += [(owner, f) for f in LONG.findall(seg[pos:])]
    return refs


def help_text(argv):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def find_llmm(build):
    for p in glob.glob(os.path.join(build, 'tools', '**', 'llmm'), recursive=True):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, msg, detail=()):
        self.n += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, msg))
        for d in detail:
            print('#   ' + d)
        self.failed += not ok

    def skip(self, msg):
        self.n += 1
        print('ok %d - # SKIP %s' % (self.n, msg))


def check_program(tap, docs, name, exe, help_argv):
    """Check the `name [COMMAND] --flag` mentions of every document against --help."""
    if not exe:
        tap.skip('%s was not built: its flags in the docs are not checked' % name)
        return
    commands = None
    if name == 'llmm':
        rc, out = help_text([exe, '--help'])
        commands = set(re.findall(r'^  ([a-z][a-z-]*)\b', out, re.M))
        tap.result(rc == 0 and len(commands) >= 3, 'llmm --help exits 0 and lists commands %s'
                   % sorted(commands))
    refs = {}
    for path, text in docs:
        for seg in segments(text):
            for cmd, flag in program_refs(seg, name, commands):
                refs.setdefault(cmd, {}).setdefault(flag, set()).add(os.path.basename(path))
    helps = {}
    for cmd in sorted(refs, key=str):
        flags = refs[cmd]
        if None in flags:
            tap.result(False, '%s %s: no such command (in %s)' % (name, cmd, sorted(flags[None])))
            continue
        if cmd not in helps:
            helps[cmd] = help_text(help_argv(exe, cmd))
        rc, out = helps[cmd]
        known = set(LONG.findall(out)) | set(SHORT.findall(out))
        missing = sorted('%s (%s)' % (f, ', '.join(sorted(w))) for f, w in flags.items()
                         if f not in known)
        label = ('%s %s' % (name, cmd)).strip()
        tap.result(rc == 0 and not missing, '%s --help exits 0 and documents %d flags the docs use'
                   % (label, len(flags)), ['missing: ' + m for m in missing] or
                   ([] if rc == 0 else ['exit status %d' % rc]))


def main():
    src, build = sys.argv[1], sys.argv[2]
    server = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    docs = []
    for p in documents(src):
        with open(p, encoding='utf-8') as f:
            docs.append((p, f.read()))
    tap = Tap()
    names = header_names(src)
    mentioned = {}
    for path, text in docs:
        for ident in IDENT.findall(text):
            mentioned.setdefault(ident, set()).add(os.path.relpath(path, src))
    unknown = sorted('%s (%s)' % (i, ', '.join(sorted(w))) for i, w in mentioned.items()
                     if i not in names)
    tap.result(not unknown, '%d llmm_* identifiers in %d documents, each declared in a public '
               'header (llmm_cli_*: in a header of the tool; llmm_push_*: tools/otlp)' % (len(mentioned), len(docs)), ['not declared: ' + u for u in unknown])
    check_program(tap, docs, 'llmm', find_llmm(build), lambda exe, cmd: [exe, cmd, '--help'])
    check_program(tap, docs, 'metrics_server', server, lambda exe, cmd: [exe, '--help'])
    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
