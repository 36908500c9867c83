"""Suite 'integration': slow clients cannot starve the tool's HTTP servers (issue 24, item 3),
`llmm sim` (doc/sim.md, "Connection limits") and `llmm bench --metrics-port` (doc/bench.md).

The slow clients come from other loopback addresses than the real client's 127.0.0.1
(tests/integration/slow_harness.py). Checked:

  - a flood from 127.0.0.2 larger than the simulator's descriptors: it keeps at most
    --max-connections-per-address of it, another address still gets in, and a real
    `llmm bench` run from 127.0.0.1 completes while the flood is held;
  - a request trickled a byte a second (head, or body after a complete head), a TLS
    handshake never made and a kept-alive connection left idle are each closed by
    --request-deadline, counted from the accept or the end of the previous response
    (never before it; well before three times it, a loose bound for a loaded machine);
  - the admission policy (tools/http/admit.h): past the per-address or the total limit, the
    connection waiting longest gives way to the new one (its socket closed, nothing sent);
    a connection being answered holds no place under the per-address limit and never gives
    way; only when none can give way is a new connection refused, with a 503;
  - `llmm bench --metrics-port` listens on 127.0.0.1 (--metrics-address), answers GET and
    HEAD /metrics from 127.0.0.1 while slow clients hold all they may, and closes those by
    its 10 s deadline;
  - 1000 slow connections from 127.0.0.1, the client's own address, that reconnect whenever
    closed (tests/integration/flood.py) cannot fail a `GET /health` of `llmm sim
    --max-connections-per-address 16` or a scrape of `llmm bench --metrics-port`, made every
    second (issue 41).

Timing is only checked as "after the deadline" (causal: the clock starts before the connect)
and "before three times the deadline".

usage: slow_clients_test.py PATH/TO/llmm
"""
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

import cli_common as C
from sim_test import SimBase

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tests", "integration"))
from slow_harness import (Slow, check_flood, poll_closed, raise_files_limit,  # noqa
                          scrapes_through_flood, trickle_until_closed)

HEAD = b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 64
BENCH_PER_ADDRESS, BENCH_REQUEST_S = 16, 10  # tools/llmm/bench/metrics.h


