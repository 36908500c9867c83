"""How much one `llmm bench` process sustains on one core (issue 26): at each concurrency, every
stream asks `llmm sim` for the same number of tokens at one chunk per 10 ms, the simulator
pinned to one core and the client to the other, and the script prints

  - chunks: the chunks the client read (every request must succeed);
  - server span: first chunk written to last chunk written, from the simulator's --log;
  - client span: first request sent to last chunk read, from the client's result file;
  - ideal: tokens x 10 ms, the span of a client and a server that both keep up;
  - client CPU (user + system, from wait4) and its share of the client's wall time;
  - chunks/s: chunks over the client span.

A client that keeps up reads each chunk as it is written: its span follows the server's. When
the client's core is saturated its span grows past the server's (chunks arrive late; none is
lost); when the server's core is saturated both spans grow.

usage: python3 bench/client_capacity.py PATH/TO/llmm [--streams 500,1000,2000,4000]
           [--tokens 128]        (needs taskset and CPUs 0 and 1; exit 77 without them)
The test suite runs it small (bench_client_capacity) so that it keeps working.
"""
import argparse
import json
import os
import resource
import subprocess
import tempfile
import time


def run_level(llmm, tmp, n, tokens):
    log = os.path.join(tmp, "sim-%d.jsonl" % n)
    out = os.path.join(tmp, "c%d" % n)
    sim = subprocess.Popen(["taskset", "-c", "1", llmm, "sim", "--port", "0", "--log", log,
                            "--max-batch", "1000000", "--kv-tokens", "1000000000",
                            "--step-base-ms", "10", "--step-per-seq-ms", "0",
                            "--prefill-ms-per-token", "0",
                            "--max-connections-per-address", str(max(4096, 2 * n)),
                            "--max-connections", str(max(16384, 2 * n))],
                           stdout=subprocess.PIPE, text=True)
    try:
        url = sim.stdout.readline().rsplit(" ", 1)[1].strip()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(["taskset", "-c", "0", llmm, "bench", "--url", url, "--concurrency",
                            str(n), "--num-requests", str(n), "--ignore-eos", "--input-len", "16",
                            "--output-len", str(tokens), "--warmup", "0", "-q", "--no-report",
                            "-o", out], capture_output=True, text=True)
        wall = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            raise SystemExit("llmm bench failed at %d streams: %s" % (n, p.stderr[-2000:]))
    finally:
        sim.terminate()
        sim.wait()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(os.path.join(out, "result-c%d.json" % n)) as f:
        doc = json.load(f)
    # every request: the measured window's (vLLM's lists) and the cool-down's (llmm's
    # extension: with as many requests as streams, all of them end after the last send)
    parts = (doc, doc["llmm"]["warmup"], doc["llmm"]["cooldown"])
    res = {k: [x for p in parts for x in p[k]] for k in ("errors", "itls", "start_times",
                                                         "ttfts")}
    ok = res["errors"].count("")
    if ok != n or len(res["errors"]) != n:
        raise SystemExit("%d streams: %d completed, %d failed" % (n, ok,
                                                                  len(res["errors"]) - ok))
    chunks = sum(len(x) + 1 for x in res["itls"])
    if chunks != n * tokens:
        raise SystemExit("%d streams: %d chunks read, %d asked for" % (n, chunks, n * tokens))
    ends = [s + t + sum(i) for s, t, i in zip(res["start_times"], res["ttfts"], res["itls"])]
    client_span = max(ends) - min(res["start_times"])
    with open(log) as f:
        srv = [json.loads(x) for x in f]
    server_span = (max(x["last_chunk_ns"] for x in srv) -
                   min(x["first_chunk_ns"] for x in srv)) / 1e9
    return chunks, server_span, client_span, cpu, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("llmm")
    ap.add_argument("--streams", default="500,1000,2000,4000")
    ap.add_argument("--tokens", type=int, default=128)
    a = ap.parse_args()
    if len(os.sched_getaffinity(0)) < 2 or not {0, 1} <= os.sched_getaffinity(0):
        print("needs CPUs 0 and 1 (the client on one, the simulator on the other)")
        raise SystemExit(77)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print("llmm bench on one core against llmm sim on the other, %d tokens per stream at one "
          "chunk per 10 ms (ideal span %.2f s)" % (a.tokens, a.tokens * 0.01))
    print("  %8s %9s %12s %12s %9s %9s %6s %10s" % ("streams", "chunks", "server span",
                                                    "client span", "CPU s", "wall s", "busy",
                                                    "chunks/s"))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in a.streams.split(",")):
            chunks, ss, cs, cpu, wall = run_level(a.llmm, tmp, n, a.tokens)
            print("  %8d %9d %11.2fs %11.2fs %9.2f %9.2f %5.0f%% %10.0f" % (
                n, chunks, ss, cs, cpu, wall, 100 * cpu / wall, chunks / cs))


if __name__ == "__main__":
    main()
