#!/usr/bin/env node
// OTLP requests of the library, decoded by OpenTelemetry's own protobuf definitions (the
// generated protobufjs root of @opentelemetry/otlp-transformer 0.57.2) and checked field by
// field against values computed here from the raw data, independently of the library.
//
// usage: node decode_otlp.js OTLP_SAMPLE WORKDIR
// The package is looked up in $LLMM_NPM_DIR, else ${XDG_CACHE_HOME:-~/.cache}/llmmetrics/npm
// (where `./dev.sh deps test` installs it); exit 77 (skipped) when it is not there.
'use strict';
const assert = require('assert');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { otlpProto } = require('./otlp_root');

const otlp = otlpProto((file) => console.log(`1..0 # SKIP ${file} missing: run ./dev.sh deps test`));
const MetricsRequest = otlp.collector.metrics.v1.ExportMetricsServiceRequest;
const TraceRequest = otlp.collector.trace.v1.ExportTraceServiceRequest;
const AS_OBJECT = { longs: String, enums: Number, bytes: String, defaults: true, arrays: true };

const [sample, work] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(work, 'otlp-'));
execFileSync(sample, [dir]);
const read = (name) => fs.readFileSync(path.join(dir, name));
const values = (name) => read(name).toString().trim().split('\n').map(Number);
const inputs = JSON.parse(read('inputs.json'));

let tests = 0;
function check(name, fn) {
    tests++;
    try {
        fn();
        console.log(`ok ${tests} - ${name}`);
    } catch (e) {
        console.log(`not ok ${tests} - ${name}`);
        console.log(e.stack.split('\n').map((l) => '# ' + l).join('\n'));
        process.exitCode = 1;
    }
}

// ---- the JSON form, made comparable: hex ids become base64 (protobufjs' bytes in objects) --
function hexIdsToBase64(v, key) {
    if (Array.isArray(v))
        return v.map((x) => hexIdsToBase64(x));
    if (v && typeof v === 'object') {
        const o = {};
        for (const k of Object.keys(v))
            o[k] = hexIdsToBase64(v[k], k);
        return o;
    }
    if (['traceId', 'spanId', 'parentSpanId'].includes(key)) {
        assert.match(v, /^([0-9a-f]{2})+$/, `${key} is lowercase hex`);
        return Buffer.from(v, 'hex').toString('base64');
    }
    return v;
}

function decodeBoth(Type, base) {
    const pb = Type.toObject(Type.decode(read(base + '.pb')), AS_OBJECT);
    const json = JSON.parse(read(base + '.json'));
    const fromJson = Type.toObject(Type.fromObject(hexIdsToBase64(json)), AS_OBJECT);
    return { pb, json, fromJson };
}