def other_address():
    """An address of this host that is not loopback (the one its default route leaves by),
    or 127.0.0.1's stand-in 192.0.2.1 when it has none: a connection there must fail too."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))
        return s.getsockname()[0]
    except OSError:
        return "192.0.2.1"
    finally:
        s.close()


def has_curl():
    r = C.run("bench", "--url", "http://127.0.0.1:1", "-q", "--no-report")
    return "built without libcurl" not in r.stderr


class SlowBase(SimBase):
    def open(self, src, port, n, first=False):
        """n slow connections from src, their refusals (if any) read."""
        conns = [Slow(src, port, HEAD, first=first) for _ in range(n)]
        self.addCleanup(lambda: [c.close() for c in conns])
        return conns

    def settle(self, conns, refused):
        """Wait until `refused` of conns have been closed (the server takes them in order), or
        10 s; the number closed."""
        end = time.monotonic() + 10
        while time.monotonic() < end and sum(c.closed is not None for c in conns) < refused:
            poll_closed(conns, 0.2)
        return sum(c.closed is not None for c in conns)

    def held_within(self, conns, deadline, what):
        """Every connection closed by the server after deadline and before 3 x deadline."""
        trickle_until_closed(conns, 3 * deadline + 2)
        held = [c.closed - c.opened for c in conns if c.closed is not None]
        self.assertEqual(len(held), len(conns), "%s: still open after %g s" % (what, 3 * deadline))
        self.assertGreaterEqual(min(held), deadline, what)
        self.assertLess(max(held), 3 * deadline, what)


class SimFlood(SlowBase):
    PER_ADDRESS, DEADLINE, FLOOD, FDS = 100, 3, 600, 512

    def test_flood_cannot_starve_a_real_request(self):
        raise_files_limit(self.FLOOD + 256)
        sim = self.start("--step-base-ms", "2", "--max-connections-per-address",
                         str(self.PER_ADDRESS), "--request-deadline", str(self.DEADLINE),
                         max_fds=self.FDS)
        flood = self.open("127.0.0.2", sim.port, self.FLOOD)
        closed = self.settle(flood, self.FLOOD - self.PER_ADDRESS)
        self.assertEqual(closed, self.FLOOD - self.PER_ADDRESS,
                         "%d connections from 127.0.0.2 (more than its %d descriptors): the "
                         "server keeps %d" % (self.FLOOD, self.FDS, self.PER_ADDRESS))
        other = self.open("127.0.0.3", sim.port, 1)
        for c in flood + other:
            c.trickle()
        poll_closed(other, 0.5)
        self.assertIsNone(other[0].closed, "127.0.0.3 still gets in")
        if has_curl():
            r = subprocess.run([C.LLMM, "bench", "--url", "http://127.0.0.1:%d" % sim.port,
                                "-o", os.path.join(self.dir, "b"), "-q", "--no-report",
                                "--num-requests", "5", "--output-len", "4", "--ignore-eos"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(self.dir, "b", "result-c1.json")) as f:
                res = json.load(f)
            # every request, the measured window's and those around it (llmm's extension)
            errors = [e for part in (res, res["llmm"]["warmup"], res["llmm"]["cooldown"])
                      for e in part["errors"]]
            self.assertEqual(errors, [""] * 5)
        conn = sim.connect()
        conn.request("GET", "/v1/models")
        self.assertEqual(conn.getresponse().status, 200)  # within http.client's timeout
        conn.close()
        kept = [c for c in flood if c.closed is None] + other
        self.held_within(kept, self.DEADLINE, "trickled request heads")
        sim.stop()


class SimDeadline(SlowBase):
    DEADLINE = 2

    def test_half_sent_requests_closed_by_the_deadline(self):
        sim = self.start("--request-deadline", str(self.DEADLINE))
        head = self.open("127.0.0.2", sim.port, 2, first=True)
        body = self.open("127.0.0.2", sim.port, 2, first=False)
        for c in body:  # a complete head, then a body that trickles
            c.sock.send(b"POST /v1/completions HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        idle = self.open("127.0.0.3", sim.port, 1)[0]
        idle.sock.setblocking(True)
        idle.opened = time.monotonic()  # its next request's deadline runs from its answer
        idle.sock.send(b"GET /health HTTP/1.1\r\n\r\n")
        answered = idle.sock.recv(4096)
        self.assertTrue(answered.startswith(b"HTTP/1.1 200"), answered)
        idle.sock.setblocking(False)
        idle.header = b""  # kept alive and silent
        idle.trickle = lambda: None
        self.held_within(head + body + [idle], self.DEADLINE,
                         "request heads and bodies trickled, an idle kept-alive connection")
        sim.stop()

    def test_tls_handshake_counts(self):
        cert, key, _ = self.tls_cert()
        sim = self.start("--request-deadline", str(self.DEADLINE), tls=(cert, key))
        silent = self.open("127.0.0.2", sim.port, 1)
        silent[0].trickle = lambda: None  # never starts its handshake
        started = self.open("127.0.0.2", sim.port, 1)
        started[0].sock.send(b"\x16\x03\x01")  # a handshake record that never ends
        started[0].trickle = lambda: None
        ctx = ssl.create_default_context(cafile=cert)
        with socket.create_connection(("127.0.0.1", sim.port), timeout=30) as s:
            with ctx.wrap_socket(s, server_hostname="127.0.0.1") as t:
                t.sendall(b"GET /health HTTP/1.1\r\n\r\n")
                self.assertTrue(t.recv(4096).startswith(b"HTTP/1.1 200"))
        self.held_within(silent + started, self.DEADLINE, "TLS handshakes never completed")
        sim.stop()


class SimLimits(SlowBase):
    def test_the_longest_waiting_gives_way(self):
        sim = self.start("--max-connections-per-address", "4", "--max-connections", "10",
                         "--request-deadline", "600")
        a = self.open("127.0.0.2", sim.port, 6)
        self.assertEqual(self.settle(a, 2), 2)
        self.assertEqual([c.closed is None for c in a], [False] * 2 + [True] * 4)
        self.assertEqual([c.data for c in a[:2]], [b"", b""])  # closed, nothing sent
        b = self.open("127.0.0.3", sim.port, 4)
        c = self.open("127.0.0.4", sim.port, 4)
        # 4 + 4 + 4 = 12 past the total of 10: the two waiting longest in all go, a[2], a[3]
        self.assertEqual(self.settle(a + b + c, 4), 4)
        self.assertEqual([x.closed is None for x in a + b + c], [False] * 4 + [True] * 10)
        # a request in hand is answered: /health from 127.0.0.1 takes a[4]'s place
        with urllib.request.urlopen("http://127.0.0.1:%d/health" % sim.port, timeout=30) as r:
            self.assertEqual(r.status, 200)
        self.assertEqual(self.settle(a + b + c, 5), 5)
        self.assertEqual([x.closed is None for x in a], [False] * 5 + [True])
        sim.stop()

    def test_answered_connections_hold_no_place(self):
        """Streams in flight from one address never count against its limit; a new
        connection is refused (503) only when every connection is being answered."""
        sim = self.start("--max-connections-per-address", "2", "--max-connections", "6",
                         "--step-base-ms", "100", "--request-deadline", "600")
        body = json.dumps({"model": "m", "prompt": "hi", "max_tokens": 40, "stream": True,
                           "ignore_eos": True}).encode()
        streams = []
        for _ in range(6):  # six streams of 4 s from one address, its limit 2
            s = socket.create_connection(("127.0.0.1", sim.port), timeout=30)
            s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            self.assertTrue(s.recv(64).startswith(b"HTTP/1.1 200"))  # its first token
            streams.append(s)
        late = self.open("127.0.0.5", sim.port, 1, first=True)
        self.assertEqual(self.settle(late, 1), 1)
        self.assertTrue(late[0].data.startswith(b"HTTP/1.1 503 "), late[0].data)
        for s in streams:  # every stream runs to its end
            data = b""
            while not data.endswith(b"0\r\n\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            self.assertIn(b"data: [DONE]", data)
            s.close()
        sim.stop()


class SimOwnAddress(SlowBase):
    OWN, CAP = 1000, 16

    def test_health_through_a_flood_from_its_own_address(self):
        raise_files_limit(self.OWN + 256)
        sim = self.start("--max-connections-per-address", str(self.CAP))

        def health():
            with urllib.request.urlopen("http://127.0.0.1:%d/health" % sim.port,
                                        timeout=5) as r:
                return r.status
        results, counts = scrapes_through_flood(sim.port, health, self.OWN)
        check_flood(self.assertTrue, "llmm sim GET /health", results, counts, self.OWN,
                    self.CAP)
        sim.stop()


class BenchMetrics(SlowBase):
    FLOOD = 40

    def test_scrape_while_slow_clients_hold_their_share(self):
        if not has_curl():
            self.skipTest("llmm built without libcurl")
        sim = self.start("--step-base-ms", "5")
        p = subprocess.Popen([C.LLMM, "bench", "--url", "http://127.0.0.1:%d" % sim.port,
                              "-o", os.path.join(self.dir, "m"), "-q", "--no-report",
                              "--concurrency", "2", "--duration", "60", "--warmup", "0",
                              "--ignore-eos", "--output-len", "4", "--metrics-port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        line = p.stderr.readline()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        self.assertIn("http://127.0.0.1:", line)  # loopback unless --metrics-address
        with self.assertRaises(OSError):  # not on the host's other addresses
            socket.create_connection((other_address(), port), timeout=5).close()
        flood = self.open("127.0.0.2", port, self.FLOOD)
        self.assertEqual(self.settle(flood, self.FLOOD - BENCH_PER_ADDRESS),
                         self.FLOOD - BENCH_PER_ADDRESS)
        kept = [c for c in flood if c.closed is None]
        self.assertEqual(kept, flood[-BENCH_PER_ADDRESS:])  # the waiting longest gave way
        for c in kept:
            c.trickle()
        url = "http://127.0.0.1:%d/metrics" % port
        with urllib.request.urlopen(url, timeout=30) as r:
            get = (r.status, r.headers["Content-Type"], r.read())
        self.assertEqual(get[0], 200)
        self.assertIn(b"llm_client_requests_total", get[2])
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=30) as r:
            self.assertEqual((r.status, r.headers["Content-Type"], r.read()),
                             (200, get[1], b""))
            self.assertGreater(int(r.headers["Content-Length"]), 0)
        with self.assertRaises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(urllib.request.Request(url, data=b"x"), timeout=30)
        self.assertEqual((e.exception.code, e.exception.headers["Allow"]), (405, "GET, HEAD"))
        self.held_within(kept, BENCH_REQUEST_S, "trickled scrapes")

        def scrape():
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status
        results, counts = scrapes_through_flood(port, scrape, 1000)
        check_flood(self.assertTrue, "llmm bench --metrics-port", results, counts, 1000,
                    BENCH_PER_ADDRESS)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        sim.stop()


if __name__ == "__main__":
    C.main()
