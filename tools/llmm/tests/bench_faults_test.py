"""`llmm bench` against what real servers do (issue 39), each reproduced by a fault mode of
`llmm sim` (doc/sim.md) or a small server of the standard library: connections closed after
each stream or when idle (no false failures, re-sends counted and bounded), the URL as OpenAI
users write it and a preflight that refuses to start, failures that keep their reasons in
the three in-stream error dialects and in 4xx bodies, a vocabulary limit and truncated
prompts, a closing summary that gives the same figures as `llmm report` of the result file,
no nan anywhere, and llama.cpp's empty last chunk.

usage: bench_faults_test.py PATH/TO/llmm
"""
import collections
import json
import os
import re
import socket
import threading

import cli_common as C
from bench_common import BenchBase, PlainServer, bench, every_request


def strict_json(path):
    """The file as JSON, refusing NaN and the infinities (which JSON does not have)."""
    def refuse(x):
        raise ValueError("not JSON: %s" % x)
    with open(path) as f:
        return json.load(f, parse_constant=refuse)


def summary_figures(out, name):
    """The closing summary's window counts and latency rows of a level: {row: [mean, P50,
    P90, P99, count]} in ms, and (requests, succeeded, failed)."""
    part = out.split("level %s:" % name, 1)[1]
    m = re.search(r"window: (\d+) requests, (\d+) succeeded, (\d+) failed", part)
    rows = {}
    for label in ("TTFT from send", "ITL", "E2E from send"):
        r = re.search(re.escape(label) + r"\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\((\d+) values\)",
                      part)
        rows[label] = [float(x) for x in r.groups()[:4]] + [int(r.group(5))]
    return tuple(int(x) for x in m.groups()), rows


class ClosingServers(BenchBase):
    """Acceptance: 200 requests at concurrency 1, 4 and 64 with 1-token outputs against a
    server that closes its connections: zero failures, the re-sends counted."""

    def run_closing(self, mode, out):
        s = self.sim(*mode)
        r, d = self.run_bench(s, "--concurrency", "1,4,64", "--num-requests", "200",
                              "--output-len", "1", "--ignore-eos", out=out)
        log = s.stop()
        resent = 0
        for c in (1, 4, 64):
            res = self.result(d, "c%d" % c)
            every = every_request(res)
            self.assertEqual(every["why"], [""] * 200, (mode, c))
            self.assertEqual(every["output_lens"], [1] * 200)
            n = sum(every["resends"])
            self.assertEqual(res["llmm"]["resends"], n)
            self.assertRegex(r.stdout, r"level c%d: .*; %d re-sent\n" % (c, n))
            # a re-sent request's send time is the re-send's; the first is kept
            for k, first, sent in zip(every["resends"], every["first_start_times"],
                                      every["start_times"]):
                self.assertLessEqual(k, 1)
                (self.assertLess if k else self.assertEqual)(first, sent)
            resent += n
        # every request was answered once, the preflight's too
        answered = collections.Counter(x["request_id"] for x in log if x["outcome"] == "ok")
        self.assertEqual(sum(answered.values()), 601)
        self.assertEqual(max(answered.values()), 3)
        return resent

    def test_idle_close_every_reused_connection(self):
        # each reused connection dies under the next request without a byte: libcurl's own
        # retry gives up after 5 on one handle, then llmm re-sends on a fresh connection
        self.assertGreater(self.run_closing(("--idle-close-rate", "1"), "idle"), 0)

    def test_close_after_each_stream(self):
        self.run_closing(("--close-after-stream",), "close")

    def test_fresh_connection_that_dies_is_a_reset_failure(self):
        # output: the drop comes after bytes of response, so no re-send
        s = self.sim("--drop-rate", "1")
        r, d = self.run_bench(s, "--num-requests", "6", "--output-len", "4", "--ignore-eos")
        every = self.every(d, "c1")
        self.assertEqual((every["why"], every["resends"]), (["reset"] * 6, [0] * 6))
        # no byte at all, on fresh connections: one attempt each, a reset failure
        srv = SilentServer()
        self.addCleanup(srv.stop)
        r = bench("--url", "http://127.0.0.1:%d" % srv.port, "-o",
                  os.path.join(self.dir, "silent"), "-q", "--no-report", "--num-requests", "5")
        self.assertEqual(r.returncode, 0, r.stderr)
        every = self.every(os.path.join(self.dir, "silent"), "c1")
        self.assertEqual((every["why"], every["resends"]), (["reset"] * 5, [0] * 5))
        self.assertEqual(srv.connections, 6)  # the preflight's, and one per request


