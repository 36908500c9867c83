"""Prometheus text / protobuf (native histograms) and OpenTelemetry JSON export
(``llmmetrics/export.h``).

Labels may be given as a mapping (``{"model": 'm"x', "gpu": 0}``: values are escaped by the
library) or as a preformatted, already escaped string (``'model="m\\"x",gpu="0"'``).
``unit_to_seconds`` turns recorded values into the exported unit: 1 for seconds, 1e-3 for a
sketch recorded in milliseconds (see the C header for what a non-power-of-two factor costs).
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

from . import _lib
from ._args import int32, real, uint32, uint64
from ._buffers import as_doubles
from .context import Context, Handle
from .errors import check, error_for
from ._structs import new_struct
from .sketch import Sketch

__all__ = ["PromFormat", "PromType", "BucketList", "OtlpTemporality", "Labels",
           "prometheus_text", "label_escape", "format_labels", "PromWriter", "prom_negotiate",
           "prom_negotiate_openmetrics",
           "prom_content_type", "prom_buckets", "otlp_json_point", "otlp_json"]

#: a label list: a mapping of names to values, a preformatted string, or None for none
Labels = Optional[Union[Mapping[str, Any], str]]


class PromFormat(enum.IntEnum):
    """Prometheus exposition format (``llmm_prom_format``)."""

    TEXT = 0
    PROTOBUF = 1
    OPENMETRICS = 2


class PromType(enum.IntEnum):
    """Metric family type of a :class:`PromWriter` (``llmm_prom_type``)."""

    COUNTER = 0
    GAUGE = 1
    SUMMARY = 2
    HISTOGRAM = 3
    NATIVE_HISTOGRAM = 4


class BucketList(enum.IntEnum):
    """Named classic bucket lists (``llmm_bucket_list``), for :func:`prom_buckets`."""

    VLLM_TTFT = 0
    VLLM_INTER_TOKEN = 1
    VLLM_REQUEST_LATENCY = 2
    OTEL_GENAI_DURATION = 3
    OTEL_GENAI_TTFT = 4
    OTEL_GENAI_TPOT = 5
    OTEL_GENAI_TOKENS = 6


class OtlpTemporality(enum.IntEnum):
    """OTLP aggregation temporality (``llmm_otlp_temporality``)."""

    DELTA = 1
    CUMULATIVE = 2


def _cstr(text: Optional[str], what: str, call: str) -> Optional[bytes]:
    """UTF-8 bytes for a ``const char *`` argument; NUL inside is refused (C would cut it)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError("llmmetrics: %s must be a str, not %s" % (what, type(text).__name__))
    b = text.encode("utf-8")
    if b"\0" in b:
        raise error_for(_lib.LLMM_E_INVALID, call, "%s contains a NUL character" % what)
    return b


def _sized(call: str, fn: Callable[[Any, int, Any], int], first: int = 4096) -> bytes:
    """Run a ``(buf, cap, *len)`` writer: try ``first`` bytes, then exactly what it asks for."""
    cap = first
    n = ctypes.c_size_t()
    for _ in range(3):
        buf = (ctypes.c_uint8 * cap)()
        st = fn(buf, cap, ctypes.byref(n))
        if st == 0:
            return bytes(buf[:n.value])
        if st != _lib.LLMM_E_BUFFER:
            check(st, call)
        cap = n.value
    raise error_for(_lib.LLMM_E_BUFFER, call, "the needed size kept growing")


def label_escape(value: str) -> str:
    """Escape one label value: backslash, double quote and newline."""
    v = _cstr(value, "value", "llmm_prom_label_escape")
    return _sized("llmm_prom_label_escape",
                  lambda buf, cap, n: _lib.llmm_prom_label_escape(v, buf, cap, n),
                  len(v or b"") * 2 + 1).decode("utf-8")


def format_labels(labels: Labels) -> Optional[str]:
    """A preformatted label list: mappings are joined as ``name="escaped value"`` in their
    order; strings pass unchanged (the library validates them); None stays None."""
    if labels is None or isinstance(labels, str):
        return labels
    return ",".join('%s="%s"' % (k, label_escape(str(v))) for k, v in labels.items())


def _labels_arg(labels: Labels, call: str) -> Optional[bytes]:
    return _cstr(format_labels(labels), "labels", call)


