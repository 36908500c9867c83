#!/usr/bin/env python3
"""Write the coverage page (doc/coverage.md) from a coverage run: nothing in it by hand.

  coverage_page.py GCOVR_JSON REASONS [FUZZ_STATS ...] > doc/coverage.md

GCOVR_JSON is `gcovr --json` of the unit suite over lib/ (./dev.sh coverage makes it).
REASONS (doc/coverage-reasons.txt) says, for each function of lib/ that keeps lines no unit
test runs, why: `FILE FUNCTION KIND WHY` separated by tabs, FILE relative to lib/. Keyed by
function, never by line number, so it holds while the code around it moves. Each FUZZ_STATS
is the log of one `tests/fuzz/run_fuzz.sh` run (libFuzzer's final stats), named
`fuzz-NAME.log`; their executions and times make the fuzzing table.

Prints the page; exits 1 (after writing it) when a function with uncovered lines has no
reason, or a reason names a function that has none left (stale), so that neither goes
unnoticed.
"""
import bisect
import collections
import json
import os
import re
import sys

KINDS = collections.OrderedDict([
    ('guard', 'a check the public API already excludes (refused or normalised by the caller, '
              'or a mathematical impossibility kept as a safety net)'),
    ('size', 'an overflow check of a `size_t` product or sum whose operands the validated '
             'inputs keep far below `SIZE_MAX`'),
    ('system', 'a failure of the C library or kernel that a test cannot provoke without '
               'interposing libc'),
    ('argument', 'a documented error for a bad argument that the module\'s tests do not pass '
                 '(a missing test, cheap to add)'),
    ('numeric', 'a numerical corner that needs inputs crafted for it (overflow of a converted '
                'bound, a singular or stationary fit, a digit carry)'),
    ('path', 'an ordinary path no unit test takes; the reason names the fuzz target that '
             'runs it'),
])


def load_reasons(path):
    reasons = {}
    with open(path, encoding='utf-8') as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 4 or parts[2] not in KINDS:
                sys.exit('%s:%d: want FILE<TAB>FUNCTION<TAB>KIND<TAB>WHY, KIND one of %s'
                         % (path, n, ', '.join(KINDS)))
            reasons[(parts[0], parts[1])] = (parts[2], parts[3])
    return reasons


def lib_name(path):
    path = path.replace(os.sep, '/')
    return path[path.index('lib/') + 4:] if 'lib/' in path else path


def file_figures(entry):
    """Lines (covered, total), branches (covered, total), functions (covered, total) and the
    uncovered line numbers of one file of the gcovr JSON."""
    lines = [l for l in entry['lines'] if not l.get('gcovr/noncode')]
    missed = sorted(l['line_number'] for l in lines if l['count'] == 0)
    branches = [b for l in lines for b in l.get('branches', [])]
    funcs = entry.get('functions', [])
    return {
        'lines': (len(lines) - len(missed), len(lines)),
        'branches': (sum(1 for b in branches if b['count'] > 0), len(branches)),
        'functions': (sum(1 for f in funcs if f['execution_count'] > 0), len(funcs)),
        'missed': missed,
    }


def enclosing_functions(entry, missed):
    """Each uncovered line's function: the one whose first line is the last at or before it."""
    funcs = sorted((f['lineno'], f['name']) for f in entry.get('functions', []))
    starts = [s for s, _ in funcs]
    out = collections.OrderedDict()
    for line in missed:
        i = bisect.bisect_right(starts, line) - 1
        name = funcs[i][1] if i >= 0 else '(file scope)'
        out.setdefault(name, []).append(line)
    return out


def fuzz_rows(paths):
    rows = []
    for p in paths:
        name = re.sub(r'^fuzz-|\.log$', '', os.path.basename(p))
        stats = {}
        with open(p, encoding='utf-8', errors='replace') as fh:
            for line in fh:
                m = re.match(r'stat::(\w+):\s+(\d+)', line)
                if m:
                    stats[m.group(1)] = int(m.group(2))
        if 'number_of_executed_units' in stats:
            rows.append((name, stats['number_of_executed_units'],
                         stats.get('average_exec_per_sec', 0),
                         stats.get('new_units_added', 0)))
    return rows


