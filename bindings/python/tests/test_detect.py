"""Collapse detector, event log, correlation, stability gate and saturation signal against
Python evaluations of their documented definitions."""

from __future__ import annotations

import math
import random
import unittest

import llmmetrics
from llmmetrics import (CollapseDetector, CollapseOption, CorrelationMethod, Empty,
                        EventLog, EventType, InvalidArgument, InvalidState, OutOfRange,
                        SaturationSignal, StabilityGate)

MS = 10 ** 6
SEC = 10 ** 9


def mean_sigma(xs):
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy)


def ranks(x):
    """Fractional ranks (ties share the average rank), 1-based."""
    order = sorted(range(len(x)), key=lambda i: x[i])
    r = [0.0] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


class Collapse(unittest.TestCase):
    def test_verdict_against_the_definition(self) -> None:
        rng = random.Random(120)
        base = [10.0 + rng.uniform(-0.5, 0.5) for _ in range(8)]
        with CollapseDetector() as d:
            self.assertEqual((d.window, d.k), (8, 2.5))
            for i, v in enumerate(base):
                verdict = d.observe_ex(v, now_ns=i * MS)
                self.assertFalse(verdict.ready)
            m, sd = mean_sigma(base)
            threshold = m + 2.5 * max(sd, 0.01 * m)
            d.mark_switch(now_ns=20 * MS)
            v = d.observe_ex(threshold * 1.01, now_ns=25 * MS)  # 5 ms after the switch
            self.assertTrue(v.ready and v.outlier and v.after_switch and v.collapsed)
            self.assertAlmostEqual(v.mean, m, places=12)
            self.assertAlmostEqual(v.threshold, threshold, places=12)
            self.assertEqual(v.since_switch_ns, 5 * MS)
            self.assertEqual(v.samples, 9)
            # the flagged latency joins the window; well past 10 ms an outlier is not collapsed
            late = d.observe_ex(1000.0, now_ns=40 * MS)
            self.assertTrue(late.outlier)
            self.assertFalse(late.collapsed)
            self.assertEqual(d.counts, llmmetrics.CollapseCounts(10, 1, 1))
            with self.assertRaises(InvalidArgument):
                d.observe(1.0, now_ns=39 * MS)  # backwards
            with self.assertRaises(InvalidState):
                d.set(CollapseOption.WINDOW, 16)  # latencies are held
            d.reset()
            d.set(CollapseOption.WINDOW, 16)
            self.assertEqual(d.window, 16)

    def test_every_outlier_without_switch_requirement(self) -> None:
        with CollapseDetector(window=4, require_switch=0, k=3.0) as d:
            for i in range(4):
                self.assertFalse(d.observe(1.0, now_ns=i))
            self.assertTrue(d.observe(2.0, now_ns=10))  # flat window: floor 1 % of the mean
            self.assertFalse(d.observe(1.0, now_ns=11))
            self.assertIn("W=4", repr(d))

    def test_confirmation_matrix(self) -> None:
        with CollapseDetector() as d:
            with self.assertRaises(Empty):
                d.switch_report()
            d.observe_tps(1000.0, now_ns=0)
            d.mark_switch(now_ns=1 * MS)
            d.observe_tps(500.0, now_ns=3 * MS)
            d.observe_tps(300.0, now_ns=5 * MS)
            d.observe_membw(0.2, now_ns=6 * MS)
            r = d.switch_report()
            self.assertTrue(r.tps_known and r.tps_confirmed and r.membw_confirmed)
            self.assertFalse(r.latency_confirmed)
            self.assertEqual(r.signals, 2)
            self.assertEqual((r.tps_before, r.tps_after), (1000.0, 300.0))
            self.assertAlmostEqual(r.tps_drop, 0.7, places=15)
            self.assertTrue(r.open)
            d.observe_tps(900.0, now_ns=50 * MS)  # outside the 10 ms: not matched
            r = d.switch_report()
            self.assertEqual(r.tps_after, 300.0)
            self.assertFalse(r.open)
            with self.assertRaises(InvalidArgument):
                d.observe_membw(1.5, now_ns=60 * MS)
        with self.assertRaises(TypeError):
            CollapseDetector(windw=3)
        with self.assertRaises(OutOfRange):
            CollapseDetector(k=0)


