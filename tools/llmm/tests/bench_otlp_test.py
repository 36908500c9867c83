"""`llmm bench` trace context and `--otlp` against `llmm sim --log` and a standard-library
OTLP/HTTP receiver: every request carries a valid, distinct W3C traceparent (the simulator's
log), the result file names the same ids, the closing report names the slowest requests' trace
ids, the pushed histograms (decoded with OpenTelemetry's own protobuf definitions,
otlp_bodies.js) count and sum exactly the result file's measured requests with exemplars on
their spans, one client span per request with its ids, times and token counts, children of
--traceparent, OTLP/JSON, and a collector that is down leaves the exit status 0.

usage: bench_otlp_test.py PATH/TO/llmm
"""
import gzip
import json
import math
import os
import re
import shutil
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cli_common as C
from bench_common import BenchBase, bench, every_request

HERE = os.path.dirname(os.path.abspath(__file__))
TP = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")


class Receiver:
    """An OTLP/HTTP collector that keeps every body (gunzipped) as metrics-N.pb,
    traces-N.pb (or .json), in arrival order, with its headers."""

    def __init__(self, directory):
        self.dir = directory
        self.posts = []
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                kind = {"/v1/metrics": "metrics", "/v1/traces": "traces"}.get(self.path)
                json_body = self.headers.get("Content-Type") == "application/json"
                with lock:
                    name = os.path.join(outer.dir, "%s-%d.%s" % (
                        kind, len(outer.posts), "json" if json_body else "pb"))
                    outer.posts.append((kind, name, dict(self.headers)))
                with open(name, "wb") as f:
                    f.write(body)
                self.send_response(200 if kind else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def files(self, kind):
        return [name for k, name, _ in self.posts if k == kind]


def decode(test, files):
    """The bodies decoded by OpenTelemetry's definitions (ids as hex)."""
    node = shutil.which("node")
    if not node:
        test.skipTest("node not installed")
    r = subprocess.run([node, os.path.join(HERE, "otlp_bodies.js"), *files],
                       capture_output=True, text=True, timeout=120)
    if r.returncode == 77:
        test.skipTest(r.stderr.strip())
    test.assertEqual(r.returncode, 0, r.stderr)
    return [x["message"] for x in json.loads(r.stdout)]


def attrs(kvs):
    """OTLP KeyValues as a dict of plain values."""
    out = {}
    for kv in kvs:
        v = kv["value"]
        for k in ("stringValue", "intValue", "doubleValue"):
            if v.get("value", k) == k and k in v:
                out[kv["key"]] = int(v[k]) if k == "intValue" else v[k]
    return out


def spans_of(messages):
    return [s for m in messages for rs in m["resourceSpans"] for ss in rs["scopeSpans"]
            for s in ss["spans"]]


def last_points(messages, name):
    """The newest point of metric `name` per level."""
    pts = {}
    for m in messages:
        for rm in m["resourceMetrics"]:
            for sm in rm["scopeMetrics"]:
                for mt in sm["metrics"]:
                    if mt["name"] != name:
                        continue
                    data = mt.get("exponentialHistogram") or mt.get("sum")
                    for p in data["dataPoints"]:
                        a = attrs(p["attributes"])
                        key = (a["level"], a.get("outcome"))
                        if key not in pts or int(p["timeUnixNano"]) >= int(
                                pts[key]["timeUnixNano"]):
                            pts[key] = p
    return pts


class TraceContext(BenchBase):
    def run_otlp(self, s, *args, **kw):
        rdir = os.path.join(self.dir, "recv-%d" % len(os.listdir(self.dir)))
        os.mkdir(rdir)
        rc = Receiver(rdir)
        try:
            r, d = self.run_bench(s, "--num-requests", "24", "--output-len", "8",
                                  "--otlp", rc.url, *args, **kw)
        finally:
            rc.close()
        return r, d, rc

    def test_ids_histograms_and_spans(self):
        s = self.sim()
        rdir = os.path.join(self.dir, "recv")
        os.mkdir(rdir)
        rc = Receiver(rdir)
        d = os.path.join(self.dir, "out")
        r = bench("--url", self.url(s), "-o", d, "-q", "--num-requests", "24",
                  "--output-len", "8", "--concurrency", "2,4", "--otlp", rc.url,
                  "--otlp-interval", "0.2", "--otlp-header", "X-Collector-Key: k1")
        rc.close()
        self.assertEqual(r.returncode, 0, r.stderr)
        log = [x for x in s.stop() if x["request_id"] != "bench-preflight"]
        self.assertEqual(len(log), 48)
        # every request a valid traceparent, ids distinct, not all zero, sampled
        sent = {}
        for x in log:
            m = TP.match(x["traceparent"])
            self.assertTrue(m, x["traceparent"])
            trace, span, flags = m.groups()
            self.assertNotEqual(trace, "0" * 32)
            self.assertNotEqual(span, "0" * 16)
            self.assertEqual(flags, "01")
            sent[(x["request_id"], trace)] = span
        traces = [k[1] for k in sent]
        self.assertEqual(len(set(traces)), 48)
        self.assertEqual(len(set(sent.values())), 48)
        # the result files name the same ids, per request (X-Request-Id: bench-N, send order)
        by_level = {}
        for level in ("c2", "c4"):
            res = self.result(d, level)
            ext = res["llmm"]
            parts = [ext["warmup"], ext["requests"], ext["cooldown"]]
            ids = [(t, sp) for p in parts for t, sp in zip(p["trace_ids"], p["span_ids"])]
            firsts = [t for p in parts for t in p["first_start_times"]]
            ids = [x for _, x in sorted(zip(firsts, ids))]
            self.assertEqual(len(ids), 24)
            by_level[level] = (res, ids)
        seen = set()
        for level, (res, ids) in by_level.items():
            for n, (trace, span) in enumerate(ids):
                hits = [x for x in log if TP.match(x["traceparent"]).groups()[:2] == (trace, span)]
                self.assertEqual(len(hits), 1, (level, n))
                self.assertEqual(hits[0]["request_id"], "bench-%d" % n)
                seen.add(trace)
        self.assertEqual(seen, set(traces))
        # the closing report: the five largest E2E and TTFT with their trace ids
        lines = re.findall(r"^(E2E|TTFT) +([0-9.]+) ms +level (c\d) +request bench-(\d+) +trace "
                           r"([0-9a-f]{32}) span ([0-9a-f]{16})$", r.stdout, re.M)
        self.assertEqual(len(lines), 10, r.stdout[-2000:])
        window = []
        for level, (res, _) in by_level.items():  # the measured window's requests
            for k, (ttft, e2e) in enumerate(zip(res["ttfts"], res["latencies"])):
                window.append((level, ttft, e2e, res["llmm"]["requests"]["trace_ids"][k]))
        for fig, col in (("E2E", 2), ("TTFT", 1)):
            want = sorted(window, key=lambda w: -w[col])[:5]
            got = [ln for ln in lines if ln[0] == fig]
            for (_, v, level, _, trace, _), w in zip(got, want):
                self.assertAlmostEqual(float(v), w[col] * 1e3, delta=0.051)
            self.assertEqual(sorted(ln[4] for ln in got), sorted(w[3] for w in want))
        # the pushes: protobuf, gzip, the extra header, metrics and traces
        for kind, _, headers in rc.posts:
            self.assertEqual(headers["Content-Type"], "application/x-protobuf")
            self.assertEqual(headers["Content-Encoding"], "gzip")
            self.assertEqual(headers["X-Collector-Key"], "k1")
        metrics = decode(self, rc.files("metrics"))
        spans = spans_of(decode(self, rc.files("traces")))
        self.assertGreaterEqual(len(metrics), 2)
        for level, (res, ids) in by_level.items():
            self.check_level(metrics, level, res, ids)
        self.check_spans(spans, log)

    def check_level(self, metrics, level, res, ids):
        ok = res["completed"]
        e2e = last_points(metrics, "llmm.bench.e2e")[(level, None)]
        ttft = last_points(metrics, "llmm.bench.ttft")[(level, None)]
        itl = last_points(metrics, "llmm.bench.itl")[(level, None)]
        self.assertEqual(int(e2e["count"]), ok)
        self.assertEqual(int(ttft["count"]), ok)
        self.assertEqual(int(itl["count"]), sum(len(x) for x in res["itls"]))
        self.assertAlmostEqual(e2e["sum"], math.fsum(res["latencies"]), delta=1e-9 * ok)
        self.assertAlmostEqual(ttft["sum"], math.fsum(res["ttfts"]), delta=1e-9 * ok)
        self.assertAlmostEqual(e2e["max"], max(res["latencies"]), delta=1e-12)
        # exemplars: the largest E2E's request, and each on a span of this level
        level_traces = {t for t, _ in ids}
        big = res["llmm"]["requests"]["trace_ids"][res["latencies"].index(max(res["latencies"]))]
        self.assertIn(big, [e["traceId"] for e in e2e["exemplars"]])
        for p in (e2e, ttft, itl):
            self.assertGreaterEqual(len(p["exemplars"]), 1)
            for e in p["exemplars"]:
                self.assertIn(e["traceId"], level_traces)
        counts = last_points(metrics, "llmm.bench.requests")
        self.assertEqual(int(counts[(level, "ok")]["asDouble"]), 24)

    def check_spans(self, spans, log):
        self.assertEqual(len(spans), len(log))
        by_trace = {s["traceId"]: s for s in spans}
        self.assertEqual(len(by_trace), len(log))
        for x in log:
            trace, span, _ = TP.match(x["traceparent"]).groups()
            sp = by_trace[trace]
            self.assertEqual(sp["spanId"], span)
            self.assertEqual(sp["parentSpanId"], "")
            self.assertEqual(sp["kind"], 3)  # SPAN_KIND_CLIENT
            self.assertEqual(sp["status"]["code"], 1)
            start, end = int(sp["startTimeUnixNano"]), int(sp["endTimeUnixNano"])
            a = attrs(sp["attributes"])
            # the span covers the server's first and last chunk (its log's monotonic ns)
            self.assertAlmostEqual((end - start) / 1e9, a["llmm.bench.e2e"], delta=0.05)
            self.assertGreaterEqual(a["llmm.bench.e2e"] * 1e9,
                                    x["last_chunk_ns"] - x["first_chunk_ns"])
            self.assertEqual(a["gen_ai.usage.output_tokens"], x["output_tokens"])
            self.assertEqual(a["gen_ai.usage.input_tokens"], x["prompt_tokens"])
            self.assertEqual(a["llmm.bench.outcome"], "ok")
            self.assertEqual(a["http.response.status_code"], 200)
            self.assertEqual(a["llmm.bench.request"], int(x["request_id"].split("-")[1]))
            for k in ("net.tcp.retrans", "mem.major_fault", "sched.jitter"):
                self.assertNotIn(k, a)  # no --bpf: no kernel events

    def test_children_of_traceparent_as_json(self):
        s = self.sim()
        parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
        r, d, rc = self.run_otlp(s, "--traceparent", parent, "--otlp-json")
        log = [x for x in s.stop() if x["request_id"] != "bench-preflight"]
        self.assertEqual(len(log), 24)
        spans = set()
        for x in log:
            trace, span, flags = TP.match(x["traceparent"]).groups()
            self.assertEqual((trace, flags), ("4bf92f3577b34da6a3ce929d0e0e4736", "00"))
            self.assertNotEqual(span, "00f067aa0ba902b7")
            spans.add(span)
        self.assertEqual(len(spans), 24)
        res = self.result(d, "c1")
        got = []
        for name in rc.files("traces"):
            self.assertTrue(name.endswith(".json"))
            with open(name) as f:
                doc = json.load(f)
            for rs in doc["resourceSpans"]:
                for ss in rs["scopeSpans"]:
                    for sp in ss["spans"]:
                        self.assertEqual(sp["traceId"], "4bf92f3577b34da6a3ce929d0e0e4736")
                        self.assertEqual(sp["parentSpanId"], "00f067aa0ba902b7")
                        got.append(sp["spanId"])
        self.assertEqual(sorted(got), sorted(spans))
        last = None
        for name in rc.files("metrics"):
            with open(name) as f:
                last = json.load(f)
        e2e = [m for m in last["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]
               if m["name"] == "llmm.bench.e2e"][0]
        self.assertEqual(int(e2e["exponentialHistogram"]["dataPoints"][0]["count"]),
                         res["completed"])

    def test_collector_down_leaves_exit_status_zero(self):
        s = self.sim()
        with socket.socket() as sk:  # a port nobody listens on
            sk.bind(("127.0.0.1", 0))
            port = sk.getsockname()[1]
        d = os.path.join(self.dir, "out")
        r = bench("--url", self.url(s), "-o", d, "-q", "--no-report", "--num-requests", "12",
                  "--output-len", "8", "--otlp", "http://127.0.0.1:%d" % port)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--otlp: metrics push to http://127.0.0.1:%d failed" % port, r.stderr)
        self.assertRegex(r.stderr, r"--otlp: \d+ of \d+ pushes to \S+ failed")
        self.assertEqual(every_request(self.result(d, "c1"))["why"], [""] * 12)

    def test_usage_errors(self):
        for args in (["--traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"],
                     ["--traceparent", "nonsense"], ["--otlp-header", "no colon"],
                     ["--otlp-interval", "0"]):
            r = bench("--url", "http://127.0.0.1:1", *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))


if __name__ == "__main__":
    C.main()
