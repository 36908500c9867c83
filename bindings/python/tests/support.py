"""Shared helpers for the binding tests: independent references and a counting allocator."""

from __future__ import annotations

import ctypes
import math
import os
import random
import subprocess
import sys
import textwrap
from typing import Dict, List, Optional, Sequence

try:
    import numpy
    HAVE_NUMPY = numpy is not None  # optional: numpy-specific tests are skipped without it
except ImportError:  # pragma: no cover - depends on the interpreter
    HAVE_NUMPY = False

#: worst relative error at scale 6, (2^(1/64) − 1) / (2^(1/64) + 1) = 0.0054152, rounded up
REL_ERR_S6 = 0.00542

#: repository root (bindings/python/tests/ -> ../../..)
SOURCE_ROOT = os.environ.get("LLMM_SOURCE_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))


#: the directory holding the llmmetrics package (bindings/python)
PKG_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def run_python(code: str, env_changes: dict,
               cwd: Optional[str] = None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter importing this package, with the environment
    changed as given (None removes a variable), in directory ``cwd`` (which comes first on
    ``sys.path``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = PKG_DIR
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def rel_bound(scale: int) -> float:
    """(base − 1) / (base + 1) at ``scale``, plus a 1e-12 relative margin for rounding."""
    base = 2.0 ** (2.0 ** -scale)
    return (base - 1.0) / (base + 1.0) * (1.0 + 1e-12)


def lognormal(n: int, median: float = 0.2, sigma: float = 1.0, seed: int = 1) -> List[float]:
    """``n`` log-normal values from a fixed seed (Python's own generator)."""
    rng = random.Random(seed)
    return [median * math.exp(sigma * rng.gauss(0.0, 1.0)) for _ in range(n)]


def exact_quantile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank quantile of sorted data (doc/spec.md §5): rank max(1, ceil(q·n)), with
    q·n within 1e-9 of an integer counting as that integer."""
    n = len(sorted_values)
    qn = q * n
    r = round(qn)
    if abs(qn - r) > 1e-9:
        r = math.ceil(qn)
    rank = min(max(1, int(r)), n)
    return sorted_values[rank - 1]


def assert_rel(tc: object, got: float, want: float, rel: float, msg: str = "") -> None:
    """``got`` within relative error ``rel`` of ``want`` (absolute 1e-300 near zero)."""
    err = abs(got - want)
    limit = rel * abs(want) + 1e-300
    if err > limit:
        raise AssertionError("%s: got %r, want %r (rel err %.3g > %.3g)"
                             % (msg, got, want, err / max(abs(want), 1e-300), rel))


class CountingAllocator:
    """libc malloc/realloc/free behind Python hooks, counting live bytes, optionally failing
    the k-th allocation (1-based; realloc counts as an allocation)."""

    def __init__(self, fail_at: Optional[int] = None) -> None:
        libc = ctypes.CDLL(None)
        self._malloc = libc.malloc
        self._malloc.restype = ctypes.c_void_p
        self._malloc.argtypes = [ctypes.c_size_t]
        self._realloc = libc.realloc
        self._realloc.restype = ctypes.c_void_p
        self._realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        self._free = libc.free
        self._free.restype = None
        self._free.argtypes = [ctypes.c_void_p]
        self.fail_at = fail_at
        self.calls = 0
        self.live: Dict[int, int] = {}
        #: size mismatches seen by realloc / free (the hooks cannot raise into C)
        self.errors: List[str] = []

    def _should_fail(self) -> bool:
        self.calls += 1
        return self.fail_at is not None and self.calls == self.fail_at

    def alloc(self, size: int) -> Optional[int]:
        if self._should_fail():
            return None
        p = self._malloc(size)
        if p:
            self.live[p] = size
        return p

    def realloc(self, ptr: int, old: int, new: int) -> Optional[int]:
        if self.live.get(ptr) != old:
            self.errors.append("realloc of %#x with size %d, allocated %r"
                               % (ptr, old, self.live.get(ptr)))
        if self._should_fail():
            return None
        p = self._realloc(ptr, new)
        if p:
            del self.live[ptr]
            self.live[p] = new
        return p

    def free(self, ptr: int, size: int) -> None:
        if self.live.get(ptr) != size:
            self.errors.append("free of %#x with size %d, allocated %r"
                               % (ptr, size, self.live.get(ptr)))
        self.live.pop(ptr, None)
        self._free(ptr)

    @property
    def live_bytes(self) -> int:
        return sum(self.live.values())