class Events(unittest.TestCase):
    def test_lookback_count_and_ring(self) -> None:
        with EventLog(4) as log:
            log.add(EventType.TCP_RETRANSMIT, 1.0, now_ns=100)
            log.add(EventType.MAJOR_FAULT, 2.0, now_ns=200)
            log.add(EventType.USER + 7, 3.0, now_ns=200)
            log.add(EventType.GC_PAUSE, 4.0, now_ns=350)
            got = log.lookback(300, 150)
            # nearest first; among equal stamps the later-added first
            self.assertEqual([(e.time_ns, e.type) for e in got],
                             [(200, EventType.USER + 7), (200, EventType.MAJOR_FAULT)])
            self.assertEqual(got[0].before_ns, 100)
            self.assertIsNone(got[0].attr_name)
            self.assertEqual(got[1].attr_name, "mem.major_fault")
            self.assertEqual(log.count(), 4)
            self.assertEqual(log.count(EventType.MAJOR_FAULT, 0, 250), 1)
            log.add(EventType.SCHED_JITTER, 0.0, now_ns=400)  # the ring drops the oldest
            self.assertEqual(tuple(log.counts), (4, 5, 1))
            self.assertEqual(len(log), 4)
            self.assertEqual(log.lookback(1000, 10), [])
            for bad in (0, -1, 13, 65535):
                with self.assertRaises(InvalidArgument, msg=bad):
                    log.add(bad, now_ns=500)
            with self.assertRaises(InvalidArgument):
                log.add(EventType.GC_PAUSE, now_ns=1)  # backwards
            with self.assertRaises(InvalidArgument):
                log.count(0, 10, 5)
            log.reset()
            self.assertEqual(len(log), 0)
        # events carrying a trace (1.2): the same events and order, with their ids
        with EventLog(3) as log:
            tr, sp = bytes(range(1, 17)), bytes(range(40, 48))
            log.add_traced(EventType.TCP_RETRANSMIT, 1.0, tr, sp, now_ns=100)
            log.add(EventType.MAJOR_FAULT, 2.0, now_ns=200)
            log.add_traced(EventType.SCHED_JITTER, 3.0, tr[::-1], None, now_ns=300)
            log.add_traced(EventType.GC_PAUSE, 4.0, None, sp[::-1], now_ns=400)  # drops 100
            got = log.lookback_traced(400, 1000)
            plain = log.lookback(400, 1000)
            self.assertEqual([(e.time_ns, e.before_ns, e.value, e.type) for e in got],
                             [tuple(e) for e in plain])
            self.assertEqual([(e.trace_id, e.span_id) for e in got],
                             [(bytes(16), sp[::-1]), (tr[::-1], bytes(8)),
                              (bytes(16), bytes(8))])
            self.assertIsInstance(got[0], llmmetrics.TracedEvent)
            self.assertEqual(log.lookback_traced(50, 10), [])
            for bad in (b"short", "not bytes"):
                with self.assertRaises(InvalidArgument):
                    log.add_traced(EventType.GC_PAUSE, 0.0, bad, None, now_ns=500)
            with self.assertRaises(InvalidArgument):
                log.add_traced(EventType.GC_PAUSE, 0.0, tr, sp, now_ns=1)  # backwards
            self.assertEqual(len(log), 3)
        names = {t: llmmetrics.event_attr_name(t) for t in EventType if t != EventType.USER}
        self.assertEqual(names[EventType.TCP_RETRANSMIT], "net.tcp.retrans")
        self.assertEqual(names[EventType.WEIGHT_SWITCH], "model.weight_switch")
        self.assertEqual(names[EventType.GC_PAUSE], llmmetrics._lib.LLMM_EVENT_ATTR_GC_PAUSE)
        self.assertIsNone(llmmetrics.event_attr_name(EventType.USER))
        many = EventLog(0)
        for i in range(2000):
            many.add(EventType.TCP_RETRANSMIT, now_ns=i)
        self.assertEqual(len(many.lookback(1999, 10 ** 6)), 1024)  # the default capacity
        many.close()


