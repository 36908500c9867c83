#!/usr/bin/env python3
"""Exemplars end to end with a real Prometheus (Debian's 2.42, --enable-feature=exemplar-storage).

One metrics_server in test mode records a fixed data set; every request gets a random trace
id and offers an exemplar (latency, trace id, span id, wall-clock time) to each latency family,
whose store keeps the latest per bucket; --exemplar-dump writes every offer. One simulating
server adds live traffic. Two Prometheus servers scrape both every second: "om" without
native histograms (it negotiates OpenMetrics) and "proto" with them (protobuf). The expected
exemplar of each bucket is computed here from the dump alone (the last offer whose value lies
in the bucket), and checked against /api/v1/query_exemplars:
  * OpenMetrics: every classic bucket's `le` series of the four histogram families carries
    exactly its expected exemplar (trace id, span id, value, time), empty buckets none; the
    counters carry the last request's and the last failed request's;
  * protobuf: the classic family's buckets and the counters the same; each native family the
    one exemplar 2.42 reads, the latest offer of the whole family;
  * the simulating server's live exemplars are well-formed W3C ids within its buckets;
  * `up` is 1 for every target at every scrape; promtool check metrics is clean on the 0.0.4
    output (which carries no exemplar), and Python's prometheus_client OpenMetrics parser reads
    the same exemplars from the served text;
  * the Grafana dashboard's exemplar queries (what Grafana sends to query_exemplars) return
    recorded traces in both servers, and the data source example links their `trace_id`.
Usage: prom_exemplars.py METRICS_SERVER LIBLLMMETRICS_SO SOURCE_ROOT
Exit 77 (skipped) when prometheus is not installed. About 15 s.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prom_harness import (OTEL_DURATION, OTEL_TPOT, OTEL_TTFT, VLLM_REQUEST_LATENCY,  # noqa: E402
                          Lib, check, free_port, get_json, get_text, query, scalar_values,
                          stop_all, wait_targets_up, wait_until)
from prom_live import expand  # noqa: E402

REQUESTS = 2000
OM_ACCEPT = ('application/openmetrics-text;version=1.0.0,application/openmetrics-text;'
             'version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1')
LISTS = {'llm_ttft_seconds': OTEL_TTFT, 'llm_tpot_seconds': OTEL_TPOT,
         'llm_e2e_seconds': OTEL_DURATION, 'llm_e2e_classic_seconds': VLLM_REQUEST_LATENCY}
NATIVE = ['llm_ttft_seconds', 'llm_tpot_seconds', 'llm_e2e_seconds']
COUNTERS = ['llm_requests_total', 'llm_request_errors_total']


def read_dump(path):
    """{family: [(value, trace_id, span_id, unix_ns)]} in recording order."""
    out = {}
    with open(path) as f:
        for line in f:
            fam, v, tid, sid, ns = line.split()
            out.setdefault(fam, []).append((float(v), tid, sid, int(ns)))
    return out


def le_value(s):
    return float('inf') if s == '+Inf' else float(s)


def expected_buckets(offers, bounds):
    """{le: last offer in (previous le, le]} for every non-empty bucket, +Inf included."""
    les = bounds + [float('inf')]
    out = {}
    for o in offers:
        for i, le in enumerate(les):
            if o[0] <= le and (i == 0 or o[0] > les[i - 1]):
                out[le] = o
                break
    return out


def query_exemplars(prom, expr):
    now = time.time()
    q = urllib.parse.urlencode({'query': expr, 'start': now - 3600, 'end': now + 600})
    doc = get_json('http://127.0.0.1:%d/api/v1/query_exemplars?%s' % (prom, q))
    if doc.get('status') != 'success':
        raise AssertionError('query_exemplars %r: %r' % (expr, doc))
    return doc['data']


def exemplars_by_series(prom, series, instance):
    """{le or None: [exemplar dicts]} of `series` on one instance."""
    out = {}
    for group in query_exemplars(prom, '%s{instance="%s"}' % (series, instance)):
        key = group['seriesLabels'].get('le')
        out.setdefault(key, []).extend(group['exemplars'])
    return out


def same(ex, offer, what):
    """An exemplar from Prometheus is exactly a recorded offer: ids, value, time (ms)."""
    v, tid, sid, ns = offer
    lab = ex['labels']
    check(lab.get('trace_id') == tid and lab.get('span_id') == sid and len(lab) == 2,
          '%s: trace %s span %s' % (what, tid, sid))
    check(float(ex['value']) == v, '%s: value %r' % (what, v))
    check(abs(float(ex['timestamp']) * 1000 - ns / 1e6) <= 1.0, '%s: time %d ns' % (what, ns))


def check_buckets(prom, mode, instance, fam, expect):
    """Every `le` series of fam carries exactly its expected exemplar (the scrapes repeat the
    same ones: stored once)."""
    def all_there():
        got = exemplars_by_series(prom, fam + '_bucket', instance)
        return len(got) == len(expect), got
    got = wait_until('%s: %s exemplars' % (mode, fam), all_there, 20)
    for le, offer in sorted(expect.items()):
        key = [k for k in got if le_value(k) == le]
        check(len(key) == 1 and len(got[key[0]]) == 1,
              '%s: %s_bucket{le=%s} holds one exemplar' % (mode, fam, key[0] if key else le))
        same(got[key[0]][0], offer, '%s %s le=%s' % (mode, fam, key[0]))
    check(len(got) == len(expect), '%s: %s: exemplars on exactly the %d non-empty buckets'
          % (mode, fam, len(expect)))


def check_one(prom, mode, instance, series, offer):
    def there():
        got = exemplars_by_series(prom, series, instance)
        return bool(got), got
    got = wait_until('%s: %s exemplar' % (mode, series), there, 20)
    check(list(got) == [None] and len(got[None]) == 1, '%s: %s holds one exemplar' % (mode, series))
    same(got[None][0], offer, '%s %s' % (mode, series))


def check_live(prom, mode, instance, bounds):
    """The simulating server's exemplars: W3C ids, values inside their buckets."""
    def there():
        got = exemplars_by_series(prom, 'llm_e2e_classic_seconds_bucket', instance)
        return len(got) >= 3, got
    got = wait_until('%s: live exemplars' % mode, there, 20)
    les = [float('-inf')] + list(bounds) + [float('inf')]
    for k, exs in got.items():
        le = le_value(k)
        lo = les[les.index(le) - 1]
        for e in exs:
            check(bool(re.fullmatch('[0-9a-f]{32}', e['labels']['trace_id'])) and
                  bool(re.fullmatch('[0-9a-f]{16}', e['labels']['span_id'])) and
                  lo < float(e['value']) <= le,
                  '%s: live exemplar %s in le=%s' % (mode, e['labels']['trace_id'], k))