class SilentServer:
    """Answers GET /v1/models with a 404 and the first POST (the preflight) with a one-token
    stream, closing each; closes every later connection once it has read the request,
    without a byte. `connections` counts the POSTs."""

    BODY = (b'data: {"choices":[{"text":"x"}]}\n\ndata: [DONE]\n\n')

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stopping = False
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while not self.stopping:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = c.recv(65536)
                if not chunk:
                    break
                data += chunk
            if data.startswith(b"GET"):
                c.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
                          b"Connection: close\r\n\r\n")
                c.close()
                continue
            self.connections += 1
            if self.connections == 1:
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                          b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(self.BODY)
                          + self.BODY)
            c.close()

    def stop(self):
        self.stopping = True
        self.sock.close()


class Urls(BenchBase):
    def test_the_openai_base_url(self):
        s = self.sim()
        base = self.url(s)
        for i, (url, chat) in enumerate(((base + "/v1", False), (base + "/v1/", True),
                                         (base + "/v1?api-version=1", False),
                                         (base + "/v1/chat/completions", False))):
            r = bench("--url", url, "-o", os.path.join(self.dir, "u%d" % i), "-q",
                      "--no-report", "--num-requests", "3", *(["--chat"] if chat else []))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(self.every(os.path.join(self.dir, "u%d" % i), "c1")["why"],
                             [""] * 3)
            # without --model: the first the server lists at /v1/models, beside the endpoint
            self.assertEqual(self.result(os.path.join(self.dir, "u%d" % i), "c1")["model_id"],
                             "llmm-sim")
        log = s.stop()
        self.assertEqual([x["endpoint"] for x in log],
                         ["completions"] * 4 + ["chat"] * 4 + ["completions"] * 4 +
                         ["chat"] * 4)
        # a wrong path: the preflight's 404, with the server's words, and no run
        s = self.sim()
        r = bench("--url", self.url(s) + "/api", "-o", os.path.join(self.dir, "no"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("/api/v1/completions failed: HTTP 404: {\"error\":{\"message\":\"no such "
                      "route\"", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "no")))


