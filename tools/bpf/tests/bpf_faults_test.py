#!/usr/bin/env python3
"""Suite 'bpf': `llmm host --bpf` against real faults, each test in a network namespace of its
own (unshare -n, lo up, then the nft table), compared with what the kernel itself counts:

- input-hook drops on one port: every retransmit lands on the connection that suffered it,
  equal to that socket's tcpi_total_retrans read before close; none on a clean port;
- major faults: a file on a disk-backed filesystem, fsynced, dropped (POSIX_FADV_DONTNEED),
  read with MADV_RANDOM by two threads: events per thread equal /proc/PID/task/TID/stat majflt
  deltas;
- a CPU hog pinned to the target's CPU: the sum of its run-queue waits within 5 % of the
  /proc/PID/task/TID/schedstat run-delay delta, and its slowest iteration overlaps a
  sched.jitter event;
- nothing injected: no retransmit and no fault;
- the sidecar (--metrics-port) shows the totals of the lines written before a scrape;
- without privileges or BTF, a clear error.

Needs root (as CI), unshare, ip and nft; skipped (77) otherwise.

usage: bpf_faults_test.py PATH/TO/llmm
"""
import http.client
import json
import mmap
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import unittest

LLMM = None
HERE = os.path.abspath(__file__)
BAD_PORT, CLEAN_PORT = 5001, 5002
PAYLOAD = 400 * 1024


# --- helpers, run inside the namespace -----------------------------------------------------

def sh(*cmd):
    subprocess.run(cmd, check=True)


class Host:
    """`llmm host --bpf …` writing to path until stopped."""

    def __init__(self, path, *targets):
        self.path = path
        self.p = subprocess.Popen([LLMM, "host", "--bpf", *targets, "--clock", "monotonic",
                                   "--interval", "100ms", "-o", path],
                                  stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        while not (os.path.exists(path) and os.path.getsize(path) > 0):
            if self.p.poll() is not None:
                raise AssertionError("llmm host --bpf failed: " + self.p.stderr.read())
            if time.monotonic() > deadline:
                raise AssertionError("llmm host --bpf wrote no line in 20 s")
            time.sleep(0.02)

    def stop(self):
        time.sleep(0.3)  # a line or two more: every event read
        self.p.send_signal(signal.SIGINT)
        err = self.p.communicate(timeout=20)[1]
        assert self.p.returncode == 0, err
        failed = [line for line in err.splitlines() if "retransmit attempts failed" in line]
        self.failed = int(failed[0].split("--bpf: ")[1].split()[0]) if failed else 0
        with open(self.path) as f:
            lines = [json.loads(line) for line in f]
        events, runq_sum, lost = [], 0.0, 0
        for line in lines:
            b = line["bpf"]
            lost += b["lost"] + b["over"]
            runq_sum += b["runq"]["sum_s"]
            for e in b["events"]:
                e["time"] = line["t"] + e["dt_ns"] * 1e-9
                events.append(e)
        assert lost == 0, "%d events lost" % lost
        return events, runq_sum


def tcp_info(s):
    b = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return {"unacked": struct.unpack_from("I", b, 24)[0],
            "total_retrans": struct.unpack_from("I", b, 100)[0]}


def wait_acked(s):
    deadline = time.monotonic() + 60
    while tcp_info(s)["unacked"] and time.monotonic() < deadline:
        time.sleep(0.01)


def exchange(s):
    """Send PAYLOAD, receive PAYLOAD, wait until every byte sent is acknowledged."""
    t = threading.Thread(target=s.sendall, args=(b"x" * PAYLOAD,))
    t.start()
    got = 0
    while got < PAYLOAD:
        chunk = s.recv(65536)
        assert chunk, "connection closed early"
        got += len(chunk)
    t.join()
    wait_acked(s)


def tuple_of(s):
    la, lp = s.getsockname()[:2]
    ra, rp = s.getpeername()[:2]
    return (la, lp, ra, rp)


def connections(port, n, socks, addr="127.0.0.1"):
    """n connections to port on loopback, both ends exchanging PAYLOAD; every end kept open."""
    lst = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET)
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.bind((addr, port))
    lst.listen(n)

    def serve():
        for _ in range(n):
            c, _ = lst.accept()
            socks.append(c)
            threading.Thread(target=exchange, args=(c,)).start()

    server = threading.Thread(target=serve)
    server.start()
    clients = []
    for _ in range(n):
        c = socket.create_connection((addr, port), timeout=60)
        socks.append(c)
        t = threading.Thread(target=exchange, args=(c,))
        t.start()
        clients.append(t)
    server.join()
    return lst, clients


