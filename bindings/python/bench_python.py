#!/usr/bin/env python3
"""Throughput of Sketch.add_many from Python: numpy array (read in place) vs list vs
array('d'), against the C batch call made directly through the low-level layer.

Usage: LLMMETRICS_LIBRARY=build/lib/libllmmetrics.so.1 \\
       PYTHONPATH=bindings/python python3 bindings/python/bench_python.py [N]

N values (default 10 000 000), log-normal (median 0.2, sigma 1, fixed seed). Each figure is the
best of 5 runs into a fresh sketch; the table gives ns per value and the ratio to the C call.
Then the small-batch overhead: 4096-value slices against one call over the same values, for a
sketch (next to the bare ctypes calls, the floor for any wrapper) and for a recorder's shard.
"""

from __future__ import annotations

import array
import ctypes
import math
import random
import sys
import time
from typing import Any, Callable, Dict, List

import llmmetrics
from llmmetrics import _lib
from llmmetrics._buffers import as_address
from llmmetrics.sketch import _c_add_many

try:
    import numpy as np
except ImportError:  # the array('d') path stands in for the zero-copy case
    np = None


def best_of(runs: int, fn: Callable[[llmmetrics.Sketch], None]) -> float:
    best = math.inf
    for _ in range(runs):
        with llmmetrics.Sketch() as s:
            t0 = time.perf_counter()
            fn(s)
            best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    if np is not None:
        data = np.random.default_rng(1).lognormal(math.log(0.2), 1.0, n)
        as_list: List[float] = data.tolist()
    else:
        rng = random.Random(1)
        as_list = [0.2 * math.exp(rng.gauss(0.0, 1.0)) for _ in range(n)]
    as_array = array.array("d", as_list)

    def c_batch(s: llmmetrics.Sketch) -> None:
        # the C call on memory that is already a C array: what a C program pays
        buf = (ctypes.c_double * n).from_buffer(as_array)
        _lib.llmm_sketch_add_many(s, buf, n)

    rows: Dict[str, float] = {"C llmm_sketch_add_many (direct)": best_of(5, c_batch)}
    if np is not None:
        rows["Sketch.add_many(numpy float64)"] = best_of(5, lambda s: s.add_many(data))
    rows["Sketch.add_many(array('d'))"] = best_of(5, lambda s: s.add_many(as_array))
    rows["Sketch.add_many(list)"] = best_of(3, lambda s: s.add_many(as_list))
    m = min(n, 200_000)
    head = as_list[:m]

    def one_by_one(s: llmmetrics.Sketch) -> None:
        add = s.add
        for v in head:
            add(v)

    per_add = best_of(3, one_by_one) / m * n  # scaled to n values for the table
    rows["Sketch.add(v) in a loop (%d values, scaled)" % m] = per_add

    base = rows["C llmm_sketch_add_many (direct)"]
    print("libllmmetrics %s, Python %s, numpy %s, n = %d"
          % (llmmetrics.library_version_string(), sys.version.split()[0],
             np.__version__ if np is not None else "absent", n))
    print("%-50s %12s %10s %8s" % ("path", "total ms", "ns/value", "x C"))
    for name, secs in rows.items():
        print("%-50s %12.1f %10.2f %8.2f" % (name, secs * 1e3, secs / n * 1e9, secs / base))
    slices_vs_one(as_array, "array('d')")
    if np is not None:
        slices_vs_one(data, "numpy float64")


def slices_vs_one(values: Any, what: str, size: int = 4096, rounds: int = 100) -> None:
    """The same 2^20 values (or fewer) as one add_many call and as slices of ``size``, in
    alternating rounds into one sketch, so that machine load hits both alike; the best round
    of each. The ratio is the per-call overhead a small batch pays (issue target: <= 1.3).
    In the same rounds: the same C calls through ctypes with every address computed
    beforehand (the floor that no Python wrapper over ctypes can go below), and one call
    against slices into a recorder's shard."""
    m = min(len(values), 1 << 20)
    whole = values[:m]
    parts = [values[i:i + size] for i in range(0, m, size)]
    held = [as_address(p) for p in parts]  # (address, n, keepalive) of each slice
    with llmmetrics.Sketch() as s, llmmetrics.Recorder() as rec, rec.shard() as shard:
        s.add_many(whole)  # the buckets exist before the first timed round
        shard.add_many(whole)
        handle = s._address

        def sketch_slices() -> None:
            for part in parts:
                s.add_many(part)

        def bare_calls() -> None:
            for addr, n, _keep in held:
                _c_add_many(handle, addr, n)

        def shard_slices() -> None:
            for part in parts:
                shard.add_many(part)

        runs: Dict[str, Callable[[], None]] = {
            "one": lambda: s.add_many(whole), "sliced": sketch_slices, "bare": bare_calls,
            "shard one": lambda: shard.add_many(whole), "shard sliced": shard_slices}
        best = dict.fromkeys(runs, math.inf)
        for _ in range(rounds):
            for name, run in runs.items():
                t0 = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - t0)
    print("%-50s %10.2f ns/value, one call %.2f ns/value: %.2fx (target <= 1.3); "
          "ctypes calls alone %.2fx"
          % ("Sketch.add_many(%s) in slices of %d" % (what, size), best["sliced"] / m * 1e9,
             best["one"] / m * 1e9, best["sliced"] / best["one"], best["bare"] / best["one"]))
    print("%-50s %10.2f ns/value, one call %.2f ns/value: %.2fx"
          % ("Shard.add_many(%s) in slices of %d" % (what, size),
             best["shard sliced"] / m * 1e9, best["shard one"] / m * 1e9,
             best["shard sliced"] / best["shard one"]))


if __name__ == "__main__":
    main()