class Reasons(BenchBase):
    def test_in_stream_errors_in_three_dialects(self):
        for dialect in ("event", "object", "field"):
            for after in (0, 2):
                s = self.sim("--seed", "3", "--stream-error-rate", "0.5", "--stream-error",
                             dialect, "--stream-error-after", str(after))
                out = "%s-%d" % (dialect, after)
                r, d = self.run_bench(s, "--num-requests", "20", "--output-len", "4",
                                      "--ignore-eos", out=out)
                log = {x["request_id"]: x for x in s.stop()}
                every = self.every(d, "c1")
                want = ["error-event" if log["bench-%d" % i]["outcome"] == "stream_error"
                        else "" for i in range(20)]
                self.assertEqual(every["why"], want, out)
                self.assertGreater(want.count("error-event"), 3)
                for why, msg in zip(every["why"], every["messages"]):
                    if why:  # the server's words, whichever dialect carried them
                        self.assertIn("simulated in-stream error", msg)
                self.assertRegex(r.stdout, r"\d+ x error-event: .*simulated in-stream error")
                rep = C.run("report", "--json", os.path.join(d, "result-c1.json"))
                window = self.result(d, "c1")["llmm"]["requests"]["reasons"]
                self.assertEqual(json.loads(rep.stdout)["requests"]["failures_by_reason"],
                                 {"error-event": window.count("error-event")})

    def test_4xx_with_a_json_body_and_summary_equals_report(self):
        s = self.sim("--seed", "1", "--error-rate", "0.3", "--error-status", "400",
                     "--drop-rate", "0.2")
        r, d = self.run_bench(s, "--num-requests", "80", "--concurrency", "4",
                              "--output-len", "4", "--ignore-eos", "--label", 'say "hi"\\\n')
        res = strict_json(os.path.join(d, "result-c4.json"))
        self.assertEqual(res["label"], 'say "hi"\\\n')
        every = every_request(res)
        for why, msg, err in zip(every["why"], every["messages"], every["errors"]):
            if why == "http 400":
                self.assertEqual(json.loads(msg)["error"]["code"], 400)
                self.assertEqual(err, "http 400: " + msg)
        self.assertIn("http 400", every["why"])
        self.assertIn("reset", every["why"])
        # the closing summary and `llmm report` of the file: the same window
        (n, ok, bad), rows = summary_figures(r.stdout, "c4")
        rep = C.run("report", "--json", os.path.join(d, "result-c4.json"))
        self.assertEqual(rep.returncode, 0, rep.stderr)
        j = json.loads(rep.stdout)
        self.assertEqual((n, ok, bad), (j["requests"]["total"], j["requests"]["completed"],
                                        j["requests"]["failed"]))
        reasons = collections.Counter(w for w in every_request(dict(
            res, llmm=dict(res["llmm"], warmup={k: [] for k in res["llmm"]["warmup"]},
                           cooldown={k: [] for k in res["llmm"]["cooldown"]})))["why"] if w)
        self.assertEqual(j["requests"]["failures_by_reason"], dict(reasons))
        for label, key in (("TTFT from send", "ttft_s"), ("ITL", "itl_s"),
                           ("E2E from send", "e2e_s")):
            mean, p50, p90, p99, count = rows[label]
            m = j[key]
            self.assertEqual(count, m["count"], label)
            for mine, theirs in ((mean, m["mean"]), (p50, m["p50"]), (p90, m["p90"]),
                                 (p99, m["p99"])):
                self.assertAlmostEqual(mine, theirs * 1e3, delta=0.006, msg=label)
        # vLLM's own keys: the window's, and the report agrees with them
        self.assertEqual((res["completed"], res["failed"]), (ok, bad))
        self.assertIn("%.2f req/s completed / duration" % (ok / res["duration"]), r.stdout)


class Prompts(BenchBase):
    def test_vocabulary_and_truncation(self):
        s = self.sim("--vocab-size", "1000", "--max-prompt-tokens", "50")
        r = bench("--url", self.url(s), "-o", os.path.join(self.dir, "v"), "-q")
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"HTTP 400: .*token id \d+ is out of vocabulary")
        r, d = self.run_bench(s, "--vocab-size", "1000", "--num-requests", "10",
                              "--input-len", "80", "--range-ratio", "0.5", "--output-len", "2")
        every = self.every(d, "c1")
        self.assertEqual(every["why"], [""] * 10)
        self.assertEqual(every["input_lens"], every["asked_input_lens"])  # token IDs: asked
        self.assertEqual(every["served_input_lens"], [min(50, x) for x in every["input_lens"]])
        fewer = sum(x > 50 for x in self.result(d, "c1")["llmm"]["requests"]
                    ["asked_input_lens"])
        self.assertGreater(fewer, 0)
        self.assertIn("prompt tokens: the server served fewer than asked for %d and more for 0"
                      % fewer, r.stdout)

    def test_no_prompt_sent_twice_in_a_sweep(self):
        # every level goes on with fresh prompts, the preflight has its own; each prompt starts
        # with a prefix of its own, after --shared-prefix's common tokens
        srv = PlainServer(b'data: {"choices":[{"text":"x"}]}\n\ndata: [DONE]\n\n')
        self.addCleanup(srv.stop)
        for shared in (0, 3):
            del srv.seen[:]
            d = os.path.join(self.dir, "sweep%d" % shared)
            r = bench("--url", "http://127.0.0.1:%d/v1" % srv.port, "-o", d, "-q",
                      "--no-report", "--concurrency", "1,2,4", "--num-requests", "7",
                      "--input-len", "6", "--shared-prefix", str(shared), "--vocab-size", "5000")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("used again", r.stderr)
            prompts = [tuple(body["prompt"]) for _, body in srv.seen]
            self.assertEqual(len(prompts), 1 + 3 * 7)
            self.assertEqual(len(set(prompts)), len(prompts))
            self.assertEqual(len({p[:shared + 1] for p in prompts}), len(prompts))
            self.assertEqual(len({p[:shared] for p in prompts}), 1)
            self.assertTrue(all(1000 <= t < 5000 for p in prompts for t in p))

    def test_text_prompts(self):
        s = self.sim()
        r, d = self.run_bench(s, "--text-prompts", "--num-requests", "4", "--input-len", "9",
                              "--output-len", "2")
        log = [x for x in s.stop() if x["request_id"] != "bench-preflight"]
        # words: the sim counts them, and the server's count stands in input_lens
        self.assertEqual(self.every(d, "c1")["input_lens"], [9] * 4)
        self.assertEqual([x["prompt_tokens"] for x in log], [9] * 4)


