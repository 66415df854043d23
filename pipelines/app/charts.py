"""The morning page's charts, drawn by plotly in the browser from the figures of the table
beside them (plotly.js is served by the app: /static/plotly.min.js, from plotly's wheel)."""

from __future__ import annotations

from functools import cache
from typing import Any

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from pipelines.reports import Table

from .morning import PICKUP_WINDOWS, Morning

_LAYOUT: dict[str, Any] = {"height": 340, "margin": {"l": 50, "r": 20, "t": 40, "b": 40},
                           "legend": {"orientation": "h", "y": -0.15},
                           "template": "plotly_white"}


@cache
def plotly_js() -> str:
    """plotly.js as its wheel ships it (about 4.8 MB, sent once and cached by the browser)."""
    js: str = get_plotlyjs()
    return js


def _series(view: Morning, column: str) -> list[float | None]:
    at = view.columns.index(column)
    return [None if row[at] is None else float(row[at]) for row in view.nights]


def _html(figure: go.Figure, title: str) -> str:
    figure.update_layout(title={"text": title, "font": {"size": 14}}, **_LAYOUT)
    html: str = figure.to_html(full_html=False, include_plotlyjs=False,
                               config={"displaylogo": False, "responsive": True})
    return html


def pace_chart(view: Morning) -> str:
    """Rooms on the books by night against STLY, last year's actual and the forecast band."""
    days = [row[0].isoformat() for row in view.nights]
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=days, y=_series(view, "rooms_high"), mode="lines",
                                line={"width": 0}, showlegend=False, hoverinfo="skip"))
    figure.add_trace(go.Scatter(x=days, y=_series(view, "rooms_low"), mode="lines",
                                line={"width": 0}, fill="tonexty", name="forecast band",
                                fillcolor="rgba(99,110,250,0.15)"))
    figure.add_trace(go.Scatter(x=days, y=_series(view, "rooms_forecast"), name="forecast",
                                line={"dash": "dash"}))
    figure.add_trace(go.Bar(x=days, y=_series(view, "rooms_otb"), name="on the books",
                            opacity=0.7))
    figure.add_trace(go.Scatter(x=days, y=_series(view, "stly_rooms_otb"), mode="markers",
                                name="same time last year"))
    figure.add_trace(go.Scatter(x=days, y=_series(view, "ly_actual_rooms_sold"),
                                mode="lines", name="last year's actual",
                                line={"shape": "hv", "width": 1}))
    return _html(figure, "Pace: rooms on the books, last year and the forecast")


def pickup_chart(view: Morning) -> str:
    """Rooms picked up (net) per night over 1, 7 and 30 days."""
    days = [row[0].isoformat() for row in view.nights]
    figure = go.Figure([go.Bar(x=days, y=_series(view, f"pickup_{w}d"), name=f"{w} day"
                               + ("s" if w > 1 else "")) for w in PICKUP_WINDOWS])
    figure.update_layout(barmode="group")
    return _html(figure, "Pickup: rooms net per night")


MONTHS_BAND = ("rooms_expected_low", "rooms_expected_high")
"""The month's own band of its expected rooms (forecast-months; docs/forecast.md, "The month's
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
    figure = go.Figure([
        go.Bar(x=labels, y=_column(months, "rooms_actual"), name="closed nights (actual)"),
        go.Bar(x=labels, y=_column(months, "rooms_otb"), name="on the books", opacity=0.7),
        go.Scatter(x=labels, y=expected, mode="markers+lines", name="expected"
                   + (" (with its band)" if band else ""), line={"dash": "dash"}, **band),
        go.Scatter(x=labels, y=_column(months, "budget_rooms_sold"), mode="markers",
                   name="budget", marker={"symbol": "diamond", "size": 9}),
        go.Scatter(x=labels, y=_column(months, "last_year_rooms_sold"), mode="markers",
                   name="same month last year", marker={"symbol": "x", "size": 9}),
    ])
    figure.update_layout(barmode="stack")
    return _html(figure, "Months: rooms sold, on the books, expected, budget and last year")


def curve_chart(curve: Table) -> str:
    """Rooms on the books of one night by days before it, beside the same time last year."""
    if not curve.rows:
        return ""
    at = {name: i for i, name in enumerate(curve.columns)}
    days = [row[at["days_before"]] for row in curve.rows]

    def series(column: str) -> list[float | None]:
        return [None if row[at[column]] is None else float(row[at[column]])
                for row in curve.rows]

    figure = go.Figure([go.Scatter(x=days, y=series("rooms_otb"), name="on the books"),
                        go.Scatter(x=days, y=series("stly_rooms_otb"), name="same time last year",
                                   line={"dash": "dot"})])
    figure.update_xaxes(autorange="reversed", title="days before the night")
    return _html(figure, "Booking curve: rooms on the books")
