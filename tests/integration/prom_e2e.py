#!/usr/bin/env python3
"""End-to-end proof with a real Prometheus server (Debian's prometheus 2.42).

Four metrics_server instances on loopback: job "fixed" serves fixed seeded data sets (test
mode; instance 0 with the default bounded fallback, the OpenTelemetry GenAI bucket lists,
instance 1 with --classic-max 40, the downscaled grid), job "sim" two simulating servers. Two
Prometheus servers scrape all four every second and evaluate examples/prometheus's rules: one
with --enable-feature=native-histograms (it negotiates protobuf), one without (text). Checks:
  * every target of both servers is up, with no scrape error;
  * promtool check metrics passes on every text exposition the example produces;
  * series per scrape: exactly the count the bucket lists give (text) or 38 (native), bounded
    by the grid's N with --classic-max;
  * the native family arrives bucket for bucket: every bucket's bounds are 2^(i/64) and its
    count is the exact number of values in (2^(i/64), 2^((i+1)/64)] (exact rational
    arithmetic), and count / sum are exact - nothing is lost;
  * histogram_quantile(q, sum(llm_e2e_seconds)) for q = 0.5, 0.9, 0.99 is within one bucket
    (1.1 % at scale 6) of the library's merged sketch of both data sets and of the exact value;
  * the classic family (llm_e2e_classic_seconds) carries cumulative counts within one sketch
    bucket of the exact counts, and histogram_quantile over it lands in the right classic bucket;
  * the text-mode server stores the bounded fallback: the list's bounds with counts within one
    sketch bucket (instance 0), at most 40 grid bounds with exact counts (instance 1);
  * every Grafana panel query returns data of the expected kind and range in both modes, with
    all instances and with each one (prom_live.py), and the SLO rules evaluate on live traffic:
    recorded ratios in range, the alerts that must fire do and the others do not.
Usage: prom_e2e.py METRICS_SERVER LIBLLMMETRICS_SO SOURCE_ROOT
Exit 77 (skipped) when prometheus is not installed.
"""
import fractions
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prom_harness import (ONE_BUCKET, SCALE, OTEL_DURATION, OTEL_TPOT, OTEL_TTFT,  # noqa: E402
                          VLLM_REQUEST_LATENCY, Lib, check, free_port, get_text, nearest_rank,
                          query, scalar_values, stop_all, wait_targets_up, wait_until)
import prom_live  # noqa: E402

REQUESTS = 3000
GRID_MAX = 40
SIM_REQUESTS = 20000  # live requests of job "sim" before the dashboard and rules are judged
SIM_SECONDS = 35      # ... and seconds of them: more than the 30 s rate window of the panels


def exact_bucket(v):
    """Index i with 2^(i/64) < v <= 2^((i+1)/64), decided in exact rational arithmetic."""
    n = 2 ** SCALE
    i = math.ceil(math.log2(v) * n) - 1
    fv = fractions.Fraction(v) ** n
    while fv <= fractions.Fraction(2) ** i:  # v <= 2^(i/n): too high
        i -= 1
    while fv > fractions.Fraction(2) ** (i + 1):  # v > 2^((i+1)/n): too low
        i += 1
    return i


def start_processes(tmp, server_exe, prom_exe, rules, dumps):
    """Four metrics_server instances and two Prometheus servers; returns (procs, fixed ports,
    sim ports, {mode: prometheus port})."""
    procs = []
    log = lambda name: open(os.path.join(tmp, name + '.log'), 'w')  # noqa: E731
    fixed, sim = [free_port(), free_port()], [free_port(), free_port()]
    for k in range(2):
        extra = ['--classic-max', str(GRID_MAX)] if k == 1 else []
        procs.append(subprocess.Popen(
            [server_exe, '--port', str(fixed[k]), '--seed', str(k + 1), '--test-mode',
             '--requests', str(REQUESTS), '--dump', dumps[k]] + extra,
            stdout=subprocess.DEVNULL, stderr=log('fixed%d' % k)))
        procs.append(subprocess.Popen(
            [server_exe, '--port', str(sim[k]), '--seed', str(k + 3)],
            stdout=subprocess.DEVNULL, stderr=log('sim%d' % k)))
    proms = {}
    targets = lambda ports: ', '.join("'127.0.0.1:%d'" % p for p in ports)  # noqa: E731
    for name, flag in (('native', ['--enable-feature=native-histograms']), ('text', [])):
        port = free_port()
        cfg = os.path.join(tmp, 'prom-%s.yml' % name)
        with open(cfg, 'w') as f:
            f.write('global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
                    '  evaluation_interval: 1s\n'
                    'rule_files: [%s]\n'
                    'scrape_configs:\n'
                    '  - job_name: fixed\n    static_configs:\n      - targets: [%s]\n'
                    '  - job_name: sim\n    static_configs:\n      - targets: [%s]\n'
                    % (rules, targets(fixed), targets(sim)))
        procs.append(subprocess.Popen(
            [prom_exe, '--config.file=' + cfg, '--storage.tsdb.path=' + os.path.join(tmp, 'db-' + name),
             '--web.listen-address=127.0.0.1:%d' % port, '--log.level=warn'] + flag,
            stdout=subprocess.DEVNULL, stderr=log('prom-' + name)))
        proms[name] = port
    return procs, fixed, sim, proms


