"""Notebook use: HTML views of windows and result records, describe() as a dict and as a
pandas.DataFrame, recording from pandas without a copy (pandas tests skip without pandas)."""

from __future__ import annotations

import ctypes
import math
import unittest
import xml.etree.ElementTree as ET

import llmmetrics as lm
from llmmetrics._buffers import as_doubles

from support import HAVE_NUMPY, REL_ERR_S6, assert_rel, exact_quantile, lognormal, run_python

try:
    import pandas as pd
except ImportError:  # pragma: no cover - depends on the interpreter
    pd = None

SEC = 10 ** 9


def parsed(html: str) -> ET.Element:
    """The HTML as an element tree: it must be well-formed (every tag closed, attributes
    quoted), which any notebook front end renders."""
    return ET.fromstring(html)


def cells(html: str) -> list:
    return [c.text for c in parsed(html).iter() if c.tag in ("td", "th")]


def rows(html: str) -> dict:
    """First cell of each table row -> the row's other cells."""
    return {tr[0].text: [c.text for c in tr[1:]] for tr in parsed(html).iter("tr")}


class WindowViews(unittest.TestCase):
    def test_window_shows_the_whole_ring_at_its_latest_time_without_advancing(self) -> None:
        values = lognormal(3000, seed=4)
        with lm.Window(slot_ns=SEC, slots=10) as w:
            self.assertNotIn("<svg", w._repr_html_())  # nothing recorded yet: no time
            for i, v in enumerate(values):
                w.add(v, now_ns=i * SEC // 100)  # 100 per second for 30 s
            last = (len(values) - 1) * SEC // 100
            h = w._repr_html_()
            # the ring holds the last 10 slots: seconds 20 … 29
            kept = sorted(values[2000:])
            table = cells(h)
            self.assertEqual(table[table.index("count") + 1], "1000")
            self.assertIn("<svg", h)
            self.assertEqual(w.count(now_ns=last), 1000)
            p99 = float(table[table.index("p99") + 1])
            assert_rel(self, p99, exact_quantile(kept, 0.99), REL_ERR_S6 + 1e-3, "p99 shown")
            # showing it queried at the latest time stamp: one slot later still works, and
            # so does the latest time stamp itself
            w.add(1.0, now_ns=last)
            self.assertEqual(w.count(now_ns=last), 1001)

    def test_ratio_window(self) -> None:
        with lm.RatioWindow(slot_ns=SEC, slots=5) as rw:
            self.assertIn("RatioWindow", rw._repr_html_())
            for i in range(100):
                rw.add(1 if i % 10 == 0 else 0, now_ns=i * SEC // 10)
            table = cells(rw._repr_html_())
            events, total = rw.counts(now_ns=99 * SEC // 10)
            self.assertEqual((events, total), (5, 50))
            self.assertEqual(table[3:6], ["5", "50", "0.1"])


class RecordViews(unittest.TestCase):
    def test_spike_stats_shows_every_field(self) -> None:
        with lm.SpikeDetector(warmup=100) as d:
            for i, v in enumerate(lognormal(2000, seed=5)):
                d.observe(v * (30 if i % 97 == 0 else 1), now_ns=i * SEC // 100)
            st = d.stats(now_ns=1999 * SEC // 100)
        table = cells(st._repr_html_())
        for field in st._fields:
            self.assertIn(field, table)
        self.assertEqual(table[table.index("total_level1") + 1], str(st.total_level1))
        self.assertEqual(table[table.index("ready") + 1], "yes")
        self.assertGreater(st.total_level1, 0)

    def test_knee_report_has_knees_model_and_chart(self) -> None:
        conc = [float(n) for n in range(1, 65)]
        qps = [900 * n / (1 + 0.03 * (n - 1) + 0.0004 * n * (n - 1)) for n in conc]
        r = lm.knee_report(conc, qps)
        h = r._repr_html_()
        table = rows(h)
        for name in ("inflection", "collapse", "kneedle"):
            k = getattr(r, name)
            self.assertEqual(table[name][0], format(k.knee, ".4g"))
            self.assertEqual(table[name][3], k.quality.name.lower())
        self.assertIn("sigma=", h)
        svg = parsed(h).find("{http://www.w3.org/2000/svg}svg")
        self.assertIsNotNone(svg)

    def test_score_result_has_a_row_per_layer(self) -> None:
        with lm.Scorecard(lm.Scenario.CUSTOMER_SERVICE) as card:
            card.add_metric(lm.Layer.CAPABILITY, "acc", target=1, worst=0)
            card.add_metric(lm.Layer.PERFORMANCE, "p95", target=100, worst=1000)
            card.add_metric(lm.Layer.ENGINEERING, "err", target=0, worst=0.1)
            card.add_metric(lm.Layer.BUSINESS, "csat", target=5, worst=1)
            card.update({"acc": 0.9, "p95": 400, "err": 0.02, "csat": 4})
            res = card.evaluate()
            table = rows(res._repr_html_())
            for ls in res.layers:
                self.assertEqual(table[str(int(ls.layer))][:2],
                                 [ls.layer.name.lower(), format(ls.score, ".4g")])
            self.assertEqual(table["overall"], [format(res.overall, ".4g")])
            self.assertIn("llmmetrics.ScoreResult", card._repr_html_())

    def test_every_result_record_has_an_html_view(self) -> None:
        records = [lm.SpikeStats, lm.CollapseVerdict, lm.CollapseReport, lm.CollapseCounts,
                   lm.EventLogCounts, lm.StabilityReading, lm.SaturationReading, lm.FitStats,
                   lm.PolyFit, lm.Knee, lm.KneeReport, lm.LiiReading, lm.KvOccupancy,
                   lm.TlbPreset, lm.KvHitReading, lm.TlbReading, lm.LayerScore,
                   lm.ScoreResult, lm.SloResult, lm.GoodputResult, lm.BurnWindowResult,
                   lm.BurnResult, lm.ErrorTriggerReading]
        for cls in records:
            self.assertTrue(callable(getattr(cls, "_repr_html_", None)), cls.__name__)
        fit = lm.polyfit([1.0, 2.0, 3.0, 4.0], [1.0, 4.0, 9.0, 16.0], 2)
        table = rows(fit._repr_html_())
        self.assertEqual(table[None][:2], ["rank", "n"])  # a nested record: a row of its own
        self.assertEqual(table["stats"][:2], [str(fit.stats.rank), "4"])


class Describe(unittest.TestCase):
    QS = (0.5, 0.9, 0.99, 0.999)

    def check_row(self, row: dict, values: list) -> None:
        exact = sorted(values)
        self.assertEqual(list(row), ["count", "mean", "min", "p50", "p90", "p99", "p99.9", "max"])
        self.assertEqual(row["count"], len(values))
        self.assertAlmostEqual(row["mean"], math.fsum(values) / len(values), delta=1e-12)
        self.assertEqual((row["min"], row["max"]), (exact[0], exact[-1]))
        for q in self.QS:
            assert_rel(self, row["p%s" % format(q * 100, "g")], exact_quantile(exact, q),
                       REL_ERR_S6, "p%g" % (q * 100))

    def test_dict(self) -> None:
        values = lognormal(5000, seed=8)
        with lm.Sketch() as s:
            s.add_many(values)
            self.check_row(s.describe(self.QS, as_frame=False), values)
        with lm.Sketch() as empty:
            row = empty.describe(self.QS, as_frame=False)
        self.assertEqual(row["count"], 0)
        self.assertTrue(all(math.isnan(v) for k, v in row.items() if k != "count"))

    def test_many_sketches_as_dict(self) -> None:
        a, b = lognormal(1000, seed=1), lognormal(300, median=0.02, seed=2)
        with lm.Sketch() as sa, lm.Sketch() as sb:
            sa.add_many(a)
            sb.add_many(b)
            table = lm.describe({"ttft": sa, "itl": sb}, self.QS, as_frame=False)
        self.assertEqual(list(table), ["ttft", "itl"])
        self.check_row(table["ttft"], a)
        self.check_row(table["itl"], b)

    def test_without_pandas_a_dict(self) -> None:
        r = run_python("""
            import sys
            sys.modules["pandas"] = None  # import pandas now raises ImportError
            import llmmetrics as lm
            s = lm.Sketch(); s.add_many([1.0, 2.0, 3.0])
            print(type(s.describe()).__name__, type(lm.describe({"a": s})).__name__)
            try:
                s.describe(as_frame=True)
            except ImportError:
                print("ImportError")
            """, {})
        self.assertEqual(r.stdout.split(), ["dict", "dict", "ImportError"], r.stderr)

    @unittest.skipIf(pd is None, "pandas is not installed for this interpreter")
    def test_data_frame(self) -> None:
        a, b = lognormal(2000, seed=3), lognormal(500, median=0.05, seed=4)
        with lm.Sketch() as sa, lm.Sketch() as sb, lm.Sketch() as empty:
            sa.add_many(a)
            sb.add_many(b)
            frame = lm.describe({"e2e": sa, "itl": sb, "none": empty}, self.QS)
            one = sa.describe(self.QS, name="e2e")
        self.assertIsInstance(frame, pd.DataFrame)
        self.assertEqual(list(frame.index), ["e2e", "itl", "none"])
        self.assertEqual(str(frame["count"].dtype), "int64")
        self.check_row(frame.loc["e2e"].to_dict(), a)
        self.check_row({k: (int(v) if k == "count" else v)
                        for k, v in frame.loc["itl"].to_dict().items()}, b)
        self.assertTrue(frame.loc["none"].drop("count").isna().all())
        self.assertEqual(one.to_dict("index"), frame.loc[["e2e"]].to_dict("index"))


@unittest.skipIf(pd is None or not HAVE_NUMPY, "pandas is not installed for this interpreter")
class FromPandas(unittest.TestCase):
    def test_float64_series_and_column_are_read_in_place(self) -> None:
        import numpy as np
        series = pd.Series(np.asarray(lognormal(1000, seed=6)))
        frame = pd.DataFrame({"ttft": lognormal(50, seed=7), "e2e": lognormal(50, seed=8)})
        for obj in (series, frame["e2e"]):
            ptr, n, keep = as_doubles(obj)
            self.assertEqual(n, len(obj))
            self.assertEqual(ctypes.addressof(ptr._obj), obj.values.ctypes.data)
            del keep
        with lm.Sketch() as a, lm.Sketch() as b:
            a.add_many(series)
            b.add_many(series.to_numpy())
            self.assertEqual(a, b)

    def test_other_dtypes_are_converted_and_nan_refused(self) -> None:
        with lm.Sketch() as s:
            s.add_many(pd.Series([1, 2, 3], dtype="int64"))
            self.assertEqual((s.count, s.sum), (3, 6.0))
            with self.assertRaises(lm.InvalidArgument):
                s.add_many(pd.Series([1.0, float("nan")]))
            self.assertEqual(s.count, 3)


if __name__ == "__main__":
    unittest.main()
