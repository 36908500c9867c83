"""Plain SVG charts for notebooks, drawn by this package (no matplotlib, no JavaScript).

Each function returns an :class:`Svg`, which a notebook shows as an image
(``_repr_svg_``) and :meth:`Svg.save` writes to a file. Every plotted point carries a
``<title>`` with its values (a tooltip in a browser), so a chart can be read exactly.

* :func:`percentile_plot`: latency against percentile (p50 … p99.9 on a "nines" axis), a line
  per sketch;
* :func:`knee_plot`: a load sweep (throughput against concurrency) with the USL model and the
  knees of a :func:`llmmetrics.knee_report`;
* :func:`line_chart`: the general form both use.
"""

from __future__ import annotations

import html
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

__all__ = ["Svg", "line_chart", "percentile_plot", "knee_plot", "PERCENTILES"]

#: the percentiles :func:`percentile_plot` draws by default
PERCENTILES: Tuple[float, ...] = (0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999)

_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d")
_MARGIN = (64, 112, 28, 44)  # left, right (the legend), top, bottom
_MARKERS_MAX = 40  # a line of more points is drawn without a marker per point

XY = Tuple[Sequence[float], Sequence[float]]


class Svg:
    """An SVG document: shown inline by Jupyter, written out by :meth:`save`."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_svg_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "<llmmetrics.plot.Svg %d bytes>" % len(self.text)

    def save(self, path: str) -> None:
        """Write the SVG document to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)


def _fmt(x: float) -> str:
    return format(x, ".4g")


def _tick(x: float) -> str:
    return format(x, ".6g")


class _Axis:
    """A data range mapped onto [p0, p1] pixels, linear or log10."""

    def __init__(self, values: Sequence[float], p0: float, p1: float, log: bool) -> None:
        vals = [v for v in values if math.isfinite(v) and (v > 0 or not log)]
        lo, hi = (min(vals), max(vals)) if vals else (1.0, 10.0)
        if log:
            lo, hi = math.log10(lo), math.log10(hi)
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        pad = (hi - lo) * 0.04
        self.lo, self.hi, self.p0, self.p1, self.log = lo - pad, hi + pad, p0, p1, log

    def pos(self, v: float) -> float:
        t = math.log10(v) if self.log else v
        return self.p0 + (t - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0)

    def ticks(self) -> List[Tuple[float, str]]:
        """Round values inside the range: decades on a log axis, 1-2-5 steps otherwise."""
        if self.log:
            steps = (1,) if self.hi - self.lo >= 2 else (1, 2, 5)
            return [(m * 10.0 ** e, _tick(m * 10.0 ** e))
                    for e in range(math.floor(self.lo), math.floor(self.hi) + 1) for m in steps
                    if self.lo <= math.log10(m * 10.0 ** e) <= self.hi]
        raw = (self.hi - self.lo) / 5
        mag = 10.0 ** math.floor(math.log10(raw))
        step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
        first = math.ceil(self.lo / step)
        return [(k * step, _tick(k * step)) for k in range(first, math.floor(self.hi / step) + 1)]


def _text(x: float, y: float, s: str, anchor: str = "middle", extra: str = "",
          colour: str = "#333") -> str:
    return ('<text x="%.1f" y="%.1f" font-size="11" fill="%s" text-anchor="%s"%s>%s</text>'
            % (x, y, colour, anchor, extra, html.escape(s)))


def line_chart(lines: Optional[Mapping[str, XY]] = None, *,
               points: Optional[Mapping[str, XY]] = None,
               vlines: Optional[Mapping[str, float]] = None,
               title: str = "", x_label: str = "", y_label: str = "",
               log_x: bool = False, log_y: bool = False,
               x_ticks: Optional[Sequence[Tuple[float, str]]] = None,
               width: int = 560, height: int = 320) -> Svg:
    """A chart of named lines (drawn with a marker per point), named point sets and labelled
    vertical lines.

    :param lines: name -> (xs, ys), joined in the given order
    :param points: name -> (xs, ys), markers only
    :param vlines: label -> x, a dashed vertical line each
    :param x_ticks: (x, label) pairs replacing the automatic ticks of the x axis
    :raises ValueError: xs and ys of different lengths, or nothing to draw
    """
    lines, points, vlines = dict(lines or {}), dict(points or {}), dict(vlines or {})
    series = [(n, xy, True) for n, xy in lines.items()] + [(n, xy, False)
                                                            for n, xy in points.items()]
    for name, (xs, ys), _ in series:
        if len(xs) != len(ys):
            raise ValueError("llmmetrics.plot: %r has %d x and %d y values"
                             % (name, len(xs), len(ys)))
    all_x = [float(x) for _, (xs, _), _ in series for x in xs] + list(vlines.values())
    all_y = [float(y) for _, (_, ys), _ in series for y in ys]
    if not all_y:
        raise ValueError("llmmetrics.plot: nothing to draw")
    left, right, top, bottom = _MARGIN
    ax = _Axis(all_x + [t for t, _ in x_ticks or ()], left, width - right, log_x)
    ay = _Axis(all_y, height - bottom, top, log_y)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img" aria-label="%s" font-family="sans-serif">'
           % (width, height, width, height, html.escape(title or "chart")),
           '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#bbb"/>'
           % (left, top, width - left - right, height - top - bottom)]
    out += _axes(ax, ay, x_ticks, width, height)
    out += [_text(width / 2, 16, title), _text(width / 2, height - 6, x_label),
            _text(14, height / 2, y_label, extra=' transform="rotate(-90 14 %.1f)"'
                  % (height / 2))]
    for i, (label, x) in enumerate(vlines.items()):
        px = ax.pos(x)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888" '
                   'stroke-dasharray="4 3"><title>%s: %s</title></line>'
                   % (px, top, px, height - bottom, html.escape(label), _fmt(x)))
        out.append(_text(px, top - 3, str(i + 1), colour="#666"))
        out.append(_text(width - right + 8, top + 10 + 14 * (len(series) + i),
                         "%d: %s" % (i + 1, label), anchor="start", colour="#666"))
    for i, (name, (xs, ys), joined) in enumerate(series):
        out += _series(name, xs, ys, joined, _COLOURS[i % len(_COLOURS)], ax, ay)
        out.append(_text(width - right + 8, top + 10 + 14 * i, name, anchor="start",
                         colour=_COLOURS[i % len(_COLOURS)]))
    out.append("</svg>")
    return Svg("".join(out))


