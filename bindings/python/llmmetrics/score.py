"""``Scorecard``: the four-layer weighted scorecard with scenario presets (``llmmetrics/score.h``).

Each observation is normalised to ``clamp((value − worst) / (target − worst), 0, 1)``; a layer
scores the weighted mean of its observed metrics; the overall score is the weighted mean of the
layers. A layer without observations is *missing* (never a zero): evaluation then refuses
(:class:`InvalidState`, the default) or renormalises, as chosen with ``missing``.
"""

from __future__ import annotations

import ctypes
import enum
import html
import math
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from . import _lib
from ._args import int32, real, uint32
from ._html import record_html
from ._options import ObjectKind, OptionCalls
from .context import Context, Handle
from .errors import LlmmError, check, error_for
from ._structs import new_struct

__all__ = ["Layer", "Scenario", "Direction", "MissingPolicy", "ScorecardOption", "LayerScore",
           "ScoreResult", "Metric", "Scorecard", "scenario_weights", "score_normalize",
           "LAYER_COUNT", "SCORE_NAME_MAX"]

LAYER_COUNT: int = _lib.LLMM_LAYER_COUNT
SCORE_NAME_MAX: int = _lib.LLMM_SCORE_NAME_MAX


class Layer(enum.IntEnum):
    """The four evaluation layers, in the order of every weight tuple (``llmm_layer``)."""

    CAPABILITY = 0
    PERFORMANCE = 1
    ENGINEERING = 2
    BUSINESS = 3


class Scenario(enum.IntEnum):
    """Scenario weight presets (``llmm_scenario``); CUSTOM takes the caller's weights."""

    CUSTOMER_SERVICE = 0
    CODE_ASSISTANT = 1
    CONTENT_GENERATION = 2
    CUSTOM = 3


class Direction(enum.IntEnum):
    """Which way a metric improves (``llmm_direction``)."""

    HIGHER_IS_BETTER = 0
    LOWER_IS_BETTER = 1


class MissingPolicy(enum.IntEnum):
    """What the overall score does when a weighted layer is missing (``llmm_missing_policy``)."""

    REFUSE = 0
    RENORMALIZE = 1


class ScorecardOption(enum.IntEnum):
    """Integer options of a scorecard (``llmm_scorecard_option``); bounds and defaults:
    ``llmmetrics.options("scorecard")``."""

    MISSING = 0  #: a :class:`MissingPolicy`


_SCORECARD = OptionCalls(ObjectKind.SCORECARD, _lib.llmm_scorecard_set_i32,
                                               _lib.llmm_scorecard_get_i32)


class LayerScore(NamedTuple):
    """One layer of a :class:`ScoreResult`."""

    layer: Layer
    score: float            #: NaN when the layer is missing
    weight: float           #: as configured
    effective_weight: float  #: as used for the overall score (0 when missing)
    contribution: float     #: effective_weight × score
    present: bool
    metrics: int            #: metrics defined in the layer
    observed: int           #: metrics of the layer with an observation

    _repr_html_ = record_html


class ScoreResult(NamedTuple):
    """Result of :meth:`Scorecard.evaluate`."""

    overall: float
    scenario: Scenario
    layers_missing: int
    renormalized: bool
    layers: Tuple[LayerScore, ...]

    _repr_html_ = record_html

    def layer(self, layer: Union[Layer, int]) -> LayerScore:
        """The entry of one layer."""
        return self.layers[int(layer)]


class Metric(NamedTuple):
    """A metric as defined with :meth:`Scorecard.add_metric`."""

    id: int
    layer: Layer
    name: str
    direction: Direction
    target: float
    worst: float
    weight: float


def _weights_arg(weights: Sequence[float]) -> Any:
    ws = [real(w, "weight") for w in weights]
    if len(ws) != LAYER_COUNT:
        raise error_for(_lib.LLMM_E_INVALID, "llmm_scorecard_set_weights",
                        "%d weights, need %d" % (len(ws), LAYER_COUNT))
    return (ctypes.c_double * LAYER_COUNT)(*ws)


def scenario_weights(preset: Union[Scenario, int]) -> Tuple[float, ...]:
    """The layer weights of a preset scenario (capability, performance, engineering, business).

    :raises InvalidArgument: CUSTOM or an unknown preset
    """
    out = (ctypes.c_double * LAYER_COUNT)()
    check(_lib.llmm_scenario_weights(int32(preset, "preset"), out, LAYER_COUNT),
          "llmm_scenario_weights", "preset=%r" % (preset,))
    return tuple(out)


