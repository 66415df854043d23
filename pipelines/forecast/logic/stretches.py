"""An alert as a revenue manager reads it: a stretch of nights, not a night (docs/alerts.md).

mart.alerts holds one row per night and kind. Consecutive nights of one property, as-of date
and kind form one alert (each kind has one direction: behind last year, picking up faster
than usual, heading over capacity): "pace below last year 3-9 Dec 2026, 7 nights, ...".
`stretch` numbers them; `alert_stretches` makes one row per alert, its reason in words.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import polars as pl

from pipelines.vocabulary import Frame, counted, lazy

NIGHTS = ("property_id", "as_of_date", "stay_date", "alert", "value", "threshold", "message",
          "rooms_otb", "stly_rooms_otb")
STRETCH_COLUMNS = ("property_id", "as_of_date", "first_night", "last_night", "alert_nights",
                   "alert", "value", "threshold", "message", "rooms_otb", "stly_rooms_otb")
WORDS = {"pace_below_stly": ("pace below last year", "the furthest behind"),
         "pickup_spike": ("pickup spike", "the strongest"),
         "over_capacity": ("heading over capacity", "the furthest over")}


def stretch(*keys: str) -> pl.Expr:
    """The number of each row's stretch among the rows of the same `keys`, the rows sorted by
    stay_date: a night one day after the row before continues its stretch."""
    gap = pl.col("stay_date").diff().dt.total_days().fill_null(0) != 1
    return gap.cast(pl.Int64).cum_sum().over(*keys, order_by="stay_date")


def span(first: date, last: date) -> str:
    """3-9 Dec 2026, 28 Nov - 2 Dec 2026, 30 Dec 2026 - 2 Jan 2027, or 5 Dec 2026."""
    if first == last:
        return f"{first.day} {last:%b %Y}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}-{last.day} {last:%b %Y}"
    if first.year == last.year:
        return f"{first.day} {first:%b} - {last.day} {last:%b %Y}"
    return f"{first.day} {first:%b %Y} - {last.day} {last:%b %Y}"


def _past(alert: str, value: float, threshold: float) -> float:
    """How far a night is past its threshold, the larger the further."""
    return threshold - value if alert == "pace_below_stly" else value - threshold


def _row(nights: list[dict[str, Any]]) -> dict[str, Any]:
    first, last = nights[0], nights[-1]
    kind = first["alert"]
    words, worst_words = WORDS.get(kind, (kind, "the first"))
    worst = max(nights, key=lambda n: _past(kind, n["value"], n["threshold"]))
    value, threshold = worst["value"], worst["threshold"]
    otb = [n["rooms_otb"] for n in nights]
    stly = [n["stly_rooms_otb"] for n in nights]
    count = len(nights)
    said = f"{words} {span(first['stay_date'], last['stay_date'])}, {counted(count, 'night')}"
    books = sum(otb) if None not in otb else None
    before = sum(stly) if None not in stly else None
    if kind == "pace_below_stly" and books is not None and before:
        value = round(books / before - 1, 4)
    if kind == "pace_below_stly" and books is not None and before and count > 1:
        said += (f": {counted(books, 'room')} on the books against {before} at the same time "
                 f"last year, {counted(before - books, 'room')} ({round(-value * 100, 1)}%) "
                 "behind")
    if count > 1:
        said += f"; {worst_words} {span(worst['stay_date'], worst['stay_date'])}"
    said += f": {worst['message']}"
    return {"property_id": first["property_id"], "as_of_date": first["as_of_date"],
            "first_night": first["stay_date"], "last_night": last["stay_date"],
            "alert_nights": count, "alert": kind, "value": value, "threshold": threshold,
            "message": said, "rooms_otb": books, "stly_rooms_otb": before}


def alert_stretches(nights: Frame) -> pl.DataFrame:
    """One row per alert (STRETCH_COLUMNS) of mart.alerts' nights beside mart.pace's books and
    STLY at the alert's days before (`rooms_otb`, `stly_rooms_otb`; null where mart.pace has
    no row). `value`: pace_below_stly the stretch's books against its STLY (the sums; the
    furthest-behind night's share when one night has no pace row), the other kinds the value
    of the night furthest past its threshold; `threshold` that night's; `message` the
    stretch in words, then that night's own message."""
    rows = (lazy(nights, "alerts", NIGHTS).select(NIGHTS)
            .with_columns(n=stretch("property_id", "as_of_date", "alert"))
            .sort("property_id", "as_of_date", "alert", "stay_date").collect())
    made = [_row(group.to_dicts()) for _, group in
            rows.group_by("property_id", "as_of_date", "alert", "n", maintain_order=True)]
    schema: dict[str, pl.DataType] = {
        **{c: rows.schema[c] for c in ("property_id", "as_of_date", "alert", "message")},
        "first_night": pl.Date(), "last_night": pl.Date(), "alert_nights": pl.Int64(),
        "value": pl.Float64(), "threshold": pl.Float64(), "rooms_otb": pl.Int64(),
        "stly_rooms_otb": pl.Int64()}
    return (pl.DataFrame(made, schema={c: schema[c] for c in STRETCH_COLUMNS})
            .sort("property_id", "first_night", "alert"))
