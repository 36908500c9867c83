"""OpenTelemetry requests: many metrics and points, and client spans, as protobuf or JSON
(``llmmetrics/otlp.h``).

:func:`otlp_metrics` returns the body of an OTLP/HTTP POST to ``/v1/metrics`` and
:func:`otlp_traces` one to ``/v1/traces``, in the protobuf encoding (the OTLP default,
``application/x-protobuf``) or OTLP/JSON. The library only encodes; send the bytes with any
HTTP client. Attribute lists of resource, scope, points and exemplars take the same forms as
the Prometheus labels of :mod:`llmmetrics.export` (a mapping, or a preformatted string; keys
may contain ``.`` and ``-``); span attributes are typed (``str``, ``int`` or ``float``).
"""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Union

from . import _lib
from ._args import int32, int64, real, uint32, uint64
from ._structs import new_struct
from .errors import error_for
from .export import Labels, OtlpTemporality, _cstr, _labels_arg, _sized
from .sketch import Sketch

__all__ = ["OtlpEncoding", "OtlpMetricType", "OtlpValueType", "OtlpSpanKind",
           "OtlpStatusCode", "OtlpExemplar", "OtlpPoint", "OtlpMetric", "OtlpSpan",
           "otlp_metrics", "otlp_traces"]


class OtlpEncoding(enum.IntEnum):
    """Encoding of an OTLP request (``llmm_otlp_encoding``)."""

    PROTOBUF = 1
    JSON = 2


class OtlpMetricType(enum.IntEnum):
    """Data type of an OTLP metric (``llmm_otlp_metric_type``)."""

    EXPONENTIAL_HISTOGRAM = 1
    HISTOGRAM = 2
    SUM = 3
    GAUGE = 4
    SUMMARY = 5


class OtlpValueType(enum.IntEnum):
    """Type of a span attribute's value (``llmm_otlp_value_type``); chosen from the Python
    type of the value by :func:`otlp_traces`."""

    STRING = 1
    INT = 2
    DOUBLE = 3


class OtlpSpanKind(enum.IntEnum):
    """Kind of a span (``llmm_otlp_span_kind``)."""

    SPAN_INTERNAL = 1
    SPAN_SERVER = 2
    SPAN_CLIENT = 3
    SPAN_PRODUCER = 4
    SPAN_CONSUMER = 5


class OtlpStatusCode(enum.IntEnum):
    """Status of a span (``llmm_otlp_status_code``)."""

    STATUS_UNSET = 0
    STATUS_OK = 1
    STATUS_ERROR = 2


@dataclass
class OtlpExemplar:
    """One exemplar of a point: a value and the trace (16 bytes) and span (8 bytes) it came
    from; empty ids are left out."""

    value: float
    time_unix_nano: int = 0
    trace_id: bytes = b""
    span_id: bytes = b""
    attributes: Labels = None


@dataclass
class OtlpPoint:
    """One data point: a sketch for histograms and summaries (with ``earlier``, a delta
    histogram point is ``sketch − earlier``), a ``value`` for sums and gauges."""

    sketch: Optional[Sketch] = None
    value: float = 0.0
    attributes: Labels = None
    start_time_unix_nano: int = 0
    time_unix_nano: int = 0
    earlier: Optional[Sketch] = None
    exemplars: Sequence[OtlpExemplar] = ()


@dataclass
class OtlpMetric:
    """One metric and its points. ``bounds`` are the explicit bounds of a histogram (None:
    the OpenTelemetry GenAI duration list) or the quantiles of a summary (None: 0.5, 0.9,
    0.99)."""

    name: str
    type: Union[OtlpMetricType, int]
    points: Sequence[OtlpPoint] = ()
    description: Optional[str] = None
    unit: Optional[str] = None
    temporality: Union[OtlpTemporality, int] = OtlpTemporality.CUMULATIVE
    monotonic: bool = False
    unit_to_seconds: float = 1.0
    max_buckets: int = 0
    bounds: Optional[Sequence[float]] = None


@dataclass
class OtlpSpan:
    """One span; ``attributes`` maps keys to ``str``, ``int`` or ``float`` values."""

    trace_id: bytes
    span_id: bytes
    name: str
    start_time_unix_nano: int
    end_time_unix_nano: int
    parent_span_id: bytes = b""
    kind: Union[OtlpSpanKind, int] = OtlpSpanKind.SPAN_CLIENT
    attributes: Mapping[str, Union[str, int, float]] = field(default_factory=dict)
    status_code: Union[OtlpStatusCode, int] = OtlpStatusCode.STATUS_UNSET
    status_message: Optional[str] = None


