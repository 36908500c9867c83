"""Turn Python buffers and sequences into ``const double *`` arguments, copying only when needed.

Zero-copy cases (the C library reads the caller's memory directly):

* any writable buffer-protocol object of C-contiguous doubles (numpy float64 arrays,
  ``array.array('d')``, ``memoryview(...).cast('d')``, ctypes ``c_double`` arrays, ``bytearray``
  views cast to 'd'), found through the buffer protocol, the cheapest way in;
* read-only C-contiguous native-endian float64 arrays that expose ``__array_interface__``
  (numpy arrays with ``writeable=False``), through the address it gives;
* objects numpy views through ``__array__`` without a copy: a float64 pandas Series (or a
  DataFrame's float64 column), through the array numpy gives for it.

Everything else is converted once: other numpy dtypes / layouts through numpy itself (numpy is
never imported here; it is used only if the caller already has it loaded), other buffer formats
and any iterable of numbers (list, tuple, range, generator) through ``array.array('d')``.
"""

from __future__ import annotations

import array
import ctypes
import sys
from typing import Any, Iterable, Optional, Tuple, Union


__all__ = ["DoubleBuffer", "as_doubles", "as_address", "batch_prototype"]

_NATIVE_F8 = ("<f8" if sys.byteorder == "little" else ">f8", "=f8")
_DOUBLE_FORMATS = ("d", "@d", "=d", "<d" if sys.byteorder == "little" else ">d")
# byte formats (b, B, c) are left out: a byte buffer is far more often raw data than numbers
_NUMERIC_FORMATS = frozenset("hHiIlLqQnNfde")

# passed for empty inputs: some calls reject a NULL pointer even when the count is 0
_EMPTY = (ctypes.c_double * 1)()

#: what ``Sketch.add_many`` and friends accept
DoubleBuffer = Union[Iterable[float], memoryview, "array.array[float]", Any]


def _first(buffer: Any) -> Any:
    """A ``const double *`` argument pointing at the first double of a writable buffer.

    ``byref`` of one ``c_double`` viewing the buffer: no copy, and, unlike ``c_double * n``,
    no new ctypes array type per batch length (ctypes caches those forever).
    """
    return ctypes.byref(ctypes.c_double.from_buffer(buffer))


def _from_array_interface(obj: Any) -> Optional[Tuple[Any, int, Any]]:
    """Zero-copy pointer for a C-contiguous float64 ``__array_interface__`` (read-only
    arrays included), else a converted copy through numpy, else None (caller falls back to
    the buffer protocol or iteration)."""
    try:
        ai = obj.__array_interface__
    except AttributeError:
        return None
    shape = tuple(ai.get("shape", ()))
    n = 1
    for dim in shape:
        n *= int(dim)
    strides = ai.get("strides")
    contiguous = strides is None or strides == _c_strides(shape, 8)
    data = ai.get("data")
    if ai.get("typestr") in _NATIVE_F8 and contiguous and isinstance(data, tuple):
        if n == 0:
            return _EMPTY, 0, obj
        return ctypes.byref(ctypes.c_double.from_address(int(data[0]))), n, obj
    np = sys.modules.get("numpy")
    if np is not None and isinstance(obj, np.ndarray):
        converted = np.ascontiguousarray(obj, dtype=np.float64)
        return _from_array_interface(converted)
    return None


def _from_array_protocol(obj: Any) -> Optional[Tuple[Any, int, Any]]:
    """Objects that numpy views through ``__array__`` (a pandas Series or Index, a DataFrame
    column): a float64 one is read in place, other dtypes are converted by numpy; None when
    numpy is not loaded or ``obj`` has no ``__array__``."""
    np = sys.modules.get("numpy")
    if np is None or not hasattr(obj, "__array__"):
        return None
    return _from_array_interface(np.asarray(obj))


def _c_strides(shape: Tuple[int, ...], itemsize: int) -> Tuple[int, ...]:
    strides = []
    step = itemsize
    for dim in reversed(shape):
        strides.append(step)
        step *= int(dim)
    return tuple(reversed(strides))


def _from_buffer(mv: memoryview, obj: Any) -> Tuple[Any, int, Any]:
    if mv.format in _DOUBLE_FORMATS and mv.c_contiguous:
        n = mv.nbytes // 8
        if n == 0:
            return _EMPTY, 0, mv
        if not mv.readonly:
            return _first(mv), n, mv
        got = _from_array_interface(obj)  # read-only numpy arrays: still no copy
        if got is not None:
            return got
        return _from_array(array.array("d", mv.cast("B").cast("d")))
    got = _from_array_interface(obj)  # other numpy dtypes and layouts: numpy converts
    if got is not None:
        return got
    if mv.format.lstrip("@=<>!") not in _NUMERIC_FORMATS:
        raise TypeError("llmmetrics: a buffer of format %r is not taken as numbers (for raw "
                        "doubles pass memoryview(data).cast('d'))" % mv.format)
    if mv.ndim != 1:
        if not mv.c_contiguous:
            raise TypeError("llmmetrics: non-contiguous multi-dimensional buffer")
        mv = mv.cast("B").cast(mv.format.lstrip("@"))
    return _from_array(array.array("d", mv.tolist()))


