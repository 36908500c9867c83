#!/usr/bin/env python3
"""Write the README's numbers table from the benchmarks' `--json` output.

Runs bench_sketch, bench_query, bench_detect, bench_codec, bench_fit and bench_host of a build directory
with --json (or reads their saved output, one NAME.json per benchmark, from --from DIR), and
replaces the part of README.md between the markers `<!-- numbers:begin -->` and
`<!-- numbers:end -->` with a table of what was measured, headed by the machine, the load
average before and after the run, the compiler and the date. Every figure in the table comes
from that run; ratios compare figures measured in alternating rounds of the same run, which
machine load shifts alike, so they hold where the absolute times do not.

Usage: readme_numbers.py BUILD_DIR [--from DIR] [--save DIR] [--readme PATH] [--print]
  --from DIR   read DIR/NAME.json instead of running the benchmarks
  --save DIR   keep each benchmark's JSON output in DIR/NAME.json
  --print      print the generated section instead of writing the README
"""
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import textwrap

BENCHES = ('sketch', 'query', 'detect', 'codec', 'fit', 'host')
BEGIN, END = '<!-- numbers:begin -->', '<!-- numbers:end -->'


def opt(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def run_benches(build, saved, keep):
    """{figure: (value, unit, target)} over every benchmark, and (load average before, after,
    date) of the run."""
    figures, load0 = {}, os.getloadavg()
    when = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    for name in BENCHES:
        if saved:
            path = os.path.join(saved, name + '.json')
            if not os.path.exists(path):
                print('readme_numbers: no %s, skipped' % path, file=sys.stderr)
                continue
            with open(path, encoding='utf-8') as f:
                text = f.read()
        else:
            exe = os.path.join(build, 'bench', 'bench_' + name)
            print('readme_numbers: running %s --json' % exe, file=sys.stderr)
            text = subprocess.run([exe, '--json'], check=True, stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout
            if keep:
                os.makedirs(keep, exist_ok=True)
                with open(os.path.join(keep, name + '.json'), 'w', encoding='utf-8') as f:
                    f.write(text)
        for r in json.loads(text)['results']:
            if 'figure' in r:
                figures[r['figure']] = (r['value'], r['unit'], r['target'])
            else:  # bench_fit's rows: a time per fit and the same-run ratio to numpy
                figures[r['name']] = (r['ns_per_fit'], 'ns', '')
                if 'ratio_to_numpy' in r:
                    figures[r['name'] + ' / numpy'] = (r['ratio_to_numpy'], 'x', '')
    load1 = os.getloadavg()
    if saved:  # the load of the run that saved them, when it was recorded
        try:
            with open(os.path.join(saved, 'meta.json'), encoding='utf-8') as f:
                meta = json.load(f)
            load0, load1, when = meta['load_before'], meta['load_after'], meta['when']
        except (OSError, ValueError, KeyError):
            load0 = load1 = None
            when = 'a date not recorded'
    elif keep:
        with open(os.path.join(keep, 'meta.json'), 'w', encoding='utf-8') as f:
            json.dump({'load_before': load0, 'load_after': load1, 'when': when}, f)
    return figures, (load0, load1, when)


def fmt(v, unit):
    if unit in ('x', '%'):
        return '%.3g%s' % (v, '' if unit == '%' else 'x') + (' %' if unit == '%' else '')
    if unit == 'ns' and v >= 1e9:
        return '%.3g s' % (v / 1e9)
    if unit == 'ns' and v >= 1e6:
        return '%.3g ms' % (v / 1e6)
    if unit == 'ns' and v >= 1e3:
        return '%.3g µs' % (v / 1e3)
    if unit == 'bytes':
        return '%d bytes' % round(v)
    if unit == 'us':
        return '%.3g µs' % v
    if unit.startswith('ns/'):
        return '%.3g ns / %s' % (v, unit[3:])
    return '%.3g %s' % (v, unit)


# (what the row shows, [(label, figure)], target). A label of '' shows the value alone.
ROWS = [
    ('`llmm_sketch_add`, σ = 1 / σ = 2',
     [('', 'sigma=1 scale=6 add'), ('', 'sigma=2 scale=6 add'),
      ('of the `sum += v` floor', 'sigma=1 scale=6 add / add floor')], '≤ 3.5 ns'),
    ('`llmm_sketch_add_many` (4096 per call)',
     [('', 'sigma=1 scale=6 add_many (4096 per call)'),
      ('of the floor', 'sigma=1 scale=6 add_many / add floor')], '≤ 2.5 ns'),
    ('recorder, 1 writer', [('`shard_add`', 'recorder 1 writer, shard_add'),
                            ('`shard_add_many`', 'recorder 1 writer, shard_add_many'),
                            ('ratio', 'recorder 1 writer: shard_add_many / shard_add')],
     'batch ≤ 1.0x'),
    ('recorder, 2 writers, aggregate',
     [('`shard_add`', 'recorder 2 writers, shard_add (aggregate)'),
      ('`shard_add_many`', 'recorder 2 writers, shard_add_many (aggregate)'),
      ('ratio', 'recorder 2 writers: shard_add_many / shard_add')], '≤ 3 ns, batch ≤ 1.0x'),
    ('five quantiles, first call after an add, σ = 1 / σ = 2',
     [('', 'sigma=1 5 quantiles, first query after an add'),
      ('', 'sigma=2 5 quantiles, first query after an add')], '≤ 1 µs'),
    ('five quantiles, unchanged sketch (cumulative view), of the first call',
     [('σ = 1', 'sigma=1 5 quantiles: unchanged / first after an add'),
      ('σ = 2', 'sigma=2 5 quantiles: unchanged / first after an add')], '≤ 0.2x'),
    ('exact baseline: `qsort` of the values + 5 nearest-rank lookups, σ = 1',
     [('', 'sigma=1 exact baseline: qsort + 5 nearest-rank'),
      ('of the first sketch query', 'sigma=1 exact baseline / 5 quantiles first after an add')],
     ''),
    ('merge of two full sketches, σ = 1 / σ = 2, exact',
     [('', 'sigma=1 scale=6 merge'), ('', 'sigma=2 scale=6 merge')], '≤ 2 µs'),
    ('heap, σ = 1 / σ = 2', [('', 'sigma=1 scale=6 heap bytes (live / peak)'),
                             ('', 'sigma=2 scale=6 heap bytes (live / peak)')],
     '≤ 8 / 16 KiB'),
    ('serialized, σ = 1 / σ = 2',
     [('', 'serialized size, sigma 1, 10000000 values, scale 6'),
      ('', 'serialized size, sigma 2, 10000000 values, scale 6')], '≤ 2 KiB'),
    ('worst relative error P50…P99.99, σ = 1 / σ = 2',
     [('', 'sigma=1 scale=6 worst rel. error P50..P99.99'),
      ('', 'sigma=2 scale=6 worst rel. error P50..P99.99'),
      ('after a 16-way merge', 'sigma=1 scale=6 worst rel. error after 16-way merge')],
     '≤ 0.542 %'),
    ('collapse / saturation observe',
     [('', 'collapse observe, W = 8, sigma 1 (ns/sample)'),
      ('', 'saturation observe, N = 64 (ns/sample)')], '≤ 50 ns'),
    ('one host sample (`llmm_host_sample`, real /proc and /sys)',
     [('CPU time', 'llmm_host_sample: CPU time'),
      ('of a 50 ms interval', '  as a share of a 50 ms interval (CPU time)')], '≤ 1 %'),
]


def fit_rows(figures):
    """bench_fit's rows (n = 10 000, degree 3), with the ratio to numpy.polyfit when numpy
    was there to time."""
    return [('polyfit, %s' % f.split('_')[-1], [('', f), ('of numpy.polyfit', f + ' / numpy')],
             '≤ numpy') for f in figures if f.startswith('polyfit_') and not f.endswith('numpy')]


def table(figures):
    lines = ['| figure (scale 6) | measured | target |', '|---|---|---|']
    for what, parts, target in ROWS + fit_rows(figures):
        shown = []
        for label, fig in parts:
            if fig not in figures:
                continue
            v, unit, _ = figures[fig]
            shown.append((label + ' ' if label else '') + fmt(v, unit))
        if shown:
            lines.append('| %s | %s | %s |' % (what, '; '.join(shown), target))
    return lines


def machine(build):
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as f:
            m = re.search(r'^model name\s*:\s*(.*)$', f.read(), re.M)
            cpu = m.group(1).strip() if m else cpu
    except OSError:
        pass
    cc = 'the build\'s C compiler'
    try:
        with open(os.path.join(build, 'meson-logs', 'meson-log.txt'), encoding='utf-8') as f:
            m = re.search(r'C compiler for the host machine: .*?\((\w+ [\d.]+)', f.read())
            cc = m.group(1) if m else cc
    except OSError:
        pass
    return '%s, %d cores as seen by the process (%s)' % (cpu, os.cpu_count() or 0, cc)


def load_text(load0, load1):
    if load0 is None:
        return 'load not recorded'
    return 'load average %.1f before and %.1f after the run (1 minute)' % (load0[0], load1[0])


def section(build, figures, run):
    load0, load1, when = run
    text = ('Generated by `bench/readme_numbers.py` from the `--json` output of `bench/` on %s: '
            '%s; %s. Log-normal latencies (median 200 ms, 10 M values, fixed seed), each '
            'timing the best of several rounds. Absolute times rise with the machine\'s load; '
            'the ratios (`x`) compare figures measured in alternating rounds of the same run '
            'and hold across loads. No figure here is copied from elsewhere.'
            % (when, machine(build), load_text(load0, load1)))
    head = [BEGIN] + textwrap.wrap(text, 99) + ['']
    return head + table(figures) + [END]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = sys.argv[1]
    readme = opt('--readme', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                                          'README.md'))
    figures, run = run_benches(build, opt('--from'), opt('--save'))
    text = '\n'.join(section(build, figures, run)) + '\n'
    if '--print' in sys.argv:
        sys.stdout.write(text)
        return 0
    with open(readme, encoding='utf-8') as f:
        old = f.read()
    a, b = old.find(BEGIN), old.find(END)
    if a < 0 or b < a:
        print('readme_numbers: %s has no %s ... %s section' % (readme, BEGIN, END),
              file=sys.stderr)
        return 1
    with open(readme, 'w', encoding='utf-8') as f:
        f.write(old[:a] + text + old[b + len(END) + 1:])
    return 0


if __name__ == '__main__':
    sys.exit(main())
