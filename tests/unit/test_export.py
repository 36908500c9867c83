#!/usr/bin/env python3
"""Export module, read back by an independent consumer (stdlib only: ctypes, re, json).

The C library builds sketches from seeded random data and writes a Prometheus text
exposition and OTLP JSON; this script parses both with its own parsers and checks every
number against (a) the raw data, counted here, and (b) the C API's own answers (count, sum,
quantiles, bucket mapping). `le` / `quantile` labels are checked against Go's %g spelling,
rebuilt here from Python's shortest repr (both print the shortest round-trip digits).
"""
import ctypes
import json
import math
import os
import random
import re
import sys
import unittest

# ---- library ------------------------------------------------------------------------------


def load_library():
    root = os.environ.get('LLMM_BUILD_ROOT', 'build')
    for name in ('libllmmetrics.so.1', 'libllmmetrics.so'):
        path = os.path.join(root, 'lib', name)
        if os.path.exists(path):
            return ctypes.CDLL(path)
    return ctypes.CDLL('libllmmetrics.so.1')


L = load_library()
c_sketch_p = ctypes.c_void_p
c_writer_p = ctypes.c_void_p


class OtlpOptions(ctypes.Structure):
    _fields_ = [('struct_size', ctypes.c_uint32), ('start_time_unix_nano', ctypes.c_uint64),
                ('time_unix_nano', ctypes.c_uint64), ('unit_to_seconds', ctypes.c_double),
                ('max_buckets', ctypes.c_uint32), ('temporality', ctypes.c_int),
                ('attributes', ctypes.c_char_p), ('description', ctypes.c_char_p),
                ('unit', ctypes.c_char_p), ('resource_attributes', ctypes.c_char_p)]


def proto(name, res, *args):
    f = getattr(L, name)
    f.restype = res
    f.argtypes = list(args)
    return f


P = ctypes.POINTER
u8p = P(ctypes.c_uint8)
sketch_new = proto('llmm_sketch_new', ctypes.c_int, ctypes.c_void_p, ctypes.c_int32, P(c_sketch_p))
sketch_free = proto('llmm_sketch_free', None, c_sketch_p)
sketch_add_many = proto('llmm_sketch_add_many', ctypes.c_int, c_sketch_p, P(ctypes.c_double),
                        ctypes.c_size_t)
sketch_count = proto('llmm_sketch_count', ctypes.c_uint64, c_sketch_p)
sketch_sum = proto('llmm_sketch_sum', ctypes.c_int, c_sketch_p, P(ctypes.c_double))
sketch_min = proto('llmm_sketch_min', ctypes.c_int, c_sketch_p, P(ctypes.c_double))
sketch_max = proto('llmm_sketch_max', ctypes.c_int, c_sketch_p, P(ctypes.c_double))
sketch_quantile = proto('llmm_sketch_quantile', ctypes.c_int, c_sketch_p, ctypes.c_double,
                        P(ctypes.c_double))
sketch_index = proto('llmm_sketch_index', ctypes.c_int, ctypes.c_int32, ctypes.c_double,
                     P(ctypes.c_int32))
sketch_bounds = proto('llmm_sketch_bucket_bounds', ctypes.c_int, ctypes.c_int32, ctypes.c_int32,
                      P(ctypes.c_double), P(ctypes.c_double))
writer_new = proto('llmm_prom_writer_new', ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                   P(c_writer_p))
writer_free = proto('llmm_prom_writer_free', None, c_writer_p)
writer_family = proto('llmm_prom_writer_family', ctypes.c_int, c_writer_p, ctypes.c_char_p,
                      ctypes.c_char_p, ctypes.c_int, P(ctypes.c_double), ctypes.c_size_t)
writer_value = proto('llmm_prom_writer_value', ctypes.c_int, c_writer_p, ctypes.c_char_p,
                     ctypes.c_double)
writer_sketch = proto('llmm_prom_writer_sketch', ctypes.c_int, c_writer_p, ctypes.c_char_p,
                      c_sketch_p, ctypes.c_double)
writer_classic_list = proto('llmm_prom_writer_set_classic_list', ctypes.c_int, c_writer_p,
                            ctypes.c_int)
writer_classic_max = proto('llmm_prom_writer_set_classic_max', ctypes.c_int, c_writer_p,
                           ctypes.c_uint32)
writer_data = proto('llmm_prom_writer_data', ctypes.c_int, c_writer_p, P(u8p),
                    P(ctypes.c_size_t))