def _from_array(arr: "array.array[float]") -> Tuple[Any, int, Any]:
    n = len(arr)
    if n == 0:
        return _EMPTY, 0, arr
    return _first(arr), n, arr


def as_doubles(values: DoubleBuffer) -> Tuple[Any, int, Any]:
    """Adapt ``values`` for a ``const double *v, size_t n`` pair.

    :param values: a numpy array, any buffer-protocol object of numbers, or an iterable of
                   real numbers
    :return: ``(pointer, n, keepalive)``: pass ``pointer`` and ``n`` to C and keep
             ``keepalive`` referenced until the call returns; for n = 0 ``pointer`` is a
             valid pointer to nothing the callee may read
    :raises TypeError: for text, raw bytes, or items that are not real numbers
    """
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError("llmmetrics: expected numbers, got %s (for raw doubles pass "
                        "memoryview(data).cast('d'))" % type(values).__name__)
    if type(values) is array.array and values.typecode == "d":
        return _from_array(values)
    try:
        mv = memoryview(values)  # type: ignore[arg-type]
    except TypeError:
        got = _from_array_interface(values) or _from_array_protocol(values)
        if got is not None:
            return got
    else:
        return _from_buffer(mv, values)
    try:
        return _from_array(array.array("d", values))  # type: ignore[arg-type]
    except TypeError as e:
        raise TypeError("llmmetrics: expected a buffer or an iterable of real numbers: %s"
                        % e) from None


# -- the batch calls' short path ----------------------------------------------------------------
#
# A ctypes call with ``argtypes`` runs each argument's ``from_param``, and ``as_doubles`` builds a
# memoryview and two ctypes objects: together several times the cost of the call itself, which
# is what a batch of a few thousand values pays on top of the C work. ``batch_prototype`` types
# each ``const double *`` parameter as ``void *`` so that the values can be passed as a plain
# address, and ``as_address`` gets that address without building anything for ``array('d')``
# and with one ctypes view for native float64 numpy arrays. The C call checks the values;
# nothing is checked twice.

_ARRAY = array.array
_POINTER = ctypes._Pointer  # the base class of every POINTER(T)
_view = ctypes.c_double.from_buffer
_addressof = ctypes.addressof

# numpy's ndarray type and native float64 dtype (arrays of it share this object), cached by
# ``_see_numpy`` the first time a call finds numpy loaded: numpy is never imported here
_NDARRAY: Any = None
_F8: Any = None


def batch_prototype(fn: Any) -> Any:
    """``fn`` (a library function with ``argtypes``) as a foreign function whose pointer
    parameters are all ``void *``: the values may then be an int address from
    :func:`as_address`, and the handle passes with the cheapest conversion ctypes has. A call
    the loaded library lacks (``_lib``'s stand-in, which raises when called) is returned as it
    is, so that importing the package never fails on it."""
    if not hasattr(fn, "restype"):
        return fn
    params = [ctypes.c_void_p if issubclass(t, _POINTER) else t for t in fn.argtypes]
    proto = ctypes.CFUNCTYPE(fn.restype, *params)
    return proto(ctypes.cast(fn, ctypes.c_void_p).value)


def as_address(values: DoubleBuffer) -> Tuple[Any, int, Any]:
    """As :func:`as_doubles`, for a :func:`batch_prototype` call: the pointer is an int address
    for a non-empty ``array('d')`` (its ``buffer_info``) and for a non-empty writable
    C-contiguous native float64 numpy array (its buffer, exported for as long as ``keepalive``
    lives); anything else goes through :func:`as_doubles`."""
    t = type(values)
    if t is _NDARRAY:
        if values.dtype is _F8:
            try:
                view = _view(values)  # writable, C-contiguous and not empty only
            except (TypeError, ValueError, BufferError):
                pass
            else:
                return _addressof(view), values.size, view
    elif t is _ARRAY:
        if values.typecode == "d":
            addr, n = values.buffer_info()
            if n:
                return addr, n, values
    elif _NDARRAY is None and _see_numpy():
        return as_address(values)
    return as_doubles(values)


def _see_numpy() -> bool:
    """Cache numpy's ndarray type and float64 dtype if numpy is loaded; True if it is."""
    global _NDARRAY, _F8
    np = sys.modules.get("numpy")
    if np is None:
        return False
    try:
        f8, ndarray = np.dtype(np.float64), np.ndarray
    except AttributeError:  # still being imported
        return False
    _F8, _NDARRAY = f8, ndarray
    return True
