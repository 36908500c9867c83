"""llmm bench against bench/py_stream_client.py, a minimal Python asyncio/aiohttp streaming
client written the way vLLM's benchmark client works, one after the other in one run against
the same `llmm sim` at a fixed chunk rate, the server pinned to one core and each client to
the other:

  - client CPU time (user + system, from wait4) per streamed chunk, with a third column: the
    same streams read by bench/stream_floor (epoll and recv, nothing parsed), what the kernel
    alone costs any client that reads each stream on its own connection;
  - client-side TTFT error against the simulator's own first-chunk write time (its --log,
    CLOCK_MONOTONIC; perf_counter() is the same clock on Linux), at P50 and P99, with
    --streams concurrent streams.

Figures are same-run ratios; the absolute numbers depend on the machine and its load.

usage: /usr/bin/python3 bench/client_compare.py PATH/TO/llmm [--streams N] [--tokens T]
           [--floor PATH/TO/stream_floor]
       (needs Debian's python3-aiohttp, and taskset; the floor program defaults to
       bench/stream_floor in the build directory that holds tools/llmm/llmm)
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def start_sim(llmm, log):
    p = subprocess.Popen(["taskset", "-c", "1", llmm, "sim", "--port", "0", "--log", log,
                          "--max-batch", "100000", "--kv-tokens", "100000000",
                          "--step-base-ms", "10", "--step-per-seq-ms", "0",
                          "--prefill-ms-per-token", "0"],
                         stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    return p, line.rsplit(" ", 1)[1].strip()


def run_timed(argv):
    """Run argv; its output, and its CPU seconds (user + system) from wait4."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.returncode, out, err, ru


def cpu_of(before, after):
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def quantile(v, q):
    v = sorted(v)
    return v[max(0, min(len(v) - 1, int(-(-q * len(v) // 1)) - 1))]


def side(name, llmm, tmp, streams, tokens, client):
    log = os.path.join(tmp, name + ".jsonl")
    sim, url = start_sim(llmm, log)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc, out, err, after = run_timed(client(url, log))
        if rc != 0:
            raise SystemExit("%s client failed: %s" % (name, err.decode()[-2000:]))
    finally:
        sim.terminate()
        sim.wait()
    with open(log) as f:
        server = {x["request_id"]: x for x in map(json.loads, f)}
    return cpu_of(before, after), out, server


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("llmm")
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--floor", help="bench/stream_floor (default: beside the llmm build)")
    a = ap.parse_args()
    floor = a.floor or os.path.join(os.path.dirname(os.path.abspath(a.llmm)), "..", "..",
                                    "bench", "stream_floor")
    resource.setrlimit(resource.RLIMIT_NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE)[1:] * 2)
    n, t = a.streams, a.tokens
    with tempfile.TemporaryDirectory() as tmp:
        outdir = os.path.join(tmp, "llmm")
        cpu_l, _, srv_l = side("llmm", a.llmm, tmp, n, t, lambda url, log: [
            "taskset", "-c", "0", a.llmm, "bench", "--url", url, "--concurrency", str(n),
            "--num-requests", str(n), "--ignore-eos", "--input-len", "16", "--output-len",
            str(t), "--warmup", "0", "-q", "--no-report", "-o", outdir])
        with open(os.path.join(outdir, "result-c%d.json" % n)) as f:
            doc = json.load(f)
        # every request in send order (bench-0, 1, ...): the measured window's lists and
        # llmm's warm-up and cool-down ones
        parts = (dict(doc, **doc["llmm"]["requests"]), doc["llmm"]["warmup"],
                 doc["llmm"]["cooldown"])
        res = {k: [x for p in parts for x in p[k]]
               for k in ("start_times", "ttfts", "itls", "first_start_times")}
        order = sorted(range(len(res["ttfts"])), key=lambda i: res["first_start_times"][i])
        res = {k: [v[i] for i in order] for k, v in res.items()}
        err_l, chunks_l = [], 0
        for i in range(n):
            s = srv_l["bench-%d" % i]
            err_l.append((res["start_times"][i] + res["ttfts"][i]) * 1e9 - s["first_chunk_ns"])
            chunks_l += len(res["itls"][i]) + 1
        cpu_p, out, _ = side("python", a.llmm, tmp, n, t, lambda url, log: [
            "taskset", "-c", "0", "/usr/bin/python3", os.path.join(HERE, "py_stream_client.py"),
            "--url", url, "--concurrency", str(n), "--num-requests", str(n), "--input-len",
            "16", "--output-len", str(t), "--sim-log", log, "--json"])
        py = json.loads(out)
        chunks_p = py["chunks"]
        cpu_f, out, _ = side("floor", a.llmm, tmp, n, t, lambda url, log: [
            "taskset", "-c", "0", floor, url, str(n), str(t), "16"])
        fl = json.loads(out)
        if fl["completed"] != n or fl["events"] != n * (t + 2):  # chunks, usage, [DONE]
            raise SystemExit("floor client read %s" % out)
        chunks_f = n * t
        err_p = [py["ttft_error_ms"]["p50"] * 1e6, py["ttft_error_ms"]["p99"] * 1e6]
    print("llmm bench vs a Python asyncio/aiohttp client (vLLM's way), %d streams x %d tokens, "
          "llmm sim at one chunk per 10 ms per stream" % (n, t))
    print("  %-28s %14s %14s %10s %14s %10s" % ("", "llmm bench", "python", "ratio",
                                                "floor", "ratio"))
    cl, cp, cf = (cpu_l / chunks_l * 1e6, cpu_p / chunks_p * 1e6, cpu_f / chunks_f * 1e6)
    print("  %-28s %14.2f %14.2f %10.3f %14.2f %10.3f" % ("CPU us per chunk", cl, cp, cl / cp,
                                                          cf, cf / cp))
    for i, q in enumerate((0.5, 0.99)):  # nearest rank, as py_stream_client.py reports
        el, ep = quantile(err_l, q) / 1e6, err_p[i] / 1e6
        print("  %-28s %14.3f %14.3f %10.3f" % ("TTFT error P%g (ms)" % (q * 100), el, ep,
                                                 el / ep if ep else float("nan")))
    print("  %-28s %14d %14d %10s %14d" % ("chunks read", chunks_l, chunks_p, "", chunks_f))
    print("  floor: bench/stream_floor, epoll and one recv per readiness with nothing parsed "
          "(its ratio is to the Python client's)")


if __name__ == "__main__":
    main()
