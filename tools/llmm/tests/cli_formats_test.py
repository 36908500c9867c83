#!/usr/bin/env python3
"""Suite 'cli': `llmm report` on every benchmark tool's result file (data/formats/TOOL/, files
in each tool's own layout), checked against an independent reading of the same file in Python:
counts exact, means to 1e-9, nearest-rank percentiles within the sketches' bound, failures as
the tool counts them; the format is detected from the content; the tool's own figures come back
next to ours; and the regressions of issue 25 (files refused, failures counted as successes).

usage: cli_formats_test.py PATH/TO/llmm
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import REL, run  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "formats")
PCTS = [(0.5, "p50"), (0.9, "p90"), (0.95, "p95"), (0.99, "p99"), (0.999, "p99_9")]


def data(*parts):
    return os.path.join(DATA, *parts)


def load(*parts):
    with open(data(*parts), "rb") as f:
        return json.load(f)


def nearest_rank(v, q):
    v = sorted(v)
    r = q * len(v)
    if abs(r - round(r)) <= 1e-9:
        r = round(r)
    return v[min(max(1, math.ceil(r)), len(v)) - 1]


class Want:
    """Independent values of the successful requests, in our (vLLM's) definitions."""

    def __init__(self):
        self.ttft, self.tpot, self.itl, self.e2e = [], [], [], []
        self.completed = self.failed = 0

    def ok(self, ttft, e2e, out, itls=()):
        self.completed += 1
        self.e2e.append(e2e)
        if ttft is not None:
            self.ttft.append(ttft)
            if out is not None and out > 1:
                self.tpot.append((e2e - ttft) / (out - 1))
        self.itl.extend(itls)

    def bad(self):
        self.failed += 1


class Base(cli_common.Base):
    def report(self, *args):
        p = run("report", "--json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def check_metric(self, rep, key, vals):
        m = rep[key]
        self.assertEqual(m["count"], len(vals), key)
        if not vals:
            self.assertIsNone(m["mean"])
            return
        self.assertAlmostEqual(m["mean"], sum(vals) / len(vals), delta=1e-9 * max(vals))
        for q, k in PCTS:
            want = nearest_rank(vals, q)
            self.assertLessEqual(abs(m[k] - want), REL * want + 1e-15, (key, k, m[k], want))

    def check(self, rep, want):
        self.assertEqual(rep["requests"]["completed"], want.completed)
        self.assertEqual(rep["requests"]["failed"], want.failed)
        for key, vals in (("ttft_s", want.ttft), ("tpot_s", want.tpot), ("itl_s", want.itl),
                          ("e2e_s", want.e2e)):
            self.check_metric(rep, key, vals)

    def figure(self, rep, name, run=0, inp=0):
        for f in rep["inputs"][inp]["run_info"][run]["figures"]:
            if f["name"] == name:
                return f
        self.fail("no figure %s" % name)


# ---- vLLM ---------------------------------------------------------------------------------


def vllm_want(doc, sglang=False):
    """vLLM's files: a request failed when its error is non-empty, or it has no first token
    (TTFT 0) or no latency (0); SGLang also when its output length is 0."""
    w = Want()
    n = len(doc.get("ttfts") or doc.get("latencies") or [])
    for i in range(n):
        err = (doc.get("errors") or [""] * n)[i]
        ttft = doc["ttfts"][i] if "ttfts" in doc else None
        lat = doc["latencies"][i] if "latencies" in doc else None
        out = doc["output_lens"][i] if "output_lens" in doc else None
        if err or ttft == 0 or lat == 0 or (sglang and out == 0):
            w.bad()
            continue
        itls = doc["itls"][i] if "itls" in doc else []
        e2e = lat if lat is not None else ttft + sum(itls)
        w.ok(ttft, e2e, out, itls)
    return w


class Vllm(Base):
    def test_detailed_newest_layout(self):
        path = data("vllm", "serve_detailed.json")
        doc = load("vllm", "serve_detailed.json")
        rep = self.report("--slo", "ttft=200ms,tpot=50ms", path)
        want = vllm_want(doc)
        self.check(rep, want)
        # request 3 failed with an empty error string: a failure, as vLLM counts it
        self.assertEqual((rep["requests"]["completed"], rep["requests"]["failed"]), (3, 2))
        self.assertEqual((doc["completed"], doc["failed"]), (3, 2))
        self.assertEqual(rep["throughput"]["duration_s"], doc["duration"])
        self.assertAlmostEqual(rep["throughput"]["req_per_s"], doc["request_throughput"],
                               places=12)
        self.assertAlmostEqual(rep["throughput"]["tok_per_s"], doc["output_throughput"],
                               places=12)
        # goodput as vLLM defines it: the file's own figure
        self.assertAlmostEqual(rep["goodput"]["req_per_s"], doc["request_goodput"], places=12)
        inp = rep["inputs"][0]
        self.assertEqual(inp["format"], "vllm")
        self.assertFalse(inp["second_pass"])
        self.assertEqual(inp["tool"]["name"], "vLLM")
        # the tool's figures, as written, with ours next to them
        f = self.figure(rep, "mean_ttft_ms")
        self.assertEqual((f["value"], f["unit"], f["measures"], f["statistic"]),
                         (doc["mean_ttft_ms"], "ms", "ttft_s", "mean"))
        self.assertAlmostEqual(f["ours_si"], sum(want.ttft) / 3, delta=1e-12)
        f = self.figure(rep, "p99_e2el_ms")
        self.assertEqual(f["statistic"], "p99")
        self.assertLessEqual(abs(f["ours_si"] - max(want.e2e)), REL * max(want.e2e))
        self.assertEqual(self.figure(rep, "completed")["ours_si"], 3)
        stated = inp["run_info"][0]["stated"]
        self.assertEqual((stated["concurrency"], stated["request_rate"]), (2, 4.0))

    def test_append_result_documents(self):
        path = data("vllm", "serve_append.json")
        with open(path) as f:
            docs = [json.loads(line) for line in f]
        rep = self.report(path)
        want = Want()
        for d in docs:  # no --save-detailed: latencies only, 0 for a failure
            for lat in d["latencies"]:
                if lat == 0:
                    want.bad()
                else:
                    want.ok(None, lat, None)
        self.check(rep, want)
        inp = rep["inputs"][0]
        self.assertEqual(inp["runs"], 2)
        self.assertFalse(inp["ttfts"])
        self.assertIn("end-to-end latencies only", inp["layout"])
        self.assertEqual(rep["throughput"]["duration_s"], 0.25 + 0.3)
        # the first ran at rate "inf" (vLLM's string): not finite, null in JSON
        self.assertEqual([r["stated"]["request_rate"] for r in inp["run_info"]], [None, 8.0])

    def test_legacy_script(self):
        path = data("vllm", "legacy_benchmark_serving.json")
        doc = load("vllm", "legacy_benchmark_serving.json")
        rep = self.report(path)
        want = vllm_want(doc)
        self.check(rep, want)
        self.assertEqual(want.failed, len(doc["errors"]) - doc["completed"])
        self.assertIn("legacy", rep["inputs"][0]["layout"])
        self.assertEqual(rep["inputs"][0]["e2e_from_ttft_plus_itls"], 3)
        # "request_goodput:" (the legacy spelling) is null: no goodput was asked for
        names = [f["name"] for f in rep["inputs"][0]["run_info"][0]["figures"]]
        self.assertNotIn("request_goodput:", names)
        self.assertEqual(self.figure(rep, "completed")["value"], doc["completed"])

    def test_pooling_has_no_per_token_latencies(self):
        # issue 25: a pooling result was refused with advice to use --save-detailed
        path = data("vllm", "pooling_detailed.json")
        doc = load("vllm", "pooling_detailed.json")
        rep = self.report(path)
        self.check(rep, vllm_want(doc))
        self.assertEqual((rep["requests"]["completed"], rep["requests"]["failed"]), (3, 1))
        self.assertIn("no per-token latencies", rep["inputs"][0]["layout"])
        text = run("report", path)
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("no per-token", text.stdout)
        self.assertNotIn("--save-detailed)", text.stderr)

    def test_statistics_only(self):
        path = data("vllm", "serve_late2025_summary.json")
        doc = load("vllm", "serve_late2025_summary.json")
        rep = self.report(path)
        # issue 40: a statistics-only file is a run with the counts it states
        self.assertEqual(rep["requests"], {"total": doc["completed"] + doc["failed"],
                                           "completed": doc["completed"],
                                           "failed": doc["failed"]})
        self.assertEqual(rep["throughput"]["duration_s"], doc["duration"])
        self.assertEqual(rep["ttft_s"]["count"], 0)
        run_info = rep["inputs"][0]["run_info"][0]
        self.assertTrue(run_info["statistics_only"])
        names = {f["name"]: f for f in run_info["figures"]}
        self.assertEqual(names["p99_ttft_ms"]["value"], doc["p99_ttft_ms"])
        self.assertNotIn("ours_si", names["p99_ttft_ms"])
        text = run("report", path).stdout
        self.assertIn("statistics only", text)
        self.assertIn("never in our tables", text)

    def test_empty_error_string_is_a_failure(self):
        # issue 25: a non-200 reply with an empty reason phrase was counted as a success
        # with TTFT = E2E = 0
        doc = {"duration": 1.0, "completed": 1, "failed": 1, "output_lens": [3, 0],
               "ttfts": [0.1, 0.0], "itls": [[0.01, 0.02], []], "latencies": [0.13, 0.0],
               "errors": ["", ""]}
        rep = self.report(self.write("e.json", json.dumps(doc)))
        self.assertEqual((rep["requests"]["completed"], rep["requests"]["failed"]), (1, 1))
        self.assertEqual(rep["ttft_s"]["min"], 0.1)

    def test_non_finite_latency_refused_by_name(self):
        text = '{"duration": 1, "ttfts": [0.1, 0.2, NaN], "latencies": [0.2, 0.3, 0.4]}'
        p = run("report", self.write("nan.json", text))
        self.assertEqual(p.returncode, 1)
        self.assertIn("nan.json:1:%d: ttfts[2] is NaN" % (text.index("NaN") + 1), p.stderr)
        # the literals are numbers where a number is allowed, as Python writes them
        ok = '{"duration": 1, "burstiness": Infinity, "x": -Infinity, "y": [NaN],' \
             ' "ttfts": [0.1], "latencies": [0.2]}'
        self.assertEqual(self.report(self.write("inf.json", ok))["requests"]["completed"], 1)


# ---- SGLang --------------------------------------------------------------------------------


class Sglang(Base):
    def test_jsonl_with_infinity(self):
        # issue 25: "request_rate": Infinity failed the file, and the .jsonl name chose the
        # wrong parser
        path = data("sglang", "vllm_0611_4_128_8.jsonl")
        with open(path) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(lines[0]["request_rate"], float("inf"))
        rep = self.report(path)
        # issue 40: the second line (statistics only) counts with its own 'completed'
        want = vllm_want(lines[0], sglang=True)
        want.completed += lines[1]["completed"]
        # the statistics-only line states no failures: the total is not known (null)
        self.assertNotIn("failed", lines[1])
        want.failed = None
        self.check(rep, want)
        self.assertIsNone(rep["requests"]["total"])
        inp = rep["inputs"][0]
        self.assertEqual(inp["format"], "sglang")
        self.assertEqual((inp["runs"], inp["statistics_only_runs"]), (2, 1))
        self.assertEqual(inp["e2e_from_ttft_plus_itls"], 3)
        self.assertEqual(inp["run_info"][0]["stated"]["request_rate"], None)  # inf: not finite
        f = self.figure(rep, "mean_e2e_latency_ms")
        self.assertEqual(f["measures"], "e2e_s")
        # ours ends at the last token, SGLang's at [DONE]: ours is at most SGLang's
        self.assertLessEqual(rep["e2e_s"]["mean"], f["si"])
        # the same bytes on stdin, and with --format
        with open(path) as f:
            text = f.read()
        for args in (("-",), ("--format", "sglang", path)):
            p = run("report", "--json", *args, stdin=text)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(json.loads(p.stdout)["requests"], rep["requests"])


# ---- genai-perf ----------------------------------------------------------------------------


def sse_text_responses(req):
    """Which responses of a request began an event carrying text (an independent reading of
    the server-sent events: data lines, blank line ends an event)."""
    has = []
    pending = None
    for k, out in enumerate(req["response_outputs"]):
        has.append(False)
        for line in out["response"].split("\n"):
            if line.startswith("data:"):
                payload = line[5:].lstrip(" ")
                if pending is None:
                    pending = (k, [])
                pending[1].append(payload)
            elif line == "" and pending is not None:
                begun, parts = pending
                pending = None
                data = "\n".join(parts)
                if data == "[DONE]":
                    continue
                ch = json.loads(data).get("choices") or [{}]
                delta = ch[0].get("delta") or ch[0].get("message") or {}
                # completions: an empty text is a token unless its chunk carries a
                # finish_reason (llmm bench's rule: llama.cpp's last chunk is none)
                empty_token = ch[0].get("text") == "" and not ch[0].get("finish_reason")
                if delta.get("content") or ch[0].get("text") or empty_token:
                    has[begun] = True
    return has


class GenaiPerf(Base):
    def test_profile_export(self):
        # issue 25: refused with advice to run vLLM with --save-detailed
        path = data("genai-perf", "profile_export.json")
        doc = load("genai-perf", "profile_export.json")
        rep = self.report(path)
        want = Want()
        starts, ends, n_all = [], [], 0
        for req in doc["experiments"][0]["requests"]:
            n_all += 1
            has = sse_text_responses(req)
            ts = req["response_timestamps"]
            idx = [k for k, h in enumerate(has) if h]
            if not idx:
                want.bad()
                continue
            t0 = req["timestamp"]  # integers: nanoseconds, exact
            gaps = [(ts[b] - ts[a]) * 1e-9 for a, b in zip(idx, idx[1:])]
            want.ok((ts[idx[0]] - t0) * 1e-9, (ts[idx[-1]] - t0) * 1e-9, len(idx), gaps)
            starts.append(t0)
            ends.append(ts[idx[-1]])
        self.check(rep, want)
        self.assertEqual([round(x * 1e3, 6) for x in sorted(want.ttft)], [90.3, 100.4, 220.0])
        duration = (max(ends) - min(starts)) * 1e-9
        self.assertAlmostEqual(rep["throughput"]["duration_s"], duration, places=12)
        self.assertAlmostEqual(rep["throughput"]["req_per_s"], want.completed / duration,
                               places=9)
        inp = rep["inputs"][0]
        self.assertEqual(inp["format"], "genai-perf")
        self.assertEqual(inp["run_info"][0]["stated"]["concurrency"], 2)
        # genai-perf's own throughput counts every request, also one without text
        f = self.figure(rep, "request_throughput (genai-perf's definition)")
        self.assertAlmostEqual(f["value"], n_all / duration, places=9)
        p = run("report", path)
        self.assertNotIn("--save-detailed", p.stdout + p.stderr)
        self.assertIn("counted failed here", p.stderr)

    def test_empty_text_chunks(self):
        """A completions stream as llama.cpp ends it: tokens, an empty text without a
        finish_reason (a special token: a response with text), and an empty text with one
        (the end of the stream only: none)."""
        def ev(text, finish):
            return {"response": "data: %s\n\n" % json.dumps(
                {"choices": [{"index": 0, "text": text, "finish_reason": finish}]})}
        ms = 1000000
        req = {"timestamp": 0, "request_inputs": {"payload": "{}"},
               "response_timestamps": [10 * ms, 20 * ms, 35 * ms, 36 * ms, 37 * ms],
               "response_outputs": [ev("a", None), ev("", None), ev("b", None),
                                    ev("", "stop"), {"response": "data: [DONE]\n\n"}]}
        doc = {"experiments": [{"experiment": {"mode": "concurrency", "value": 1},
                                "requests": [req]}],
               "version": "0.0.3", "service_kind": "openai", "endpoint": "v1/completions"}
        self.assertEqual(sse_text_responses(req), [True, True, True, False, False])
        path = self.write("profile_export.json", json.dumps(doc))
        rep = self.report("--format", "genai-perf", path)
        self.assertEqual(rep["requests"]["completed"], 1)
        self.assertAlmostEqual(rep["e2e_s"]["mean"], 0.035, places=12)  # not the 36 ms end
        self.assertEqual(rep["itl_s"]["count"], 2)  # 10 ms and 15 ms: no gap to the end

    def test_summary_is_statistics_only(self):
        path = data("genai-perf", "profile_export_genai_perf.json")
        doc = load("genai-perf", "profile_export_genai_perf.json")
        rep = self.report(path)
        # issue 40: its request_count is the run's completed requests; it states no failures
        self.assertEqual(rep["requests"]["completed"], doc["request_count"]["avg"])
        self.assertIsNone(rep["error_rate"])
        self.assertEqual(rep["inputs"][0]["format"], "genai-perf-summary")
        run_info = rep["inputs"][0]["run_info"][0]
        self.assertTrue(run_info["statistics_only"])
        self.assertEqual(run_info["stated"]["concurrency"], 2)
        names = {f["name"]: f for f in run_info["figures"]}
        for metric, stats in doc.items():
            if metric == "input_config":
                continue
            for stat, value in stats.items():
                if stat != "unit":
                    self.assertEqual(names["%s.%s" % (metric, stat)]["value"], value)
        self.assertEqual(names["time_to_first_token.p99"]["measures"], "ttft_s")
        self.assertAlmostEqual(names["time_to_first_token.p99"]["si"],
                               doc["time_to_first_token"]["p99"] * 1e-3, places=15)
        # genai-perf's inter_token_latency is per request (E2E - TTFT) / (OSL - 1): our TPOT
        self.assertEqual(names["inter_token_latency.avg"]["measures"], "tpot_s")
        text = run("report", path).stdout
        self.assertIn("no distribution is made of them", text)


# ---- GuideLLM -------------------------------------------------------------------------------


def guidellm_want(bench, v03=False):
    """The requests GuideLLM lists, with our definitions: TTFT = first token - request start,
    E2E = last token - request start; errored fail, incomplete are left out."""
    w = Want()
    rows = []
    for status in ("successful", "errored"):
        for r in bench["requests"][status]:
            if v03:
                t = (r["start_time"], r["first_token_time"], r["last_token_time"], r["end_time"])
            else:
                x = r["info"]["timings"]
                t = (x["request_start"], x["first_token_iteration"], x["last_token_iteration"],
                     x["request_end"])
            rows.append((t, status, r["output_tokens"]))
    for t, status, out in sorted(rows, key=lambda x: x[0][0]):
        if status == "errored":
            w.bad()
        else:
            w.ok(t[1] - t[0], (t[2] if t[2] is not None else t[3]) - t[0], out)
    return w


class GuideLLM(Base):
    def test_v07_every_benchmark(self):
        # issue 25: refused with advice to run vLLM with --save-detailed
        path = data("guidellm", "benchmarks_v07.json")
        doc = load("guidellm", "benchmarks_v07.json")
        rep = self.report(path)
        want = Want()
        for b in doc["benchmarks"]:
            w = guidellm_want(b)
            want.ttft += w.ttft
            want.tpot += w.tpot
            want.e2e += w.e2e
            want.completed += w.completed
            want.failed += w.failed
        self.check(rep, want)
        inp = rep["inputs"][0]
        self.assertEqual(inp["runs"], 2)
        self.assertEqual(inp["left_out"], 1)  # the incomplete one
        for k, b in enumerate(doc["benchmarks"]):
            totals = b["metrics"]["request_totals"]
            names = {f["name"]: f for f in inp["run_info"][k]["figures"]}
            self.assertEqual(names["request_totals.successful"]["value"], totals["successful"])
            self.assertEqual(names["request_totals.errored"]["value"], totals["errored"])
            ttft = b["metrics"]["time_to_first_token_ms"]["successful"]
            self.assertEqual(names["time_to_first_token_ms.mean"]["value"], ttft["mean"])
            p999 = names["time_to_first_token_ms.p999"]
            self.assertEqual((p999["statistic"], p999["value"]),
                             ("p99.9", ttft["percentiles"]["p999"]))
        self.assertEqual([r["label"] for r in inp["run_info"]], ["synchronous", "constant 2/s"])
        self.assertEqual(inp["run_info"][0]["stated"]["concurrency"], 1)
        # GuideLLM's inter_token_latency_ms = (last - first) / (N - 1): our TPOT, request by
        # request
        itl = sorted(r["inter_token_latency_ms"] for b in doc["benchmarks"]
                     for r in b["requests"]["successful"])
        for a, b in zip(itl, sorted(want.tpot)):
            self.assertAlmostEqual(a * 1e-3, b, delta=1e-9)
        p = run("report", path)
        self.assertNotIn("--save-detailed", p.stdout + p.stderr)

    def test_v03(self):
        path = data("guidellm", "benchmarks_v03.json")
        rep = self.report(path)
        self.check(rep, guidellm_want(load("guidellm", "benchmarks_v03.json")["benchmarks"][0],
                                      v03=True))
        self.assertIn("v0.3", rep["inputs"][0]["layout"])


# ---- LLMPerf ---------------------------------------------------------------------------------


class LLMPerf(Base):
    NAME = "meta-llama-Llama-3-1-8B-Instruct_550_150"

    def test_individual_responses(self):
        for name in (self.NAME + "_individual_responses.json",
                     "synthetic_with_error_individual_responses.json"):
            path = data("llmperf", name)
            rows = load("llmperf", name)
            want = Want()
            for r in rows:
                if r["error_code"] is not None:
                    want.bad()
                else:
                    want.ok(r["ttft_s"], r["end_to_end_latency_s"], r["number_output_tokens"])
            rep = self.report(path)
            self.check(rep, want)
            self.assertEqual(rep["inputs"][0]["format"], "llmperf")
            self.assertFalse(rep["inputs"][0]["start_times"])
            f = self.figure(rep, "inter_token_latency_s.mean")
            ok = [r for r in rows if r["error_code"] is None]
            self.assertAlmostEqual(f["value"], sum(r["inter_token_latency_s"] for r in ok) /
                                   len(ok), places=12)

    def test_summary_is_a_run(self):
        # issue 40: the summary is the only place LLMPerf writes its throughput
        doc = load("llmperf", self.NAME + "_summary.json")
        rep = self.report(data("llmperf", self.NAME + "_summary.json"))
        self.assertEqual(rep["inputs"][0]["format"], "llmperf-summary")
        done, per_min = doc["results_num_completed_requests"], \
            doc["results_num_completed_requests_per_min"]
        self.assertEqual(rep["requests"], {"total": done + doc["results_number_errors"],
                                           "completed": done,
                                           "failed": doc["results_number_errors"]})
        tp = rep["throughput"]
        self.assertEqual(tp["duration_s"], done * 60.0 / per_min)
        self.assertAlmostEqual(tp["req_per_s"], per_min / 60.0, delta=1e-12 * per_min)
        self.assertAlmostEqual(tp["tok_per_s"], doc["results_mean_output_throughput_token_per_s"],
                               delta=1e-9 * tp["tok_per_s"])
        self.assertIn("results_num_completed_requests_per_min", tp["duration_source"])
        run_info = rep["inputs"][0]["run_info"][0]
        self.assertEqual(run_info["stated"]["concurrency"], doc["num_concurrent_requests"])
        self.assertEqual(run_info["model"], doc["model"])
        names = {f["name"]: f for f in run_info["figures"]}
        for key, value in doc.items():
            if key.startswith("results_") and key != "results_error_code_frequency":
                self.assertEqual(names[key]["value"], float(value), key)
        self.assertEqual(rep["ttft_s"]["count"], 0)


# ---- detection ---------------------------------------------------------------------------------


class Detection(Base):
    def test_content_not_name(self):
        # every file under a misleading name is still read by its own reader
        cases = [("vllm", "serve_detailed.json", "vllm"), ("sglang", "vllm_0611_4_128_8.jsonl",
                 "sglang"), ("genai-perf", "profile_export.json", "genai-perf"),
                 ("guidellm", "benchmarks_v03.json", "guidellm"),
                 ("llmperf", LLMPerf.NAME + "_individual_responses.json", "llmperf")]
        for tool, name, fmt in cases:
            with open(data(tool, name), "rb") as f:
                body = f.read()
            for fake in ("trace.csv", "trace.jsonl", "x.txt"):
                rep = self.report(self.write(fake, body))
                self.assertEqual(rep["inputs"][0]["format"], fmt, (name, fake))

    def test_unknown_input_names_what_it_saw(self):
        p = run("report", self.write("odd.json", '{"alpha": 1, "beta": [2], "gamma": {}}'))
        self.assertEqual(p.returncode, 1)
        for part in ("no reader takes this input", "'alpha', 'beta', 'gamma'", "Formats tried",
                     "vllm (", "sglang (", "genai-perf (", "guidellm (", "llmperf (", "csv (",
                     "jsonl (", "--format"):
            self.assertIn(part, p.stderr)
        p = run("report", self.write("odd.txt", "hello world\n"))
        self.assertIn('text beginning "hello world"', p.stderr)

    def test_format_overrides(self):
        path = data("vllm", "serve_detailed.json")
        p = run("report", "--format", "guidellm", path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no benchmark", p.stderr)
        p = run("report", "--format", "nope", path)
        self.assertEqual(p.returncode, 2)
        self.assertIn("genai-perf-summary", p.stderr)


if __name__ == "__main__":
    cli_common.main()
