#!/usr/bin/env python3
"""Suite 'cli' (issue 40, follow-up): what a survey of real result files found read wrongly.
Every file is written here in its tool's own shape (GuideLLM's benchmarks.json listing a
sample of its requests, SGLang's and genai-perf's statistics-only files, genai-perf's
per-request profile export); the expected figures are computed here from the same numbers.

usage: cli_survey_test.py PATH/TO/llmm
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import run  # noqa: E402
from cli_stats_only_test import Base, genai_summary, sglang_line, vllm_summary  # noqa: E402


def gl_dist(values, total_sum=True):
    """One of GuideLLM's distributions (v0.4) over `values`, with its rank rule
    floor(q n) + 1."""
    v = sorted(values)
    n = len(v)
    d = {"mean": sum(v) / n, "median": v[n // 2], "mode": v[0], "variance": 0.0,
         "std_dev": 0.0, "min": v[0], "max": v[-1], "count": n,
         "percentiles": {k: v[min(n - 1, int(q * n))] for k, q in
                         (("p01", 0.01), ("p50", 0.5), ("p90", 0.9), ("p99", 0.99))}}
    if total_sum:
        d["total_sum"] = float(sum(v))
    return {"successful": d, "errored": None, "incomplete": None, "total": d}


def gl_request(t0, ttft, e2e, prompt, out):
    return {"type_": "generative_text_response", "request_type": "text_completions",
            "prompt_tokens": prompt, "output_tokens": out, "start_time": t0,
            "end_time": t0 + e2e + 0.0005, "first_token_time": t0 + ttft,
            "last_token_time": t0 + e2e, "request_latency": e2e + 0.0005}


def guidellm_sampled(n_ok=40, n_err=2, listed=3, duration=20.0, model=None, prompt0=250,
                     out_len=128):
    """GuideLLM v0.4 benchmarks.json whose benchmark lists `listed` of its `n_ok` successful
    requests (--output-sampling): request_totals and the distributions cover all of them."""
    t0 = 1749157168.0
    ttft = [0.020 + 0.001 * i for i in range(n_ok)]
    e2e = [0.600 + 0.002 * i for i in range(n_ok)]
    prompt = [prompt0 + i % 3 for i in range(n_ok)]
    out = [out_len] * n_ok
    rps = [n_ok / duration * (1 + 0.01 * i) for i in range(5)]
    bench = {"type_": "generative_benchmark", "args": {"strategy": {"type_": "synchronous"}},
             "start_time": t0, "end_time": t0 + duration, "duration": duration,
             "request_totals": {"successful": n_ok, "errored": n_err, "incomplete": 1,
                                "total": n_ok + n_err + 1},
             "request_samples": listed,
             "metrics": {"requests_per_second": gl_dist(rps, False),
                         "request_latency": gl_dist(e2e),
                         "prompt_token_count": gl_dist(prompt),
                         "output_token_count": gl_dist(out),
                         "time_to_first_token_ms": gl_dist([x * 1e3 for x in ttft]),
                         "tokens_per_second": gl_dist([400.0, 410.0], False)},
             "requests": {"successful": [gl_request(t0 + 0.7 * i, ttft[i], e2e[i], prompt[i],
                                                    out[i]) for i in range(listed)],
                          "errored": [], "incomplete": []}}
    doc = {"benchmarks": [bench]}
    if model:
        doc = {"metadata": {"version": 1}, "args": {"model": model},
               "benchmarks": [dict(bench, config={"strategy": {"type_": "synchronous"},
                                                  "backend": {"model": model}})]}
    return doc, {"ok": n_ok, "err": n_err, "listed": listed, "duration": duration,
                 "ttft": ttft, "e2e": e2e, "prompt": sum(prompt), "out": sum(out), "rps": rps}


class GuideLLMSample(Base):
    def test_counts_and_rate_are_the_stated_totals(self):
        doc, w = guidellm_sampled()
        path = self.put("benchmarks.json", doc)
        rep = self.json_of("report", "--json", path)
        req = rep["requests"]
        self.assertEqual((req["total"], req["completed"], req["failed"]),
                         (w["ok"] + w["err"], w["ok"], w["err"]))
        self.assertEqual(req["percentile_sample"], w["listed"])
        self.assertAlmostEqual(rep["error_rate"], w["err"] / (w["ok"] + w["err"]), delta=1e-15)
        thr = rep["throughput"]
        self.assertAlmostEqual(thr["req_per_s"], w["ok"] / w["duration"], delta=1e-12)
        self.assertEqual((thr["output_tokens"], thr["input_tokens"]), (w["out"], w["prompt"]))
        # the percentiles are over the listed requests only, and say so
        self.assertEqual(rep["ttft_s"]["count"], w["listed"])
        self.assertAlmostEqual(rep["ttft_s"]["max"], w["ttft"][w["listed"] - 1], delta=1e-6)
        text = run("report", path).stdout
        self.assertIn("%d total, %d completed, %d failed" % (w["ok"] + w["err"], w["ok"],
                                                             w["err"]), text)
        self.assertIn("over a sample of %d listed requests" % w["listed"], text)
        # goodput of a sample is not the run's: not computed
        rep = self.json_of("report", "--json", "--slo", "ttft=100ms", path)
        self.assertEqual(rep["goodput"]["sampled_runs"], 1)
        self.assertIsNone(rep["goodput"]["fraction"])
        # an SLO on P99 is judged on GuideLLM's own p99 over all requests, not on the sample
        want = sorted(w["ttft"])[int(0.99 * w["ok"])]
        for bound, ok in ((want * 1e3 + 0.5, True), (want * 1e3 - 0.5, False)):
            rep = self.json_of("report", "--json", "--slo", "ttft=%gms" % bound,
                               "--slo-quantile", "0.99", path)
            check = rep["slo"]["checks"][0]
            self.assertEqual(check["tool_figure"], "time_to_first_token_ms.p99")
            self.assertAlmostEqual(check["latency"], want, delta=1e-12)
            self.assertEqual(check["latency_ok"], ok)
        rep = self.json_of("report", "--json", "--slo", "ttft=100ms", path)  # no P95 stated
        self.assertFalse(rep["slo"]["checks"][0]["judged"])
        # a figure name of exactly 21 characters and its unit stand on a line of their own
        self.assertIn("    tokens_per_second, /s\n", text)
        self.assertNotIn("/sGuideLLM", text)

    def test_knee_and_compare_use_the_stated_rate(self):
        paths = []
        for i, n in enumerate((20, 40, 60)):
            doc, _ = guidellm_sampled(n_ok=n, n_err=0, duration=10.0)
            doc["benchmarks"][0]["args"]["strategy"] = {"type_": "concurrent", "streams": i + 1}
            paths.append(self.put("b%d.json" % i, doc))
        rep = self.json_of("compare", "--json", *paths)
        for r, n in zip(rep["runs"], (20, 40, 60)):
            self.assertAlmostEqual(r["throughput"]["req_per_s"], n / 10.0, delta=1e-12)
            self.assertEqual(r["requests"]["completed"], n)
        knee = self.json_of("knee", "--json", *paths)
        self.assertEqual([(p["concurrency"], p["qps"]) for p in knee["points"]],
                         [(1, 2.0), (2, 4.0), (3, 6.0)])
        # a sample's P99 is not the run's: the tool's own p99 of request_latency, in ms
        _, w = guidellm_sampled(n_ok=20, n_err=0, duration=10.0)
        want = sorted(w["e2e"])[min(19, int(0.99 * 20))] * 1e3
        self.assertAlmostEqual(knee["points"][0]["p99_ms"], want, delta=1e-9)
        self.assertIn("each tool's own p99", knee["input"]["built_from"])


def gp_profile_export(model, n=4):
    """perf_analyzer's profile_export.json, one non-streamed chat request per entry; the model
    is only in each request's payload (a JSON document written as a string)."""
    ms = 1000000
    body = {"id": "c", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "four words of text"},
         "finish_reason": "stop"}], "usage": {"prompt_tokens": 12, "completion_tokens": 4,
                                              "total_tokens": 16}}
    reqs = [{"timestamp": 1000 * ms + i * 100 * ms,
             "request_inputs": {"payload": json.dumps(
                 {"messages": [{"role": "user", "content": 'say "model": x'}],
                  "model": model, "stream": False})},
             "response_timestamps": [1000 * ms + i * 100 * ms + (40 + i) * ms],
             "response_outputs": [{"response": json.dumps(body)}]} for i in range(n)]
    return {"experiments": [{"experiment": {"mode": "concurrency", "value": 1},
                             "requests": reqs}],
            "version": "0.0.3", "service_kind": "openai", "endpoint": "v1/chat/completions"}


