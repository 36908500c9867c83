"""`llmm sim` on loopback, driven by a small standard-library client: exact chunk counts and
usage, the model's delays as lower bounds read from the server's own log (CLOCK_MONOTONIC, the
same clock as time.monotonic_ns here) with generous upper factors, queueing when the batch or
the KV capacity is full, the faults at their seeded rates, keep-alive, pipelining, the routes'
errors, HTTPS with a self-signed certificate, and a clean stop on SIGTERM.

usage: sim_test.py PATH/TO/llmm
"""
import http.client
import json
import math
import os
import resource
import signal
import socket
import ssl
import subprocess
import threading
import time
import unittest

import cli_common as C

MS = 1_000_000  # ns


def limit_fds(n):
    """A preexec_fn capping the child's descriptors at n (None: no cap)."""
    if n is None:
        return None
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


class Sim:
    """A running `llmm sim --port 0 --log FILE ARGS`; stop() returns its log's lines."""

    def __init__(self, test, *args, tls=None, max_fds=None):
        self.log = os.path.join(test.dir, "sim-%d.jsonl" % id(self))
        extra = ["--tls-cert", tls[0], "--tls-key", tls[1]] if tls else []
        self.proc = subprocess.Popen([C.LLMM, "sim", "--port", "0", "--log", self.log,
                                      *extra, *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     preexec_fn=limit_fds(max_fds))
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("llmm sim did not start: " + self.proc.stderr.read())
        scheme = "https" if tls else "http"
        test.assertRegex(line, r"^llmm sim: listening on %s://127\.0\.0\.1:\d+\n$" % scheme)
        self.port = int(line.rsplit(":", 1)[1])
        self.tls = ssl.create_default_context(cafile=tls[0]) if tls else None

    def connect(self):
        if self.tls:
            return http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls,
                                               timeout=60)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=60)
        if self.proc.returncode != 0:
            raise AssertionError("llmm sim exited %d: %s" % (self.proc.returncode, err))
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


class Result:
    """One request's answer: status, the stream's events (time, text) or its body."""

    def __init__(self):
        self.status = None
        self.events = []  # (monotonic ns, payload after "data: ")
        self.body = b""
        self.broken = False  # the connection ended mid-response
        self.sent_ns = 0


def request(conn, path, body, headers=None):
    r = Result()
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    r.sent_ns = time.monotonic_ns()
    try:
        conn.request("POST", path, json.dumps(body), h)
        resp = conn.getresponse()
        r.status = resp.status
        if resp.getheader("Content-Type", "").startswith("text/event-stream"):
            while True:
                line = resp.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    r.events.append((time.monotonic_ns(), line[6:].rstrip(b"\n").decode()))
            r.broken = not r.events or r.events[-1][1] != "[DONE]"
        else:
            r.body = resp.read()
    except (http.client.HTTPException, ConnectionError, OSError):
        r.broken = True
        conn.close()
    return r


def completion(max_tokens, prompt=None, stream=True, usage=True, **extra):
    body = {"model": "m", "prompt": prompt if prompt is not None else list(range(7)),
            "max_tokens": max_tokens, "ignore_eos": True, "stream": stream}
    if usage:
        body["stream_options"] = {"include_usage": True}
    body.update(extra)
    return body


def decode(r):
    """The stream's JSON events (the [DONE] marker left out)."""
    return [json.loads(e) for _, e in r.events if e != "[DONE]"]


