"""What `llmm host --bpf` costs (issue 42), measured in one run and printed as ratios:

  - events/s 10 k and 100 k: a pair of processes ping-ponging a byte over two pipes makes two
    run-queue waits (two events) per round trip, paced in batches to the rate asked; both are
    traced (--pid). Per event: the collector's CPU (user + system of `llmm host`, from
    /proc/PID/schedstat) and the kernel programs' run time (bpftool's run_time_ns with
    kernel.bpf_stats_enabled = 1), and the ping-pong's round trip traced / untraced.
  - `llmm sim`: 300 sequential streamed completions (16 tokens each) timed by this script,
    untraced, traced (--pid of the simulator, every thread), untraced again; the traced
    median and P99 against the mean of the two untraced runs.
  - `llmm bench --bpf --server-pid` against `llmm sim`: the same requests at concurrency 4
    untraced, traced (its own connections and the simulator's threads, every event attributed
    to the requests), untraced again; the traced run's median and P99 E2E (its result file)
    against the mean of the two untraced runs, and its CPU time against theirs.

usage: sudo python3 bench/bpf_overhead.py PATH/TO/llmm [--seconds 3] [--requests 300]
(root: loading BPF programs needs CAP_BPF and CAP_PERFMON; exit 77 without it)
"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PING = r"""
import os, sys, time
rate, seconds = float(sys.argv[1]), float(sys.argv[2])
r1, w1 = os.pipe(); r2, w2 = os.pipe()
if os.fork() == 0:
    while os.read(r1, 1) == b"x":
        os.write(w2, b"x")
    os._exit(0)
print(os.getpid(), flush=True)
sys.stdin.readline()
batch = 100   # round trips between pacing sleeps
trips, start = 0, time.monotonic()
busy = 0.0
while time.monotonic() - start < seconds:
    t0 = time.perf_counter()
    for _ in range(batch):
        os.write(w1, b"x"); os.read(r2, 1)
    busy += time.perf_counter() - t0
    trips += batch
    ahead = start + trips * 2 / rate - time.monotonic()   # two events per round trip
    if ahead > 0:
        time.sleep(ahead)
