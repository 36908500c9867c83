#!/usr/bin/env python3
"""Suite 'cli': `llmm knee`, `merge`, `quantiles`, `capacity` and the SVG charts, run on
small data with known answers (closed forms, doc/spec.md values, an independent Python
computation) and on garbage. Standard library only; the SVG files are parsed with
xml.etree.

usage: cli_analysis_test.py PATH/TO/llmm
"""
import json
import math
import os
import random
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import REL, run  # noqa: E402
from cli_test import expected, make_requests, nearest_rank, vllm_doc  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def usl(lam, sigma, kappa, n):
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


def classes(e):
    return (e.get("class") or "").split()


def svg_all(root, cls):
    return [e for e in root.iter() if cls in classes(e)]


def svg_texts(root, cls):
    return ["".join(e.itertext()) for e in svg_all(root, cls)]


class Base(cli_common.Base):
    def ok_json(self, *args):
        p = run(*args)
        self.assertEqual(p.returncode, 0, (args, p.stderr))
        return json.loads(p.stdout)

    def assert_fails(self, args, code, *words):
        p = run(*args)
        self.assertEqual(p.returncode, code, (args, p.stdout, p.stderr))
        self.assertEqual(p.stdout, "", args)
        for w in words:
            self.assertIn(w, p.stderr, args)
        return p

    def svg(self, path):
        root = ET.parse(path).getroot()
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        self.assertEqual(len(svg_texts(root, "title")), 1)
        labels = svg_texts(root, "axis-label")
        self.assertEqual(len(labels), 2)
        self.assertTrue(all(labels), labels)
        self.assertGreaterEqual(len(svg_texts(root, "x-tick")), 3)
        self.assertGreaterEqual(len(svg_texts(root, "y-tick")), 3)
        return root


# ---- llmm knee ---------------------------------------------------------------------------


USL_PARAMS = (10.0, 0.05, 0.001)


def usl_sweep(with_p99=False, header=True, repeats=False, shuffle=False):
    lam, sigma, kappa = USL_PARAMS
    rows = []
    for n in range(1, 61):
        x = usl(lam, sigma, kappa, n)
        p99 = 2000.0 * n / x  # twice the USL latency, in ms
        if repeats:  # symmetric noise averages out exactly
            for e in (0.25, -0.25):
                rows.append((n, x + e, p99 + e))
        else:
            rows.append((n, x, p99))
    if shuffle:
        random.Random(3).shuffle(rows)
    lines = ["concurrency,qps,p99_ms" if with_p99 else "concurrency,qps"] if header else []
    for n, x, p in rows:
        lines.append("%d,%r,%r" % (n, x, p) if with_p99 else "%d,%r" % (n, x))
    return "\n".join(lines) + "\n"


