"""Drift: the binding declares exactly the public C API.

Parses every ``LLMM_API`` declaration of ``include/llmmetrics/*.h`` and every exported symbol of
``lib/libllmmetrics.map``, and checks that each is bound in the low-level layer with the same
signature, unless ``drift_allowlist.txt`` lists it with a reason. Structs, enums, typedefs and
numeric ``#define``\\ s must match too. When a module lands with new calls, this test names
each one that is not bound yet.
"""

from __future__ import annotations

import glob
import os
import re
import unittest
from typing import Dict, Set

import llmmetrics
from llmmetrics import _cparse, _lib

from support import SOURCE_ROOT

INCLUDE_DIR = os.path.join(SOURCE_ROOT, "include", "llmmetrics")
MAP_FILE = os.path.join(SOURCE_ROOT, "lib", "libllmmetrics.map")
ALLOWLIST = os.path.join(os.path.dirname(__file__), "drift_allowlist.txt")


def read_allowlist() -> Dict[str, str]:
    """``symbol: reason`` lines; blank lines and ``#`` comments ignored."""
    out: Dict[str, str] = {}
    with open(ALLOWLIST, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, sep, reason = line.partition(":")
            if not sep or not reason.strip():
                raise AssertionError("%s:%d: expected 'symbol: reason'" % (ALLOWLIST, n))
            out[name.strip()] = reason.strip()
    return out


def read_headers() -> Dict[str, _cparse.Decls]:
    out = {}
    for path in sorted(glob.glob(os.path.join(INCLUDE_DIR, "*.h"))):
        with open(path, encoding="utf-8") as f:
            out[os.path.basename(path)] = _cparse.parse(f.read(), require_api=True)
    return out


def read_map_symbols() -> Set[str]:
    with open(MAP_FILE, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    syms = set()
    for block in re.findall(r"global:(.*?)(?:local:|\})", text, flags=re.S):
        syms.update(re.findall(r"\b(llmm_\w+)\s*;", block))
    return syms


class Drift(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.headers = read_headers()
        cls.api = _cparse.Decls()
        cls.where: Dict[str, str] = {}
        for name, decls in cls.headers.items():
            for fn in decls.functions:
                cls.where[fn] = name
            cls.api.update(decls)
        cls.map_symbols = read_map_symbols()
        cls.allow = read_allowlist()
        cls.bound = _lib.DECLS

    def test_headers_were_found(self) -> None:
        self.assertIn("core.h", self.headers)
        self.assertIn("llmm_sketch_add", self.api.functions)
        self.assertIn("llmm_sketch_add", self.map_symbols)

    def test_every_public_function_is_bound(self) -> None:
        public = set(self.api.functions) | self.map_symbols
        unbound = sorted(s for s in public if s not in self.bound.functions and s not in self.allow)
        self.assertEqual(unbound, [], "public functions not bound in llmmetrics/_decls.py: "
                         + ", ".join("%s (%s)" % (s, self.where.get(s, "map only"))
                                     for s in unbound))

    def test_no_binding_of_a_function_that_does_not_exist(self) -> None:
        stale = sorted(set(self.bound.functions) - set(self.api.functions))
        self.assertEqual(stale, [], "bound but not declared LLMM_API in any header")
        not_exported = sorted(set(self.bound.functions) - self.map_symbols)
        self.assertEqual(not_exported, [], "bound but not in lib/libllmmetrics.map")

    def test_allowlist_is_current(self) -> None:
        public = set(self.api.functions) | self.map_symbols | set(self.api.defines)
        stale = sorted(set(self.allow) - public)
        self.assertEqual(stale, [], "allow-list entries that name no public symbol")
        both = sorted(set(self.allow) & set(self.bound.functions))
        self.assertEqual(both, [], "allow-listed but bound anyway: drop them from the list")

    def test_signatures_match(self) -> None:
        for name, fn in self.bound.functions.items():
            if name in self.api.functions:
                self.assertEqual(fn.signature(), self.api.functions[name].signature(),
                                 "%s (%s)" % (name, self.where.get(name)))

    def test_structs_match(self) -> None:
        for name, st in self.api.structs.items():
            self.assertIn(name, self.bound.structs, "struct %s is not declared" % name)
            mine = self.bound.structs[name]
            if st.fields is None:
                self.assertIsNone(mine.fields, "%s is opaque in the header" % name)
            else:
                self.assertEqual(mine.fields, st.fields, "members of struct %s" % name)

    def test_enums_match(self) -> None:
        for name, en in self.api.enums.items():
            self.assertIn(name, self.bound.enums, "enum %s is not declared" % name)
            if name == "llmm_status":
                continue  # generated from the X-macro list: checked below
            self.assertEqual(self.bound.enums[name].values, en.values, "enum %s" % name)
        with open(os.path.join(INCLUDE_DIR, "core.h"), encoding="utf-8") as f:
            status = _cparse.parse_status_list(f.read())
        self.assertGreaterEqual(len(status), 12)
        self.assertEqual(dict(self.bound.enums["llmm_status"].values), status)

    def test_typedefs_match(self) -> None:
        for name, td in self.api.typedefs.items():
            self.assertIn(name, self.bound.typedefs, "typedef %s is not declared" % name)
            self.assertEqual(self.bound.typedefs[name].type, td.type, name)

    def test_numeric_defines_match(self) -> None:
        for name, value in self.api.defines.items():
            if name in self.allow:
                continue
            self.assertIn(name, self.bound.defines, "#define %s is not declared" % name)
            self.assertEqual(self.bound.defines[name], value, name)
            self.assertEqual(type(self.bound.defines[name]), type(value), name)


#: C enum -> (Python IntEnum of the Pythonic layer, prefix of the C enumerator names)
PY_ENUMS = {
    "llmm_status": (llmmetrics.Status, "LLMM_"),
    "llmm_lii_tier": (llmmetrics.LiiTier, "LLMM_LII_"),
    "llmm_lii_option": (llmmetrics.LiiOption, "LLMM_LII_"),
    "llmm_tlb_workload": (llmmetrics.TlbWorkload, "LLMM_TLB_"),
    "llmm_layer": (llmmetrics.Layer, "LLMM_LAYER_"),
    "llmm_scenario": (llmmetrics.Scenario, "LLMM_SCENARIO_"),
    "llmm_direction": (llmmetrics.Direction, "LLMM_"),
    "llmm_missing_policy": (llmmetrics.MissingPolicy, "LLMM_MISSING_"),
    "llmm_scorecard_option": (llmmetrics.ScorecardOption, "LLMM_SCORECARD_"),
    "llmm_spike_level": (llmmetrics.SpikeLevel, "LLMM_SPIKE_"),
    "llmm_spike_option": (llmmetrics.SpikeOption, "LLMM_SPIKE_"),
    "llmm_knee_quality": (llmmetrics.KneeQuality, "LLMM_KNEE_"),
    "llmm_prom_format": (llmmetrics.PromFormat, "LLMM_PROM_"),
    "llmm_prom_type": (llmmetrics.PromType, "LLMM_PROM_"),
    "llmm_bucket_list": (llmmetrics.BucketList, "LLMM_BUCKETS_"),
    "llmm_otlp_temporality": (llmmetrics.OtlpTemporality, "LLMM_OTLP_"),
    "llmm_goodput_option": (llmmetrics.GoodputOption, "LLMM_GOODPUT_"),
    "llmm_burn_window": (llmmetrics.BurnWindow, "LLMM_BURN_"),
    "llmm_burn_option": (llmmetrics.BurnOption, "LLMM_BURN_"),
    "llmm_error_trigger_option": (llmmetrics.ErrorTriggerOption, "LLMM_ERROR_TRIGGER_"),
    "llmm_collapse_option": (llmmetrics.CollapseOption, "LLMM_COLLAPSE_"),
    "llmm_event_type": (llmmetrics.EventType, "LLMM_EVENT_"),
    "llmm_correlation_method": (llmmetrics.CorrelationMethod, "LLMM_CORRELATION_"),
    "llmm_stability_option": (llmmetrics.StabilityOption, "LLMM_STABILITY_"),
    "llmm_saturation_option": (llmmetrics.SaturationOption, "LLMM_SATURATION_"),
    "llmm_struct_kind": (llmmetrics.StructKind, "LLMM_STRUCT_"),
    "llmm_object_kind": (llmmetrics.ObjectKind, "LLMM_KIND_"),
    "llmm_option_type": (llmmetrics.OptionType, "LLMM_OPTION_"),
    "llmm_host_signal": (llmmetrics.HostSignal, "LLMM_HOST_"),
    "llmm_host_option": (llmmetrics.HostOption, "LLMM_HOST_"),
}


class PythonicLayer(unittest.TestCase):
    def test_every_c_enum_has_a_matching_int_enum(self) -> None:
        self.assertEqual(sorted(_lib.DECLS.enums), sorted(PY_ENUMS),
                         "C enums without an IntEnum in the Pythonic layer (or stale entries)")
        for cname, (py, prefix) in PY_ENUMS.items():
            want = dict(_lib.DECLS.enums[cname].values)
            got = {prefix + m.name: int(m) for m in py}
            self.assertEqual(got, want, cname)
            self.assertIn(py.__name__, llmmetrics.__all__)


class Parser(unittest.TestCase):
    """The declaration parser itself, on constructs the headers may grow."""

    def test_constructs(self) -> None:
        d = _cparse.parse("""
            #define A_INT 0x10 /* c */
            #define A_FLT (2.5)
            #define A_STR "x"
            #define A_EXPR (1 << 3)
            #ifdef __cplusplus
            extern "C" {
            #endif
            typedef enum e { E_A, E_B = 5, E_C, E_PRIV_ = 99 } e;
            typedef struct h h;
            typedef struct s { uint32_t struct_size; double x; } s;
            """)
        self.assertEqual(d.defines, {"A_INT": 16, "A_FLT": 2.5, "A_STR": "x"})
        self.assertEqual(d.enums["e"].values, (("E_A", 0), ("E_B", 5), ("E_C", 6)))
        self.assertIsNone(d.structs["h"].fields)
        self.assertEqual(d.structs["s"].fields,
                         (_cparse.Param("uint32_t", "struct_size"), _cparse.Param("double", "x")))
        d = _cparse.parse("""
            typedef llmm_status (*llmm_write_fn)(void *user, const uint8_t *buf, size_t len);
            LLMM_API const char*f(const h* const*p, double, unsigned int n);
            int g(void);
            """, require_api=True)
        self.assertEqual(d.typedefs["llmm_write_fn"].type,
                         "llmm_status (*)(void *, const uint8_t *, size_t)")
        self.assertEqual(list(d.functions), ["f"])
        self.assertEqual(d.functions["f"].signature(),
                         "const char * (const h *const *, double, unsigned int)")

    def test_unknown_constructs_are_errors(self) -> None:
        for bad in ("int x[4];", "struct q { int a; };", "typedef struct a { int x; } b;"):
            with self.assertRaises(_cparse.CParseError, msg=bad):
                _cparse.parse(bad)


if __name__ == "__main__":
    unittest.main()
