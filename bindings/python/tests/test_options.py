"""Option listings (``llmmetrics.options``, ``llmm_option_describe``) against the headers and
against the objects: every option enumerator is listed, the binding's option enums carry the
listed names, a fresh object holds the listed defaults and the setters follow the listed
bounds. Nothing here restates a default or a bound: the listing is the reference."""

from __future__ import annotations

import math
import unittest
from typing import Any, Callable, Dict, Tuple

import llmmetrics
from llmmetrics import ObjectKind, OptionType, OutOfRange, _api


#: kind -> (the binding's option enum, C option enum, a fresh object, its getter, its setter)
KINDS: Dict[ObjectKind, Tuple[Any, str, Callable[[], Any], str, str]] = {
    ObjectKind.SPIKE: (llmmetrics.SpikeOption, "llmm_spike_option",
                       llmmetrics.SpikeDetector, "get", "set"),
    ObjectKind.COLLAPSE: (llmmetrics.CollapseOption, "llmm_collapse_option",
                          llmmetrics.CollapseDetector, "get", "set"),
    ObjectKind.STABILITY: (llmmetrics.StabilityOption, "llmm_stability_option",
                           llmmetrics.StabilityGate, "get", "set"),
    ObjectKind.SATURATION: (llmmetrics.SaturationOption, "llmm_saturation_option",
                            llmmetrics.SaturationSignal, "get", "set"),
    ObjectKind.LII_MONITOR: (llmmetrics.LiiOption, "llmm_lii_option",
                             llmmetrics.LiiMonitor, "get", "set"),
    ObjectKind.SCORECARD: (llmmetrics.ScorecardOption, "llmm_scorecard_option",
                           lambda: llmmetrics.Scorecard(llmmetrics.Scenario.CODE_ASSISTANT),
                           "get_option", "set_option"),
    ObjectKind.GOODPUT: (llmmetrics.GoodputOption, "llmm_goodput_option",
                         llmmetrics.Goodput, "get", "set"),
    ObjectKind.BURN: (llmmetrics.BurnOption, "llmm_burn_option",
                      lambda: llmmetrics.BurnAlerter(0.999), "get", "set"),
    ObjectKind.ERROR_TRIGGER: (llmmetrics.ErrorTriggerOption, "llmm_error_trigger_option",
                               llmmetrics.ErrorTrigger, "get", "set"),
    ObjectKind.HOST_SAMPLER: (llmmetrics.HostOption, "llmm_host_option",
                              llmmetrics.HostSampler, "get", "set"),
}


def header_enums() -> Dict[str, Dict[str, int]]:
    """The enums of the headers (the generated declaration table, which the `bindings`
    check keeps equal to them)."""
    return {name: dict(values) for name, values in _api.ENUMS.items()}


def just_outside(o: llmmetrics.OptionInfo, up: bool) -> Any:
    """The value just beyond a bound (the bound itself when exclusive), or None."""
    bound, exclusive = (o.max, o.max_exclusive) if up else (o.min, o.min_exclusive)
    if exclusive:
        return bound
    if o.type is OptionType.F64:
        v = math.nextafter(bound, math.inf if up else -math.inf)  # type: ignore[attr-defined]
        return v if math.isfinite(v) else None
    lo, hi = (0, 2 ** 64 - 1) if o.type is OptionType.U64 else (-2 ** 31, 2 ** 31 - 1)
    v = bound + 1 if up else bound - 1
    return v if lo <= v <= hi else None


class Listing(unittest.TestCase):
    def test_every_kind_by_enum_name_and_number(self) -> None:
        self.assertEqual(set(KINDS), set(ObjectKind))
        for kind in ObjectKind:
            by_enum = llmmetrics.options(kind)
            self.assertTrue(by_enum, kind)
            self.assertEqual(llmmetrics.options(kind.name.lower()), by_enum)
            self.assertEqual(llmmetrics.options(int(kind)), by_enum)
        for unknown in ("no_such_kind", 99):
            with self.assertRaises(ValueError):
                llmmetrics.options(unknown)

    def test_listing_covers_the_header_enums_and_the_binding_enums(self) -> None:
        enums = header_enums()
        for kind, (py_enum, c_enum, _, _, _) in KINDS.items():
            listed = {o.name: o.key for o in llmmetrics.options(kind)}
            prefix = c_enum[:-len("option")].upper()  # llmm_spike_option: LLMM_SPIKE_
            from_header = {n[len(prefix):].lower(): v for n, v in enums[c_enum].items()}
            self.assertEqual(listed, from_header, c_enum)
            self.assertEqual(listed, {m.name.lower(): int(m) for m in py_enum}, py_enum)

    def test_values_have_their_types(self) -> None:
        for kind in ObjectKind:
            for o in llmmetrics.options(kind):
                want = float if o.type is OptionType.F64 else int
                for v in (o.min, o.max) + (() if o.default is None else (o.default,)):
                    self.assertIs(type(v), want, (kind, o.name))
        # u64 bounds are exact beyond 2^53
        burn = {o.name: o for o in llmmetrics.options("burn")}
        self.assertEqual(burn["fast_long_ns"].max, 2 ** 64 - 1)
        self.assertIsNone(burn["slo_target"].default)


class AgainstObjects(unittest.TestCase):
    def test_fresh_objects_hold_the_listed_defaults(self) -> None:
        for kind, (py_enum, _, make, get, _) in KINDS.items():
            with make() as obj:
                for o in llmmetrics.options(kind):
                    if o.default is not None:
                        self.assertEqual(getattr(obj, get)(py_enum(o.key)), o.default,
                                         (kind, o.name))

    def test_setters_refuse_just_outside_the_bounds(self) -> None:
        checked = 0
        for kind, (py_enum, _, make, get, set_) in KINDS.items():
            with make() as obj:
                for o in llmmetrics.options(kind):
                    for up in (False, True):
                        v = just_outside(o, up)
                        if v is None:
                            continue
                        if o.type is OptionType.U64 and v < 0:
                            continue  # the binding refuses a negative u64 before C does
                        with self.assertRaises(OutOfRange, msg=(kind, o.name, v)):
                            getattr(obj, set_)(py_enum(o.key), v)
                        checked += 1
        self.assertGreater(checked, 30)

    def test_keyword_options_follow_the_listing(self) -> None:
        # geometry (fixed once started) goes first whatever the keyword order
        with llmmetrics.SpikeDetector(warmup=5, slots=10, slot_ns=10 ** 6) as d:
            self.assertEqual((d.warmup, d.slots, d.slot_ns), (5, 10, 10 ** 6))
        with llmmetrics.CollapseDetector(k=3, window=16) as c:
            self.assertEqual((c.k, c.window), (3.0, 16))


if __name__ == "__main__":
    unittest.main()
