"""Fit: exact polynomial data, closed-form knees and USL parameters, numpy when present."""

from __future__ import annotations

import math
import random
import unittest

import llmmetrics
from llmmetrics import (Empty, InvalidArgument, KneeQuality, OutOfRange, Usl, knee_collapse,
                        knee_inflection, knee_kneedle, knee_report, poly_deriv, poly_eval,
                        poly_residuals, poly_roots, polyfit, usl_fit)

from support import HAVE_NUMPY

if HAVE_NUMPY:
    import numpy as np


def usl_x(n: float, lam: float, sigma: float, kappa: float) -> float:
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


class Polynomials(unittest.TestCase):
    def assert_roots(self, got, want) -> None:
        self.assertEqual(len(got), len(want), got)
        for g, w in zip(got, want):
            self.assertAlmostEqual(g, w, delta=1e-12 * max(1.0, abs(w)))

    def test_recovers_exact_cubic(self) -> None:
        c = (0.5, -3.0, 2.0, 7.0)
        x = [i * 0.25 for i in range(-20, 21)]
        y = [poly_eval(c, v) for v in x]
        fit = polyfit(x, y, 3)
        for got, want in zip(fit.coeffs, c):
            self.assertAlmostEqual(got, want, delta=1e-12 * max(1.0, abs(want)))
        self.assertEqual(fit.stats.rank, 4)
        self.assertEqual(fit.stats.n, len(x))
        self.assertAlmostEqual(fit.stats.r2, 1.0, places=12)
        self.assertEqual(fit.stats.centre, 0.0)

    def test_weights_are_repeat_counts(self) -> None:
        rng = random.Random(70)
        x = [rng.uniform(0, 10) for _ in range(30)]
        y = [math.sin(v) for v in x]
        w = [rng.randint(0, 3) for _ in x]
        rep_x = [v for v, k in zip(x, w) for _ in range(k)]
        rep_y = [v for v, k in zip(y, w) for _ in range(k)]
        a = polyfit(x, y, 2, w=w).coeffs
        b = polyfit(rep_x, rep_y, 2).coeffs
        for p, q in zip(a, b):
            self.assertAlmostEqual(p, q, delta=1e-10 * max(1.0, abs(q)))
        with self.assertRaises(InvalidArgument):
            polyfit(x, y, 2, w=w[:-1])

    def test_eval_deriv_roots_residuals(self) -> None:
        c = (1.0, -6.0, 11.0, -6.0)  # (x-1)(x-2)(x-3)
        self.assert_roots(poly_roots(c), [1.0, 2.0, 3.0])
        self.assertEqual(poly_eval(c, 4.0), 6.0)
        self.assertEqual(poly_deriv(c), (3.0, -12.0, 11.0))
        self.assertEqual(poly_deriv(c, 2), (6.0, -12.0))
        self.assertEqual(poly_deriv(c, 7), (0.0,))
        self.assertEqual(poly_roots((1.0, 0.0, 1.0)), [])  # x^2 + 1
        self.assert_roots(poly_roots((0.0, 1.0, -2.0)), [2.0])  # leading zero dropped
        self.assert_roots(poly_roots((1.0, -2.0, 1.0)), [1.0, 1.0])
        self.assert_roots(poly_roots((1.0, 0.0, 0.0)), [0.0, 0.0])  # trailing zeros: exact
        res, rss = poly_residuals(c, [0.0, 1.0, 5.0], [-6.0, 1.0, 24.0])
        self.assertEqual(res, [0.0, 1.0, 0.0])
        self.assertEqual(rss, 1.0)
        with self.assertRaises(InvalidArgument):
            poly_roots((0.0, 0.0))
        with self.assertRaises(InvalidArgument):
            poly_eval((), 1.0)
        with self.assertRaises(InvalidArgument):
            poly_eval((1.0, float("nan")), 1.0)

    def test_errors(self) -> None:
        with self.assertRaises(Empty):
            polyfit([], [], 1)
        with self.assertRaises(InvalidArgument):
            polyfit([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 1)  # one distinct abscissa
        with self.assertRaises(InvalidArgument):
            polyfit([1.0, 2.0], [1.0], 1)
        with self.assertRaises(OutOfRange):
            polyfit(list(range(20)), list(range(20)), 17)

    @unittest.skipUnless(HAVE_NUMPY, "numpy is not installed for this interpreter")
    def test_against_numpy_polyfit(self) -> None:
        rng = np.random.default_rng(71)
        x = np.linspace(1, 400, 10000)
        y = 3e-6 * x ** 3 - 2e-3 * x ** 2 + 0.9 * x + rng.normal(0, 2, x.size)
        got = np.array(polyfit(x, y, 3).coeffs)
        want = np.polyfit(x, y, 3)
        self.assertTrue(np.allclose(got, want, rtol=1e-9, atol=0), (got, want))
        self.assertAlmostEqual(poly_eval(got, 123.0), float(np.polyval(got, 123.0)),
                               delta=1e-9 * abs(float(np.polyval(got, 123.0))))


class Knees(unittest.TestCase):
    def test_inflection_of_an_exact_cubic(self) -> None:
        a, b, c, d = -0.001, 0.6, 5.0, 10.0
        conc = [float(n) for n in range(1, 401)]
        qps = [((a * n + b) * n + c) * n + d for n in conc]
        k = knee_inflection(conc, qps)
        self.assertEqual(k.quality, KneeQuality.OK)
        self.assertAlmostEqual(k.knee, -b / (3 * a), delta=1e-7)
        self.assertAlmostEqual(llmmetrics.knee_inflection_value(conc, qps), k.knee, places=9)
        self.assertAlmostEqual(k.strength, 1.0, places=12)
        # an inflection outside the retained range is a result, not an error
        flat = [2.0 * n + 1.0 + 1e-6 * n ** 3 for n in conc]
        none = knee_inflection(conc, flat)
        self.assertEqual(none.quality, KneeQuality.NONE)
        self.assertTrue(math.isnan(none.knee))
        with self.assertRaises(Empty):
            llmmetrics.knee_inflection_value(conc, flat)
        with self.assertRaises(OutOfRange):
            knee_inflection(conc, qps, trim=0.5)

    def test_collapse_against_the_definition(self) -> None:
        conc = [float(n) for n in range(1, 101)]
        qps = [min(10.0 * n, 500.0 + 0.5 * n) for n in conc]  # gain 10 until ~52.6, then 0.5
        k = knee_collapse(conc, qps, fraction=0.5, smooth=1)
        # unsmoothed gains: g_i at midpoint i + 1.5; the first gain below 5 is the one
        # across the corner at n = 52..53; the interpolation is between the midpoints
        gains = [(qps[i + 1] - qps[i]) / (conc[i + 1] - conc[i]) for i in range(99)]
        j = next(i for i, g in enumerate(gains) if g < 0.5 * gains[0])
        m0, m1 = (conc[j - 1] + conc[j]) / 2, (conc[j] + conc[j + 1]) / 2
        t = (gains[j - 1] - 5.0) / (gains[j - 1] - gains[j])
        self.assertEqual(k.quality, KneeQuality.OK)
        self.assertAlmostEqual(k.knee, m0 + t * (m1 - m0), places=9)

    def test_kneedle_on_a_saturating_curve(self) -> None:
        conc = [float(n) for n in range(1, 201)]
        qps = [1000.0 * (1 - math.exp(-n / 30.0)) for n in conc]
        k = knee_kneedle(conc, qps)
        # the difference curve y_hat - x_hat is maximal where its derivative vanishes:
        # exp(-n/30)/30 * 1000 / (qmax - qmin) = 1 / (199)
        qmin, qmax = qps[0], qps[-1]
        n_star = -30.0 * math.log(30.0 * (qmax - qmin) / (1000.0 * 199.0))
        self.assertEqual(k.quality, KneeQuality.OK)
        self.assertAlmostEqual(k.knee, n_star, delta=0.5)

    def test_usl_recovers_parameters_and_report_agrees(self) -> None:
        lam, sigma, kappa = 1200.0, 0.03, 0.0004
        conc = [float(n) for n in range(1, 121)]
        qps = [usl_x(n, lam, sigma, kappa) for n in conc]
        m = usl_fit(conc, qps)
        self.assertAlmostEqual(m.lam, lam, delta=1e-6 * lam)
        self.assertAlmostEqual(m.sigma, sigma, delta=1e-7)
        self.assertAlmostEqual(m.kappa, kappa, delta=1e-9)
        self.assertEqual(m.quality, KneeQuality.OK)
        self.assertEqual(m.n_max, math.floor(math.sqrt((1 - sigma) / kappa)))
        self.assertAlmostEqual(m.throughput(10.0), usl_x(10.0, lam, sigma, kappa), places=6)
        self.assertAlmostEqual(m.latency(10.0), 10.0 / usl_x(10.0, lam, sigma, kappa),
                               places=12)
        hand = Usl(lam, sigma, kappa)
        slo = hand.slo_concurrency(0.05)
        self.assertLessEqual(hand.latency(slo), 0.05)
        self.assertGreater(hand.latency(slo + 1), 0.05)
        self.assertEqual(Usl(lam, 0.0, 0.0).slo_concurrency(1.0), math.inf)
        self.assertIn("quality=OK", repr(m))
        r = knee_report(conc, qps)
        self.assertAlmostEqual(r.usl.kappa, m.kappa, delta=1e-12)
        self.assertEqual(r.kneedle, knee_kneedle(conc, qps))
        self.assertEqual(r.collapse, knee_collapse(conc, qps))
        self.assertEqual(r.inflection, knee_inflection(conc, qps))
        r2 = knee_report(conc, qps, trim=0.2, collapse_fraction=0.3, smooth=3,
                         kneedle_sensitivity=2.0)
        self.assertEqual(r2.collapse, knee_collapse(conc, qps, 0.3, 3))
        self.assertEqual(r2.inflection, knee_inflection(conc, qps, 0.2))
        with self.assertRaises(InvalidArgument):
            usl_fit(conc[:5], qps[:5])
        with self.assertRaises(InvalidArgument):
            Usl(-1.0, 0.0, 0.0).throughput(2.0)


if __name__ == "__main__":
    unittest.main()