class Models(Base):
    def test_guidellm_model_and_decay_within_one_model(self):
        runs = (("org/m1", 250, 128), ("org/m1", 1000, 64), ("org/m2", 2000, 32))
        paths = []
        for i, (model, prompt0, out_len) in enumerate(runs):
            doc, _ = guidellm_sampled(n_ok=20, n_err=0, duration=10.0, model=model,
                                      prompt0=prompt0, out_len=out_len)
            paths.append(self.put("g%d.json" % i, doc))
        rep = self.json_of("compare", "--json", *paths)
        self.assertEqual([r["model"] for r in rep["runs"]], [m for m, _, _ in runs])
        self.assertAlmostEqual(rep["runs"][1]["seqlen_decay"], 1 - 64 / 128, delta=1e-12)
        self.assertEqual(rep["runs"][1]["seqlen_decay_baseline"], 0)
        self.assertIsNone(rep["runs"][2]["seqlen_decay"])  # the only run of its model
        self.assertIn("model", rep["runs"][2]["seqlen_decay_none"])
        # v0.4: the model of each benchmark is worker.backend_model
        doc, _ = guidellm_sampled()
        doc["benchmarks"][0]["worker"] = {"backend_type": "openai_http",
                                          "backend_model": "org/w4"}
        rep = self.json_of("compare", "--json", self.put("v4.json", doc))
        self.assertEqual(rep["runs"][0]["model"], "org/w4")

    def test_genai_perf_model_from_the_payload(self):
        rep = self.json_of("compare", "--json", self.put("p.json", gp_profile_export("org/p1")))
        self.assertEqual(rep["runs"][0]["model"], "org/p1")
        # a payload that is not JSON names no model, and is no error
        doc = gp_profile_export("org/p1")
        for r in doc["experiments"][0]["requests"]:
            r["request_inputs"]["payload"] = "not json"
        rep = self.json_of("compare", "--json", self.put("q.json", doc))
        self.assertEqual(rep["runs"][0]["model"], "")