class SimBase(C.Base):
    def start(self, *args, **kw):
        s = Sim(self, *args, **kw)
        self.addCleanup(s.kill)
        return s

    def one(self, sim, path, body, headers=None):
        conn = sim.connect()
        try:
            return request(conn, path, body, headers)
        finally:
            conn.close()

    def concurrent(self, sim, bodies, path="/v1/completions"):
        results = [None] * len(bodies)
        barrier = threading.Barrier(len(bodies))

        def go(i):
            conn = sim.connect()
            barrier.wait()
            results[i] = request(conn, path, bodies[i])
            conn.close()

        threads = [threading.Thread(target=go, args=(i,)) for i in range(len(bodies))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        return results


class Shapes(SimBase):
    def test_completions_stream(self):
        sim = self.start("--step-base-ms", "1")
        tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        r = self.one(sim, "/v1/completions", completion(5),
                     {"X-Request-Id": "req-9", "traceparent": tp})
        self.assertEqual(r.status, 200)
        self.assertEqual(r.events[-1][1], "[DONE]")
        ev = decode(r)
        self.assertEqual(len(ev), 6)  # 5 tokens, the usage chunk
        tokens, use = ev[:5], ev[5]
        self.assertTrue(all(e["object"] == "text_completion" and e["model"] == "m" and
                            e["id"] == tokens[0]["id"] and e["id"].startswith("cmpl-")
                            for e in ev))
        self.assertEqual([e["choices"][0]["finish_reason"] for e in tokens],
                         [None] * 4 + ["length"])
        self.assertTrue(all(e["choices"][0]["text"] for e in tokens))
        self.assertEqual(use["choices"], [])
        self.assertEqual(use["usage"], {"prompt_tokens": 7, "total_tokens": 12,
                                        "completion_tokens": 5})
        r = self.one(sim, "/v1/completions", completion(3, prompt="a few  words\there",
                                                        usage=False))
        ev = decode(r)
        self.assertEqual(len(ev), 3)
        self.assertTrue(all("usage" not in e for e in ev))
        log = sim.stop()
        self.assertEqual(len(log), 2)
        self.assertEqual(log[0]["request_id"], "req-9")
        self.assertEqual([x["traceparent"] for x in log], [tp, ""])
        self.assertEqual((log[0]["prompt_tokens"], log[0]["output_tokens"]), (7, 5))
        self.assertEqual((log[1]["prompt_tokens"], log[1]["output_tokens"]), (4, 3))
        self.assertEqual([x["outcome"] for x in log], ["ok", "ok"])

    def test_chat_stream_and_bodies(self):
        sim = self.start("--step-base-ms", "1")
        chat = {"model": "c", "messages": [{"role": "system", "content": "be brief"},
                                           {"role": "user", "content": "one two three"}],
                "max_completion_tokens": 4, "ignore_eos": True, "stream": True,
                "stream_options": {"include_usage": True}}
        r = self.one(sim, "/v1/chat/completions", chat)
        ev = decode(r)
        self.assertEqual(len(ev), 1 + 4 + 1)  # the role chunk, 4 tokens, usage
        self.assertEqual(ev[0]["choices"][0]["delta"], {"role": "assistant", "content": ""})
        self.assertTrue(all(e["object"] == "chat.completion.chunk" for e in ev))
        text = "".join(e["choices"][0]["delta"]["content"] for e in ev[1:5])
        self.assertEqual(ev[5]["usage"], {"prompt_tokens": 5, "total_tokens": 9,
                                          "completion_tokens": 4})
        chat["stream"] = False
        r = self.one(sim, "/v1/chat/completions", chat)
        body = json.loads(r.body)
        self.assertEqual(body["object"], "chat.completion")
        self.assertEqual(body["choices"][0]["message"]["content"], text)
        self.assertEqual(body["usage"]["completion_tokens"], 4)
        r = self.one(sim, "/v1/completions", completion(4, stream=False))
        body = json.loads(r.body)
        self.assertEqual(body["choices"][0]["text"], text)
        self.assertEqual(body["usage"], {"prompt_tokens": 7, "total_tokens": 11,
                                         "completion_tokens": 4})
        sim.stop()

    def test_output_lengths_seeded(self):
        def lengths(seed):
            sim = self.start("--step-base-ms", "0.2", "--mean-output", "8", "--seed", seed)
            conn = sim.connect()
            out = []
            for _ in range(30):
                r = request(conn, "/v1/completions", completion(20, ignore_eos=False))
                ev = decode(r)
                self.assertEqual(len(ev) - 1, ev[-1]["usage"]["completion_tokens"])
                last = ev[-2]["choices"][0]["finish_reason"]
                n = ev[-1]["usage"]["completion_tokens"]
                self.assertEqual(last, "length" if n == 20 else "stop")
                out.append(n)
            conn.close()
            sim.stop()
            return out

        a, b, c = lengths("5"), lengths("5"), lengths("6")
        self.assertEqual(a, b)
        self.assertNotEqual(a, c)
        self.assertTrue(all(1 <= n <= 20 for n in a))
        self.assertGreater(len(set(a)), 3)


class Timing(SimBase):
    def test_delays_follow_the_model(self):
        base, per_seq, prefill, n, prompt = 20.0, 2.0, 0.5, 6, 40
        sim = self.start("--step-base-ms", str(base), "--step-per-seq-ms", str(per_seq),
                         "--prefill-ms-per-token", str(prefill))
        r = self.one(sim, "/v1/completions", completion(n, prompt=list(range(prompt))))
        log = sim.stop()[0]
        first = (base + per_seq + prefill * prompt) * MS  # the step with the prefill
        step = (base + per_seq) * MS
        # the model's times (the engine's step ends, in the log) exactly: the first step from
        # the arrival, with the prefill, then n - 1 steps of one sequence
        self.assertEqual(log["first_chunk_due_ns"] - log["arrival_ns"], first)
        self.assertEqual(log["last_chunk_due_ns"] - log["first_chunk_due_ns"], (n - 1) * step)
        # each write at or after its model time, and not late by more than a generous factor
        model = first + (n - 1) * step
        self.assertGreaterEqual(log["first_chunk_ns"], log["first_chunk_due_ns"])
        self.assertGreaterEqual(log["last_chunk_ns"], log["last_chunk_due_ns"])
        self.assertLessEqual(log["last_chunk_ns"] - log["arrival_ns"], 5 * model + 250 * MS)
        # the client cannot see the last token before the model writes it
        token_times = [t for t, e in r.events[:n]]
        self.assertGreaterEqual(token_times[-1] - r.sent_ns, model)
        # the log's clock is this process's CLOCK_MONOTONIC
        self.assertLessEqual(r.sent_ns, log["arrival_ns"])
        self.assertLessEqual(log["last_chunk_ns"], token_times[-1])

    def queued(self, flags, n, base, bodies):
        """4 concurrent streams of n tokens when 2 fit: the 2 that queue wait for a slot."""
        sim = self.start("--step-base-ms", str(base), "--step-per-seq-ms", "0",
                         "--prefill-ms-per-token", "0", *flags)
        res = self.concurrent(sim, bodies)
        self.assertTrue(all(len(decode(r)) == n + 1 for r in res))
        log = sorted(sim.stop(), key=lambda x: x["first_chunk_due_ns"])
        step = base * MS
        running, waiting = log[:2], log[2:]
        earliest = min(x["arrival_ns"] for x in running)
        for x in running:  # a free slot: admitted at the next step start, a token one step on
            self.assertLessEqual(x["first_chunk_due_ns"] - x["arrival_ns"], 2 * step)
        for w in waiting:
            # admitted only when a running request has ended (>= its arrival + n steps)
            self.assertGreaterEqual(w["first_chunk_due_ns"], earliest + (n + 1) * step)
        for x in log:
            self.assertEqual(x["last_chunk_due_ns"] - x["first_chunk_due_ns"], (n - 1) * step)
            self.assertGreaterEqual(x["first_chunk_ns"], x["first_chunk_due_ns"])
            self.assertLessEqual(x["last_chunk_ns"] - x["arrival_ns"], 5 * (2 * n + 2) * step)

    def test_queue_when_the_batch_is_full(self):
        self.queued(["--max-batch", "2"], 5, 40.0, [completion(5) for _ in range(4)])

    def test_queue_when_the_kv_cache_is_full(self):
        # each reserves 40 + 10 tokens: 100 hold two
        self.queued(["--kv-tokens", "100"], 5, 40.0,
                    [completion(5, prompt=list(range(45))) for _ in range(4)])

    def test_prompt_over_the_kv_capacity(self):
        sim = self.start("--kv-tokens", "100")
        r = self.one(sim, "/v1/completions", completion(5, prompt=list(range(96))))
        self.assertEqual(r.status, 400)
        self.assertIn("KV", json.loads(r.body)["error"]["message"])
        sim.stop()


def within(test, count, n, p, sds=4.5):
    sd = math.sqrt(n * p * (1 - p))
    test.assertLessEqual(abs(count - n * p), sds * sd, "%d of %d at rate %g" % (count, n, p))


class Faults(SimBase):
    def test_errors_at_their_rate(self):
        def statuses(seed, n):
            sim = self.start("--step-base-ms", "0.1", "--error-rate", "0.3", "--seed", seed)
            conn = sim.connect()
            out = []
            for _ in range(n):
                r = request(conn, "/v1/completions", completion(1, stream=False))
                if r.status != 200:
                    err = json.loads(r.body)["error"]
                    self.assertEqual(err["code"], r.status)
                    self.assertTrue(err["message"])
                out.append(r.status)
            conn.close()
            log = sim.stop()
            self.assertEqual([x["status"] for x in log], out)
            return out

        a = statuses("11", 300)
        self.assertEqual(set(a), {200, 429, 500})
        within(self, sum(s != 200 for s in a), 300, 0.3)
        within(self, sum(s == 429 for s in a), sum(s != 200 for s in a), 0.5)
        self.assertEqual(statuses("11", 40), a[:40])

    def test_stall(self):
        base, stall, n = 10.0, 300.0, 5
        sim = self.start("--step-base-ms", str(base), "--step-per-seq-ms", "0",
                         "--prefill-ms-per-token", "0", "--stall-rate", "1", "--stall-ms",
                         str(stall))
        r = self.one(sim, "/v1/completions", completion(n))
        self.assertEqual(len(decode(r)), n + 1)
        log = sim.stop()[0]
        self.assertEqual(log["fault"], "stall")
        # the model: one pause of stall_ms between two steps, exactly
        self.assertEqual(log["last_chunk_due_ns"] - log["first_chunk_due_ns"],
                         ((n - 1) * base + stall) * MS)
        e2e = log["last_chunk_ns"] - log["arrival_ns"]
        self.assertGreaterEqual(e2e, (n * base + stall) * MS)
        self.assertLessEqual(e2e, 5 * (n * base + stall) * MS)

    def test_drop(self):
        sim = self.start("--step-base-ms", "1", "--drop-rate", "1")
        r = self.one(sim, "/v1/completions", completion(6))
        self.assertTrue(r.broken)
        got = len(decode(r))
        self.assertTrue(1 <= got < 6)
        self.assertNotIn("[DONE]", [e for _, e in r.events])
        conn = sim.connect()  # still serving
        conn.request("GET", "/health")
        self.assertEqual(conn.getresponse().status, 200)
        conn.close()
        log = sim.stop()
        self.assertEqual(log[0]["outcome"], "dropped")
        self.assertEqual(log[0]["output_tokens"], got)

    def test_malformed(self):
        sim = self.start("--step-base-ms", "1", "--malformed-rate", "1")
        r = self.one(sim, "/v1/completions", completion(6))
        bad = 0
        for _, e in r.events[:-1]:
            try:
                json.loads(e)
            except ValueError:
                bad += 1
        self.assertEqual(bad, 1)
        self.assertEqual(len(r.events), 6 + 2)
        self.assertEqual(r.events[-1][1], "[DONE]")
        sim.stop()

    def test_drop_and_malformed_rates(self):
        sim = self.start("--step-base-ms", "0.2", "--drop-rate", "0.25", "--malformed-rate",
                         "0.2", "--seed", "3")
        conn, dropped, garbled, n = sim.connect(), 0, 0, 200
        for _ in range(n):
            r = request(conn, "/v1/completions", completion(4, usage=False))
            if r.broken:
                dropped += 1
                conn = sim.connect()
                continue
            garbled += any(not e.startswith("{\"id\"") or not e.endswith("}")
                           for _, e in r.events[:-1])
        conn.close()
        log = sim.stop()
        within(self, dropped, n, 0.25)
        within(self, garbled, n, 0.75 * 0.2)  # a drop, drawn first, wins
        self.assertEqual(dropped, sum(x["outcome"] == "dropped" for x in log))
        self.assertEqual(garbled, sum(x["fault"] == "malformed" for x in log))


class Protocol(SimBase):
    def test_routes(self):
        sim = self.start()
        conn = sim.connect()
        conn.request("GET", "/health")
        resp = conn.getresponse()
        self.assertEqual((resp.status, resp.read()), (200, b""))
        conn.request("GET", "/v1/models")
        resp = conn.getresponse()
        self.assertEqual(json.loads(resp.read())["data"][0]["id"], "llmm-sim")
        for method, path, status in (("GET", "/nope", 404), ("GET", "/v1/completions", 405),
                                     ("POST", "/health", 405)):
            conn.request(method, path)
            resp = conn.getresponse()
            self.assertEqual(resp.status, status)
            self.assertEqual(json.loads(resp.read())["error"]["code"], status)
        conn.request("POST", "/v1/completions", "{not json")
        resp = conn.getresponse()
        self.assertEqual(resp.status, 400)
        resp.read()
        sock = conn.sock  # every answer above came on one kept-alive connection
        r = request(conn, "/v1/completions", completion(2))
        self.assertIs(conn.sock, sock)
        self.assertEqual(len(decode(r)), 3)
        conn.close()
        sim.stop()

    def raw(self, sim, data):
        with socket.create_connection(("127.0.0.1", sim.port), timeout=30) as s:
            s.sendall(data)
            out = b""
            while True:
                b = s.recv(65536)
                if not b:
                    return out
                out += b

    def test_pipelining_and_close(self):
        sim = self.start("--step-base-ms", "1")
        body = json.dumps(completion(2, stream=False)).encode()
        post = (b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s"
                % (len(body), body))
        out = self.raw(sim, post + b"GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
        self.assertEqual(out.count(b"HTTP/1.1 200 OK"), 2)
        self.assertLess(out.index(b"text_completion"), out.rindex(b"HTTP/1.1 200 OK"))
        out = self.raw(sim, b"POST /v1/completions HTTP/1.1\r\nExpect: 100-continue\r\n"
                            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
                       % (len(body), body))
        self.assertTrue(out.startswith(b"HTTP/1.1 200 OK"))
        # HTTP/1.0 knows no chunked encoding: the events as they are, the close ends them
        body = json.dumps(completion(3)).encode()
        out = self.raw(sim, b"POST /v1/completions HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s"
                       % (len(body), body))
        head, _, events = out.partition(b"\r\n\r\n")
        self.assertNotIn(b"chunked", head)
        self.assertIn(b"Connection: close", head)
        events = events.split(b"\n\n")
        self.assertEqual(events[-1], b"")
        self.assertEqual([e[:6] for e in events[:-1]], [b"data: "] * 5)  # 3, usage, [DONE]
        self.assertEqual(events[-2], b"data: [DONE]")
        out = self.raw(sim, b"GARBAGE\r\n\r\n")
        self.assertTrue(out.startswith(b"HTTP/1.1 400 "))
        sim.stop()

    def test_stop_with_streams_in_flight(self):
        sim = self.start("--step-base-ms", "50")
        conn = sim.connect()
        conn.request("POST", "/v1/completions", json.dumps(completion(100)))
        resp = conn.getresponse()
        resp.readline()  # the first token
        log = sim.stop(signal.SIGINT)
        self.assertEqual(len(log), 1)
        self.assertEqual(log[0]["outcome"], "shutdown")
        conn.close()

    def test_client_going_away_frees_its_slot(self):
        sim = self.start("--step-base-ms", "20", "--max-batch", "1")
        conn = sim.connect()
        conn.request("POST", "/v1/completions", json.dumps(completion(1000)))
        resp = conn.getresponse()
        resp.readline()  # the first token's event
        conn.sock.shutdown(socket.SHUT_RDWR)
        conn.close()
        # the one slot is free again: a second request completes
        r = self.one(sim, "/v1/completions", completion(2))
        self.assertEqual(len(decode(r)), 3)
        log = sim.stop()
        self.assertEqual([x["outcome"] for x in log], ["client_closed", "ok"])
        self.assertLess(log[0]["output_tokens"], 1000)

    def test_out_of_descriptors(self):
        # 8 descriptors of its own (std streams, log, epoll, listener, timer, signals) and 4
        # connections: the other clients wait in the backlog until a connection closes
        sim = self.start("--step-base-ms", "5", max_fds=12)
        res = self.concurrent(sim, [completion(3) for _ in range(10)])
        self.assertEqual([len(decode(r)) for r in res], [4] * 10)
        self.assertEqual(len(sim.stop()), 10)

    def test_usage_errors(self):
        for args in (["--tls-cert", "x"], ["--max-batch", "0"], ["--error-rate", "2"],
                     ["--port", "70000"], ["operand"]):
            r = C.run("sim", *args)
            self.assertEqual(r.returncode, 2, args)


DEBIAN_PYTHON = "/usr/bin/python3"
PY_CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench",
                         "py_stream_client.py")


class PythonClient(SimBase):
    def test_vllm_style_client(self):
        probe = subprocess.run([DEBIAN_PYTHON, "-c", "import aiohttp"], capture_output=True) \
            if os.path.exists(DEBIAN_PYTHON) else None
        if not probe or probe.returncode != 0:
            self.skipTest("no aiohttp for /usr/bin/python3 (Debian python3-aiohttp)")
        sim = self.start("--step-base-ms", "5")
        r = subprocess.run([DEBIAN_PYTHON, PY_CLIENT, "--url", "http://127.0.0.1:%d" % sim.port,
                            "--concurrency", "20", "--num-requests", "60", "--output-len", "4",
                            "--sim-log", sim.log, "--json"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertEqual((out["completed"], out["failed"], out["chunks"]), (60, 0, 240))
        err = out["ttft_error_ms"]
        self.assertEqual(err["matched"], 60)
        # causality on one clock: no chunk is seen before the server wrote it
        self.assertGreaterEqual(min(err["p50"], err["p99"]), 0.0)
        self.assertEqual(len(sim.stop()), 60)


class Tls(SimBase):
    def test_https(self):
        cert, key, probe = self.tls_cert()
        self.assertEqual(probe.returncode, 1)
        sim = self.start("--step-base-ms", "1", tls=(cert, key))
        conn = sim.connect()
        for _ in range(2):
            r = request(conn, "/v1/completions", completion(3))
            self.assertEqual(len(decode(r)), 4)
            self.assertEqual(decode(r)[-1]["usage"]["completion_tokens"], 3)
        conn.close()
        self.assertEqual(len(sim.stop()), 2)


if __name__ == "__main__":
    C.main()
