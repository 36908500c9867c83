"""Slow clients, for the tests that prove an HTTP endpoint of the project cannot be starved
(issue 24): slow_clients.py (metrics_server) and tools/llmm/tests/slow_clients_test.py
(`llmm sim`, `llmm bench --metrics-port`).

All of 127.0.0.0/8 is local, so an attack can come from other loopback addresses than the
real client's 127.0.0.1 and a per-address limit can be seen at work on one machine.
"""
import os
import resource
import select
import socket
import sys
import time


class Slow:
    """One slow client of 127.0.0.1:port from address src: it sends `header` one byte at a
    time (trickle()) and never ends its request. first: send the first byte at once."""

    def __init__(self, src, port, header, first=True):
        self.src, self.header, self.sent, self.closed = src, header, 0, None
        self.data = b""  # what the server sent before closing
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((src, 0))
        self.sock.settimeout(5.0)
        self.opened = time.monotonic()
        try:
            self.sock.connect(("127.0.0.1", port))
            self.sock.setblocking(False)
            if first:
                self.trickle()
        except OSError:
            self.close()

    def trickle(self):
        """One more byte of a request that never ends."""
        if self.closed is None:
            try:
                self.sock.send(self.header[self.sent % len(self.header):][:1])
                self.sent += 1
            except OSError:
                self.close()

    def close(self):
        if self.closed is None:
            self.closed = time.monotonic()
            self.sock.close()


def poll_closed(conns, wait=0.0):
    """Mark the connections the server has closed (readable: EOF or a reset), keeping what it
    sent them; wait up to `wait` seconds for the first."""
    live = {c.sock.fileno(): c for c in conns if c.closed is None}
    poller = select.poll()
    for fd in live:
        poller.register(fd, select.POLLIN)
    for fd, _ in poller.poll(wait * 1000):
        c = live[fd]
        while True:
            try:
                data = c.sock.recv(4096)
            except OSError:
                data = b""
            c.data += data
            if not data:
                c.close()
                break


def trickle_until_closed(conns, limit_s):
    """A byte a second from every slow connection (so an idle timeout never fires) until the
    server has closed them all or limit_s seconds have passed."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end and any(c.closed is None for c in conns):
        for c in conns:
            c.trickle()
        time.sleep(1.0)
        poll_closed(conns)


def raise_files_limit(need):
    """The soft open-files limit raised to need; exit 77 (skipped) when the hard one is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < need:
        print("1..0 # SKIP open-files hard limit %d < %d" % (hard, need))
        sys.exit(77)
    if soft != resource.RLIM_INFINITY and soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


def scrapes_through_flood(port, scrape, n=1000, seconds=6.0):
    """n slow clients from 127.0.0.1, the scraper's own address, that reconnect whenever
    closed (flood.py, a child process) while scrape() runs once a second: the results of
    scrape() (each a status, or the exception it raised) and the flood's counts."""
    import json
    import subprocess
    flood = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "flood.py"), str(port), str(n), str(seconds)],
        stdout=subprocess.PIPE, text=True)
    results = []
    try:
        if flood.stdout.readline().strip() != "ready":
            raise AssertionError("flood.py did not start")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.monotonic()
            try:
                results.append(scrape())
            except Exception as e:  # noqa: BLE001 - every failure is a result to report
                results.append(e)
            time.sleep(max(0.0, 1.0 - (time.monotonic() - start)))
        counts = json.loads(flood.stdout.readline())
    finally:
        if flood.poll() is None:
            try:
                flood.wait(timeout=30)
            except subprocess.TimeoutExpired:
                flood.kill()
                flood.wait()
        flood.stdout.close()
    return results, counts


def check_flood(check, what, results, counts, n, cap):
    """Every scrape answered 200 while the flood pressed on the per-address cap: the server
    closed at least n - cap of its connections (they gave way), so the cap was reached."""
    bad = [r for r in results if r != 200]
    check(len(results) >= 3 and not bad and counts["closed"] >= n - cap,
          "%s: %d scrapes, one a second, through %d slow connections from the scraper's own "
          "address that reconnect (%d opened, %d closed by the server, %d connects failed): "
          "all 200%s" % (what, len(results), n, counts["opened"], counts["closed"],
                         counts["failed"], "" if not bad else "; not: %r" % bad[:3]))