class Correlation(unittest.TestCase):
    def test_against_python(self) -> None:
        jitter, numa = [5.0, 25.0, 50.0], [1.2, 37.6, 89.3]
        self.assertAlmostEqual(llmmetrics.correlation(jitter, numa), pearson(jitter, numa),
                               places=14)
        rng = random.Random(121)
        x = [rng.randint(0, 20) for _ in range(300)]  # many ties
        y = [v + rng.gauss(0, 5) for v in x]
        self.assertAlmostEqual(llmmetrics.correlation(x, y), pearson(x, y), places=12)
        rho = llmmetrics.correlation(x, y, CorrelationMethod.SPEARMAN)
        self.assertAlmostEqual(rho, pearson(ranks(x), ranks(y)), places=12)
        self.assertEqual(llmmetrics.correlation([1, 2, 3], [3, 2, 1]), -1.0)
        with self.assertRaises(Empty):
            llmmetrics.correlation([1.0], [2.0])
        with self.assertRaises(OutOfRange):
            llmmetrics.correlation([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])
        with self.assertRaises(InvalidArgument):
            llmmetrics.correlation([1.0, 2.0], [1.0, 2.0, 3.0])
        with self.assertRaises(InvalidArgument):
            llmmetrics.correlation([1.0, 2.0], [1.0, 2.0], 7)


class Stability(unittest.TestCase):
    def test_gate(self) -> None:
        with StabilityGate() as g:
            self.assertEqual((g.windows, g.epsilon), (5, 0.05))
            results = [g.add(m) for m in (100.0, 101.0, 102.0, 103.0, 104.0)]
            self.assertEqual(results, [False] * 4 + [True])  # 104 / 100 ≤ 1.05
            self.assertFalse(g.add(120.0))
            r = g.read()
            self.assertEqual((r.held, r.windows, r.min, r.max, r.total),
                             (5, 5, 101.0, 120.0, 6))
            self.assertAlmostEqual(r.ratio, 120.0 / 101.0, places=15)
            g.set(llmmetrics.StabilityOption.EPSILON, 0.2)
            self.assertTrue(g.read().stable)  # applies at once
            with self.assertRaises(InvalidArgument):
                g.add(0.0)
            g.reset()
            self.assertEqual(g.read().total, 0)
        with StabilityGate(windows=2, epsilon=0.0) as g:
            g.add(3.0)
            self.assertTrue(g.add(3.0))
        with self.assertRaises(OutOfRange):
            StabilityGate(windows=1)


class Saturation(unittest.TestCase):
    def test_rising_together_and_slopes(self) -> None:
        rng = random.Random(122)
        with SaturationSignal(window=32) as s:
            self.assertEqual((s.window, s.confidence), (32, 3.0))
            ts, lat = [], []
            saturated = False
            for i in range(32):
                t = i * SEC // 10
                v = 0.1 + 0.05 * (t / SEC) + rng.gauss(0, 0.002)
                saturated = s.observe(v, 10.0 + 4.0 * (t / SEC), now_ns=t)
                ts.append(t / SEC)
                lat.append(v)
            self.assertTrue(saturated)
            r = s.read()
            self.assertTrue(r.ready and r.latency_rising and r.inflight_rising)
            mt, ml = sum(ts) / len(ts), sum(lat) / len(lat)
            slope = (sum((a - mt) * (b - ml) for a, b in zip(ts, lat))
                     / sum((a - mt) ** 2 for a in ts))
            self.assertAlmostEqual(r.latency_slope, slope, delta=1e-9)
            self.assertAlmostEqual(r.inflight_slope, 4.0, delta=1e-6)
            with self.assertRaises(InvalidState):
                s.set(llmmetrics.SaturationOption.WINDOW, 8)
        with SaturationSignal(window=8) as flat:
            for i in range(20):
                self.assertFalse(flat.observe(0.1, 5.0, now_ns=i * SEC))
            r = flat.read()
            self.assertFalse(r.saturated)
            self.assertEqual(r.total, 20)
            with self.assertRaises(InvalidArgument):
                flat.observe(-1.0, 1.0, now_ns=100 * SEC)


if __name__ == "__main__":
    unittest.main()
