"""Which nights of a forecast are kept in mart.forecast_history (docs/flash.md, "Manager's
flash"): the flash compares the day with the forecast made the day before and the month with
the forecast made before the month began, so of as-of date S it keeps

- the night S + 1 (tomorrow's forecast: the day's comparison once it is closed);
- every night from S to the end of the month after S's, when S is the last day of its month
  (the next month's forecast made before it) or when S is the first as-of date kept for the
  property (the month the history begins in has no forecast made before it: its nights fall
  back to this one, the earliest kept).

About 12 x 31 + 365 = 1,100 rows a property a year, where every as-of's 366 nights would be
134,000. Each kept night keeps the departments' forecast made with it (`with_departments`):
its rooms x the F&B and other revenue per room on the books at the night's end (the rooms'
basis) of the recent closed days, as
forecast-months makes them."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

import polars as pl

HISTORY_COLUMNS = ("property_id", "as_of_date", "stay_date", "rooms_forecast",
                   "room_revenue_forecast_net", "method")
DEPARTMENT_COLUMNS = ("food_beverage_revenue_forecast_net", "other_revenue_forecast_net")
CENT = Decimal("0.01")


def month_after_end(day: date) -> date:
    """The last day of the month after `day`'s."""
    first_after = (day.replace(day=1) + timedelta(days=32)).replace(day=1)
    return (first_after + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def kept_nights(forecast: pl.DataFrame, first_kept: bool) -> pl.DataFrame:
    """The rows of `forecast` (mart.forecast_daily of one property and one as-of date) the
    history keeps, HISTORY_COLUMNS. `first_kept`: no earlier as-of date of the property is
    kept."""
    if not forecast.height:
        return forecast.select(HISTORY_COLUMNS)
    as_of = forecast["as_of_date"].unique().to_list()
    if len(as_of) != 1:
        raise ValueError(f"forecast history: {len(as_of)} as-of dates in one forecast")
    s: date = as_of[0]
    month_end = (s + timedelta(days=1)).day == 1
    last = month_after_end(s) if month_end or first_kept else s + timedelta(days=1)
    first = s if month_end or first_kept else s + timedelta(days=1)
    return forecast.filter(pl.col("stay_date").is_between(first, last)).select(
        HISTORY_COLUMNS).sort("stay_date")


def with_departments(kept: pl.DataFrame, per_room: tuple[Decimal, Decimal] | None
                     ) -> pl.DataFrame:
    """`kept` (`kept_nights`) with DEPARTMENT_COLUMNS: each night's rooms_forecast (to the
    cent, as the history keeps it) x the F&B and the other revenue per room of `per_room`
    (`revenue_per_room_final`), half-up to the cent; none (NULL) without `per_room` (no
    room to take them from)."""
    rooms = [Decimal(str(v)).quantize(CENT, ROUND_HALF_UP) for v in kept["rooms_forecast"]]
    columns = [pl.Series(name, [None if per_room is None else (r * rate).quantize(
        CENT, ROUND_HALF_UP) for r in rooms], dtype=pl.Decimal(18, 2))
        for name, rate in zip(DEPARTMENT_COLUMNS, per_room or (Decimal(0),) * 2, strict=True)]
    return kept.with_columns(columns)