class GenaiPerfProfileExport(Base):
    def test_not_streamed_has_no_tpot_and_duration_is_named(self):
        path = self.put("p.json", gp_profile_export("org/p1", n=4))
        rep = self.json_of("report", "--json", path)
        self.assertEqual(rep["e2e_s"]["count"], 4)
        self.assertEqual(rep["tpot_s"]["count"], 0)  # undefined, not 0
        self.assertIsNone(rep["tpot_s"]["mean"])
        self.assertEqual(rep["tpot_s"]["undefined_not_streamed"], 4)
        self.assertEqual(rep["itl_s"]["count"], 0)
        # the duration: first send (1.000 s) to the last response (1.300 + 0.043 s)
        self.assertAlmostEqual(rep["throughput"]["duration_s"], 0.343, delta=1e-12)
        self.assertIn("first request sent to last response", rep["throughput"]["duration_source"])
        text = run("report", path).stdout
        self.assertIn("TPOT is undefined", text)
        self.assertIn("ITL: not streamed", text)
        self.assertNotIn("the benchmark's own 'duration'", text)
        self.assertIn("(genai-perf's: first request sent to last response with text)", text)
        tpot = [x for x in text.splitlines() if x.strip().startswith("TPOT ")][0].split()
        self.assertEqual(tpot[1:], ["0"] + ["-"] * 9)  # mean, min, 6 quantiles, max


class GenaiPerfSummaryRates(Base):
    def test_rates_and_lengths_as_stated(self):
        doc = genai_summary(4, 3.25, 250.0, count=77)
        doc["input_sequence_length"] = {"unit": "tokens", "avg": 550.25, "p50": 550.0,
                                        "min": 500.0, "max": 600.0, "std": 10.0}
        doc["output_sequence_length"] = {"unit": "tokens", "avg": 320.75, "p50": 321.0,
                                         "min": 300.0, "max": 340.0, "std": 5.0}
        path = self.put("gp.json", doc)
        rep = self.json_of("report", "--json", path)
        thr = rep["throughput"]
        self.assertEqual((thr["req_per_s"], thr["tok_per_s"]), (3.25, 3.25 * 8))
        self.assertTrue(thr["rates_from_tool"])
        self.assertEqual((thr["output_tokens"], thr["input_tokens"]),
                         (round(320.75 * 77), round(550.25 * 77)))
        self.assertIn("output_sequence_length.avg", thr["tokens_from"])
        text = run("report", path).stdout
        self.assertIn("3.25 req/s, 26.0 output tok/s", text)
        self.assertIn("the rates are the tool's own", text)
        self.assertNotIn("n/a req/s", text)
        self.assertIn("%d output and %d input tokens" % (round(320.75 * 77), round(550.25 * 77)),
                      text)
        cmp = self.json_of("compare", "--json", path)["runs"][0]
        self.assertEqual(cmp["mean_input_tokens"], 550.25)
        self.assertEqual(cmp["mean_output_tokens"], 320.75)
        # without the lengths the tokens stay unknown, and the rates are still the file's
        rep = self.json_of("report", "--json", self.put("g2.json", genai_summary(4, 3.25, 250.0)))
        self.assertEqual(rep["throughput"]["req_per_s"], 3.25)
        self.assertNotIn("tokens_from", rep["throughput"])


def aiperf_summary(count=100, errors=None, duration=500.0):
    """AIPerf's profile_export_aiperf.json: genai-perf's summary layout, plus its
    benchmark_duration, error counts (null without errors) and input_config.endpoint."""
    doc = genai_summary(8, count / duration, 250.0, count=count)
    doc["request_count"] = {"unit": "requests", "avg": float(count)}
    doc["benchmark_duration"] = {"unit": "sec", "avg": duration}
    doc["error_request_count"] = None if errors is None else {"unit": "requests",
                                                              "avg": float(errors)}
    doc["was_cancelled"] = False
    doc["error_summary"] = []
    doc["input_config"] = {"endpoint": {"model_names": ["org/a1"], "type": "chat",
                                        "streaming": True}}
    return doc