def prometheus_text(sketch: Sketch, name: str, labels: Labels = None,
                    unit_to_seconds: float = 1.0) -> str:
    """One complete Prometheus text family (``# HELP``, ``# TYPE histogram``, one classic
    histogram series at the sketch's own bucket bounds, downscaled to at most 160 of them).

    :raises InvalidArgument: a malformed name or label list, or a bad factor
    """
    call = "llmm_export_prometheus_text"
    nm, lb, f = _cstr(name, "name", call), _labels_arg(labels, call), real(unit_to_seconds)
    with sketch._lock:
        ptr = sketch._live()
        out = _sized(call, lambda buf, cap, n: _lib.llmm_export_prometheus_text(
            ptr, nm, lb, f, buf, cap, n))
    return out.decode("utf-8")


class PromWriter(Handle):
    """A Prometheus exposition with many families and labelled series (``llmm_prom_writer``).

    Per scrape: :meth:`reset` (optionally with the format chosen by :func:`prom_negotiate`),
    then :meth:`family` followed by its series (:meth:`value` or :meth:`sketch`), then
    :meth:`finish` for the bytes.

    :param format: TEXT or PROTOBUF (only protobuf carries native histograms)
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_prom_writer_free)

    def __init__(self, format: Union[PromFormat, int] = PromFormat.TEXT, *,
                 context: Optional[Context] = None) -> None:
        fmt = int32(format, "format", "llmm_prom_writer_new")
        self._init_new(context, _lib.llmm_prom_writer, "llmm_prom_writer_new",
                       lambda ctx, out: _lib.llmm_prom_writer_new(ctx, fmt, out),
                       "format=%r" % (format,))
        self._format = PromFormat(fmt)

    @property
    def format(self) -> PromFormat:
        """The current exposition format."""
        return self._format

    @property
    def content_type(self) -> str:
        """The ``Content-Type`` to serve the exposition with."""
        return prom_content_type(self._format)

    def reset(self, format: Optional[Union[PromFormat, int]] = None) -> None:
        """Drop everything written and start again (in ``format``, or the current one)."""
        fmt = self._format if format is None else int32(format, "format")
        self._call(_lib.llmm_prom_writer_reset, int(fmt), detail="format=%r" % (format,))
        self._format = PromFormat(fmt)

    def family(self, name: str, type: Union[PromType, int], help: Optional[str] = None,
               points: Sequence[float] = ()) -> None:
        """Start a metric family (ending the current one).

        :param points: a summary's quantiles, or a histogram's bucket upper bounds (none:
                       the writer's bounded classic layout, see :meth:`set_classic_list`)
        :raises InvalidState: a family of that name was already written since the reset
        """
        call = "llmm_prom_writer_family"
        nm, hp = _cstr(name, "name", call), _cstr(help, "help", call)
        ptr, n, keep = as_doubles(points)
        with self._lock:
            st = _lib.llmm_prom_writer_family(self._live(), nm, hp, int32(type, "type"), ptr, n)
        del keep
        check(st, call, "name=%r" % (name,))

    def set_classic_list(self, which: Union[BucketList, int]) -> None:
        """Histogram families without bounds that start after this call get the classic
        buckets of a named list (the default: ``OTEL_GENAI_DURATION``) in text, and in
        protobuf for ``HISTOGRAM`` families; native buckets are not affected
        (``llmm_prom_writer_set_classic_list``, since 1.1.0)."""
        call = "llmm_prom_writer_set_classic_list"
        key = int32(which, "which", call)
        with self._lock:
            st = _lib.llmm_prom_writer_set_classic_list(self._live(), key)
        check(st, call, "which=%r" % (which,))

    def set_classic_max(self, max_bounds: int) -> None:
        """Histogram families without bounds that start after this call get each sketch's own
        bucket grid, downscaled to at most ``max_bounds`` (>= 3) finite ``le`` bounds, every
        count exact (``llmm_prom_writer_set_classic_max``, since 1.1.0)."""
        call = "llmm_prom_writer_set_classic_max"
        n = uint32(max_bounds, "max_bounds", call)
        with self._lock:
            st = _lib.llmm_prom_writer_set_classic_max(self._live(), n)
        check(st, call, "max_bounds=%r" % (max_bounds,))

    def value(self, value: float, labels: Labels = None) -> None:
        """Add one series to the current counter or gauge family."""
        call = "llmm_prom_writer_value"
        lb = _labels_arg(labels, call)
        with self._lock:
            st = _lib.llmm_prom_writer_value(self._live(), lb, real(value))
        check(st, call, "value=%r labels=%r" % (value, labels))

    def sketch(self, sketch: Sketch, labels: Labels = None,
               unit_to_seconds: float = 1.0) -> None:
        """Add one series computed from a sketch to the current summary or histogram family."""
        call = "llmm_prom_writer_sketch"
        lb = _labels_arg(labels, call)
        f = real(unit_to_seconds, "unit_to_seconds")
        with self._lock, sketch._lock:
            st = _lib.llmm_prom_writer_sketch(self._live(), lb, sketch._live(), f)
        check(st, call, "labels=%r" % (labels,))

    def sketch_exemplars(self, sketch: Sketch, exemplars: Any, labels: Labels = None,
                         unit_to_seconds: float = 1.0) -> None:
        """As :meth:`sketch`, with the exemplars of an :class:`~llmmetrics.Exemplars` store
        where the format carries them (OpenMetrics buckets; protobuf classic buckets and the
        native histogram's one exemplar; none in 0.0.4 text)."""
        call = "llmm_prom_writer_sketch_exemplars"
        lb = _labels_arg(labels, call)
        f = real(unit_to_seconds, "unit_to_seconds")
        exemplars._users.enter("Exemplars")
        try:
            with self._lock, sketch._lock:
                st = _lib.llmm_prom_writer_sketch_exemplars(self._live(), lb, sketch._live(), f,
                                                            exemplars._ptr)
        finally:
            exemplars._users.leave()
        check(st, call, "labels=%r" % (labels,))

    def value_exemplar(self, value: float, exemplar: Any, labels: Labels = None) -> None:
        """As :meth:`value` for a counter, with one :class:`~llmmetrics.Exemplar` (or None)."""
        call = "llmm_prom_writer_value_exemplar"
        lb = _labels_arg(labels, call)
        e = None if exemplar is None else ctypes.byref(exemplar._struct())
        with self._lock:
            st = _lib.llmm_prom_writer_value_exemplar(self._live(), lb, real(value), e)
        check(st, call, "value=%r labels=%r" % (value, labels))

    def finish(self) -> bytes:
        """End the current family and return the whole exposition (the writer keeps it)."""
        with self._lock:
            ptr = self._live()
            data = ctypes.POINTER(ctypes.c_uint8)()
            n = ctypes.c_size_t()
            check(_lib.llmm_prom_writer_data(ptr, ctypes.byref(data), ctypes.byref(n)),
                  "llmm_prom_writer_data")
            return ctypes.string_at(data, n.value) if n.value else b""

    def finish_into(self, buf: Any) -> int:
        """Copy the exposition into a writable buffer (``llmm_prom_writer_finish``).

        :return: the number of bytes written
        :raises BufferTooSmall: ``buf`` is too small (``detail`` says how much is needed)
        """
        mv = memoryview(buf).cast("B")
        cap = mv.nbytes
        arr = (ctypes.c_uint8 * max(cap, 1)).from_buffer(mv) if cap else None
        n = ctypes.c_size_t()
        with self._lock:
            st = _lib.llmm_prom_writer_finish(self._live(), arr, cap, ctypes.byref(n))
        del arr
        mv.release()
        check(st, "llmm_prom_writer_finish", "%d bytes needed, %d given" % (n.value, cap))
        return n.value

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.PromWriter closed>"
        return "<llmmetrics.PromWriter %s>" % self._format.name.lower()


def prom_negotiate(accept: Optional[str]) -> Tuple[PromFormat, str]:
    """The exposition format (and its ``Content-Type``) for an HTTP ``Accept`` header."""
    fmt = ctypes.c_int()
    ctype = ctypes.c_char_p()
    check(_lib.llmm_prom_negotiate(_cstr(accept, "accept", "llmm_prom_negotiate"),
                                   ctypes.byref(fmt), ctypes.byref(ctype)),
          "llmm_prom_negotiate")
    return PromFormat(fmt.value), (ctype.value or b"").decode("ascii")


def prom_negotiate_openmetrics(accept: Optional[str]) -> Tuple[PromFormat, str]:
    """As :func:`prom_negotiate`, OpenMetrics included (what Prometheus asks for first
    without native histograms)."""
    call = "llmm_prom_negotiate_openmetrics"
    fmt = ctypes.c_int()
    ctype = ctypes.c_char_p()
    check(_lib.llmm_prom_negotiate_openmetrics(_cstr(accept, "accept", call), ctypes.byref(fmt),
                                               ctypes.byref(ctype)), call)
    return PromFormat(fmt.value), (ctype.value or b"").decode("ascii")


def prom_content_type(format: Union[PromFormat, int]) -> str:
    """The ``Content-Type`` of a format.

    :raises InvalidArgument: unknown format
    """
    s = _lib.llmm_prom_content_type(int32(format, "format"))
    if s is None:
        raise error_for(_lib.LLMM_E_INVALID, "llmm_prom_content_type", "format=%r" % (format,))
    return str(s.decode("ascii"))


def prom_buckets(which: Union[BucketList, int]) -> Tuple[float, ...]:
    """A named classic bucket list (ascending upper bounds, without +Inf)."""
    key = int32(which, "which")
    n = ctypes.c_size_t()
    st = _lib.llmm_prom_buckets(key, None, 0, ctypes.byref(n))
    if st not in (0, _lib.LLMM_E_BUFFER):
        check(st, "llmm_prom_buckets", "which=%r" % (which,))
    out = (ctypes.c_double * max(n.value, 1))()
    check(_lib.llmm_prom_buckets(key, out, n.value, ctypes.byref(n)), "llmm_prom_buckets")
    return tuple(out[:n.value])


def _otlp_options(start_time_unix_nano: int, time_unix_nano: int, unit_to_seconds: float,
                  max_buckets: int, temporality: Union[OtlpTemporality, int],
                  attributes: Labels, description: Optional[str], unit: Optional[str],
                  resource_attributes: Labels, call: str) -> Any:
    o = new_struct(_lib.llmm_otlp_options)
    o.start_time_unix_nano = uint64(start_time_unix_nano, "start_time_unix_nano", call)
    o.time_unix_nano = uint64(time_unix_nano, "time_unix_nano", call)
    o.unit_to_seconds = real(unit_to_seconds, "unit_to_seconds")
    o.max_buckets = uint32(max_buckets, "max_buckets", call)
    o.temporality = int32(temporality, "temporality", call)
    # the struct keeps references to the bytes objects for as long as it lives
    o.attributes = _labels_arg(attributes, call)
    o.description = _cstr(description, "description", call)
    o.unit = _cstr(unit, "unit", call)
    o.resource_attributes = _labels_arg(resource_attributes, call)
    return o


def _otlp(call: str, sketch: Sketch, earlier: Optional[Sketch], name: Optional[bytes],
          o: Any) -> str:
    locks = [sketch._lock] + ([earlier._lock] if earlier is not None and earlier is not sketch
                              else [])
    locks.sort(key=id)
    for lk in locks:
        lk.acquire()
    try:
        s = sketch._live()
        e = earlier._live() if earlier is not None else None
        if name is None:
            out = _sized(call, lambda buf, cap, n: _lib.llmm_export_otlp_json_point(
                s, e, ctypes.byref(o), buf, cap, n))
        else:
            out = _sized(call, lambda buf, cap, n: _lib.llmm_export_otlp_json(
                s, e, name, ctypes.byref(o), buf, cap, n))
    finally:
        for lk in reversed(locks):
            lk.release()
    return out.decode("utf-8")


def otlp_json_point(sketch: Sketch, earlier: Optional[Sketch] = None, *,
                    start_time_unix_nano: int = 0, time_unix_nano: int = 0,
                    unit_to_seconds: float = 1.0, max_buckets: int = 0,
                    temporality: Union[OtlpTemporality, int] = OtlpTemporality.CUMULATIVE,
                    attributes: Labels = None) -> str:
    """One OTLP/JSON ``ExponentialHistogramDataPoint`` object.

    :param earlier: with DELTA temporality, an earlier snapshot of the same series to subtract
    :param max_buckets: at most this many buckets (0: no limit), by exact downscaling
    """
    call = "llmm_export_otlp_json_point"
    o = _otlp_options(start_time_unix_nano, time_unix_nano, unit_to_seconds, max_buckets,
                      temporality, attributes, None, None, None, call)
    return _otlp(call, sketch, earlier, None, o)


def otlp_json(sketch: Sketch, name: str, earlier: Optional[Sketch] = None, *,
              start_time_unix_nano: int = 0, time_unix_nano: int = 0,
              unit_to_seconds: float = 1.0, max_buckets: int = 0,
              temporality: Union[OtlpTemporality, int] = OtlpTemporality.CUMULATIVE,
              attributes: Labels = None, description: Optional[str] = None,
              unit: Optional[str] = None, resource_attributes: Labels = None) -> str:
    """A complete OTLP/JSON ``ExportMetricsServiceRequest`` (the body of a POST to
    ``/v1/metrics``) with one exponential-histogram metric."""
    call = "llmm_export_otlp_json"
    o = _otlp_options(start_time_unix_nano, time_unix_nano, unit_to_seconds, max_buckets,
                      temporality, attributes, description, unit, resource_attributes, call)
    return _otlp(call, sketch, earlier, _cstr(name, "name", call), o)