// ---- independent references ------------------------------------------------------------------
const SCALE = inputs.scale;
const bucketIndex = (v) => Math.ceil(Math.log2(v) * 2 ** SCALE) - 1; // values avoid the bounds
const sumOf = (xs) => xs.reduce((a, b) => a + b, 0);
const close = (a, b, rel, what) =>
    assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${what}: ${a} vs ${b}`);
const b64hex = (s) => Buffer.from(s, 'base64').toString('hex');

function expBuckets(xs) {
    const idx = xs.map(bucketIndex);
    const lo = Math.min(...idx), hi = Math.max(...idx);
    const counts = new Array(hi - lo + 1).fill(0);
    for (const i of idx)
        counts[i - lo]++;
    return { offset: lo, counts: counts.map(String) };
}

function checkExponential(p, xs, exactExtremes) {
    const b = expBuckets(xs);
    assert.strictEqual(p.count, String(xs.length));
    close(p.sum, sumOf(xs), 1e-9, 'sum');
    assert.strictEqual(p.scale, SCALE);
    assert.strictEqual(p.zeroCount, '0');
    assert.strictEqual(p.positive.offset, b.offset);
    assert.deepStrictEqual(p.positive.bucketCounts, b.counts); // every bucket
    const mn = Math.min(...xs), mx = Math.max(...xs);
    if (exactExtremes) {
        assert.strictEqual(p.min, mn);
        assert.strictEqual(p.max, mx);
    } else { // a delta's extremes: within the bucket of the true extreme (sketch.h)
        assert.strictEqual(bucketIndex(p.min), bucketIndex(mn));
        assert.strictEqual(bucketIndex(p.max), bucketIndex(mx));
    }
    assert.ok(p.zeroThreshold > 0 && p.zeroThreshold <= mn, 'zero threshold below the data');
}

// the AnyValue oneof: protobufjs' toObject names the set member in `value` only with
// {oneofs: true}; read the one that is set
function anyValue(v) {
    if (v.stringValue !== '' && v.stringValue !== undefined) return v.stringValue;
    if (v.intValue !== undefined && v.intValue !== '0' && v.intValue !== 0) return Number(v.intValue);
    if (v.doubleValue !== undefined && v.doubleValue !== 0) return v.doubleValue;
    return v.stringValue;
}
const attrMap = (list) => Object.fromEntries(list.map((kv) => [kv.key, anyValue(kv.value)]));

// ---- metrics -------------------------------------------------------------------------------
const a = values('values_a.txt');
const bLate = values('values_b_late.txt');
const m = decodeBoth(MetricsRequest, 'metrics');

check('metrics: JSON and protobuf decode to the same message', () => {
    assert.deepStrictEqual(m.fromJson, m.pb);
});

check('metrics: JSON writes 64-bit integers as strings and ids as hex', () => {
    const dp = m.json.resourceMetrics[0].scopeMetrics[0].metrics[0].exponentialHistogram.dataPoints[0];
    assert.strictEqual(typeof dp.count, 'string');
    assert.strictEqual(typeof dp.startTimeUnixNano, 'string');
    assert.strictEqual(dp.exemplars[0].traceId, inputs.exemplars[0].trace);
});

const rm = m.pb.resourceMetrics;
const metrics = rm[0].scopeMetrics[0].metrics;
check('metrics: resource and scope', () => {
    assert.strictEqual(rm.length, 1);
    assert.deepStrictEqual(attrMap(rm[0].resource.attributes),
        { 'service.name': 'llmm', 'host.name': 'h\n1' });
    const scope = rm[0].scopeMetrics[0].scope;
    assert.strictEqual(scope.name, 'libllmmetrics');
    assert.strictEqual(scope.version, inputs.version);
    assert.deepStrictEqual(attrMap(scope.attributes), { k: 'v' });
    assert.deepStrictEqual(metrics.map((x) => x.name), ['gen_ai.client.operation.duration',
        'delta.duration', 'explicit.duration', 'requests', 'level', 'summary.duration']);
});

check('exponential histogram, cumulative: every field against the raw values', () => {
    const x = metrics[0];
    assert.strictEqual(x.description, 'end to end, "quoted"');
    assert.strictEqual(x.unit, 's');
    const h = x.exponentialHistogram;
    assert.strictEqual(h.aggregationTemporality, 2);
    assert.strictEqual(h.dataPoints.length, 2);
    const [p, e] = h.dataPoints;
    assert.deepStrictEqual(attrMap(p.attributes), { outcome: 'ok' });
    assert.strictEqual(p.startTimeUnixNano, '1000');
    assert.strictEqual(p.timeUnixNano, '2000');
    checkExponential(p, a, true);
    // the empty point: no buckets, no min / max
    assert.deepStrictEqual(attrMap(e.attributes), { outcome: 'error' });
    assert.strictEqual(e.count, '0');
    assert.strictEqual(e.sum, 0);
    assert.deepStrictEqual(e.positive.bucketCounts, []);
    const raw = MetricsRequest.decode(read('metrics.pb'));
    const [rawP, rawE] = raw.resourceMetrics[0].scopeMetrics[0].metrics[0].exponentialHistogram.dataPoints;
    const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
    assert.ok(has(rawP, 'min') && has(rawP, 'max'), 'min and max on a point with data');
    assert.ok(!has(rawE, 'min') && !has(rawE, 'max'), 'no min or max on an empty point');
});

check('the 1.0 JSON point (llmm_export_otlp_json) decodes to the same point', () => {
    const legacy = MetricsRequest.toObject(MetricsRequest.fromObject(JSON.parse(read('legacy.json'))),
        AS_OBJECT);
    const old = legacy.resourceMetrics[0].scopeMetrics[0].metrics[0].exponentialHistogram.dataPoints[0];
    const now = { ...metrics[0].exponentialHistogram.dataPoints[0], exemplars: [] };
    assert.deepStrictEqual(old, now);
});

check('exemplars: value, time, trace and span ids, filtered attributes', () => {
    const ex = metrics[0].exponentialHistogram.dataPoints[0].exemplars;
    assert.strictEqual(ex.length, 2);
    for (let i = 0; i < 2; i++) {
        assert.strictEqual(ex[i].asDouble, inputs.exemplars[i].value);
        assert.strictEqual(ex[i].timeUnixNano, inputs.exemplars[i].time);
        assert.strictEqual(b64hex(ex[i].traceId), inputs.exemplars[i].trace);
    }
    assert.strictEqual(b64hex(ex[0].spanId), inputs.exemplars[0].span);
    assert.strictEqual(ex[1].spanId, '', 'an all-zero span id is left out');
    assert.deepStrictEqual(attrMap(ex[0].filteredAttributes), {});
    assert.deepStrictEqual(attrMap(ex[1].filteredAttributes), { 'gen_ai.request.model': 'm"x\\y' });
    // on a histogram point and on a gauge point too
    assert.strictEqual(b64hex(metrics[2].histogram.dataPoints[0].exemplars[0].traceId),
        inputs.exemplars[0].trace);
    assert.strictEqual(metrics[4].gauge.dataPoints[0].exemplars[0].asDouble, inputs.exemplars[1].value);
});

check('exponential histogram, delta: the second half of the series', () => {
    const h = metrics[1].exponentialHistogram;
    assert.strictEqual(h.aggregationTemporality, 1);
    const p = h.dataPoints[0];
    assert.strictEqual(p.startTimeUnixNano, '3000');
    assert.strictEqual(p.timeUnixNano, '4000');
    checkExponential(p, bLate, false);
});

check('explicit-bucket histogram: per-bucket counts at power-of-two bounds', () => {
    const h = metrics[2].histogram;
    assert.strictEqual(h.aggregationTemporality, 2);
    const p = h.dataPoints[0];
    const bounds = [0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8];
    assert.deepStrictEqual(p.explicitBounds, bounds);
    const want = [];
    let prev = 0;
    for (const b of bounds) {
        const c = a.filter((v) => v <= b).length;
        want.push(String(c - prev));
        prev = c;
    }
    want.push(String(a.length - prev));
    assert.deepStrictEqual(p.bucketCounts, want);
    assert.strictEqual(p.count, String(a.length));
    close(p.sum, sumOf(a), 1e-9, 'sum');
    assert.strictEqual(p.min, Math.min(...a));
    assert.strictEqual(p.max, Math.max(...a));
});

check('sum and gauge', () => {
    const s = metrics[3];
    assert.strictEqual(s.unit, '{request}');
    assert.strictEqual(s.sum.aggregationTemporality, 1);
    assert.strictEqual(s.sum.isMonotonic, true);
    assert.deepStrictEqual(s.sum.dataPoints.map((p) => [attrMap(p.attributes).outcome, p.asDouble]),
        [['ok', a.length], ['error', 3]]);
    const g = metrics[4].gauge.dataPoints[0];
    assert.strictEqual(g.asDouble, -0.25);
    assert.strictEqual(g.timeUnixNano, '7000');
});

check('summary: count, sum, quantiles within the sketch error of the exact ones', () => {
    const [p, e] = metrics[5].summary.dataPoints;
    const sorted = [...a].sort((x, y) => x - y);
    const gamma = 2 ** (2 ** -SCALE) - 1;
    assert.strictEqual(p.count, String(a.length));
    close(p.sum, sumOf(a), 1e-9, 'sum');
    assert.deepStrictEqual(p.quantileValues.map((q) => q.quantile), [0, 0.5, 0.9, 0.99, 1]);
    for (const q of p.quantileValues) {
        const r = q.quantile * (sorted.length - 1);
        const lo = sorted[Math.floor(r)], hi = sorted[Math.ceil(r)];
        assert.ok(q.value >= lo * (1 - gamma) && q.value <= hi * (1 + gamma),
            `q${q.quantile}: ${q.value} not near [${lo}, ${hi}]`);
    }
    assert.strictEqual(e.count, '0');
    assert.ok(e.quantileValues.every((q) => Number.isNaN(q.value)), 'NaN quantiles when empty');
});

// ---- traces --------------------------------------------------------------------------------
const t = decodeBoth(TraceRequest, 'traces');
check('traces: JSON and protobuf decode to the same message', () => {
    assert.deepStrictEqual(t.fromJson, t.pb);
});

check('traces: resource, scope and every span field', () => {
    const rs = t.pb.resourceSpans;
    assert.strictEqual(rs.length, 1);
    assert.deepStrictEqual(attrMap(rs[0].resource.attributes), { 'service.name': 'llmm' });
    const ss = rs[0].scopeSpans[0];
    assert.strictEqual(ss.scope.name, 'llmm bench');
    assert.strictEqual(ss.scope.version, '1');
    assert.strictEqual(ss.spans.length, 3);
    ss.spans.forEach((s, i) => {
        const want = inputs.spans[i];
        assert.strictEqual(b64hex(s.traceId), want.trace);
        assert.strictEqual(b64hex(s.spanId), want.span);
        assert.strictEqual(b64hex(s.parentSpanId), /^0+$/.test(want.parent) ? '' : want.parent);
        assert.strictEqual(s.name, 'chat');
        assert.strictEqual(s.startTimeUnixNano, want.start);
        assert.strictEqual(s.endTimeUnixNano, want.end);
    });
    const kind = otlp.trace.v1.Span.SpanKind;
    assert.deepStrictEqual(ss.spans.map((s) => s.kind),
        [kind.SPAN_KIND_SERVER, kind.SPAN_KIND_CLIENT, kind.SPAN_KIND_CLIENT]);
    assert.strictEqual(ss.spans[1].traceId, ss.spans[0].traceId);
    const a1 = ss.spans[1].attributes;
    assert.deepStrictEqual(a1.map((kv) => kv.key),
        ['gen_ai.usage.output_tokens', 'net.tcp.retrans', 'ttft_s', 'outcome']);
    assert.strictEqual(a1[0].value.intValue, '128');
    assert.strictEqual(a1[1].value.intValue, '-3');
    assert.strictEqual(a1[2].value.doubleValue, 0.125);
    assert.strictEqual(a1[3].value.stringValue, 'ok "\u00e9"');
    const code = otlp.trace.v1.Status.StatusCode;
    assert.deepStrictEqual(ss.spans.map((s) => [s.status.code, s.status.message]),
        [[code.STATUS_CODE_UNSET, ''], [code.STATUS_CODE_OK, ''], [code.STATUS_CODE_ERROR, 'HTTP 503']]);
});

console.log(`1..${tests}`);
fs.rmSync(dir, { recursive: true, force: true });
