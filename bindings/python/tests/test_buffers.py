"""add_many / quantiles inputs: zero-copy where promised (checked by address), conversion
elsewhere, and the numpy paths when numpy is importable."""

from __future__ import annotations

import array
import ctypes
import math
import unittest

from llmmetrics import InvalidArgument, Recorder, Sketch, Window, _lib
from llmmetrics._buffers import as_address, as_doubles, batch_prototype

from support import HAVE_NUMPY, exact_quantile, lognormal, run_python

if HAVE_NUMPY:
    import numpy as np


def address_of(arg) -> int:
    """Address a ``const double *`` argument points to (an int, a pointer, an array or a
    byref)."""
    if isinstance(arg, int):  # as_address's short path
        return arg
    if hasattr(arg, "_obj"):  # ctypes.byref(x, offset)
        return ctypes.addressof(arg._obj) + getattr(arg, "_offset", 0)
    return ctypes.cast(arg, ctypes.c_void_p).value or 0


def batch_targets():
    """(name, add_many, sketch of what was recorded, close) for each batch call that goes
    through as_address: a sketch, a recorder's shard and a window."""
    s = Sketch()
    yield "Sketch", s.add_many, lambda: s.copy(), s.close
    rec = Recorder()
    sh = rec.shard()
    yield "Shard", sh.add_many, rec.snapshot, rec.close
    w = Window()
    yield "Window", lambda v: w.add_many(v, 1), lambda: w.snapshot(now_ns=1), w.close


class PurePython(unittest.TestCase):
    DATA = [0.5, 1.5, 2.5, 4.0, 0.0]

    def reference(self) -> Sketch:
        s = Sketch()
        for v in self.DATA:
            s.add(v)
        return s

    def test_short_path_address_of_array(self) -> None:
        """as_address passes an array('d') by its own address; the others as as_doubles."""
        a = array.array("d", self.DATA)
        self.assertEqual(as_address(a)[:2], a.buffer_info())
        for v in (array.array("d"), self.DATA, array.array("f", self.DATA)):
            ptr, n, keep = as_address(v)
            self.assertNotIsInstance(ptr, int)
            self.assertEqual(n, len(v))

    def test_every_input_kind_gives_the_same_sketch(self) -> None:
        d = self.DATA
        inputs = [
            d, tuple(d), iter(d), (x for x in d), array.array("d", d), array.array("f", d),
            array.array("i", [1, 2, 3]), memoryview(array.array("d", d)),
            memoryview(array.array("d", d).tobytes()).cast("d"),
            memoryview(bytearray(array.array("d", d).tobytes())).cast("d"),
            (ctypes.c_double * len(d))(*d), range(0, 5),
        ]
        with self.reference() as ref:
            for values in inputs:
                with Sketch() as s:
                    s.add_many(values)
                    if isinstance(values, range) or (isinstance(values, array.array)
                                                     and values.typecode == "i"):
                        want = [float(x) for x in (values if isinstance(values, range)
                                                   else values.tolist())]
                        self.assertEqual(s.count, len(want))
                        self.assertEqual(s.sum, sum(want))
                    else:
                        self.assertEqual(s, ref, repr(values))

    def test_array_d_is_read_in_place(self) -> None:
        a = array.array("d", self.DATA)
        ptr, n, keep = as_doubles(a)
        self.assertEqual(n, len(a))
        self.assertEqual(address_of(ptr), a.buffer_info()[0])
        del keep

    def test_writable_memoryview_is_read_in_place(self) -> None:
        a = array.array("d", self.DATA)
        ptr, n, keep = as_doubles(memoryview(a))
        self.assertEqual(address_of(ptr), a.buffer_info()[0])

    def test_multidimensional_memoryview(self) -> None:
        a = array.array("d", [1.0, 2.0, 3.0, 4.0])
        mv = memoryview(a).cast("B").cast("d", (2, 2))
        with Sketch() as s:
            s.add_many(mv)
            self.assertEqual(s.count, 4)
            self.assertEqual(s.sum, 10.0)

    def test_empty_inputs(self) -> None:
        with Sketch() as s:
            for empty in ([], (), array.array("d"), iter([]), memoryview(b"").cast("d")):
                s.add_many(empty)
            self.assertEqual(s.count, 0)

    def test_rejected_inputs(self) -> None:
        with Sketch() as s:
            for bad in ("abc", b"12345678", bytearray(16), memoryview(b"ab"), [1.0, None],
                        object(), 5):
                with self.assertRaises(TypeError, msg=repr(bad)):
                    s.add_many(bad)
            with self.assertRaises(InvalidArgument):
                s.add_many(array.array("d", [1.0, -2.0]))
            self.assertEqual(s.count, 0)

    def test_batch_prototype(self) -> None:
        """Every pointer parameter becomes void *, the others stay; a call the loaded library
        lacks (the loader's raising stand-in) is returned as it is."""
        fn = batch_prototype(_lib.llmm_window_add_many)
        self.assertEqual(fn.argtypes, (ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                                       ctypes.c_size_t))
        self.assertIs(fn.restype, _lib.llmm_window_add_many.restype)
        stub = _lib._missing_stub("llmm_sketch_add_many")
        self.assertIs(batch_prototype(stub), stub)

    def test_closed_targets_raise(self) -> None:
        """The short path still checks the handle: closed, released or freed objects raise
        ValueError, for array('d') (int address) and for a list (converted)."""
        for name, add_many, _, close in batch_targets():
            close()
            for values in (array.array("d", self.DATA), self.DATA):
                with self.assertRaises(ValueError, msg=name):
                    add_many(values)

    def test_export_ends_after_a_failed_batch(self) -> None:
        """A rejected batch records nothing and leaves the array free to grow again."""
        for name, add_many, recorded, close in batch_targets():
            a = array.array("d", [1.0, float("nan")])
            try:
                add_many(a)
            except InvalidArgument as e:
                err = e  # the traceback keeps add_many's frame alive
            else:
                self.fail(name)
            a.append(3.0)
            with recorded() as r:
                self.assertEqual(r.count, 0, name)
            del err
            close()

    def test_values_are_not_modified(self) -> None:
        a = array.array("d", self.DATA)
        with Sketch() as s:
            s.add_many(a)
        self.assertEqual(a.tolist(), self.DATA)
        a.append(3.0)  # the buffer export was released: the array can grow again


