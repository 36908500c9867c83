"""Exemplars and trace context from Python: the store's keep rules, threads writing through
their own shards, the OpenMetrics exposition read back by an independent parser (a regular
expression here; prometheus_client's OpenMetrics parser too when installed), and traceparent
against the W3C specification's example."""

from __future__ import annotations

import re
import threading
import unittest

import llmmetrics
from llmmetrics import (ExemplarKeep, Exemplars, InvalidArgument, PromFormat, PromType,
                        PromWriter, Sketch)

TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
TRACE = bytes.fromhex("4bf92f3577b34da6a3ce929d0e0e4736")
SPAN = bytes.fromhex("00f067aa0ba902b7")
BUCKET = re.compile(r'^(\w+)_bucket\{le="([^"]+)"\} (\d+)(?: # \{(.*)\} (\S+) (\S+))?$')


class Store(unittest.TestCase):
    def test_latest_and_max(self) -> None:
        with Exemplars([1.0, 2.0]) as ex:
            self.assertEqual(ex.slots, 3)
            ex.record(1.5, TRACE, SPAN, 10)
            ex.record(1.2, TRACE, None, 11, 'model="m"')
            e = ex.get(1)
            self.assertEqual((e.value, e.trace_id, e.span_id, e.time_unix_nano, e.labels),
                             (1.2, TRACE, bytes(8), 11, 'model="m"'))
            self.assertIsNone(ex.get(0))
            with self.assertRaises(InvalidArgument):
                ex.record(float("nan"), TRACE)
            with self.assertRaises(InvalidArgument):
                ex.record(1.0, bytes(16))
        with Exemplars([10.0], ExemplarKeep.MAX) as ex:
            for v in (5.0, 3.0, 7.0, 6.0):
                ex.record(v, TRACE, SPAN)
            self.assertEqual(ex.get(0).value, 7.0)
            ex.roll()
            self.assertEqual(ex.get(0).value, 7.0)  # a roll erases nothing
            ex.record(2.0, TRACE, SPAN)
            self.assertEqual(ex.get(0).value, 2.0)

    def test_threads(self) -> None:
        """Each thread records through its own shard; the slot ends with the latest time."""
        with Exemplars([]) as ex:
            def work(k: int) -> None:
                for i in range(2000):
                    t = i * 4 + k + 1
                    ex.record(float(t), t.to_bytes(16, "big"), SPAN, t)
            th = [threading.Thread(target=work, args=(k,)) for k in range(4)]
            for t in th:
                t.start()
            for t in th:
                t.join()
            e = ex.get(0)
            self.assertEqual(e.time_unix_nano, 8000)
            self.assertEqual(e.trace_id, (8000).to_bytes(16, "big"))


class OpenMetrics(unittest.TestCase):
    def test_exposition(self) -> None:
        bounds = [0.1, 0.5, 1.0]
        data = [0.05, 0.2, 0.3, 0.7, 2.0]
        with Sketch() as s, Exemplars(bounds) as ex, PromWriter(PromFormat.OPENMETRICS) as w:
            s.add_many(data)
            recorded = {}
            for i, v in enumerate(data):
                tr = bytes([i + 1]) * 16
                ex.record(v, tr, SPAN, 1_733_300_000_000_000_000 + i * 1_000_000)
                le = next((b for b in bounds if v <= b), float("inf"))
                recorded[le] = (v, tr.hex())  # the latest of each bucket
            w.family("lat_seconds", PromType.HISTOGRAM, "latency", bounds)
            w.sketch_exemplars(s, ex)
            w.family("req_total", PromType.COUNTER)
            w.value_exemplar(5, ex.get(3))
            text = w.finish().decode("utf-8")
        self.assertTrue(text.endswith("# EOF\n"))
        self.assertIn("# TYPE req counter\n", text)
        got = {}
        for line in text.splitlines():
            m = BUCKET.match(line)
            if m and m.group(4):
                labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(4)))
                got[float(m.group(2))] = (float(m.group(5)), labels["trace_id"])
                self.assertEqual(labels["span_id"], SPAN.hex())
        self.assertEqual(got, recorded)
        self.assertRegex(text, r'req_total 5 # \{trace_id="(05){16}",span_id="00f067aa0ba902b7"\}'
                               r' 2 1733300000\.004\n')
        try:
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
        except ImportError:
            return
        fams = {f.name: f for f in text_string_to_metric_families(text)}
        ex_read = {float(x.labels["le"]): (x.exemplar.value, x.exemplar.labels["trace_id"])
                   for x in fams["lat_seconds"].samples if x.exemplar}
        self.assertEqual(ex_read, recorded)

    def test_negotiate(self) -> None:
        accept = ("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                  "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
        fmt, ctype = llmmetrics.prom_negotiate_openmetrics(accept)
        self.assertEqual(fmt, PromFormat.OPENMETRICS)
        self.assertEqual(ctype, "application/openmetrics-text; version=1.0.0; charset=utf-8")
        self.assertEqual(llmmetrics.prom_negotiate(accept)[0], PromFormat.TEXT)


class TraceContext(unittest.TestCase):
    def test_round_trip(self) -> None:
        tr, sp, fl = llmmetrics.traceparent_parse(TP)
        self.assertEqual((tr, sp, fl), (TRACE, SPAN, 1))
        self.assertEqual(llmmetrics.traceparent_format(tr, sp, fl), TP)
        for bad in (TP.upper(), "ff" + TP[2:], TP + "-x", TP[:-1]):
            with self.assertRaises(InvalidArgument):
                llmmetrics.traceparent_parse(bad)
        with self.assertRaises(InvalidArgument):
            llmmetrics.traceparent_format(bytes(16), SPAN)


if __name__ == "__main__":
    unittest.main()
