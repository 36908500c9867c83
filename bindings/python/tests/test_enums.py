"""Every C enum of the headers (the generated declaration table ``_api.py``) has an IntEnum
in the Pythonic layer with the same members and values.

That every C function is bound by the Pythonic layer (or allow-listed in
``bindings/python/unbound.txt`` with a reason) is checked for all three bindings by
``tools/bindings/bound.py`` (test ``bound`` of the ``bindings`` suite).
"""

from __future__ import annotations

import unittest

import llmmetrics
from llmmetrics import _api


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
    "llmm_exemplar_keep": (llmmetrics.ExemplarKeep, "LLMM_EXEMPLAR_"),
    "llmm_prom_type": (llmmetrics.PromType, "LLMM_PROM_"),
    "llmm_bucket_list": (llmmetrics.BucketList, "LLMM_BUCKETS_"),
    "llmm_otlp_temporality": (llmmetrics.OtlpTemporality, "LLMM_OTLP_"),
    "llmm_otlp_encoding": (llmmetrics.OtlpEncoding, "LLMM_OTLP_"),
    "llmm_otlp_metric_type": (llmmetrics.OtlpMetricType, "LLMM_OTLP_"),
    "llmm_otlp_value_type": (llmmetrics.OtlpValueType, "LLMM_OTLP_"),
    "llmm_otlp_span_kind": (llmmetrics.OtlpSpanKind, "LLMM_OTLP_"),
    "llmm_otlp_status_code": (llmmetrics.OtlpStatusCode, "LLMM_OTLP_"),
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
        self.assertEqual(sorted(_api.ENUMS), sorted(PY_ENUMS),
                         "C enums without an IntEnum in the Pythonic layer (or stale entries)")
        for cname, (py, prefix) in PY_ENUMS.items():
            want = dict(_api.ENUMS[cname])
            got = {prefix + m.name: int(m) for m in py}
            self.assertEqual(got, want, cname)
            self.assertIn(py.__name__, llmmetrics.__all__)


if __name__ == "__main__":
    unittest.main()
