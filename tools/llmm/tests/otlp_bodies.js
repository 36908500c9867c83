// otlp_bodies.js: decode OTLP/HTTP request bodies with OpenTelemetry's own protobuf
// definitions (the generated protobufjs root of @opentelemetry/otlp-transformer 0.57.2,
// installed by `./dev.sh deps test`; see tests/otlp/decode_otlp.js) for bench_otlp_test.py.
// Usage: node otlp_bodies.js FILE...; each FILE is "metrics-N.pb" or "traces-N.pb". Prints
// one JSON array of {"file", "kind", "message"} (trace and span ids as lowercase hex, 64-bit
// integers as strings); exit status 77 when the package is missing.
'use strict';
const fs = require('fs');
const path = require('path');
const { otlpProto } = require(path.join(__dirname, '..', '..', '..', 'tests', 'otlp',
    'otlp_root.js'));

const otlp = otlpProto((file) => process.stderr.write(`${file} missing: run ./dev.sh deps test\n`));
const types = {
    metrics: otlp.collector.metrics.v1.ExportMetricsServiceRequest,
    traces: otlp.collector.trace.v1.ExportTraceServiceRequest,
};
const AS_OBJECT = { longs: String, enums: Number, bytes: Array, defaults: true, arrays: true };

// ids (bytes) come out as arrays of numbers: lowercase hex instead ("" when absent)
function hex(v) {
    if (Array.isArray(v))
        return v.map(hex);
    if (v && typeof v === 'object') {
        const o = {};
        for (const k of Object.keys(v))
            o[k] = ['traceId', 'spanId', 'parentSpanId'].includes(k)
                ? Buffer.from(v[k]).toString('hex') : hex(v[k]);
        return o;
    }
    return v;
}

const out = [];
for (const file of process.argv.slice(2)) {
    const kind = path.basename(file).split('-')[0];
    const T = types[kind];
    out.push({ file, kind, message: hex(T.toObject(T.decode(fs.readFileSync(file)), AS_OBJECT)) });
}
process.stdout.write(JSON.stringify(out));
