"""Export: Prometheus text read back and checked against the data, the writer, negotiation,
bucket lists, OTLP JSON decoded and checked against the sketch."""

from __future__ import annotations

import json
import re
import unittest

import llmmetrics
from llmmetrics import (BucketList, InvalidArgument, InvalidState, OtlpTemporality, PromFormat,
                        PromType, PromWriter, Sketch)

from support import lognormal

LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')


def parse_text(text: str):
    """Samples of a text exposition: list of (name, {label: value}, float)."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        assert m, line
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
        out.append((m.group(1), labels, float(m.group(3))))
    return out


class PrometheusText(unittest.TestCase):
    def test_cumulative_counts_are_exact(self) -> None:
        data = lognormal(3000, 0.2, 1.0, seed=80) + [0.0, 0.0]
        with Sketch() as s:
            s.add_many(data)
            text = llmmetrics.prometheus_text(s, "llm_latency_seconds", {"model": 'm"x\\y'})
        samples = parse_text(text)
        self.assertIn("# TYPE llm_latency_seconds histogram", text)
        buckets = [(lb["le"], v) for n, lb, v in samples if n == "llm_latency_seconds_bucket"]
        self.assertEqual(buckets[-1], ("+Inf", len(data)))
        for le, count in buckets[:-1]:
            self.assertEqual(count, sum(1 for x in data if x <= float(le)), le)
        for n, lb, v in samples:
            self.assertEqual(lb["model"], 'm\\"x\\\\y')
        total = {n: v for n, lb, v in samples}
        self.assertEqual(total["llm_latency_seconds_count"], len(data))
        self.assertAlmostEqual(total["llm_latency_seconds_sum"], sum(data), delta=1e-9)

    def test_unit_factor_and_label_forms(self) -> None:
        with Sketch() as s:
            s.add_many([250.0, 500.0, 1000.0])  # milliseconds
            text = llmmetrics.prometheus_text(s, "x_seconds", 'a="1",b="2"', 1e-3)
            total = {n: v for n, lb, v in parse_text(text)}
            self.assertAlmostEqual(total["x_seconds_sum"], 1.75, places=12)
            for bad in ('a="1" ,b="2"', "a=1", '__x="1"', 'le="1"'):
                with self.assertRaises(InvalidArgument, msg=bad):
                    llmmetrics.prometheus_text(s, "x_seconds", bad)
            with self.assertRaises(InvalidArgument):
                llmmetrics.prometheus_text(s, "bad name")
            with self.assertRaises(InvalidArgument):
                llmmetrics.prometheus_text(s, "x", None, 0.0)
            with self.assertRaises(InvalidArgument):
                llmmetrics.prometheus_text(s, "x\0y")

    def test_label_escape(self) -> None:
        self.assertEqual(llmmetrics.label_escape('a"b\\c\nd'), 'a\\"b\\\\c\\nd')
        self.assertEqual(llmmetrics.label_escape(""), "")
        self.assertEqual(llmmetrics.label_escape("ü" * 3000), "ü" * 3000)  # grows the buffer
        self.assertEqual(llmmetrics.format_labels({"a": 1, "b": 'q"'}), 'a="1",b="q\\""')
        self.assertIsNone(llmmetrics.format_labels(None))


class Writer(unittest.TestCase):
    def test_families_in_text(self) -> None:
        data = lognormal(1000, seed=81)
        with Sketch() as s, PromWriter() as w:
            s.add_many(data)
            self.assertEqual(w.format, PromFormat.TEXT)
            w.family("requests_total", PromType.COUNTER, "Requests served")
            w.value(12, {"code": "200"})
            w.value(3, {"code": "500"})
            w.family("queue_depth", PromType.GAUGE)
            w.value(7.5)
            w.family("latency_seconds", PromType.SUMMARY, points=[0.5, 0.99])
            w.sketch(s, {"model": "a"})
            bounds = llmmetrics.prom_buckets(BucketList.VLLM_REQUEST_LATENCY)
            w.family("latency_hist_seconds", PromType.HISTOGRAM, points=bounds)
            w.sketch(s)
            text = w.finish().decode()
            self.assertEqual(w.finish().decode(), text)  # the writer keeps its contents
            samples = parse_text(text)
            got = {(n, tuple(sorted(lb.items()))): v for n, lb, v in samples}
            self.assertEqual(got[("requests_total", (("code", "500"),))], 3)
            self.assertEqual(got[("queue_depth", ())], 7.5)
            self.assertEqual(got[("latency_seconds", (("model", "a"), ("quantile", "0.99")))],
                             s.quantile(0.99))
            # a bound counts the values whose whole bucket lies at or below it (exact when
            # the bound is a bucket bound, else the bucket holding it is left out), and every
            # value when it is at or above the maximum
            hist = {float(lb["le"]): v for n, lb, v in samples
                    if n == "latency_hist_seconds_bucket"}
            for b in bounds:
                lower, upper = llmmetrics.bucket_bounds(6, llmmetrics.bucket_index(6, b))
                cut = b if upper == b else lower
                want = len(data) if b >= max(data) else sum(1 for x in data if x <= cut)
                self.assertEqual(hist[b], want, b)
            with self.assertRaises(InvalidState):
                w.family("queue_depth", PromType.GAUGE)  # name already used
            w.family("another", PromType.COUNTER)
            with self.assertRaises(InvalidState):
                w.sketch(s)  # not a histogram / summary family
            with self.assertRaises(InvalidArgument):
                w.value(-1)  # counters do not go down
            buf = bytearray(10)
            with self.assertRaises(llmmetrics.BufferTooSmall):
                w.finish_into(buf)
            big = bytearray(len(w.finish()) + 10)
            self.assertEqual(w.finish_into(big), len(w.finish()))
            self.assertEqual(bytes(big[:len(w.finish())]), w.finish())
            w.reset()
            self.assertEqual(w.finish(), b"")

    def test_bounded_classic_fallback(self) -> None:
        # 600 values over six decades touch hundreds of buckets; text stays bounded
        data = [1e-3 * 10 ** (6 * k / 599) for k in range(600)]
        with Sketch() as s, PromWriter() as w:
            s.add_many(data)

            def les(name: str) -> list:
                return [lb["le"] for n, lb, v in parse_text(w.finish().decode())
                        if n == name + "_bucket"]

            w.family("default_seconds", PromType.NATIVE_HISTOGRAM)
            w.sketch(s)
            duration = llmmetrics.prom_buckets(BucketList.OTEL_GENAI_DURATION)
            self.assertEqual([float(x) for x in les("default_seconds")[:-1]], list(duration))
            w.set_classic_list(BucketList.OTEL_GENAI_TTFT)
            w.family("ttft_seconds", PromType.HISTOGRAM)
            w.sketch(s)
            self.assertEqual(len(les("ttft_seconds")), 16 + 1)
            w.set_classic_max(20)
            w.family("grid_seconds", PromType.NATIVE_HISTOGRAM)
            w.sketch(s)
            samples = parse_text(w.finish().decode())
            grid = [(float(lb["le"]), v) for n, lb, v in samples
                    if n == "grid_seconds_bucket" and lb["le"] != "+Inf"]
            self.assertTrue(3 <= len(grid) <= 20, len(grid))
            for le, count in grid:  # the grid's counts are exact
                self.assertEqual(count, sum(1 for x in data if x <= le), le)
            for bad in (0, 2, -1):
                with self.assertRaises(InvalidArgument, msg=bad):
                    w.set_classic_max(bad)
            with self.assertRaises(llmmetrics.OutOfRange):
                w.set_classic_max(2 ** 32)
            with self.assertRaises(InvalidArgument):
                w.set_classic_list(99)

    def test_protobuf_native_histogram(self) -> None:
        with Sketch() as s, PromWriter(PromFormat.PROTOBUF) as w:
            s.add_many(lognormal(500, seed=82))
            w.family("lat_seconds", PromType.NATIVE_HISTOGRAM, "latency")
            w.sketch(s, {"model": "a"})
            data = w.finish()
            # length-delimited MetricFamily: a varint length, then the message
            n, shift, i = 0, 0, 0
            while True:
                b = data[i]
                n |= (b & 0x7F) << shift
                i += 1
                shift += 7
                if not b & 0x80:
                    break
            self.assertEqual(i + n, len(data))
            self.assertIn(b"lat_seconds", data)
            self.assertEqual(w.content_type, llmmetrics.prom_content_type(PromFormat.PROTOBUF))
            w.reset(PromFormat.TEXT)
            self.assertEqual(w.format, PromFormat.TEXT)

    def test_negotiation_and_bucket_lists(self) -> None:
        proto = ("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
                 "encoding=delimited")
        self.assertEqual(llmmetrics.prom_negotiate(proto + ";q=0.7,text/plain;q=0.3")[0],
                         PromFormat.PROTOBUF)
        self.assertEqual(llmmetrics.prom_negotiate("text/plain")[0], PromFormat.TEXT)
        fmt, ctype = llmmetrics.prom_negotiate(None)
        self.assertEqual((fmt, ctype), (PromFormat.TEXT,
                                         "text/plain; version=0.0.4; charset=utf-8"))
        with self.assertRaises(InvalidArgument):
            llmmetrics.prom_content_type(9)
        ttft = llmmetrics.prom_buckets(BucketList.VLLM_TTFT)
        self.assertEqual((len(ttft), ttft[0], ttft[-1]), (22, 0.001, 2560.0))
        self.assertEqual(llmmetrics.prom_buckets(BucketList.OTEL_GENAI_DURATION),
                         tuple(0.01 * 2 ** k for k in range(14)))
        self.assertEqual(llmmetrics.prom_buckets(BucketList.OTEL_GENAI_TOKENS),
                         tuple(float(4 ** k) for k in range(14)))
        with self.assertRaises(InvalidArgument):
            llmmetrics.prom_buckets(99)


class Otlp(unittest.TestCase):
    def check_point(self, p, s: Sketch) -> None:
        self.assertEqual(int(p["count"]), s.count)
        self.assertEqual(p["sum"], s.sum)
        self.assertEqual((p["min"], p["max"]), (s.min, s.max))
        counts = [int(c) for c in p["positive"]["bucketCounts"]]
        self.assertEqual(sum(counts) + int(p["zeroCount"]), s.count)

    def test_point_matches_the_sketch(self) -> None:
        with Sketch() as s:
            s.add_many(lognormal(2000, seed=83) + [0.0])
            p = json.loads(llmmetrics.otlp_json_point(s, time_unix_nano=123,
                                                      attributes={"gen_ai.system": "x"}))
            self.check_point(p, s)
            self.assertEqual(p["scale"], 6)
            self.assertEqual(p["timeUnixNano"], "123")
            self.assertEqual(p["positive"]["offset"], s.bucket_span()[0])
            self.assertEqual([int(c) for c in p["positive"]["bucketCounts"]],
                             [b.count for b in s.buckets(include_empty=True)])
            self.assertEqual(p["attributes"][0]["key"], "gen_ai.system")
            small = json.loads(llmmetrics.otlp_json_point(s, max_buckets=20))
            self.assertLessEqual(len(small["positive"]["bucketCounts"]), 20)
            self.assertLess(small["scale"], 6)
            self.check_point(small, s)

    def test_delta_and_request(self) -> None:
        with Sketch() as early, Sketch() as late:
            a, b = lognormal(300, seed=84), lognormal(200, seed=85)
            early.add_many(a)
            late.add_many(a + b)
            d = json.loads(llmmetrics.otlp_json_point(late, early,
                                                      temporality=OtlpTemporality.DELTA))
            self.assertEqual(int(d["count"]), len(b))
            with self.assertRaises(InvalidArgument):
                llmmetrics.otlp_json_point(late, early)  # delta needs DELTA temporality
            with self.assertRaises(InvalidState):
                llmmetrics.otlp_json_point(early, late, temporality=OtlpTemporality.DELTA)
            req = json.loads(llmmetrics.otlp_json(late, "gen_ai.server.request.duration",
                                                  description="d", unit="s",
                                                  resource_attributes={"service.name": "x"}))
            rm = req["resourceMetrics"][0]
            metric = rm["scopeMetrics"][0]["metrics"][0]
            self.assertEqual(metric["name"], "gen_ai.server.request.duration")
            self.assertEqual(metric["exponentialHistogram"]["aggregationTemporality"], 2)
            self.check_point(metric["exponentialHistogram"]["dataPoints"][0], late)
            self.assertEqual(rm["resource"]["attributes"][0]["key"], "service.name")
            with self.assertRaises(InvalidArgument):
                llmmetrics.otlp_json(late, "")


if __name__ == "__main__":
    unittest.main()
