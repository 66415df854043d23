"""Which nights of a forecast are kept in mart.forecast_history (docs/flash.md, "Manager's
flash"): the flash compares the day with the forecast made the day before and the month with
the forecast made before the month began, so of as-of date S it keeps

- the night S + 1 (tomorrow's forecast: the day's comparison once it is closed);
- every night from S to the end of the month after S's, when S is the last day of its month
  (the next month's forecast made before it) or when S is the first as-of date kept for the
  property (the month the history begins in has no forecast made before it: its nights fall
  back to this one, the earliest kept).

About 12 x 31 + 365 = 1,100 rows a property a year, where every as-of's 366 nights would be
134,000."""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl

HISTORY_COLUMNS = ("property_id", "as_of_date", "stay_date", "rooms_forecast",
                   "room_revenue_forecast_net", "method")


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
