#!/usr/bin/env python3
"""The format check (meson suite `format`): is the tree laid out as committed rules say?

  check_format.py SOURCE_ROOT CLANG_FORMAT

1. Every C file under lib/ and include/ is exactly what CLANG_FORMAT makes of it with the
   project's .clang-format (the tool, tests, examples and bindings follow the same layout by
   hand; the check holds the library to it).
2. Every text file of the tree follows .editorconfig: UTF-8, LF line ends, a final newline,
   no trailing white space (Markdown aside), indentation by spaces (Go and the Go blocks of
   Markdown aside: gofmt's tabs).

Prints one line per problem (file and line) and exits 1 when there is any, 0 otherwise.
"""
import os
import subprocess
import sys

# Directories that are not the project's text: build output, VCS, Rust's target, test data
# and corpora kept byte for byte.
SKIP_DIRS = {'.git', 'target', '__pycache__'}
SKIP_PREFIXES = ('build', )
VERBATIM = ('tests/data/', 'tests/fuzz/corpus/', 'tests/abi/', 'tools/llmm/tests/data/')
TEXT_SUFFIXES = ('.c', '.h', '.py', '.sh', '.rs', '.go', '.md', '.build', '.txt', '.toml',
                 '.ini', '.yml', '.in', '.map', '.cpp')
TEXT_NAMES = ('meson.build', 'meson_options.txt', 'dev.sh', 'run', '.editorconfig',
              '.clang-format', '.gitignore')


def source_files(root):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS
                         and not (rel == '.' and x.startswith(SKIP_PREFIXES)))
        for f in sorted(files):
            path = os.path.normpath(os.path.join(rel, f))
            if path.startswith(VERBATIM):
                continue
            yield path


def whitespace_problems(root, path):
    with open(os.path.join(root, path), 'rb') as fh:
        data = fh.read()
    if not data:
        return
    try:
        data.decode('utf-8')
    except UnicodeDecodeError as e:
        yield '%s: not UTF-8 (byte %d)' % (path, e.start)
        return
    if b'\r' in data:
        yield '%s: CR line ends' % path
    if not data.endswith(b'\n'):
        yield '%s: no final newline' % path
    tabs_ok = path.endswith(('.go', '.md'))  # gofmt's tabs, also in Markdown's Go blocks
    for n, line in enumerate(data.split(b'\n'), 1):
        if line.rstrip() != line and not path.endswith('.md'):
            yield '%s:%d: trailing white space' % (path, n)
        indent = line[:len(line) - len(line.lstrip())]
        if b'\t' in indent and not tabs_ok:
            yield '%s:%d: tab in indentation' % (path, n)


def clang_format_problems(root, clang_format, path):
    with open(os.path.join(root, path), 'rb') as fh:
        original = fh.read()
    formatted = subprocess.run([clang_format, '--style=file', '--assume-filename=' + path],
                               input=original, capture_output=True, check=True,
                               cwd=root).stdout
    if formatted == original:
        return
    a, b = original.split(b'\n'), formatted.split(b'\n')
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    yield '%s:%d: not as clang-format lays it out (run: %s -i %s)' % (
        path, first + 1, os.path.basename(clang_format), path)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    root, clang_format = argv[1], argv[2]
    problems = []
    for path in source_files(root):
        name = os.path.basename(path)
        if path.endswith(TEXT_SUFFIXES) or name in TEXT_NAMES:
            problems.extend(whitespace_problems(root, path))
        if path.startswith(('lib/', 'include/')) and path.endswith(('.c', '.h')):
            problems.extend(clang_format_problems(root, clang_format, path))
    for p in problems:
        print(p)
    print('%d problem(s)' % len(problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