def netns_inode():
    return os.stat("/proc/self/ns/net").st_ino


def setup_netns(drops):
    sh("ip", "link", "set", "lo", "mtu", "1500", "up")
    if drops:
        sh("nft", "add", "table", "inet", "llmm_test")
        sh("nft", "add", "chain", "inet", "llmm_test", "in",
           "{ type filter hook input priority 0; }")
        for field in ("dport", "sport"):
            sh("nft", "add", "rule", "inet", "llmm_test", "in", "tcp", field, str(BAD_PORT),
               "numgen", "random", "mod", "100", "<", "5", "drop")


def retrans_by_tuple(events):
    per = {}
    for e in events:
        if e["event"] == "net.tcp.retrans":
            k = (e["saddr"], e["sport"], e["daddr"], e["dport"])
            per[k] = per.get(k, 0) + e["segs"]
    return per


# --- scenarios (each runs in its own namespace) ----------------------------------------------

SERVER = r"""
import json, sys, threading
sys.path.insert(0, sys.argv[1])
import bpf_faults_test as b
lst = b.socket.socket()
lst.bind(("127.0.0.1", int(sys.argv[2])))
lst.listen(16)
print("listening", flush=True)
socks, ts = [], []
for _ in range(int(sys.argv[3])):
    c, _ = lst.accept()
    socks.append(c)
    ts.append(threading.Thread(target=b.exchange, args=(c,)))
    ts[-1].start()
for t in ts:
    t.join()
print("done", flush=True)
sys.stdin.readline()
print(json.dumps([[list(b.tuple_of(c)), b.tcp_info(c)["total_retrans"]] for c in socks]),
      flush=True)
sys.stdin.readline()
"""