def _axes(ax: _Axis, ay: _Axis, x_ticks: Optional[Sequence[Tuple[float, str]]],
          width: int, height: int) -> List[str]:
    left, right, top, bottom = _MARGIN
    out = []
    for x, label in x_ticks if x_ticks is not None else ax.ticks():
        px = ax.pos(x)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                   % (px, top, px, height - bottom))
        out.append(_text(px, height - bottom + 14, label))
    for y, label in ay.ticks():
        py = ay.pos(y)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>'
                   % (left, py, width - right, py))
        out.append(_text(left - 4, py + 4, label, anchor="end"))
    return out


def _series(name: str, xs: Sequence[float], ys: Sequence[float], joined: bool, colour: str,
            ax: _Axis, ay: _Axis) -> List[str]:
    pts = [(x, y) for x, y in ((float(a), float(b)) for a, b in zip(xs, ys))
           if math.isfinite(x) and math.isfinite(y) and (x > 0 or not ax.log)
           and (y > 0 or not ay.log)]
    out = []
    if joined and len(pts) > 1:
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                   % (colour, " ".join("%.1f,%.1f" % (ax.pos(x), ay.pos(y)) for x, y in pts)))
    for x, y in pts if not joined or len(pts) <= _MARKERS_MAX else ():
        out.append('<circle cx="%.1f" cy="%.1f" r="%s" fill="%s"><title>%s: %s, %s</title>'
                   '</circle>' % (ax.pos(x), ay.pos(y), "2.5" if joined else "3", colour,
                                  html.escape(name), _fmt(x), _fmt(y)))
    return out


def _nines(q: float) -> float:
    """Position of percentile q on a "nines" axis: p90 is 1, p99 2, p99.9 3."""
    return -math.log10(1.0 - q)


def percentile_plot(sketches: Mapping[str, Any], percentiles: Sequence[float] = PERCENTILES,
                    *, unit: str = "s", title: str = "Latency by percentile") -> Svg:
    """Latency against percentile, a line per sketch (``name -> Sketch``), on a log
    latency axis. Empty sketches are left out.

    :param percentiles: probabilities in [0.5, 1) (the axis is −log10(1 − q))
    :param unit: the sketches' unit, for the axis label
    :raises ValueError: a percentile outside [0.5, 1), or every sketch empty
    """
    if any(not 0.5 <= q < 1.0 for q in percentiles):
        raise ValueError("llmmetrics.plot: percentiles must be in [0.5, 1)")
    xs = [_nines(q) for q in percentiles]
    lines: Dict[str, XY] = {name: (xs, s.quantiles(percentiles))
                            for name, s in sketches.items() if s.count}
    ticks = [(_nines(q), "p%s" % format(q * 100, "g")) for q in percentiles]
    return line_chart(lines, title=title, x_label="percentile",
                      y_label="latency (%s)" % unit, log_y=True, x_ticks=ticks)


def knee_plot(conc: Optional[Sequence[float]] = None, qps: Optional[Sequence[float]] = None,
              report: Any = None, *, title: str = "Throughput by concurrency") -> Svg:
    """A load sweep: the measured (concurrency, throughput) points, the USL model of
    ``report`` (a :class:`llmmetrics.KneeReport`) and a vertical line per knee found.

    Either the sweep or the report may be left out (the report alone draws its model from
    concurrency 1 to twice its largest knee).

    :raises ValueError: neither given, or conc and qps of different lengths
    """
    points: Dict[str, XY] = {}
    lines: Dict[str, XY] = {}
    vlines: Dict[str, float] = {}
    top = 0.0
    if conc is not None and qps is not None:
        points["measured"] = ([float(c) for c in conc], [float(q) for q in qps])
        top = max(points["measured"][0], default=0.0)
    if report is not None:
        for name in ("inflection", "collapse", "kneedle"):
            k = getattr(report, name)
            if math.isfinite(k.knee):
                vlines["%s %.3g" % (name, k.knee)] = k.knee
        usl = report.usl
        if math.isfinite(usl.lam) and usl.lam > 0:
            hi = top or 2 * max(list(vlines.values()) + [usl.n_max if math.isfinite(usl.n_max)
                                                          else 1.0, 4.0])
            ns = [1 + (hi - 1) * i / 100 for i in range(101)]
            lines["USL model"] = (ns, [_usl(usl, n) for n in ns])
    if not points and not lines:
        raise ValueError("llmmetrics.plot: knee_plot needs a sweep or a report with a model")
    return line_chart(lines, points=points, vlines=vlines, title=title,
                      x_label="concurrency", y_label="throughput")


def _usl(usl: Any, n: float) -> float:
    """X(n) of the model, NaN where it is undefined (left out of the line)."""
    try:
        return float(usl.throughput(n))
    except ValueError:  # the library's OutOfRange
        return math.nan
