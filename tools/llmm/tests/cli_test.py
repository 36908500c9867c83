#!/usr/bin/env python3
"""Suite 'cli': runs the built `llmm` on hand-made traces and checks its report against an
independent computation in Python (standard library only).

usage: cli_test.py PATH/TO/llmm
"""
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import REL, run  # noqa: E402

# The report's percentiles, as (percent, JSON key).
PCTS = [(50, "p50"), (90, "p90"), (95, "p95"), (99, "p99"), (99.9, "p99_9"), (99.99, "p99_99")]
METRICS = ["ttft_s", "tpot_s", "itl_s", "e2e_s"]


def nearest_rank(sorted_v, q):
    """doc/spec.md §5: rank max(1, ceil(q n)); q n within 1e-9 of an integer counts as it."""
    n = len(sorted_v)
    r = q * n
    if abs(r - round(r)) <= 1e-9:
        r = round(r)
    rank = max(1, math.ceil(r))
    return sorted_v[min(rank, n) - 1]


def numpy_linear(sorted_v, p):
    """numpy.percentile(v, p), default 'linear' method, as numpy >= 1.22 computes it."""
    n = len(sorted_v)
    h = (n - 1) * (p / 100.0)
    if h >= n - 1:
        return sorted_v[-1]
    lo = math.floor(h)
    t = h - lo
    a, b = sorted_v[lo], sorted_v[lo + 1]
    d = b - a
    return b - d * (1 - t) if t >= 0.5 else a + d * t


def make_requests(seed, n, fail_share=0.03, with_start=True):
    """Requests as dicts: ttft, itls, latency, start, in/out lengths, error."""
    rnd = random.Random(seed)
    reqs = []
    t = 1000.0
    for i in range(n):
        t += rnd.expovariate(25.0)
        out = rnd.choice([1, 2, 3, rnd.randint(4, 60)])
        ttft = round(rnd.lognormvariate(math.log(0.08), 0.8), 6)
        if rnd.random() < 0.01:
            ttft = round(ttft * 20, 6)  # a few outliers
        itls = [round(rnd.lognormvariate(math.log(0.02), 0.3), 6) for _ in range(out - 1)]
        if i % 7 == 3 and itls:
            itls[0] = itls[-1]  # ties
        err = ""
        latency = round(ttft + sum(itls) + 0.0002, 6)
        if rnd.random() < fail_share:
            if rnd.random() < 0.5:  # rejected before any token
                err, ttft, itls, latency, out = "Service Unavailable", 0.0, [], 0.0, 0
            else:  # broke half-way: partial ITLs stay in the file
                err, latency, out = "ClientPayloadError", 0.0, 0
        reqs.append({"ttft": ttft, "itls": itls, "latency": latency,
                     "start": round(t, 6) if with_start else None,
                     "in": rnd.randint(5, 900), "out": out, "error": err})
    return reqs


def vllm_doc(reqs, duration, latencies=True):
    doc = {"date": "20250101-000000", "backend": "vllm", "duration": duration,
           "completed": sum(1 for r in reqs if not r["error"]),
           "failed": sum(1 for r in reqs if r["error"]),
           "input_lens": [r["in"] for r in reqs], "output_lens": [r["out"] for r in reqs],
           "ttfts": [r["ttft"] for r in reqs], "itls": [r["itls"] for r in reqs]}
    if latencies:
        doc["latencies"] = [r["latency"] for r in reqs]
    if reqs and reqs[0]["start"] is not None:
        doc["start_times"] = [r["start"] for r in reqs]
    doc["generated_texts"] = ["x" * 5 for _ in reqs]
    doc["errors"] = [r["error"] for r in reqs]
    return doc


def expected(reqs, latencies=True):
    """Independent metric values of the successful requests."""
    ok = [r for r in reqs if not r["error"]]
    vals = {m: [] for m in METRICS}
    for r in ok:
        if latencies:
            e2e = r["latency"]
        else:
            s = 0.0
            for x in r["itls"]:
                s += x
            e2e = r["ttft"] + s
        vals["ttft_s"].append(r["ttft"])
        vals["e2e_s"].append(e2e)
        vals["itl_s"].extend(r["itls"])
        if r["out"] > 1:
            vals["tpot_s"].append((e2e - r["ttft"]) / (r["out"] - 1))
    return {m: sorted(v) for m, v in vals.items()}