os.write(w1, b"q")
print(trips, busy / trips, flush=True)
"""


def on_cpu_ns(pid):
    with open("/proc/%d/schedstat" % pid) as f:
        return int(f.read().split()[0])


def prog_runtime_ns():
    out = subprocess.run(["bpftool", "prog", "show", "-j"], capture_output=True, text=True)
    total = 0
    for p in json.loads(out.stdout or "[]"):
        if p.get("name", "").startswith("on_"):
            total += p.get("run_time_ns", 0)
    return total


def children_of(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(x) for x in f.read().split()]


def host(llmm, tmp, *targets):
    path = os.path.join(tmp, "host-%d.jsonl" % time.monotonic_ns())
    p = subprocess.Popen([llmm, "host", "--bpf", *targets, "--interval", "100ms",
                          "--runq-above", "10ms", "-o", path])
    while not (os.path.exists(path) and os.path.getsize(path)):
        time.sleep(0.01)
    return p, path


def stop(p, path):
    p.send_signal(2)
    p.wait()
    n = lost = 0
    with open(path) as f:
        for line in f:
            b = json.loads(line)["bpf"]
            n += b["runq"]["count"] + len(b["events"])
            lost += b["lost"]
    return n, lost


def ping(rate, seconds, llmm=None, tmp=None):
    p = subprocess.Popen([sys.executable, "-c", PING, str(rate), str(seconds)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid = int(p.stdout.readline())
    res = {}
    if llmm:
        h, path = host(llmm, tmp, "--pid", "%d,%d" % (pid, children_of(pid)[0]))
        cpu0, k0 = on_cpu_ns(h.pid), prog_runtime_ns()
    p.stdin.write("go\n")
    p.stdin.flush()
    trips, rtt = p.stdout.readline().split()
    p.wait()
    res["trips"], res["rtt_s"] = int(trips), float(rtt)
    if llmm:
        time.sleep(0.2)
        cpu1, k1 = on_cpu_ns(h.pid), prog_runtime_ns()
        res["events"], res["lost"] = stop(h, path)
        res["collector_ns_per_event"] = (cpu1 - cpu0) / max(res["events"], 1)
        res["kernel_ns_per_event"] = (k1 - k0) / max(res["events"], 1)
    return res


def completions(port, n):
    body = json.dumps({"model": "llmm-sim", "prompt": "hello", "max_tokens": 16,
                       "stream": True})
    lat = []
    for _ in range(n):
        c = http.client.HTTPConnection("127.0.0.1", port)
        t0 = time.perf_counter()
        c.request("POST", "/v1/completions", body, {"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        lat.append(time.perf_counter() - t0)
        c.close()
    lat.sort()
    return statistics.median(lat), lat[int(0.99 * (len(lat) - 1))]


def sim_latency(llmm, tmp, n):
    sim = subprocess.Popen([llmm, "sim", "--port", "0", "--step-base-ms", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = int(sim.stdout.readline().rsplit(":", 1)[1])
    try:
        a = completions(port, n)
        h, path = host(llmm, tmp, "--pid", str(sim.pid))
        traced = completions(port, n)
        events, lost = stop(h, path)
        b = completions(port, n)
    finally:
        sim.send_signal(2)
        sim.wait()
    base = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]
    return {"untraced_median_s": base[0], "traced_median_s": traced[0],
            "median_ratio": traced[0] / base[0], "untraced_p99_s": base[1],
            "traced_p99_s": traced[1], "p99_ratio": traced[1] / base[1], "events": events,
            "lost": lost}


def bench_run(llmm, tmp, port, n, *extra):
    """One `llmm bench` level of n requests: its median and P99 E2E (s) and its CPU time (s)."""
    out = os.path.join(tmp, "bench%d" % len(os.listdir(tmp)))
    before = os.times()
    subprocess.run([llmm, "bench", "--url", "http://127.0.0.1:%d" % port, "--concurrency", "4",
                    "--num-requests", str(n), "--output-len", "16", "--warmup", "0", "-q",
                    "--no-report", "-o", out, *extra], check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    with open(os.path.join(out, "result-c4.json")) as f:
        d = json.load(f)
    events = sum(d["llmm"]["requests"].get("kernel_retransmits", [0])) + \
        sum(d["llmm"]["requests"].get("kernel_sched_jitter", [0]))
    cpu = (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)
    return d["median_e2el_ms"] / 1e3, d["p99_e2el_ms"] / 1e3, cpu, events


def bench_latency(llmm, tmp, n):
    sim = subprocess.Popen([llmm, "sim", "--port", "0", "--step-base-ms", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = int(sim.stdout.readline().rsplit(":", 1)[1])
    try:
        a = bench_run(llmm, tmp, port, n)
        t = bench_run(llmm, tmp, port, n, "--bpf", "--server-pid", str(sim.pid))
        b = bench_run(llmm, tmp, port, n)
    finally:
        sim.send_signal(2)
        sim.wait()
    base = [(x + y) / 2 for x, y in zip(a[:3], b[:3])]
    return {"median_ratio": t[0] / base[0], "p99_ratio": t[1] / base[1],
            "cpu_ratio": t[2] / base[2] if base[2] > 0 else float("nan"),
            "untraced_median_s": base[0], "traced_median_s": t[0], "events": t[3]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("llmm")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--requests", type=int, default=300)
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("bpf_overhead: needs root: skipped")
        return 77
    llmm = os.path.abspath(a.llmm)
    with open("/proc/sys/kernel/bpf_stats_enabled") as f:
        stats_before = f.read().strip()
    with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
        f.write("1")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for rate in (10000, 100000):
                bare = ping(rate, a.seconds)
                traced = ping(rate, a.seconds, llmm, tmp)
                print("%6d events/s asked: %7.0f events/s traced, collector %6.0f ns/event, "
                      "kernel %5.0f ns/event, round trip traced/untraced %.3f, %d lost" % (
                          rate, traced["events"] / a.seconds, traced["collector_ns_per_event"],
                          traced["kernel_ns_per_event"], traced["rtt_s"] / bare["rtt_s"],
                          traced["lost"]))
            s = sim_latency(llmm, tmp, a.requests)
            print("llmm sim, %d streamed requests: median %.3f ms untraced, %.3f ms traced "
                  "(ratio %.3f); P99 %.3f / %.3f ms (ratio %.3f); %d events, %d lost" % (
                      a.requests, s["untraced_median_s"] * 1e3, s["traced_median_s"] * 1e3,
                      s["median_ratio"], s["untraced_p99_s"] * 1e3, s["traced_p99_s"] * 1e3,
                      s["p99_ratio"], s["events"], s["lost"]))
            s = bench_latency(llmm, tmp, a.requests)
            print("llmm bench --bpf --server-pid, %d requests at concurrency 4: median E2E "
                  "%.3f ms untraced, %.3f ms traced (ratio %.3f), P99 ratio %.3f, bench CPU "
                  "ratio %.3f; %d events attributed" % (
                      a.requests, s["untraced_median_s"] * 1e3, s["traced_median_s"] * 1e3,
                      s["median_ratio"], s["p99_ratio"], s["cpu_ratio"], s["events"]))
    finally:
        with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
            f.write(stats_before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
