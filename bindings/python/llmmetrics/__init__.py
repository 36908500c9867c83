"""llmmetrics: Python binding of libllmmetrics (pure ctypes, no compile step).

Streaming latency sketches, detectors and capacity formulas for LLM inference::

    import llmmetrics
    with llmmetrics.Sketch() as s:
        s.add_many(latencies)          # numpy float64 arrays are read in place
        p50, p99 = s.quantiles([0.5, 0.99])

Layers:

* ``llmmetrics._lib``: every C function under its C name, ``argtypes``/``restype`` declared,
  returning raw statuses (see that module for the library loading order);
* the classes and functions exported here: Pythonic, raising :class:`LlmmError` subclasses;
* :data:`cffi_cdef`: the public API as a cffi ``cdef`` for cffi users.

In a notebook every sketch, window and result record shows itself as HTML; :func:`describe`
gives the percentile table of named sketches (a ``pandas.DataFrame`` when pandas imports) and
:mod:`llmmetrics.plot` draws percentile and load-sweep charts as plain SVG.
"""

from __future__ import annotations

from . import _lib, plot
from ._cdef import render_cdef
from ._describe import describe
from .capacity import (arithmetic_intensity, comm_share, decay_rate, littles_law_tps,
                       roofline, roofline_critical_intensity, scaling_decay,
                       scaling_decay_devices, seqlen_decay)
from .context import Context
from .detect import (CollapseCounts, CollapseDetector, CollapseOption, CollapseReport,
                     CollapseVerdict, CorrelationMethod, Event, EventLog, EventLogCounts,
                     EventType, SaturationOption, SaturationReading, SaturationSignal,
                     SpikeDetector, SpikeLevel, SpikeOption, SpikeStats, StabilityGate,
                     StabilityOption, StabilityReading, TracedEvent, correlation,
                     event_attr_name)
from .errors import (AbiMismatch, BufferTooSmall, Corrupt, Empty, InvalidArgument,
                     InvalidState, LlmmError, NotConverged, OutOfMemory, OutOfRange, Status,
                     UnknownOption, UnsupportedVersion)
from .export import (BucketList, OtlpTemporality, PromFormat, PromType, PromWriter,
                     format_labels, label_escape, otlp_json, otlp_json_point, prom_buckets,
                     prom_content_type, prom_negotiate, prom_negotiate_openmetrics,
                     prometheus_text)
from .exemplar import (EXEMPLAR_BOUNDS_MAX, Exemplar, ExemplarKeep, Exemplars, ExemplarShard,
                       traceparent_format, traceparent_parse)
from .fit import (FitStats, Knee, KneeQuality, KneeReport, PolyFit, Usl, knee_collapse,
                  knee_inflection, knee_inflection_value, knee_kneedle, knee_report, poly_deriv,
                  poly_eval, poly_residuals, poly_roots, polyfit, usl_fit)
from .otlp import (OtlpEncoding, OtlpExemplar, OtlpMetric, OtlpMetricType, OtlpPoint, OtlpSpan,
                   OtlpSpanKind, OtlpStatusCode, OtlpValueType, otlp_metrics, otlp_traces)
from .host import HostOption, HostSampler, HostSignal, host_signal_event, host_signal_name
from ._options import ObjectKind, OptionInfo, OptionType, options
from .recorder import Recorder, Shard
from .resource import (KvHitReading, KvHitTracker, TlbMonitor, TlbReading, KvOccupancy,
                       LiiMonitor, LiiOption, LiiReading, LiiTier, TlbPreset,
                       TlbWorkload, kv_evict_threshold, kv_fragmentation, kv_occupancy, kv_ttl,
                       lii, page_walk_ns, tlb_preset)
from .score import (Direction, Layer, LayerScore, Metric, MissingPolicy, Scenario,
                    ScorecardOption, Scorecard, ScoreResult, scenario_weights, score_normalize)
from .slo import (BurnAlerter, BurnOption, BurnResult, BurnWindow, BurnWindowResult,
                  ErrorTrigger, ErrorTriggerOption, ErrorTriggerReading, Goodput, GoodputOption,
                  GoodputResult, SloResult, SloWindow, burn_budget_spent, burn_rate,
                  goodput_tpot, slo_check, slo_check_quantile)
from .sketch import (SCALE_DEFAULT, SCALE_MAX, SCALE_MIN, Bucket, DecodeInfo, Sketch,
                     SpecialCounts, bucket_bounds, bucket_index, relative_error)
from .window import RatioWindow, Window
from ._structs import StructKind

