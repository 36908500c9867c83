#!/usr/bin/env python3
"""Instructions per llmm_sketch_add, counted by callgrind (deterministic, not a timing).

Runs bench/add_loop under callgrind twice (N and 2N values) and takes the difference of the
instructions executed inside llmm_sketch_add (inclusive) and its PLT stub, plus the call
instruction itself: the cost seen by an outside program calling through the shared library.
Usage: callgrind_add.py ADD_LOOP_EXE [--max N]   (exit 1 when above --max)
"""
import os
import re
import subprocess
import sys
import tempfile


def inclusive_ir(exe, n):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'cg.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
                        '--toggle-collect=llmm_sketch_add', exe, str(n)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = open(out, encoding='utf-8', errors='replace').read()
    m = re.search(r'^summary:\s*(\d+)', text, re.M) or re.search(r'^totals:\s*(\d+)', text, re.M)
    return int(m.group(1))


def main():
    exe = sys.argv[1]
    limit = None
    if '--max' in sys.argv:
        limit = float(sys.argv[sys.argv.index('--max') + 1])
    n = 200000
    a = inclusive_ir(exe, n)
    b = inclusive_ir(exe, 2 * n)
    per_add = (b - a) / n + 2  # + the call and the PLT jump
    print('instructions per llmm_sketch_add (call and PLT included): %.2f' % per_add)
    if limit is not None:
        print('limit: %.2f' % limit)
        if per_add > limit:
            print('FAIL: above the guard')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