class _Keep:
    """Holds every buffer a request's structs point into until the call returns."""

    def __init__(self) -> None:
        self.refs: List[Any] = []

    def __call__(self, obj: Any) -> Any:
        self.refs.append(obj)
        return obj


def _id(value: bytes, n: int, what: str, call: str) -> Any:
    if not isinstance(value, (bytes, bytearray)):
        raise TypeError("llmmetrics: %s must be bytes, not %s" % (what, type(value).__name__))
    if len(value) not in (0, n):
        raise error_for(_lib.LLMM_E_INVALID, call, "%s must be %d bytes" % (what, n))
    return (ctypes.c_uint8 * n)(*(value or bytes(n)))


def _array(cls: Any, items: List[Any], keep: _Keep) -> Any:
    if not items:
        return None
    arr = keep((cls * len(items))(*items))
    return ctypes.cast(arr, ctypes.POINTER(cls))


def _scope(r: Any, keep: _Keep, call: str, resource_attributes: Labels,
           scope_name: Optional[str], scope_version: Optional[str],
           scope_attributes: Labels) -> None:
    r.resource_attributes = keep(_labels_arg(resource_attributes, call))
    r.scope_name = keep(_cstr(scope_name, "scope_name", call))
    r.scope_version = keep(_cstr(scope_version, "scope_version", call))
    r.scope_attributes = keep(_labels_arg(scope_attributes, call))


def _exemplar(e: OtlpExemplar, keep: _Keep, call: str) -> Any:
    s = new_struct(_lib.llmm_otlp_exemplar)
    s.value = real(e.value, "exemplar value")
    s.time_unix_nano = uint64(e.time_unix_nano, "time_unix_nano", call)
    s.trace_id = _id(e.trace_id, 16, "trace_id", call)
    s.span_id = _id(e.span_id, 8, "span_id", call)
    s.attributes = keep(_labels_arg(e.attributes, call))
    return s


def _point(p: OtlpPoint, keep: _Keep, call: str) -> Any:
    s = new_struct(_lib.llmm_otlp_point)
    s.attributes = keep(_labels_arg(p.attributes, call))
    s.start_time_unix_nano = uint64(p.start_time_unix_nano, "start_time_unix_nano", call)
    s.time_unix_nano = uint64(p.time_unix_nano, "time_unix_nano", call)
    for sk, name in ((p.sketch, "sketch"), (p.earlier, "earlier")):
        if sk is not None:
            setattr(s, name, ctypes.cast(sk._live(), ctypes.POINTER(_lib.llmm_sketch)))
    s.value = real(p.value, "value")
    ex = [_exemplar(e, keep, call) for e in p.exemplars]
    s.exemplars = _array(_lib.llmm_otlp_exemplar, ex, keep)
    s.exemplar_count = len(ex)
    return s


def _metric(m: OtlpMetric, keep: _Keep, call: str) -> Any:
    s = new_struct(_lib.llmm_otlp_metric)
    s.name = keep(_cstr(m.name, "name", call))
    s.description = keep(_cstr(m.description, "description", call))
    s.unit = keep(_cstr(m.unit, "unit", call))
    s.type = int32(m.type, "type", call)
    s.temporality = int32(m.temporality, "temporality", call)
    s.monotonic = 1 if m.monotonic else 0
    s.unit_to_seconds = real(m.unit_to_seconds, "unit_to_seconds")
    s.max_buckets = uint32(m.max_buckets, "max_buckets", call)
    if m.bounds is not None:
        b = keep((ctypes.c_double * max(len(m.bounds), 1))(*[real(x, "bound") for x in m.bounds]))
        s.bounds = ctypes.cast(b, ctypes.POINTER(ctypes.c_double))
        s.bound_count = len(m.bounds)
    pts = [_point(p, keep, call) for p in m.points]
    s.points = _array(_lib.llmm_otlp_point, pts, keep)
    s.point_count = len(pts)
    return s


