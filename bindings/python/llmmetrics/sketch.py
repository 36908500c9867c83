"""``Sketch``: a streaming, mergeable quantile sketch with a guaranteed relative error.

A thin, Pythonic wrapper over ``llmm_sketch``: every number comes from the C library. Values
are positive reals in any unit (zero goes to a zero bucket); at the default scale 6 every
quantile is within 0.542 % of the exact nearest-rank value, and count, sum, min and max are
exact.
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from . import _lib
from ._args import int32, real, uint64
from ._buffers import DoubleBuffer, as_address, as_doubles, batch_prototype
from ._describe import DESCRIBE_PERCENTILES, _pandas, describe
from ._describe import row as describe_row
from ._html import sketch_html
from .context import Context, Handle
from ._structs import new_struct
from .errors import Corrupt, check, error_for

__all__ = ["Sketch", "Bucket", "SpecialCounts", "DecodeInfo", "bucket_index", "bucket_bounds",
           "relative_error", "SCALE_DEFAULT", "SCALE_MIN", "SCALE_MAX"]

_c_add = _lib.llmm_sketch_add
_c_add_many = batch_prototype(_lib.llmm_sketch_add_many)

SCALE_DEFAULT: int = _lib.LLMM_SCALE_DEFAULT
SCALE_MIN: int = _lib.LLMM_SCALE_MIN
SCALE_MAX: int = _lib.LLMM_SCALE_MAX
RANGE_MIN_DEFAULT: float = _lib.LLMM_SKETCH_RANGE_MIN_DEFAULT
RANGE_MAX_DEFAULT: float = _lib.LLMM_SKETCH_RANGE_MAX_DEFAULT
FORMAT_VERSION: int = _lib.LLMM_SKETCH_FORMAT_VERSION


class Bucket(NamedTuple):
    """One exponential bucket: it holds the values in (``lower``, ``upper``]."""

    index: int
    lower: float
    upper: float
    count: int


class SpecialCounts(NamedTuple):
    """Values outside the bucketed range: exact zeros, below the range, above the range."""

    zero: int
    under: int
    over: int


class DecodeInfo(NamedTuple):
    """What :meth:`Sketch.decode` found (``llmm_decode_info``)."""

    intact: bool          #: magic and CRC-32C check out: the bytes are as written
    version: int          #: the format version byte of an intact message (else 0)
    rule: int             #: 0, or the first broken rule of doc/format.md section 3.4
    repaired: bool        #: rule 6 alone was broken and min / max were repaired
    message_min: float    #: the message's own min and max (the sketch holds the repaired)
    message_max: float

    @classmethod
    def _of(cls, c: Any) -> "DecodeInfo":
        return cls(bool(c.intact), int(c.version), int(c.rule), bool(c.repaired),
                   float(c.message_min), float(c.message_max))


def _in_place(data: Any) -> Tuple[Any, Any, int]:
    """A pointer to the bytes of a bytes-like object, read in place where it can be: (what
    keeps them alive, the pointer, their length)."""
    if isinstance(data, bytes):
        return data, _lib.as_u8_ptr(data), len(data)
    mv = memoryview(data).cast("B")
    n = mv.nbytes
    if mv.readonly:
        keep: Any = bytes(mv)
        return keep, _lib.as_u8_ptr(keep), n
    if not n:
        return b"", _lib.as_u8_ptr(b""), 0
    keep = (ctypes.c_uint8 * n).from_buffer(mv)
    return keep, keep, n


def relative_error(scale: int = SCALE_DEFAULT) -> float:
    """Worst relative error of any quantile at ``scale``: (base − 1) / (base + 1),
    base = 2^(2^−scale) (0.00541 at scale 6)."""
    base = 2.0 ** (2.0 ** -scale)
    return (base - 1.0) / (base + 1.0)


def bucket_index(scale: int, value: float) -> int:
    """OpenTelemetry bucket index ``i`` of ``value`` at ``scale``: base^i < value ≤ base^(i+1).

    :raises InvalidArgument: bad scale, or ``value`` not finite and > 0
    """
    out = ctypes.c_int32()
    st = _lib.llmm_sketch_index(int32(scale, "scale", "llmm_sketch_index"),
                                real(value), ctypes.byref(out))
    check(st, "llmm_sketch_index", "scale=%r value=%r" % (scale, value))
    return out.value


def bucket_bounds(scale: int, index: int) -> Tuple[float, float]:
    """Bounds ``(lower, upper)`` of bucket ``index`` at ``scale``: it holds (lower, upper].

    :raises InvalidArgument: bad scale
    :raises OutOfRange: a bound is not a finite double
    """
    lo, hi = ctypes.c_double(), ctypes.c_double()
    st = _lib.llmm_sketch_bucket_bounds(int32(scale, "scale", "llmm_sketch_bucket_bounds"),
                                        int32(index, "index", "llmm_sketch_bucket_bounds"),
                                        ctypes.byref(lo), ctypes.byref(hi))
    check(st, "llmm_sketch_bucket_bounds", "scale=%r index=%r" % (scale, index))
    return lo.value, hi.value


def _pair_locks(a: Handle, b: Handle) -> List[Any]:
    """The locks of two objects in a global order, so that a.merge(b) and b.merge(a) running
    in two threads cannot deadlock."""
    if a is b:
        return [a._lock]
    return [x._lock for x in sorted((a, b), key=id)]


class _Locked2:
    """``with _Locked2(a, b):`` holds both objects' locks."""

    def __init__(self, a: Handle, b: Handle) -> None:
        self._locks = _pair_locks(a, b)

    def __enter__(self) -> None:
        for lk in self._locks:
            lk.acquire()

    def __exit__(self, *exc: Any) -> None:
        for lk in reversed(self._locks):
            lk.release()


