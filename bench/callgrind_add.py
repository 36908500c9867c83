#!/usr/bin/env python3
"""Instructions per call of a library function, counted by callgrind (deterministic, not a
timing).

Runs a loop program under callgrind twice (N and 2N calls) and takes the difference of the
instructions executed inside the function (inclusive), plus the call and the PLT jump: the cost
seen by an outside program calling through the shared library.
Usage: callgrind_add.py EXE [--function NAME] [--arg WORD] [--n N] [--batch K] [--max LIMIT]
  (defaults: llmm_sketch_add, N = 200000; exit 1 when above --max). With --batch K the loop
  passes K values per call (N counts values): the figure is per value, the call and the PLT
  jump shared by K values.
"""
import os
import re
import subprocess
import sys
import tempfile


def inclusive_ir(exe, n, function, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'cg.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
                        '--toggle-collect=' + function, exe] + args + [str(n)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = open(out, encoding='utf-8', errors='replace').read()
    m = re.search(r'^summary:\s*(\d+)', text, re.M) or re.search(r'^totals:\s*(\d+)', text, re.M)
    return int(m.group(1))


def main():
    exe = sys.argv[1]

    def opt(name, default):
        return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
    limit = opt('--max', None)
    limit = float(limit) if limit is not None else None
    function = opt('--function', 'llmm_sketch_add')
    args = [opt('--arg', '')] if '--arg' in sys.argv else []
    n = int(opt('--n', '200000'))
    batch = int(opt('--batch', '1'))
    a = inclusive_ir(exe, n, function, args)
    b = inclusive_ir(exe, 2 * n, function, args)
    per_add = (b - a) / n + 2 / batch  # + the call and the PLT jump
    print('instructions per %s %s (call and PLT included): %.3f'
          % (function, 'call' if batch == 1 else 'value', per_add))
    if limit is not None:
        print('limit: %.2f' % limit)
        if per_add > limit:
            print('FAIL: above the guard')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
