"""Least squares, polynomials, knee estimators and the Universal Scalability Law
(``llmmetrics/fit.h``).

Coefficients are highest power first, as in numpy, so they move between ``numpy.polyfit`` /
``numpy.polyval`` and these functions unchanged. Inputs are any buffers or sequences of
floats (numpy arrays are read in place).
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from . import _lib
from ._args import real, uint32
from ._buffers import DoubleBuffer, as_doubles
from ._html import record_html
from .errors import check, error_for
from ._structs import new_struct

__all__ = ["KneeQuality", "FitStats", "PolyFit", "Knee", "Usl", "KneeReport", "polyfit",
           "poly_eval", "poly_residuals", "poly_deriv", "poly_roots", "knee_inflection",
           "knee_collapse", "knee_kneedle", "usl_fit", "knee_report", "knee_inflection_value",
           "POLY_MAX_DEGREE"]

POLY_MAX_DEGREE: int = _lib.LLMM_POLY_MAX_DEGREE


class KneeQuality(enum.IntEnum):
    """How well an estimate is supported by the data (``llmm_knee_quality``)."""

    NONE = 0
    WEAK = 1
    OK = 2


class FitStats(NamedTuple):
    """Diagnostics of a least-squares fit (``llmm_fit_stats``)."""

    rank: int
    n: int
    r2: float
    rss: float
    tss: float
    residual_std: float
    condition: float
    centre: float
    scale: float

    _repr_html_ = record_html


class PolyFit(NamedTuple):
    """Result of :func:`polyfit`: coefficients (highest power first) and diagnostics."""

    coeffs: Tuple[float, ...]
    stats: FitStats

    _repr_html_ = record_html


class Knee(NamedTuple):
    """One knee estimate (``llmm_knee``); ``knee`` and ``qps`` are NaN when quality is NONE."""

    knee: float
    qps: float
    strength: float
    quality: KneeQuality

    _repr_html_ = record_html


class _Pair:
    """Two equally long double inputs as C arguments."""

    def __init__(self, a: DoubleBuffer, b: DoubleBuffer, call: str, what: str = "x, y") -> None:
        self.pa, self.n, self._ka = as_doubles(a)
        self.pb, nb, self._kb = as_doubles(b)
        if nb != self.n:
            raise error_for(_lib.LLMM_E_INVALID, call, "%s have %d and %d values"
                            % (what, self.n, nb))


def _stats(st: Any) -> FitStats:
    return FitStats(st.rank, st.n, st.r2, st.rss, st.tss, st.residual_std, st.condition,
                    st.centre, st.scale)


def _coeffs(coeffs: DoubleBuffer, call: str) -> Tuple[Any, int, Any]:
    ptr, n, keep = as_doubles(coeffs)
    if n == 0:
        raise error_for(_lib.LLMM_E_INVALID, call, "no coefficients")
    return ptr, n - 1, keep


def polyfit(x: DoubleBuffer, y: DoubleBuffer, degree: int,
            w: Optional[DoubleBuffer] = None) -> PolyFit:
    """Least-squares polynomial fit, the equivalent of ``numpy.polyfit(x, y, degree)``.

    :param w: optional weights ≥ 0 acting as repeat counts (Σ wᵢ rᵢ²; numpy's ``w=v`` is
              ``w=v**2`` here)
    :raises InvalidArgument: NaN/Inf, too few or degenerate points
    :raises OutOfRange: degree above ``POLY_MAX_DEGREE``
    """
    call = "llmm_polyfit" if w is None else "llmm_polyfit_weighted"
    xy = _Pair(x, y, call)
    d = uint32(degree, "degree", call)
    if d > POLY_MAX_DEGREE:
        raise error_for(_lib.LLMM_E_RANGE, call, "degree %d > %d" % (d, POLY_MAX_DEGREE))
    out = (ctypes.c_double * (d + 1))()
    st = new_struct(_lib.llmm_fit_stats)
    if w is None:
        rc = _lib.llmm_polyfit(xy.pa, xy.pb, xy.n, d, out, ctypes.byref(st))
    else:
        pw, nw, kw = as_doubles(w)
        if nw != xy.n:
            raise error_for(_lib.LLMM_E_INVALID, call, "%d weights for %d points" % (nw, xy.n))
        rc = _lib.llmm_polyfit_weighted(xy.pa, xy.pb, pw, xy.n, d, out, ctypes.byref(st))
        del kw
    check(rc, call, "%d points, degree %d" % (xy.n, d))
    return PolyFit(tuple(out), _stats(st))


def poly_eval(coeffs: DoubleBuffer, x: float) -> float:
    """p(x) by Horner's rule (as ``numpy.polyval``)."""
    p, d, keep = _coeffs(coeffs, "llmm_poly_eval")
    out = ctypes.c_double()
    check(_lib.llmm_poly_eval(p, d, real(x, "x"), ctypes.byref(out)), "llmm_poly_eval")
    return out.value


