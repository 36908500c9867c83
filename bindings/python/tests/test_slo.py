"""SLO check (doc/spec.md §2 reference behaviour), SLO window, goodput, burn-rate alerts and the
error-share trigger, against references computed in Python on the same data; plus the
windowed resource monitors (KV hit rate, TLB miss rate)."""

from __future__ import annotations

import math
import random
import unittest

import llmmetrics
from llmmetrics import (BurnAlerter, BurnOption, BurnWindow, Empty, ErrorTrigger, Goodput,
                        GoodputOption, InvalidArgument, InvalidState, KvHitTracker, OutOfRange,
                        Sketch, SloWindow, TlbMonitor, TlbWorkload)

from support import assert_rel, exact_quantile, lognormal, rel_bound

SEC = 10 ** 9
MIN = 60 * SEC
HOUR = 60 * MIN


class SloCheck(unittest.TestCase):
    def test_reference_ten_samples(self) -> None:
        # 10 requests: p95 is rank ceil(9.5) = 10, the largest latency (exact)
        lat = [120.0, 340.0, 95.0, 610.0, 230.0, 780.0, 150.0, 410.0, 505.0, 700.0]
        with Sketch() as s:
            s.add_many(lat)
            r = llmmetrics.slo_check(s, 0, 800, 0.01)
            self.assertEqual((r.satisfied, r.latency, r.error_rate), (True, 780.0, 0.0))
            s.add(900.0)
            r = llmmetrics.slo_check(s, 0, 800, 0.01)
            self.assertFalse(r.satisfied)
            self.assertFalse(r.latency_ok)
            self.assertEqual(r.latency, 900.0)
        with Sketch() as s:
            s.add_many([100.0] * 99)
            r = llmmetrics.slo_check(s, 1, 800, 0.01)  # 1 in 100: equality meets the bound
            self.assertTrue(r.satisfied)
            self.assertEqual((r.successes, r.errors, r.error_rate), (99, 1, 0.01))
            r = llmmetrics.slo_check(s, 2, 800, 0.01)
            self.assertFalse(r.errors_ok)
        with Sketch() as empty:
            r = llmmetrics.slo_check(empty, 3, 800, 0.5)
            self.assertEqual(r.latency, math.inf)
            self.assertFalse(r.satisfied)
            self.assertEqual(r.error_rate, 1.0)
            for bad in ((-1.0, 0.1), (800.0, 1.5), (math.nan, 0.1)):
                with self.assertRaises(InvalidArgument):
                    llmmetrics.slo_check(empty, 0, *bad)

    def test_any_quantile(self) -> None:
        data = lognormal(2000, 200.0, 1.0, seed=90)
        ref = sorted(data)
        with Sketch() as s:
            s.add_many(data)
            for q in (0.5, 0.9, 0.99):
                r = llmmetrics.slo_check_quantile(s, 7, q, 400.0, 0.01)
                self.assertEqual(r.quantile, q)
                assert_rel(self, r.latency, exact_quantile(ref, q), rel_bound(6), "q=%r" % q)
                self.assertEqual(r.latency_ok, r.latency <= 400.0)
                self.assertEqual(r.error_rate, 7 / 2007)

    def test_window_verdict_equals_check_on_covered_slots(self) -> None:
        rng = random.Random(91)
        events = []  # (t, latency or None for an error)
        for i in range(3000):
            t = i * SEC // 50
            events.append((t, None if rng.random() < 0.02 else rng.lognormvariate(5.3, 0.6)))
        with SloWindow(SEC, 30) as w:
            for t, v in events:
                if v is None:
                    w.add_errors(1, now_ns=t)
                else:
                    w.add(v, now_ns=t)
            now = events[-1][0]
            for span in (SEC, 10 * SEC, None):
                n = -(-(span or 30 * SEC) // SEC)
                first = (now // SEC - n + 1) * SEC
                ok = [v for t, v in events if t >= first and v is not None]
                errors = sum(1 for t, v in events if t >= first and v is None)
                got = w.check(300.0, 0.03, 0.95, span, now_ns=now)
                with Sketch() as s:
                    s.add_many(ok)
                    want = llmmetrics.slo_check_quantile(s, errors, 0.95, 300.0, 0.03)
                self.assertEqual(got, want, span)
            idle = w.check(300.0, 0.03, now_ns=now + 100 * SEC)
            self.assertFalse(idle.satisfied)
            self.assertEqual((idle.latency, idle.error_rate), (math.inf, 0.0))
            with self.assertRaises(InvalidArgument):
                w.add(1.0, now_ns=0)
            with self.assertRaises(OutOfRange):
                w.check(1.0, 0.1, span_ns=31 * SEC, now_ns=now + 100 * SEC)
            w.reset()
            w.add(1.0, now_ns=0)


class GoodputTests(unittest.TestCase):
    def test_against_python_count(self) -> None:
        rng = random.Random(92)
        g = Goodput(ttft_max=0.5, tpot_max=0.05, e2e_max=8.0)
        self.assertEqual((g.ttft_max, g.tpot_max, g.e2e_max), (0.5, 0.05, 8.0))
        good = completed = 0
        for _ in range(2000):
            ttft = rng.uniform(0.05, 0.8)
            tokens = rng.randint(1, 300)
            e2e = ttft + rng.uniform(0.0, 0.06) * max(tokens - 1, 0)
            tpot = llmmetrics.goodput_tpot(e2e, ttft, tokens)
            self.assertEqual(tpot, (e2e - ttft) / (tokens - 1) if tokens > 1 else 0.0)
            want = ttft <= 0.5 and tpot <= 0.05 and e2e <= 8.0
            self.assertEqual(g.observe(ttft, tpot, e2e), want)
            good += want
            completed += 1
        g.add_failures(50)
        r = g.read(100 * SEC)
        self.assertEqual((r.requests, r.completed, r.good), (completed + 50, completed, good))
        self.assertEqual(r.fraction, good / (completed + 50))
        self.assertAlmostEqual(r.rate_per_s, good / 100.0, places=12)
        self.assertAlmostEqual(r.throughput_per_s, completed / 100.0, places=12)
        with self.assertRaises(InvalidState):
            g.set(GoodputOption.TTFT_MAX, 1.0)  # requests were counted
        g.reset()
        with self.assertRaises(Empty):
            g.read(SEC)
        g.set(GoodputOption.E2E_MAX, math.inf)
        with self.assertRaises(InvalidArgument):
            g.read(0)
        with self.assertRaises(InvalidArgument):
            llmmetrics.goodput_tpot(1.0, 2.0, 5)
        g.close()
        with Goodput() as anything:
            self.assertTrue(anything.observe(100.0, 100.0, 100.0))  # no bound: all good


class Burn(unittest.TestCase):
    def test_formulas(self) -> None:
        self.assertAlmostEqual(llmmetrics.burn_rate(0.0144, 0.999), 14.4, places=9)
        self.assertAlmostEqual(llmmetrics.burn_budget_spent(14.4, HOUR, 30 * 24 * HOUR), 0.02,
                               places=12)
        self.assertAlmostEqual(llmmetrics.burn_budget_spent(6, 6 * HOUR, 30 * 24 * HOUR), 0.05,
                               places=12)
        with self.assertRaises(InvalidArgument):
            llmmetrics.burn_rate(0.1, 1.0)

    def test_alerts_fire_and_stop(self) -> None:
        with BurnAlerter(0.999) as b:
            self.assertEqual(b.slo_target, 0.999)
            self.assertEqual(b.get(BurnOption.FAST_LONG_NS), HOUR)
            self.assertEqual(b.get(BurnOption.SLOW_FACTOR), 6.0)
            # 2 h at 2 % errors: burn rate 20 everywhere
            for k in range(0, 2 * 3600, 10):
                b.add(2, 100, now_ns=k * SEC)
            r = b.evaluate(now_ns=2 * HOUR)
            self.assertTrue(r.fast_alert and r.slow_alert)
            fl = r.window(BurnWindow.FAST_LONG)
            # the 1 h window covers the current 10 s slot (still empty at t = 2 h) and the
            # 359 before it (window.h span rule)
            first = (2 * HOUR // (10 * SEC) - 360 + 1) * 10 * SEC
            adds = sum(1 for k in range(0, 2 * 3600, 10) if k * SEC >= first)
            self.assertEqual((fl.requests, fl.errors), (100 * adds, 2 * adds))
            self.assertAlmostEqual(fl.burn_rate, 20.0, places=9)
            # 10 clean minutes: the short windows stop the alerts
            for k in range(2 * 3600, 2 * 3600 + 600, 10):
                b.add(0, 100, now_ns=k * SEC)
            r = b.evaluate(now_ns=2 * HOUR + 10 * MIN)
            self.assertFalse(r.fast_alert)
            self.assertEqual(r.window(BurnWindow.FAST_SHORT).errors, 0)
            self.assertGreater(r.window(BurnWindow.FAST_LONG).burn_rate, 14.4)
            b.reset()
            r = b.evaluate(now_ns=0)
            self.assertEqual(r.window(BurnWindow.SLOW_LONG).burn_rate, 0.0)

    def test_options(self) -> None:
        with BurnAlerter(0.99, fast_factor=10, fast_long_ns=30 * MIN, fast_short_ns=2 * MIN,
                         slow_short_ns=HOUR, slow_long_ns=3 * HOUR) as b:
            self.assertEqual(b.get(BurnOption.FAST_FACTOR), 10.0)
            self.assertEqual((b.get(BurnOption.FAST_LONG_NS), b.get(BurnOption.FAST_SHORT_NS)),
                             (30 * MIN, 2 * MIN))
            self.assertEqual(b.get(BurnOption.SLOW_LONG_NS), 3 * HOUR)
            with self.assertRaises(OutOfRange):
                b.set(BurnOption.FAST_SHORT_NS, HOUR)  # beyond its long window
        with BurnAlerter(0.999, slow_short_ns=7 * HOUR, slow_long_ns=8 * HOUR,
                         slot_ns=10 * SEC, slots=3600) as b:  # moving both up: long first
            self.assertEqual(b.get(BurnOption.SLOW_SHORT_NS), 7 * HOUR)
        with self.assertRaises(OutOfRange):
            BurnAlerter(1.5)
        with self.assertRaises(OutOfRange):
            BurnAlerter(0.999, slot_ns=SEC, slots=60)  # ring shorter than 6 h
        with self.assertRaises(TypeError):
            BurnAlerter(0.999, fast=3)


class Trigger(unittest.TestCase):
    def test_share_strictly_above_threshold(self) -> None:
        with ErrorTrigger() as t:
            self.assertEqual((t.max_share, t.min_requests), (0.05, 1))
            with self.assertRaises(Empty):
                t.check(now_ns=0)
            t.add(5, 100, now_ns=0)
            r = t.check(now_ns=0)
            self.assertEqual((r.fired, r.errors, r.requests, r.share), (False, 5, 100, 0.05))
            t.add(1, 1, now_ns=SEC)
            self.assertTrue(t.check(now_ns=SEC).fired)
            with self.assertRaises(Empty):
                t.check(now_ns=6 * MIN)  # everything left the 5 min window
            with self.assertRaises(InvalidArgument):
                t.add(2, 1, now_ns=6 * MIN)
        with ErrorTrigger(MIN, max_share=0.5, min_requests=10) as t:
            t.add(5, 5, now_ns=0)
            self.assertFalse(t.check(now_ns=0).fired)  # too few requests
            t.add(5, 5, now_ns=1)
            self.assertTrue(t.check(now_ns=1).fired)
            with self.assertRaises(OutOfRange):
                t.set(llmmetrics.ErrorTriggerOption.MAX_SHARE, 2.0)


class ResourceMonitors(unittest.TestCase):
    def test_kv_hit_tracker(self) -> None:
        with KvHitTracker() as k:
            k.add(30, 40, now_ns=0)
            k.add(48, 60, now_ns=30 * SEC)
            r = k.read(now_ns=30 * SEC)
            self.assertEqual((r.hits, r.lookups), (78, 100))
            self.assertEqual(r.hit_rate, 0.78)
            self.assertEqual(r.ttl, llmmetrics.kv_ttl(0.78))
            self.assertEqual(k.read(now_ns=61 * SEC).lookups, 60)  # the first batch expired
            with self.assertRaises(Empty):
                k.read(now_ns=10 * MIN)
            with self.assertRaises(InvalidArgument):
                k.add(2, 1, now_ns=10 * MIN)

    def test_tlb_monitor(self) -> None:
        with TlbMonitor(TlbWorkload.OLTP_DATABASE) as m:
            m.add(125, 1000, now_ns=0)
            r = m.read(now_ns=0)
            self.assertEqual((r.alert, r.miss_rate, r.max_miss_rate, r.window_ns),
                             (False, 0.125, 0.125, SEC))  # equal: no alert
            m.add(1, 1, now_ns=1)
            self.assertTrue(m.read(now_ns=1).alert)
            with self.assertRaises(Empty):
                m.read(now_ns=5 * SEC)
        with TlbMonitor(max_miss_rate=0.01, window_ns=10 * SEC) as m:
            m.add(2, 100, now_ns=0)
            self.assertTrue(m.read(now_ns=0).alert)
        with self.assertRaises(TypeError):
            TlbMonitor()
        with self.assertRaises(TypeError):
            TlbMonitor(TlbWorkload.OLTP_DATABASE, window_ns=1)
        with self.assertRaises(OutOfRange):
            TlbMonitor(max_miss_rate=1.5, window_ns=SEC)


if __name__ == "__main__":
    unittest.main()
