"""The effect of a holiday or event on last_year_season: what its nights did a year earlier
against their level (docs/forecast.md, "Holidays and events"). Pure polars.

An occasion is one occurrence of a name of the calendar (`pipelines.forecast.calendar`:
"Christmas 2026", the nights 24 and 25 December 2026 aligned by the event "Christmas"). Its
effect is pooled over its nights: the sum of last year's finals of the nights aligned with
them over the sum of their levels. One night's final carries that night's own luck (the
simulator's noise, about 10 % a night) as well as the occasion's; the sum over n nights
carries about 1 / sqrt(n) of it. A single-night holiday keeps its own night's effect.
"""

from __future__ import annotations

import polars as pl

EVENT_CLIP = (0.25, 4.0)
"""Bounds of a holiday's or event's effect on last_year_season (a night's final over its
level a year earlier): a night of 0 or of many times its level is an accident, not a rule."""
OCCASION_COLUMNS = ("property_id", "ly_date", "occasion")


def occasion_effects(occasions: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                     shape: pl.LazyFrame, finals: pl.LazyFrame,
                     pooled: bool) -> pl.LazyFrame:
    """property_id, key_month, occasion, ly_date, event_effect: for each key month K (the
    as-of date's month, whose shape reads the months before it) and each night ly_date of last
    year's occurrence of an occasion whose month is over before K and complete (a level),
    final / (its month's mean final x its weekday's factor as of K); pooled: the same for
    every night of the occasion, sum of finals / sum of those levels over its nights so known.
    Clipped to EVENT_CLIP.

    occasions: property_id, ly_date, occasion (the calendar's nights aligned by a name);
    key_months: property_id, key_month; levels, shape: `methods._season`; finals: property_id,
    stay_date, final_rooms."""
    nights = (
        key_months.unique()
        .join(occasions.unique(), on="property_id", how="inner")
        .with_columns(month=pl.col("ly_date").dt.truncate("1mo"),
                      weekday=pl.col("ly_date").dt.weekday())
        .filter(pl.col("month") < pl.col("key_month"))
        .join(finals.select("property_id", ly_date="stay_date", final="final_rooms"),
              on=["property_id", "ly_date"], how="inner")
        .join(levels.select("property_id", "month", "month_mean"), on=["property_id", "month"],
              how="inner")
        .join(shape.select("property_id", "key_month", "weekday", "weekday_factor"),
              on=["property_id", "key_month", "weekday"], how="left")
        .select("property_id", "key_month", "occasion", "ly_date",
                final=pl.col("final").cast(pl.Float64),
                level=pl.col("month_mean") * pl.col("weekday_factor").fill_null(1.0))
    )
    if pooled:
        by = ["property_id", "key_month", "occasion"]
        nights = nights.with_columns(final=pl.col("final").sum().over(by),
                                     level=pl.col("level").sum().over(by))
    return nights.select(
        "property_id", "key_month", "occasion", "ly_date",
        # rounded: a float sum's last bits move with the order of its terms
        event_effect=(pl.col("final") / pl.col("level")).clip(*EVENT_CLIP).round(9))
