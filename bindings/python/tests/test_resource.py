"""Resource formulas against doc/spec.md §8 reference values and Python evaluations of the
same formulas."""

from __future__ import annotations

import random
import unittest

import llmmetrics
from llmmetrics import (Empty, InvalidArgument, LiiMonitor, LiiOption, LiiTier, OutOfRange,
                        TlbWorkload, UnknownOption)


def py_lii(cpu, gpu) -> float:
    mc, mg = sum(cpu) / len(cpu), sum(gpu) / len(gpu)
    return abs(mc - mg) / max(mc, mg, 1e-6)


class Lii(unittest.TestCase):
    def test_batch_against_formula(self) -> None:
        rng = random.Random(50)
        for n in (1, 2, 7, 64, 1000):
            cpu = [rng.random() for _ in range(n)]
            gpu = [rng.random() for _ in range(n)]
            self.assertAlmostEqual(llmmetrics.lii(cpu, gpu), py_lii(cpu, gpu), delta=1e-12)
        self.assertEqual(llmmetrics.lii([0.0, 0.0], [0.0, 0.0]), 0.0)
        self.assertEqual(llmmetrics.lii([0.5], [1.0]), 0.5)

    def test_batch_errors(self) -> None:
        with self.assertRaises(Empty):
            llmmetrics.lii([], [])
        with self.assertRaises(InvalidArgument):
            llmmetrics.lii([0.5, 0.5], [0.5])
        for bad in (1.5, -0.1, float("nan")):
            with self.assertRaises(InvalidArgument):
                llmmetrics.lii([0.5, bad], [0.5, 0.5])

    def test_monitor_slides_over_the_last_window(self) -> None:
        rng = random.Random(51)
        cpu = [rng.random() for _ in range(300)]
        gpu = [rng.random() * 0.5 for _ in range(300)]
        with LiiMonitor(16) as m:
            with self.assertRaises(Empty):
                m.read()
            self.assertEqual(len(m), 0)
            for i, (c, g) in enumerate(zip(cpu, gpu)):
                m.add(c, g)
                lo = max(0, i - 15)
                r = m.read()
                want = py_lii(cpu[lo:i + 1], gpu[lo:i + 1])
                self.assertAlmostEqual(r.lii, want, delta=1e-12)
                self.assertEqual(r.samples, i + 1 - lo)
                tier = LiiTier.KEEP if r.lii < 0.2 else (LiiTier.PREFETCH if r.lii < 0.4
                                                         else LiiTier.ADAPT)
                self.assertEqual(r.tier, tier)
                self.assertEqual(r.scale, r.lii >= 0.3)
            m.reset()
            self.assertEqual(len(m), 0)

    def test_tier_boundaries_belong_to_the_upper_tier(self) -> None:
        # exact binary fractions: LII = |0.5 - 0.625| / 0.625 = 0.2, |0.375 - 0.625| / 0.625 = 0.4
        with LiiMonitor(1) as m:
            m.add(0.5, 0.625)
            self.assertEqual(m.read().tier, LiiTier.PREFETCH)
            m.add(0.375, 0.625)
            self.assertEqual(m.read().tier, LiiTier.ADAPT)

    def test_thresholds(self) -> None:
        with LiiMonitor() as m:
            self.assertEqual((m.prefetch_at, m.adapt_at, m.scale_at), (0.2, 0.4, 0.3))
            m.adapt_at = 0.9
            m.prefetch_at = 0.8
            self.assertEqual(m.get(LiiOption.PREFETCH_AT), 0.8)
            with self.assertRaises(OutOfRange):
                m.adapt_at = 0.5  # below prefetch
            with self.assertRaises(OutOfRange):
                m.scale_at = 1.5
            with self.assertRaises(UnknownOption):
                m.set(7, 0.5)  # type: ignore[arg-type]
            m.add(0.1, 0.6)
            self.assertEqual(m.read().tier, LiiTier.PREFETCH)  # lii 0.8333
        with LiiMonitor(prefetch_at=0.5, adapt_at=0.7, scale_at=0.1) as m:  # both up
            self.assertEqual((m.prefetch_at, m.adapt_at, m.scale_at), (0.5, 0.7, 0.1))
        with LiiMonitor(prefetch_at=0.05, adapt_at=0.1) as m:  # both down
            self.assertEqual((m.prefetch_at, m.adapt_at), (0.05, 0.1))
        with self.assertRaises(OutOfRange):
            LiiMonitor(prefetch_at=0.6, adapt_at=0.5)
        with self.assertRaises(OutOfRange):
            LiiMonitor(llmmetrics.resource.LII_WINDOW_MAX + 1)
        with LiiMonitor(0) as m:  # 0 = the default window of 64
            for _ in range(100):
                m.add(0.5, 0.5)
            self.assertEqual(m.read().samples, 64)
            self.assertIn("samples=64", repr(m))