def check_grafana(src, proms, instance, offers):
    """Every dashboard target marked `exemplar` returns recorded exemplars in both modes."""
    with open(os.path.join(src, 'examples', 'grafana', 'llmmetrics.json')) as f:
        dash = json.load(f)
    traces = {o[1] for fam in offers.values() for o in fam}
    targets = [(p['title'], t) for p in dash['panels'] for t in p['targets'] if t.get('exemplar')]
    check(len(targets) == 4, 'dashboard: exemplars on the four latency panels')
    for title, t in targets:
        expr = expand(t['expr'], 'ex', instance)
        for mode, port in proms.items():
            got = [e['labels']['trace_id'] for g in query_exemplars(port, expr)
                   for e in g['exemplars']]
            check(got and set(got) <= traces, '%s: %r exemplars are recorded traces (%d)'
                  % (mode, title, len(got)))
    with open(os.path.join(src, 'examples', 'grafana', 'prometheus-datasource.json')) as f:
        ds = json.load(f)
    links = ds['jsonData']['exemplarTraceIdDestinations']
    check(ds['type'] == 'prometheus' and [x['name'] for x in links] == ['trace_id'],
          'data source links the exemplars\' trace_id label to traces')


def check_up(proms):
    for mode, port in proms.items():
        v = scalar_values(query(port, 'min(min_over_time(up[10m]))'))
        n = scalar_values(query(port, 'count(up)'))
        check(v == [1.0] and n == [2.0], '%s prometheus: up == 1 for both targets at every scrape'
              % mode)


