"""Scorecard against doc/spec.md §1 (presets) and an independent Python evaluation."""

from __future__ import annotations

import math
import unittest

import llmmetrics
from llmmetrics import (Direction, Empty, InvalidArgument, InvalidState, Layer, MissingPolicy,
                        OutOfRange, Scenario, Scorecard, UnknownOption)

PRESETS = {
    Scenario.CUSTOMER_SERVICE: (0.25, 0.40, 0.20, 0.15),
    Scenario.CODE_ASSISTANT: (0.45, 0.20, 0.15, 0.20),
    Scenario.CONTENT_GENERATION: (0.35, 0.10, 0.25, 0.30),
}


def py_norm(target: float, worst: float, value: float) -> float:
    return min(1.0, max(0.0, (value - worst) / (target - worst)))


class Presets(unittest.TestCase):
    def test_preset_weights(self) -> None:
        for sc, w in PRESETS.items():
            self.assertEqual(llmmetrics.scenario_weights(sc), w)
            with Scorecard(sc) as card:
                self.assertEqual(card.weights, w)
        with self.assertRaises(InvalidArgument):
            llmmetrics.scenario_weights(Scenario.CUSTOM)

    def test_normalize(self) -> None:
        self.assertEqual(llmmetrics.score_normalize(Direction.LOWER_IS_BETTER, 200, 800, 500),
                         0.5)
        self.assertEqual(llmmetrics.score_normalize(Direction.HIGHER_IS_BETTER, 100, 0, 150),
                         1.0)
        self.assertEqual(llmmetrics.score_normalize(Direction.HIGHER_IS_BETTER, 100, 0, -5), 0.0)
        self.assertEqual(llmmetrics.score_normalize(Direction.LOWER_IS_BETTER, 0.01, 0.05,
                                                    0.01), 1.0)
        with self.assertRaises(InvalidArgument):
            llmmetrics.score_normalize(Direction.HIGHER_IS_BETTER, 0, 100, 5)  # wrong side
        with self.assertRaises(InvalidArgument):
            llmmetrics.score_normalize(Direction.HIGHER_IS_BETTER, 100, 0, float("nan"))


