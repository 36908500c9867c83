#!/usr/bin/env python3
"""Suite 'cli': `llmm host`, the recorder of host-signal files, on the test machine's own /proc
and on the captured trees of tests/data/host (whose answers tests/unit/test_host.c works out by
hand), and its files read back by `llmm report --host-signals`.

usage: cli_host_test.py PATH/TO/llmm
"""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import run  # noqa: E402

TREES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests",
                     "data", "host")
NAMES = {"tcp_retrans", "major_faults", "ctx_switches", "run_delay", "numa_migrations",
         "psi_cpu", "psi_memory", "psi_io", "cpu_freq_mhz", "cpu_throttle"}


def lines_in(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return f.read().count("\n")


class HostTest(cli_common.Base):
    def record(self, *args):
        out = os.path.join(self.dir, "host.jsonl")
        p = run("host", "-o", out, *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return [json.loads(line) for line in f], p.stderr

    def check_lines(self, lines, n):
        """n lines, t increasing, the same keys on each, no rate on the first line."""
        self.assertEqual(len(lines), n)
        self.assertTrue(all(b["t"] > a["t"] for a, b in zip(lines, lines[1:])))
        self.assertTrue(all(set(x) == set(lines[0]) for x in lines))
        self.assertLessEqual(set(lines[0]) - {"t"}, NAMES)
        self.assertTrue(all(v is None for k, v in lines[0].items()
                            if k not in ("t", "cpu_freq_mhz")))

    def test_live_realtime(self):
        # every line stamped between the run's start and end on the same clock; the recorder
        # sleeps between samples, so each interval holds context switches
        before = time.time()
        lines, _ = self.record("--samples", "4", "--interval", "20ms")
        after = time.time()
        self.check_lines(lines, 4)
        self.assertTrue(all(before <= x["t"] <= after for x in lines))
        self.assertTrue(all(x["ctx_switches"] > 0 for x in lines[1:]))
        self.assertTrue(all(x[k] >= 0 for x in lines[1:] for k in x if k != "t"))

    def test_live_monotonic(self):
        before = time.monotonic()
        lines, _ = self.record("--samples", "2", "--interval", "1ms", "--clock", "monotonic")
        after = time.monotonic()
        self.check_lines(lines, 2)
        self.assertTrue(all(before <= x["t"] <= after for x in lines))

    def test_captured_trees(self):
        # unchanged files: every counter's rate is 0, the frequency keeps its level; a signal
        # the tree lacks is left out (the keys are those test_host finds available)
        cases = [("missing", {"major_faults", "ctx_switches", "numa_migrations"}, None),
                 ("linux-3.2", {"tcp_retrans", "major_faults", "ctx_switches", "run_delay",
                                "cpu_freq_mhz", "cpu_throttle"}, 1600)]
        for tree, keys, mhz in cases:
            lines, _ = self.record("--samples", "3", "--interval", "1ms", "--root",
                                   os.path.join(TREES, tree, "t0"))
            self.check_lines(lines, 3)
            self.assertEqual(set(lines[0]), keys | {"t"}, tree)
            for x in lines[1:]:
                self.assertEqual({k: v for k, v in x.items() if k != "t"},
                                 {k: (mhz if k == "cpu_freq_mhz" else 0) for k in keys}, tree)
            if mhz:
                self.assertEqual(lines[0]["cpu_freq_mhz"], mhz)
        lines, err = self.record("--samples", "2", "--interval", "1ms", "--root",
                                 os.path.join(TREES, "garbage", "t0"))
        self.assertEqual([set(x) for x in lines], [{"t"}, {"t"}])
        self.assertIn("no signal is exposed under", err)

    def test_recorded_file_read_by_report(self):
        # a live recording beside a trace on the same clock; with a context-switch threshold
        # of 0, each interval after the first line is one sched.ctx_switches event
        t0 = time.time()
        lines, _ = self.record("--samples", "3", "--interval", "10ms")
        rows = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        rows += ["%r,0.1,0.5,5,ok" % (t0 + i * 0.01) for i in range(10)]
        trace = self.write("t.csv", "\n".join(rows) + "\n")
        p = run("report", "--json", "--host-signals", os.path.join(self.dir, "host.jsonl"),
                "--host-threshold", "ctx_switches_above=0", trace)
        self.assertEqual(p.returncode, 0, p.stderr)
        hs = json.loads(p.stdout)["host_signals"]
        self.assertEqual(hs["samples"], 3)
        self.assertTrue(all(x["ctx_switches"] > 0 for x in lines[1:]))
        self.assertEqual(hs["signals"]["ctx_switches"]["events"], 2)

    def kernel_file(self, bpf):
        # 20 lines 0.1 s apart with high retransmit and major-fault rates; with bpf, the
        # kernel's events: a 5 ms run-queue wait inside the slow request's TTFT (1001.4 to
        # 1003.4), a major fault 1.3 s before it
        lines = []
        for k in range(20):
            line = {"t": 1000.0 + 0.1 * k, "tcp_retrans": 50.0, "major_faults": 30.0}
            if bpf:
                ev = []
                if k == 19:  # t = 1001.9: the wait runs from 1001.885 to 1001.89
                    ev.append({"event": "sched.jitter", "dt_ns": -10000000, "pid": 7,
                               "tid": 8, "wait_ns": 5000000})
                if k == 1:
                    ev.append({"event": "mem.major_fault", "dt_ns": -5, "pid": 7, "tid": 8,
                               "addr": 4096})
                ev.append({"event": "future.kind", "dt_ns": -1})  # skipped
                line["bpf"] = {"lost": 0, "over": 0, "runq": {"count": 1}, "events": ev}
            lines.append(json.dumps(line))
        return self.write("k%d.jsonl" % bpf, "\n".join(lines) + "\n")

    def test_kernel_events_read_by_report(self):
        rows = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        for i in range(1500):
            slow = i == 1400
            rows.append("%r,%s,%s,5,ok" % (1000.0 + i * 0.001, "2.0" if slow else "0.1",
                                           "3.0" if slow else "0.5"))
        trace = self.write("k.csv", "\n".join(rows) + "\n")
        reports = {}
        for bpf in (0, 1):
            p = run("report", "--json", "--host-signals", self.kernel_file(bpf), trace)
            self.assertEqual(p.returncode, 0, p.stderr)
            reports[bpf] = json.loads(p.stdout)
        hs = reports[1]["host_signals"]
        self.assertEqual(hs["kernel_events"], {"lines": 20, "net.tcp.retrans": 0,
                                               "mem.major_fault": 1, "sched.jitter": 1,
                                               "not_listed": 0})
        # the kernel's events stand for the rates of the signals they explain
        self.assertEqual(hs["signals"]["tcp_retrans"]["events"], 0)
        self.assertEqual(hs["signals"]["major_faults"]["events"], 0)
        self.assertNotIn("kernel_events", reports[0]["host_signals"])
        self.assertEqual(reports[0]["host_signals"]["signals"]["tcp_retrans"]["events"], 20)
        by_type = reports[1]["spikes"]["attribution"]["by_type"]
        self.assertEqual(set(by_type), {"sched.jitter"}, reports[1]["spikes"])
        # without them, the spike goes to a 100 ms rate
        by_type = reports[0]["spikes"]["attribution"]["by_type"]
        self.assertEqual(len(by_type), 1, reports[0]["spikes"])
        self.assertIn(set(by_type).pop(), {"net.tcp.retrans", "mem.major_fault"})

    def test_kernel_events_refused(self):
        trace = self.write("one.csv", "start_s,ttft_s,e2e_s,output_tokens,status\n1000,0.1,0.5,5,ok\n")
        for bpf, message in (
                ('5', "bpf must be an object"),
                ('{"events": [{"event": "sched.jitter", "dt_ns": -5}]}', "needs \\\"wait_ns\\\""),
                ('{"events": [{"event": "mem.major_fault"}]}', "needs \\\"event\\\" and"),
                ('{"events": [3]}', "events must be objects"),
                ('{"lost": "x"}', "lost must be a finite number")):
            path = self.write("bad.jsonl", '{"t": 1000.5, "bpf": %s}\n' % bpf)
            p = run("report", "--host-signals", path, trace)
            self.assertEqual(p.returncode, 1, bpf)
            self.assertIn("bad.jsonl:1:", p.stderr)
            self.assertIn(message.replace("\\", ""), p.stderr)

    def test_interrupted(self):
        # no --samples: it runs until SIGINT, then exits 0 with complete lines only
        out = os.path.join(self.dir, "live.jsonl")
        p = subprocess.Popen([cli_common.LLMM, "host", "--interval", "5ms", "-o", out],
                             stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and lines_in(out) < 3:
                time.sleep(0.01)
            p.send_signal(signal.SIGINT)
            self.assertEqual(p.wait(timeout=60), 0, p.stderr.read())
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stderr.close()
        with open(out) as f:
            text = f.read()
        self.assertTrue(text.endswith("\n"))
        lines = [json.loads(line) for line in text.splitlines()]
        self.check_lines(lines, len(lines))
        self.assertGreaterEqual(len(lines), 3)

    def test_usage(self):
        for args, msg in ((["--interval", "0"], "not a duration from 1ms"),
                          (["--interval", "500us"], "not a duration from 1ms"),
                          (["--interval", "2d"], "not a duration"),
                          (["--samples", "-1"], "not a whole number"),
                          (["--clock", "utc"], "realtime or monotonic"),
                          (["extra"], "unexpected argument 'extra'"),
                          (["--root", "/" * 3000], "cannot make a sampler for the root")):
            p = run("host", *args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(msg, p.stderr, args)
            self.assertEqual(p.stdout, "", args)
        p = run("host", "--samples", "1", "-o", os.path.join(self.dir, "no", "such", "x"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("No such file or directory", p.stderr)
        help_text = run("host", "--help").stdout
        for opt in ("--interval", "--samples", "--clock", "--root", "--output"):
            self.assertIn(opt, help_text)
        self.assertIn("  host ", run("help").stdout)
        self.assertEqual(run("help", "host").stdout, help_text)
        # standard output by default (or -)
        p = run("host", "--samples", "2", "--interval", "1ms", "-o", "-")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_lines([json.loads(x) for x in p.stdout.splitlines()], 2)


if __name__ == "__main__":
    cli_common.main()