def otlp_metrics(metrics: Sequence[OtlpMetric], *,
                 encoding: Union[OtlpEncoding, int] = OtlpEncoding.PROTOBUF,
                 resource_attributes: Labels = None, scope_name: Optional[str] = None,
                 scope_version: Optional[str] = None, scope_attributes: Labels = None) -> bytes:
    """An ``ExportMetricsServiceRequest`` holding ``metrics`` (``llmm_export_otlp_metrics``).

    :raises InvalidArgument: a bad name, type, temporality, attribute list, bound or
        quantile, a histogram point without a sketch, ``earlier`` where it does not belong
    :raises InvalidState: ``earlier`` is not contained in its sketch
    """
    call = "llmm_export_otlp_metrics"
    keep = _Keep()
    locks = []
    # the sketches are read during the call: hold each one's lock (in one global order)
    seen = {id(sk): sk for m in metrics for p in m.points for sk in (p.sketch, p.earlier)
            if sk is not None}
    try:
        for sk in sorted(seen.values(), key=id):
            sk._lock.acquire()
            locks.append(sk._lock)
        ms = [_metric(m, keep, call) for m in metrics]
        r = new_struct(_lib.llmm_otlp_metrics_request)
        _scope(r, keep, call, resource_attributes, scope_name, scope_version, scope_attributes)
        r.metrics = _array(_lib.llmm_otlp_metric, ms, keep)
        r.metric_count = len(ms)
        enc = int32(encoding, "encoding", call)
        return _sized(call, lambda buf, cap, n: _lib.llmm_export_otlp_metrics(
            ctypes.byref(r), enc, buf, cap, n), 16384)
    finally:
        for lk in reversed(locks):
            lk.release()


def _attribute(key: str, value: Union[str, int, float], keep: _Keep, call: str) -> Any:
    a = new_struct(_lib.llmm_otlp_attribute)
    a.key = keep(_cstr(key, "attribute key", call))
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError("llmmetrics: span attribute %r must be str, int or float" % (key,))
    if isinstance(value, str):
        a.type = OtlpValueType.STRING
        a.string_value = keep(_cstr(value, "attribute value", call))
    elif isinstance(value, int):
        a.type = OtlpValueType.INT
        a.int_value = int64(value, "attribute value", call)
    else:
        a.type = OtlpValueType.DOUBLE
        a.double_value = value
    return a


def _span(sp: OtlpSpan, keep: _Keep, call: str) -> Any:
    s = new_struct(_lib.llmm_otlp_span)
    s.trace_id = _id(sp.trace_id, 16, "trace_id", call)
    s.span_id = _id(sp.span_id, 8, "span_id", call)
    s.parent_span_id = _id(sp.parent_span_id, 8, "parent_span_id", call)
    s.name = keep(_cstr(sp.name, "name", call))
    s.kind = int32(sp.kind, "kind", call)
    s.start_time_unix_nano = uint64(sp.start_time_unix_nano, "start_time_unix_nano", call)
    s.end_time_unix_nano = uint64(sp.end_time_unix_nano, "end_time_unix_nano", call)
    attrs = [_attribute(k, v, keep, call) for k, v in sp.attributes.items()]
    s.attributes = _array(_lib.llmm_otlp_attribute, attrs, keep)
    s.attribute_count = len(attrs)
    s.status_code = int32(sp.status_code, "status_code", call)
    s.status_message = keep(_cstr(sp.status_message, "status_message", call))
    return s


def otlp_traces(spans: Sequence[OtlpSpan], *,
                encoding: Union[OtlpEncoding, int] = OtlpEncoding.PROTOBUF,
                resource_attributes: Labels = None, scope_name: Optional[str] = None,
                scope_version: Optional[str] = None, scope_attributes: Labels = None) -> bytes:
    """An ``ExportTraceServiceRequest`` holding ``spans`` (``llmm_export_otlp_traces``).

    :raises InvalidArgument: an all-zero trace or span id, an end before the start, an empty
        name or key, a bad kind, status code or attribute list
    """
    call = "llmm_export_otlp_traces"
    keep = _Keep()
    ss = [_span(s, keep, call) for s in spans]
    r = new_struct(_lib.llmm_otlp_traces_request)
    _scope(r, keep, call, resource_attributes, scope_name, scope_version, scope_attributes)
    r.spans = _array(_lib.llmm_otlp_span, ss, keep)
    r.span_count = len(ss)
    enc = int32(encoding, "encoding", call)
    return _sized(call, lambda buf, cap, n: _lib.llmm_export_otlp_traces(
        ctypes.byref(r), enc, buf, cap, n), 16384)