label_escape = proto('llmm_prom_label_escape', ctypes.c_int, ctypes.c_char_p, u8p,
                     ctypes.c_size_t, P(ctypes.c_size_t))
prom_buckets = proto('llmm_prom_buckets', ctypes.c_int, ctypes.c_int, P(ctypes.c_double),
                     ctypes.c_size_t, P(ctypes.c_size_t))
otlp_init = proto('llmm_otlp_options_init', ctypes.c_int, P(OtlpOptions))
otlp_json = proto('llmm_export_otlp_json', ctypes.c_int, c_sketch_p, c_sketch_p, ctypes.c_char_p,
                  P(OtlpOptions), u8p, ctypes.c_size_t, P(ctypes.c_size_t))

OK, E_BUFFER = 0, -7
TEXT, PROTOBUF = 0, 1
COUNTER, GAUGE, SUMMARY, HISTOGRAM, NATIVE = 0, 1, 2, 3, 4
VLLM_TTFT, OTEL_DURATION = 0, 3
GRID_MAX = 40


def check(st):
    if st != OK:
        raise AssertionError('status %d' % st)


class Sketch:
    def __init__(self, scale, values):
        self.p = c_sketch_p()
        check(sketch_new(None, scale, ctypes.byref(self.p)))
        self.scale = scale
        arr = (ctypes.c_double * len(values))(*values)
        check(sketch_add_many(self.p, arr, len(values)))

    def __del__(self):
        sketch_free(self.p)

    def get(self, fn):
        out = ctypes.c_double()
        check(fn(self.p, ctypes.byref(out)))
        return out.value

    def quantile(self, q):
        out = ctypes.c_double()
        check(sketch_quantile(self.p, q, ctypes.byref(out)))
        return out.value


def index(scale, v):
    out = ctypes.c_int32()
    check(sketch_index(scale, v, ctypes.byref(out)))
    return out.value


def bounds(scale, i):
    lo, hi = ctypes.c_double(), ctypes.c_double()
    check(sketch_bounds(scale, i, ctypes.byref(lo), ctypes.byref(hi)))
    return lo.value, hi.value


def escape(value):
    n = ctypes.c_size_t()
    raw = value.encode('utf-8')
    assert label_escape(raw, None, 0, ctypes.byref(n)) in (OK, E_BUFFER)
    buf = (ctypes.c_uint8 * max(n.value, 1))()
    check(label_escape(raw, buf, n.value, ctypes.byref(n)))
    return bytes(buf[:n.value]).decode('utf-8')


# ---- Go's float spelling, rebuilt from Python's shortest repr -----------------------------

def go_g(v):
    """strconv.FormatFloat(v, 'g', -1, 64)."""
    if v != v:
        return 'NaN'
    if math.isinf(v):
        return '+Inf' if v > 0 else '-Inf'
    if v == 0:
        return '-0' if math.copysign(1, v) < 0 else '0'
    sign = '-' if v < 0 else ''
    r = repr(abs(v))
    mant, _, exp = r.partition('e')
    exp = int(exp) if exp else 0
    ip, _, fp = mant.partition('.')
    if fp == '0':
        fp = ''
    digits = ip + fp
    lz = len(digits) - len(digits.lstrip('0'))
    d = digits.lstrip('0').rstrip('0')
    dp = len(ip) + exp - lz  # value = 0.d × 10^dp
    e = dp - 1
    if e < -4 or e >= 6:
        s = d[0] + ('.' + d[1:] if len(d) > 1 else '')
        return sign + s + 'e' + ('-' if e < 0 else '+') + '%02d' % abs(e)
    if dp <= 0:
        return sign + '0.' + '0' * (-dp) + d
    if dp >= len(d):
        return sign + d + '0' * (dp - len(d))
    return sign + d[:dp] + '.' + d[dp:]


def go_label(v):
    """Prometheus' FormatOpenMetricsFloat."""
    if v == 0:
        return '0.0'
    s = go_g(v)
    if v != v or math.isinf(v) or 'e' in s or '.' in s:
        return s
    return s + '.0'


# ---- a text-format parser -----------------------------------------------------------------

NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
SAMPLE = re.compile(r'^(' + NAME + r')(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def unescape(v):
    return re.sub(r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), v)


def parse_labels(s):
    out, pos = [], 0
    while pos < len(s):
        m = LABEL.match(s, pos)
        assert m, 'bad label list %r' % s
        out.append((m.group(1), unescape(m.group(2))))
        pos = m.end()
        assert m.group(3) == ',' or pos == len(s)
    return out


