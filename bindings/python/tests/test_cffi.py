"""llmmetrics.cffi_cdef: a cffi cdef of the public API that cffi accepts and that calls work
through (skipped where cffi is not installed)."""

from __future__ import annotations

import ctypes
import unittest

import llmmetrics
from llmmetrics import _api, _lib

try:
    import cffi
except ImportError:  # pragma: no cover - depends on the interpreter
    cffi = None


class CdefText(unittest.TestCase):
    def test_declares_every_bound_function(self) -> None:
        for name in _lib.FUNCTIONS:
            self.assertIn(" %s(" % name, llmmetrics.cffi_cdef.replace("*", " "), name)
        self.assertIn("typedef struct llmm_sketch llmm_sketch;", llmmetrics.cffi_cdef)
        self.assertIn("#define LLMM_SCALE_DEFAULT 6", llmmetrics.cffi_cdef)
        self.assertNotIn("1e-09", llmmetrics.cffi_cdef)  # cffi takes integer constants only


@unittest.skipUnless(cffi is not None, "cffi is not installed for this interpreter")
class WithCffi(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.ffi = cffi.FFI()
        cls.ffi.cdef(llmmetrics.cffi_cdef)
        cls.lib = cls.ffi.dlopen(llmmetrics.library_path)

    def test_every_function_resolves(self) -> None:
        for name in _lib.FUNCTIONS:
            self.assertTrue(callable(getattr(self.lib, name)), name)

    def test_struct_layout_agrees_with_ctypes_and_c(self) -> None:
        ffi, lib = self.ffi, self.lib
        for name, fields in _api.STRUCTS.items():
            if fields is not None:
                self.assertEqual(ffi.sizeof(name), ctypes.sizeof(getattr(_lib, name)), name)
                for f, _ in fields:
                    self.assertEqual(ffi.offsetof(name, f),
                                     getattr(getattr(_lib, name), f).offset, f)
        a = ffi.new("llmm_allocator *")
        self.assertEqual(lib.llmm_allocator_init(a), lib.LLMM_OK)
        self.assertEqual(a.struct_size, ffi.sizeof("llmm_allocator"))

    def test_sketch_through_cffi_matches_binding(self) -> None:
        ffi, lib = self.ffi, self.lib
        values = [0.5 * (i + 1) for i in range(100)]
        out = ffi.new("llmm_sketch **")
        self.assertEqual(lib.llmm_sketch_new(ffi.NULL, lib.LLMM_SCALE_DEFAULT, out), 0)
        s = ffi.gc(out[0], lib.llmm_sketch_free)
        self.assertEqual(lib.llmm_sketch_add_many(s, values, len(values)), 0)
        q = ffi.new("double *")
        self.assertEqual(lib.llmm_sketch_quantile(s, 0.9, q), 0)
        with llmmetrics.Sketch() as mine:
            mine.add_many(values)
            self.assertEqual(q[0], mine.quantile(0.9))
        self.assertEqual(lib.llmm_sketch_quantile(s, 2.0, q), lib.LLMM_E_INVALID)
        self.assertEqual(ffi.string(lib.llmm_status_name(lib.LLMM_E_INVALID)), b"LLMM_E_INVALID")


if __name__ == "__main__":
    unittest.main()
