"""The morning page's charts, drawn by plotly in the browser from the figures of the table
beside them (plotly.js is served by the app: /static/plotly.min.js, from plotly's wheel).

Each chart is the JSON plotly.js draws (`Plotly.newPlot(id, data, layout, config)`: traces
and layout as plotly.js documents them, the look of plotly's `plotly_white` template read from
its wheel), written here rather than through plotly's Python figures, whose first figure cost
the app's first page about 0.9 s CPU of validators (issue 50, the cold start; docs/app.md)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any
from uuid import uuid4

from pipelines.reports import Table
from pipelines.vocabulary import counted

from .morning import PICKUP_WINDOWS, Morning

_LAYOUT: dict[str, Any] = {"height": 340, "margin": {"l": 50, "r": 20, "t": 40, "b": 40},
                           "legend": {"orientation": "h", "y": -0.15}}
_CONFIG = {"displaylogo": False, "responsive": True}
_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
"""JSON inside a <script>: no character of it can close the element."""


@cache
def plotly_js() -> str:
    """plotly.js as its wheel ships it (about 4.8 MB, sent once and cached by the browser)."""
    from plotly.offline import get_plotlyjs  # on the first page that asks for it

    js: str = get_plotlyjs()
    return js


@cache
def _template() -> Any:
    """plotly's `plotly_white` template (a layout.template of plotly.js), as its wheel has it."""
    return json.loads((files("plotly") / "package_data" / "templates" / "plotly_white.json")
                      .read_text(encoding="utf-8"))


def _trace(kind: str, x: list[Any], y: list[float | None], **attributes: Any) -> dict[str, Any]:
    return {"type": kind, "x": x, "y": y, **attributes}


def _series(view: Morning, column: str) -> list[float | None]:
    at = view.columns.index(column)
    return [None if row[at] is None else float(row[at]) for row in view.nights]


def _html(data: list[dict[str, Any]], title: str, **layout: Any) -> str:
    """The chart's element and the script that draws it, as plotly's `to_html` writes them."""
    chart = f"chart-{uuid4()}"
    layout = {"title": {"text": title, "font": {"size": 14}}, **_LAYOUT, **layout,
              "template": _template()}
    args = ", ".join(json.dumps(part, separators=(",", ":")).translate(_SAFE)
                     for part in (chart, data, layout, _CONFIG))
    return (f'<div style="height:{_LAYOUT["height"]}px; width:100%;"><div id="{chart}" '
            'class="plotly-graph-div" style="height:100%; width:100%;"></div>'
            f"<script>Plotly.newPlot({args});</script></div>")


def pace_chart(view: Morning) -> str:
    """Rooms on the books by night against STLY, last year's actual and the forecast band."""
    days = [row[0].isoformat() for row in view.nights]
    return _html([
        _trace("scatter", days, _series(view, "rooms_high"), mode="lines", line={"width": 0},
               showlegend=False, hoverinfo="skip"),
        _trace("scatter", days, _series(view, "rooms_low"), mode="lines", line={"width": 0},
               fill="tonexty", name="forecast band", fillcolor="rgba(99,110,250,0.15)"),
        _trace("scatter", days, _series(view, "rooms_forecast"), name="forecast",
               line={"dash": "dash"}),
        _trace("bar", days, _series(view, "rooms_otb"), name="on the books", opacity=0.7),
        _trace("scatter", days, _series(view, "stly_rooms_otb"), mode="markers",
               name="same time last year"),
        _trace("scatter", days, _series(view, "ly_actual_rooms_sold"), mode="lines",
               name="last year's actual", line={"shape": "hv", "width": 1}),
    ], "Pace: rooms on the books, last year and the forecast")


def pickup_chart(view: Morning) -> str:
    """Rooms picked up (net) per night over 1, 7 and 30 days."""
    days = [row[0].isoformat() for row in view.nights]
    return _html([_trace("bar", days, _series(view, f"rooms_net_{w}d"),
                         name=counted(w, "day")) for w in PICKUP_WINDOWS],
                 "Pickup: rooms net per night", barmode="group")


MONTHS_BAND = ("rooms_expected_low", "rooms_expected_high")
"""The month's own band of its expected rooms (forecast-months; docs/flash.md, "The month's
band"), drawn where a month has one."""


def _column(table: Table, column: str) -> list[float | None]:
    at = list(table.columns).index(column)
    return [None if row[at] is None else float(row[at]) for row in table.rows]


def months_chart(months: Table) -> str:
    """Each month of `pmsw report forecast-months`: rooms of the closed nights and on the books
    (stacked), the month's expected rooms (with its band when the report gives one), its
    budget and the same month last year."""
    if not months.rows:
        return ""
    labels = [str(row[0]) for row in months.rows]
    expected = _column(months, "rooms_expected")
    band: dict[str, Any] = {}
    low, high = (_column(months, name) if name in months.columns else [None] * len(expected)
                 for name in MONTHS_BAND)
    if any(v is not None for v in (*low, *high)):
        band = {"error_y": {"type": "data", "symmetric": False,
                            "array": [None if h is None or e is None else h - e
                                      for h, e in zip(high, expected, strict=True)],
                            "arrayminus": [None if lo is None or e is None else e - lo
                                           for lo, e in zip(low, expected, strict=True)]}}
    return _html([
        _trace("bar", labels, _column(months, "rooms_actual"), name="closed nights (actual)"),
        _trace("bar", labels, _column(months, "rooms_otb"), name="on the books", opacity=0.7),
        _trace("scatter", labels, expected, mode="markers+lines",
               name="expected" + (" (with its band)" if band else ""), line={"dash": "dash"},
               **band),
        _trace("scatter", labels, _column(months, "budget_rooms_sold"), mode="markers",
               name="budget", marker={"symbol": "diamond", "size": 9}),
        _trace("scatter", labels, _column(months, "last_year_rooms_sold"), mode="markers",
               name="same month last year", marker={"symbol": "x", "size": 9}),
    ], "Months: rooms sold, on the books, expected, budget and last year", barmode="stack")


def curve_chart(curve: Table) -> str:
    """Rooms on the books of one night by days before it, beside the same time last year."""
    if not curve.rows:
        return ""
    at = {name: i for i, name in enumerate(curve.columns)}
    days = [row[at["days_before"]] for row in curve.rows]

    def series(column: str) -> list[float | None]:
        return [None if row[at[column]] is None else float(row[at[column]])
                for row in curve.rows]

    return _html([_trace("scatter", days, series("rooms_otb"), name="on the books"),
                  _trace("scatter", days, series("stly_rooms_otb"), name="same time last year",
                         line={"dash": "dot"})],
                 "Booking curve: rooms on the books",
                 xaxis={"autorange": "reversed", "title": {"text": "days before the night"}})
