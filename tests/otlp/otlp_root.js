// otlp_root.js: OpenTelemetry's generated protobufjs root of
// @opentelemetry/otlp-transformer 0.57.2 (installed by `./dev.sh deps test`), looked up in
// $LLMM_NPM_DIR, else ${XDG_CACHE_HOME:-~/.cache}/llmmetrics/npm. Shared by decode_otlp.js and
// tools/llmm/tests/otlp_bodies.js.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

// The root's `opentelemetry.proto` namespace; when the package is missing, missing(file) is
// called and the process exits 77 (skipped).
function otlpProto(missing) {
    const npmDir = process.env.LLMM_NPM_DIR ||
        path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'llmmetrics',
            'npm');
    const rootFile = path.join(npmDir, 'node_modules', '@opentelemetry', 'otlp-transformer',
        'build', 'src', 'generated', 'root.js');
    if (!fs.existsSync(rootFile)) {
        missing(rootFile);
        process.exit(77);
    }
    return require(rootFile).opentelemetry.proto;
}

module.exports = { otlpProto };