def scenario_retrans(out):
    """Clients here, servers on the bad port in a process of their own (traced by --pid), on
    the clean port and on the bad port over IPv6 in threads: one collector by port, one by the
    server's pid."""
    setup_netns(drops=True)
    n = 4
    server = subprocess.Popen([sys.executable, "-c", SERVER, os.path.dirname(HERE),
                               str(BAD_PORT), str(n)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline() == "listening\n"
    host = Host(os.path.join(out, "retrans.jsonl"), "--port", "%d,%d" % (BAD_PORT, CLEAN_PORT))
    by_pid = Host(os.path.join(out, "retrans_pid.jsonl"), "--pid", str(server.pid))
    socks = []
    for _ in range(n):
        c = socket.create_connection(("127.0.0.1", BAD_PORT), timeout=60)
        socks.append(c)
        threading.Thread(target=exchange, args=(c,)).start()
    connections(CLEAN_PORT, n, socks)
    connections(BAD_PORT, 2, socks, "::1")
    for t in threading.enumerate():
        if t is not threading.current_thread():
            t.join()
    assert server.stdout.readline() == "done\n"
    sh("nft", "delete", "table", "inet", "llmm_test")  # nothing left to retransmit anyway
    server.stdin.write("report\n")
    server.stdin.flush()
    served = {tuple(k): v for k, v in json.loads(server.stdout.readline())}
    truth = {tuple_of(s): tcp_info(s)["total_retrans"] for s in socks}
    for s in socks:
        s.close()
    server.stdin.write("end\n")
    server.stdin.flush()
    server.wait(timeout=30)
    truth.update(served)
    events, _ = host.stop()
    pid_events, _ = by_pid.stop()
    # by pid: exactly the server's sockets, each as its tcpi_total_retrans
    got = retrans_by_tuple(pid_events)
    assert got == {k: v for k, v in served.items() if v}, (got, served)
    assert all(e["pid"] == server.pid for e in pid_events if e["event"] == "net.tcp.retrans")
    got = retrans_by_tuple(events)
    ns = netns_inode()
    for e in events:
        assert e["event"] == "net.tcp.retrans", e
        assert e["netns"] == ns, e
    unknown = set(got) - set(truth)
    assert not unknown, "retransmits of no test connection: %s" % unknown
    # the clean port's connections get what the kernel counted for them: nothing, unless a
    # loaded machine made TCP retransmit spuriously (then as many as it counted)
    for k, n in truth.items():
        assert got.get(k, 0) == n, "%s: %d events, tcpi_total_retrans %d" % (k, got.get(k, 0), n)
    bad = sum(n for k, n in truth.items() if BAD_PORT in (k[1], k[3]))
    v6 = sum(n for k, n in truth.items() if ":" in k[0])
    clean = sum(n for k, n in truth.items() if CLEAN_PORT in (k[1], k[3]))
    assert bad > 0, "no retransmit at all: the drops did not work"
    print(json.dumps({"retransmits_bad_port": bad, "retransmits_clean_port": clean,
                      "events": len(events), "connections": len(truth),
                      "server_retransmits": sum(served.values()), "ipv6_retransmits": v6}))


FAULT_CHILD = r"""
import mmap, os, sys, threading, time
path, pages = sys.argv[1], int(sys.argv[2])
res = {}
def majflt(tid):
    with open("/proc/self/task/%d/stat" % tid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[9])
def reader(i):
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    m.madvise(mmap.MADV_RANDOM)
    tid = threading.get_native_id()
    half = pages // 2
    t0, f0 = time.monotonic_ns(), majflt(tid)
    s = 0
    for p in range(i * half, (i + 1) * half):
        s += m[p * mmap.PAGESIZE]
    f1, t1 = majflt(tid), time.monotonic_ns()
    res[tid] = [t0, t1, f1 - f0]
sys.stdin.readline()
ts = [threading.Thread(target=reader, args=(i,)) for i in range(2)]
for t in ts: t.start()
for t in ts: t.join()
print(__import__("json").dumps(res), flush=True)
sys.stdin.readline()
"""


def make_cold_file(path, pages):
    with open(path, "wb") as f:
        f.write(os.urandom(pages * mmap.PAGESIZE))
        f.flush()
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def scenario_faults(out):
    setup_netns(drops=False)
    path = os.path.join(out, "cold.bin")
    pages = 512
    make_cold_file(path, pages)
    child = subprocess.Popen([sys.executable, "-c", FAULT_CHILD, path, str(pages)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    host = Host(os.path.join(out, "faults.jsonl"), "--pid", str(child.pid))
    child.stdin.write("go\n")
    child.stdin.flush()
    res = json.loads(child.stdout.readline())
    child.stdin.write("end\n")
    child.stdin.flush()
    child.wait(timeout=30)
    events, _ = host.stop()
    faults = [e for e in events if e["event"] == "mem.major_fault"]
    assert not [e for e in events if e["event"] == "net.tcp.retrans"]
    total = 0
    for tid, (t0, t1, delta) in res.items():
        mine = [e for e in faults
                if e["tid"] == int(tid) and t0 * 1e-9 <= e["time"] <= t1 * 1e-9]
        assert all(e["pid"] == child.pid for e in mine)
        assert len(mine) == delta, "tid %s: %d events, majflt delta %d" % (tid, len(mine),
                                                                          delta)
        total += delta
    assert total >= pages // 2, "only %d major faults for %d cold pages" % (total, pages)
    print(json.dumps({"major_faults": total, "threads": len(res)}))


RUNQ_CHILD = r"""
import json, os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
sys.stdin.readline()
worst, end = (0, 0, 0), time.monotonic() + 1.5
while time.monotonic() < end:
    t0 = time.monotonic_ns()
    x = 0
    for i in range(20000):
        x += i
    t1 = time.monotonic_ns()
    if t1 - t0 > worst[0]:
        worst = (t1 - t0, t0, t1)
    time.sleep(0.001)
print(json.dumps({"tid": os.getpid(), "worst": worst}), flush=True)
sys.stdin.readline()
"""

HOG = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass\n"


METRICS_PORT = 9464


def scrape(out):
    """GET /metrics of the sidecar: its text, checked by promtool when there is one."""
    c = http.client.HTTPConnection("127.0.0.1", METRICS_PORT, timeout=30)
    c.request("GET", "/metrics")
    r = c.getresponse()
    text = r.read().decode()
    assert r.status == 200, (r.status, text)
    if shutil.which("promtool"):
        p = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                           text=True)
        assert "error" not in (p.stdout + p.stderr).lower(), p.stdout + p.stderr
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    return values


def check_scrape(m, t_scrape, path):
    """The sidecar shows the totals of the lines written before the scrape (the target was
    blocked from the last of them to the scrape)."""
    count = total = jitter = 0
    with open(path) as f:
        for line in map(json.loads, f):
            if line["t"] <= t_scrape:
                count += line["bpf"]["runq"]["count"]
                total += line["bpf"]["runq"]["sum_s"]
                jitter += sum(e["event"] == "sched.jitter" for e in line["bpf"]["events"])
    assert count > 0
    assert m["llm_kernel_runqueue_wait_seconds_count"] == count, (m, count)
    assert abs(m["llm_kernel_runqueue_wait_seconds_sum"] - total) <= 1e-9 * total, (m, total)
    assert m["llm_kernel_sched_jitter_events_total"] == jitter, (m, jitter)
    assert m['llm_kernel_runqueue_wait_seconds_bucket{le="+Inf"}'] == count
    assert m["llm_kernel_major_faults_total"] == 0 and m["llm_kernel_lost_events_total"] == 0


def run_delay(tid):
    with open("/proc/%d/task/%d/schedstat" % (tid, tid)) as f:
        return int(f.read().split()[1])


def cgroup2_root():
    with open("/proc/self/mounts") as f:
        for line in f:
            dev, where, fstype = line.split()[:3]
            if fstype == "cgroup2":
                return where
    return None


def scenario_runq(out):
    """The child traced twice: by its pid, and by a cgroup v2 directory made for it."""
    setup_netns(drops=False)
    cpu = max(os.sched_getaffinity(0))
    child = subprocess.Popen([sys.executable, "-c", RUNQ_CHILD, str(cpu)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    hog = subprocess.Popen([sys.executable, "-c", HOG, str(cpu)])
    root = cgroup2_root()
    group = os.path.join(root, "llmm_bpf_test_%d" % os.getpid()) if root else None
    if group:
        os.mkdir(group)
        with open(os.path.join(group, "cgroup.procs"), "w") as f:
            f.write(str(child.pid))
        by_cgroup = Host(os.path.join(out, "runq_cg.jsonl"), "--cgroup", group,
                         "--runq-above", "1ms")
    host = Host(os.path.join(out, "runq.jsonl"), "--pid", str(child.pid), "--runq-above", "1ms",
                "--metrics-port", str(METRICS_PORT))
    time.sleep(0.2)  # the child blocks on its stdin
    d0 = run_delay(child.pid)
    child.stdin.write("go\n")
    child.stdin.flush()
    res = json.loads(child.stdout.readline())
    time.sleep(0.3)  # and blocks again; a line or two are written meanwhile
    d1 = run_delay(child.pid)
    scraped, t_scrape = scrape(out), time.monotonic()
    hog.kill()
    hog.wait()
    child.stdin.write("end\n")
    child.stdin.flush()
    child.wait(timeout=30)
    events, runq_sum = host.stop()
    check_scrape(scraped, t_scrape, host.path)
    waits = (d1 - d0) * 1e-9
    if group:
        cg_events, cg_sum = by_cgroup.stop()
        os.rmdir(group)
        assert abs(cg_sum - waits) <= 0.05 * waits, \
            "by cgroup: sum of waits %.6f s, run delay %.6f s" % (cg_sum, waits)
        assert {e["tid"] for e in cg_events} == {res["tid"]}, cg_events[:5]
    assert waits > 0.05, "the hog made only %.3f s of run delay" % waits
    assert abs(runq_sum - waits) <= 0.05 * waits, \
        "sum of waits %.6f s, schedstat run delay %.6f s" % (runq_sum, waits)
    jitter = [e for e in events if e["event"] == "sched.jitter"]
    assert all(e["tid"] == res["tid"] and e["wait_ns"] >= 1000000 for e in jitter)
    _, w0, w1 = res["worst"]
    hit = [e for e in jitter
           if e["time"] - e["wait_ns"] * 1e-9 <= w1 * 1e-9 and e["time"] >= w0 * 1e-9]
    assert hit, "no sched.jitter event overlaps the slowest iteration"
    print(json.dumps({"run_delay_s": waits, "sum_of_waits_s": runq_sum,
                      "by_cgroup_s": cg_sum if group else None,
                      "jitter_events": len(jitter), "worst_iteration_ms": res["worst"][0] / 1e6}))


def scenario_clean(out):
    setup_netns(drops=False)
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.readline()"],
                             stdin=subprocess.PIPE)
    host = Host(os.path.join(out, "clean.jsonl"), "--pid", str(child.pid), "--port",
                "%d,%d" % (BAD_PORT, CLEAN_PORT), "--runq-above", "60s")
    socks, threads = [], []
    for port in (BAD_PORT, CLEAN_PORT):
        lst, t = connections(port, 2, socks)
        threads += t
    for t in threading.enumerate():
        if t is not threading.current_thread():
            t.join()
    truth = {tuple_of(s): tcp_info(s)["total_retrans"] for s in socks}
    for s in socks:
        s.close()
    child.stdin.close()
    child.wait(timeout=30)
    events, _ = host.stop()
    # nothing but what the kernel counted (nothing, unless a loaded machine made TCP
    # retransmit spuriously): no fault, no wait above 60 s
    assert retrans_by_tuple(events) == {k: n for k, n in truth.items() if n}, (events, truth)
    assert all(e["event"] == "net.tcp.retrans" for e in events), events[:5]
    print(json.dumps({"events": len(events), "spurious_retransmits": sum(truth.values()),
                      "connections": len(truth)}))


def retrans_segs():
    """The namespace's TcpRetransSegs: the kernel's own count of every retransmitted segment."""
    with open("/proc/net/snmp") as f:
        rows = [line.split() for line in f if line.startswith("Tcp:")]
    return int(rows[1][rows[0].index("RetransSegs")])


def bench_requests(path):
    """Every request of a `llmm bench` result file, whatever its phase, as dicts."""
    with open(path) as f:
        d = json.load(f)
    ext, out = d["llmm"], []
    for start, keys in ((d["start_times"], ext["requests"]),
                        (ext["warmup"]["start_times"], ext["warmup"]),
                        (ext["cooldown"]["start_times"], ext["cooldown"])):
        for i, t in enumerate(start):
            out.append({"start": t, **{k: keys[k][i] for k in (
                "local_ports", "end_times", "kernel_retransmits", "kernel_major_faults",
                "kernel_sched_jitter", "kernel_events")}})
    return d, out


def run_bench(out, name, sim_pid, port, *extra):
    p = subprocess.run([LLMM, "bench", "--url", "http://127.0.0.1:%d" % port, "--bpf",
                        "--server-pid", str(sim_pid), "--concurrency", "4", "--num-requests",
                        "40", "--output-len", "48", "-o", os.path.join(out, name), "-q",
                        *extra], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout, bench_requests(os.path.join(out, name, "result-c4.json"))


def check_bench(requests, host_events, port, sim_pid):
    """Each request's retransmits are the independent collector's events of its connection
    (either way round) between its start and end times; server events are the server's."""
    named = 0
    for r in requests:
        lp = r["local_ports"]
        assert lp, r
        mine = {("127.0.0.1", lp, "127.0.0.1", port), ("127.0.0.1", port, "127.0.0.1", lp)}
        want = sum(e["segs"] for e in host_events
                   if e["event"] == "net.tcp.retrans" and
                   (e["saddr"], e["sport"], e["daddr"], e["dport"]) in mine and
                   r["start"] <= e["time"] <= r["end_times"])
        assert r["kernel_retransmits"] == want, (r["kernel_retransmits"], want, lp)
        listed = [e for e in r["kernel_events"] if e["event"] == "net.tcp.retrans"]
        assert sum(e["segs"] for e in listed) == want
        server = [e for e in r["kernel_events"] if e["event"] != "net.tcp.retrans"]
        assert all(e["pid"] == sim_pid for e in server), server
        assert r["kernel_sched_jitter"] == sum(e["event"] == "sched.jitter" for e in server)
        assert r["kernel_major_faults"] == sum(e["event"] == "mem.major_fault" for e in server)
        named += want > 0
    return named


def check_spikes(doc):
    """The spikes' counts against the window's TTFTs and ITLs above their P99 and P99.9 by
    Python's own linear quantiles (statistics' inclusive method: numpy's default)."""
    import statistics
    values = {"ttft": doc["ttfts"], "itl": [v for itl in doc["itls"] for v in itl]}
    for gap, v in values.items():
        for name, n in (("p99", 100), ("p99.9", 1000)):
            k = doc["llmm"]["kernel"]["spikes"][gap][name]
            q = statistics.quantiles(v, n=n, method="inclusive")[n - 2]
            assert abs(k["threshold_s"] - q) <= 1e-9 * max(v), (gap, name, k, q)
            assert k["count"] == sum(x > q for x in v), (gap, name, k)
            assert 0 <= k["with_event"] <= k["count"]


def scenario_bench(out):
    """`llmm bench --bpf` against `llmm sim` on the bad port, then on a clean run."""
    setup_netns(drops=True)
    sim = subprocess.Popen([LLMM, "sim", "--port", str(BAD_PORT), "--step-base-ms", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert "listening" in sim.stdout.readline()
    host = Host(os.path.join(out, "bench.jsonl"), "--port", str(BAD_PORT))
    k0 = retrans_segs()
    text, (doc, reqs) = run_bench(out, "drops", sim.pid, BAD_PORT)
    k1, t1 = retrans_segs(), time.monotonic()
    sh("nft", "delete", "table", "inet", "llmm_test")
    _, (clean_doc, clean) = run_bench(out, "clean", sim.pid, BAD_PORT, "--no-report")
    k2 = retrans_segs()
    sim.send_signal(signal.SIGINT)
    sim.wait(timeout=30)
    events, _ = host.stop()
    drops = [e for e in events if e["time"] <= t1]

    def segs(evs):
        return sum(e["segs"] for e in evs if e["event"] == "net.tcp.retrans")
    # the independent collector saw no more than the kernel counted (TcpRetransSegs also
    # counts the attempts that failed; 1 of 89 was seen missing once under load: printed)
    assert segs(events) <= k2 - k0, (segs(events), k2 - k0)
    ext = doc["llmm"]["kernel"]
    assert ext["lost"] == 0 and ext["over"] == 0
    assert sum(r["kernel_retransmits"] for r in reqs) + ext["unattributed_retransmits"] == \
        segs(drops), (sum(r["kernel_retransmits"] for r in reqs), ext, segs(drops))
    named = check_bench(reqs, drops, BAD_PORT, sim.pid)
    assert named > 0, "no request carried a retransmit: the drops did not work"
    closing = text.split("== kernel events (--bpf): latency spikes with an event ==\n")[1]
    k = doc["llmm"]["kernel"]["spikes"]
    assert closing.startswith("c4: spikes with a kernel event: TTFT > P99 %d/%d," % (
        k["ttft"]["p99"]["with_event"], k["ttft"]["p99"]["count"])), closing
    check_spikes(doc)
    # the clean run: what the kernel counted (nothing, unless a loaded machine made TCP
    # retransmit spuriously), each on its request
    check_bench(clean, events, BAD_PORT, sim.pid)
    spurious = sum(r["kernel_retransmits"] for r in clean)
    # (the first run's last FIN retransmits may come before the second collector loads)
    assert spurious + clean_doc["llmm"]["kernel"]["unattributed_retransmits"] <= \
        segs(events) - segs(drops)
    print(json.dumps({"requests": len(reqs), "named": named,
                      "attributed": sum(r["kernel_retransmits"] for r in reqs),
                      "unattributed": ext["unattributed_retransmits"],
                      "kernel_retrans_segs": k1 - k0, "clean_run_retrans": k2 - k1,
                      "collector_segs": segs(events), "kernel_segs": k2 - k0,
                      "failed_attempts": host.failed,
                      "ttft_p99_spikes": ext["spikes"]["ttft"]["p99"],
                      "itl_p99_spikes": ext["spikes"]["itl"]["p99"]}))


SCENARIOS = {"retrans": scenario_retrans, "faults": scenario_faults, "runq": scenario_runq,
             "clean": scenario_clean, "bench": scenario_bench}


# --- the tests, outside --------------------------------------------------------------------

class BpfFaults(unittest.TestCase):
    def in_netns(self, name):
        out = os.path.join(OUT, name)
        os.makedirs(out, exist_ok=True)
        p = subprocess.run(["unshare", "-n", sys.executable, HERE, LLMM, "--scenario", name, out],
                           capture_output=True, text=True, timeout=120)
        sys.stderr.write("%s: %s" % (name, p.stdout))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_retransmits_per_connection(self):
        self.in_netns("retrans")

    def test_major_faults_per_thread(self):
        self.in_netns("faults")

    def test_run_queue_waits(self):
        self.in_netns("runq")

    def test_nothing_injected(self):
        self.in_netns("clean")

    def test_bench_names_requests(self):
        self.in_netns("bench")

    def test_errors(self):
        def host(*args, **kw):
            return subprocess.run([LLMM, "host", "--samples", "1", *args], capture_output=True,
                                  text=True, timeout=60, **kw)
        p = host("--bpf")
        self.assertEqual(p.returncode, 2)
        self.assertIn("needs a target", p.stderr)
        p = host("--pid", "1")
        self.assertEqual(p.returncode, 2)
        self.assertIn("go with --bpf", p.stderr)
        p = host("--bpf", "--port", "0")
        self.assertEqual(p.returncode, 2)
        p = host("--metrics-port", "9464")
        self.assertEqual(p.returncode, 2)
        self.assertIn("go with --bpf", p.stderr)
        p = host("--bpf", "--pid", "1", "--metrics-port", "9464", "--metrics-address", "local")
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a numeric IPv4 or IPv6 address", p.stderr)
        p = host("--bpf", "--pid", "1", "--btf", os.path.join(OUT, "no-such-btf"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("no kernel BTF", p.stderr)
        # a BTF without the tracepoints: the collector's own object's
        obj = os.path.join(os.path.dirname(LLMM), "..", "bpf", "collector.o")
        p = host("--bpf", "--pid", "1", "--btf", obj)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("the kernel has no tracepoint tcp_retransmit_skb", p.stderr)
        p = host("--bpf", "--cgroup", OUT)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a directory of a cgroup v2 hierarchy", p.stderr)
        # without privileges: nobody may not load BPF programs
        p = host("--bpf", "--pid", "1", "-o", "-", user=65534, group=65534, extra_groups=[])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("CAP_BPF", p.stderr)

    def test_bench_errors(self):
        def bench(*args, **kw):
            return subprocess.run([LLMM, "bench", "--url", "http://127.0.0.1:9", "-o",
                                   os.path.join(OUT, "bench-errors"), *args],
                                  capture_output=True, text=True, timeout=60, **kw)
        p = bench("--server-pid", "1")
        self.assertEqual(p.returncode, 2)
        self.assertIn("go with --bpf", p.stderr)
        p = bench("--bpf", "--server-pid", "4194304")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("no such process", p.stderr)
        # refused before any request: nobody may not load BPF programs
        p = bench("--bpf", user=65534, group=65534, extra_groups=[])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("CAP_BPF", p.stderr)


def main():
    global LLMM, OUT
    LLMM = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 2 and sys.argv[2] == "--scenario":
        SCENARIOS[sys.argv[3]](sys.argv[4])
        return 0
    if os.geteuid() != 0:
        print("bpf_faults_test: needs root (CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN): skipped")
        return 77
    for tool in ("unshare", "ip", "nft"):
        if not shutil.which(tool):
            print("bpf_faults_test: %s is missing: skipped" % tool)
            return 77
    probe = subprocess.run(["unshare", "-n", "nft", "add", "table", "inet", "probe"],
                           capture_output=True, text=True)
    if probe.returncode != 0:  # a container without CAP_SYS_ADMIN, a kernel without nf_tables
        print("bpf_faults_test: no network namespace with nftables here (%s): skipped"
              % probe.stderr.strip())
        return 77
    # the major-fault file must be on a disk-backed filesystem: beside the build
    OUT = os.path.join(os.path.dirname(LLMM), "bpf_faults_test.out")
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    os.chmod(OUT, 0o755)
    r = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
    return 0 if r.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