def parse_text(text):
    """Families in order: name → {'type', 'help', 'samples': [(name, labels, value_str)]}."""
    assert text.endswith('\n')
    fams, order, current = {}, [], None
    for line in text[:-1].split('\n'):
        if line.startswith('# HELP '):
            name, _, help_ = line[7:].partition(' ')
            assert name not in fams or 'help' not in fams[name], 'HELP twice for ' + name
            fams.setdefault(name, {'samples': []})['help'] = unescape(help_)
            if name not in order:
                order.append(name)
            current = name
        elif line.startswith('# TYPE '):
            name, _, typ = line[7:].partition(' ')
            assert 'type' not in fams.get(name, {}), 'TYPE twice for ' + name
            fams.setdefault(name, {'samples': []})['type'] = typ
            if name not in order:
                order.append(name)
            current = name
        else:
            m = SAMPLE.match(line)
            assert m, 'bad sample line %r' % line
            name = m.group(1)
            base = current
            assert name == base or name in (base + '_bucket', base + '_sum', base + '_count'), \
                'sample %s outside its family %s' % (name, base)
            fams[base]['samples'].append((name, parse_labels(m.group(2) or ''), m.group(3)))
    return order, fams


def count_le(values, f, b):
    return sum(1 for v in values if v * f <= b)


# ---- tests --------------------------------------------------------------------------------

