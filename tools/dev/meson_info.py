#!/usr/bin/env python3
"""What dev.sh needs to know about a configured meson build directory.

  meson_info.py version BUILD     the project's version
  meson_info.py library BUILD     the path of the shared library libllmmetrics
  meson_info.py benches BUILD     the benchmark programs defined under bench/, one a line

Reads `meson introspect`, so it works on any configured build directory.
"""
import json
import os
import subprocess
import sys


def introspect(build, what):
    out = subprocess.run(['meson', 'introspect', build, what], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def version(build):
    print(introspect(build, '--projectinfo')['version'])


def library(build):
    for t in introspect(build, '--targets'):
        if t['type'] == 'shared library' and t['name'] == 'llmmetrics':
            print(t['filename'][0])
            return
    sys.exit('meson_info.py: %s builds no shared libllmmetrics' % build)


def benches(build):
    bench = os.path.join(os.path.realpath('.'), 'bench') + os.sep
    found = []
    for t in introspect(build, '--targets'):
        # *_loop programs are callgrind drivers of the perf suite, not benchmarks
        if (t['type'] == 'executable' and not t['name'].endswith('_loop')
                and os.path.realpath(t['defined_in']).startswith(bench)):
            found.append(t['filename'][0])
    print('\n'.join(sorted(found)))


COMMANDS = {'version': version, 'library': library, 'benches': benches}


def main(argv):
    if len(argv) != 3 or argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[argv[1]](argv[2])


if __name__ == '__main__':
    main(sys.argv)