class AIPerf(Base):
    def test_labelled_aiperf_with_its_duration(self):
        path = self.put("profile_export_aiperf.json", aiperf_summary(count=100, errors=4))
        rep = self.json_of("report", "--json", path)
        self.assertEqual(rep["inputs"][0]["tool"]["name"], "AIPerf")
        thr = rep["throughput"]
        self.assertEqual(thr["duration_s"], 500.0)
        self.assertAlmostEqual(thr["req_per_s"], 100 / 500.0, delta=1e-15)
        self.assertFalse(thr["rates_from_tool"])
        self.assertEqual((rep["requests"]["completed"], rep["requests"]["failed"]), (100, 4))
        text = run("report", path).stdout
        self.assertIn("AIPerf's own figures", text)
        self.assertIn("AIPerf profile_export_aiperf.json", text)
        self.assertEqual(self.json_of("compare", "--json", path)["runs"][0]["model"], "org/a1")
        # error_request_count null: failures not stated
        rep = self.json_of("report", "--json", self.put("b.json", aiperf_summary()))
        self.assertIsNone(rep["requests"]["failed"])


class FailuresNotStated(Base):
    def files(self):
        old_vllm = vllm_summary(conc=4, completed=50, duration=10.0)
        del old_vllm["failed"]  # vLLM files of before its 'failed' key
        return {"sglang": (self.put("sg.jsonl", sglang_line(8, 300, 60.0, 900.0)), 300),
                "genai-perf": (self.put("gp.json", genai_summary(4, 3.0, 250.0, count=77)), 77),
                "vllm": (self.put("v.json", old_vllm), 50)}

    def test_failures_not_stated_are_not_zero(self):
        for tool, (path, completed) in self.files().items():
            rep = self.json_of("report", "--json", "--slo", "err=1%", path)
            req = rep["requests"]
            self.assertEqual((req["total"], req["completed"], req["failed"]),
                             (None, completed, None), tool)
            self.assertIsNone(rep["error_rate"], tool)
            self.assertFalse(rep["slo"]["errors_judged"], tool)
            self.assertEqual(rep["slo"]["errors_not_judged"], "failures not stated", tool)
            text = run("report", "--slo", "err=1%", path).stdout
            self.assertIn("%d completed, failures not stated" % completed, text)
            self.assertIn("not judged (failures not stated)", text)
            self.assertNotIn("0 failed", text)
            self.assertNotIn("states no request counts", text)


class KneeRefusal(Base):
    def test_every_file_named_in_full(self):
        # too few levels: the three names fit in the message, each whole
        short = [self.put("s%d.json" % i, vllm_summary(conc=4)) for i in range(3)]
        p = run("knee", *short)
        self.assertEqual(p.returncode, 1)
        msg = p.stderr.strip().splitlines()[-1]
        self.assertIn(", ".join(short) + ": 1 distinct concurrency value", msg)
        self.assertIn("concurrency,qps[,p99_ms] table", msg)
        # names too long for one message: each listed whole on its own line, never cut
        long_ = [self.put(("run-%d-" % i) + "x" * 200 + ".json", vllm_summary(conc=4 + i % 2))
                 for i in range(6)]
        p = run("knee", *long_)
        self.assertEqual(p.returncode, 1)
        lines = p.stderr.splitlines()
        for i, path in enumerate(long_):
            self.assertIn("llmm knee: input %d of 6: %s" % (i + 1, path), lines)
        self.assertIn("the 6 inputs listed above: 2 distinct concurrency values", lines[-1])


class SloFooter(Base):
    def test_footer_names_what_was_judged(self):
        path = self.put("s.json", vllm_summary(conc=4))  # states p99_ttft_ms = 55.5
        text = run("report", "--slo", "ttft=56ms", "--slo-quantile", "0.99", path).stdout
        foot = text[text.index("SLO verdict"):]
        self.assertIn("judged on the tool's own stated P99", foot)
        self.assertNotIn("from the sketch", foot)
        # a check on our own samples keeps naming the sketch and its rule
        rows = "ttft_s,e2e_s\n" + "".join("0.0%d,0.5\n" % i for i in range(1, 10))
        text = run("report", "--slo", "ttft=100ms", self.write("r.csv", rows)).stdout
        foot = text[text.index("SLO verdict"):]
        self.assertIn("llmm_slo_check: the P95 (nearest rank, from the sketch)", foot)
        self.assertIn("failed requests / all requests", foot)


if __name__ == "__main__":
    cli_common.main()
