"""bench/stream_floor against `llmm sim` on loopback: the floor client of bench/client_compare.py
reads every event the simulator writes, closes when the server does, and refuses bad input.

usage: python3 bench/stream_floor_test.py PATH/TO/llmm PATH/TO/stream_floor
"""
import json
import os
import subprocess
import sys
import tempfile

LLMM, FLOOR = sys.argv[1], sys.argv[2]
failures = 0


def check(cond, what):
    global failures
    print(("ok - " if cond else "not ok - ") + what)
    failures += not cond


def floor(*args):
    p = subprocess.run([FLOOR, *map(str, args)], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "sim.jsonl")
    sim = subprocess.Popen([LLMM, "sim", "--port", "0", "--log", log, "--seed", "7",
                            "--step-base-ms", "2", "--step-per-seq-ms", "0",
                            "--prefill-ms-per-token", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = sim.stdout.readline().rsplit(" ", 1)[1].strip()
        # 40 streams of 300 tokens: about 12 000 events over hundreds of reads per stream, so
        # events split across reads are counted too.
        rc, out, err = floor(url, 40, 300, 24)
        res = json.loads(out) if rc == 0 else {}
        check(rc == 0, "40 streams complete (rc %d, %s)" % (rc, err.strip()))
        check(res.get("completed") == 40, "completed = 40: %s" % res.get("completed"))
        # per stream: 300 content chunks, the usage chunk and [DONE]
        check(res.get("events") == 40 * 302, "events = 40 x 302: %s" % res.get("events"))
        check(res.get("reads", 0) >= 40 * 2 and res.get("bytes", 0) > 40 * 300 * 50,
              "reads %s, bytes %s" % (res.get("reads"), res.get("bytes")))
        check(res.get("user_s", -1) >= 0 and res.get("sys_s", -1) >= 0, "CPU times reported")
        # reads of 7 bytes split nearly every "data: " across two or three reads
        rc, out, err = floor(url, 3, 50, 16, 7)
        res = json.loads(out) if rc == 0 else {}
        check(rc == 0 and res.get("events") == 3 * 52 and res.get("reads", 0) > res["bytes"] // 7,
              "7-byte reads: events = 3 x 52: %s" % res.get("events"))
        sim.terminate()
        sim.wait(timeout=30)
        with open(log) as f:
            lines = [json.loads(x) for x in f]
        check(len(lines) == 43, "the simulator logged 43 requests: %d" % len(lines))
        check(all(x["status"] == 200 and x["output_tokens"] == 300 and x["prompt_tokens"] == 24
                  and x["stream"] for x in lines[:40]),
              "each a 200 streaming 300 tokens for a 24-token prompt")
        # the simulator is gone: a refused connection is an error, not a hang
        rc, out, err = floor(url, 2, 5)
        check(rc == 1 and "connection 1" in err, "refused connection: rc %d, %s" % (rc, err.strip()))
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
for bad in (["https://127.0.0.1:1", 1, 1], ["http://127.0.0.1", 1, 1],
            ["http://127.0.0.1:1/", 0, 1], ["http://127.0.0.1:1", 1, 0], ["http://127.0.0.1:1", 1, 1, 16, 0], ["x"]):
    rc, out, err = floor(*bad)
    check(rc == 2 and ("usage" in err or "positive" in err), "usage error for %s: rc %d" % (bad, rc))
sys.exit(1 if failures else 0)
