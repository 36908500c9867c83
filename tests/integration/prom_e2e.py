#!/usr/bin/env python3
"""End-to-end proof with a real Prometheus server (Debian's prometheus 2.42).

Two metrics_server instances in test mode (fixed seeded data sets) on loopback, one Prometheus
with --enable-feature=native-histograms scraping both every second, and one without the flag
(it negotiates text). Checks, against the raw values each server dumped:
  * both targets of both servers are up, with no scrape error;
  * the native family arrives bucket for bucket: every bucket's bounds are 2^(i/64) and its
    count is the exact number of values in (2^(i/64), 2^((i+1)/64)] (exact rational arithmetic),
    and count / sum are exact - nothing is lost;
  * histogram_quantile(q, sum(llm_e2e_seconds)) for q = 0.5, 0.9, 0.99 is within one bucket
    (1.1 % at scale 6) of the library's merged sketch of both data sets and of the exact value;
  * the classic family (llm_e2e_seconds_classic) carries cumulative counts within one sketch
    bucket of the exact counts, and histogram_quantile over it lands in the right classic bucket;
  * the Prometheus without the flag stores classic series from the text exposition;
  * every panel query of examples/grafana/llmmetrics.json parses in Prometheus's query API.
Usage: prom_e2e.py METRICS_SERVER LIBLLMMETRICS_SO SOURCE_ROOT
Exit 77 (skipped) when prometheus is not installed.
"""
import ctypes
import fractions
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SCALE = 6
ONE_BUCKET = 2 ** (1 / 2 ** SCALE) - 1  # 1.089 %
REQUESTS = 3000
DEADLINE = 90.0  # seconds for the whole test


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def get_json(url, timeout=5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read().decode('utf-8'))


def query(prom, expr):
    url = 'http://127.0.0.1:%d/api/v1/query?%s' % (prom, urllib.parse.urlencode({'query': expr}))
    try:
        doc = get_json(url)
    except urllib.error.HTTPError as e:
        raise AssertionError('query %r failed: %s %s' % (expr, e.code, e.read()[:300])) from e
    if doc.get('status') != 'success':
        raise AssertionError('query %r: %r' % (expr, doc))
    return doc['data']


def wait_until(what, pred, timeout):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            ok, last = pred()
            if ok:
                return last
        except (OSError, ValueError, KeyError) as e:
            last = e
        time.sleep(0.25)
    raise AssertionError('timed out waiting for %s (last: %r)' % (what, last))


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


def nearest_rank(sorted_vals, q):
    n = len(sorted_vals)
    qn = q * n
    r = round(qn)
    if abs(qn - r) > 1e-9:
        r = math.ceil(qn)
    return sorted_vals[min(max(int(r), 1), n) - 1]


