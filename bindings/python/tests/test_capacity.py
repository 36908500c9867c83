"""Capacity formulas against the reference values of doc/spec.md §3."""

from __future__ import annotations

import unittest

import llmmetrics
from llmmetrics import InvalidArgument, OutOfRange


class Capacity(unittest.TestCase):
    def test_reference_values(self) -> None:
        c = llmmetrics
        self.assertAlmostEqual(c.roofline_critical_intensity(312e12, 2039e9), 153.0, delta=0.05)
        self.assertAlmostEqual(c.roofline_critical_intensity(756e12, 4000e9), 189.0, places=9)
        self.assertEqual(c.arithmetic_intensity(2048, 128), 16.0)
        att = c.roofline(312e12, 2039e9, 16)
        self.assertAlmostEqual(att, 32.624e12, delta=1e3)
        self.assertAlmostEqual(c.decay_rate(att, 312e12), 0.89544, places=5)
        self.assertEqual(c.roofline(312e12, 2039e9, 1e6), 312e12)
        for ideal, measured, want in ((184, 172, 0.0652), (368, 329, 0.1060),
                                      (736, 612, 0.1685)):
            self.assertAlmostEqual(c.scaling_decay(ideal, measured), want, places=4)
        self.assertAlmostEqual(c.scaling_decay_devices(92, 2, 172), 0.0652, places=4)
        self.assertAlmostEqual(c.comm_share(0.82, 3.5), 0.2343, places=4)
        for short, long_, want in ((1127, 693, 0.3851), (1210, 1056, 0.1273),
                                   (612, 341, 0.4428)):
            self.assertAlmostEqual(c.seqlen_decay(short, long_), want, places=4)
        for p999, want in ((150, 255.0), (200, 191.25), (250, 153.0)):
            self.assertAlmostEqual(c.littles_law_tps(p999, 45), want, places=9)
            self.assertEqual(c.littles_law_tps(p999, 45), c.littles_law_tps(p999, 45, 0.85))
        self.assertEqual(c.littles_law_tps(1000, 0), 1.0)  # floor of 1
        self.assertEqual(llmmetrics.capacity.LITTLES_LAW_SAFETY_DEFAULT, 0.85)

    def test_errors(self) -> None:
        c = llmmetrics
        for call in (lambda: c.decay_rate(1, 0), lambda: c.decay_rate(-1, 1),
                     lambda: c.roofline(1, float("nan"), 1), lambda: c.comm_share(2, 1),
                     lambda: c.scaling_decay_devices(1, 0, 1), lambda: c.littles_law_tps(0, 1),
                     lambda: c.arithmetic_intensity(1, 0)):
            with self.assertRaises(InvalidArgument):
                call()
        with self.assertRaises(OutOfRange):
            c.littles_law_tps(100, 1, 1.5)
        self.assertLess(c.decay_rate(2, 1), 0)  # above the peak: reported, not refused


if __name__ == "__main__":
    unittest.main()
