"""Closed-form capacity figures (``llmmetrics/capacity.h``): throughput decay, roofline,
scaling and communication overhead, Little's-law capacity. Each function checks its
arguments in C and raises :class:`InvalidArgument` / :class:`OutOfRange` as documented there.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable

from . import _lib
from ._args import real, uint32
from .errors import check

__all__ = ["decay_rate", "roofline", "roofline_critical_intensity", "arithmetic_intensity",
           "scaling_decay", "scaling_decay_devices", "comm_share", "seqlen_decay",
           "littles_law_tps", "LITTLES_LAW_SAFETY_DEFAULT"]

LITTLES_LAW_SAFETY_DEFAULT: float = _lib.LLMM_LITTLES_LAW_SAFETY_DEFAULT


def _call(fn: Callable[..., int], name: str, *args: Any) -> float:
    out = ctypes.c_double()
    check(fn(*args, ctypes.byref(out)), name, ", ".join(repr(a) for a in args))
    return out.value


def decay_rate(actual: float, peak: float) -> float:
    """Throughput decay η = 1 − actual / peak (negative when actual exceeds the peak)."""
    return _call(_lib.llmm_decay_rate, "llmm_decay_rate", real(actual, "actual"),
                 real(peak, "peak"))


def roofline(peak_flops: float, bandwidth_bytes: float, intensity: float) -> float:
    """Roofline bound min(peak_flops, bandwidth_bytes · intensity), in FLOP/s."""
    return _call(_lib.llmm_roofline, "llmm_roofline", real(peak_flops, "peak_flops"),
                 real(bandwidth_bytes, "bandwidth_bytes"), real(intensity, "intensity"))


def roofline_critical_intensity(peak_flops: float, bandwidth_bytes: float) -> float:
    """Ridge-point intensity peak_flops / bandwidth_bytes, in FLOPs per byte."""
    return _call(_lib.llmm_roofline_critical_intensity, "llmm_roofline_critical_intensity",
                 real(peak_flops, "peak_flops"), real(bandwidth_bytes, "bandwidth_bytes"))


def arithmetic_intensity(flops: float, bytes_moved: float) -> float:
    """Arithmetic intensity flops / bytes."""
    return _call(_lib.llmm_arithmetic_intensity, "llmm_arithmetic_intensity",
                 real(flops, "flops"), real(bytes_moved, "bytes_moved"))


def scaling_decay(ideal: float, measured: float) -> float:
    """Multi-device scaling decay 1 − measured / ideal."""
    return _call(_lib.llmm_scaling_decay, "llmm_scaling_decay", real(ideal, "ideal"),
                 real(measured, "measured"))


def scaling_decay_devices(single: float, devices: int, measured: float) -> float:
    """Scaling decay 1 − measured / (single · devices)."""
    return _call(_lib.llmm_scaling_decay_devices, "llmm_scaling_decay_devices",
                 real(single, "single"), uint32(devices, "devices", "llmm_scaling_decay_devices"),
                 real(measured, "measured"))


def comm_share(comm_time: float, step_time: float) -> float:
    """Communication share of a step, comm_time / step_time, in [0, 1]."""
    return _call(_lib.llmm_comm_share, "llmm_comm_share", real(comm_time, "comm_time"),
                 real(step_time, "step_time"))


def seqlen_decay(tps_short: float, tps_long: float) -> float:
    """Sequence-length decay 1 − tps_long / tps_short."""
    return _call(_lib.llmm_seqlen_decay, "llmm_seqlen_decay", real(tps_short, "tps_short"),
                 real(tps_long, "tps_long"))


def littles_law_tps(p999_ms: float, concurrency: float, safety: float = 0.0) -> float:
    """SLO-driven capacity max(1, L / W · safety), W the P99.9 latency in seconds (given in
    milliseconds), L the mean in-flight requests; safety 0 means the default 0.85."""
    return _call(_lib.llmm_littles_law_tps, "llmm_littles_law_tps", real(p999_ms, "p999_ms"),
                 real(concurrency, "concurrency"), real(safety, "safety"))
