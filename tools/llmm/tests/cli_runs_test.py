#!/usr/bin/env python3
"""Suite 'cli': the commands that look at runs one by one: `llmm compare` (a column per run)
and `llmm knee` on result files (a row per run of a sweep, or one run's in-run series),
checked against independent computations in Python.

usage: cli_runs_test.py PATH/TO/llmm
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import REL, run  # noqa: E402
from cli_formats_test import DATA, nearest_rank, vllm_want  # noqa: E402


def usl(lam, sigma, kappa, n):
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


def vllm_doc(n_req, duration, in_len, out_len, e2e, concurrency=None, starts=None):
    """A vllm bench serve --save-detailed document: n_req successful requests."""
    doc = {"date": "20260101-000000", "endpoint_type": "vllm", "backend": "vllm",
           "max_concurrency": concurrency, "duration": duration, "completed": n_req, "failed": 0,
           "input_lens": [in_len] * n_req, "output_lens": [out_len] * n_req,
           "ttfts": [e2e[i] / 4 for i in range(n_req)],
           "itls": [[] for _ in range(n_req)], "latencies": list(e2e),
           "errors": [""] * n_req}
    if starts is not None:
        doc["start_times"] = list(starts)
    return doc


class Base(cli_common.Base):
    def ok_json(self, *args):
        p = run(*args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)


class Compare(Base):
    def test_a_column_per_run(self):
        append = os.path.join(DATA, "vllm", "serve_append.json")
        legacy = os.path.join(DATA, "vllm", "legacy_benchmark_serving.json")
        rep = self.ok_json("compare", "--json", append, legacy)
        runs = rep["runs"]
        self.assertEqual([r["name"] for r in runs],
                         ["serve_append.json #1", "serve_append.json #2",
                          "legacy_benchmark_serving.json"])
        with open(append) as f:
            docs = [json.loads(line) for line in f]
        with open(legacy) as f:
            docs.append(json.load(f))
        for r, doc in zip(runs, docs):
            want = vllm_want(doc)
            self.assertEqual((r["requests"]["completed"], r["requests"]["failed"]),
                             (want.completed, want.failed))
            self.assertEqual(r["error_rate"], want.failed / (want.completed + want.failed))
            self.assertAlmostEqual(r["throughput"]["req_per_s"], want.completed / doc["duration"],
                                   places=12)
            for key, vals in (("ttft_s", want.ttft), ("e2e_s", want.e2e), ("tpot_s", want.tpot)):
                for q, k in ((0.5, "p50"), (0.99, "p99"), (0.999, "p99_9")):
                    if not vals:
                        self.assertIsNone(r[key][k])
                        continue
                    w = nearest_rank(vals, q)
                    self.assertLessEqual(abs(r[key][k] - w), REL * w, (r["name"], key, k))
        self.assertEqual(runs[1]["stated"]["concurrency"], 2)

    def test_statistics_only_runs_show_the_tools_figures(self):
        path = os.path.join(DATA, "genai-perf", "profile_export_genai_perf.json")
        with open(path) as f:
            doc = json.load(f)
        r = self.ok_json("compare", "--json", path)["runs"][0]
        self.assertTrue(r["statistics_only"])
        self.assertAlmostEqual(r["ttft_s"]["p99"], doc["time_to_first_token"]["p99"] * 1e-3,
                               places=15)
        self.assertEqual(r["ttft_s"]["from_tool"], ["p50", "p99"])
        self.assertIsNone(r["ttft_s"]["p99_9"])  # genai-perf has none: none is made up
        text = run("compare", path).stdout
        self.assertIn("217.61*", text)

    def test_sequence_length_decay(self):
        # doc/spec.md section 3's reference values: 1127 -> 693 tok/s gives 0.3851, 1210 ->
        # 1056 gives 0.1273, 612 -> 341 gives 0.4428 (half a unit of the last place)
        for short, long_, want in ((1127, 693, 0.3851), (1210, 1056, 0.1273),
                                   (612, 341, 0.4428)):
            a = self.write("short.json", json.dumps(vllm_doc(10, 10.0, 100, short, [0.5] * 10)))
            b = self.write("long.json", json.dumps(vllm_doc(10, 10.0, 1000, long_, [0.5] * 10)))
            rep = self.ok_json("compare", "--json", b, a)
            self.assertEqual(rep["runs"][0]["seqlen_decay_baseline"], 1)
            self.assertIsNone(rep["runs"][1]["seqlen_decay"])
            self.assertLessEqual(abs(rep["runs"][0]["seqlen_decay"] - want), 5e-5)
            self.assertAlmostEqual(rep["runs"][0]["seqlen_decay"], 1 - long_ / short, places=12)
        # runs of one input length: no decay
        rep = self.ok_json("compare", "--json", a, a)
        self.assertEqual([r["seqlen_decay_baseline"] for r in rep["runs"]], [None, None])

    def test_goodput_and_charts(self):
        path = os.path.join(DATA, "vllm", "serve_detailed.json")
        with open(path) as f:
            doc = json.load(f)
        out = os.path.join(self.dir, "charts")
        rep = self.ok_json("compare", "--json", "--slo", "ttft=200ms,tpot=50ms", "--svg", out,
                           path, path)
        for r in rep["runs"]:
            self.assertAlmostEqual(r["goodput_req_per_s"], doc["request_goodput"], places=12)
        with open(os.path.join(out, "compare_latency.svg")) as f:
            bars = f.read()
        # 2 runs x 9 latency quantiles, each measured
        self.assertEqual(len(re.findall(r'class="bar run-bar"', bars)), 18)
        with open(os.path.join(out, "compare_p99_vs_throughput.svg")) as f:
            scatter = f.read()
        self.assertEqual(len(re.findall(r'point-e2e', scatter)), 2)
        self.assertIn("TTFT P99", scatter)

    def test_usage(self):
        for args in (["compare"], ["compare", "--slo", "x=1", "a"], ["compare", "--format",
                                                                      "xml", "a"]):
            self.assertEqual(run(*args).returncode, 2, args)
        p = run("compare", self.write("e.json", ""))
        self.assertEqual(p.returncode, 1)
        self.assertIn("empty input", p.stderr)


USL = (100.0, 0.05, 0.002)
LEVELS = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64]


class KneeFromRuns(Base):
    def sweep_files(self, stated=True):
        paths, want = [], []
        for n in LEVELS:
            x = usl(*USL, n)
            reqs = 200
            duration = reqs / x
            # latencies around n / x (Little), spread so that P99 is the largest
            e2e = [n / x * (0.5 + i / reqs) for i in range(reqs)]
            doc = vllm_doc(reqs, duration, 100, 20, e2e, concurrency=n if stated else None)
            paths.append(self.write("c%03d.json" % n, json.dumps(doc)))
            want.append((n if stated else sum(e2e) / duration, x, 1e3 * nearest_rank(e2e, 0.99)))
        return paths, want

    def test_a_row_per_run(self):
        paths, want = self.sweep_files()
        rep = self.ok_json("knee", "--json", *paths)
        pts = rep["points"]
        self.assertEqual(len(pts), len(LEVELS))
        for p, (n, x, p99) in zip(pts, want):
            self.assertEqual(p["concurrency"], n)
            self.assertAlmostEqual(p["qps"], x, delta=1e-9 * x)
            self.assertLessEqual(abs(p["p99_ms"] - p99), REL * p99)
        self.assertIn("as each run states it", rep["input"]["built_from"])
        u = rep["estimators"]["usl"]
        self.assertAlmostEqual(u["lambda"], USL[0], delta=1e-6 * USL[0])
        self.assertAlmostEqual(u["sigma"], USL[1], delta=1e-7)
        self.assertAlmostEqual(u["kappa"], USL[2], delta=1e-9)
        # the same runs as one --append-result file
        both = self.write("all.json", "\n".join(open(p).read() for p in paths))
        self.assertEqual(self.ok_json("knee", "--json", both)["points"], pts)

    def test_measured_concurrency(self):
        paths, want = self.sweep_files(stated=False)
        rep = self.ok_json("knee", "--json", *paths)
        for p, (n, x, _) in zip(rep["points"], want):
            self.assertAlmostEqual(p["concurrency"], n, delta=1e-9 * n)
        self.assertIn("measured", rep["input"]["built_from"])

    def test_too_few_runs(self):
        p = run("knee", os.path.join(DATA, "guidellm", "benchmarks_v07.json"))  # 2 runs
        self.assertEqual(p.returncode, 1)
        self.assertIn("A sweep needs at least 3", p.stderr)
        table = self.write("t.csv", "concurrency,qps\n1,1\n2,2\n3,3\n")
        p = run("knee", table, os.path.join(DATA, "vllm", "serve_detailed.json"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("a table goes alone", p.stderr)


def series(starts, ends, step=0.05, window=1.0, trim=0.1):
    """doc/spec.md section 4's in-run series, independently: samples every `step` from the
    first full window, in flight and completions per second, ends trimmed, N > 0 kept,
    averaged per N."""
    t0, t1 = min(starts) + window, max(ends)
    ns = int(math.floor((t1 - t0) / step)) + 1
    lo = int(math.floor(trim * ns))
    by_n = {}
    for k in range(lo, ns - lo):
        t = t0 + k * step
        n = sum(1 for s in starts if s <= t) - sum(1 for e in ends if e <= t)
        q = (sum(1 for e in ends if e <= t) - sum(1 for e in ends if e <= t - window)) / window
        if n > 0:
            by_n.setdefault(n, []).append(q)
    return sorted((n, sum(v) / len(v)) for n, v in by_n.items())


class KneeSeries(Base):
    def test_in_run_series(self):
        # a ramp: the send rate grows, each request takes longer as more are in flight
        starts, e2e, t = [], [], 0.0
        for phase in range(1, 9):
            for _ in range(40 * phase):
                t += 1.0 / (10.0 * phase)
                starts.append(round(t, 6))
                e2e.append(round(0.2 + 0.03 * phase, 6))
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        lines += ["%r,%r,%r,5,ok" % (s, d / 4, d) for s, d in zip(starts, e2e)]
        path = self.write("trace.csv", "\n".join(lines) + "\n")
        rep = self.ok_json("knee", "--json", path)
        # on the run's own clock, from its first send, as the tool lays a run out
        rel = [s - starts[0] for s in starts]
        want = series(rel, [s + d for s, d in zip(rel, e2e)])
        got = [(p["concurrency"], p["qps"]) for p in rep["points"]]
        self.assertEqual([n for n, _ in got], [n for n, _ in want])
        for (_, a), (_, b) in zip(got, want):
            self.assertAlmostEqual(a, b, delta=1e-9 * max(1.0, b))
        self.assertIn("in-run series", rep["input"]["built_from"])
        self.assertFalse(rep["input"]["has_p99"])

    def test_no_start_times(self):
        path = os.path.join(DATA, "llmperf",
                            "meta-llama-Llama-3-1-8B-Instruct_550_150_individual_responses.json")
        p = run("knee", path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no send times", p.stderr)


if __name__ == "__main__":
    cli_common.main()