def check_expositions(port, offers, bounds):
    """promtool on the 0.0.4 text; prometheus_client's OpenMetrics parser on the OM text."""
    ctype, body = get_text('http://127.0.0.1:%d/metrics' % port, 'text/plain;version=0.0.4')
    check(ctype.startswith('text/plain; version=0.0.4') and b' # {' not in body,
          '0.0.4 text carries no exemplar')
    r = subprocess.run([shutil.which('promtool'), 'check', 'metrics'], input=body,
                       capture_output=True)
    check(r.returncode == 0, 'promtool check metrics clean on 0.0.4: %r' % r.stdout[:300])
    ctype, body = get_text('http://127.0.0.1:%d/metrics' % port, OM_ACCEPT)
    check(ctype == 'application/openmetrics-text; version=1.0.0; charset=utf-8' and
          body.endswith(b'# EOF\n'), 'OpenMetrics served for Prometheus\' Accept, ends in # EOF')
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    fams = {f.name: f for f in text_string_to_metric_families(body.decode('utf-8'))}
    check(fams['llm_requests'].type == 'counter', 'OpenMetrics counter family llm_requests')
    for fam, b in bounds.items():
        expect = expected_buckets(offers[fam], b)
        got = {}
        for s in fams[fam].samples:
            if s.name == fam + '_bucket' and s.exemplar:
                got[le_value(s.labels['le'])] = s.exemplar
        check(sorted(got) == sorted(expect), 'prometheus_client: %s exemplars on the expected '
              'buckets' % fam)
        for le, e in got.items():
            v, tid, sid, ns = expect[le]
            check(e.labels == {'trace_id': tid, 'span_id': sid} and e.value == v and
                  e.timestamp.sec * 10**9 + e.timestamp.nsec == ns,
                  'prometheus_client: %s le=%r exemplar is trace %s' % (fam, le, tid))


def start(tmp, server_exe, prom_exe, dump):
    procs = []
    log = lambda name: open(os.path.join(tmp, name + '.log'), 'w')  # noqa: E731
    fixed, sim = free_port(), free_port()
    procs.append(subprocess.Popen(
        [server_exe, '--port', str(fixed), '--seed', '7', '--test-mode', '--requests',
         str(REQUESTS), '--exemplar-dump', dump], stdout=subprocess.DEVNULL, stderr=log('fixed')))
    procs.append(subprocess.Popen([server_exe, '--port', str(sim), '--seed', '8'],
                                  stdout=subprocess.DEVNULL, stderr=log('sim')))
    proms = {}
    for mode, feat in (('om', 'exemplar-storage'), ('proto', 'exemplar-storage,native-histograms')):
        port = free_port()
        cfg = os.path.join(tmp, 'prom-%s.yml' % mode)
        with open(cfg, 'w') as f:
            f.write('global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
                    'scrape_configs:\n  - job_name: ex\n    static_configs:\n'
                    "      - targets: ['127.0.0.1:%d', '127.0.0.1:%d']\n" % (fixed, sim))
        procs.append(subprocess.Popen(
            [prom_exe, '--config.file=' + cfg, '--storage.tsdb.path=' + os.path.join(tmp, mode),
             '--web.listen-address=127.0.0.1:%d' % port, '--log.level=warn',
             '--enable-feature=' + feat], stdout=subprocess.DEVNULL, stderr=log('prom-' + mode)))
        proms[mode] = port
    return procs, fixed, sim, proms


def main():
    server_exe, lib_path, src = sys.argv[1], sys.argv[2], sys.argv[3]
    prom_exe = shutil.which('prometheus')
    if not prom_exe:
        print('1..0 # SKIP prometheus is not installed')
        return 77
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix='llmm-exemplars-')
    procs = []
    try:
        dump = os.path.join(tmp, 'exemplars.txt')
        procs, fixed, sim, proms = start(tmp, server_exe, prom_exe, dump)
        wait_targets_up(proms, 2)
        offers = read_dump(dump)
        lib = Lib(lib_path)
        bounds = {fam: lib.buckets(which) for fam, which in LISTS.items()}
        inst, live = '127.0.0.1:%d' % fixed, '127.0.0.1:%d' % sim
        check_expositions(fixed, offers, bounds)

        for fam, b in bounds.items():  # OpenMetrics: every classic bucket
            check_buckets(proms['om'], 'om', inst, fam, expected_buckets(offers[fam], b))
        fam = 'llm_e2e_classic_seconds'  # protobuf: the classic family
        check_buckets(proms['proto'], 'proto', inst, fam,
                      expected_buckets(offers[fam], bounds[fam]))
        for mode in proms:  # counters, both formats
            for c in COUNTERS:
                check_one(proms[mode], mode, inst, c, offers[c][-1])
        for fam in NATIVE:  # the native histograms' one exemplar: the latest of the family
            latest = max(offers[fam], key=lambda o: o[3])
            check_one(proms['proto'], 'proto', inst, fam, latest)
        for mode in proms:
            check_live(proms[mode], mode, live, bounds['llm_e2e_classic_seconds'])
        check_grafana(src, proms, inst, offers)
        check_up(proms)
        print('# finished in %.1f s' % (time.monotonic() - t0))
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
