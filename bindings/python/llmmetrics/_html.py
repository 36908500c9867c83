"""HTML for notebooks (``_repr_html_``): a sketch's summary table and small inline-SVG
histogram, and a table of the fields of any result record (a NamedTuple).

The histogram has one bar per group of adjacent buckets (at most :data:`MAX_BARS` bars). The
buckets are equally wide on a log axis, so bar heights compare counts per log-width directly.
No JavaScript, no external resources: the output renders in any notebook front end.
"""

from __future__ import annotations

import enum
import html
from typing import Any, Dict, List, Sequence, Tuple

__all__ = ["sketch_html", "histogram_svg", "record_html", "cell", "MAX_BARS"]

#: the most bars a histogram shows; adjacent buckets are grouped to stay below it
MAX_BARS = 64
_W, _H, _PAD = 320, 90, 14


def _fmt(x: float) -> str:
    return format(x, ".4g")


def cell(v: Any) -> str:
    """One value as table-cell text: floats to 4 significant digits, enums by name."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, enum.Enum):
        return html.escape(v.name.lower())
    if isinstance(v, float):
        return html.escape(_fmt(v))
    return html.escape(str(v))


def _is_record(v: Any) -> bool:
    return isinstance(v, tuple) and hasattr(v, "_fields")


def _rows(label: str, rows: Sequence[Tuple[str, Any]]) -> str:
    """A table with a row per record (all of one type): its label, then its fields."""
    fields = rows[0][1]._fields
    head = "".join("<th>%s</th>" % html.escape(f) for f in fields)
    body = "".join("<tr><th style='text-align:left'>%s</th>%s</tr>"
                   % (html.escape(name), "".join("<td>%s</td>" % cell(x) for x in rec))
                   for name, rec in rows)
    return ("<table style='font-size:smaller'><tr><th>%s</th>%s</tr>%s</table>"
            % (html.escape(label), head, body))


def record_html(rec: Any, extra: str = "") -> str:
    """A result record (NamedTuple) as HTML: its plain fields as a two-column table, fields
    that are records as a table with a row each, tuples of records as a table of their own;
    ``extra`` (HTML) follows."""
    plain: List[Tuple[str, Any]] = []
    nested: List[Tuple[str, Any]] = []
    parts = []
    for name in rec._fields:
        v = getattr(rec, name)
        if _is_record(v):
            nested.append((name, v))
        elif isinstance(v, tuple) and v and all(_is_record(x) for x in v):
            parts.append(_rows(name, [(str(i), x) for i, x in enumerate(v)]))
        else:
            plain.append((name, v))
    if plain:
        parts.insert(0, "<table style='font-size:smaller'>%s</table>" % "".join(
            "<tr><th style='text-align:left'>%s</th><td>%s</td></tr>" % (html.escape(k), cell(v))
            for k, v in plain))
    for kind in dict.fromkeys(type(v) for _, v in nested):
        parts.append(_rows("", [(k, v) for k, v in nested if type(v) is kind]))
    return ("<div class='llmmetrics-record'><b>llmmetrics.%s</b>%s%s</div>"
            % (html.escape(type(rec).__name__), "".join(parts), extra))


def _bars(buckets: Sequence[Tuple[int, float, float, int]]) -> Tuple[int, List[List[float]]]:
    """Group runs of ``k`` adjacent bucket indexes into bars.

    :return: the number of bar slots, and ``[slot, lower, upper, count]`` per non-empty bar
    """
    first, last = buckets[0][0], buckets[-1][0]
    k = max(1, -(-(last - first + 1) // MAX_BARS))
    bars: Dict[int, List[float]] = {}
    for index, lower, upper, count in buckets:
        slot = (index - first) // k
        bar = bars.setdefault(slot, [slot, lower, upper, 0])
        bar[1] = min(bar[1], lower)
        bar[2] = max(bar[2], upper)
        bar[3] += count
    return (last - first) // k + 1, [bars[s] for s in sorted(bars)]


def histogram_svg(buckets: Sequence[Tuple[int, float, float, int]]) -> str:
    """An inline ``<svg>`` histogram of ``(index, lower, upper, count)`` buckets, sorted by
    index ("" when there are none)."""
    if not buckets:
        return ""
    nslots, bars = _bars(buckets)
    top = max(b[3] for b in bars) or 1
    bw = (_W - 2 * _PAD) / nslots
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'viewBox="0 0 %d %d" role="img" aria-label="histogram">'
             % (_W, _H + 16, _W, _H + 16),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888" stroke-width="1"/>'
             % (_PAD, _H, _W - _PAD, _H)]
    for slot, lower, upper, count in bars:
        h = (_H - 6) * count / top
        parts.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#4c78a8">'
                     '<title>(%s, %s]: %d</title></rect>'
                     % (_PAD + slot * bw, _H - h, max(bw - 0.5, 0.5), h,
                        html.escape(_fmt(lower)), html.escape(_fmt(upper)), count))
    parts.append('<text x="%d" y="%d" font-size="10" fill="#444">%s</text>'
                 % (_PAD, _H + 12, html.escape(_fmt(buckets[0][1]))))
    parts.append('<text x="%d" y="%d" font-size="10" fill="#444" text-anchor="end">%s</text>'
                 % (_W - _PAD, _H + 12, html.escape(_fmt(buckets[-1][2]))))
    parts.append("</svg>")
    return "".join(parts)


def sketch_html(scale: int, summary: Dict[str, float],
                buckets: Sequence[Tuple[int, float, float, int]],
                special: Tuple[int, int, int], title: str = "llmmetrics.Sketch") -> str:
    """The HTML block shown for a Sketch (or what a window holds) in a notebook."""
    rows = "".join("<tr><th style='text-align:left'>%s</th><td>%s</td></tr>"
                   % (html.escape(k), html.escape(str(v) if k == "count" else _fmt(v)))
                   for k, v in summary.items())
    zero, under, over = special
    extra = ""
    if zero or under or over:
        extra = ("<div style='font-size:smaller'>zeros %d, below range %d, above range %d</div>"
                 % (zero, under, over))
    return ("<div class='llmmetrics-sketch'><b>%s</b> (scale %d)"
            "<div style='display:flex;gap:1em;align-items:flex-start'>"
            "<table style='font-size:smaller'>%s</table>%s</div>%s</div>"
            % (html.escape(title), scale, rows, histogram_svg(buckets), extra))
