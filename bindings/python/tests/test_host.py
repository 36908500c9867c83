"""HostSampler on the captured trees of tests/data/host (rates worked out by hand from the
trees' files, as tests/unit/test_host.c does) and on the machine's own /proc."""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import threading
import unittest

import llmmetrics
from llmmetrics import (Corrupt, Empty, EventLog, EventType, HostOption, HostSampler,
                        HostSignal, InvalidArgument, InvalidState, OutOfRange)

from support import SOURCE_ROOT

TREES = os.path.join(SOURCE_ROOT, "tests", "data", "host")
SEC = 10 ** 9
STEP = SEC // 2


class Tree:
    """A scratch copy of a captured tree; later steps are written over it in place (the
    sampler keeps its files open)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="llmm_host_")
        shutil.copytree(os.path.join(TREES, name, "t0"), self.dir, dirs_exist_ok=True)

    def step(self, step: str) -> None:
        src = os.path.join(TREES, self.name, step)
        for base, _, files in os.walk(src):
            for f in files:
                rel = os.path.relpath(os.path.join(base, f), src)
                with open(os.path.join(src, rel), "rb") as i, \
                        open(os.path.join(self.dir, rel), "wb") as o:
                    o.write(i.read())

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class CapturedTrees(unittest.TestCase):
    def test_linux_5_10_rates_and_events(self) -> None:
        # t0 -> t1 in 0.5 s: ctxt +100000, schedstat wait +50 ms, pgmigrate_success +7, memory
        # PSI +30 ms, throttled_usec +20000, frequency 3000 -> 2000 MHz
        tree = Tree("linux-5.10")
        try:
            with HostSampler(tree.dir) as s, EventLog() as log:
                s.sample(SEC, log)
                self.assertEqual(s.rate(HostSignal.CPU_FREQ_MHZ), 3000.0)
                with self.assertRaises(Empty):
                    s.rate(HostSignal.CTX_SWITCHES)
                tree.step("t1")
                s.sample(SEC + STEP, log)
                want = {HostSignal.TCP_RETRANS: 0.0, HostSignal.MAJOR_FAULTS: 0.0,
                        HostSignal.CTX_SWITCHES: 200000.0, HostSignal.RUN_DELAY: 0.1,
                        HostSignal.NUMA_MIGRATIONS: 14.0, HostSignal.PSI_CPU: 0.0,
                        HostSignal.PSI_MEMORY: 0.06, HostSignal.PSI_IO: 0.0,
                        HostSignal.CPU_FREQ_MHZ: 2000.0, HostSignal.CPU_THROTTLE: 0.04}
                self.assertEqual(s.rates(), want)
                events = [(e.type, e.value) for e in log.lookback(SEC + STEP, 0)]
                self.assertEqual(events, [(EventType.CPU_THROTTLE, 0.04),
                                          (EventType.CPU_FREQ_DROP, 2000.0),
                                          (EventType.MEMORY_PRESSURE, 0.06),
                                          (EventType.NUMA_MIGRATION, 14.0),
                                          (EventType.SCHED_JITTER, 0.1)])
                # t2: vmstat cut inside pgmajfault, ctxt back by 1000: refused
                tree.step("t2")
                s.sample(2 * SEC)
                for sig in (HostSignal.MAJOR_FAULTS, HostSignal.NUMA_MIGRATIONS,
                            HostSignal.CTX_SWITCHES):
                    with self.assertRaises(Corrupt):
                        s.rate(sig)
                self.assertIsNone(s.rates()[HostSignal.MAJOR_FAULTS])
        finally:
            tree.close()

    def test_missing_and_garbage(self) -> None:
        for name, available in (("missing", {HostSignal.MAJOR_FAULTS, HostSignal.CTX_SWITCHES,
                                              HostSignal.NUMA_MIGRATIONS}),
                                ("garbage", set())):
            with HostSampler(os.path.join(TREES, name, "t0")) as s:
                self.assertEqual({sig for sig in HostSignal if s.available(sig)}, available)
                s.sample(1)
                self.assertEqual(set(s.rates()), available)
                with self.assertRaises(InvalidState):
                    s.rate(HostSignal.PSI_CPU)

    def test_thresholds(self) -> None:
        tree = Tree("linux-5.10")
        try:
            with HostSampler(tree.dir, ctx_switches_above=1e5, cpu_throttle_above=math.inf,
                             run_delay_above=0.1, cpu_freq_drop=0.5) as s, EventLog() as log:
                self.assertEqual(s.get(HostOption.CTX_SWITCHES_ABOVE), 1e5)
                self.assertEqual(s.get(HostOption.PSI_CPU_ABOVE), 0.2)  # the default
                s.sample(SEC, log)
                tree.step("t1")
                s.sample(SEC + STEP, log)
                self.assertEqual([e.type for e in log.lookback(SEC + STEP, 0)],
                                 [EventType.MEMORY_PRESSURE, EventType.NUMA_MIGRATION,
                                  EventType.CTX_SWITCHES])
                with self.assertRaises(OutOfRange):
                    s.set(HostOption.CPU_FREQ_DROP, 1.5)
                with self.assertRaises(InvalidArgument):
                    s.set(HostOption.PSI_IO_ABOVE, math.nan)
        finally:
            tree.close()
        with self.assertRaises(TypeError):
            HostSampler(psi_above=1)

    def test_clock(self) -> None:
        with HostSampler(os.path.join(TREES, "missing", "t0")) as s, EventLog() as log:
            s.sample(5, log)
            with self.assertRaises(InvalidArgument):
                s.sample(5)
            log.add(EventType.GC_PAUSE, 1.0, now_ns=100)
            with self.assertRaises(InvalidArgument):
                s.sample(50, log)
            s.sample(100, log)

    def test_names(self) -> None:
        self.assertEqual(llmmetrics.host_signal_name(HostSignal.PSI_CPU), "psi_cpu")
        self.assertEqual([llmmetrics.host_signal_name(s) for s in HostSignal],
                         [s.name.lower() for s in HostSignal])
        self.assertIsNone(llmmetrics.host_signal_name(0))
        self.assertEqual(llmmetrics.host_signal_event(HostSignal.RUN_DELAY),
                         EventType.SCHED_JITTER)
        self.assertEqual(llmmetrics.event_attr_name(EventType.CPU_PRESSURE), "cpu.pressure")
        self.assertEqual(llmmetrics.host_signal_event(99), 0)


class RealProc(unittest.TestCase):
    def test_context_switches_of_a_ping_pong(self) -> None:
        # 500 round trips between two threads block each thread 500 times: the host-wide
        # count grows by at least 500
        a, b = threading.Event(), threading.Event()

        def pong() -> None:
            for _ in range(500):
                a.wait()
                a.clear()
                b.set()

        with HostSampler() as s:
            t0 = llmmetrics.now_ns()
            s.sample(t0)
            th = threading.Thread(target=pong)
            th.start()
            for _ in range(500):
                a.set()
                b.wait()
                b.clear()
            th.join()
            t1 = llmmetrics.now_ns()
            s.sample(t1)
            self.assertGreaterEqual(s.rate(HostSignal.CTX_SWITCHES) * (t1 - t0) / 1e9,
                                    500 * (1 - 1e-9))


if __name__ == "__main__":
    unittest.main()