def poly_residuals(coeffs: DoubleBuffer, x: DoubleBuffer,
                   y: DoubleBuffer) -> Tuple[List[float], float]:
    """Residuals ``y − p(x)`` (compensated Horner) and their sum of squares."""
    p, d, keep = _coeffs(coeffs, "llmm_poly_residuals")
    xy = _Pair(x, y, "llmm_poly_residuals")
    res = (ctypes.c_double * max(xy.n, 1))()
    rss = ctypes.c_double()
    check(_lib.llmm_poly_residuals(p, d, xy.pa, xy.pb, xy.n, res, ctypes.byref(rss)),
          "llmm_poly_residuals")
    return list(res[:xy.n]), rss.value


def poly_deriv(coeffs: DoubleBuffer, order: int = 1) -> Tuple[float, ...]:
    """Coefficients of the ``order``-th derivative (as ``numpy.polyder``); the zero
    polynomial is ``(0.0,)``."""
    p, d, keep = _coeffs(coeffs, "llmm_poly_deriv")
    k = uint32(order, "order", "llmm_poly_deriv")
    out = (ctypes.c_double * (max(d - k, 0) + 1))()
    out_degree = ctypes.c_uint32()
    check(_lib.llmm_poly_deriv(p, d, k, out, ctypes.byref(out_degree)), "llmm_poly_deriv")
    return tuple(out[:out_degree.value + 1])


def poly_roots(coeffs: DoubleBuffer) -> List[float]:
    """All real roots, ascending, each as often as its multiplicity.

    :raises InvalidArgument: every coefficient is 0
    """
    p, d, keep = _coeffs(coeffs, "llmm_poly_roots")
    roots = (ctypes.c_double * max(d, 1))()
    n = ctypes.c_size_t()
    check(_lib.llmm_poly_roots(p, d, roots, d, ctypes.byref(n)), "llmm_poly_roots")
    return list(roots[:n.value])


def _knee(k: Any) -> Knee:
    return Knee(k.knee, k.qps, k.strength, KneeQuality(k.quality))


def _new_knee() -> Any:
    k = new_struct(_lib.llmm_knee)
    return k


def knee_inflection(conc: DoubleBuffer, qps: DoubleBuffer, trim: float = 0.1) -> Knee:
    """Knee as the inflection point of a least-squares cubic after trimming ``trim`` of the
    samples at each end (the reference method). Quality NONE (NaN knee) when the inflection
    is outside the data; the result's ``strength`` is the cubic's R²."""
    xy = _Pair(conc, qps, "llmm_knee_inflection_ex", "conc, qps")
    k = _new_knee()
    check(_lib.llmm_knee_inflection_ex(xy.pa, xy.pb, xy.n, real(trim, "trim"),
                                       ctypes.byref(k)), "llmm_knee_inflection_ex")
    return _knee(k)


