"""The morning page's figures (issue 50, page 1): the nights from..to side by side, each
column taken from the report that defines it, never computed here:

- on the books, same time last year (STLY), last year's actual, revenue on the books: pace;
- pickup over 1, 7 and 30 days (rooms net): pickup with --window 1, 7, 30;
- forecast with its band and its ADR: forecast;
- ADR on the books: occupancy (nights after the business date are on the books);
- the alerts of those nights: alerts; the months with their budget: forecast-months.

Pace, pickup and alerts stand on the last closed business date (the reports' one as-of
rule); the forecast and the occupancy on the last sync. The page says so."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pipelines.reports import Table

from .reads import Reader

PICKUP_WINDOWS = (1, 7, 30)
COLUMNS: tuple[tuple[str, str, str], ...] = (
    # (column on the page, report, its column there)
    ("rooms_otb", "pace", "rooms_otb"),
    *((f"rooms_net_{w}d", f"pickup {w}", "rooms_net") for w in PICKUP_WINDOWS),
    ("stly_rooms_otb", "pace", "stly_rooms_otb"),
    ("ly_actual_rooms_sold", "pace", "ly_actual_rooms_sold"),
    ("rooms_forecast", "forecast", "rooms_forecast"),
    ("rooms_low", "forecast", "rooms_low"),
    ("rooms_high", "forecast", "rooms_high"),
    ("revenue_otb_net", "pace", "revenue_otb_net"),
    ("stly_revenue_otb_net", "pace", "stly_revenue_otb_net"),
    ("ly_actual_room_revenue_net", "pace", "ly_actual_room_revenue_net"),
    ("adr_otb_net", "occupancy", "adr_net"),
    ("adr_forecast_net", "forecast", "adr_forecast_net"),
)
"""Each column of the nights' table and where it comes from (docs/app.md lists them)."""


@dataclass(frozen=True)
class Morning:
    first: date
    last: date
    columns: tuple[str, ...]
    nights: list[tuple[Any, ...]]
    """stay_date, weekday, then COLUMNS' values (None where the report has no row)."""
    total: tuple[Any, ...]
    looks: dict[date, list[str]]
    """The nights that need a look: the messages of the alerts (stretches) they are in."""
    reports: dict[str, Table]
    as_of: str


def _by_night(table: Table, column: str) -> dict[Any, Any]:
    at = list(table.columns).index(column)
    return {row[0]: row[at] for row in table.rows}


def _total(table: Table, column: str) -> Any:
    if table.total is None:
        return None
    value = table.total[list(table.columns).index(column)]
    return None if value == "" else value


def morning(reader: Reader, first: date, last: date) -> Morning:
    """The reports the page shows, run as `pmsw report` runs them, and the nights' table."""
    reports = {"pace": reader.report("pace", first, last),
               "forecast": reader.report("forecast", first, last),
               "occupancy": reader.report("occupancy", first, last),
               "alerts": reader.report("alerts", first, last),
               "forecast-months": reader.report("forecast-months", None, None)}
    for window in PICKUP_WINDOWS:
        reports[f"pickup {window}"] = reader.report("pickup", first, last, window=window)
    found = {page: _by_night(reports[name], column) for page, name, column in COLUMNS}
    nights = []
    for day in sorted({row[0] for row in reports["pace"].rows}
                      | {row[0] for row in reports["forecast"].rows}
                      | {row[0] for row in reports["pickup 7"].rows}):
        nights.append((day, f"{day:%a}", *(found[page].get(day) for page, _, _ in COLUMNS)))
    total = ("total", "", *(_total(reports[name], column) for _, name, column in COLUMNS))
    looks: dict[date, list[str]] = {}
    alert_columns = list(reports["alerts"].columns)
    at, until = alert_columns.index("message"), alert_columns.index("last_night")
    for row in reports["alerts"].rows:  # an alert is a stretch: each of its nights needs a look
        for k in range((row[until] - row[0]).days + 1):
            looks.setdefault(row[0] + timedelta(days=k), []).append(str(row[at]))
    as_of = (f"{reader.as_of()}; pace, pickup and alerts as of "
             f"{reports['pace'].as_of}; forecast and ADR on the books as of the last sync")
    return Morning(first, last, ("stay_date", "weekday", *(c for c, _, _ in COLUMNS)),
                   nights, total, looks, reports, as_of)