class Base(cli_common.Base):
    def report_json(self, *args):
        p = run("report", "--json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def check_metric(self, rep, key, values, exact=True):
        m = rep[key]
        self.assertEqual(m["count"], len(values), key)
        if not values:
            self.assertIsNone(m["p50"])
            return
        self.assertEqual(m["min"], values[0], key)
        self.assertEqual(m["max"], values[-1], key)
        self.assertAlmostEqual(m["mean"], sum(values) / len(values),
                               delta=1e-12 * max(1.0, abs(values[-1])))
        for p, k in PCTS:
            want = nearest_rank(values, p / 100.0)
            got = m[k]
            self.assertLessEqual(abs(got - want), REL * want * (1 + 1e-9) + 1e-300,
                                 "%s %s: sketch %r, exact nearest rank %r" % (key, k, got, want))
            if exact:
                self.assertEqual(m["numpy_linear"][k], numpy_linear(values, p),
                                 "%s %s numpy linear" % (key, k))


class Help(Base):
    def test_every_command_has_help(self):
        for args in (["--help"], ["help"], ["report", "--help"], ["report", "-h"],
                     ["demo", "--help"], ["help", "report"], ["help", "demo"],
                     ["version", "--help"]):
            p = run(*args)
            self.assertEqual(p.returncode, 0, args)
            self.assertIn("usage: llmm", p.stdout, args)
        p = run("version")
        self.assertEqual(p.returncode, 0)
        self.assertIn("libllmmetrics", p.stdout)

    def test_help_names_each_command(self):
        # `llmm help COMMAND` is `llmm COMMAND --help` for every command, `version` included
        # (it printed the overview instead)
        for cmd in ("report", "knee", "merge", "quantiles", "capacity", "demo", "version"):
            p = run("help", cmd)
            self.assertEqual(p.returncode, 0, cmd)
            self.assertEqual(p.stdout, run(cmd, "--help").stdout, cmd)
            self.assertTrue(p.stdout.startswith("usage: llmm " + cmd), cmd)
        self.assertEqual(run("help", "help").stdout, run("help").stdout)
        for args in (["help", "bogus"], ["bogus"]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertTrue(p.stderr.startswith("llmm: unknown command 'bogus'\n"), args)

    def test_usage_errors(self):
        f = self.write("a.csv", "ttft_s,e2e_s\n0.1,0.2\n")
        for args in ([], ["frobnicate"], ["report"], ["report", "--bogus", f],
                     ["report", "--slo", "ttft=abc", f], ["report", "--slo", "x=1", f],
                     ["report", "--slo", "err=2", f], ["report", "--format", "xml", f],
                     ["report", "--scenario", "nope", f], ["report", "--metric", "bad", f],
                     ["report", "--metric", "capability:x=1:0.5:1", f],
                     ["report", "--metric", "performance:nope=-:1:2", f],
                     ["report", "--duration", "0", f], ["report", "--watch", "itl", f],
                     ["report", "--lookback", "soon", f], ["report", "--collapse-window", "-1s", f],
                     ["report", "--exact"], ["demo", "--requests", "0"], ["demo", "extra"],
                     ["report", "--slo-quantile", "1.5", f],
                     ["report", "--slo"]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, (args, p.stdout, p.stderr))
            self.assertTrue(p.stderr.strip(), args)


class VllmReport(Base):
    def test_random_trace_exact(self):
        reqs = make_requests(11, 2000)
        path = self.write("bench.json", json.dumps(vllm_doc(reqs, 95.5)))
        rep = self.report_json("--exact", path)
        want = expected(reqs)
        ok = [r for r in reqs if not r["error"]]
        self.assertEqual(rep["requests"]["completed"], len(ok))
        self.assertEqual(rep["requests"]["failed"], len(reqs) - len(ok))
        self.assertEqual(rep["requests"]["total"], len(reqs))
        self.assertEqual(rep["error_rate"], (len(reqs) - len(ok)) / len(reqs))
        self.assertEqual(rep["throughput"]["duration_s"], 95.5)
        self.assertEqual(rep["throughput"]["req_per_s"], len(ok) / 95.5)
        self.assertEqual(rep["throughput"]["tok_per_s"], sum(r["out"] for r in ok) / 95.5)
        self.assertEqual(rep["inputs"][0]["format"], "vllm")
        # vLLM writes output length 0 for every failed request, before its ITLs: those of the
        # requests that broke half-way are held back as they are read, no second pass
        self.assertFalse(rep["inputs"][0]["second_pass"])
        for m in METRICS:
            self.check_metric(rep, m, want[m])

    def test_e2e_from_itls_without_latencies(self):
        reqs = make_requests(12, 500)
        path = self.write("old.json", json.dumps(vllm_doc(reqs, 20.0, latencies=False)))
        rep = self.report_json("--exact", path)
        want = expected(reqs, latencies=False)
        for m in METRICS:
            self.check_metric(rep, m, want[m])
        self.assertEqual(rep["inputs"][0]["e2e_from_ttft_plus_itls"], len(want["e2e_s"]))
        text = run("report", path).stdout
        self.assertIn("TTFT + sum(ITL)", text)

    def test_hand_made_known_percentiles(self):
        # ten requests, TTFT 0.1 ... 1.0 s: nearest rank P50 is the 5th value, P90 the 9th,
        # P95 and above the maximum; numpy's linear P50 is halfway between the 5th and 6th.
        ttfts = [0.1 * k for k in range(1, 11)]
        doc = {"duration": 10.0, "ttfts": ttfts, "latencies": [t + 1.0 for t in ttfts],
               "output_lens": [11] * 10, "errors": [""] * 10}
        path = self.write("ten.json", json.dumps(doc))
        rep = self.report_json("--exact", path)
        t = rep["ttft_s"]
        self.assertLessEqual(abs(t["p50"] - ttfts[4]), REL * ttfts[4])
        self.assertLessEqual(abs(t["p90"] - ttfts[8]), REL * ttfts[8])
        for k in ("p95", "p99", "p99_9", "p99_99"):
            self.assertEqual(t[k], ttfts[9])  # rank n: the exact maximum
        self.assertAlmostEqual(t["numpy_linear"]["p50"], 0.55, places=15)
        self.assertAlmostEqual(t["numpy_linear"]["p90"], 0.91, places=15)
        # TPOT = (E2E - TTFT) / (11 - 1) = 0.1 s for every request
        for k in ("p50", "p99"):
            self.assertAlmostEqual(rep["tpot_s"][k], 0.1, delta=0.1 * REL)
        self.assertEqual(rep["itl_s"]["count"], 0)
        self.assertEqual(rep["throughput"]["req_per_s"], 1.0)
        self.assertEqual(rep["throughput"]["tok_per_s"], 11.0)

    def test_second_pass_when_the_guess_fails(self):
        # a writer that keeps the output length of a request that broke half-way: its ITLs
        # went to the percentiles before its error was read, and a second pass removes them
        reqs = make_requests(21, 1500, fail_share=0.05)
        broken = [r for r in reqs if r["error"] == "ClientPayloadError" and r["itls"]]
        self.assertTrue(broken)
        for r in broken:
            r["out"] = len(r["itls"]) + 1
        path = self.write("kept.json", json.dumps(vllm_doc(reqs, 60.0)))
        rep = self.report_json("--exact", path)
        self.assertTrue(rep["inputs"][0]["second_pass"])
        want = expected(reqs)
        for m in METRICS:
            self.check_metric(rep, m, want[m])

    def test_several_files_one_report(self):
        reqs = make_requests(13, 900)
        a = self.write("a.json", json.dumps(vllm_doc(reqs[:400], 30.0)))
        b = self.write("b.json", json.dumps(vllm_doc(reqs[400:], 40.0)))
        rep = self.report_json("--exact", a, b)
        want = expected(reqs)
        ok = [r for r in reqs if not r["error"]]
        self.assertEqual(rep["requests"]["completed"], len(ok))
        self.assertEqual(rep["throughput"]["duration_s"], 70.0)
        self.assertEqual(len(rep["inputs"]), 2)
        for m in METRICS:
            self.check_metric(rep, m, want[m])
        # the same two documents in one file (vllm bench serve --append-result)
        both = self.write("both.json", json.dumps(vllm_doc(reqs[:400], 30.0)) + "\n" +
                          json.dumps(vllm_doc(reqs[400:], 40.0)) + "\n")
        rep2 = self.report_json("--exact", both)
        self.assertEqual(rep2["inputs"][0]["runs"], 2)
        self.assertEqual([r["stated"]["duration_s"] for r in rep2["inputs"][0]["run_info"]],
                         [30.0, 40.0])
        for m in METRICS:  # the sums (so the means) may differ in the last bit: merge order
            self.assertAlmostEqual(rep2[m].pop("mean"), rep[m].pop("mean"), places=12)
            self.assertEqual(rep2[m], rep[m])

    def test_goodput_as_vllm(self):
        reqs = make_requests(14, 800)
        path = self.write("g.json", json.dumps(vllm_doc(reqs, 32.0)))
        rep = self.report_json("--slo", "ttft=120ms,tpot=0.025s,e2e=900", path)
        good = 0
        for r in reqs:
            if r["error"]:
                continue
            tpot = (r["latency"] - r["ttft"]) / (r["out"] - 1) if r["out"] > 1 else 0.0
            good += r["ttft"] <= 0.120 and tpot <= 0.025 and r["latency"] <= 0.900
        self.assertEqual(rep["goodput"]["good_requests"], good)
        self.assertEqual(rep["goodput"]["fraction"], good / len(reqs))
        self.assertEqual(rep["goodput"]["req_per_s"], good / 32.0)

    def test_slo_verdict(self):
        reqs = make_requests(18, 1200)
        path = self.write("v.json", json.dumps(vllm_doc(reqs, 48.0)))
        want = expected(reqs)
        ttft95 = nearest_rank(want["ttft_s"], 0.95)
        e2e95 = nearest_rank(want["e2e_s"], 0.95)
        failed = sum(1 for r in reqs if r["error"])
        # TTFT bound far below its P95 (violated), E2E bound far above (met)
        slo = "ttft=%rs,e2e=%rs,err=0.05" % (0.5 * ttft95, 2.0 * e2e95)
        rep = self.report_json("--slo", slo, path)
        v = rep["slo"]
        self.assertEqual(v["quantile"], 0.95)
        self.assertEqual([c["metric"] for c in v["checks"]], ["ttft_s", "e2e_s"])
        self.assertEqual(v["checks"][0]["latency"], rep["ttft_s"]["p95"])
        self.assertEqual(v["checks"][1]["latency"], rep["e2e_s"]["p95"])
        self.assertFalse(v["checks"][0]["latency_ok"])
        self.assertTrue(v["checks"][1]["latency_ok"])
        self.assertEqual(v["error_rate"], failed / len(reqs))
        self.assertEqual(v["errors_ok"], failed / len(reqs) <= 0.05)
        self.assertFalse(v["satisfied"])
        rep = self.report_json("--slo", "e2e=%rs" % (2.0 * e2e95), "--slo-quantile", "0.99", path)
        v = rep["slo"]
        self.assertEqual(v["checks"][0]["latency"], rep["e2e_s"]["p99"])
        self.assertEqual(v["err_max"], 0.01)  # the seed's default
        self.assertEqual(v["satisfied"], failed / len(reqs) <= 0.01 and
                         rep["e2e_s"]["p99"] <= 2.0 * e2e95)
        text = run("report", "--slo", slo, path).stdout
        self.assertIn("SLO verdict", text)
        self.assertIn("SLO VIOLATED", text)

    def test_events_on_the_time_line(self):
        # two runs laid end to end: the second starts where the first ended (its duration, or
        # its send-to-completion span when longer); events move with their run
        def doc(t0, duration, ev_t):
            return {"duration": duration, "ttfts": [0.5, 0.5], "latencies": [1.0, 1.0],
                    "start_times": [t0, t0 + 2.0], "errors": ["", ""],
                    "llmm_events": [{"t": ev_t, "type": "model.weight_switch"}]}
        a = self.write("a.json", json.dumps(doc(1000.0, 10.0, 1004.0)))
        b = self.write("b.json", json.dumps(doc(50.0, 3.0, 51.0)))
        rep = self.report_json("--event", "sched.jitter@2.5", a, b)
        evs = [(e["t_s"], e["type"]) for e in rep["events"]]
        self.assertEqual(evs, [(2.5, "sched.jitter"), (4.0, "model.weight_switch"),
                               (11.0, "model.weight_switch")])
        bad = self.write("bad.json", json.dumps(dict(doc(0.0, 1.0, 0.5), llmm_events=[
            {"t": 0.5, "type": "model.hot_swap"}])))
        p = run("report", bad)
        self.assertEqual(p.returncode, 1)
        self.assertIn("unknown event type 'model.hot_swap'", p.stderr)
        for arg in ("nope@1", "model.weight_switch@", "@3", "model.weight_switch@-1"):
            self.assertEqual(run("report", "--event", arg, a).returncode, 2, arg)

    def test_scorecard(self):
        reqs = make_requests(15, 300)
        path = self.write("s.json", json.dumps(vllm_doc(reqs, 12.0)))
        rep = self.report_json("--scenario", "code-assistant",
                               "--metric", "capability:accuracy=0.8:0.9:0.5",
                               "--metric", "performance:req_per_s=-:30:10",
                               "--slo", "err=0.1", path)
        sc = rep["scorecard"]
        er = rep["error_rate"]
        clamp = lambda x: min(1.0, max(0.0, x))
        cap = clamp((0.8 - 0.5) / (0.9 - 0.5))
        perf = clamp((rep["throughput"]["req_per_s"] - 10) / (30 - 10))
        eng = clamp((er - 0.1) / (0.0 - 0.1))
        w = {"capability": 0.45, "performance": 0.20, "engineering": 0.15}
        total = w["capability"] + w["performance"] + w["engineering"]
        overall = (w["capability"] * cap + w["performance"] * perf + w["engineering"] * eng) / total
        self.assertAlmostEqual(sc["overall"], overall, places=12)
        self.assertTrue(sc["renormalized"])
        self.assertIsNone(sc["layer_score"]["business"])
        self.assertAlmostEqual(sc["layer_score"]["engineering"], eng, places=12)


class GenericFormats(Base):
    def test_csv_and_jsonl_match_vllm(self):
        reqs = make_requests(16, 700)
        v = self.write("v.json", json.dumps(vllm_doc(reqs, 28.0)))
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status,input_tokens"]
        jl = []
        for r in reqs:
            status = "error" if r["error"] else "ok"
            if r["error"]:
                lines.append("%r,,,,%s,%d" % (r["start"], status, r["in"]))
            else:
                lines.append("%r,%r,%r,%d,%s,%d" % (r["start"], r["ttft"], r["latency"],
                                                    r["out"], status, r["in"]))
            jl.append(json.dumps({"start_s": r["start"], "ttft_s": r["ttft"],
                                  "e2e_s": r["latency"], "output_tokens": r["out"],
                                  "status": 500 if r["error"] else 200, "itls": r["itls"]}))
        c = self.write("t.csv", "\r\n".join(lines) + "\r\n")
        j = self.write("t.jsonl", "\n".join(jl) + "\n")
        rv = self.report_json("--exact", v)
        rc = self.report_json("--exact", c)
        rj = self.report_json("--exact", j)
        for m in ("ttft_s", "tpot_s", "e2e_s"):
            self.assertEqual(rc[m], rv[m], m)
            self.assertEqual(rj[m], rv[m], m)
        self.assertEqual(rj["itl_s"], rv["itl_s"])
        self.assertEqual(rc["itl_s"]["count"], 0)
        # the vLLM file also names the kind of each failure (its errors entries)
        kinds = rv["requests"].pop("failures_by_reason")
        self.assertEqual(sum(kinds.values()), rv["requests"]["failed"])
        self.assertEqual(rc["requests"], rv["requests"])
        # duration of a CSV: first send to last completion
        ok = [r for r in reqs if not r["error"]]
        span = max([r["start"] + r["latency"] for r in ok] +
                   [r["start"] for r in reqs]) - min(r["start"] for r in reqs)
        self.assertAlmostEqual(rc["throughput"]["duration_s"], span, places=9)

    def test_stdin_and_format_option(self):
        text = "ttft_s,e2e_s,output_tokens\n0.1,0.5,5\n0.2,0.6,5\n"
        p = run("report", "--json", "--duration", "2", "-", stdin=text)
        self.assertEqual(p.returncode, 0, p.stderr)
        rep = json.loads(p.stdout)
        self.assertEqual(rep["requests"]["completed"], 2)
        self.assertEqual(rep["throughput"]["req_per_s"], 1.0)
        self.assertEqual(rep["spikes"]["available"], False)
        f = self.write("trace.txt", text)
        rep = self.report_json("--format", "csv", f)
        self.assertEqual(rep["inputs"][0]["format"], "csv")
        self.assertIsNone(rep["throughput"]["req_per_s"])  # no start times, no duration

    def test_spikes_counted_exactly(self):
        # 100 requests per second for 60 s, TTFT just above 0.125 s (so that the P99 read from
        # the sketch, a bucket's representative, is never below the value itself), except
        # 50 requests sent in [29.5, 30) with TTFT 1 s: their first tokens all arrive in the
        # one-second slot 30, where the baselines (closed slots only) are still 0.125 s, so
        # all 50 are level 2 and nothing else is a spike.
        base = 0.125000001
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        burst = 0
        for i in range(6000):
            s = i / 100.0
            ttft = 1.0 if 29.5 <= s < 30.0 else base
            burst += ttft == 1.0
            lines.append("%r,%r,%r,10,ok" % (s, ttft, ttft + 0.5))
        self.assertEqual(burst, 50)
        f = self.write("spiky.csv", "\n".join(lines) + "\n")
        rep = self.report_json(f)
        sp = rep["spikes"]
        self.assertTrue(sp["available"])
        self.assertEqual(sp["samples"], 6000)
        self.assertEqual(sp["level2"], 50)
        self.assertEqual(sp["level1"], 0)
        self.assertEqual(sp["rate"], 50 / sp["classified"])
        self.assertNotIn("attribution", sp)  # no events, no attribution
        # attribution: the nearest event at most --lookback before each spike
        rep = self.report_json("--event", "sched.jitter@30.2", "--lookback", "0.425s", f)
        at = rep["spikes"]["attribution"]
        ns = lambda x: round(x * 1e9)
        spikes_t = [s + 1.0 for s in (i / 100.0 for i in range(6000)) if 29.5 <= s < 30.0]
        near = sum(1 for t in spikes_t if 0 <= ns(t) - ns(30.2) <= ns(0.425))
        self.assertGreater(near, 0)
        self.assertLess(near, 50)
        self.assertEqual(at["with_event"], near)
        self.assertEqual(at["by_type"], {"sched.jitter": near})
        self.assertEqual(at["without_event"], 50 - near)
        rows = [r for r in sp["intervals"] if r["level2"]]
        self.assertEqual(len(rows), 1)
        self.assertLessEqual(rows[0]["start_s"], 30.5)
        self.assertGreaterEqual(rows[0]["end_s"], 31.0)
        self.assertEqual(sum(r["samples"] for r in sp["intervals"]), 6000)

    def test_host_signals_attribution(self):
        # the spiky trace of test_spikes_counted_exactly, sent from t = 1000 s on its own
        # clock, and a host-signal file sampled every 50 ms on that clock: retransmits only in
        # the interval (1030.20, 1030.25], pressure always below its threshold, context
        # switches far above any rate but without a threshold by default, the frequency
        # falling by 25 % at 1040.05. The retransmits become one net.tcp.retrans event at the
        # start of their interval, 30.2 s on the report's time line: the spikes near it are
        # attributed exactly as to --event sched.jitter@30.2.
        base = 0.125000001
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        for i in range(6000):
            s = 1000 + i / 100.0
            ttft = 1.0 if 1029.5 <= s < 1030.0 else base
            lines.append("%r,%r,%r,10,ok" % (s, ttft, ttft + 0.5))
        trace = self.write("spiky.csv", "\n".join(lines) + "\n")
        samples = []
        for k in range(1201):
            t = round(1000 + k * 0.05, 2)
            d = {"t": t, "tcp_retrans": 40.0 if t == 1030.25 else 0.0, "psi_cpu": 0.05,
                 "ctx_switches": 1e9, "cpu_freq_mhz": 2250.0 if t >= 1040.05 else 3000.0,
                 "future_signal": [1, {"x": None}]}
            if k == 0:
                d = {"t": t, "cpu_freq_mhz": 3000.0, "tcp_retrans": None}
            samples.append(json.dumps(d))
        host = self.write("host.jsonl", "\n".join(samples) + "\n")
        rep = self.report_json("--host-signals", host, "--lookback", "0.425s", trace)
        ref = self.report_json("--event", "sched.jitter@30.2", "--lookback", "0.425s", trace)
        at, ref_at = rep["spikes"]["attribution"], ref["spikes"]["attribution"]
        self.assertGreater(ref_at["with_event"], 0)
        self.assertEqual(at["with_event"], ref_at["with_event"])
        self.assertEqual(at["without_event"], ref_at["without_event"])
        self.assertEqual(at["by_type"], {"net.tcp.retrans": ref_at["with_event"]})
        evs = [(round(e["t_s"], 9), e["type"], e["value"]) for e in rep["events"]]
        self.assertEqual(evs, [(30.2, "net.tcp.retrans", 40.0), (40.0, "cpu.freq_drop", 2250.0)])
        hs = rep["host_signals"]
        self.assertEqual(hs["samples"], 1201)
        self.assertEqual(hs["unknown_keys"], 1200)
        self.assertEqual(hs["signals"]["tcp_retrans"],
                         {"event": "net.tcp.retrans", "threshold": 0, "events": 1})
        self.assertEqual(hs["signals"]["psi_cpu"]["threshold"], 0.2)
        self.assertIsNone(hs["signals"]["ctx_switches"]["threshold"])  # +Inf: no event
        self.assertEqual(hs["signals"]["cpu_freq_mhz"]["events"], 1)
        # thresholds from the command line: pressure above 0.04 makes an event per interval;
        # a 30 % drop is not a 25 % one
        rep = self.report_json("--host-signals", host, "--host-threshold", "psi_cpu_above=0.04",
                               "--host-threshold", "cpu_freq_drop=0.3", trace)
        sig = rep["host_signals"]["signals"]
        self.assertEqual((sig["psi_cpu"]["events"], sig["cpu_freq_mhz"]["events"]), (1200, 0))
        text = run("report", "--host-signals", host, trace).stdout
        self.assertIn("Host signals", text)
        self.assertIn("net.tcp.retrans", text)
        # a trace without start times cannot place the samples
        notime = self.write("notime.csv", "ttft_s,e2e_s,output_tokens\n0.1,0.5,5\n")
        p = run("report", "--host-signals", host, notime)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no start times", p.stderr)

    def test_host_signals_errors(self):
        trace = self.write("t.csv", "start_s,ttft_s,e2e_s,output_tokens,status\n"
                                    "0,0.1,0.5,5,ok\n1,0.1,0.5,5,ok\n")
        cases = [
            ('{"t": 1}\n{"t": 1}\n', "h.jsonl:2: t = 1 is not later"),
            ('{"t": 1}\n\n{"psi_cpu": 0.1}\n', "h.jsonl:3: no \"t\""),
            ('{"t": 1, "psi_cpu": -0.5}\n', "h.jsonl:1:"),
            ('{"t": 1, "psi_cpu": "high"}\n', "psi_cpu must be a number >= 0 or null"),
            ('{"t": 1, "t": 2}\n', "key 't' appears twice"),
            ('{"t": "now"}\n', "t is a string, expected a finite number"),
            ('{"t": NaN}\n', "t is NaN, expected a finite number"),
            ('[1, 2]\n', "each line must hold one JSON object"),
            ('{"t": 1, "psi_io": [0]}\n', "unexpected list"),
            ('{"t": 1,\n', "h.jsonl:1:"),
        ]
        for text, msg in cases:
            h = self.write("h.jsonl", text)
            p = run("report", "--host-signals", h, trace)
            self.assertEqual(p.returncode, 1, text)
            self.assertIn(msg, p.stderr, text)
        self.assertEqual(run("report", "--host-signals", self.write("e.jsonl", ""), trace)
                         .returncode, 0)
        p = run("report", "--host-signals", os.path.join(self.dir, "absent.jsonl"), trace)
        self.assertEqual(p.returncode, 1)
        for arg, msg in (("psi_cpu", "expected NAME=VALUE"), ("psi=1", "unknown threshold"),
                         ("psi_cpu_above=-1", "not a number in [0, inf]"),
                         ("cpu_freq_drop=2", "not a number in [0, 1]"),
                         ("psi_cpu_above=x", "not a number")):
            p = run("report", "--host-threshold", arg, trace)
            self.assertEqual(p.returncode, 2, arg)
            self.assertIn(msg, p.stderr, arg)
        self.assertIn("cpu_throttle_above", run("report", "--help").stdout)

    def test_collapse_after_a_switch(self):
        # TTFT alternating 100 / 102 ms (baseline mean 101 ms, sigma floored at 1.01 ms, so the
        # threshold is 103.525 ms); one 550 ms TTFT right after the switch at 50 s (collapsed)
        # and one at 55 s, outside the 2 s window (an outlier, not a collapse)
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        obs = []
        for i in range(1000):
            s = i / 10.0
            ttft = 0.100 if i % 2 == 0 else 0.102
            if i in (500, 550):
                ttft = 0.550
            lines.append("%r,%r,%r,5,ok" % (s, ttft, ttft + 0.4))
            obs.append(s + ttft)
        f = self.write("switch.csv", "\n".join(lines) + "\n")
        rep = self.report_json(f)
        self.assertFalse(rep["collapse"]["available"])
        self.assertIn("no weight switch", rep["collapse"]["reason"])
        rep = self.report_json("--event", "model.weight_switch@50", f)
        c = rep["collapse"]
        ns = lambda x: round(x * 1e9)
        matched = sum(1 for t in obs if 0 <= ns(t) - ns(50.0) <= ns(2.0))
        self.assertTrue(c["available"])
        self.assertEqual(c["samples"], 1000)
        self.assertEqual(c["collapsed"], 1)
        self.assertEqual(c["switches"], [{"t_s": 50.0, "latencies": matched, "flagged": 1}])
        flag = c["flagged"][0]
        self.assertEqual(flag["value_s"], 0.55)
        self.assertAlmostEqual(flag["t_s"], 50.55, places=9)
        self.assertAlmostEqual(flag["baseline_mean_s"], 0.101, places=12)
        self.assertAlmostEqual(flag["threshold_s"], 0.101 + 2.5 * 0.00101, places=12)
        text = run("report", "--event", "model.weight_switch@50", f).stdout
        self.assertIn("COLLAPSE", text)


    def test_watched_metric_nobody_has(self):
        # every request has one output token: no TPOT anywhere, so the sections watching it
        # say why they did not run (the empty time line they got was leaked before: the
        # sanitizer build of this suite catches that)
        lines = ["start_s,ttft_s,e2e_s,output_tokens,status"]
        lines += ["%d,0.1,0.2,1,ok" % i for i in range(50)]
        f = self.write("one_token.csv", "\n".join(lines) + "\n")
        rep = self.report_json("--watch", "tpot", "--event", "model.weight_switch@10", f)
        self.assertEqual(rep["tpot_s"]["count"], 0)
        for section in ("spikes", "collapse"):
            self.assertFalse(rep[section]["available"], section)
            self.assertEqual(rep[section]["reason"], "no request has this metric", section)


class Malformed(Base):
    def assert_fails(self, path, where):
        p = run("report", path)
        self.assertEqual(p.returncode, 1, (path, p.stdout, p.stderr))
        self.assertEqual(p.stdout, "")
        self.assertTrue(p.stderr.startswith("llmm: "), p.stderr)
        self.assertIn(where, p.stderr)
        self.assertEqual(p.stderr.count("\n"), 1, p.stderr)

    def test_truncated_vllm(self):
        text = json.dumps(vllm_doc(make_requests(17, 50), 5.0))
        for cut in (1, 10, len(text) // 3, len(text) // 2, len(text) - 1):
            path = self.write("cut%d.json" % cut, text[:cut])
            self.assert_fails(path, path + ":1:")

    def test_garbage(self):
        rnd = random.Random(5)
        junk = bytes(rnd.randrange(256) for _ in range(4096))
        for name in ("junk.json", "junk.csv", "junk.jsonl"):
            self.assert_fails(self.write(name, junk), name + ":")

    def test_bad_rows_name_their_line(self):
        self.assert_fails(self.write("bad.csv", "ttft_s,e2e_s\n0.1,0.2\n0.1,x\n"), "bad.csv:3:")
        self.assert_fails(self.write("bad.jsonl", '{"ttft_s": 0.1, "e2e_s": 0.2}\n{"ttft_s": }\n'),
                          "bad.jsonl:2:")
        self.assert_fails(self.write("bad.json", '{"ttfts": [0.1],\n "latencies": [0.2, 0.3]}'),
                          "'ttfts' has 1 entries but other lists have 2")
        self.assert_fails(self.write("empty.json", ""), "empty input")

    def test_unreadable(self):
        self.assert_fails(os.path.join(self.dir, "missing.json"), "missing.json: No such file")
        self.assert_fails(self.dir, "is a directory")


class Demo(Base):
    SECTIONS = ("Requests", "Throughput", "Latency percentiles (milliseconds)",
                "Percentile rule: nearest rank", "Goodput", "SLO verdict", "Latency spikes (TTFT)",
                "Collapses around weight switches", "COLLAPSE", "model.weight_switch",
                "Four-layer score", "SYNTHETIC")

    def test_demo_prints_the_report(self):
        p = run("demo")
        self.assertEqual(p.returncode, 0, p.stderr)
        for s in self.SECTIONS:
            self.assertIn(s, p.stdout)
        for label in ("TTFT", "TPOT", "ITL", "E2E", "P99.9", "overall"):
            self.assertIn(label, p.stdout)

    def test_demo_json_is_deterministic(self):
        d1, d2 = os.path.join(self.dir, "one"), os.path.join(self.dir, "two")
        reps = []
        for d in (d1, d2):
            p = run("demo", "--json", "--dir", d, "--requests", "1500")
            self.assertEqual(p.returncode, 0, p.stderr)
            rep = json.loads(p.stdout)
            for key in ("ttft_s", "tpot_s", "itl_s", "e2e_s"):
                for q in ("p50", "p90", "p95", "p99", "p99_9"):
                    self.assertIsInstance(rep[key][q], float)
            for k in ("completed", "failed"):
                self.assertIsInstance(rep["requests"][k], int)
            self.assertIsInstance(rep["error_rate"], float)
            self.assertIsInstance(rep["throughput"]["req_per_s"], float)
            self.assertIsInstance(rep["throughput"]["tok_per_s"], float)
            for inp in rep["inputs"]:
                inp.pop("path")
            reps.append(rep)
        self.assertEqual(reps[0], reps[1])
        with open(os.path.join(d1, "llmm-demo-vllm.json")) as f1, \
                open(os.path.join(d2, "llmm-demo-vllm.json")) as f2:
            self.assertEqual(f1.read(), f2.read())
        # the kept file reports the same as the demo did, and agrees with an exact reading
        path = os.path.join(d1, "llmm-demo-vllm.json")
        rep = self.report_json("--exact", "--slo", "ttft=500ms,tpot=50ms,e2e=8s,err=1%",
                               "--scenario", "customer-service",
                               "--metric", "capability:factual_consistency=0.91:0.95:0.70",
                               "--metric", "business:review_pass_rate=0.88:0.95:0.60", path)
        with open(path) as f:
            doc = json.load(f)
        self.assertIn("synthetic", doc["llmm_synthetic"])
        reqs = [{"ttft": doc["ttfts"][i], "itls": doc["itls"][i], "latency": doc["latencies"][i],
                 "out": doc["output_lens"][i], "error": doc["errors"][i]}
                for i in range(len(doc["ttfts"]))]
        want = expected(reqs)
        for m in METRICS:
            self.check_metric(rep, m, want[m])
            for q in ("p50", "p99"):
                self.assertEqual(rep[m][q], reps[0][m][q])
        self.assertEqual(rep["requests"]["failed"], doc["failed"])
        other = json.loads(run("demo", "--json", "--seed", "7", "--requests", "1500").stdout)
        self.assertNotEqual(other["ttft_s"]["mean"], reps[0]["ttft_s"]["mean"])


if __name__ == "__main__":
    cli_common.main()
