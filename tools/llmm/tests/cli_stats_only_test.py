#!/usr/bin/env python3
"""Suite 'cli' (issue 40): result files that hold statistics only, read as their tools meant
them, and what `llmm knee` and `llmm compare` say they cannot know. Every file is written here
in its tool's own shape (the keys of vLLM's serve.py and benchmark_serving.py, SGLang's
bench_serving.py, genai-perf's JSON exporter, LLMPerf's token_benchmark_ray.py); the expected
figures are computed here from the same numbers, the exact percentiles by numpy's linear rule
(position (n - 1) p / 100, written out below: the suite's python3 need not have numpy).

usage: cli_stats_only_test.py PATH/TO/llmm
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import run  # noqa: E402


def linear(values, p):
    """numpy.percentile(values, p) with its default 'linear' method."""
    v = sorted(values)
    pos = (len(v) - 1) * p / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def vllm_summary(conc=None, rate="inf", completed=99, failed=1, duration=26.4, model="org/m1",
                 p99_ttft=55.5, p99_e2el=None, in_tokens=10000, out_tokens=12000):
    """`vllm bench serve --save-result` without --save-detailed: statistics only, and (its
    default --percentile-metrics ttft,tpot,itl) no E2E statistics."""
    doc = {"date": "20260101-120000", "endpoint_type": "openai", "backend": "openai",
           "label": None, "model_id": model, "tokenizer_id": model, "num_prompts":
           completed + failed, "request_rate": rate, "burstiness": 1.0,
           "max_concurrency": conc, "duration": duration, "completed": completed,
           "failed": failed, "total_input_tokens": in_tokens, "total_output_tokens": out_tokens,
           "request_throughput": completed / duration, "request_goodput": None,
           "output_throughput": out_tokens / duration,
           "total_token_throughput": (in_tokens + out_tokens) / duration,
           "max_output_tokens_per_s": 600.0, "max_concurrent_requests": conc or 8,
           "mean_ttft_ms": 30.1, "median_ttft_ms": 28.0, "std_ttft_ms": 4.0,
           "p99_ttft_ms": p99_ttft, "mean_tpot_ms": 8.1, "median_tpot_ms": 8.0,
           "std_tpot_ms": 0.5, "p99_tpot_ms": 9.9, "mean_itl_ms": 8.0, "median_itl_ms": 7.9,
           "std_itl_ms": 1.0, "p99_itl_ms": 12.0}
    if p99_e2el is not None:
        doc.update({"mean_e2el_ms": p99_e2el / 2, "median_e2el_ms": p99_e2el / 2,
                    "std_e2el_ms": 1.0, "p99_e2el_ms": p99_e2el})
    return doc


def sglang_line(conc, completed, duration, p99_e2e):
    """One line of `python -m sglang.bench_serving --output-file` (no --output-details)."""
    return {"backend": "sglang", "dataset_name": "random", "request_rate": float("inf"),
            "max_concurrency": conc, "sharegpt_output_len": None, "random_input_len": 128,
            "random_output_len": 8, "random_range_ratio": 0.0, "duration": duration,
            "completed": completed, "total_input_tokens": 128 * completed,
            "total_output_tokens": 8 * completed, "total_output_tokens_retokenized":
            8 * completed, "request_throughput": completed / duration,
            "input_throughput": 128 * completed / duration,
            "output_throughput": 8 * completed / duration, "mean_e2e_latency_ms": p99_e2e / 2,
            "median_e2e_latency_ms": p99_e2e / 2, "std_e2e_latency_ms": 1.0,
            "p99_e2e_latency_ms": p99_e2e, "mean_ttft_ms": 20.0, "median_ttft_ms": 20.0,
            "std_ttft_ms": 1.0, "p99_ttft_ms": 30.0, "concurrency": conc * 0.9,
            "accept_length": None}


def genai_summary(conc, rps, p99_ms, count=100, flat=False):
    """genai-perf's profile_export_genai_perf.json: its concurrency under
    input_config.perf_analyzer.stimulus, or (older versions) input_config.concurrency."""
    def stats(unit, base):
        d = {"unit": unit, "avg": base}
        for p in (1, 5, 10, 25, 50, 75, 90, 95, 99):
            d["p%d" % p] = base * (1 + p / 200)
        d.update({"min": base / 2, "max": base * 2, "std": base / 10})
        d["p99"] = p99_ms if unit == "ms" and base > 100 else d["p99"]
        return d
    doc = {"request_throughput": {"unit": "requests/sec", "avg": rps},
           "request_latency": stats("ms", 200.0 + conc),
           "request_count": {"unit": "count", "avg": count},
           "time_to_first_token": stats("ms", 20.0),
           "inter_token_latency": stats("ms", 8.0),
           "output_token_throughput": {"unit": "tokens/sec", "avg": rps * 8}}
    if flat:
        doc["input_config"] = {"model": ["org/g1"], "concurrency": conc, "streaming": True}
    else:
        doc["input_config"] = {"model_names": ["org/g1"], "perf_analyzer": {
            "stimulus": {"concurrency": conc}}}
    return doc


def llmperf_summary(conc, completed, errors, seconds, p99_e2e, out_mean=10.8):
    """LLMPerf's *_summary.json: its figures over the requests without an error code, its
    throughput only per minute."""
    doc = {"version": "2023-08-31", "name": "m_550_150_summary", "model": "org/l1",
           "mean_input_tokens": 550, "stddev_input_tokens": 150, "mean_output_tokens": 150,
           "stddev_output_tokens": 10, "num_concurrent_requests": conc}
    for metric, base in (("inter_token_latency_s", 0.03), ("ttft_s", 0.2),
                         ("end_to_end_latency_s", p99_e2e / 1.2),
                         ("request_output_throughput_token_per_s", 25.0),
                         ("number_input_tokens", 550.0), ("number_output_tokens", out_mean)):
        for q in (25, 50, 75, 90, 95, 99):
            doc["results_%s_quantiles_p%d" % (metric, q)] = base * (1 + q / 500)
        doc["results_%s_mean" % metric] = base
        doc["results_%s_min" % metric] = base / 2
        doc["results_%s_max" % metric] = base * 2
        doc["results_%s_stddev" % metric] = base / 10
    doc["results_end_to_end_latency_s_quantiles_p99"] = p99_e2e
    doc["results_number_output_tokens_min"] = "8"  # LLMPerf writes these two as text
    doc["results_number_output_tokens_max"] = "14"
    doc.update({"results_num_requests_started": completed + errors,
                "results_error_rate": errors / (completed + errors),
                "results_number_errors": errors, "results_error_code_frequency": "{}",
                "results_mean_output_throughput_token_per_s": out_mean * completed / seconds,
                "results_num_completed_requests": completed,
                "results_num_completed_requests_per_min": completed / seconds * 60,
                "timestamp": 1736935300})
    return doc


class Base(cli_common.Base):
    def json_of(self, *args):
        p = run(*args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def put(self, name, doc):
        return self.write(name, json.dumps(doc))


class VllmSummary(Base):
    def test_all_failed_run_is_all_errors(self):
        path = self.put("fail.json", vllm_summary(conc=4, completed=0, failed=8, duration=2.5,
                                                  in_tokens=0, out_tokens=0))
        rep = self.json_of("report", "--json", "--slo", "err=1%", path)
        self.assertEqual(rep["requests"], {"total": 8, "completed": 0, "failed": 8})
        self.assertEqual(rep["error_rate"], 1.0)
        self.assertEqual(rep["throughput"]["duration_s"], 2.5)
        self.assertEqual(rep["throughput"]["req_per_s"], 0.0)
        self.assertFalse(rep["slo"]["errors_ok"])
        self.assertEqual(rep["slo"]["verdict"], "violated")
        text = run("report", "--slo", "err=1%", path).stdout
        self.assertIn("8 total, 0 completed, 8 failed (error rate 100.000 %)", text)
        self.assertIn("verdict: SLO VIOLATED", text)
        self.assertNotIn("pass --duration", text)

    def test_counts_duration_and_rates_are_the_files(self):
        doc = vllm_summary(conc=4)
        rep = self.json_of("report", "--json", self.put("s.json", doc))
        self.assertEqual(rep["requests"], {"total": 100, "completed": 99, "failed": 1})
        tp = rep["throughput"]
        self.assertEqual(tp["duration_s"], doc["duration"])
        self.assertEqual(tp["req_per_s"], doc["completed"] / doc["duration"])
        self.assertEqual(tp["tok_per_s"], doc["total_output_tokens"] / doc["duration"])
        for m in ("ttft_s", "tpot_s", "itl_s", "e2e_s"):  # never a made-up distribution
            self.assertEqual(rep[m]["count"], 0)
        # the --duration override still divides the file's own completed count
        rep = self.json_of("report", "--json", "--duration", "50", self.put("s.json", doc))
        self.assertEqual(rep["throughput"]["req_per_s"], 99 / 50)

    def test_slo_without_the_quantile_is_not_judged(self):
        path = self.put("s.json", vllm_summary(conc=4))
        rep = self.json_of("report", "--json", "--slo", "ttft=100ms", path)
        self.assertEqual([c["judged"] for c in rep["slo"]["checks"]], [False])
        self.assertEqual(rep["slo"]["verdict"], "not judged")
        self.assertFalse(rep["slo"]["satisfied"])
        self.assertEqual(rep["goodput"]["statistics_only_runs"], 1)
        self.assertIsNone(rep["goodput"]["fraction"])
        text = run("report", "--slo", "ttft=100ms", path).stdout
        self.assertIn("not judged", text)
        self.assertNotIn("nan", text)
        # the file's own p99 judges a P99 bound, labelled as the tool's
        for bound, ok in (("56ms", True), ("55ms", False)):
            rep = self.json_of("report", "--json", "--slo", "ttft=" + bound, "--slo-quantile",
                               "0.99", path)
            check = rep["slo"]["checks"][0]
            self.assertTrue(check["judged"])
            self.assertEqual(check["latency"], 55.5e-3)
            self.assertEqual(check["latency_ok"], ok)
            self.assertEqual(check["tool_figure"], "p99_ttft_ms")
            self.assertIn("linear", check["tool_rule"])
            self.assertEqual(rep["slo"]["verdict"], "met" if ok else "violated")

    def test_rates_in_three_significant_digits(self):
        doc = vllm_summary(conc=4, completed=33, failed=0, duration=1250.0)  # 0.0264 req/s
        text = run("report", self.put("s.json", doc)).stdout
        self.assertIn("0.0264 req/s", text)


class KneeFromSummaries(Base):
    LEVELS = ((1, 1.0, 50), (2, 1.9, 52), (4, 3.6, 55), (8, 6.0, 70), (16, 7.0, 140),
              (32, 7.2, 300))

    def sweep(self, e2e=False, by_rate=False):
        paths = []
        for c, q, p in self.LEVELS:
            doc = vllm_summary(conc=None if by_rate else c, rate=float(c) if by_rate else "inf",
                               completed=int(q * 100), failed=0, duration=100.0, p99_ttft=p,
                               p99_e2el=10 * p if e2e else None)
            paths.append(self.put("c%d.json" % c, doc))
        return paths

    def test_sweep_over_max_concurrency(self):
        rep = self.json_of("knee", "--json", *self.sweep())
        pts = rep["points"]
        self.assertEqual([p["concurrency"] for p in pts], [c for c, _, _ in self.LEVELS])
        self.assertEqual([p["qps"] for p in pts], [int(q * 100) / 100.0 for _, q, _ in
                                                   self.LEVELS])
        # vLLM writes no E2E statistics by default: the P99 column is TTFT's, and says so
        self.assertEqual([p["p99_ms"] for p in pts], [p for _, _, p in self.LEVELS])
        built = rep["input"]["built_from"]
        self.assertIn("P99 of TTFT", built)
        self.assertIn("no P99 of E2E", built)
        self.assertIn("concurrency as each run states it", built)

    def test_e2e_when_written_and_latency_given(self):
        rep = self.json_of("knee", "--json", *self.sweep(e2e=True))
        self.assertEqual([p["p99_ms"] for p in rep["points"]],
                         [10 * p for _, _, p in self.LEVELS])
        self.assertIn("P99 of E2E", rep["input"]["built_from"])
        rep = self.json_of("knee", "--json", "--latency", "e2e", *self.sweep())
        self.assertFalse(rep["input"]["has_p99"])

    def test_sweep_over_request_rate(self):
        rep = self.json_of("knee", "--json", *self.sweep(by_rate=True))
        self.assertEqual([p["concurrency"] for p in rep["points"]],
                         [float(c) for c, _, _ in self.LEVELS])
        self.assertIn("request rate", rep["input"]["built_from"])

    def test_refusal_names_every_file_and_the_table(self):
        a, b = self.sweep()[:2]
        p = run("knee", a, b)
        self.assertEqual(p.returncode, 1)
        self.assertIn(a, p.stderr)
        self.assertIn(b, p.stderr)
        self.assertIn("concurrency,qps[,p99_ms] table", p.stderr)
        p = run("knee", a)
        self.assertEqual(p.returncode, 1)
        self.assertIn("concurrency,qps[,p99_ms] table", p.stderr)

    def test_sglang_genai_perf_and_llmperf_sweeps(self):
        lines = [sglang_line(c, int(q * 100), 100.0, 10 * p) for c, q, p in self.LEVELS]
        path = self.write("sglang.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
        rep = self.json_of("knee", "--json", path)
        self.assertEqual([p["qps"] for p in rep["points"]], [x["completed"] / 100.0
                                                             for x in lines])
        self.assertEqual([p["p99_ms"] for p in rep["points"]],
                         [x["p99_e2e_latency_ms"] for x in lines])
        # genai-perf: both concurrency keys, its request_throughput as QPS, its request_latency
        paths = [self.put("g%d.json" % c, genai_summary(c, q, 10 * p, flat=i % 2 == 0))
                 for i, (c, q, p) in enumerate(self.LEVELS)]
        rep = self.json_of("knee", "--json", *paths)
        self.assertEqual([p["concurrency"] for p in rep["points"]],
                         [c for c, _, _ in self.LEVELS])
        self.assertEqual([p["qps"] for p in rep["points"]], [q for _, q, _ in self.LEVELS])
        self.assertEqual([p["p99_ms"] for p in rep["points"]],
                         [10 * p for _, _, p in self.LEVELS])
        # LLMPerf: num_concurrent_requests, QPS from its per-minute figure
        docs = [llmperf_summary(c, int(q * 100), 0, 100.0, p / 100) for c, q, p in self.LEVELS]
        paths = [self.put("l%d_summary.json" % i, d) for i, d in enumerate(docs)]
        rep = self.json_of("knee", "--json", *paths)
        for pt, d in zip(rep["points"], docs):
            self.assertEqual(pt["concurrency"], d["num_concurrent_requests"])
            want = d["results_num_completed_requests_per_min"] / 60
            self.assertAlmostEqual(pt["qps"], want, delta=1e-12 * want)
            self.assertAlmostEqual(pt["p99_ms"],
                                   1e3 * d["results_end_to_end_latency_s_quantiles_p99"],
                                   delta=1e-9)


class Formats(Base):
    def test_genai_perf_both_concurrency_keys(self):
        for flat in (False, True):
            doc = genai_summary(6, 3.0, 250.0, count=42, flat=flat)
            rep = self.json_of("report", "--json", self.put("g.json", doc))
            run_info = rep["inputs"][0]["run_info"][0]
            self.assertEqual(run_info["stated"]["concurrency"], 6)
            self.assertEqual(run_info["model"], "org/g1")
            self.assertEqual(rep["requests"]["completed"], 42)
            self.assertIsNone(rep["error_rate"])  # genai-perf states no failures

    def test_llmperf_summary(self):
        doc = llmperf_summary(4, 50, 2, 120.0, 0.9)
        rep = self.json_of("report", "--json", self.put("x_summary.json", doc))
        self.assertEqual(rep["requests"], {"total": 52, "completed": 50, "failed": 2})
        self.assertAlmostEqual(rep["throughput"]["duration_s"], 120.0, delta=1e-9)
        self.assertAlmostEqual(rep["throughput"]["tok_per_s"],
                               doc["results_mean_output_throughput_token_per_s"], delta=1e-9)
        names = {f["name"]: f for f in rep["inputs"][0]["run_info"][0]["figures"]}
        for key, value in doc.items():
            if key.startswith("results_") and key != "results_error_code_frequency":
                self.assertEqual(names[key]["value"], float(value), key)
        rel = rep["inputs"][0]["tool"]["relation_to_ours"]
        self.assertIn("client tokenizer", json.dumps(rel))

    def test_legacy_vllm_file(self):
        # benchmarks/benchmark_serving.py: no endpoint_type, no latencies, no request_goodput:
        itls = [[0.02, 0.021, 0.022], [0.019, 0.02, 0.024, 0.02], [0.03, 0.02]]
        ttfts = [0.2, 0.21, 0.25]
        doc = {"date": "20240601-000000", "backend": "vllm", "model_id": "org/m",
               "tokenizer_id": "org/m", "best_of": 1, "use_beam_search": False,
               "num_prompts": 3, "request_rate": "inf", "duration": 1.0, "completed": 3,
               "total_input_tokens": 30, "total_output_tokens": 12,
               "request_throughput": 3.0, "output_throughput": 12.0,
               "total_token_throughput": 42.0, "input_lens": [10, 10, 10],
               "output_lens": [4, 5, 3], "ttfts": ttfts, "itls": itls,
               "generated_texts": ["a", "b", "c"], "errors": ["", "", ""],
               "mean_ttft_ms": 220.0, "median_ttft_ms": 210.0, "p99_ttft_ms": 249.2,
               "mean_tpot_ms": 22.5, "median_tpot_ms": 22.0, "p99_tpot_ms": 25.9}
        path = self.put("legacy.json", doc)
        rep = self.json_of("report", "--json", "--exact", path)
        inp = rep["inputs"][0]
        self.assertIn("benchmark_serving.py (legacy)", inp["layout"])
        self.assertIn("[DONE]", inp["tool"]["relation_to_ours"]["tpot_s"])
        # ours: E2E = TTFT + sum(ITL), TPOT over it, numpy linear with --exact
        tpot = [sum(i) / (n - 1) for i, n in zip(itls, doc["output_lens"])]
        self.assertAlmostEqual(rep["tpot_s"]["numpy_linear"]["p99"],
                               linear(tpot, 99), delta=1e-15)
        text = run("report", "--exact", path).stdout
        m = re.search(r"llmm exact: +mean [^,]+, median [^,]+, p99 ([0-9.]+)",
                      text[text.index("TPOT, ms"):])
        self.assertIsNotNone(m, text)
        self.assertAlmostEqual(float(m.group(1)), 1e3 * linear(tpot, 99), delta=5e-4)


class KneeSaysWhatItCannotKnow(Base):
    def test_three_points(self):
        path = self.write("k.csv", "concurrency,qps\n1,1\n2,1.9\n4,2.5\n")
        rep = self.json_of("knee", "--json", path)
        est = rep["estimators"]
        self.assertEqual(est["inflection"]["status"], "needs >= 4 points (has 3)")
        self.assertEqual(est["usl"]["status"], "needs >= 6 points (has 3)")
        self.assertEqual(est["kneedle"]["where"], "interpolated")
        self.assertNotIn(est["kneedle"]["knee"], (1.0, 2.0, 4.0))
        text = run("knee", path).stdout
        self.assertIn("needs >= 4 points (has 3)", text)
        self.assertNotIn("invalid argument", text)

    def test_usl_peak_beyond_the_levels_is_extrapolated(self):
        lam, sigma, kappa = 10.0, 0.001, 1e-5  # N_max = floor(sqrt(0.999 / 1e-5)) = 316
        rows = "".join("%d,%.12g\n" % (n, lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)))
                       for n in (1, 2, 4, 8, 16, 32, 64, 128, 250))
        rep = self.json_of("knee", "--json", self.write("k.csv", "concurrency,qps\n" + rows))
        usl = rep["estimators"]["usl"]
        self.assertGreater(usl["n_max"], 250)
        self.assertEqual(usl["where"], "extrapolated")


class Compare(Base):
    def test_headers_legend_and_decay_of_like_runs(self):
        os.makedirs(os.path.join(self.dir, "a"), exist_ok=True)
        os.makedirs(os.path.join(self.dir, "b"), exist_ok=True)
        short = vllm_summary(conc=4, in_tokens=100 * 99, out_tokens=12000, model="org/m1")
        long_ = vllm_summary(conc=4, in_tokens=1000 * 99, out_tokens=6000, model="org/m1")
        other = vllm_summary(conc=4, in_tokens=2000 * 99, out_tokens=3000, model="org/m2")
        paths = [self.put("a/responses.json", short), self.put("b/responses.json", long_),
                 self.put("responses.json", other)]
        rep = self.json_of("compare", "--json", *paths)
        runs = rep["runs"]
        self.assertAlmostEqual(runs[1]["seqlen_decay"], 1 - 6000 / 12000, delta=1e-12)
        self.assertEqual(runs[1]["seqlen_decay_baseline"], 0)
        self.assertIsNone(runs[2]["seqlen_decay"])  # another model: no baseline of its own
        self.assertIn("model", runs[2]["seqlen_decay_none"])
        text = run("compare", *paths).stdout
        self.assertNotIn("~responses", text)
        for i, p in enumerate(paths):
            self.assertIn("#%d   %s" % (i + 1, p), text)
        self.assertIn("m2", text)

    def test_unstated_figure_is_a_dash(self):
        doc = genai_summary(2, 3.0, 250.0)
        del doc["request_count"]
        text = run("compare", self.put("g.json", doc)).stdout
        line = [x for x in text.splitlines() if x.strip().startswith("requests completed")][0]
        self.assertEqual(line.split()[-1], "-")


if __name__ == "__main__":
    cli_common.main()
