"""Percentile tables of sketches for notebooks: :meth:`Sketch.describe` and
:func:`llmmetrics.describe`.

A table has a row per sketch and the columns ``count``, ``mean``, ``min``, one per percentile
(``p50``, ``p99.9``, …: nearest rank, within the sketch's relative error) and ``max``. It is a
``pandas.DataFrame`` when pandas can be imported and a dict otherwise (or when asked for one);
pandas is never required. An empty sketch has count 0 and NaN elsewhere.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional, Sequence

__all__ = ["describe", "DESCRIBE_PERCENTILES", "percentile_name", "row"]

#: the percentiles of a table unless others are asked for
DESCRIBE_PERCENTILES = (0.5, 0.9, 0.95, 0.99, 0.999)


def percentile_name(q: float) -> str:
    """Column name of probability ``q``: ``0.999`` -> ``"p99.9"``."""
    return "p%s" % format(q * 100, ".10g")


def row(sketch: Any, percentiles: Sequence[float]) -> Dict[str, float]:
    """One sketch's row: count, mean, min, the percentiles, max."""
    n = sketch.count
    out: Dict[str, float] = {"count": n}
    names = [percentile_name(q) for q in percentiles]
    if n == 0:
        out.update(dict.fromkeys(["mean", "min"] + names + ["max"], math.nan))
        return out
    out["mean"] = sketch.mean
    out["min"] = sketch.min
    out.update(zip(names, sketch.quantiles(percentiles)))
    out["max"] = sketch.max
    return out


def _pandas(as_frame: Optional[bool]) -> Any:
    """The pandas module if a frame is wanted and it imports, else None."""
    if as_frame is False:
        return None
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return None
    return pandas


def describe(sketches: Mapping[str, Any], percentiles: Sequence[float] = DESCRIBE_PERCENTILES,
             *, as_frame: Optional[bool] = None) -> Any:
    """The percentile table of named sketches, a row each (in the mapping's order).

    :param sketches: name -> :class:`Sketch` (a recorder's or window's snapshot is one)
    :param percentiles: probabilities in [0, 1]
    :param as_frame: None: a ``pandas.DataFrame`` if pandas imports, else a dict; False: a
                     dict; True: a DataFrame (ImportError without pandas)
    :return: ``{name: {column: value}}``, or a DataFrame indexed by name with those columns
    :raises InvalidArgument: a percentile outside [0, 1]
    """
    table = {name: row(s, percentiles) for name, s in sketches.items()}
    pd = _pandas(as_frame)
    if pd is None:
        return table
    columns = ["count", "mean", "min"] + [percentile_name(q) for q in percentiles] + ["max"]
    frame = pd.DataFrame.from_dict(table, orient="index", columns=columns)
    return frame.astype({"count": "int64"})
