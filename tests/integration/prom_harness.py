"""Shared pieces of the end-to-end tests: processes on loopback, the Prometheus HTTP API,
TAP-style checks, and the library through ctypes."""
import ctypes
import json
import math
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

SCALE = 6
ONE_BUCKET = 2 ** (1 / 2 ** SCALE) - 1  # 1.089 %


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def get_json(url, timeout=5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read().decode('utf-8'))


def get_text(url, accept, timeout=5.0):
    req = urllib.request.Request(url, headers={'Accept': accept})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.headers.get('Content-Type'), r.read()


def query(prom, expr):
    """The instant-query result list of `expr`; any error fails the test."""
    url = 'http://127.0.0.1:%d/api/v1/query?%s' % (prom, urllib.parse.urlencode({'query': expr}))
    try:
        doc = get_json(url)
    except urllib.error.HTTPError as e:
        raise AssertionError('query %r failed: %s %s' % (expr, e.code, e.read()[:300])) from e
    if doc.get('status') != 'success':
        raise AssertionError('query %r: %r' % (expr, doc))
    return doc['data']['result']


def scalar_values(result):
    """The float values of an instant vector (native histograms are not scalars)."""
    out = []
    for x in result:
        if 'value' not in x:
            raise AssertionError('expected a float sample, got %r' % x)
        out.append(float(x['value'][1]))
    return out


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


def wait_targets_up(proms, n):
    """Every Prometheus of {mode: port} has its n targets up, and no scrape error."""
    for name, port in proms.items():
        def targets_up(port=port):
            t = get_json('http://127.0.0.1:%d/api/v1/targets' % port)['data']['activeTargets']
            errors = [x.get('lastError') for x in t if x.get('lastError')]
            if errors:
                raise AssertionError('scrape error: %r' % errors)
            return len(t) == n and all(x['health'] == 'up' for x in t), t
        wait_until('%s prometheus targets up' % name, targets_up, 40)
        check(True, '%s prometheus: all %d targets up, no scrape error' % (name, n))


def stop_all(procs):
    """Terminate the processes a test started, then kill those that linger."""
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
    print('ok -', msg, flush=True)


def nearest_rank(sorted_vals, q):
    n = len(sorted_vals)
    qn = q * n
    r = round(qn)
    if abs(qn - r) > 1e-9:
        r = math.ceil(qn)
    return sorted_vals[min(max(int(r), 1), n) - 1]


class Lib:
    """The library through ctypes: merged sketches and the named bucket lists."""

    def __init__(self, path):
        self.c = ctypes.CDLL(path)
        p = ctypes.c_void_p
        self.c.llmm_sketch_new.argtypes = [p, ctypes.c_int32, ctypes.POINTER(p)]
        self.c.llmm_sketch_add_many.argtypes = [p, ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]
        self.c.llmm_sketch_merge.argtypes = [p, p]
        self.c.llmm_sketch_quantile.argtypes = [p, ctypes.c_double, ctypes.POINTER(ctypes.c_double)]
        self.c.llmm_sketch_free.argtypes = [p]
        self.c.llmm_prom_buckets.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_double),
                                             ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]

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

    def buckets(self, which):
        out, n = (ctypes.c_double * 64)(), ctypes.c_size_t()
        assert self.c.llmm_prom_buckets(which, out, 64, ctypes.byref(n)) == 0
        return list(out[:n.value])


# llmm_bucket_list values (include/llmmetrics/export.h)
VLLM_REQUEST_LATENCY, OTEL_DURATION, OTEL_TTFT, OTEL_TPOT = 2, 3, 4, 5