def score_normalize(direction: Union[Direction, int], target: float, worst: float,
                    value: float) -> float:
    """One observation as a 0..1 score: ``clamp((value − worst) / (target − worst), 0, 1)``.

    :raises InvalidArgument: non-finite numbers, or target/worst on the wrong side for
                             ``direction``
    """
    out = ctypes.c_double()
    check(_lib.llmm_score_normalize(int32(direction, "direction"), real(target, "target"),
                                    real(worst, "worst"), real(value), ctypes.byref(out)),
          "llmm_score_normalize", "target=%r worst=%r value=%r" % (target, worst, value))
    return out.value


def _name_arg(name: str, call: str) -> bytes:
    if not isinstance(name, str):
        raise TypeError("llmmetrics: a metric name is a str, not %s" % type(name).__name__)
    b = name.encode("utf-8")
    if b"\0" in b:
        raise error_for(_lib.LLMM_E_INVALID, call, "metric name contains NUL: %r" % name)
    return b


class Scorecard(Handle):
    """A four-layer weighted scorecard (``llmm_scorecard``).

    :param scenario: a preset; ``Scenario.CUSTOM`` (the default when ``weights`` is given)
                     needs ``weights``
    :param weights: custom layer weights (finite, ≥ 0, summing to 1 within 1e-9)
    :param missing: what to do when a weighted layer has no observation (None: the
                    library's default)
    :param context: allocation context (None: libc)

    ``len(card)`` is the number of metrics defined.
    """

    _c_free = staticmethod(_lib.llmm_scorecard_free)

    def __init__(self, scenario: Optional[Union[Scenario, int]] = None, *,
                 weights: Optional[Sequence[float]] = None,
                 missing: Optional[Union[MissingPolicy, int]] = None,
                 context: Optional[Context] = None) -> None:
        if scenario is None:
            if weights is None:
                raise TypeError("llmmetrics.Scorecard: give a scenario or weights")
            scenario = Scenario.CUSTOM
        sc = int32(scenario, "scenario", "llmm_scorecard_new")
        self._metrics: List[Metric] = []
        self._ids: Dict[str, int] = {}
        self._init_new(context, _lib.llmm_scorecard, "llmm_scorecard_new",
                       lambda ctx, out: _lib.llmm_scorecard_new(ctx, sc, out),
                       "scenario=%r" % (scenario,))
        try:
            if weights is not None:
                self.weights = weights  # type: ignore[assignment]
            if missing is not None:
                self.missing = missing  # type: ignore[assignment]
        except BaseException:
            self.close()
            raise

    # -- configuration ---------------------------------------------------------------------

    @property
    def weights(self) -> Tuple[float, ...]:
        """The layer weights as configured; setting them makes the scenario CUSTOM.

        :raises InvalidState: a CUSTOM scorecard whose weights were never set
        """
        out = (ctypes.c_double * LAYER_COUNT)()
        self._call(_lib.llmm_scorecard_weights, out, LAYER_COUNT)
        return tuple(out)

    @weights.setter
    def weights(self, weights: Sequence[float]) -> None:
        arr = _weights_arg(weights)
        self._call(_lib.llmm_scorecard_set_weights, arr, LAYER_COUNT,
                   detail="weights=%r" % (tuple(weights),))

    def set_option(self, option: Union[ScorecardOption, int], value: int) -> None:
        """Set an integer option (``llmm_scorecard_set_i32``)."""
        _SCORECARD.set(self, option, value)

    def get_option(self, option: Union[ScorecardOption, int]) -> int:
        """Read an integer option (``llmm_scorecard_get_i32``)."""
        return int(_SCORECARD.get(self, option))

    @property
    def missing(self) -> MissingPolicy:
        """What the overall score does when a weighted layer is missing."""
        return MissingPolicy(self.get_option(ScorecardOption.MISSING))

    @missing.setter
    def missing(self, policy: Union[MissingPolicy, int]) -> None:
        self.set_option(ScorecardOption.MISSING, policy)

    # -- metrics and observations ----------------------------------------------------------

    def add_metric(self, layer: Union[Layer, int], name: str, *, target: float, worst: float,
                   direction: Optional[Union[Direction, int]] = None,
                   weight: float = 1.0) -> int:
        """Define a metric; returns its id (0, 1, 2, ... in order of definition).

        :param layer: the layer it belongs to
        :param name: unique name, 1 to 255 UTF-8 bytes
        :param target: the value that scores 1
        :param worst: the worst acceptable value, scoring 0
        :param direction: inferred from target and worst when omitted
        :param weight: weight inside its layer (> 0)
        :raises InvalidArgument: bad layer, duplicate or bad name, bad numbers
        """
        t, w = real(target, "target"), real(worst, "worst")
        if direction is None:
            direction = Direction.HIGHER_IS_BETTER if t > w else Direction.LOWER_IS_BETTER
        call = "llmm_scorecard_add_metric"
        out = ctypes.c_uint32()
        with self._lock:
            st = _lib.llmm_scorecard_add_metric(self._live(), int32(layer, "layer", call),
                                                _name_arg(name, call),
                                                int32(direction, "direction", call), t, w,
                                                real(weight, "weight"), ctypes.byref(out))
            if st == 0:
                m = Metric(out.value, Layer(layer), name, Direction(direction), t, w,
                           float(weight))
                self._metrics.append(m)
                self._ids[name] = m.id
        check(st, call, "name=%r" % (name,))
        return out.value

    @property
    def metrics(self) -> List[Metric]:
        """The metrics defined so far, in id order."""
        return list(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def observe(self, metric: Union[str, int], value: float) -> None:
        """Record the latest observation of a metric, by name or id (replaces the previous).

        :raises InvalidArgument: unknown metric, or NaN / infinite value
        """
        v = real(value)
        with self._lock:
            if isinstance(metric, str):
                st = _lib.llmm_scorecard_observe(self._live(),
                                                 _name_arg(metric, "llmm_scorecard_observe"), v)
            else:
                st = _lib.llmm_scorecard_observe_id(self._live(), uint32(metric, "id"), v)
        check(st, "llmm_scorecard_observe", "metric=%r value=%r" % (metric, value))

    def update(self, observations: Mapping[Union[str, int], float]) -> None:
        """Observe several metrics: ``{name or id: value}``."""
        for metric, value in observations.items():
            self.observe(metric, value)

    def clear(self) -> None:
        """Forget every observation; metrics, weights and options stay."""
        self._call(_lib.llmm_scorecard_clear)

    def metric_score(self, metric: Union[str, int]) -> float:
        """The normalised 0..1 score of one metric's latest observation.

        :raises Empty: the metric has no observation
        :raises InvalidArgument: unknown metric
        """
        if isinstance(metric, str):
            if metric not in self._ids:
                raise error_for(_lib.LLMM_E_INVALID, "llmm_scorecard_metric_score",
                                "no metric %r" % metric)
            mid = self._ids[metric]
        else:
            mid = uint32(metric, "id")
        out = ctypes.c_double()
        self._call(_lib.llmm_scorecard_metric_score, mid, ctypes.byref(out),
                   detail="metric=%r" % (metric,))
        return out.value

    # -- evaluation ------------------------------------------------------------------------

    def evaluate(self) -> ScoreResult:
        """Overall score, each layer's score, weights and contribution.

        :raises InvalidState: custom weights never set, or a weighted layer missing under
                              REFUSE (then the exception's ``result`` attribute holds the
                              per-layer fields, showing what is missing)
        :raises Empty: nothing to score (``result`` attribute as above)
        """
        r = new_struct(_lib.llmm_score_result)
        with self._lock:
            st = _lib.llmm_scorecard_evaluate(self._live(), ctypes.byref(r))
        if st:
            err: LlmmError = error_for(st, "llmm_scorecard_evaluate")
            # filled on LLMM_E_STATE / LLMM_E_EMPTY after a layer check: overall is then NaN
            err.result = _result(r) if math.isnan(r.overall) else None  # type: ignore[attr-defined]
            raise err
        return _result(r)

    def __repr__(self) -> str:
        if self.closed:
            return "<llmmetrics.Scorecard closed>"
        try:
            w = ", ".join("%.4g" % x for x in self.weights)
        except LlmmError:
            w = "unset"
        return "<llmmetrics.Scorecard weights=(%s) metrics=%d>" % (w, len(self))

    def _repr_html_(self) -> str:
        """The current evaluation (a per-layer table), for Jupyter."""
        if self.closed:
            return "<p>llmmetrics.Scorecard (closed)</p>"
        try:
            res: Optional[ScoreResult] = self.evaluate()
            head = "overall %.4f" % res.overall  # type: ignore[union-attr]
        except LlmmError as e:
            res = getattr(e, "result", None)
            head = html.escape(str(e))
        return ("<div class='llmmetrics-scorecard'><b>llmmetrics.Scorecard</b>: %s%s</div>"
                % (head, res._repr_html_() if res is not None else ""))


def _result(r: Any) -> ScoreResult:
    layers = tuple(
        LayerScore(Layer(i), r.layer_score[i], r.layer_weight[i], r.layer_effective_weight[i],
                   r.layer_contribution[i], bool(r.layer_present[i]), r.layer_metrics[i],
                   r.layer_observed[i]) for i in range(LAYER_COUNT))
    return ScoreResult(r.overall, Scenario(r.scenario), r.layers_missing, bool(r.renormalized),
                       layers)