class TextExposition(unittest.TestCase):
    def setUp(self):
        rnd = random.Random(11)
        self.data = {
            'a': [rnd.lognormvariate(math.log(0.2), 1.0) for _ in range(4000)],
            'b"\\\n': [rnd.lognormvariate(math.log(0.05), 0.7) for _ in range(1500)] + [0.0] * 7,
        }
        self.sk = {k: Sketch(6, v) for k, v in self.data.items()}

    def exposition(self, f):
        w = c_writer_p()
        check(writer_new(None, TEXT, ctypes.byref(w)))
        qs = (ctypes.c_double * 4)(0.5, 0.9, 0.99, 1.0)
        nb = ctypes.c_size_t()
        ttft = (ctypes.c_double * 64)()
        check(prom_buckets(VLLM_TTFT, ttft, 64, ctypes.byref(nb)))
        self.ttft = list(ttft[:nb.value])
        lab = {k: ('model="%s",gpu="0"' % escape(k)).encode() for k in self.data}
        check(writer_family(w, b'req_total', b'Requests.\nAll of them \\ really', COUNTER, None, 0))
        for k in self.data:
            check(writer_value(w, lab[k], float(len(self.data[k]))))
        check(writer_family(w, b'lat_summary', b'Latency.', SUMMARY, qs, 4))
        for k in self.data:
            check(writer_sketch(w, lab[k], self.sk[k].p, f))
        check(writer_family(w, b'lat_ttft', b'TTFT.', HISTOGRAM, ttft, nb.value))
        for k in self.data:
            check(writer_sketch(w, lab[k], self.sk[k].p, f))
        check(writer_family(w, b'lat_default', b'Default list.', HISTOGRAM, None, 0))
        for k in self.data:
            check(writer_sketch(w, lab[k], self.sk[k].p, f))
        check(writer_classic_max(w, GRID_MAX))
        check(writer_family(w, b'lat_native', None, NATIVE, None, 0))
        for k in self.data:
            check(writer_sketch(w, lab[k], self.sk[k].p, f))
        dur = (ctypes.c_double * 64)()
        check(prom_buckets(OTEL_DURATION, dur, 64, ctypes.byref(nb)))
        self.duration = list(dur[:nb.value])
        data, n = u8p(), ctypes.c_size_t()
        check(writer_data(w, ctypes.byref(data), ctypes.byref(n)))
        text = ctypes.string_at(data, n.value).decode('utf-8')
        writer_free(w)
        return text

    def check_exposition(self, f):
        text = self.exposition(f)
        order, fams = parse_text(text)
        self.assertEqual(order, ['req_total', 'lat_summary', 'lat_ttft', 'lat_default',
                                 'lat_native'])
        self.assertEqual(fams['req_total']['help'], 'Requests.\nAll of them \\ really')
        self.assertEqual([fams[n]['type'] for n in order],
                         ['counter', 'summary', 'histogram', 'histogram', 'histogram'])
        self.assertNotIn('help', fams['lat_native'])
        models = list(self.data)

        # counters: labels unescape to the original strings
        samples = fams['req_total']['samples']
        self.assertEqual([dict(s[1])['model'] for s in samples], models)
        self.assertEqual([float(s[2]) for s in samples], [len(self.data[k]) for k in models])

        # summaries: the C API's own quantiles, sum and count
        for k in models:
            rows = [s for s in fams['lat_summary']['samples'] if dict(s[1])['model'] == k]
            sk = self.sk[k]
            qrows = [r for r in rows if r[0] == 'lat_summary']
            self.assertEqual([dict(r[1])['quantile'] for r in qrows], ['0.5', '0.9', '0.99', '1.0'])
            for r in qrows:
                q = float(dict(r[1])['quantile'])
                self.assertEqual(float(r[2]), sk.quantile(q) * f)
                self.assertEqual(r[2], go_g(sk.quantile(q) * f))
            self.assertEqual(qrows[-1][2], go_g(max(self.data[k]) * f))  # q=1: exact max
            sums = [r for r in rows if r[0] == 'lat_summary_sum']
            self.assertEqual(float(sums[0][2]), sk.get(sketch_sum) * f)
            counts = [r for r in rows if r[0] == 'lat_summary_count']
            self.assertEqual(int(counts[0][2]), len(self.data[k]))

        # classic histograms on vLLM's list (given) and on the writer's default list (OTel
        # GenAI durations): within one bucket of the raw-data count
        for fam, blist in (('lat_ttft', self.ttft), ('lat_default', self.duration)):
            for k in models:
                self.check_list(fams[fam]['samples'], fam, k, blist, f)

        # native family in text after set_classic_max: the sketch's own grid downscaled to
        # at most GRID_MAX contiguous bounds, every count exact
        for k in models:
            rows = [s for s in fams['lat_native']['samples'] if dict(s[1])['model'] == k]
            buckets = [r for r in rows if r[0] == 'lat_native_bucket']
            self.assertEqual(dict(buckets[-1][1])['le'], '+Inf')
            les = [float(dict(r[1])['le']) for r in buckets[:-1]]
            self.assertLessEqual(len(les), GRID_MAX)
            self.assertGreater(len(les), GRID_MAX // 2)  # the smallest downscaling that fits
            # consecutive bounds of one grid: a constant ratio 2^(2^-scale)
            ratios = {round(math.log2(les[i + 1] / les[i]), 9) for i in range(len(les) - 1)}
            self.assertEqual(len(ratios), 1, ratios)
            step = ratios.pop()
            self.assertEqual(step, 2.0 ** round(math.log2(step)))  # 2^-scale
            for r, b in zip(buckets, les):
                self.assertEqual(dict(r[1])['le'], go_label(b))
                self.assertEqual(int(r[2]), count_le(self.data[k], f, b), b)
            self.assertEqual(int(buckets[-2][2]), len(self.data[k]))
            self.assertEqual(int(buckets[-1][2]), len(self.data[k]))

    def check_list(self, samples, fam, k, blist, f):
        rows = [s for s in samples if dict(s[1])['model'] == k]
        buckets = [r for r in rows if r[0] == fam + '_bucket']
        les = [dict(r[1])['le'] for r in buckets]
        self.assertEqual(les, [go_label(b) for b in blist] + ['+Inf'])
        cums = [int(r[2]) for r in buckets]
        self.assertEqual(cums, sorted(cums))
        self.assertEqual(cums[-1], len(self.data[k]))
        for b, c in zip(blist, cums):
            exact = count_le(self.data[k], f, b)
            # f is a power of two here, so b / f is exact: the sketch bucket holding b
            lower = bounds(6, index(6, b / f))[0]
            self.assertLessEqual(c, exact)
            self.assertGreaterEqual(c, count_le(self.data[k], 1.0, lower))
        self.assertEqual([r for r in rows if r[0] == fam + '_count'][0][2],
                         str(len(self.data[k])))

    def test_seconds(self):
        self.check_exposition(1.0)

    def test_power_of_two_factor(self):
        self.check_exposition(2.0 ** -10)

    def test_go_spelling_reference(self):
        # the reference spelling itself, on values whose Go output is known
        for v, s in [(1.0, '1'), (0.005, '0.005'), (1e-05, '1e-05'), (123456.0, '123456'),
                     (1e6, '1e+06'), (1234567.0, '1.234567e+06'), (0.1 + 0.2, '0.30000000000000004'),
                     (5e-324, '5e-324'), (2560.0, '2560'), (0.0001, '0.0001')]:
            self.assertEqual(go_g(v), s)
        self.assertEqual(go_label(2560.0), '2560.0')
        self.assertEqual(go_label(1e6), '1e+06')


class OtlpJson(unittest.TestCase):
    def export(self, sk, **kw):
        o = OtlpOptions()
        check(otlp_init(ctypes.byref(o)))
        for k, v in kw.items():
            setattr(o, k, v)
        n = ctypes.c_size_t()
        st = otlp_json(sk.p, None, b'llm.latency', ctypes.byref(o), None, 0, ctypes.byref(n))
        self.assertEqual(st, E_BUFFER)
        buf = (ctypes.c_uint8 * n.value)()
        check(otlp_json(sk.p, None, b'llm.latency', ctypes.byref(o), buf, n.value, ctypes.byref(n)))
        return json.loads(bytes(buf[:n.value]).decode('utf-8'))

    def walk_keys(self, obj):
        if isinstance(obj, dict):
            for k, v in obj.items():
                self.assertRegex(k, r'^[a-z][a-zA-Z]*$')  # lowerCamelCase
                self.walk_keys(v)
        elif isinstance(obj, list):
            for v in obj:
                self.walk_keys(v)

    def check_point(self, values, scale, f, max_buckets=0):
        sk = Sketch(scale, values)
        doc = self.export(sk, start_time_unix_nano=1700000000000000000,
                          time_unix_nano=1700000060000000000, unit_to_seconds=f,
                          max_buckets=max_buckets,
                          attributes=b'gen_ai.request.model="llama \\"3\\"",gpu="0"',
                          resource_attributes=b'service.name="svc"')
        self.walk_keys(doc)
        rm = doc['resourceMetrics'][0]
        self.assertEqual(rm['resource']['attributes'],
                         [{'key': 'service.name', 'value': {'stringValue': 'svc'}}])
        sm = rm['scopeMetrics'][0]
        self.assertEqual(sm['scope']['name'], 'libllmmetrics')
        m = sm['metrics'][0]
        self.assertEqual(m['name'], 'llm.latency')
        self.assertEqual(m['unit'], 's')
        eh = m['exponentialHistogram']
        self.assertEqual(eh['aggregationTemporality'], 2)
        p = eh['dataPoints'][0]
        self.assertEqual(p['attributes'],
                         [{'key': 'gen_ai.request.model', 'value': {'stringValue': 'llama "3"'}},
                          {'key': 'gpu', 'value': {'stringValue': '0'}}])
        for key in ('startTimeUnixNano', 'timeUnixNano', 'count', 'zeroCount'):
            self.assertIsInstance(p[key], str)  # 64-bit integers travel as strings
        self.assertEqual(p['startTimeUnixNano'], '1700000000000000000')
        self.assertEqual(p['timeUnixNano'], '1700000060000000000')
        self.assertEqual(int(p['count']), len(values))
        self.assertEqual(p['sum'], sk.get(sketch_sum) * f)
        self.assertEqual(p['min'], min(values) * f)
        self.assertEqual(p['max'], max(values) * f)
        self.assertIsInstance(p['scale'], int)
        self.assertGreater(p['zeroThreshold'], 0)
        zeros = sum(1 for v in values if v == 0)
        self.assertEqual(int(p['zeroCount']), zeros)
        scale_e = p['scale']
        counts = [int(c) for c in p['positive']['bucketCounts']]
        self.assertTrue(all(isinstance(c, str) for c in p['positive']['bucketCounts']))
        if max_buckets:
            self.assertLessEqual(len(counts), max_buckets)
        else:
            self.assertEqual(scale_e, scale)
        self.assertEqual(sum(counts) + zeros, len(values))
        # every bucket against the raw data: bucket of v·f at the exported scale
        want = {}
        for v in values:
            if v == 0:
                continue
            j = index(max(scale_e, 0), v * f) >> max(-scale_e, 0)
            want[j] = want.get(j, 0) + 1
        got = {p['positive']['offset'] + j: c for j, c in enumerate(counts) if c}
        self.assertEqual(got, want)
        self.assertEqual(counts[0] > 0 and counts[-1] > 0, True)
        return scale_e

    def test_points(self):
        rnd = random.Random(5)
        values = [rnd.lognormvariate(math.log(0.3), 1.3) for _ in range(3000)] + [0.0] * 5
        self.check_point(values, 6, 1.0)
        self.check_point(values, 10, 1.0)
        self.check_point(values, 6, 0.125)
        self.check_point(values, 3, 2.0 ** 20)
        e = self.check_point(values, 6, 1.0, max_buckets=160)
        self.assertLess(e, 6)
        e = self.check_point(values, 6, 1.0, max_buckets=4)
        self.assertLess(e, 0)


if __name__ == '__main__':
    unittest.main(verbosity=2)
