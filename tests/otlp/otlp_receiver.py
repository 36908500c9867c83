#!/usr/bin/env python3
"""A scripted OTLP/HTTP receiver that checks the sender of tools/otlp through
examples/otlp_push: gzip and content types, retries on 429/502/503/504 waiting what
Retry-After asks (delay-seconds and HTTP-date), backoff without it, no retry on 400, and a
timeout. The bodies are read back: gunzip, then a minimal protobuf wire reader written here
(or json) finds the metric names, span ids and the exemplar's trace id.

usage: otlp_receiver.py OTLP_PUSH      (TAP on stdout)
"""

from __future__ import annotations

import email.utils
import gzip
import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


# ---- protobuf wire reader ------------------------------------------------------------------
def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def fields(b):
    out, i = {}, 0
    while i < len(b):
        tag, i = varint(b, i)
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 1:
            v, i = b[i:i + 8], i + 8
        elif wire == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise AssertionError("wire type %d" % wire)
        out.setdefault(num, []).append(v)
    return out


def pb_metric_names(body):
    scope = fields(fields(fields(body)[1][0])[2][0])
    return [fields(m)[1][0].decode() for m in scope[2]]


def pb_exemplar_trace(body):
    scope = fields(fields(fields(body)[1][0])[2][0])
    for m in scope[2]:
        mf = fields(m)
        if 10 in mf:  # exponential_histogram
            for dp in fields(mf[10][0])[1]:
                for ex in fields(dp).get(11, []):
                    return fields(ex)[5][0].hex()
    return None


def pb_span_traces(body):
    scope = fields(fields(fields(body)[1][0])[2][0])
    return [fields(s)[1][0].hex() for s in scope[2]]


# ---- the scripted server -------------------------------------------------------------------
class Receiver:
    """Answers each path with the next scripted (status, headers, delay) and records every
    request: (monotonic time, path, headers, body)."""

    def __init__(self, script):
        self.script = {k: list(v) for k, v in script.items()}
        self.requests = []
        rec = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                rec.requests.append((time.monotonic(), self.path, dict(self.headers), body))
                steps = rec.script.get(self.path) or [(200, {}, 0)]
                status, headers, delay = steps.pop(0) if len(steps) > 1 else steps[0]
                if callable(headers):
                    headers = headers()
                if delay:
                    time.sleep(delay)
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def of(self, path):
        return [r for r in self.requests if r[1] == path]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def run(push, url, *args):
    p = subprocess.run([push, url, "--pushes", "1", *args], capture_output=True, text=True,
                       timeout=60)
    lines = {ln.split()[0]: ln for ln in p.stdout.splitlines()}
    return p.returncode, lines


def field(line, key):
    for w in line.split():
        if w.startswith(key + "="):
            return w[len(key) + 1:]
    raise AssertionError("%s not in %r" % (key, line))


def http_date_in(seconds):
    return email.utils.formatdate(time.time() + seconds, usegmt=True)


# ---- the checks ----------------------------------------------------------------------------
@test
def retries_honour_retry_after(push):
    """503 + Retry-After: 1, 429 + Retry-After: HTTP-date, 502 (backoff), then 200; traces
    504 then 200. Every attempt gzip'ed protobuf of the same request."""
    r = Receiver({
        "/v1/metrics": [(503, {"Retry-After": "1"}, 0),
                        (429, lambda: {"Retry-After": http_date_in(2)}, 0),
                        (502, {}, 0), (200, {}, 0)],
        "/v1/traces": [(504, {}, 0), (200, {}, 0)],
    })
    try:
        rc, out = run(push, r.url)
    finally:
        r.close()
    assert rc == 0, out
    m = r.of("/v1/metrics")
    assert len(m) == 4, len(m)
    assert field(out["metrics"], "attempts") == "4" and field(out["metrics"], "status") == "200"
    assert field(out["metrics"], "retry_after") == "2", out["metrics"]
    waits = [int(w) for w in field(out["metrics"], "waits").split(",")]
    assert waits[0] == 1000, waits  # Retry-After: 1
    assert waits[1] >= 1000, waits  # the HTTP-date, 2 s ahead (whole seconds)
    assert 250 <= waits[2] < 500, waits  # backoff 500 ms times a jitter in [0.5, 1)
    for k in range(3):  # the sender really waited (lower bounds only)
        assert m[k + 1][0] - m[k][0] >= waits[k] / 1000.0 * 0.99, (k, waits)
    bodies = set()
    for _, _, headers, body in m:
        assert headers.get("Content-Encoding") == "gzip", headers
        assert headers.get("Content-Type") == "application/x-protobuf", headers
        bodies.add(gzip.decompress(body))
    assert len(bodies) == 1, "every attempt sends the same request"
    body = bodies.pop()
    assert pb_metric_names(body) == ["gen_ai.server.time_to_first_token",
                                     "gen_ai.server.request.duration", "server.requests"]
    t = r.of("/v1/traces")
    assert len(t) == 2 and field(out["traces"], "attempts") == "2"
    traces = pb_span_traces(gzip.decompress(t[-1][3]))
    assert len(traces) == 4 and len(set(traces)) == 4
    assert pb_exemplar_trace(body) in traces, "the exemplar points at a pushed span"


@test
def no_retry_on_400(push):
    r = Receiver({"/v1/metrics": [(400, {"Retry-After": "1"}, 0)]})
    try:
        rc, out = run(push, r.url)
    finally:
        r.close()
    assert rc == 1, out
    assert len(r.of("/v1/metrics")) == 1, len(r.of("/v1/metrics"))
    assert field(out["metrics"], "status") == "400" and field(out["metrics"], "attempts") == "1"
    assert "failed" in out["metrics"]


@test
def json_without_gzip(push):
    r = Receiver({})
    try:
        rc, out = run(push, r.url + "/", "--json", "--no-gzip")
    finally:
        r.close()
    assert rc == 0, out
    (_, path, headers, body), = r.of("/v1/metrics")
    assert "Content-Encoding" not in headers
    assert headers["Content-Type"] == "application/json"
    doc = json.loads(body)
    metrics = doc["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]
    assert [m["name"] for m in metrics][-1] == "server.requests"
    counts = {p["attributes"][0]["value"]["stringValue"]: p["asDouble"]
              for p in metrics[-1]["sum"]["dataPoints"]}
    assert counts["ok"] + counts["error"] == 200, counts
    hist = metrics[1]["exponentialHistogram"]["dataPoints"][0]
    assert hist["count"] == "200"
    spans = json.loads(r.of("/v1/traces")[0][3])["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert hist["exemplars"][0]["traceId"] in [s["traceId"] for s in spans]


@test
def timeout_is_retried_then_reported(push):
    r = Receiver({"/v1/metrics": [(200, {}, 1.5)], "/v1/traces": [(200, {}, 0)]})
    try:
        rc, out = run(push, r.url, "--timeout-ms", "300", "--max-attempts", "2")
    finally:
        r.close()
    assert rc == 1, out
    assert field(out["metrics"], "attempts") == "2", out["metrics"]
    assert field(out["metrics"], "status") == "0"
    assert "timed out" in out["metrics"].lower() or "timeout" in out["metrics"].lower()


def main():
    push = sys.argv[1]
    failed = 0
    for n, t in enumerate(TESTS, 1):
        try:
            t(push)
            print("ok %d - %s" % (n, t.__name__))
        except Exception as e:  # report and go on
            failed += 1
            print("not ok %d - %s" % (n, t.__name__))
            for line in repr(e).splitlines():
                print("# " + line)
    print("1..%d" % len(TESTS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