def pct(a, b):
    return '%.1f %%' % (100.0 * a / b) if b else '—'


def thousands(n):
    return '{:,}'.format(n).replace(',', ' ')


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1], encoding='utf-8') as fh:
        report = json.load(fh)
    reasons = load_reasons(argv[2])
    files = sorted(report['files'], key=lambda e: lib_name(e['file']))
    totals = collections.Counter()
    per_file, uncovered, unexplained, used = [], [], [], set()
    for entry in files:
        name = lib_name(entry['file'])
        fig = file_figures(entry)
        for k in ('lines', 'branches', 'functions'):
            totals[k + '_hit'] += fig[k][0]
            totals[k] += fig[k][1]
        per_file.append((name, fig))
        for func, lines in enclosing_functions(entry, fig['missed']).items():
            key = (name, func)
            if key in reasons:
                used.add(key)
                kind, why = reasons[key]
            else:
                kind, why = 'unexplained', '**no reason recorded**'
                unexplained.append(key)
            uncovered.append((name, func, len(lines), kind, why))
    stale = sorted(set(reasons) - used)

    out = []
    w = out.append
    w('# Test coverage of the library {#coverage}')
    w('')
    w('Written by `tools/dev/coverage_page.py` from the last `./dev.sh coverage` run: do not '
      'edit it by hand. That command builds `build-coverage` (gcc, `--buildtype debug`, '
      '`-Db_coverage=true`, the library and its unit tests only), runs the `unit` suite, and '
      'measures `lib/` with gcovr (branches that gcc adds for its own bookkeeping are not '
      'counted). It fails below 90 % of the lines. The missing line numbers of each file are in '
      '`build-coverage/coverage.txt`, an annotated copy of every source in '
      '`build-coverage/coverage/index.html`.')
    w('')
    w('| | covered | of | share |')
    w('|---|---|---|---|')
    for k in ('lines', 'functions', 'branches'):
        w('| %s | %d | %d | **%s** |' % (k, totals[k + '_hit'], totals[k],
                                         pct(totals[k + '_hit'], totals[k])))
    w('')
    w('## By file')
    w('')
    w('| file | lines | branches | functions |')
    w('|---|---|---|---|')
    for name, fig in per_file:
        w('| %s | %s | %s | %d / %d |' % (name, pct(*fig['lines']), pct(*fig['branches']),
                                           *fig['functions']))
    w('')
    w('## What the unit suite does not run, and why')
    w('')
    w('By function, with the number of its lines no unit test runs. The kinds:')
    w('')
    for k, text in KINDS.items():
        w('- **%s**: %s;' % (k, text))
    w('')
    if uncovered:
        w('| file | function | lines | kind | why |')
        w('|---|---|---|---|---|')
        for name, func, n, kind, why in uncovered:
            w('| %s | `%s` | %d | %s | %s |' % (name, func, n, kind, why))
    else:
        w('Every line of `lib/` is run by the unit suite.')
    w('')
    rows = fuzz_rows(argv[3:])
    if rows:
        w('## Fuzzing')
        w('')
        w('The last `./dev.sh fuzz SECONDS` run (libFuzzer, ASan+UBSan), every target without '
          'a finding:')
        w('')
        w('| target | executions | per second | new inputs |')
        w('|---|---|---|---|')
        for name, execs, rate, new in rows:
            w('| `%s` | %s | %s | %s |' % (name, thousands(execs), thousands(rate),
                                           thousands(new)))
        w('')
    sys.stdout.write('\n'.join(out))
    for f, func in unexplained:
        sys.stderr.write('coverage_page.py: %s: %s has uncovered lines and no reason in %s\n'
                         % (f, func, argv[2]))
    for f, func in stale:
        sys.stderr.write('coverage_page.py: %s: %s: reason for a function with no uncovered '
                         'line left (remove it from %s)\n' % (f, func, argv[2]))
    return 1 if unexplained or stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
