"""Core: loading, version, status codes and exceptions, clock, low-level layer."""

from __future__ import annotations

import ctypes
import math
import os
import pickle
import shutil
import tempfile
import sys
import unittest

import llmmetrics
from llmmetrics import _api, _lib, errors
from llmmetrics import LlmmError, Status, StructKind
from llmmetrics._structs import new_struct, struct_kind

from support import PKG_DIR, SOURCE_ROOT, run_python

class Version(unittest.TestCase):
    def test_version_number_and_string_agree(self) -> None:
        v = llmmetrics.library_version()
        self.assertEqual(v // 10000, 1)
        parts = [int(x) for x in llmmetrics.library_version_string().split(".")]
        self.assertEqual(v, parts[0] * 10000 + parts[1] * 100 + parts[2])

    def test_binding_version_matches_project(self) -> None:
        with open(os.path.join(SOURCE_ROOT, "meson.build")) as f:
            head = f.read(600)
        self.assertIn("version : '%s'" % llmmetrics.__version__, head)

    def test_nothing_missing(self) -> None:
        self.assertEqual(_lib.MISSING, frozenset())

    def test_now_ns_is_monotonic(self) -> None:
        a = llmmetrics.now_ns()
        b = llmmetrics.now_ns()
        self.assertGreater(a, 0)
        self.assertLessEqual(a, b)


class StatusCodes(unittest.TestCase):
    def test_status_enum_matches_c(self) -> None:
        for st in Status:
            self.assertEqual(int(st), getattr(_lib, "LLMM_" + st.name))
            self.assertEqual(llmmetrics.status_name(st), "LLMM_" + st.name)
        self.assertEqual(llmmetrics.strerror(Status.E_INVALID), "invalid argument")
        self.assertEqual(llmmetrics.strerror(0), "success")
        self.assertEqual(llmmetrics.status_name(-12345), "LLMM_E_UNKNOWN_STATUS")
        self.assertEqual(llmmetrics.strerror(-12345), "unknown status")

    def test_every_error_status_has_its_class(self) -> None:
        seen = set()
        for st in Status:
            if st == Status.OK:
                errors.check(st)  # no exception
                continue
            e = errors.error_for(st, "llmm_x_y", "detail")
            self.assertIsInstance(e, LlmmError)
            self.assertIsNot(type(e), LlmmError, st.name)
            self.assertEqual(type(e).STATUS, int(st))
            self.assertEqual(e.status, int(st))
            self.assertEqual(e.name, "LLMM_" + st.name)
            self.assertEqual(e.message, llmmetrics.strerror(st))
            self.assertEqual(str(e), "LLMM_%s (%d): %s [llmm_x_y]: detail"
                             % (st.name, int(st), e.message))
            seen.add(type(e))
            with self.assertRaises(type(e)):
                errors.check(st, "llmm_x_y")
            back = pickle.loads(pickle.dumps(e))
            self.assertIs(type(back), type(e))
            self.assertEqual((back.status, back.call, back.detail, str(back)),
                             (e.status, e.call, e.detail, str(e)))
        self.assertEqual(len(seen), len(Status) - 1)
        for cls in seen:
            self.assertIn(cls.__name__, llmmetrics.__all__)

    def test_builtin_bases(self) -> None:
        self.assertIsInstance(errors.error_for(-1), ValueError)
        self.assertIsInstance(errors.error_for(-2), MemoryError)
        self.assertIsInstance(errors.error_for(-4), ValueError)
        self.assertIsInstance(errors.error_for(-9), RuntimeError)
        self.assertIsInstance(errors.error_for(-10), ArithmeticError)

    def test_unknown_status_is_base_class(self) -> None:
        e = errors.error_for(-99)
        self.assertIs(type(e), LlmmError)
        self.assertEqual(e.name, "LLMM_E_UNKNOWN_STATUS")
        self.assertEqual(str(e), "LLMM_E_UNKNOWN_STATUS (-99): unknown status")


class LowLevel(unittest.TestCase):
    def test_every_function_has_argtypes_and_restype(self) -> None:
        self.assertGreater(len(_lib.FUNCTIONS), 30)
        for name, (restype, params) in _lib.FUNCTIONS.items():
            fn = getattr(_lib, name)
            self.assertIs(fn, getattr(_lib.lib, name), name)
            self.assertEqual(len(fn.argtypes), len(params), name)
            self.assertIs(fn.restype, _lib.ctype_of(restype), name)

    def test_struct_sizes_match_c(self) -> None:
        a = _lib.llmm_allocator()
        self.assertEqual(_lib.llmm_allocator_init(ctypes.byref(a)), 0)
        self.assertEqual(a.struct_size, ctypes.sizeof(_lib.llmm_allocator))
        self.assertTrue(a.alloc and a.realloc and a.free)

    def test_raw_statuses(self) -> None:
        self.assertEqual(_lib.llmm_allocator_init(None), _lib.LLMM_E_INVALID)
        out = ctypes.POINTER(_lib.llmm_sketch)()
        self.assertEqual(_lib.llmm_sketch_new(None, 99, ctypes.byref(out)), _lib.LLMM_E_INVALID)
        self.assertFalse(out)
        self.assertEqual(_lib.llmm_sketch_count(None), 0)
        # distinct handle types: a context pointer is not accepted where a sketch is expected
        ctx = ctypes.POINTER(_lib.llmm_ctx)()
        self.assertEqual(_lib.llmm_ctx_new(None, ctypes.byref(ctx)), 0)
        with self.assertRaises(ctypes.ArgumentError):
            _lib.llmm_sketch_count(ctx)
        _lib.llmm_ctx_free(ctx)

    def test_ctx_abi_check(self) -> None:
        a = _lib.llmm_allocator()
        _lib.llmm_allocator_init(ctypes.byref(a))
        a.struct_size = 8
        ctx = ctypes.POINTER(_lib.llmm_ctx)()
        self.assertEqual(_lib.llmm_ctx_new(ctypes.byref(a), ctypes.byref(ctx)), _lib.LLMM_E_ABI)


class CallerSizedStructs(unittest.TestCase):
    """Every struct that starts with ``struct_size`` is set up by llmm_struct_init with the
    binding's own ctypes size (doc/abi.md)."""

    def test_every_sized_struct_has_a_kind_and_gets_its_own_size(self) -> None:
        classes = [getattr(_lib, name) for name, fields in _api.STRUCTS.items()
                   if fields and fields[0][0] == "struct_size"]
        self.assertEqual(sorted(struct_kind(cls) for cls in classes), list(StructKind))
        for cls in classes:
            s = new_struct(cls)
            self.assertEqual(s.struct_size, ctypes.sizeof(cls), cls.__name__)

    def test_the_kinds_are_every_kind_the_library_knows(self) -> None:
        # kinds 1 ... N are all accepted at the binding's size, N + 1 is not a kind
        self.assertEqual([int(k) for k in StructKind], list(range(1, len(StructKind) + 1)))
        buf = (ctypes.c_uint8 * 256)()
        for k in StructKind:
            size = ctypes.sizeof(getattr(_lib, "llmm_" + k.name.lower()))
            self.assertEqual(_lib.llmm_struct_init(k, buf, size), 0, k)
            self.assertEqual(_lib.llmm_struct_init(len(StructKind) + 1, buf, size),
                             _lib.LLMM_E_ABI, k)

    def test_defaults_come_from_the_library(self) -> None:
        o = new_struct(_lib.llmm_knee_options)
        self.assertEqual((o.smooth, o.trim, o.collapse_fraction, o.kneedle_sensitivity),
                         (0, 0.1, 0.5, 1.0))
        u = new_struct(_lib.llmm_usl)
        self.assertTrue(math.isnan(u.sigma) and math.isnan(u.kappa))
        self.assertEqual(u.quality, _lib.LLMM_KNEE_NONE)

    def test_a_size_the_library_never_released_is_refused_untouched(self) -> None:
        buf = (ctypes.c_uint8 * 256)(*([0xA5] * 256))
        for size in (0, 4, ctypes.sizeof(_lib.llmm_slo_result) + 4, 255):
            self.assertEqual(_lib.llmm_struct_init(_lib.LLMM_STRUCT_SLO_RESULT, buf, size),
                             _lib.LLMM_E_ABI)
            self.assertEqual(set(buf), {0xA5})
        self.assertEqual(_lib.llmm_struct_init(99, buf, 32), _lib.LLMM_E_ABI)
        self.assertEqual(_lib.llmm_struct_init(_lib.LLMM_STRUCT_KNEE, None, 32),
                         _lib.LLMM_E_INVALID)
        with self.assertRaises(errors.AbiMismatch):
            class llmm_slo_result(ctypes.Structure):  # a "newer" definition, 8 bytes larger
                _fields_ = list(_lib.llmm_slo_result._fields_) + [("later", ctypes.c_double)]
            new_struct(llmm_slo_result)


class Loader(unittest.TestCase):
    CODE = """
        import warnings
        warnings.simplefilter("error" if %r else "ignore")
        try:
            import llmmetrics
        except ImportError as e:
            print("IMPORTERROR"); print(e)
        else:
            print("LOADED", llmmetrics.library_path)
        """

    def test_env_var_is_used(self) -> None:
        path = os.environ.get("LLMMETRICS_LIBRARY")
        if not path:
            self.skipTest("LLMMETRICS_LIBRARY not set")
        r = run_python(self.CODE % False, {})
        self.assertIn("LOADED " + path, r.stdout, r.stderr)

    def test_bad_env_var_falls_through_to_soname_with_a_warning(self) -> None:
        path = os.environ.get("LLMMETRICS_LIBRARY")
        if not path:
            self.skipTest("LLMMETRICS_LIBRARY not set")
        env = {"LLMMETRICS_LIBRARY": "/nonexistent/libllmmetrics.so",
               "LD_LIBRARY_PATH": os.path.dirname(path)}
        r = run_python(self.CODE % False, env)
        self.assertIn("LOADED %s" % _lib.SONAME, r.stdout, r.stderr)
        r = run_python(self.CODE % True, env)  # the warning, turned into an error
        self.assertIn("could not be loaded", r.stdout + r.stderr)

    def test_bundled_library_comes_before_the_soname(self) -> None:
        path = os.environ.get("LLMMETRICS_LIBRARY")
        if not path:
            self.skipTest("LLMMETRICS_LIBRARY not set")
        with tempfile.TemporaryDirectory() as tmp:  # an installed package, as meson lays it out
            pkg = shutil.copytree(os.path.join(PKG_DIR, "llmmetrics"),
                                  os.path.join(tmp, "llmmetrics"),
                                  ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copy(path, os.path.join(pkg, "libllmmetrics.so.9.9.9"))
            with open(os.path.join(pkg, "_bundle.py"), "w", encoding="utf-8") as f:
                f.write('LIBRARY = "libllmmetrics.so.9.9.9"\n')
            env = {"PYTHONPATH": tmp, "LLMMETRICS_LIBRARY": None,
                   "LD_LIBRARY_PATH": os.path.dirname(path)}  # the soname would load too
            r = run_python(self.CODE % True, env, cwd=tmp)
            self.assertIn("LOADED " + os.path.join(pkg, "libllmmetrics.so.9.9.9"), r.stdout,
                          r.stderr)
            os.remove(os.path.join(pkg, "libllmmetrics.so.9.9.9"))  # a broken install
            r = run_python(self.CODE % False, env, cwd=tmp)
            self.assertIn("LOADED " + _lib.SONAME, r.stdout, r.stderr)

    def test_nothing_found_lists_every_attempt(self) -> None:
        env = {"LLMMETRICS_LIBRARY": "/nonexistent/libllmmetrics.so", "LD_LIBRARY_PATH": None}
        r = run_python(self.CODE % False, env)
        if "LOADED" in r.stdout:
            self.skipTest("libllmmetrics is installed system-wide: %s" % r.stdout.strip())
        self.assertIn("IMPORTERROR", r.stdout, r.stderr)
        self.assertIn("$LLMMETRICS_LIBRARY='/nonexistent/libllmmetrics.so'", r.stdout)
        self.assertIn("bundled library: none (not an installed package)", r.stdout)
        self.assertIn("soname 'libllmmetrics.so.1'", r.stdout)
        self.assertIn("find_library('llmmetrics')", r.stdout)

    def test_unset_env_var_is_reported(self) -> None:
        r = run_python(self.CODE % False, {"LLMMETRICS_LIBRARY": None, "LD_LIBRARY_PATH": None})
        if "LOADED" in r.stdout:
            self.skipTest("libllmmetrics is installed system-wide")
        self.assertIn("$LLMMETRICS_LIBRARY: not set", r.stdout, r.stderr)


if __name__ == "__main__":
    unittest.main()