def knee_collapse(conc: DoubleBuffer, qps: DoubleBuffer, fraction: float = 0.5,
                  smooth: int = 0) -> Knee:
    """Knee where the smoothed marginal gain first falls below ``fraction`` of the initial
    gain ("QPS growth collapse"); ``smooth`` odd, 0 = automatic."""
    xy = _Pair(conc, qps, "llmm_knee_collapse", "conc, qps")
    k = _new_knee()
    check(_lib.llmm_knee_collapse(xy.pa, xy.pb, xy.n, real(fraction, "fraction"),
                                  uint32(smooth, "smooth", "llmm_knee_collapse"),
                                  ctypes.byref(k)), "llmm_knee_collapse")
    return _knee(k)


def knee_kneedle(conc: DoubleBuffer, qps: DoubleBuffer, sensitivity: float = 1.0) -> Knee:
    """Kneedle knee (Satopää et al. 2011) of a concave increasing curve."""
    xy = _Pair(conc, qps, "llmm_knee_kneedle", "conc, qps")
    k = _new_knee()
    check(_lib.llmm_knee_kneedle(xy.pa, xy.pb, xy.n, real(sensitivity, "sensitivity"),
                                 ctypes.byref(k)), "llmm_knee_kneedle")
    return _knee(k)


def _model_field(field: str, doc: str, kind: Callable[[Any], Any] = float) -> property:
    """A read-only property: ``field`` of the model's C struct, as ``kind`` (its type)."""
    def get(self: Any) -> Any:
        return kind(getattr(self._m, field))
    get.__doc__ = doc
    get.__annotations__["return"] = kind
    return property(get)


class Usl:
    """A Universal Scalability Law model X(N) = λN / (1 + σ(N − 1) + κN(N − 1))
    (``llmm_usl``), from :func:`usl_fit` or built from parameters.

    :param lam: λ > 0, throughput at N = 1 before contention
    :param sigma: σ, contention share
    :param kappa: κ ≥ 0, coherency cost
    """

    def __init__(self, lam: float, sigma: float, kappa: float) -> None:
        self._m = new_struct(_lib.llmm_usl)
        setattr(self._m, "lambda", real(lam, "lam"))
        self._m.sigma = real(sigma, "sigma")
        self._m.kappa = real(kappa, "kappa")

    @classmethod
    def _from_struct(cls, m: Any) -> "Usl":
        obj = cls.__new__(cls)
        obj._m = m
        return obj

    lam = _model_field("lambda", "λ > 0, throughput at N = 1 before contention.")
    sigma = _model_field("sigma", "σ, the contention share (may be slightly negative).")
    kappa = _model_field("kappa", "κ ≥ 0, the coherency cost.")
    n_max = _model_field("n_max", "floor(sqrt((1 − σ)/κ)) ≥ 1, the concurrency of peak throughput "
                                  "(+inf: no peak).")
    x_max = _model_field("x_max", "Throughput at n_max.")
    r2 = _model_field("r2", "R² of the fit on the throughput values.")
    rss = _model_field("rss", "Residual sum of squares of the fit.")
    iterations = _model_field("iterations", "Levenberg–Marquardt iterations used.", int)
    kappa_at_bound = _model_field("kappa_at_bound", "True when κ was held at its bound 0.", bool)
    quality = _model_field("quality", "How well the fit is supported (OK, WEAK, NONE).",
                           KneeQuality)

    def throughput(self, n: float) -> float:
        """X(n).

        :raises OutOfRange: the model's denominator is ≤ 0 at n
        """
        return self._at(_lib.llmm_usl_throughput, "n", n)

    def latency(self, n: float) -> float:
        """R(n) = n / X(n) (Little's law), in the reciprocal of the throughput's time unit."""
        return self._at(_lib.llmm_usl_latency, "n", n)

    def slo_concurrency(self, max_latency: float) -> float:
        """Largest integer concurrency whose latency meets ``max_latency`` (0: none, +inf:
        always)."""
        return self._at(_lib.llmm_usl_slo_concurrency, "max_latency", max_latency)

    def _at(self, fn: Any, name: str, x: float) -> float:
        """What ``fn(model, x, &out)`` writes; ``name`` names ``x`` in errors."""
        out = ctypes.c_double()
        check(fn(ctypes.byref(self._m), real(x, name), ctypes.byref(out)), fn.__name__,
              "%s=%r" % (name, x))
        return out.value

    def __repr__(self) -> str:
        return ("<llmmetrics.Usl lambda=%.6g sigma=%.6g kappa=%.6g n_max=%g x_max=%.6g "
                "r2=%.4f quality=%s>" % (self.lam, self.sigma, self.kappa, self.n_max,
                                         self.x_max, self.r2, self.quality.name))