class Evaluation(unittest.TestCase):
    METRICS = [  # layer, name, target, worst, weight, value
        (Layer.CAPABILITY, "factual", 0.95, 0.7, 2.0, 0.9),
        (Layer.CAPABILITY, "instruction_following", 0.98, 0.8, 1.0, 0.85),
        (Layer.PERFORMANCE, "p95_ms", 200.0, 800.0, 1.0, 450.0),
        (Layer.PERFORMANCE, "throughput_rps", 100.0, 20.0, 1.0, 120.0),
        (Layer.ENGINEERING, "error_rate", 0.001, 0.05, 1.0, 0.01),
        (Layer.BUSINESS, "review_pass", 0.9, 0.5, 1.0, 0.6),
    ]

    def card(self, scenario=Scenario.CODE_ASSISTANT, **kw) -> Scorecard:
        c = Scorecard(scenario, **kw)
        for layer, name, target, worst, weight, _ in self.METRICS:
            c.add_metric(layer, name, target=target, worst=worst, weight=weight)
        return c

    def expected(self, weights, skip=()):
        layer_scores = {}
        for layer in Layer:
            rows = [m for m in self.METRICS if m[0] == layer and m[1] not in skip]
            if rows:
                tw = sum(m[4] for m in rows)
                layer_scores[layer] = sum(m[4] * py_norm(m[2], m[3], m[5]) for m in rows) / tw
        total_w = sum(weights[layer] for layer in layer_scores)
        overall = sum(weights[layer] * s for layer, s in layer_scores.items()) / total_w
        return overall, layer_scores

    def test_overall_against_python(self) -> None:
        with self.card() as c:
            self.assertEqual(len(c), len(self.METRICS))
            c.update({m[1]: m[5] for m in self.METRICS})
            r = c.evaluate()
            overall, layers = self.expected(PRESETS[Scenario.CODE_ASSISTANT])
            self.assertAlmostEqual(r.overall, overall, places=12)
            self.assertEqual(r.scenario, Scenario.CODE_ASSISTANT)
            self.assertFalse(r.renormalized)
            self.assertEqual(r.layers_missing, 0)
            for ls in r.layers:
                self.assertAlmostEqual(ls.score, layers[ls.layer], places=12)
                self.assertAlmostEqual(ls.contribution, ls.effective_weight * ls.score,
                                       places=15)
                self.assertTrue(ls.present)
            self.assertAlmostEqual(sum(ls.contribution for ls in r.layers), r.overall,
                                   places=12)
            self.assertEqual(r.layer(Layer.CAPABILITY).metrics, 2)
            for m in self.METRICS:
                self.assertAlmostEqual(c.metric_score(m[1]), py_norm(m[2], m[3], m[5]),
                                       places=12)
            self.assertEqual(c.metric_score(2), c.metric_score("p95_ms"))
            self.assertEqual([m.id for m in c.metrics], list(range(len(self.METRICS))))
            self.assertEqual(c.metrics[2].direction, Direction.LOWER_IS_BETTER)
            self.assertIn("overall", c._repr_html_())

    def test_missing_layer_refused_then_renormalised(self) -> None:
        with self.card(Scenario.CUSTOMER_SERVICE) as c:
            self.assertEqual(c.missing, MissingPolicy.REFUSE)
            c.update({m[1]: m[5] for m in self.METRICS if m[0] != Layer.BUSINESS})
            with self.assertRaises(InvalidState) as cm:
                c.evaluate()
            partial = cm.exception.result
            self.assertTrue(math.isnan(partial.overall))
            self.assertFalse(partial.layer(Layer.BUSINESS).present)
            self.assertTrue(math.isnan(partial.layer(Layer.BUSINESS).score))
            self.assertEqual(partial.layers_missing, 1)
            self.assertIn("LLMM_E_STATE", c._repr_html_())
            c.missing = MissingPolicy.RENORMALIZE
            r = c.evaluate()
            overall, _ = self.expected(PRESETS[Scenario.CUSTOMER_SERVICE],
                                       skip=("review_pass",))
            self.assertTrue(r.renormalized)
            self.assertAlmostEqual(r.overall, overall, places=12)
            self.assertEqual(r.layer(Layer.BUSINESS).effective_weight, 0.0)
            c.clear()
            with self.assertRaises(Empty) as cm:
                c.evaluate()
            with self.assertRaises(Empty):
                c.metric_score("p95_ms")

    def test_custom_weights(self) -> None:
        w = (0.1, 0.2, 0.3, 0.4)
        with Scorecard(weights=w) as c:
            self.assertEqual(c.weights, w)
            c.add_metric(Layer.CAPABILITY, "a", target=1, worst=0)
            c.add_metric(Layer.PERFORMANCE, "b", target=1, worst=0)
            c.add_metric(Layer.ENGINEERING, "c", target=1, worst=0)
            c.add_metric(Layer.BUSINESS, "d", target=1, worst=0)
            c.update({"a": 1.0, "b": 0.5, 2: 0.25, 3: 0.0})
            r = c.evaluate()
            self.assertAlmostEqual(r.overall, 0.1 + 0.2 * 0.5 + 0.3 * 0.25, places=15)
            self.assertEqual(r.scenario, Scenario.CUSTOM)
        with Scorecard(Scenario.CUSTOM) as c:
            with self.assertRaises(InvalidState):
                c.weights
            with self.assertRaises(InvalidState) as cm:
                c.evaluate()
            self.assertIsNone(cm.exception.result)
            self.assertIn("unset", repr(c))
            c.weights = (0.25, 0.25, 0.25, 0.25 - 1e-12)  # within 1e-9 of 1
            for bad in ((0.5, 0.5, 0.5, 0.5), (1.0, 0.0, 0.0), (1.0, 0.0, 0.0, float("nan")),
                        (1.2, -0.2, 0.0, 0.0), (0.25, 0.25, 0.25, 0.25 - 2e-9)):
                with self.assertRaises(InvalidArgument, msg=repr(bad)):
                    c.weights = bad
        with self.assertRaises(TypeError):
            Scorecard()

    def test_metric_errors(self) -> None:
        with Scorecard(Scenario.CODE_ASSISTANT) as c:
            c.add_metric(Layer.CAPABILITY, "x", target=1.0, worst=0.0)
            bad_defs = [
                dict(layer=Layer.CAPABILITY, name="x", target=1.0, worst=0.0),   # duplicate
                dict(layer=Layer.CAPABILITY, name="", target=1.0, worst=0.0),
                dict(layer=Layer.CAPABILITY, name="y" * 256, target=1.0, worst=0.0),
                dict(layer=Layer.CAPABILITY, name="nul\0", target=1.0, worst=0.0),
                dict(layer=9, name="z", target=1.0, worst=0.0),
                dict(layer=Layer.CAPABILITY, name="z", target=1.0, worst=1.0),
                dict(layer=Layer.CAPABILITY, name="z", target=1.0, worst=0.0, weight=0.0),
                dict(layer=Layer.CAPABILITY, name="z", target=1.0, worst=0.0,
                     direction=Direction.LOWER_IS_BETTER),
            ]
            for d in bad_defs:
                layer = d.pop("layer")
                name = d.pop("name")
                with self.assertRaises(InvalidArgument, msg=repr((layer, name, d))):
                    c.add_metric(layer, name, **d)
            self.assertEqual(len(c), 1)
            c.add_metric(Layer.CAPABILITY, "é" * 127, target=1.0, worst=0.0)  # 254 bytes
            with self.assertRaises(InvalidArgument):
                c.observe("nope", 1.0)
            with self.assertRaises(InvalidArgument):
                c.observe(99, 1.0)
            with self.assertRaises(InvalidArgument):
                c.observe("x", float("inf"))
            with self.assertRaises(InvalidArgument):
                c.metric_score("nope")
            with self.assertRaises(UnknownOption):
                c.set_option(5, 1)
            with self.assertRaises(OutOfRange):
                c.set_option(0, 7)


if __name__ == "__main__":
    unittest.main()