class KvCache(unittest.TestCase):
    def test_evict_threshold_reference_values(self) -> None:
        for f in (0.0, 0.2, 0.6, 1.0, 0.33):
            self.assertEqual(llmmetrics.kv_evict_threshold(f), max(0.65, 0.85 - 0.2 * f))
        self.assertEqual(llmmetrics.kv_evict_threshold(0.2), 0.8099999999999999)
        self.assertAlmostEqual(llmmetrics.kv_evict_threshold(0.6), 0.73, places=12)
        for bad in (-0.1, 1.1, float("nan")):
            with self.assertRaises(InvalidArgument):
                llmmetrics.kv_evict_threshold(bad)

    def test_ttl_matches_python_expression(self) -> None:
        self.assertEqual(llmmetrics.kv_ttl(0.75), 128)
        self.assertEqual(llmmetrics.kv_ttl(1.0), 144)
        self.assertEqual(llmmetrics.kv_ttl(0.0), 80)
        for k in range(0, 1001):
            h = k / 1000
            self.assertEqual(llmmetrics.kv_ttl(h), int(128 * (1 + 0.5 * (h - 0.75))), h)
        with self.assertRaises(InvalidArgument):
            llmmetrics.kv_ttl(1.5)

    def test_fragmentation(self) -> None:
        self.assertEqual(llmmetrics.kv_fragmentation([]), 0.0)
        self.assertEqual(llmmetrics.kv_fragmentation([10]), 0.0)
        self.assertEqual(llmmetrics.kv_fragmentation([4, 2, 2]), 1 - 4 / 8)
        self.assertEqual(llmmetrics.kv_fragmentation((1 for _ in range(10))), 1 - 1 / 10)
        self.assertEqual(llmmetrics.kv_fragmentation([2 ** 64 - 1, 2 ** 64 - 1]), 0.5)
        with self.assertRaises(InvalidArgument):
            llmmetrics.kv_fragmentation([-1])

    def test_occupancy_formulas(self) -> None:
        b, t, u, k = 16, 100, 50, 700
        r = llmmetrics.kv_occupancy(b, t, u, k)
        self.assertEqual(r.block_occupancy, u / t)
        self.assertEqual(r.token_occupancy, k / (t * b))
        self.assertAlmostEqual(r.gap, (u * b - k) / (t * b), places=15)
        self.assertAlmostEqual(r.internal_fragmentation, 1 - k / (u * b), places=15)
        self.assertEqual(r.wasted_slots, u * b - k)
        self.assertEqual(llmmetrics.kv_occupancy(16, 10, 0, 0).internal_fragmentation, 0.0)
        for bad in ((0, 1, 0, 0), (16, 0, 0, 0), (16, 10, 11, 0), (16, 10, 1, 17)):
            with self.assertRaises(InvalidArgument, msg=repr(bad)):
                llmmetrics.kv_occupancy(*bad)


class Oom(unittest.TestCase):
    def test_tlb_presets(self) -> None:
        self.assertEqual(llmmetrics.tlb_preset(TlbWorkload.OLTP_DATABASE), (0.125, 10 ** 9))
        self.assertEqual(llmmetrics.tlb_preset(TlbWorkload.JAVA_MICROSERVICE),
                         (0.082, 500 * 10 ** 6))
        with self.assertRaises(InvalidArgument):
            llmmetrics.tlb_preset(5)

    def test_page_walk(self) -> None:
        self.assertEqual(llmmetrics.page_walk_ns(3000, 3e9), 1000.0)
        self.assertAlmostEqual(llmmetrics.page_walk_ns(123.5, 2.5e9), 123.5 / 2.5e9 * 1e9,
                               places=9)
        for bad in ((-1, 1e9), (1, 0), (float("inf"), 1e9)):
            with self.assertRaises(InvalidArgument):
                llmmetrics.page_walk_ns(*bad)


if __name__ == "__main__":
    unittest.main()