def usl_fit(conc: DoubleBuffer, qps: DoubleBuffer) -> Usl:
    """Fit the Universal Scalability Law to (concurrency, throughput) pairs.

    :raises InvalidArgument: fewer than 6 points / 3 distinct concurrencies, values ≤ 0
    :raises NotConverged: the iteration did not converge
    """
    xy = _Pair(conc, qps, "llmm_usl_fit", "conc, qps")
    m = new_struct(_lib.llmm_usl)
    check(_lib.llmm_usl_fit(xy.pa, xy.pb, xy.n, ctypes.byref(m)), "llmm_usl_fit")
    return Usl._from_struct(m)


class KneeReport(NamedTuple):
    """Every estimator on one sweep (:func:`knee_report`)."""

    inflection: Knee
    collapse: Knee
    kneedle: Knee
    usl: Usl

    def _repr_html_(self) -> str:
        from .plot import knee_plot  # plot reads reports; imported when one is shown
        return record_html(self, knee_plot(report=self).text)


def knee_report(conc: DoubleBuffer, qps: DoubleBuffer, *, trim: Optional[float] = None,
                collapse_fraction: Optional[float] = None, smooth: Optional[int] = None,
                kneedle_sensitivity: Optional[float] = None) -> KneeReport:
    """Run the inflection, growth-collapse and Kneedle estimators and a USL fit side by side.

    Options left out take the library defaults (trim 0.1, fraction 0.5, smooth auto,
    sensitivity 1). An estimator that finds nothing reports quality NONE.
    """
    xy = _Pair(conc, qps, "llmm_knee_report", "conc, qps")
    opt = new_struct(_lib.llmm_knee_options)
    if trim is not None:
        opt.trim = real(trim, "trim")
    if collapse_fraction is not None:
        opt.collapse_fraction = real(collapse_fraction, "collapse_fraction")
    if smooth is not None:
        opt.smooth = uint32(smooth, "smooth", "llmm_knee_report")
    if kneedle_sensitivity is not None:
        opt.kneedle_sensitivity = real(kneedle_sensitivity, "kneedle_sensitivity")
    ks = [_new_knee() for _ in range(3)]
    m = new_struct(_lib.llmm_usl)
    check(_lib.llmm_knee_report(xy.pa, xy.pb, xy.n, ctypes.byref(opt),
                                *[ctypes.byref(k) for k in ks], ctypes.byref(m)),
          "llmm_knee_report")
    return KneeReport(_knee(ks[0]), _knee(ks[1]), _knee(ks[2]), Usl._from_struct(m))


def knee_inflection_value(conc: DoubleBuffer, qps: DoubleBuffer, trim: float = 0.1) -> float:
    """Just the inflection concurrency (``llmm_knee_inflection``).

    :raises Empty: no inflection inside the retained range
    """
    xy = _Pair(conc, qps, "llmm_knee_inflection", "conc, qps")
    out = ctypes.c_double()
    check(_lib.llmm_knee_inflection(xy.pa, xy.pb, xy.n, real(trim, "trim"), ctypes.byref(out)),
          "llmm_knee_inflection")
    return out.value
