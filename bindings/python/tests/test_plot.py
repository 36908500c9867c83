"""llmmetrics.plot: the charts are well-formed SVG whose points say (and sit at) the values
they stand for."""

from __future__ import annotations

import math
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import llmmetrics as lm
from llmmetrics import plot

from support import lognormal

NS = "{http://www.w3.org/2000/svg}"


def points_of(svg: plot.Svg, name: str) -> list:
    """(x value, y value, cx, cy) of every marker of series ``name``, from its <title>."""
    out = []
    for c in ET.fromstring(svg.text).iter(NS + "circle"):
        label, values = c.find(NS + "title").text.split(": ")
        if label == name:
            x, y = (float(v) for v in values.split(", "))
            out.append((x, y, float(c.get("cx")), float(c.get("cy"))))
    return out


class PercentilePlot(unittest.TestCase):
    def test_each_point_is_the_sketch_quantile_on_log_and_nines_axes(self) -> None:
        with lm.Sketch() as e2e, lm.Sketch() as itl, lm.Sketch() as empty:
            e2e.add_many(lognormal(5000, seed=1))
            itl.add_many(lognormal(5000, median=0.02, sigma=0.5, seed=2))
            svg = plot.percentile_plot({"E2E": e2e, "ITL": itl, "none": empty})
            self.assertEqual(svg._repr_svg_(), str(svg))
            for name, s in (("E2E", e2e), ("ITL", itl)):
                pts = points_of(svg, name)
                self.assertEqual(len(pts), len(plot.PERCENTILES))
                for (x, y, _, _), q in zip(pts, plot.PERCENTILES):
                    self.assertAlmostEqual(x, -math.log10(1 - q), places=3)
                    self.assertEqual(format(y, ".4g"), format(s.quantile(q), ".4g"))
                # pixels are linear in log10(latency) and in the nines position
                (x0, y0, cx0, cy0), (x1, y1, cx1, cy1) = pts[0], pts[-1]
                for x, y, cx, cy in pts[1:-1]:
                    self.assertAlmostEqual((cy - cy0) / (cy1 - cy0),
                                           math.log10(y / y0) / math.log10(y1 / y0), delta=0.01)
                    self.assertAlmostEqual((cx - cx0) / (cx1 - cx0), (x - x0) / (x1 - x0),
                                           delta=0.01)
            self.assertEqual(points_of(svg, "none"), [])
        labels = [t.text for t in ET.fromstring(svg.text).iter(NS + "text")]
        self.assertIn("p99.9", labels)

    def test_bad_percentiles(self) -> None:
        with lm.Sketch() as s:
            s.add(1.0)
            with self.assertRaises(ValueError):
                plot.percentile_plot({"a": s}, [0.1])
            with self.assertRaises(ValueError):
                plot.percentile_plot({"a": s}, [1.0])


class KneePlot(unittest.TestCase):
    def test_sweep_model_and_knees(self) -> None:
        conc = [float(n) for n in range(1, 65)]
        qps = [900 * n / (1 + 0.03 * (n - 1) + 0.0004 * n * (n - 1)) for n in conc]
        report = lm.knee_report(conc, qps)
        svg = plot.knee_plot(conc, qps, report)
        root = ET.fromstring(svg.text)
        measured = points_of(svg, "measured")
        self.assertEqual([(x, y) for x, y, _, _ in measured],
                         [(float(format(c, ".4g")), float(format(q, ".4g")))
                          for c, q in zip(conc, qps)])
        knees = [getattr(report, k).knee for k in ("inflection", "collapse", "kneedle")]
        titles = [t.text for line in root.iter(NS + "line") for t in line.iter(NS + "title")]
        self.assertEqual(len(titles), sum(math.isfinite(k) for k in knees))
        for k in knees:
            if math.isfinite(k):
                self.assertTrue(any(t.endswith(": " + format(k, ".4g")) for t in titles), k)
        model = [p for p in root.iter(NS + "polyline")]
        self.assertEqual(len(model), 1)
        self.assertEqual(len(model[0].get("points").split()), 101)

    def test_report_alone_and_nothing(self) -> None:
        conc = [float(n) for n in range(1, 33)]
        report = lm.knee_report(conc, [500 * n / (1 + 0.05 * (n - 1)) for n in conc])
        ET.fromstring(plot.knee_plot(report=report).text)
        with self.assertRaises(ValueError):
            plot.knee_plot()


class LineChart(unittest.TestCase):
    def test_errors_and_save(self) -> None:
        with self.assertRaises(ValueError):
            plot.line_chart({"a": ([1.0, 2.0], [1.0])})
        with self.assertRaises(ValueError):
            plot.line_chart({})
        svg = plot.line_chart({"a": ([1.0, 2.0, 3.0], [3.0, 1.0, 2.0])}, title="t <&>")
        self.assertEqual([p[:2] for p in points_of(svg, "a")], [(1, 3), (2, 1), (3, 2)])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.svg")
            svg.save(path)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), svg.text)
        self.assertEqual(ET.fromstring(svg.text).get("aria-label"), "t <&>")


if __name__ == "__main__":
    unittest.main()
