"""OTLP requests through the Python binding: the JSON form against the sketch's own answers
and raw counts, the protobuf form read back by a minimal wire reader written here (varints,
fixed64, length-delimited) and compared with the JSON form, spans, and refused inputs."""

from __future__ import annotations

import json
import math
import struct
import unittest

import llmmetrics
from llmmetrics import (InvalidArgument, OtlpEncoding, OtlpExemplar, OtlpMetric,
                        OtlpMetricType, OtlpPoint, OtlpSpan, OtlpSpanKind, OtlpStatusCode,
                        OtlpTemporality, Sketch, otlp_metrics, otlp_traces)

from support import lognormal


def read_varint(b: bytes, i: int):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def fields(b: bytes):
    """{field number: [raw value, ...]}: ints for varints, 8-byte blobs, nested bytes."""
    out, i = {}, 0
    while i < len(b):
        tag, i = read_varint(b, i)
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            v, i = read_varint(b, i)
        elif wire == 1:
            v, i = b[i:i + 8], i + 8
        elif wire == 2:
            n, i = read_varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise AssertionError("unexpected wire type %d" % wire)
        out.setdefault(num, []).append(v)
    return out


def u64(blob: bytes) -> int:
    return struct.unpack("<Q", blob)[0]


def f64(blob: bytes) -> float:
    return struct.unpack("<d", blob)[0]


def packed_varints(b: bytes):
    out, i = [], 0
    while i < len(b):
        v, i = read_varint(b, i)
        out.append(v)
    return out