@unittest.skipUnless(HAVE_NUMPY, "numpy is not installed for this interpreter")
class Numpy(unittest.TestCase):
    def test_float64_contiguous_is_zero_copy(self) -> None:
        x = np.asarray(lognormal(1000, seed=31))
        ptr, n, keep = as_doubles(x)
        self.assertEqual(n, 1000)
        self.assertEqual(address_of(ptr), x.ctypes.data)
        x.setflags(write=False)  # read-only arrays are read in place too
        ptr, n, keep = as_doubles(x)
        self.assertEqual(address_of(ptr), x.ctypes.data)
        y = x.reshape(10, 100)
        ptr, n, keep = as_doubles(y)
        self.assertEqual((address_of(ptr), n), (x.ctypes.data, 1000))

    def test_short_path_address(self) -> None:
        """as_address gives the data's own address for native float64 C-contiguous arrays
        and slices of them, and the converted copy of as_doubles for the rest."""
        x = np.asarray(lognormal(1000, seed=33))
        for v in (x, x[100:612]):
            ptr, n, keep = as_address(v)
            self.assertEqual((ptr, n), (v.ctypes.data, v.size))
        for v in (x[::2], x.astype(">f8"), x.astype(np.float32), x[:0]):
            ptr, n, keep = as_address(v)
            self.assertNotIsInstance(ptr, int)
            self.assertEqual(n, v.size)
        x.setflags(write=False)  # read-only: as_doubles reads it in place
        ptr, n, keep = as_address(x)
        self.assertEqual((address_of(ptr), n), (x.ctypes.data, 1000))

    def test_every_layout_records_what_numpy_holds(self) -> None:
        """Each numpy input, through each batch call, records count, min and max as numpy
        gives them and the sum of the values added in C order one by one (to 1e-13)."""
        base = np.asarray(lognormal(3000, seed=34))
        readonly = base[200:1800].copy()
        readonly.setflags(write=False)
        variants = {
            "whole": base, "slice of a larger array": base[1000:2024],
            "read-only": readonly, "float32": base.astype(np.float32),
            "non-contiguous view": base[::3], "2-D C-contiguous": base.reshape(30, 100),
            "Fortran order": np.asfortranarray(base.reshape(30, 100)),
            "big-endian": base.astype(">f8"), "int64": np.arange(1, 500, dtype=np.int64),
            "2-D non-contiguous": base.reshape(30, 100)[::2, 1::3],
        }
        for what, v in variants.items():
            flat = np.ascontiguousarray(v, dtype=np.float64).ravel()
            want_sum = 0.0
            for x in flat.tolist():
                want_sum += x
            for name, add_many, recorded, close in batch_targets():
                add_many(v)
                with recorded() as r:
                    msg = "%s, %s" % (name, what)
                    self.assertEqual((r.count, r.min, r.max),
                                     (v.size, float(v.min()), float(v.max())), msg)
                    # a shard's sum may round differently from the one-by-one order
                    self.assertTrue(math.isclose(r.sum, want_sum, rel_tol=1e-13), msg)
                close()

    def test_numpy_loaded_after_the_package(self) -> None:
        """numpy imported after llmmetrics and after other batches: its arrays still take
        the address path and record what they hold."""
        r = run_python("""
            import array, sys
            import llmmetrics
            from llmmetrics._buffers import as_address
            s = llmmetrics.Sketch()
            s.add_many([1.0, 2.0])
            s.add_many(array.array("d", [3.0]))
            assert "numpy" not in sys.modules
            import numpy as np
            x = np.array([4.0, 5.0, 6.0])
            s.add_many(x)
            print(as_address(x)[:2] == (x.ctypes.data, 3), s.count, s.sum)
            """, {})
        self.assertEqual(r.stdout.split(), ["True", "6", "21.0"], r.stderr)

    def test_closed_targets_raise_for_numpy(self) -> None:
        for name, add_many, _, close in batch_targets():
            close()
            with self.assertRaises(ValueError, msg=name):
                add_many(np.ones(10))

    def test_results_match_numpy_reference(self) -> None:
        x = np.random.default_rng(7).lognormal(np.log(0.2), 1.0, 50000)
        ref = np.sort(x)
        with Sketch() as s:
            s.add_many(x)
            self.assertEqual(s.count, x.size)
            self.assertEqual(s.min, ref[0])
            self.assertEqual(s.max, ref[-1])
            qs = np.array([0.01, 0.5, 0.9, 0.99, 0.999])
            got = s.quantiles(qs)
            # numpy's inverted_cdf method is the nearest-rank rule
            want = np.quantile(x, qs, method="inverted_cdf")
            self.assertTrue(np.all(np.abs(np.array(got) - want) <= 0.00542 * want))
            for q, g in zip(qs, got):
                self.assertLessEqual(abs(g - exact_quantile(ref, q)), 0.00542 * g)

    def test_other_layouts_and_dtypes_are_converted(self) -> None:
        base = np.asarray(lognormal(400, seed=32))
        with Sketch() as ref:
            ref.add_many(base[::2].copy())
            for variant in (base[::2], base.astype(np.float32)[::2].astype(np.float64),
                            np.asfortranarray(base[::2].reshape(20, 10)),
                            base[::2].astype(">f8")):
                with Sketch() as s:
                    s.add_many(variant)
                    self.assertEqual(list(s.buckets()), list(ref.buckets()), variant.dtype)
                    self.assertEqual(s.count, 200)
            with Sketch() as s:
                s.add_many(np.arange(1, 11, dtype=np.int64))
                self.assertEqual(s.sum, 55.0)
            with Sketch() as s:
                s.add_many(base.astype(np.float32))
                self.assertEqual(s.count, 400)

    def test_numpy_scalars_and_empty(self) -> None:
        with Sketch() as s:
            s.add(np.float32(1.5))
            s.add(np.float64(2.5))
            s.add(np.int64(3), np.uint8(2))
            s.add_many(np.empty(0))
            self.assertEqual(s.count, 4)
            self.assertEqual(s.quantile(np.float64(1.0)), 3.0)

    def test_nan_in_array_records_nothing(self) -> None:
        x = np.ones(1000)
        x[777] = np.nan
        with Sketch() as s:
            with self.assertRaises(InvalidArgument):
                s.add_many(x)
            self.assertEqual(s.count, 0)


if __name__ == "__main__":
    unittest.main()