def check_expositions(ports, tmp):
    """promtool check metrics on the text exposition of every instance (both layouts)."""
    promtool = shutil.which('promtool')
    check(promtool is not None, 'promtool is installed')
    for port in ports:
        ctype, body = get_text('http://127.0.0.1:%d/metrics' % port, 'text/plain;version=0.0.4')
        check(ctype.startswith('text/plain'), '127.0.0.1:%d serves text when asked' % port)
        r = subprocess.run([promtool, 'check', 'metrics'], input=body, capture_output=True)
        check(r.returncode == 0, 'promtool check metrics on 127.0.0.1:%d: %s'
              % (port, (r.stdout + r.stderr).decode().strip() or 'clean'))


def check_cardinality(lib, proms, fixed, sim, text_grid_bounds):
    """Samples per scrape, as Prometheus counted them: fixed by the lists, bounded by N."""
    lists = [len(lib.buckets(b)) for b in (OTEL_TTFT, OTEL_TPOT, OTEL_DURATION)]
    others = len(lib.buckets(VLLM_REQUEST_LATENCY)) + 3 + (4 + 2) + 1 + 1 + 1 + 2
    expect_text = sum(n + 3 for n in lists) + others
    expect_native = 3 + others
    for mode, prom in proms.items():
        got = {x['metric']['instance']: int(float(x['value'][1]))
               for x in query(prom, 'scrape_samples_scraped')}
        for port in sim + fixed[:1]:
            want = expect_native if mode == 'native' else expect_text
            check(got['127.0.0.1:%d' % port] == want,
                  '%s: 127.0.0.1:%d: %d samples per scrape (expected %d)'
                  % (mode, port, got['127.0.0.1:%d' % port], want))
        grid = got['127.0.0.1:%d' % fixed[1]]
        want = expect_native if mode == 'native' else 3 * 3 + sum(text_grid_bounds) + others
        check(grid == want and grid <= 3 * (GRID_MAX + 3) + others,
              '%s: --classic-max %d instance: %d samples per scrape (bound %d)'
              % (mode, GRID_MAX, grid, 3 * (GRID_MAX + 3) + others))


def check_native_buckets(native, fixed, values):
    def have_series():
        r = query(native, 'llm_e2e_seconds{job="fixed"}')
        return len(r) == 2 and all('histogram' in x for x in r), r
    series = wait_until('native series', have_series, 20)
    by_instance = {x['metric']['instance']: x['histogram'][1] for x in series}
    for k in range(2):
        h = by_instance['127.0.0.1:%d' % fixed[k]]
        vals = values[k]
        check(int(h['count']) == len(vals), 'instance %d: native count %s == %d' % (k, h['count'], len(vals)))
        check(math.isclose(float(h['sum']), math.fsum(vals), rel_tol=1e-9),
              'instance %d: native sum %s ~ %r' % (k, h['sum'], math.fsum(vals)))
        expect = {}
        for v in vals:
            i = exact_bucket(v)
            expect[i] = expect.get(i, 0) + 1
        got = {}
        for rule, lo, hi, count in h['buckets']:
            lo, hi = float(lo), float(hi)
            i = round(math.log2(hi) * 2 ** SCALE) - 1
            assert math.isclose(lo, 2 ** (i / 2 ** SCALE), rel_tol=1e-12), (lo, i)
            assert math.isclose(hi, 2 ** ((i + 1) / 2 ** SCALE), rel_tol=1e-12), (hi, i)
            got[i] = got.get(i, 0) + int(float(count))
        check(got == expect, 'instance %d: all %d native buckets equal the exact bucket counts'
              % (k, len(expect)))