class Metrics(unittest.TestCase):
    def setUp(self) -> None:
        self.values = lognormal(3000, seed=44)
        self.sk = Sketch(scale=5)
        self.sk.add_many(self.values)
        self.trace = bytes(range(1, 17))
        self.span = bytes(range(20, 28))
        self.metrics = [
            OtlpMetric("ttft", OtlpMetricType.EXPONENTIAL_HISTOGRAM, unit="s", points=[
                OtlpPoint(self.sk, attributes={"outcome": "ok"}, time_unix_nano=99,
                          exemplars=[OtlpExemplar(0.5, 7, self.trace, self.span,
                                                  {"k": 'v"'})])]),
            OtlpMetric("requests", OtlpMetricType.SUM, monotonic=True, points=[
                OtlpPoint(value=12, attributes='outcome="ok"')]),
        ]

    def test_json_against_the_sketch(self) -> None:
        doc = json.loads(otlp_metrics(self.metrics, encoding=OtlpEncoding.JSON))
        ms = doc["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]
        self.assertEqual([m["name"] for m in ms], ["ttft", "requests"])
        h = ms[0]["exponentialHistogram"]
        self.assertEqual(h["aggregationTemporality"], int(OtlpTemporality.CUMULATIVE))
        p = h["dataPoints"][0]
        self.assertEqual(int(p["count"]), len(self.values))
        self.assertEqual(p["scale"], 5)
        self.assertEqual(p["min"], min(self.values))
        self.assertEqual(p["max"], max(self.values))
        self.assertAlmostEqual(p["sum"], math.fsum(self.values), delta=1e-9 * p["sum"])
        # every bucket: the raw values counted here by the library's own index mapping
        counts = {}
        for v in self.values:
            i = llmmetrics.bucket_index(5, v)
            counts[i] = counts.get(i, 0) + 1
        off = p["positive"]["offset"]
        got = {off + k: int(c) for k, c in enumerate(p["positive"]["bucketCounts"]) if int(c)}
        self.assertEqual(got, counts)
        ex = p["exemplars"][0]
        self.assertEqual(ex["traceId"], self.trace.hex())
        self.assertEqual(ex["spanId"], self.span.hex())
        self.assertEqual(ex["filteredAttributes"][0]["value"]["stringValue"], 'v"')
        s = ms[1]["sum"]
        self.assertIs(s["isMonotonic"], True)
        self.assertEqual(s["dataPoints"][0]["asDouble"], 12)

    def test_protobuf_matches_json(self) -> None:
        doc = json.loads(otlp_metrics(self.metrics, encoding=OtlpEncoding.JSON))
        jp = doc["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0]
        jp = jp["exponentialHistogram"]["dataPoints"][0]
        pb = otlp_metrics(self.metrics)  # protobuf is the default
        rm = fields(fields(pb)[1][0])
        sm = fields(rm[2][0])
        metric = fields(sm[2][0])
        self.assertEqual(metric[1][0], b"ttft")
        point = fields(fields(metric[10][0])[1][0])
        self.assertEqual(u64(point[4][0]), int(jp["count"]))
        self.assertEqual(f64(point[5][0]), jp["sum"])
        scale = point[6][0]
        self.assertEqual((scale >> 1) ^ -(scale & 1), jp["scale"])
        pos = fields(point[8][0])
        off = pos[1][0]
        self.assertEqual((off >> 1) ^ -(off & 1), jp["positive"]["offset"])
        self.assertEqual(packed_varints(pos[2][0]),
                         [int(c) for c in jp["positive"]["bucketCounts"]])
        ex = fields(point[11][0])
        self.assertEqual(ex[5][0], self.trace)
        self.assertEqual(ex[4][0], self.span)
        self.assertEqual(f64(ex[3][0]), 0.5)
        self.assertEqual(f64(point[12][0]), jp["min"])
        self.assertEqual(f64(point[13][0]), jp["max"])

    def test_delta_and_errors(self) -> None:
        early = Sketch(scale=5)
        early.add_many(self.values[:1000])
        m = OtlpMetric("d", OtlpMetricType.EXPONENTIAL_HISTOGRAM,
                       temporality=OtlpTemporality.DELTA,
                       points=[OtlpPoint(self.sk, earlier=early)])
        p = json.loads(otlp_metrics([m], encoding=OtlpEncoding.JSON))
        p = p["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0]
        self.assertEqual(int(p["exponentialHistogram"]["dataPoints"][0]["count"]), 2000)
        with self.assertRaises(InvalidArgument):  # earlier on a cumulative metric
            otlp_metrics([OtlpMetric("d", OtlpMetricType.EXPONENTIAL_HISTOGRAM,
                                     points=[OtlpPoint(self.sk, earlier=early)])])
        with self.assertRaises(InvalidArgument):  # a histogram point without a sketch
            otlp_metrics([OtlpMetric("h", OtlpMetricType.HISTOGRAM, points=[OtlpPoint()])])
        with self.assertRaises(InvalidArgument):
            otlp_metrics([OtlpMetric("", OtlpMetricType.GAUGE)])
        with self.assertRaises(InvalidArgument):  # a trace id of the wrong length
            otlp_metrics([OtlpMetric("g", OtlpMetricType.GAUGE, points=[
                OtlpPoint(exemplars=[OtlpExemplar(1.0, trace_id=b"\1")])])])


class Traces(unittest.TestCase):
    def test_span_fields(self) -> None:
        sp = OtlpSpan(b"\xab" * 16, b"\x01" * 8, "chat", 5, 9, parent_span_id=b"\x02" * 8,
                      attributes={"tokens": 12, "ttft": 0.25, "outcome": "ok"},
                      status_code=OtlpStatusCode.STATUS_ERROR, status_message="503")
        doc = json.loads(otlp_traces([sp], encoding=OtlpEncoding.JSON,
                                     resource_attributes={"service.name": "x"}))
        s = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
        self.assertEqual(s["traceId"], "ab" * 16)
        self.assertEqual(s["parentSpanId"], "02" * 8)
        self.assertEqual(s["kind"], int(OtlpSpanKind.SPAN_CLIENT))
        self.assertEqual((s["startTimeUnixNano"], s["endTimeUnixNano"]), ("5", "9"))
        self.assertEqual([a["value"] for a in s["attributes"]],
                         [{"intValue": "12"}, {"doubleValue": 0.25}, {"stringValue": "ok"}])
        self.assertEqual(s["status"], {"message": "503", "code": 2})
        span = fields(fields(fields(fields(otlp_traces([sp]))[1][0])[2][0])[2][0])
        self.assertEqual(span[1][0], b"\xab" * 16)
        self.assertEqual(span[5][0], b"chat")
        self.assertEqual(span[6][0], 3)
        self.assertEqual((u64(span[7][0]), u64(span[8][0])), (5, 9))
        with self.assertRaises(InvalidArgument):  # end before start
            otlp_traces([OtlpSpan(b"\1" * 16, b"\1" * 8, "x", 9, 5)])
        with self.assertRaises(InvalidArgument):  # all-zero trace id
            otlp_traces([OtlpSpan(bytes(16), b"\1" * 8, "x", 1, 2)])
        with self.assertRaises(TypeError):
            otlp_traces([OtlpSpan(b"\1" * 16, b"\1" * 8, "x", 1, 2, attributes={"b": True})])


if __name__ == "__main__":
    unittest.main()
