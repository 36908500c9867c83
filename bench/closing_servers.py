"""`llmm bench` against servers that close their connections (issue 39), at length: for each
of `llmm sim`'s closing modes, N requests (default 10 000) with 1-token outputs at each
concurrency, and the script prints per level the requests that failed (they must be none),
the requests re-sent (a reused connection that died before a byte of response), the
connections opened, and the requests the simulator answered (from its --log: each request
once, the preflight's too).

  --close-after-stream   the server closes each connection once its stream is sent, while
                         the response said keep-alive (llama-server's behaviour; libcurl may
                         or may not see the close before it reuses the connection)
  --idle-close-rate P    after a response, the connection dies under the next request, which
                         gets not a byte back (the case libcurl's own retry counter, 5 per
                         handle and never reset while the handle succeeds, used to turn into
                         false `reset` failures)

usage: python3 bench/closing_servers.py PATH/TO/llmm [--requests 10000]
           [--concurrency 1,8,64]
Exit status 1 when a request failed or was not answered exactly once.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

MODES = (("close-after-stream", ["--close-after-stream"]),
         ("idle-close 0.5", ["--idle-close-rate", "0.5"]),
         ("idle-close 1", ["--idle-close-rate", "1"]))


def every(doc):
    parts = (dict(doc, **doc["llmm"]["requests"]), doc["llmm"]["warmup"],
             doc["llmm"]["cooldown"])
    return {k: [x for p in parts for x in p[k]] for k in ("reasons", "resends")}


def run_mode(llmm, tmp, name, args, n, levels):
    log = os.path.join(tmp, "sim.jsonl")
    out = os.path.join(tmp, "out")
    sim = subprocess.Popen([llmm, "sim", "--port", "0", "--log", log, "--step-base-ms", "1",
                            "--max-connections-per-address", "4096", *args],
                           stdout=subprocess.PIPE, text=True)
    try:
        url = sim.stdout.readline().rsplit(" ", 1)[1].strip()
        t0 = time.monotonic()
        p = subprocess.run([llmm, "bench", "--url", url + "/v1", "--concurrency", levels,
                            "--num-requests", str(n), "--output-len", "1", "--ignore-eos",
                            "-q", "--no-report", "-o", out], capture_output=True, text=True)
        wall = time.monotonic() - t0
    finally:
        sim.terminate()
        sim.wait()
    if p.returncode != 0:
        raise SystemExit("llmm bench failed (%s): %s" % (name, p.stderr[-2000:]))
    with open(log) as f:
        answered = collections.Counter(json.loads(x)["request_id"] for x in f)
    bad = 0
    for c in levels.split(","):
        with open(os.path.join(out, "result-c%s.json" % c)) as f:
            doc = json.load(f)
        e = every(doc)
        failed = sum(1 for r in e["reasons"] if r)
        bad += failed + (len(e["reasons"]) != n)
        print("%-20s %6s %8d %8d %9d %12d" % (name, "c" + c, len(e["reasons"]), failed,
                                              sum(e["resends"]), doc["llmm"]["connections"]))
    # every request id once per level, the preflight's once
    nlev = len(levels.split(","))
    wrong = [k for k, v in answered.items() if v != (1 if k == "bench-preflight" else nlev)]
    bad += len(wrong) + (len(answered) != n + 1)
    print("%-20s %6s answered %d requests once per level, %d not (%.1f s)"
          % (name, "", len(answered) - len(wrong), len(wrong), wall))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("llmm")
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--concurrency", default="1,8,64")
    a = ap.parse_args()
    print("%-20s %6s %8s %8s %9s %12s" % ("mode", "level", "requests", "failed", "re-sent",
                                          "connections"))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in MODES:
            bad += run_mode(os.path.abspath(a.llmm), tmp, name, args, a.requests, a.concurrency)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