class NoNan(BenchBase):
    def test_no_nan_when_nothing_succeeds(self):
        ok = 'data: {"choices":[{"text":"x"}]}\n\ndata: [DONE]\n\n'
        srv = PlainServer(b'data: {"error": {"message": "down"}}\n\n', ok.encode())
        self.addCleanup(srv.stop)
        d = os.path.join(self.dir, "none-ok")
        r = bench("--url", "http://127.0.0.1:%d" % srv.port, "-o", d, "--concurrency", "1,2,3",
                  "--num-requests", "4", "--progress-every", "0.01")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotRegex(r.stdout + r.stderr, r"(?i)\bnan\b")
        self.assertNotIn("is not a number", r.stdout + r.stderr)  # llmm knee reads the sweep
        self.assertIn("\u2013", r.stdout)  # an en dash where a quantile does not exist
        self.assertIn("P99 TTFT \u2013 ms", r.stderr)
        with open(os.path.join(d, "sweep.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual(rows[0], "concurrency,qps,p99_ms")
        self.assertEqual([x.split(",")[2] for x in rows[1:]], ["", "", ""])
        for c in (1, 2, 3):
            res = strict_json(os.path.join(d, "result-c%d.json" % c))
            self.assertEqual(set(every_request(res)["why"]), {"error-event"})

    def test_the_sims_empty_finish_chunk(self):
        # with usage: the counts are the server's; the empty chunk adds no ITL
        s = self.sim("--empty-finish-chunk", "--step-base-ms", "2")
        r, d = self.run_bench(s, "--num-requests", "5", "--output-len", "6", "--ignore-eos")
        every = self.every(d, "c1")
        self.assertEqual(every["output_lens"], [6] * 5)
        self.assertEqual([len(x) for x in every["itls"]], [5] * 5)
        for ttft, itl, lat in zip(every["ttfts"], every["itls"], every["latencies"]):
            self.assertAlmostEqual(ttft + sum(itl), lat, delta=1e-6)

    def test_empty_last_chunk_is_not_a_token(self):
        # llama.cpp ends a completion stream with an empty text and the finish_reason
        tok = 'data: {"choices":[{"text":"x","finish_reason":null}]}\n\n'
        end = 'data: {"choices":[{"text":"","finish_reason":"stop"}]}\n\n'
        srv = PlainServer((tok * 3 + end + "data: [DONE]\n\n").encode())
        self.addCleanup(srv.stop)
        d = os.path.join(self.dir, "empty")
        r = bench("--url", "http://127.0.0.1:%d" % srv.port, "-o", d, "-q", "--no-report",
                  "--num-requests", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        every = self.every(d, "c1")
        self.assertEqual(every["output_lens"], [3] * 3)
        self.assertEqual([len(x) for x in every["itls"]], [2] * 3)


if __name__ == "__main__":
    C.main()
