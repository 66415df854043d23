"""The effect of a holiday or event on last_year_season: what its nights did a year earlier
against their level (docs/forecast.md, "Holidays and events"). Pure polars.

An occasion is one occurrence of a name of the calendar (`pipelines.forecast.calendar`:
"Christmas 2026", the nights 24 and 25 December 2026 aligned by the event "Christmas"). Its
effect is pooled over its nights: the sum of last year's finals of the nights aligned with
them over the sum of their levels. One night's final carries that night's own luck (the
simulator's noise, about 10 % a night) as well as the occasion's; the sum over n nights
carries about 1 / sqrt(n) of it. A single-night holiday keeps its own night's effect.

A night sells no more than the hotel holds: an occasion that fills the hotel ends full on
each of its nights whatever its weekday, where a ratio on the weekday's level would spread it
by weekday (Easter's Friday above the rooms, its Thursday and Sunday short). So a **full
night** (the 0.9 quantile of the year's finals: `full_levels`) bounds the level, and the
effect is the m with sum min(full, m x level) = sum final over last year's nights: the demand
the occasion brought, not only the rooms it could sell (`_saturated`).
"""

from __future__ import annotations

import polars as pl

EVENT_CLIP = (0.25, 4.0)
"""Bounds of a holiday's or event's effect on last_year_season (a night's final over its
level a year earlier): a night of 0 or of many times its level is an accident, not a rule."""
OCCASION_COLUMNS = ("property_id", "ly_date", "occasion")


def full_levels(finals: pl.LazyFrame, key_months: pl.LazyFrame, share: float) -> pl.LazyFrame:
    """property_id, key_month, full: the rooms a full night ends at as of key_month, the
    `share` quantile (the lower one) of the finals of the 365 nights before key_month; none
    with fewer than 182 of them."""
    nights = (
        key_months.unique()
        .join(finals.select("property_id", "stay_date", final="final_rooms"), on="property_id",
              how="inner")
        .filter(pl.col("stay_date") < pl.col("key_month"),
                pl.col("stay_date") >= pl.col("key_month") - pl.duration(days=365))
    )
    return nights.group_by("property_id", "key_month").agg(
        n=pl.len(), full=pl.col("final").cast(pl.Float64).quantile(share, interpolation="lower")
    ).filter(pl.col("n") >= 182).drop("n")


def occasion_effects(occasions: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                     shape: pl.LazyFrame, finals: pl.LazyFrame,
                     pooled: bool, full_share: float | None) -> pl.LazyFrame:
    """property_id, key_month, occasion, ly_date, event_effect, full: for each key month K (the
    as-of date's month, whose shape reads the months before it) and each night ly_date of last
    year's occurrence of an occasion whose month is over before K and complete (a level),
    final / (its month's mean final x its weekday's factor as of K); pooled: the same for
    every night of the occasion, sum of finals / sum of those levels over its nights so known.
    With `full_share`, full is the full night as of K (`full_levels`) and the effect the m
    that sells those finals with no night above it (`_saturated`). Clipped to EVENT_CLIP.

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
    by = ["property_id", "key_month", "occasion"] if pooled else [
        "property_id", "key_month", "occasion", "ly_date"]
    if full_share is None:
        nights = nights.with_columns(full=pl.lit(None, dtype=pl.Float64),
                                     effect=pl.col("final").sum().over(by)
                                     / pl.col("level").sum().over(by))
    else:
        nights = _saturated(nights.join(full_levels(finals, key_months, full_share),
                                        on=["property_id", "key_month"], how="left"), by)
    return nights.select(
        "property_id", "key_month", "occasion", "ly_date", "full",
        # rounded: a float sum's last bits move with the order of its terms
        event_effect=pl.col("effect").clip(*EVENT_CLIP).round(9))


def _saturated(nights: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """nights (by, level, final, full) with effect: the m with sum min(full, m x level) =
    sum final over each group's nights (a full night sells no more however strong the
    occasion); every night full when the finals reach it (m = sum final / (n x least level));
    sum final / sum level without a full level."""
    level, full = pl.col("level"), pl.col("full")
    total, n = pl.col("final").sum().over(by), pl.len().over(by)
    ranked = nights.sort([*by, "level"], descending=[False] * len(by) + [True]).with_columns(
        j=pl.int_range(pl.len()).over(by),
        above=(level.cum_sum() - level).over(by),
        prev=level.shift(1).over(by),
        all_level=level.sum().over(by))
    # j nights capped (the j largest levels), the rest at m_j x level
    m_j = (total - pl.col("j") * full) / (pl.col("all_level") - pl.col("above"))
    valid = ((total - pl.col("j") * full > 0) & (m_j * level < full)
             & ((pl.col("j") == 0) | (m_j * pl.col("prev") >= full)))
    chosen = pl.when(valid).then(m_j)
    every_full = total / (n * level.min().over(by))
    return ranked.with_columns(
        effect=pl.when(full.is_null()).then(total / pl.col("all_level"))
        .otherwise(pl.coalesce(chosen.drop_nulls().first().over(by), every_full))
    ).drop("j", "above", "prev", "all_level")