def check_fleet_quantiles(lib, native, values, allv):
    merged, other = lib.sketch(values[0]), lib.sketch(values[1])
    assert lib.c.llmm_sketch_merge(merged, other) == 0
    total = scalar_values(query(native, 'histogram_count(sum(llm_e2e_seconds{job="fixed"}))'))
    check(total == [len(allv)], 'fleet count %r == %d' % (total, len(allv)))
    for q in (0.5, 0.9, 0.99):
        prom_q = scalar_values(query(native, 'histogram_quantile(%g, sum(llm_e2e_seconds{job="fixed"}))' % q))[0]
        ours = lib.quantile(merged, q)
        exact = nearest_rank(allv, q)
        check(abs(prom_q - ours) / ours <= ONE_BUCKET + 1e-12,
              'P%g fleet: Prometheus %.6g vs merged sketch %.6g (within one bucket)' % (q * 100, prom_q, ours))
        check(abs(prom_q - exact) / exact <= ONE_BUCKET + 1e-12,
              'P%g fleet: Prometheus %.6g vs exact %.6g (within one bucket)' % (q * 100, prom_q, exact))
    lib.c.llmm_sketch_free(merged)
    lib.c.llmm_sketch_free(other)


def within_one_bucket(rows, vals, total_name):
    """Cumulative (le, count) rows of a list layout: each count within one sketch bucket."""
    for le, got in rows:
        if le == '+Inf':
            check(got == len(vals), '%s +Inf == %d' % (total_name, len(vals)))
            continue
        bound = float(le)
        lo = sum(1 for v in vals if v <= bound / (1 + ONE_BUCKET))
        hi = sum(1 for v in vals if v <= bound * (1 + ONE_BUCKET))
        assert lo <= got <= hi, (total_name, le, got, lo, hi)


def bucket_rows(prom, expr):
    return [(x['metric']['le'], int(float(x['value'][1]))) for x in query(prom, expr)]


def check_classic_family(native, allv):
    rows = bucket_rows(native, 'sum by (le) (llm_e2e_classic_seconds_bucket{job="fixed"})')
    check(len(rows) > 5, 'classic family: %d buckets' % len(rows))
    within_one_bucket(rows, allv, 'llm_e2e_classic_seconds')
    check(True, 'classic cumulative counts within one sketch bucket of the exact counts')
    bounds = sorted(float(le) for le, _ in rows if le != '+Inf')
    for q in (0.5, 0.9, 0.99):
        prom_q = scalar_values(query(native, 'histogram_quantile(%g, sum by (le) '
                                     '(llm_e2e_classic_seconds_bucket{job="fixed"}))' % q))[0]
        exact = nearest_rank(allv, q)
        # the classic estimate lies in the classic bucket holding the exact value (widened
        # by one sketch bucket at its edges)
        upper = next(b for b in bounds if b >= exact / (1 + ONE_BUCKET))
        lower = max([b for b in bounds if b < upper] or [0.0])
        check(lower / (1 + ONE_BUCKET) <= prom_q <= upper * (1 + ONE_BUCKET),
              'P%g classic: Prometheus %.6g in the classic bucket (%g, %g] of exact %.6g'
              % (q * 100, prom_q, lower, upper, exact))


def check_text_fallback(lib, text, fixed, values):
    """The text-mode server: bounded fallback layouts with the counts they promise; returns
    the number of finite grid bounds of each latency family of instance 1."""
    def text_counts():
        r = query(text, 'llm_e2e_seconds_count{job="fixed"}')
        return len(r) == 2, r
    r = wait_until('text-format series', text_counts, 20)
    check(sorted(int(float(x['value'][1])) for x in r) == sorted(len(v) for v in values),
          'text-format Prometheus: llm_e2e_seconds_count per instance exact')
    inst = ['127.0.0.1:%d' % p for p in fixed]
    rows = bucket_rows(text, 'llm_e2e_seconds_bucket{instance="%s"}' % inst[0])
    les = sorted(float(le) for le, _ in rows if le != '+Inf')
    check(les == lib.buckets(OTEL_DURATION), 'instance 0: le set = the OTel GenAI duration list')
    within_one_bucket(rows, values[0], 'instance 0 llm_e2e_seconds')
    check(True, 'instance 0: list counts within one sketch bucket of the exact counts')
    rows = bucket_rows(text, 'llm_e2e_seconds_bucket{instance="%s"}' % inst[1])
    finite = [(float(le), c) for le, c in rows if le != '+Inf']
    exact = all(c == sum(1 for v in values[1] if v <= le) for le, c in finite)
    check(2 <= len(finite) <= GRID_MAX and exact,
          'instance 1: %d grid bounds (at most %d), every count exact' % (len(finite), GRID_MAX))
    sizes = []
    for fam in ('llm_ttft_seconds', 'llm_tpot_seconds', 'llm_e2e_seconds'):
        n = len(query(text, '%s_bucket{instance="%s",le!="+Inf"}' % (fam, inst[1])))
        check(n <= GRID_MAX, 'instance 1: %s has %d finite bounds' % (fam, n))
        sizes.append(n)
    return sizes


