#!/usr/bin/env python3
"""A walk through the llmmetrics Python binding, in notebook cells (``# %%`` markers: open it
in Jupyter via jupytext, or in VS Code, or just run it as a script).

Run:  LLMMETRICS_LIBRARY=build/lib/libllmmetrics.so.1 PYTHONPATH=bindings/python \\
      python3 bindings/python/examples/notebook_walkthrough.py [--html out.html]

With ``--html`` the notebook renderings (``_repr_html_``) of a sketch and a scorecard are
written to one HTML page, so that they can be looked at without Jupyter.
"""

from __future__ import annotations

import math
import pickle
import random
import sys
import threading

import llmmetrics as lm

try:
    import numpy as np
except ImportError:  # numpy is optional: plain lists work everywhere
    np = None

# %% [markdown]
# ## 1. Latencies into a sketch
# Every quantile is within 0.542 % of the exact nearest-rank value at the default scale.

# %%
rng = random.Random(7)
latencies = [0.2 * math.exp(rng.gauss(0.0, 1.0)) for _ in range(100_000)]  # seconds
sketch = lm.Sketch()
sketch.add_many(np.asarray(latencies) if np is not None else latencies)  # numpy: no copy
p50, p99, p999 = sketch.quantiles([0.5, 0.99, 0.999])
exact = sorted(latencies)
print(sketch)
print("p99 %.4f s, exact %.4f s, relative error %.3f %%"
      % (p99, exact[math.ceil(0.99 * len(exact)) - 1],
         100 * abs(p99 / exact[math.ceil(0.99 * len(exact)) - 1] - 1)))

# %% [markdown]
# ## 2. Merging replicas is exact; sketches travel as bytes
# Sketches add and `sum()` works. `to_bytes()` (or pickle) ships one in about a kilobyte.

# %%
replicas = []
for r in range(4):
    s = lm.Sketch()
    s.add_many(latencies[r::4])
    replicas.append(pickle.loads(pickle.dumps(s)))  # as if it came from another process
    s.close()
fleet = sum(replicas)
print("fleet == one sketch of everything (but the float sum):",
      list(fleet.buckets()) == list(sketch.buckets()))
print("encoded size of the fleet sketch: %d bytes" % len(fleet.to_bytes()))

# %% [markdown]
# ## 3. Many writer threads: a recorder

# %%
with lm.Recorder() as rec:
    def worker(chunk):
        with rec.shard() as shard:
            shard.add_many(chunk)

    threads = [threading.Thread(target=worker, args=(latencies[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with rec.snapshot() as snap:
        print("recorder snapshot:", snap)

# %% [markdown]
# ## 4. Sliding windows and the spike detector (explicit clock: reproducible)

# %%
SEC = 10 ** 9
window = lm.Window(slot_ns=SEC, slots=60)
detector = lm.SpikeDetector(warmup=500)
spikes = {lm.SpikeLevel.LEVEL1: 0, lm.SpikeLevel.LEVEL2: 0}
for i, v in enumerate(latencies[:30_000]):
    now = i * SEC // 500  # 500 requests per second for 60 s
    if i > 25_000 and i % 50 == 0:
        v *= 20  # an incident: every 50th request is 20x slower
    window.add(v, now_ns=now)
    level = detector.observe(v, now_ns=now)
    if level:
        spikes[level] += 1
now = 30_000 * SEC // 500
print("last 10 s p99: %.4f s" % window.quantile(0.99, span_ns=10 * SEC, now_ns=now))
print("spikes:", {k.name: n for k, n in spikes.items()}, "rate %.4f" % detector.rate(now_ns=now))

# %% [markdown]
# ## 5. Collapse right after a precision switch (FP16 -> INT8)

# %%
collapse = lm.CollapseDetector()
MS = 10 ** 6
for i in range(20):
    collapse.observe(0.050 + 0.001 * (i % 3), now_ns=i * 20 * MS)  # steady 50 ms batches
collapse.observe_tps(2400.0, now_ns=400 * MS)
collapse.mark_switch(now_ns=401 * MS)
print("batch after the switch collapsed:", collapse.observe(0.120, now_ns=405 * MS))
collapse.observe_tps(700.0, now_ns=406 * MS)
print("confirmed signals:", collapse.switch_report().signals)

# %% [markdown]
# ## 6. Capacity: knee of a load sweep, USL, Little's law

# %%
conc = [float(n) for n in range(1, 129)]
qps = [900 * n / (1 + 0.03 * (n - 1) + 0.0004 * n * (n - 1)) * (1 + 0.01 * rng.gauss(0, 1))
       for n in conc]
report = lm.knee_report(conc, qps)
print("USL:", report.usl)
print("knees: inflection %.1f, collapse %.1f, kneedle %.1f"
      % (report.inflection.knee, report.collapse.knee, report.kneedle.knee))
print("Little's law at P99.9 = %.0f ms, 45 in flight: %.1f req/s"
      % (p999 * 1e3, lm.littles_law_tps(p999 * 1e3, 45)))

# %% [markdown]
# ## 7. A four-layer scorecard

# %%
card = lm.Scorecard(lm.Scenario.CUSTOMER_SERVICE, missing=lm.MissingPolicy.RENORMALIZE)
card.add_metric(lm.Layer.CAPABILITY, "factual_consistency", target=0.95, worst=0.7)
card.add_metric(lm.Layer.PERFORMANCE, "p95_ms", target=300, worst=1500)
card.add_metric(lm.Layer.ENGINEERING, "error_rate", target=0.001, worst=0.05)
card.update({"factual_consistency": 0.91, "p95_ms": sketch.quantile(0.95) * 1e3,
             "error_rate": 0.004})
result = card.evaluate()
print("overall %.3f (business layer missing: renormalised=%s)"
      % (result.overall, result.renormalized))

# %% [markdown]
# ## 8. Export: Prometheus text and OTLP JSON

# %%
print(lm.prometheus_text(sketch, "llm_request_latency_seconds", {"model": "demo"})
      .splitlines()[2])
print("OTLP JSON point: %d bytes" % len(lm.otlp_json_point(sketch)))

# %% [markdown]
# ## 9. Errors are exceptions with the library's status

# %%
try:
    sketch.add(float("nan"))
except lm.InvalidArgument as e:
    print("refused:", e.name, "-", e.message)

if "--html" in sys.argv:
    path = sys.argv[sys.argv.index("--html") + 1]
    with open(path, "w", encoding="utf-8") as f:
        f.write("<html><body>%s<hr>%s</body></html>" % (sketch._repr_html_(), card._repr_html_()))
    print("wrote", path)

for obj in replicas + [fleet, sketch, window, detector, collapse, card]:
    obj.close()
