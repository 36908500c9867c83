#!/usr/bin/env python3
"""A synthetic vLLM load sweep, as ``vllm bench serve --save-result --save-detailed
--append-result`` writes it: one JSON document per ``--max-concurrency`` level, separated by
a newline, each with vLLM's per-request lists (``ttfts``, ``itls``, ``latencies``,
``start_times``, ``input_lens``, ``output_lens``, ``errors``) and its own statistics
(``p99_ttft_ms``, …, interpolated as numpy's ``percentile`` does).

The stand-in for your own result file in ``vllm_walkthrough.ipynb``. The server model is
seeded and simple: closed-loop clients (each sends its next request when the last one ends),
a throughput X(N) = λN / (1 + σ(N − 1) + κN(N − 1)) (Universal Scalability Law) that sets the
mean request time N / X(N), log-normal noise, 1 % failed requests (reported as vLLM does:
an error text, TTFT and latency 0), and at concurrency 32 an incident: in a run of requests
six consecutive inter-token gaps are 12 times longer (a stall).

usage: vllm_sweep.py OUT.json
"""

from __future__ import annotations

import heapq
import json
import math
import random
import sys
from typing import Any, Dict, List, Sequence

LEVELS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64)
REQUESTS, REQUESTS_PER_CLIENT = 120, 6  # requests of a run: 120 + 6 per client
LAM, SIGMA, KAPPA = 2.0, 0.04, 0.0008  # requests/s per client at N = 1, contention, coherency
INCIDENT_LEVEL, INCIDENT = 32, range(100, 112)


def percentile(values: Sequence[float], p: float) -> float:
    """numpy.percentile's default (linear) interpolation, which vLLM's figures use."""
    s = sorted(values)
    if not s:
        return 0.0
    k = (len(s) - 1) * p / 100
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def _request(rng: random.Random, n: int, index: int, level: int) -> Dict[str, Any]:
    """One request's lengths and timings at concurrency n."""
    x = LAM * n / (1 + SIGMA * (n - 1) + KAPPA * n * (n - 1))
    mean_e2e = n / x
    out_len = rng.randint(24, 56)
    in_len = rng.randint(64, 512)
    if rng.random() < 0.01:
        return {"in": in_len, "out": 0, "ttft": 0.0, "itls": [], "e2e": 0.0,
                "error": "Internal Server Error", "busy": 0.05}
    ttft = (0.02 + 0.0002 * in_len) * (mean_e2e / (1 / LAM)) ** 0.5 \
        * math.exp(rng.gauss(0, 0.25))
    tpot = max(mean_e2e - ttft, 0.01) / (out_len - 1)
    stall = range(10, 16) if level == INCIDENT_LEVEL and index in INCIDENT else range(0)
    itls = [tpot * (12.0 if k in stall else 1.0) * math.exp(rng.gauss(0, 0.3))
            for k in range(out_len - 1)]
    e2e = ttft + math.fsum(itls)
    return {"in": in_len, "out": out_len, "ttft": ttft, "itls": itls, "e2e": e2e, "error": "",
            "busy": e2e}


def run(n: int, rng: random.Random) -> Dict[str, Any]:
    """One benchmark at --max-concurrency n: n clients, REQUESTS + REQUESTS_PER_CLIENT·n
    requests in all."""
    free = [(0.0, c) for c in range(n)]  # (time the client is free, client)
    reqs = []
    total = REQUESTS + REQUESTS_PER_CLIENT * n
    for i in range(total):
        t, c = heapq.heappop(free)
        r = _request(rng, n, i, n)
        r["start"] = 1000.0 + t
        reqs.append(r)
        heapq.heappush(free, (t + r["busy"], c))
    ok = [r for r in reqs if not r["error"]]
    duration = max(r["start"] + r["e2e"] for r in ok) - min(r["start"] for r in reqs)
    ttfts = [r["ttft"] for r in ok]
    itls = [g for r in ok for g in r["itls"]]
    tpots = [(r["e2e"] - r["ttft"]) / (r["out"] - 1) for r in ok if r["out"] > 1]
    e2es = [r["e2e"] for r in ok]
    doc: Dict[str, Any] = {
        "date": "20260101-%06d" % (n * 100), "endpoint_type": "vllm", "backend": "vllm",
        "label": None, "model_id": "synthetic/llmmetrics-demo",
        "tokenizer_id": "synthetic/llmmetrics-demo", "num_prompts": total,
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": n,
        "duration": duration, "completed": len(ok), "failed": total - len(ok),
        "total_input_tokens": sum(r["in"] for r in ok),
        "total_output_tokens": sum(r["out"] for r in ok),
        "request_throughput": len(ok) / duration,
        "output_throughput": sum(r["out"] for r in ok) / duration,
        "input_lens": [r["in"] for r in reqs], "output_lens": [r["out"] for r in reqs],
        "ttfts": [r["ttft"] for r in reqs], "itls": [r["itls"] for r in reqs],
        "latencies": [r["e2e"] for r in reqs], "start_times": [r["start"] for r in reqs],
        "errors": [r["error"] for r in reqs],
    }
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2es)):
        doc["mean_%s_ms" % name] = 1e3 * math.fsum(values) / len(values)
        for p in (50, 90, 99):
            doc["p%d_%s_ms" % (p, name)] = 1e3 * percentile(values, p)
    return doc


def write(path: str, seed: int = 11, levels: Sequence[int] = LEVELS) -> str:
    """Write the sweep (one document per level, newline-separated) to ``path``; returns it."""
    rng = random.Random(seed)
    docs: List[str] = [json.dumps(run(n, rng)) for n in levels]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(docs) + "\n")
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(write(sys.argv[1]))