def check_counters(native, fixed, values):
    reqs = {x['metric']['instance']: int(float(x['value'][1]))
            for x in query(native, 'llm_requests_total{job="fixed"}')}
    errs = {x['metric']['instance']: int(float(x['value'][1]))
            for x in query(native, 'llm_request_errors_total{job="fixed"}')}
    for k in range(2):
        inst = '127.0.0.1:%d' % fixed[k]
        check(reqs[inst] == REQUESTS and errs[inst] == REQUESTS - len(values[k]),
              'instance %d: %d requests, %d errors (= requests without a latency)'
              % (k, reqs[inst], errs[inst]))
    ratios = scalar_values(query(native, 'llm_spike_ratio{job="fixed"}'))
    check(len(ratios) == 2 and all(0.0 <= r <= 1.0 for r in ratios),
          'spike ratio gauges %r in [0, 1]' % ratios)


def wait_sim_traffic(proms):
    """Enough live traffic for every panel's rate window: a count of requests and a span of
    scrapes (counted by Prometheus, not by a clock here)."""
    for name, prom in proms.items():
        def enough(prom=prom):
            v = scalar_values(query(prom, 'sum(llm_requests_total{job="sim"})'))
            span = scalar_values(query(prom, 'min(count_over_time(up{job="sim"}[5m]))'))
            return bool(v) and v[0] >= SIM_REQUESTS and span[0] >= SIM_SECONDS, (v, span)
        wait_until('%d simulated requests over %d scrapes in %s'
                   % (SIM_REQUESTS, SIM_SECONDS, name), enough, 240)
    check(True, 'job sim: %d requests over %d scrapes in both servers' % (SIM_REQUESTS, SIM_SECONDS))


def main():
    server_exe, lib_path, src = sys.argv[1], sys.argv[2], sys.argv[3]
    prom_exe = shutil.which('prometheus')
    if not prom_exe:
        print('1..0 # SKIP prometheus is not installed')
        return 77
    t_start = time.monotonic()
    tmp = tempfile.mkdtemp(prefix='llmm-e2e-')
    procs = []
    try:
        dumps = [os.path.join(tmp, 'values%d.txt' % k) for k in range(2)]
        rules = os.path.abspath(os.path.join(src, 'examples', 'prometheus', 'llmmetrics.rules.yml'))
        procs, fixed, sim, proms = start_processes(tmp, server_exe, prom_exe, rules, dumps)
        wait_targets_up(proms, 4)
        values = []
        for d in dumps:
            with open(d) as f:
                values.append([float(line) for line in f if line.strip()])
        allv = sorted(values[0] + values[1])
        lib = Lib(lib_path)

        check_expositions(fixed + sim, tmp)
        check_native_buckets(proms['native'], fixed, values)
        check_fleet_quantiles(lib, proms['native'], values, allv)
        check_classic_family(proms['native'], allv)
        grid_sizes = check_text_fallback(lib, proms['text'], fixed, values)
        check_counters(proms['native'], fixed, values)
        check_cardinality(lib, proms, fixed, sim, grid_sizes)

        wait_sim_traffic(proms)
        prom_live.check_dashboard(src, proms, 'sim', ['127.0.0.1:%d' % p for p in sim])
        prom_live.check_rules(proms, 'sim')
        check_cardinality(lib, proms, fixed, sim, grid_sizes)  # still bounded, not growing
        print('# finished in %.1f s' % (time.monotonic() - t_start))
        return 0
    finally:
        stop_all(procs)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except AssertionError as e:
        print('not ok -', e)
        sys.exit(1)