class Knee(Base):
    def test_usl_exact_and_slo_capacity(self):
        lam, sigma, kappa = USL_PARAMS
        path = self.write("usl.csv", usl_sweep(with_p99=True))
        rep = self.ok_json("knee", "--json", "--slo-ms", "3000", path)
        u = rep["estimators"]["usl"]
        self.assertEqual(u["status"], "ok")
        self.assertAlmostEqual(u["lambda"], lam, delta=1e-6 * lam)
        self.assertAlmostEqual(u["sigma"], sigma, delta=1e-7)
        self.assertAlmostEqual(u["kappa"], kappa, delta=1e-9)
        self.assertEqual(u["n_max"], math.floor(math.sqrt((1 - sigma) / kappa)))  # 30
        self.assertAlmostEqual(u["x_max"], usl(lam, sigma, kappa, 30), delta=1e-6)
        self.assertGreater(u["r2"], 0.999999)
        self.assertEqual(u["quality"], "ok")
        # SLO: kappa N^2 + (sigma - kappa) N + (1 - sigma) <= lambda L, upper root
        L = 3.0
        b = sigma - kappa
        root = (-b + math.sqrt(b * b + 4 * kappa * (lam * L - 1 + sigma))) / (2 * kappa)
        slo = rep["slo"]
        self.assertEqual(slo["usl_concurrency"], math.floor(root))
        self.assertAlmostEqual(slo["usl_qps"], usl(lam, sigma, kappa, math.floor(root)),
                               delta=1e-6)
        # measured: p99 = 2 N / X(N) s <= 3 s up to the largest such N
        meas = max(n for n in range(1, 61) if 2.0 * n / usl(lam, sigma, kappa, n) <= L)
        self.assertEqual(slo["measured_concurrency"], meas)
        self.assertAlmostEqual(slo["measured_qps"], usl(lam, sigma, kappa, meas), delta=1e-9)
        self.assertEqual(rep["input"], {"file": path, "rows": 60, "points": 60,
                                        "has_p99": True, "built_from": "a table"})
        # no SLO asked: null; no p99 column: no measured capacity
        rep = self.ok_json("knee", "--json", self.write("u2.csv", usl_sweep()))
        self.assertIsNone(rep["slo"])
        rep = self.ok_json("knee", "--json", "--slo-ms", "3000", self.write("u2.csv",
                                                                            usl_sweep()))
        self.assertIsNone(rep["slo"]["measured_concurrency"])
        self.assertEqual(rep["slo"]["usl_concurrency"], math.floor(root))

    def test_cubic_inflection(self):
        # y = -0.01 x^3 + 1.5 x^2 + 10 x + 5: inflection at -b / (3a) = 50
        lines = ["%d,%r" % (x, -0.01 * x ** 3 + 1.5 * x ** 2 + 10 * x + 5) for x in range(1, 81)]
        path = self.write("cubic.csv", "\n".join(lines) + "\n")
        rep = self.ok_json("knee", "--json", path)
        k = rep["estimators"]["inflection"]
        self.assertAlmostEqual(k["knee"], 50.0, delta=1e-9 * 50)
        self.assertEqual(k["quality"], "ok")
        self.assertAlmostEqual(k["strength"], 1.0, delta=1e-12)  # R^2 of an exact cubic
        self.assertAlmostEqual(k["qps"], -0.01 * 50 ** 3 + 1.5 * 50 ** 2 + 10 * 50 + 5,
                               delta=1e-6)
        # a trim that cuts the inflection out of the retained range: no knee, not an error
        # (N* = 0.015 / 0.003 = 5, below the retained 9 ... 72)
        lines = ["%d,%r" % (x, -0.001 * x ** 3 + 0.015 * x ** 2 + 10 * x + 5)
                 for x in range(1, 81)]
        rep = self.ok_json("knee", "--json", self.write("c2.csv", "\n".join(lines) + "\n"))
        self.assertEqual(rep["estimators"]["inflection"]["quality"], "none")
        self.assertIsNone(rep["estimators"]["inflection"]["knee"])

    def test_collapse_and_kneedle_on_a_broken_line(self):
        # QPS = 10 N up to N = 20, then flat: growth collapses exactly at 20
        n = list(range(1, 41))
        q = [10.0 * min(x, 20) for x in n]
        path = self.write("line.csv", "".join("%d,%r\n" % (a, b) for a, b in zip(n, q)))
        rep = self.ok_json("knee", "--json", path)
        c = rep["estimators"]["collapse"]
        self.assertEqual(c["quality"], "ok")
        self.assertAlmostEqual(c["knee"], 20.0, delta=1e-12)
        self.assertAlmostEqual(c["qps"], 200.0, delta=1e-9)
        self.assertAlmostEqual(c["strength"], 1.0, delta=1e-12)  # growth stopped entirely
        # Kneedle by its definition: d = yhat - xhat, maximum at N = 20, refined by the
        # vertex of the parabola through N = 19, 20, 21
        xh = [(x - 1) / 39.0 for x in n]
        yh = [(y - 10.0) / 190.0 for y in q]
        d = [a - b for a, b in zip(yh, xh)]
        i = max(range(len(d)), key=lambda j: d[j])
        self.assertEqual(n[i], 20)
        dm, d0, dp = d[i - 1], d[i], d[i + 1]
        vertex = n[i] + 0.5 * (dm - dp) / (dm - 2 * d0 + dp)
        k = rep["estimators"]["kneedle"]
        self.assertEqual(k["quality"], "ok")
        self.assertAlmostEqual(k["knee"], vertex, delta=1e-9)
        self.assertAlmostEqual(k["strength"], d0, delta=1e-12)
        self.assertAlmostEqual(k["qps"], 10.0 * min(vertex, 20), delta=1e-9)

    def test_repeats_are_averaged_and_header_is_optional(self):
        exact = self.ok_json("knee", "--json", self.write("a.csv", usl_sweep(with_p99=True)))
        rep = self.ok_json("knee", "--json", self.write(
            "b.csv", usl_sweep(with_p99=True, header=False, repeats=True, shuffle=True)))
        self.assertEqual(rep["input"]["rows"], 120)
        self.assertEqual(rep["input"]["points"], 60)
        for a, b in zip(exact["points"], rep["points"]):
            self.assertEqual(a["concurrency"], b["concurrency"])
            self.assertAlmostEqual(a["qps"], b["qps"], delta=1e-12 * a["qps"])
            self.assertAlmostEqual(a["p99_ms"], b["p99_ms"], delta=1e-12 * a["p99_ms"])
        for key in ("lambda", "sigma", "kappa", "n_max"):
            self.assertAlmostEqual(rep["estimators"]["usl"][key],
                                   exact["estimators"]["usl"][key],
                                   delta=1e-6 * abs(exact["estimators"]["usl"][key]))
        for est in ("inflection", "collapse", "kneedle"):
            self.assertAlmostEqual(rep["estimators"][est]["knee"],
                                   exact["estimators"][est]["knee"], delta=1e-6)

    def test_text_side_by_side(self):
        p = run("knee", "--slo-ms", "3000", self.write("u.csv", usl_sweep(with_p99=True)))
        self.assertEqual(p.returncode, 0, p.stderr)
        for s in ("cubic inflection", "growth collapse", "kneedle", "USL peak N_max",
                  "Definitions:", "quality", "SLO-constrained capacity", "measured P99",
                  "USL latency N/X(N)", "lambda = 10"):
            self.assertIn(s, p.stdout)
        # stdin
        p2 = run("knee", "-", stdin=usl_sweep(with_p99=True))
        self.assertEqual(p2.returncode, 0, p2.stderr)
        self.assertIn("USL peak N_max", p2.stdout)

    def test_bundled_sweep(self):
        rep = self.ok_json("knee", "--json", "--slo-ms", "500",
                           os.path.join(DATA, "sweep_small.csv"))
        # 8 levels 10 ... 80 from 16 rows; QPS = min(30 N, 600): collapse at N = 20
        self.assertEqual(rep["input"]["rows"], 16)
        self.assertEqual(rep["input"]["points"], 8)
        self.assertAlmostEqual(rep["estimators"]["collapse"]["knee"], 20.0, delta=1e-9)
        # p99 column: 100, 150, 200, ... ms per level; <= 500 up to N = 70
        self.assertEqual(rep["slo"]["measured_concurrency"], 70)

    def test_garbage(self):
        cases = [
            ("words.csv", "concurrency,qps\n1,2\n2,abc\n3,4\n", "words.csv:3", "qps 'abc'"),
            ("fields.csv", "1,2\n2,3,4\n3,4\n", "fields.csv:2", "fields"),
            ("many.csv", "1,2,3,4,5\n", "many.csv:1", "fields"),
            ("neg.csv", "1,2\n-2,3\n3,4\n", "neg.csv:2", "concurrency"),
            ("negq.csv", "1,2\n2,-3\n3,4\n", "negq.csv:2", "qps"),
            ("nan.csv", "1,2\n2,NaN\n3,4\n", "nan.csv:2", "not a number"),
            ("empty.csv", "", "empty.csv", "no data rows"),
            ("header.csv", "concurrency,qps\n", "header.csv", "no data rows"),
            ("two.csv", "1,2\n2,3\n1,5\n", "two.csv", "at least 3"),
            ("badhdr.csv", "a\n1,2\n", "badhdr.csv:1", "header"),
            ("bin.csv", "1,2\n\x01\x02\x03,\xff\n3,4\n", "bin.csv:2", "not a number"),
            ("binhdr.csv", "\x01\x02\x03,\xff\n", "binhdr.csv", "no data rows"),
        ]
        for name, text, where, what in cases:
            path = self.write(name, text)
            self.assert_fails(["knee", path], 1, where, what)
            self.assert_fails(["knee", "--json", path], 1, where)
        self.assert_fails(["knee", os.path.join(self.dir, "missing.csv")], 1, "missing.csv")

    def test_file_over_the_limit(self):
        # a sweep file of 256 MiB and one byte is refused as too large (the reader took up to
        # 512 MiB while saying 256), without being read: it is sparse, all NUL bytes
        path = os.path.join(self.dir, "huge.csv")
        with open(path, "wb") as f:
            f.truncate((256 << 20) + 1)
        self.assert_fails(["knee", path], 1, "huge.csv: larger than 256 MiB")
        self.assert_fails(["quantiles", path], 1, "huge.csv: larger than 256 MiB")

    def test_usage_errors(self):
        f = self.write("u.csv", usl_sweep())
        for args in (["knee"], ["knee", f, f], ["knee", "--trim", "0.9", f],
                     ["knee", "--smooth", "2", f], ["knee", "--slo-ms", "0", f],
                     ["knee", "--collapse-fraction", "1", f], ["knee", "--sensitivity", "-1", f],
                     ["knee", "--bogus", f], ["knee", "--svg"]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertTrue(p.stderr.strip())
        # one message per error (a --smooth that is not a number was reported twice)
        for bad in ("x", "200001"):
            p = run("knee", "--smooth", bad, f)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(p.stderr, "llmm knee: --smooth: '%s' is not a number in "
                             "[0, 100001]\n" % bad)


# ---- sketch files: report --save-sketch, merge, quantiles -------------------------------


def csv_trace(reqs):
    lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
    for r in reqs:
        if r["error"]:
            lines.append("%r,,,0,500" % r["start"])
        else:
            lines.append("%r,%r,%r,%d,ok" % (r["start"], r["ttft"], r["latency"], r["out"]))
    return "\n".join(lines) + "\n"


class Sketches(Base):
    def save(self, name, *files):
        d = os.path.join(self.dir, name)
        p = run("report", "--save-sketch", d, *files)
        self.assertEqual(p.returncode, 0, p.stderr)
        for m in ("ttft", "tpot", "itl", "e2e"):
            self.assertIn(os.path.join(d, m + ".llmm"), p.stderr)
        return d

    def quant(self, path, *q):
        return self.ok_json("quantiles", "--json", "--buckets", path, *q)

    def test_merge_equals_one_sketch_of_everything(self):
        hosts = [make_requests(40 + h, 700 + 150 * h) for h in range(3)]
        files = [self.write("h%d.json" % h, json.dumps(vllm_doc(r, 30.0)))
                 for h, r in enumerate(hosts)]
        dirs = [self.save("s%d" % h, f) for h, f in enumerate(files)]
        alld = self.save("all", *files)
        everything = [r for rs in hosts for r in rs]
        want = expected(everything)
        for m, key in (("ttft", "ttft_s"), ("tpot", "tpot_s"), ("itl", "itl_s"),
                       ("e2e", "e2e_s")):
            out = os.path.join(self.dir, "merged_%s.llmm" % m)
            p = run("merge", "-o", out, *[os.path.join(d, m + ".llmm") for d in dirs])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("merged 3 sketch files", p.stdout)
            merged = self.quant(out)
            one = self.quant(os.path.join(alld, m + ".llmm"))
            self.assertGreater(len(one["buckets"]), 20)
            self.assertEqual(merged["buckets"], one["buckets"])  # bucket for bucket
            for k in ("count", "min", "max", "scale", "zero", "below_range", "above_range",
                      "range", "quantiles"):
                self.assertEqual(merged[k], one[k], (m, k))
            self.assertAlmostEqual(merged["sum"], one["sum"], delta=1e-12 * one["sum"])
            # and against the values themselves: count, min, max exact, quantiles within the
            # relative error of the nearest-rank value
            vals = want[key]
            self.assertEqual(one["count"], len(vals))
            self.assertEqual(one["min"], vals[0])
            self.assertEqual(one["max"], vals[-1])
            for e in one["quantiles"]:
                exact = nearest_rank(vals, e["q"])
                self.assertLessEqual(abs(e["value"] - exact), REL * exact * (1 + 1e-9),
                                     (m, e["q"]))

    def test_quantile_arguments_and_text(self):
        d = self.save("s", self.write("t.json", json.dumps(vllm_doc(make_requests(5, 400),
                                                                    16.0))))
        f = os.path.join(d, "ttft.llmm")
        vals = [self.quant(f, q)["quantiles"][0]["value"] for q in ("0.99", "p99", "99%")]
        self.assertEqual(len(set(vals)), 1)
        self.assertEqual([e["q"] for e in self.quant(f, "0", "1", "p50")["quantiles"]],
                         [0, 1, 0.5])
        self.assertEqual(len(self.quant(f)["quantiles"]), 6)
        p = run("quantiles", f, "p99.9")
        self.assertEqual(p.returncode, 0)
        for s in ("values, scale 6", "0.542 % relative error", "min", "0.999"):
            self.assertIn(s, p.stdout)
        p = run("quantiles", "--buckets", f)
        self.assertIn("(lower, upper]", p.stdout)
        for args in (["quantiles"], ["quantiles", f, "1.5"], ["quantiles", f, "abc"],
                     ["quantiles", "--bogus", f], ["merge", f], ["merge", "-o"],
                     ["merge", "-o", os.path.join(self.dir, "x.llmm")]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertTrue(p.stderr.strip())

    def test_files_of_1_0_and_named_rules(self):
        """1.0's two bug-shaped snapshots (tests/data/v1_0) read with a warning and their
        extremes repaired; an intact file breaking another rule of doc/format.md 3.4 is
        refused with that rule named, not called damaged."""
        import struct
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                        "..", "..", "tests", "unit"))
        from test_codec_reader import crc32c  # noqa: E402
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                            "tests", "data", "v1_0")
        for name, repaired in (("v1_0_max_below_buckets.llmm", "max"),
                               ("v1_0_min_above_buckets.llmm", "min")):
            p = run("quantiles", os.path.join(data, name))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("warning", p.stderr)
            self.assertIn("rule 6", p.stderr)
            self.assertIn("101 values", p.stdout)
            words = p.stdout.split()
            value = float(words[words.index(repaired) + 1])
            want = 0.75 if repaired == "max" else 0.25  # the extreme in-range value
            self.assertLessEqual(abs(value - want), want * REL + 5e-7, p.stdout)  # 6 digits
        with open(os.path.join(data, "v1_0_max_below_buckets.llmm"), "rb") as fh:
            blob = bytearray(fh.read())
        blob[38:46] = struct.pack("<d", -1.0)  # the sum: rule 7
        blob[-4:] = struct.pack("<I", crc32c(bytes(blob[:-4])))
        path = os.path.join(self.dir, "negative-sum.llmm")
        with open(path, "wb") as fh:
            fh.write(blob)
        p = run("quantiles", path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("rule 7", p.stderr)
        self.assertNotIn("damaged", p.stderr)

    def test_corrupt_files(self):
        d = self.save("s", self.write("t.json", json.dumps(vllm_doc(make_requests(6, 300),
                                                                    12.0))))
        good = os.path.join(d, "e2e.llmm")
        with open(good, "rb") as fh:
            blob = fh.read()

        def put(name, data):
            path = os.path.join(self.dir, name)
            with open(path, "wb") as fh:
                fh.write(data)
            return path

        flipped = bytearray(blob)
        flipped[len(blob) // 2] ^= 0x10
        bad = {
            "truncated.llmm": blob[:len(blob) - 3],
            "flipped.llmm": bytes(flipped),
            "extended.llmm": blob + b"\0",
            "text.llmm": b"ttft_s,e2e_s\n0.1,0.2\n",
            "random.llmm": bytes(random.Random(9).getrandbits(8) for _ in range(300)),
        }
        for name, data in bad.items():
            path = put(name, data)
            self.assert_fails(["quantiles", path], 1, name, "not an intact llmm sketch")
            out = os.path.join(self.dir, "out.llmm")
            self.assert_fails(["merge", "-o", out, good, path], 1, name)
            self.assertFalse(os.path.exists(out))
        self.assert_fails(["quantiles", put("empty.llmm", b"")], 1, "empty file")
        self.assert_fails(["quantiles", os.path.join(self.dir, "none.llmm")], 1, "none.llmm")
        # a good file still reads
        self.assertEqual(self.quant(good)["count"], len(expected(make_requests(6, 300))["e2e_s"]))


# ---- llmm capacity -----------------------------------------------------------------------


class Capacity(Base):
    def test_spec_reference_values(self):
        rep = self.ok_json("capacity", "--json", "--p999-ms", "150,200,250", "--concurrency", "45")
        self.assertEqual([e["tps"] for e in rep["littles_law"]], [255.0, 191.25, 153.0])
        self.assertEqual(rep["littles_law"][0]["safety"], 0.85)
        rep = self.ok_json("capacity", "--json", "--peak-flops", "312T", "--bandwidth", "2039G",
                           "--flops", "2048", "--bytes", "128")
        r = rep["roofline"]
        self.assertAlmostEqual(r["critical_intensity"], 153.0, delta=0.05)
        self.assertEqual(r["intensity"], 16.0)
        self.assertAlmostEqual(r["attainable_flops"], 32.624e12, delta=1e3)
        self.assertAlmostEqual(r["decay"], 0.89544, delta=5e-6)
        self.assertEqual(r["bound"], "memory")
        rep = self.ok_json("capacity", "--json", "--peak-flops", "756e12", "--bandwidth", "4000G")
        self.assertAlmostEqual(rep["roofline"]["critical_intensity"], 189.0, delta=1e-9)
        self.assertIsNone(rep["roofline"]["intensity"])
        rep = self.ok_json("capacity", "--json", "--ideal", "184,368,736",
                           "--measured", "172,329,612")
        for e, want in zip(rep["scaling"], (0.0652, 0.1060, 0.1685)):
            self.assertAlmostEqual(e["decay"], want, delta=5e-5)
        rep = self.ok_json("capacity", "--json", "--single", "92", "--devices", "2",
                           "--measured", "172")
        self.assertAlmostEqual(rep["scaling"][0]["decay"], 0.0652, delta=5e-5)
        self.assertEqual(rep["scaling"][0]["ideal"], 184)
        rep = self.ok_json("capacity", "--json", "--comm-ms", "0.82", "--step-ms", "3.5")
        self.assertAlmostEqual(rep["comm_share"]["share"], 0.2343, delta=5e-5)
        for short, long_, want in ((1127, 693, 0.3851), (1210, 1056, 0.1273),
                                   (612, 341, 0.4428)):
            rep = self.ok_json("capacity", "--json", "--tps-short", str(short),
                               "--tps-long", str(long_))
            self.assertAlmostEqual(rep["seqlen_decay"]["decay"], want, delta=5e-5)
        rep = self.ok_json("capacity", "--json", "--actual", "693", "--peak", "1127")
        self.assertAlmostEqual(rep["decay"]["eta"], 1 - 693 / 1127, delta=1e-15)
        # every figure at once, as text
        p = run("capacity", "--p999-ms", "150", "--concurrency", "45", "--safety", "1",
                "--peak-flops", "312T", "--bandwidth", "2039G", "--intensity", "200",
                "--comm-ms", "0.82", "--step-ms", "3.5")
        self.assertEqual(p.returncode, 0, p.stderr)
        for s in ("P99.9 150 ms -> 300 requests/s", "I_crit", "153.016", "compute-bound",
                  "0.2343"):
            self.assertIn(s, p.stdout)

    def test_out_of_domain_and_usage(self):
        for args in (["--p999-ms", "0", "--concurrency", "45"],
                     ["--p999-ms", "150", "--concurrency", "-1"],
                     ["--p999-ms", "150", "--concurrency", "45", "--safety", "1.5"],
                     ["--comm-ms", "5", "--step-ms", "3.5"],
                     ["--peak-flops", "0", "--bandwidth", "1G"],
                     ["--ideal", "0", "--measured", "5"],
                     ["--tps-short", "0", "--tps-long", "5"]):
            p = run("capacity", *args)
            self.assertEqual(p.returncode, 1, (args, p.stdout, p.stderr))
            self.assertTrue(p.stderr.strip())
            p = run("capacity", "--json", *args)
            self.assertEqual(p.returncode, 1, args)
            self.assertEqual(p.stdout, "", args)
        for args in ([], ["--p999-ms", "150"], ["--concurrency", "45"], ["--actual", "3"],
                     ["--p999-ms", "abc", "--concurrency", "45"], ["--peak-flops", "1T"],
                     ["--ideal", "1,2", "--measured", "1"], ["--intensity", "5"],
                     ["--single", "5", "--devices", "1.5", "--measured", "3"], ["extra"],
                     ["--bogus"]):
            p = run("capacity", *args)
            self.assertEqual(p.returncode, 2, (args, p.stdout, p.stderr))
            self.assertTrue(p.stderr.strip())


# ---- charts ------------------------------------------------------------------------------


class Charts(Base):
    def test_knee_chart(self):
        path = self.write("u.csv", usl_sweep(with_p99=True))
        d = os.path.join(self.dir, "svg")
        p = run("knee", "--slo-ms", "3000", "--svg", d, path)
        self.assertEqual(p.returncode, 0, p.stderr)
        svg = os.path.join(d, "qps_vs_concurrency.svg")
        self.assertIn(svg, p.stdout)
        rep = self.ok_json("knee", "--json", "--slo-ms", "3000", path)
        root = self.svg(svg)
        labels = svg_texts(root, "axis-label")
        self.assertIn("concurrency", labels[0])
        self.assertIn("QPS", labels[1])
        legend = svg_texts(root, "legend-entry")
        for s in ("cubic fit", "USL fit", "measured QPS",
                  "SLO 3000 ms: measured P99 N = %g" % rep["slo"]["measured_concurrency"]):
            self.assertTrue(any(s in e for e in legend), (s, legend))
        knees = [k for k in ("inflection", "collapse", "kneedle")
                 if rep["estimators"][k]["quality"] != "none"]
        names = {"inflection": "cubic inflection knee", "collapse": "growth collapse knee",
                 "kneedle": "kneedle knee"}
        for k in knees:
            want = "%s N = %.1f" % (names[k], rep["estimators"][k]["knee"])
            self.assertTrue(any(e.startswith(want) for e in legend), (want, legend))
        self.assertTrue(any(e.startswith("USL peak N_max = 30") for e in legend), legend)
        self.assertEqual(len(svg_all(root, "knee-marker")), len(knees) + 1)
        self.assertEqual(len(svg_all(root, "point")), 60)
        self.assertEqual(len(svg_all(root, "fit-cubic")), 1)
        self.assertEqual(len(svg_all(root, "fit-usl")), 1)
        # the USL's SLO concurrency lies beyond the axis (x up to 1.05 N_max or the data)
        self.assertGreater(rep["slo"]["usl_concurrency"], 100)
        self.assertEqual(len(svg_all(root, "slo-line")), 1)
        # --json keeps stdout JSON; the file name goes to stderr
        p = run("knee", "--json", "--svg", d, path)
        json.loads(p.stdout)
        self.assertIn(svg, p.stderr)

    def test_report_charts(self):
        reqs = make_requests(21, 600)
        path = self.write("r.json", json.dumps(vllm_doc(reqs, 24.0)))
        d = os.path.join(self.dir, "svg")
        p = run("report", "--svg", d, "--slo", "ttft=500ms,tpot=50ms,e2e=2s", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        pct = os.path.join(d, "latency_percentiles.svg")
        over = os.path.join(d, "p99_over_time.svg")
        self.assertIn(pct, p.stderr)
        self.assertIn(over, p.stderr)
        root = self.svg(pct)
        self.assertIn("latency (ms", svg_texts(root, "axis-label")[1])
        self.assertEqual(svg_texts(root, "x-tick"), ["P50", "P90", "P99", "P99.9", "P99.99"])
        legend = svg_texts(root, "legend-entry")
        self.assertEqual(legend, ["TTFT", "TPOT", "ITL", "E2E", "TTFT SLO 500 ms",
                                  "TPOT SLO 50 ms", "E2E SLO 2000 ms"])
        self.assertEqual(len(svg_all(root, "slo-line")), 3)
        self.assertEqual(len(svg_all(root, "pct-curve")), 4)
        self.assertEqual(len(svg_all(root, "pct-marker")), 4 * 5)
        root = self.svg(over)
        self.assertIn("time", svg_texts(root, "axis-label")[0])
        self.assertEqual(len(svg_all(root, "p99-curve")), 1)
        # without start times there is no time line: one chart and a note
        no_start = self.write("n.json", json.dumps(vllm_doc(make_requests(
            22, 200, with_start=False), 8.0)))
        d2 = os.path.join(self.dir, "svg2")
        p = run("report", "--svg", d2, no_start)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("no P99-over-time chart", p.stderr)
        self.assertEqual(sorted(os.listdir(d2)), ["latency_percentiles.svg"])

    def test_unwritable_svg_dir(self):
        path = self.write("u.csv", usl_sweep())
        blocker = self.write("file", "x")
        p = run("knee", "--svg", os.path.join(blocker, "sub"), path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot create", p.stderr)

    def test_demo_writes_every_chart(self):
        d = os.path.join(self.dir, "demo")
        p = run("demo", "--dir", d)
        self.assertEqual(p.returncode, 0, p.stderr)
        names = ("llmm-demo-vllm.json", "llmm-demo-sweep.csv", "latency_percentiles.svg",
                 "p99_over_time.svg", "qps_vs_concurrency.svg")
        for n in names:
            self.assertIn(n, p.stdout)
            self.assertTrue(os.path.exists(os.path.join(d, n)), n)
        for s in ("SYNTHETIC load sweep", "Knee estimators", "USL peak N_max",
                  "SLO-constrained capacity"):
            self.assertIn(s, p.stdout)
        # the spike markers are the spikes the report counted
        p = run("demo", "--json", "--dir", d)
        self.assertEqual(p.returncode, 0, p.stderr)
        rep = json.loads(p.stdout)
        sp = rep["spikes"]
        self.assertGreater(sp["level1"] + sp["level2"], 0)
        root = self.svg(os.path.join(d, "p99_over_time.svg"))
        self.assertEqual(len(svg_all(root, "spike-level1")), sp["level1"])
        self.assertEqual(len(svg_all(root, "spike-level2")), sp["level2"])
        legend = svg_texts(root, "legend-entry")
        self.assertIn("event model.weight_switch", legend)
        self.assertIn("spike (> P99 in force) (%d)" % sp["level1"], legend)
        self.assertEqual(len(svg_all(root, "event-line")), 1)
        # the sweep's chart marks every knee the knee command finds on the sweep
        knee = self.ok_json("knee", "--json", "--slo-ms", "1000",
                            os.path.join(d, "llmm-demo-sweep.csv"))
        root = self.svg(os.path.join(d, "qps_vs_concurrency.svg"))
        found = sum(1 for k in ("inflection", "collapse", "kneedle")
                    if knee["estimators"][k]["quality"] != "none")
        peak = knee["estimators"]["usl"]["n_max"] is not None
        self.assertEqual(len(svg_all(root, "knee-marker")), found + peak)
        self.assertEqual(len(svg_all(root, "point")), knee["input"]["points"])

    def test_help(self):
        for cmd in ("knee", "merge", "quantiles", "capacity"):
            for args in ([cmd, "--help"], ["help", cmd], [cmd, "-h"]):
                p = run(*args)
                self.assertEqual(p.returncode, 0, args)
                self.assertIn("usage: llmm " + cmd, p.stdout)
        p = run("--help")
        for cmd in ("knee", "merge", "quantiles", "capacity"):
            self.assertIn("  " + cmd, p.stdout)
        for opt in ("--svg DIR", "--save-sketch DIR"):
            self.assertIn(opt, run("report", "--help").stdout)


if __name__ == "__main__":
    cli_common.main()
