"""What the tests of `llmm bench` share (bench_test.py, bench_faults_test.py): running it,
a base class with a simulator per test, every request of a result file in send order (the
measured window's vLLM lists and llmm's warm-up and cool-down), and a standard-library server
that streams a fixed body.
"""
import json
import os
import subprocess

import cli_common as C
from sim_test import Sim


def bench(*args, timeout=300):
    return subprocess.run([C.LLMM, "bench", *args], capture_output=True, text=True,
                          timeout=timeout)


def has_curl():
    r = bench("--url", "http://127.0.0.1:1", "-q", "--no-report")
    return "built without libcurl" not in r.stderr


class BenchBase(C.Base):
    def setUp(self):
        super().setUp()
        if not has_curl():
            self.skipTest("llmm built without libcurl")
        self.sims = []

    def tearDown(self):
        for s in self.sims:
            s.kill()
        super().tearDown()

    def sim(self, *args, tls=None):
        s = Sim(self, *args, tls=tls)
        self.sims.append(s)
        return s

    def url(self, s, scheme="http"):
        return "%s://127.0.0.1:%d" % (scheme, s.port)

    def run_bench(self, s, *args, out="out", scheme="http", ok=True):
        d = os.path.join(self.dir, out)
        r = bench("--url", self.url(s, scheme), "-o", d, "-q", "--no-report", *args)
        if ok:
            self.assertEqual(r.returncode, 0, r.stderr)
        return r, d

    def result(self, d, name):
        with open(os.path.join(d, "result-%s.json" % name)) as f:
            return json.load(f)

    def every(self, d, name):
        return every_request(self.result(d, name))


# The per-request keys of the result file: vLLM's lists (the measured window) and llmm's
# (doc/bench.md), which its warm-up and cool-down carry too.
VLLM_KEYS = ("input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
             "queue_times", "errors")
LLMM_KEYS = ("reasons", "messages", "first_start_times", "asked_input_lens",
             "served_input_lens", "resends", "http_status")


def every_request(res):
    """Every request of a result file (warm-up, window, cool-down) in send order: a dict of
    lists, and "why": the reason with the HTTP status ("http 500", "reset", "" for success)."""
    ext = res["llmm"]
    parts = [ext["warmup"], dict(res, **ext["requests"]), ext["cooldown"]]
    out = {k: [x for p in parts for x in p[k]] for k in VLLM_KEYS + LLMM_KEYS}
    order = sorted(range(len(out["first_start_times"])),
                   key=lambda i: out["first_start_times"][i])
    out = {k: [v[i] for i in order] for k, v in out.items()}
    out["why"] = [r + (" %d" % st if r == "http" else "")
                  for r, st in zip(out["reasons"], out["http_status"])]
    return out


class PlainServer:
    """A standard-library HTTP server that streams a fixed SSE body the way servers without
    usage chunks do (CRLF line ends, a comment, no usage), for the paths llmm sim never
    takes."""

    def __init__(self, body, first=None):
        import http.server
        import threading
        seen = self.seen = []  # (headers, body) of each POST
        every = body  # what each POST gets (the first: `first`, when given)

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_HEAD(self):
                self.send_response(405)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                seen.append((dict(self.headers),
                             json.loads(self.rfile.read(int(self.headers["Content-Length"])))))
                body = first if first is not None and len(seen) == 1 else every
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for i in range(0, len(body), 7):  # events cut across writes
                    self.wfile.write(body[i:i + 7])
                    self.wfile.flush()

            def log_message(self, *a):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