class Sketch(Handle):
    """A streaming quantile sketch (``llmm_sketch``).

    :param scale: resolution, 0 … 10; the default 6 gives 64 buckets per power of two and a
                  worst relative error of 0.542 % on every quantile
    :param value_range: ``(lo, hi)``: the accurately tracked range (default 1e-9 … 1e15);
                        values outside it are counted, never dropped
    :param context: allocation context (None: libc)
    :raises InvalidArgument: bad scale or range

    ``len(sketch)`` is the number of values recorded. Sketches add: ``a + b`` is a new sketch
    holding both, ``a += b`` merges in place, ``sum(sketches)`` works. A sketch is a context
    manager and frees its C memory on :meth:`close` (or when garbage-collected); it pickles
    and round-trips through :meth:`to_bytes` / :meth:`from_bytes`. All calls on one
    sketch are serialised by a lock, so sharing one between threads is safe (but serial); for
    many writer threads use a recorder.
    """

    _c_free = staticmethod(_lib.llmm_sketch_free)

    def __init__(self, scale: int = SCALE_DEFAULT, *,
                 value_range: Optional[Tuple[float, float]] = None,
                 context: Optional[Context] = None) -> None:
        sc = int32(scale, "scale", "llmm_sketch_new")
        self._init_new(context, _lib.llmm_sketch, "llmm_sketch_new",
                       lambda ctx, out: _lib.llmm_sketch_new(ctx, sc, out), "scale=%r" % (scale,))
        if value_range is not None:
            try:
                self.set_range(*value_range)
            except BaseException:
                self.close()
                raise

    @classmethod
    def _adopt_clone(cls, source: "Sketch") -> "Sketch":
        with source._lock:
            return cls._new_from(source._context, _lib.llmm_sketch, "llmm_sketch_clone",
                               lambda ctx, out: _lib.llmm_sketch_clone(source._live(), out))

    # -- recording -------------------------------------------------------------------------

    def add(self, value: float, count: int = 1) -> None:
        """Record ``value`` (finite, ≥ 0) ``count`` times.

        :raises InvalidArgument: NaN, infinite or negative value, or negative count
        :raises OutOfRange: the total count would overflow 2^64 − 1
        """
        v = value if type(value) is float else real(value)
        if count == 1:  # the hot path: one lock, one C call, no helper calls
            with self._lock:
                ptr = self._ptr
                if not ptr:
                    raise ValueError("llmmetrics.Sketch is closed")
                st = _c_add(ptr, v)
        else:
            n = uint64(count, "count", "llmm_sketch_add_n")
            with self._lock:
                st = _lib.llmm_sketch_add_n(self._live(), v, n)
        if st:
            raise error_for(st, "llmm_sketch_add", "value=%r count=%r" % (value, count))

    def add_many(self, values: DoubleBuffer) -> None:
        """Record a batch, all or nothing: if any value is invalid nothing is recorded.

        :param values: a numpy array (C-contiguous float64 arrays are read in place, without a
                       copy; other dtypes are converted), any buffer of doubles such as
                       ``array.array('d')`` (read in place), or any iterable of real numbers
        :raises InvalidArgument: a value is NaN, infinite or negative
        :raises TypeError: ``values`` is not numbers
        """
        addr, n, keep = as_address(values)
        lock = self._lock  # acquire / release: cheaper than ``with`` on this per-batch path
        lock.acquire()
        try:
            handle = self._address
            if not handle:
                raise ValueError("llmmetrics.Sketch is closed")
            st = _c_add_many(handle, addr, n)
        finally:
            lock.release()
        del keep  # the buffer export ends here, not with a traceback that holds this frame
        if st:
            raise error_for(st, "llmm_sketch_add_many", "%d values" % n)

    def set_range(self, lo: float, hi: float) -> None:
        """Set the accurately tracked range; only while the sketch is empty.

        :raises InvalidArgument: non-finite bounds, beyond 1e-300 … 1e300, or ``hi <= lo``
        :raises InvalidState: the sketch already holds values
        """
        self._call(_lib.llmm_sketch_set_range, real(lo, "lo"), real(hi, "hi"),
                   detail="lo=%r hi=%r" % (lo, hi))

    def reset(self) -> None:
        """Remove every value; scale and range stay."""
        self._call(_lib.llmm_sketch_reset)

    clear = reset

    # -- queries ---------------------------------------------------------------------------

    def quantile(self, q: float) -> float:
        """Nearest-rank quantile: the value of rank max(1, ceil(q·n)), within the relative error.

        ``quantile(0)`` is the exact minimum, ``quantile(1)`` the exact maximum.

        :raises InvalidArgument: ``q`` outside [0, 1] or NaN
        :raises Empty: no values
        """
        out = ctypes.c_double()
        with self._lock:
            st = _lib.llmm_sketch_quantile(self._live(), real(q, "q"), ctypes.byref(out))
        if st:
            raise error_for(st, "llmm_sketch_quantile", "q=%r" % (q,))
        return out.value

    def quantiles(self, qs: DoubleBuffer) -> List[float]:
        """Many quantiles in one pass; ``qs`` in any order (any buffer or iterable of floats).

        :return: one value per ``q``, in the order of ``qs``
        :raises InvalidArgument: a ``q`` outside [0, 1]
        :raises Empty: no values
        """
        ptr, n, keep = as_doubles(qs)
        out = (ctypes.c_double * max(n, 1))()
        with self._lock:
            st = _lib.llmm_sketch_quantiles(self._live(), ptr, n, out)
        del keep
        if st:
            raise error_for(st, "llmm_sketch_quantiles", "%d probabilities" % n)
        return list(out[:n])

    def rank(self, value: float) -> float:
        """Fraction of recorded values ≤ ``value`` (exact outside [min, max], else within one
        bucket).

        :raises InvalidArgument: ``value`` is NaN
        :raises Empty: no values
        """
        out = ctypes.c_double()
        self._call(_lib.llmm_sketch_rank, real(value), ctypes.byref(out),
                   detail="value=%r" % (value,))
        return out.value

    def _stat(self, fn: Any, call: str) -> float:
        out = ctypes.c_double()
        with self._lock:
            st = fn(self._live(), ctypes.byref(out))
        check(st, call)
        return out.value

    @property
    def count(self) -> int:
        """Number of recorded values (zeros and out-of-range values included)."""
        with self._lock:
            return int(_lib.llmm_sketch_count(self._live()))

    def __len__(self) -> int:
        return self.count

    @property
    def sum(self) -> float:
        """Sum of the recorded values (a double sum in arrival order; 0.0 when empty)."""
        return self._stat(_lib.llmm_sketch_sum, "llmm_sketch_sum")

    @property
    def min(self) -> float:
        """Exact smallest value. :raises Empty: no values"""
        return self._stat(_lib.llmm_sketch_min, "llmm_sketch_min")

    @property
    def max(self) -> float:
        """Exact largest value. :raises Empty: no values"""
        return self._stat(_lib.llmm_sketch_max, "llmm_sketch_max")

    @property
    def mean(self) -> float:
        """Arithmetic mean. :raises Empty: no values"""
        return self._stat(_lib.llmm_sketch_mean, "llmm_sketch_mean")

    @property
    def scale(self) -> int:
        """The scale, 0 … 10."""
        with self._lock:
            return int(_lib.llmm_sketch_scale(self._live()))

    @property
    def relative_error(self) -> float:
        """Worst relative error of a quantile at this sketch's scale."""
        return relative_error(self.scale)

    @property
    def range(self) -> Tuple[float, float]:
        """The accurately tracked range ``(lo, hi)`` as configured."""
        lo, hi = ctypes.c_double(), ctypes.c_double()
        self._call(_lib.llmm_sketch_range, ctypes.byref(lo), ctypes.byref(hi))
        return lo.value, hi.value

    @property
    def special_counts(self) -> SpecialCounts:
        """Counts outside the buckets: exact zeros, below the range, above the range."""
        z, u, o = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        self._call(_lib.llmm_sketch_special_counts, ctypes.byref(z), ctypes.byref(u),
                   ctypes.byref(o))
        return SpecialCounts(z.value, u.value, o.value)

    def bucket_span(self) -> Optional[Tuple[int, int]]:
        """Indexes ``(first, last)`` of the lowest and highest non-empty bucket, or None when
        no value is inside the range."""
        first, last = ctypes.c_int32(), ctypes.c_int32()
        with self._lock:
            st = _lib.llmm_sketch_bucket_span(self._live(), ctypes.byref(first), ctypes.byref(last))
        if st == _lib.LLMM_E_EMPTY:
            return None
        check(st, "llmm_sketch_bucket_span")
        return first.value, last.value

    def bucket_count(self, index: int) -> int:
        """Count of bucket ``index`` (0 for any bucket never touched)."""
        i = int32(index, "index", "llmm_sketch_bucket_count")
        with self._lock:
            return int(_lib.llmm_sketch_bucket_count(self._live(), i))

    def buckets(self, include_empty: bool = False) -> Iterator[Bucket]:
        """The buckets from the lowest to the highest non-empty one, as :class:`Bucket` tuples.

        The counts are read when the iterator starts (a consistent snapshot). Zeros and
        out-of-range values are not in any bucket: see :attr:`special_counts`.

        :param include_empty: also yield the empty buckets between non-empty ones
        """
        with self._lock:
            first, last = ctypes.c_int32(), ctypes.c_int32()
            st = _lib.llmm_sketch_bucket_span(self._live(), ctypes.byref(first), ctypes.byref(last))
            if st == _lib.LLMM_E_EMPTY:
                return iter(())
            check(st, "llmm_sketch_bucket_span")
            scale = int(_lib.llmm_sketch_scale(self._live()))
            counts = [(i, int(_lib.llmm_sketch_bucket_count(self._live(), i)))
                      for i in range(first.value, last.value + 1)]
        return (Bucket(i, *bucket_bounds(scale, i), c)
                for i, c in counts if c or include_empty)

    def index_of(self, value: float) -> int:
        """Index of the bucket ``value`` falls into at this sketch's scale."""
        return bucket_index(self.scale, value)

    def summary(self, qs: Sequence[float] = (0.5, 0.9, 0.99, 0.999)) -> Dict[str, float]:
        """count, sum, mean, min, the quantiles ``qs`` (keys ``p50``, ``p99.9``, ...) and max;
        only count and sum when the sketch is empty."""
        with self._lock:
            n = int(_lib.llmm_sketch_count(self._live()))
        out: Dict[str, float] = {"count": n, "sum": self.sum}
        if n == 0:
            return out
        out["mean"] = self.mean
        out["min"] = self.min
        for q, v in zip(qs, self.quantiles(qs)):
            out["p%s" % format(q * 100, ".10g")] = v
        out["max"] = self.max
        return out

    def describe(self, percentiles: Sequence[float] = DESCRIBE_PERCENTILES, *,
                 name: str = "value", as_frame: Optional[bool] = None) -> Any:
        """The percentile table: count, mean, min, the percentiles (``p50``, ``p99.9``, …)
        and max; NaN but the count when empty.

        :param name: the row's name in a DataFrame
        :param as_frame: None: a one-row ``pandas.DataFrame`` if pandas imports, else a dict;
                         False: a dict; True: a DataFrame (ImportError without pandas)
        :return: ``{column: value}``, or a DataFrame (see :func:`llmmetrics.describe` for
                 several sketches in one table)
        """
        if _pandas(as_frame) is None:
            return describe_row(self, percentiles)
        return describe({name: self}, percentiles, as_frame=True)

    # -- combining -------------------------------------------------------------------------

    def merge(self, other: "Sketch") -> None:
        """Add every value of ``other`` into this sketch, exactly (all or nothing).

        With different scales the result takes the coarser one. Values of ``other`` outside
        this sketch's range go to its under/overflow counts. ``s.merge(s)`` doubles ``s``.

        :raises OutOfRange: a count would overflow
        """
        if not isinstance(other, Sketch):
            raise TypeError("llmmetrics: can only merge a Sketch, not %s" % type(other).__name__)
        if other is self:
            other = self.copy()
        with _Locked2(self, other):
            st = _lib.llmm_sketch_merge(self._live(), other._live())
        check(st, "llmm_sketch_merge")

    def subtract(self, earlier: "Sketch") -> None:
        """Turn this cumulative snapshot into the interval since ``earlier``
        (``self = self − earlier``); ``earlier`` must be contained in this sketch.

        :raises InvalidArgument: different scales or ranges, or ``earlier is self``
        :raises InvalidState: ``earlier`` holds values this sketch does not
        """
        if not isinstance(earlier, Sketch):
            raise TypeError("llmmetrics: can only subtract a Sketch, not %s"
                            % type(earlier).__name__)
        with _Locked2(self, earlier):
            st = _lib.llmm_sketch_subtract(self._live(), earlier._live())
        check(st, "llmm_sketch_subtract")

    def downscale(self, new_scale: int) -> None:
        """Lower the scale in place by an exact index shift (``new_scale`` ≤ current scale)."""
        sc = int32(new_scale, "new_scale", "llmm_sketch_downscale")
        self._call(_lib.llmm_sketch_downscale, sc, detail="new_scale=%r" % (new_scale,))

    def copy(self) -> "Sketch":
        """A deep copy (same context, scale, range and contents)."""
        return Sketch._adopt_clone(self)

    def copy_from(self, source: "Sketch") -> None:
        """Replace this sketch's contents, scale and range with those of ``source``."""
        if not isinstance(source, Sketch):
            raise TypeError("llmmetrics: can only copy from a Sketch")
        if source is self:
            return
        with _Locked2(self, source):
            st = _lib.llmm_sketch_copy(self._live(), source._live())
        check(st, "llmm_sketch_copy")

    def __copy__(self) -> "Sketch":
        return self.copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Sketch":
        return self.copy()

    def __add__(self, other: Any) -> "Sketch":
        if not isinstance(other, Sketch):
            return NotImplemented
        result = self.copy()
        try:
            result.merge(other)
        except BaseException:
            result.close()
            raise
        return result

    def __radd__(self, other: Any) -> "Sketch":
        if isinstance(other, int) and other == 0:  # sum(sketches) starts from 0
            return self.copy()
        return NotImplemented

    def __iadd__(self, other: Any) -> "Sketch":
        if not isinstance(other, Sketch):
            return NotImplemented
        self.merge(other)
        return self

    def __sub__(self, other: Any) -> "Sketch":
        if not isinstance(other, Sketch):
            return NotImplemented
        result = self.copy()
        try:
            result.subtract(other)
        except BaseException:
            result.close()
            raise
        return result

    def __isub__(self, other: Any) -> "Sketch":
        if not isinstance(other, Sketch):
            return NotImplemented
        self.subtract(other)
        return self

    # -- binary form -----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The sketch in the library's binary format (versioned, checksummed, host
        independent): everything it knows, the sum bit for bit."""
        n = ctypes.c_size_t()
        with self._lock:
            ptr = self._live()
            st = _lib.llmm_sketch_serialize(ptr, None, 0, ctypes.byref(n))
            if st != _lib.LLMM_E_BUFFER:
                check(st, "llmm_sketch_serialize")
            buf = (ctypes.c_uint8 * n.value)()
            check(_lib.llmm_sketch_serialize(ptr, buf, n.value, ctypes.byref(n)),
                  "llmm_sketch_serialize")
        return bytes(buf[:n.value])

    __bytes__ = to_bytes

    @classmethod
    def from_bytes(cls, data: Any, *, context: Optional[Context] = None) -> "Sketch":
        """Decode :meth:`to_bytes` output (any bytes-like object; read in place).

        :raises Corrupt: truncated, extended or damaged input
        :raises UnsupportedVersion: an intact encoding of an unknown format version
        """
        keep, ptr, n = _in_place(data)
        obj = cls._new_from(context, _lib.llmm_sketch, "llmm_sketch_deserialize",
                            lambda ctx, out: _lib.llmm_sketch_deserialize(ctx, ptr, n, out),
                            "%d bytes" % n)
        del keep
        return obj

    @classmethod
    def decode(cls, data: Any, *,
               context: Optional[Context] = None) -> Tuple["Sketch", "DecodeInfo"]:
        """Decode like :meth:`from_bytes`, and say what was found (``llmm_sketch_deserialize_ex``):
        an intact version-1 message whose only broken rule is rule 6 of doc/format.md section
        3.4 (the shape of 1.0's recorder bug) is read with its min and max repaired.

        :returns: the sketch and its :class:`DecodeInfo` (``repaired`` True after a repair)
        :raises Corrupt: refused; its ``decode_info`` says whether the bytes were intact and
            which rule of section 3.4 they break (named in the message too)
        :raises UnsupportedVersion: an intact encoding of an unknown format version
        """
        keep, ptr, n = _in_place(data)
        info = new_struct(_lib.llmm_decode_info)

        def make(ctx: Any, out: Any) -> int:
            return _lib.llmm_sketch_deserialize_ex(ctx, ptr, n, out, ctypes.byref(info))
        try:
            obj = cls._new_from(context, _lib.llmm_sketch, "llmm_sketch_deserialize_ex", make,
                                "%d bytes" % n)
        except Corrupt as e:
            found = DecodeInfo._of(info)
            what = ("rule %d of doc/format.md 3.4 broken" % found.rule if found.rule else
                    "intact, a field out of its bounds" if found.intact else
                    "damaged, truncated or another format")
            err = Corrupt(e.status, "llmm_sketch_deserialize_ex", "%d bytes: %s" % (n, what))
            err.decode_info = found  # type: ignore[attr-defined]
            raise err from None
        finally:
            del keep
        return obj, DecodeInfo._of(info)

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickles through the binary format; the context is not pickled (libc on load)
        return (_from_pickle, (self.to_bytes(),))

    # -- comparison and display ------------------------------------------------------------

    def _state(self) -> Tuple[Any, ...]:
        """Everything that defines the contents, for equality."""
        with self._lock:
            n = int(_lib.llmm_sketch_count(self._live()))
        stats: Tuple[float, ...] = (self.sum,)
        if n:
            stats += (self.min, self.max)
        return (self.scale, self.range, self.special_counts, n, stats,
                tuple(self.buckets()))

    def __eq__(self, other: object) -> bool:
        """Same scale, range, counts in every bucket, and bit-identical count/sum/min/max."""
        if not isinstance(other, Sketch):
            return NotImplemented
        return other is self or self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.Sketch closed>"
        s = self.summary((0.5, 0.99))
        if s["count"] == 0:
            return "<llmmetrics.Sketch scale=%d empty>" % self.scale
        return ("<llmmetrics.Sketch scale=%d count=%d min=%.6g p50=%.6g p99=%.6g max=%.6g>"
                % (self.scale, s["count"], s["min"], s["p50"], s["p99"], s["max"]))

    def _repr_html_(self) -> str:
        """A summary table and a small inline-SVG histogram, for Jupyter."""
        if self.closed:
            return "<p>llmmetrics.Sketch (closed)</p>"
        return sketch_html(self.scale, self.summary(), list(self.buckets()),
                           self.special_counts)


def _from_pickle(data: bytes) -> Sketch:
    """Unpickle a :class:`Sketch` (module-level so that pickle can find it)."""
    return Sketch.from_bytes(data)
