"""Window / RatioWindow / SpikeDetector against exact references computed in Python on the
same time-stamped data (explicit time stamps: deterministic)."""

from __future__ import annotations

import unittest

from llmmetrics import (Empty, InvalidArgument, InvalidState, OutOfRange, RatioWindow, Sketch,
                        SpikeDetector, SpikeLevel, SpikeOption, UnknownOption, Window)

from support import assert_rel, exact_quantile, lognormal, rel_bound

SEC = 10 ** 9


class WindowTests(unittest.TestCase):
    def setUp(self) -> None:
        # 30 s of data, 40 values per second, time stamps spread inside each second
        self.events = []
        vals = lognormal(1200, 0.1, 1.0, seed=60)
        for i, v in enumerate(vals):
            self.events.append((i * SEC // 40, v))

    def covered(self, now: int, span: int, slot: int = SEC):
        n = -(-span // slot)
        first = (now // slot - n + 1) * slot
        return sorted(v for t, v in self.events if first <= t <= now)

    def test_quantiles_and_counts_match_the_covered_slots(self) -> None:
        with Window(SEC, 10) as w:
            self.assertEqual((w.slot_ns, w.slots, w.span_ns, w.scale), (SEC, 10, 10 * SEC, 6))
            for t, v in self.events:
                w.add(v, now_ns=t)
            now = self.events[-1][0]
            for span in (1, SEC, 3 * SEC, int(4.5 * SEC), 10 * SEC, None):
                ref = self.covered(now, span or 10 * SEC)
                self.assertEqual(w.count(span, now_ns=now), len(ref), span)
                got = w.quantiles([0.5, 0.9, 0.99], span, now_ns=now)
                for q, g in zip((0.5, 0.9, 0.99), got):
                    assert_rel(self, g, exact_quantile(ref, q), rel_bound(6), "span %r" % span)
                    self.assertEqual(g, w.quantile(q, span, now_ns=now))
                with w.snapshot(span, now_ns=now) as s, Sketch() as direct:
                    direct.add_many(ref)
                    self.assertEqual(list(s.buckets()), list(direct.buckets()))
                    self.assertEqual((s.min, s.max), (direct.min, direct.max))

    def test_slots_expire(self) -> None:
        with Window(SEC, 5) as w:
            w.add_many([1.0, 2.0, 3.0], now_ns=0)
            w.add(10.0, now_ns=4 * SEC)
            self.assertEqual(w.count(now_ns=4 * SEC), 4)
            self.assertEqual(w.count(now_ns=5 * SEC), 1)  # slot 0 left the ring
            self.assertEqual(w.quantile(0.0, now_ns=5 * SEC), 10.0)
            with self.assertRaises(Empty):
                w.quantile(0.5, now_ns=100 * SEC)
            with w.snapshot(now_ns=100 * SEC) as s:
                self.assertEqual(len(s), 0)

    def test_time_and_span_rules(self) -> None:
        with Window(SEC, 4) as w:
            w.add(1.0, now_ns=5 * SEC)
            with self.assertRaises(InvalidArgument):
                w.add(1.0, now_ns=4 * SEC)  # backwards
            with self.assertRaises(InvalidArgument):
                w.count(0, now_ns=5 * SEC)
            with self.assertRaises(OutOfRange):
                w.count(4 * SEC + 1, now_ns=5 * SEC)
            with self.assertRaises(InvalidArgument):
                w.add_many([1.0, float("nan")], now_ns=6 * SEC)
            self.assertEqual(w.count(now_ns=6 * SEC), 1)
            w.reset()
            w.add(2.0, now_ns=0)  # the clock was forgotten
            self.assertEqual(w.count(now_ns=0), 1)
        with Window() as d:
            self.assertEqual((d.slot_ns, d.slots), (SEC, 60))
            d.add(1.0)  # the library's clock
            self.assertEqual(d.count(), 1)
            self.assertIn("60 slots of 1 s", repr(d))
        with self.assertRaises(InvalidArgument):
            Window(SEC, 100001)
        with self.assertRaises(InvalidArgument):
            Window(SEC, 10, scale=11)


class RatioWindowTests(unittest.TestCase):
    def test_counts_and_ratio(self) -> None:
        with RatioWindow(SEC, 5) as rw:
            self.assertEqual(rw.span_ns, 5 * SEC)
            for s in range(10):
                for k in range(100):
                    rw.add(1 if k < s else 0, now_ns=s * SEC + k)
            now = 9 * SEC + 99
            self.assertEqual(rw.counts(now_ns=now), (5 + 6 + 7 + 8 + 9, 500))
            self.assertEqual(rw.counts(SEC, now_ns=now), (9, 100))
            self.assertEqual(rw.ratio(2 * SEC, now_ns=now), 17 / 200)
            rw.add(3, 4, now_ns=now)
            self.assertEqual(rw.counts(SEC, now_ns=now), (12, 104))
            with self.assertRaises(InvalidArgument):
                rw.add(5, 4, now_ns=now)
            with self.assertRaises(InvalidArgument):
                rw.add(0, 1, now_ns=0)
            with self.assertRaises(Empty):
                rw.ratio(now_ns=100 * SEC)
            rw.reset()
            rw.add(1, 2, now_ns=0)
            self.assertEqual(rw.ratio(now_ns=0), 0.5)
            self.assertIn("5 slots", repr(rw))


class SpikeTests(unittest.TestCase):
    def test_options(self) -> None:
        with SpikeDetector() as d:
            self.assertEqual((d.base_quantile, d.severe_quantile, d.severe_factor, d.warmup,
                              d.slot_ns, d.slots, d.scale), (0.99, 0.999, 1.2, 1000, SEC, 60, 6))
            d.severe_factor = 1.5
            self.assertEqual(d.get(SpikeOption.SEVERE_FACTOR), 1.5)
            with self.assertRaises(OutOfRange):
                d.severe_factor = 0.5
            with self.assertRaises(OutOfRange):
                d.base_quantile = 1.0
            with self.assertRaises(UnknownOption):
                d.set(99, 1)
            d.observe(1.0, now_ns=0)
            with self.assertRaises(InvalidState):
                d.slots = 10  # geometry after the first time stamp
            d.reset()
            d.slots = 10
            self.assertEqual(d.slots, 10)
        with SpikeDetector(slots=10, slot_ns=SEC // 10, scale=4, warmup=5) as d:
            self.assertEqual((d.slots, d.slot_ns, d.scale, d.warmup), (10, SEC // 10, 4, 5))
        with self.assertRaises(TypeError):
            SpikeDetector(sloths=3)
        with self.assertRaises(OutOfRange):
            SpikeDetector(slots=1)

    def test_classification_against_the_baselines_in_force(self) -> None:
        base = lognormal(2000, 0.2, 0.5, seed=61)
        with SpikeDetector(slots=10, warmup=500) as d:
            # 10 s of baseline traffic, 200 values per second; each verdict must follow the
            # rule from the baselines the detector reports for the same time stamp
            classified = 0
            for i, v in enumerate(base):
                t = i * SEC // 200
                want = _level(v, d.stats(now_ns=t))
                classified += d.stats(now_ns=t).ready
                self.assertEqual(d.observe(v, now_ns=t), want, "sample %d" % i)
            self.assertGreater(classified, 0)
            now = 10 * SEC
            st = d.stats(now_ns=now)
            self.assertTrue(st.ready)
            window = sorted(base[200:])  # slots 1..9 closed at t = 10 s
            self.assertEqual(st.baseline_samples, len(window))
            assert_rel(self, st.base_threshold, exact_quantile(window, 0.99), rel_bound(6), "P99")
            assert_rel(self, st.severe_threshold, exact_quantile(window, 0.999), rel_bound(6),
                       "P99.9")
            p99, p999 = st.base_threshold, st.severe_threshold
            self.assertEqual(d.observe(p99 * 0.99, now_ns=now), SpikeLevel.NONE)
            self.assertEqual(d.observe(p99 * 1.001, now_ns=now),
                             SpikeLevel.LEVEL1 if p99 * 1.001 <= 1.2 * p999 else SpikeLevel.LEVEL2)
            self.assertEqual(d.observe(p999 * 1.21, now_ns=now), SpikeLevel.LEVEL2)
            st2 = d.stats(now_ns=now)
            self.assertEqual(st2.total_samples, len(base) + 3)
            rate = d.rate(now_ns=now)
            self.assertAlmostEqual(rate, (st2.window_level1 + st2.window_level2)
                                   / st2.window_classified, places=15)
            with self.assertRaises(InvalidArgument):
                d.observe(1.0, now_ns=now - 1)
            with self.assertRaises(InvalidArgument):
                d.observe(-1.0, now_ns=now)
            d.reset()
            with self.assertRaises(Empty):
                d.rate(now_ns=0)


def _level(v: float, st) -> int:
    """The doc/spec.md §6 rule applied to the baselines reported for the same time stamp."""
    if not st.ready or v <= st.base_threshold:
        return SpikeLevel.NONE
    return SpikeLevel.LEVEL2 if v > 1.2 * st.severe_threshold else SpikeLevel.LEVEL1


if __name__ == "__main__":
    unittest.main()