__all__ = [
    "__version__", "library_version", "library_version_string", "library_path", "now_ns",
    "status_name", "strerror", "cffi_cdef", "describe", "plot",
    "Context", "Sketch", "Bucket", "SpecialCounts", "DecodeInfo", "bucket_index", "bucket_bounds",
    "relative_error", "SCALE_DEFAULT", "SCALE_MIN", "SCALE_MAX",
    "Recorder", "Shard", "Window", "RatioWindow",
    "SpikeDetector", "SpikeLevel", "SpikeOption", "SpikeStats",
    "CollapseDetector", "CollapseOption", "CollapseVerdict", "CollapseReport", "CollapseCounts",
    "EventLog", "EventType", "Event", "EventLogCounts", "TracedEvent", "event_attr_name",
    "correlation",
    "CorrelationMethod", "StabilityGate", "StabilityOption", "StabilityReading",
    "SaturationSignal", "SaturationOption", "SaturationReading",
    "polyfit", "poly_eval", "poly_residuals", "poly_deriv", "poly_roots", "PolyFit", "FitStats",
    "knee_inflection", "knee_inflection_value", "knee_collapse", "knee_kneedle", "knee_report",
    "Knee", "KneeQuality", "KneeReport", "Usl", "usl_fit",
    "decay_rate", "roofline", "roofline_critical_intensity", "arithmetic_intensity",
    "scaling_decay", "scaling_decay_devices", "comm_share", "seqlen_decay", "littles_law_tps",
    "prometheus_text", "label_escape", "format_labels", "PromWriter", "PromFormat", "PromType",
    "BucketList", "OtlpTemporality", "prom_negotiate", "prom_content_type", "prom_buckets",
    "prom_negotiate_openmetrics", "Exemplars", "ExemplarShard", "Exemplar", "ExemplarKeep",
    "EXEMPLAR_BOUNDS_MAX", "traceparent_parse", "traceparent_format",
    "otlp_json_point", "otlp_json",
    "OtlpEncoding", "OtlpMetricType", "OtlpValueType", "OtlpSpanKind", "OtlpStatusCode",
    "OtlpExemplar", "OtlpPoint", "OtlpMetric", "OtlpSpan", "otlp_metrics", "otlp_traces",
    "LiiMonitor", "LiiOption", "LiiReading", "LiiTier", "lii", "kv_fragmentation",
    "kv_evict_threshold", "kv_ttl", "KvOccupancy", "kv_occupancy", "TlbWorkload", "TlbPreset",
    "tlb_preset", "page_walk_ns", "KvHitTracker", "KvHitReading", "TlbMonitor", "TlbReading",
    "SloResult", "slo_check", "slo_check_quantile", "SloWindow", "Goodput", "GoodputOption",
    "GoodputResult", "goodput_tpot", "BurnAlerter", "BurnOption", "BurnWindow", "BurnResult",
    "BurnWindowResult", "burn_rate", "burn_budget_spent", "ErrorTrigger", "ErrorTriggerOption",
    "ErrorTriggerReading",
    "Scorecard", "ScoreResult", "LayerScore", "Metric", "Layer", "Scenario", "Direction",
    "MissingPolicy", "ScorecardOption", "scenario_weights", "score_normalize",
    "options", "ObjectKind", "OptionType", "OptionInfo",
    "HostSampler", "HostSignal", "HostOption", "host_signal_name", "host_signal_event",
    "Status", "LlmmError", "InvalidArgument", "OutOfMemory", "OutOfRange", "Empty", "Corrupt",
    "UnsupportedVersion", "BufferTooSmall", "UnknownOption", "InvalidState", "NotConverged",
    "AbiMismatch", "StructKind",
]

#: version of this binding: that of the headers its declarations were generated from
#: (``_api.py``), which is the meson project version (with ``pip install .`` also the
#: package's version and, bundled, the library's)
__version__: str = _lib.LLMM_VERSION_STRING

#: where the shared library was loaded from (the path, soname or find_library result used)
library_path: str = _lib.library_path

#: the public C API as a cffi ``cdef`` (ABI mode): ``ffi.cdef(llmmetrics.cffi_cdef)``, then
#: ``ffi.dlopen(llmmetrics.library_path)``
cffi_cdef: str = render_cdef()


def library_version() -> int:
    """Version of the loaded C library as major·10000 + minor·100 + patch."""
    return int(_lib.llmm_version())


def library_version_string() -> str:
    """Version of the loaded C library, e.g. ``"1.0.0"``."""
    return str(_lib.llmm_version_string().decode("ascii"))


def now_ns() -> int:
    """The library's monotonic clock (CLOCK_MONOTONIC) in nanoseconds."""
    return int(_lib.llmm_now_ns())


def status_name(status: int) -> str:
    """Symbolic name of a status code, e.g. ``"LLMM_E_INVALID"``."""
    return str(_lib.llmm_status_name(int(status)).decode("ascii", "replace"))


def strerror(status: int) -> str:
    """The library's message for a status code, e.g. ``"invalid argument"``."""
    return str(_lib.llmm_strerror(int(status)).decode("utf-8", "replace"))
