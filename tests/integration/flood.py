#!/usr/bin/env python3
"""Slow clients that reconnect, from the scraper's own address, for the tests that prove an
endpoint never locks out its legitimate client (issue 41): run as a child process, so that
the scrapes of the test are never delayed by it.

usage: flood.py PORT N SECONDS [SRC]

Opens N connections to 127.0.0.1:PORT from SRC (default 127.0.0.1, the address every local
client has), each sending a request head that never ends ("G", then a byte a second); prints
"ready" once all N were opened, then for SECONDS seconds, every second: reopens every
connection the server has closed and sends one more byte on the others. Ends by printing one
line of JSON: {"opened": connections opened in all, "closed": how many the server closed,
"failed": connects that failed}.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_harness import Slow, poll_closed, raise_files_limit  # noqa: E402

HEADER = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 64


def main():
    port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    src = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
    raise_files_limit(n + 256)
    opened = closed = failed = 0

    def connect():
        nonlocal opened, failed
        c = Slow(src, port, HEADER)
        opened += 1
        failed += c.closed is not None and c.sent == 0
        return c

    conns = [connect() for _ in range(n)]
    print("ready", flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        poll_closed(conns)
        for i, c in enumerate(conns):
            if c.closed is not None:
                closed += 1
                conns[i] = connect()
            else:
                c.trickle()
        time.sleep(max(0.0, min(1.0, end - time.monotonic())))
    poll_closed(conns)
    closed += sum(c.closed is not None for c in conns)
    for c in conns:
        c.close()
    print(json.dumps({"opened": opened, "closed": closed, "failed": failed}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
