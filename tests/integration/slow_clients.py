#!/usr/bin/env python3
"""Suite 'integration': metrics_server keeps answering its scraper while slow clients hold
connections (issue 24, item 3).

All of 127.0.0.0/8 is local, so the attack comes from other loopback addresses than the
scraper's 127.0.0.1: FLOOD connections from 127.0.0.2 (more than select() could ever watch)
and EACH connections from each of SPREAD addresses 127.0.0.3 and up (within the per-address
limit, so they are all accepted). Each sends "G", then one more header byte a second, and
never ends its request: the idle timeout alone would never close them. Checked, in order:

  - the server keeps at most PER_ADDRESS connections from 127.0.0.2 and closes the others at
    once, and keeps all of the spread ones;
  - with all of those open, a real scrape from 127.0.0.1 succeeds within SCRAPE_TIMEOUT, and
    HEAD /metrics answers like GET without a body;
  - every slow connection is closed by the server once DEADLINE (--request-deadline) has
    passed, long before the 10 s idle timeout could;
  - the server scrapes fine afterwards;
  - 1000 slow connections from 127.0.0.1, the scraper's own address, that reconnect whenever
    closed (flood.py), cannot fail a scrape made every second (issue 41): the connection
    waiting longest gives way to the new one, and a complete request is always served;
  - the server exits 0 on SIGTERM.

usage: slow_clients.py PATH/TO/metrics_server
"""
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prom_harness import check, free_port  # noqa: E402
from slow_harness import (Slow, check_flood, poll_closed, raise_files_limit,  # noqa: E402
                          scrapes_through_flood, trickle_until_closed)

PER_ADDRESS = 16  # tools/http/guard.h: LLMM_HTTP_PER_ADDRESS
IDLE_S = 10  # LLMM_HTTP_IDLE_S
DEADLINE = 3  # --request-deadline for this test, seconds
FLOOD = 1100
SPREAD = 125  # 1000 slow connections held at once, the size of the attack
EACH = 8
OWN = 1000  # slow connections from the scraper's own address, reconnecting
SCRAPE_TIMEOUT = 5.0
HEADER = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 64


def scrape(port, method="GET"):
    req = urllib.request.Request("http://127.0.0.1:%d/metrics" % port, method=method)
    start = time.monotonic()
    with urllib.request.urlopen(req, timeout=SCRAPE_TIMEOUT) as r:
        return r.status, dict(r.headers), r.read(), time.monotonic() - start


def main():
    server = sys.argv[1]
    raise_files_limit(FLOOD + SPREAD * EACH + 256)
    port = free_port()
    proc = subprocess.Popen([server, "--test-mode", "--port", str(port), "--request-deadline",
                             str(DEADLINE)], stdout=subprocess.PIPE, text=True)
    conns = []
    try:
        line = proc.stdout.readline()
        check("serving" in line, "metrics_server started: %s" % line.strip())
        flood = [Slow("127.0.0.2", port, HEADER) for _ in range(FLOOD)]
        spread = [Slow("127.0.0.%d" % (3 + a), port, HEADER) for a in range(SPREAD)
                  for _ in range(EACH)]
        conns = flood + spread
        time.sleep(1.0)
        poll_closed(conns)
        kept_flood = sum(c.closed is None for c in flood)
        kept_spread = sum(c.closed is None for c in spread)
        check(kept_flood <= PER_ADDRESS,
              "127.0.0.2 opened %d connections, the server kept %d (limit %d) and closed the "
              "others" % (FLOOD, kept_flood, PER_ADDRESS))
        check(kept_spread == SPREAD * EACH,
              "%d addresses x %d connections all kept: %d" % (SPREAD, EACH, kept_spread))

        status, headers, body, took = scrape(port)
        check(status == 200 and b"llm_ttft_seconds" in body,
              "scrape from 127.0.0.1 with %d slow connections held: %d, %d bytes in %.0f ms "
              "(timeout %.0f s)" % (kept_flood + kept_spread, status, len(body), took * 1000,
                                    SCRAPE_TIMEOUT))
        hstatus, hheaders, hbody, _ = scrape(port, "HEAD")
        check(hstatus == 200 and hbody == b"" and
              hheaders.get("Content-Type") == headers.get("Content-Type") and
              hheaders.get("Content-Length") == str(len(body)),
              "HEAD /metrics: %d, Content-Type %s, Content-Length %s, no body" %
              (hstatus, hheaders.get("Content-Type"), hheaders.get("Content-Length")))
        try:
            scrape(port, "POST")
            check(False, "POST /metrics refused")
        except urllib.error.HTTPError as e:
            check(e.code == 405 and e.headers.get("Allow") == "GET, HEAD",
                  "POST /metrics: %d, Allow: %s" % (e.code, e.headers.get("Allow")))

        # one more byte a second (the idle timeout never fires) until the server closes them
        trickle_until_closed(conns, DEADLINE + 10)
        held = [c.closed - c.opened for c in spread + flood if c.sent > 1]
        check(all(c.closed is not None for c in conns) and held and max(held) < IDLE_S,
              "every slow connection closed by the %d s request deadline: %d that sent more "
              "than one byte lived %.1f ... %.1f s (idle timeout %d s, a byte a second)" %
              (DEADLINE, len(held), min(held), max(held), IDLE_S))
        status, _, body, took = scrape(port)
        check(status == 200, "scrape afterwards: %d in %.0f ms" % (status, took * 1000))
        results, counts = scrapes_through_flood(port, lambda: scrape(port)[0], OWN)
        check_flood(check, "metrics_server", results, counts, OWN, PER_ADDRESS)
        check(proc.poll() is None, "the server is still running")
    finally:
        for c in conns:
            c.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
    check(rc == 0, "metrics_server exited %d on SIGTERM" % rc)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, OSError) as e:
        print("not ok - %s" % e, flush=True)
        sys.exit(1)
