#!/usr/bin/env python3
"""Every status a unit test shows a public call returning is one its documentation lists: for
each `assert_status(llmm_NAME(...), LLMM_E_X)` in the unit tests, the Doxygen block of
llmm_NAME carries `@retval LLMM_E_X`.
usage: check_doc_retvals.py INCLUDE_DIR UNIT_TEST_DIR   (TAP output)"""
import glob
import os
import re
import sys


def documented(inc):
    """{call name: set of statuses its @retval lines name}"""
    out = {}
    for path in sorted(glob.glob(os.path.join(inc, '*.h'))):
        text = open(path, encoding='utf-8').read()
        for m in re.finditer(r'/\*\*(.*?)\*/\s*LLMM_API\s+([^;]*?)\b(llmm_\w+)\s*\(', text, re.S):
            out[m.group(3)] = set(re.findall(r'@retval\s+(LLMM_\w+)', m.group(1)))
    return out


def call_end(text, i):
    """Index just past the parenthesis that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == '(':
            depth += 1
        elif text[j] == ')':
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def asserted(unit_dir):
    """[(file, call name, status)] of every assert_status on a direct public call"""
    out = []
    for path in sorted(glob.glob(os.path.join(unit_dir, '*.c'))):
        text = open(path, encoding='utf-8').read()
        for m in re.finditer(r'assert_status\(\s*(llmm_\w+)\s*\(', text):
            end = call_end(text, m.end() - 1)
            st = re.match(r'\s*,\s*(LLMM_\w+)\s*\)', text[end:])
            if st:
                out.append((os.path.basename(path), m.group(1), st.group(1)))
    return out


def main():
    docs = documented(sys.argv[1])
    checks = [(f, name, st) for f, name, st in asserted(sys.argv[2]) if name in docs]
    problems = sorted({'%s: returns %s (%s) but does not list it' % (name, st, f)
                       for f, name, st in checks if st not in docs[name]})
    print('1..1')
    if problems or not checks:
        for p in problems:
            print('# ' + p)
        print('not ok 1 - %d asserted statuses, %d undocumented' % (len(checks), len(problems)))
        return 1
    print('ok 1 - %d statuses asserted by the unit tests are documented' % len(checks))
    return 0


if __name__ == '__main__':
    sys.exit(main())
