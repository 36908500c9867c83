"""The operator's view, against live simulated traffic: every Grafana panel query and every
SLO rule of examples/, evaluated by a real Prometheus in both modes (native histograms on and
off). Expected ranges come from the simulation's distributions (examples/metrics_server.c:
TTFT log-normal, median 0.15 s, sigma 0.6; TPOT log-normal, median 0.025 s, sigma 0.3; E2E =
TTFT + TPOT x (20..499 - 1) tokens; 1 % of requests fail): a quantile must lie in the bucket of
the fallback list that holds the distribution's true quantile (where both the native estimate
and the classic interpolation fall), a ratio in [0, 1] near its expected value.
"""
import json
import math
import os

from prom_harness import check, query, scalar_values

# True quantiles of the simulation (400 000 draws of the same model): TTFT 0.150 / 0.404 /
# 0.608 s, TPOT 0.025 / 0.041 / 0.050 s, E2E 6.37 / 14.8 / 19.2 s; 2.27 % of TTFTs > 0.5 s.
# Each range is the fallback list's bucket around the true value (TPOT's P50 and P99 sit on a
# bound: the two buckets around it).
SECONDS = {
    'Time to first token (fleet)': {'P50': (0.1, 0.25), 'P95': (0.25, 0.5), 'P99': (0.5, 0.75)},
    'Time per output token (fleet)': {'P50': (0.01, 0.05), 'P95': (0.025, 0.05),
                                      'P99': (0.025, 0.075)},
    'End-to-end latency (fleet)': {'P50': (5.12, 10.24), 'P95': (10.24, 20.48),
                                   'P99': (10.24, 20.48)},
    'End-to-end P99 per instance': {'{{instance}}': (10.24, 20.48)},
}
# panel title -> (unit, {legend: (low, high)}, one series per instance?)
PANELS = {t: ('s', r, t.endswith('per instance')) for t, r in SECONDS.items()}
PANELS.update({
    'Error ratio': ('percentunit', {'errors / requests': (0.002, 0.03)}, False),
    # each instance: 2 threads at <= 200 requests/s
    'Throughput': ('reqps', {'requests / s': (20.0, 800.0 * 1.05)}, False),
    'Latency spike ratio': ('percentunit', {'{{instance}}': (0.0, 1.0)}, True),
    'Latency spikes': ('reqps', {'level {{level}}': (0.0, 800.0)}, False),
    # burn rate = error ratio / budget: 1 % / 0.1 % and 2.27 % / 1 %
    'SLO burn rate, 1 h window': ('none', {'errors (objective 99.9 %)': (2.0, 30.0),
                                           'TTFT over 0.5 s (objective 99 %)': (0.5, 6.0)},
                                  False),
})


# Grafana's $__rate_interval for a 1 s scrape interval is a few seconds; 30 s keeps the
# sampling noise of per-instance P99s well inside the ranges above.
RATE_INTERVAL = '30s'


def expand(expr, job, instance):
    return (expr.replace('$__rate_interval', RATE_INTERVAL).replace('$job', job)
            .replace('$instance', instance))


def check_target(prom, mode, title, target, job, instance, expect):
    unit, ranges, per_instance = expect
    low, high = ranges[target['legendFormat']]
    result = query(prom, expand(target['expr'], job, instance))
    where = '%s: %r %s (instance %s)' % (mode, title, target['legendFormat'], instance)
    check(result, where + ' returns data')
    values = scalar_values(result)
    check(all(math.isfinite(v) and low <= v <= high for v in values),
          '%s: %s in [%g, %g]' % (where, ['%.4g' % v for v in values], low, high))
    return result


def check_dashboard(src, proms, job, instances):
    """Every target of every panel, in every mode, with all instances and with each one."""
    with open(os.path.join(src, 'examples', 'grafana', 'llmmetrics.json')) as f:
        dash = json.load(f)
    names = [v['name'] for v in dash['templating']['list']]
    check(names == ['datasource', 'job', 'instance'], 'dashboard variables %r' % names)
    titles = [p['title'] for p in dash['panels']]
    check(sorted(titles) == sorted(PANELS), 'every panel has an expectation: %r' % titles)
    ntargets = 0
    for p in dash['panels']:
        expect = PANELS[p['title']]
        unit = p['fieldConfig']['defaults']['unit']
        check(unit == expect[0], '%r: unit %s matches its queries' % (p['title'], unit))
        for t in p['targets']:
            check('$job' in t['expr'], '%r %s: selects $job' % (p['title'], t['legendFormat']))
            ntargets += 1
            for mode, prom in proms.items():
                r = check_target(prom, mode, p['title'], t, job, '.*', expect)
                if expect[2]:
                    got = sorted(x['metric']['instance'] for x in r)
                    check(got == sorted(instances), '%s: %r one series per instance' % (mode, p['title']))
                if '$instance' not in t['expr']:
                    continue
                for inst in instances:
                    r = check_target(prom, mode, p['title'], t, job, inst, expect)
                    if expect[2]:
                        check([x['metric']['instance'] for x in r] == [inst],
                              '%s: %r narrowed to %s' % (mode, p['title'], inst))
    check(ntargets >= 14, 'all %d dashboard queries return data in both modes' % ntargets)


# recorded series -> expected range for the simulation (1 % errors, 2.27 % TTFT > 0.5 s)
RECORDS = {'job:llm_request_errors:ratio_rate%s' % w: (0.002, 0.03) for w in ('5m', '30m', '1h', '6h')}
RECORDS.update({'job:llm_ttft_slow:ratio_rate%s' % w: (0.01, 0.045) for w in ('5m', '30m', '1h', '6h')})
# error burn rate ~10: above the slow factor 6, below the fast 14.4; TTFT burn ~2.3: neither
FIRING = {'LLMErrorBudgetSlowBurn'}
SILENT = {'LLMErrorBudgetFastBurn', 'LLMLatencyBudgetFastBurn', 'LLMLatencyBudgetSlowBurn'}


def check_rules(proms, job):
    """The rules of examples/prometheus, loaded by both servers, evaluated on live traffic."""
    from prom_harness import get_json
    for mode, prom in proms.items():
        groups = get_json('http://127.0.0.1:%d/api/v1/rules' % prom)['data']['groups']
        rules = [r for g in groups for r in g['rules']]
        bad = [(r['name'], r.get('lastError')) for r in rules if r['health'] != 'ok']
        check(len(rules) == 12 and not bad, '%s: 12 rules loaded, every one healthy %r' % (mode, bad))
        alerts = {r['name'] for r in rules if r['type'] == 'alerting'}
        check(alerts == FIRING | SILENT, '%s: alerts %r' % (mode, sorted(alerts)))
        for name, (low, high) in sorted(RECORDS.items()):
            values = scalar_values(query(prom, '%s{job="%s"}' % (name, job)))
            check(len(values) == 1 and low <= values[0] <= high,
                  '%s: %s = %r in [%g, %g]' % (mode, name, values, low, high))
        firing = {x['metric']['alertname'] for x in query(
            prom, 'ALERTS{alertstate="firing",job="%s"}' % job)}
        check(firing == FIRING, '%s: firing %r (must: %r, must not: %r)'
              % (mode, sorted(firing), sorted(FIRING), sorted(SILENT)))
    # the same objective measured from native buckets and from the classic fallback
    a, b = (scalar_values(query(p, 'job:llm_ttft_slow:ratio_rate1h{job="%s"}' % job))[0]
            for p in (proms['native'], proms['text']))
    check(abs(a - b) <= 0.25 * max(a, b), 'TTFT SLO ratio native %.4f vs classic %.4f' % (a, b))