class Lib:
    """The library's own merged sketch, through ctypes (the comparison the issue asks for)."""

    def __init__(self, path):
        self.c = ctypes.CDLL(path)
        p = ctypes.c_void_p
        self.c.llmm_sketch_new.argtypes = [p, ctypes.c_int32, ctypes.POINTER(p)]
        self.c.llmm_sketch_add_many.argtypes = [p, ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]
        self.c.llmm_sketch_merge.argtypes = [p, p]
        self.c.llmm_sketch_quantile.argtypes = [p, ctypes.c_double, ctypes.POINTER(ctypes.c_double)]
        self.c.llmm_sketch_free.argtypes = [p]

    def sketch(self, values):
        s = ctypes.c_void_p()
        assert self.c.llmm_sketch_new(None, SCALE, ctypes.byref(s)) == 0
        arr = (ctypes.c_double * len(values))(*values)
        assert self.c.llmm_sketch_add_many(s, arr, len(values)) == 0
        return s

    def quantile(self, s, q):
        out = ctypes.c_double()
        assert self.c.llmm_sketch_quantile(s, q, ctypes.byref(out)) == 0
        return out.value


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
    print('ok -', msg)


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
        ports = [free_port(), free_port()]
        dumps = [os.path.join(tmp, 'values%d.txt' % k) for k in range(2)]
        for k in range(2):
            procs.append(subprocess.Popen(
                [server_exe, '--port', str(ports[k]), '--seed', str(k + 1), '--test-mode',
                 '--requests', str(REQUESTS), '--dump', dumps[k]],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, 'server%d.log' % k), 'w')))
        proms = {}
        for name, flag in (('native', ['--enable-feature=native-histograms']), ('text', [])):
            port = free_port()
            cfg = os.path.join(tmp, 'prom-%s.yml' % name)
            with open(cfg, 'w') as f:
                f.write('global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
                        'scrape_configs:\n  - job_name: llm\n    static_configs:\n'
                        '      - targets: [%s]\n' % ', '.join("'127.0.0.1:%d'" % p for p in ports))
            procs.append(subprocess.Popen(
                [prom_exe, '--config.file=' + cfg, '--storage.tsdb.path=' + os.path.join(tmp, 'db-' + name),
                 '--web.listen-address=127.0.0.1:%d' % port, '--log.level=warn'] + flag,
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, 'prom-%s.log' % name), 'w')))
            proms[name] = port

        for name, port in proms.items():
            def targets_up(port=port):
                t = get_json('http://127.0.0.1:%d/api/v1/targets' % port)['data']['activeTargets']
                errors = [x.get('lastError') for x in t if x.get('lastError')]
                if errors:
                    raise AssertionError('scrape error: %r' % errors)
                return len(t) == 2 and all(x['health'] == 'up' for x in t), t
            wait_until('%s prometheus targets up' % name, targets_up, 40)
            check(True, '%s prometheus: both targets up, no scrape error' % name)

        values = []
        for d in dumps:
            with open(d) as f:
                values.append([float(line) for line in f if line.strip()])
        allv = sorted(values[0] + values[1])
        native = proms['native']

        # 1. the native histograms arrive bucket for bucket
        def have_series():
            r = query(native, 'llm_e2e_seconds')['result']
            return len(r) == 2 and all('histogram' in x for x in r), r
        series = wait_until('native series', have_series, 20)
        by_instance = {x['metric']['instance']: x['histogram'][1] for x in series}
        for k in range(2):
            h = by_instance['127.0.0.1:%d' % ports[k]]
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

        # 2. fleet-wide quantiles: Prometheus vs the library's merged sketch vs exact
        lib = Lib(lib_path)
        merged = lib.sketch(values[0])
        other = lib.sketch(values[1])
        assert lib.c.llmm_sketch_merge(merged, other) == 0
        total = query(native, 'histogram_count(sum(llm_e2e_seconds))')['result']
        check(int(float(total[0]['value'][1])) == len(allv), 'fleet count %s == %d' % (total[0]['value'][1], len(allv)))
        for q in (0.5, 0.9, 0.99):
            r = query(native, 'histogram_quantile(%g, sum(llm_e2e_seconds))' % q)['result']
            prom_q = float(r[0]['value'][1])
            ours = lib.quantile(merged, q)
            exact = nearest_rank(allv, q)
            check(abs(prom_q - ours) / ours <= ONE_BUCKET + 1e-12,
                  'P%g fleet: Prometheus %.6g vs merged sketch %.6g (within one bucket)' % (q * 100, prom_q, ours))
            check(abs(prom_q - exact) / exact <= ONE_BUCKET + 1e-12,
                  'P%g fleet: Prometheus %.6g vs exact %.6g (within one bucket)' % (q * 100, prom_q, exact))
        lib.c.llmm_sketch_free(merged)
        lib.c.llmm_sketch_free(other)

        # 3. the classic family: cumulative counts within one sketch bucket of the exact ones
        r = query(native, 'sum by (le) (llm_e2e_seconds_classic_bucket)')['result']
        check(len(r) > 5, 'classic family: %d buckets' % len(r))
        for x in r:
            le = x['metric']['le']
            got = int(float(x['value'][1]))
            if le == '+Inf':
                check(got == len(allv), 'classic +Inf == %d' % len(allv))
                continue
            bound = float(le)
            lo = sum(1 for v in allv if v <= bound / (1 + ONE_BUCKET))
            hi = sum(1 for v in allv if v <= bound * (1 + ONE_BUCKET))
            assert lo <= got <= hi, (le, got, lo, hi)
        check(True, 'classic cumulative counts within one sketch bucket of the exact counts')
        for q in (0.5, 0.9, 0.99):
            r = query(native, 'histogram_quantile(%g, sum by (le) (llm_e2e_seconds_classic_bucket))' % q)['result']
            prom_q = float(r[0]['value'][1])
            bounds = sorted(float(x['metric']['le']) for x in query(
                native, 'sum by (le) (llm_e2e_seconds_classic_bucket)')['result'] if x['metric']['le'] != '+Inf')
            exact = nearest_rank(allv, q)
            # the classic estimate lies in the classic bucket holding the exact value (widened
            # by one sketch bucket at its edges)
            upper = next(b for b in bounds if b >= exact / (1 + ONE_BUCKET))
            lower = max([b for b in bounds if b < upper] or [0.0])
            check(lower / (1 + ONE_BUCKET) <= prom_q <= upper * (1 + ONE_BUCKET),
                  'P%g classic: Prometheus %.6g in the classic bucket (%g, %g] of exact %.6g'
                  % (q * 100, prom_q, lower, upper, exact))

        # 4. without the feature flag Prometheus asks for text and stores classic series
        text = proms['text']
        def text_counts():
            r = query(text, 'llm_e2e_seconds_count')['result']
            return len(r) == 2, r
        r = wait_until('text-format series', text_counts, 20)
        check(sorted(int(float(x['value'][1])) for x in r) == sorted(len(v) for v in values),
              'text-format Prometheus: llm_e2e_seconds_count per instance exact')

        # 5. counters and the spike gauge arrive per instance
        reqs = {x['metric']['instance']: int(float(x['value'][1]))
                for x in query(native, 'llm_requests_total')['result']}
        errs = {x['metric']['instance']: int(float(x['value'][1]))
                for x in query(native, 'llm_request_errors_total')['result']}
        for k in range(2):
            inst = '127.0.0.1:%d' % ports[k]
            check(reqs[inst] == REQUESTS and errs[inst] == REQUESTS - len(values[k]),
                  'instance %d: %d requests, %d errors (= requests without a latency)'
                  % (k, reqs[inst], errs[inst]))
        rates = [float(x['value'][1]) for x in query(native, 'llm_spike_rate')['result']]
        check(len(rates) == 2 and all(0.0 <= r <= 1.0 for r in rates),
              'spike rate gauges %r in [0, 1]' % rates)

        # 6. every Grafana panel query parses
        with open(os.path.join(src, 'examples', 'grafana', 'llmmetrics.json')) as f:
            dash = json.load(f)
        exprs = [t['expr'] for p in dash['panels'] for t in p.get('targets', [])]
        for e in exprs:
            query(native, e.replace('$__rate_interval', '1m'))
        check(len(exprs) >= 6, 'all %d Grafana panel queries parse' % len(exprs))
        check(time.monotonic() - t_start < DEADLINE, 'finished in %.1f s' % (time.monotonic() - t_start))
        return 0
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except AssertionError as e:
        print('not ok -', e)
        sys.exit(1)
