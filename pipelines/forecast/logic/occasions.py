"""The effect of a holiday or event on last_year_season: what its nights did in the years
before against their level (docs/forecast.md, "Holidays and events"). Pure polars.

An occasion is one occurrence of a name of the calendar (`pipelines.forecast.calendar`:
"Christmas 2026", the nights 24 and 25 December 2026 aligned by the event "Christmas"). Its
effect is pooled over the nights of **every past occurrence** the history holds (Christmas
2025's, Christmas 2024's, ...: `past_occurrences`): the sum of their finals over the sum of
their levels, each night's level as of its own year (its month's mean and the weekday's
factor as of the key month so many years back). One night's final carries that night's own
luck (the simulator's noise, about 10 % a night) as well as the occasion's; the sum over n
nights carries about 1 / sqrt(n) of it, and one occurrence's luck shrinks so with the years
pooled. A single-night holiday with one past year keeps its own night's effect.

A night sells no more than the hotel holds: an occasion that fills the hotel ends full on
each of its nights whatever its weekday, where a ratio on the weekday's level would spread it
by weekday (Easter's Friday above the rooms, its Thursday and Sunday short). So a **full
night** (the 0.9 quantile of the year's finals: `full_levels`, as of each occurrence's own
year) bounds the level, and the effect is the m with sum min(full, m x level) = sum final over
the past nights: the demand the occasion brought, not only the rooms it could sell
(`_saturated`).
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


def past_occurrences(occasions: pl.LazyFrame) -> pl.LazyFrame:
    """property_id, occasion, ly_date, years_back: the nights of every earlier occurrence of
    each occasion of `occasions` (property_id, ly_date, occasion: the calendar's nights aligned
    by a name, "Easter 2026" with Easter 2025's nights), years_back 1 for its own ly_date (last
    year's occurrence), 2 for those of the same name's occasion a year before ("Easter 2025":
    Easter 2024's nights), and so on back."""
    o = occasions.unique().with_columns(
        name=pl.col("occasion").str.replace(r" \d+$", ""),
        year=pl.col("occasion").str.extract(r" (\d+)$").cast(pl.Int32))
    return (
        o.select("property_id", "occasion", "name", "year")
        .unique()
        .join(o.select("property_id", "name", "ly_date", past="year"),
              on=["property_id", "name"], how="inner")
        .filter(pl.col("past") <= pl.col("year"))
        .select("property_id", "occasion", "ly_date",
                years_back=(pl.col("year") - pl.col("past") + 1).cast(pl.Int32))
    )


def occasion_effects(occasions: pl.LazyFrame, key_months: pl.LazyFrame, levels: pl.LazyFrame,
                     shape: pl.LazyFrame, finals: pl.LazyFrame,
                     pooled: bool, full_share: float | None) -> pl.LazyFrame:
    """property_id, key_month, occasion, ly_date, event_effect, full: for each key month K (the
    as-of date's month, whose shape reads the months before it) and each night ly_date of last
    year's occurrence of an occasion whose month is over before K and complete (a level),
    final / (its month's mean final x its weekday's factor as of K); pooled: the same for
    every night of every past occurrence of the occasion (`past_occurrences`) whose month is
    over before K and complete, sum of finals / sum of levels, the level of a night n years
    back with the weekday's factor as of K n - 1 years back (its own year's). With
    `full_share`, full is the full night as of K (`full_levels`; as of K n - 1 years back for
    a night n years back) and the effect the m that sells those finals with no night above its
    year's full night (`_saturated`). Clipped to EVENT_CLIP. One row per night of last year's
    occurrence (the nights the forecast reads).

    occasions: property_id, ly_date, occasion (the calendar's nights aligned by a name);
    key_months: property_id, key_month; levels, shape: `methods._season`; finals: property_id,
    stay_date, final_rooms."""
    past = past_occurrences(occasions)
    nights = (
        key_months.unique()
        .join(past if pooled else past.filter(pl.col("years_back") == 1), on="property_id",
              how="inner")
        .with_columns(month=pl.col("ly_date").dt.truncate("1mo"),
                      weekday=pl.col("ly_date").dt.weekday(),
                      as_of=pl.col("key_month").dt.offset_by(
                          pl.format("-{}y", pl.col("years_back") - 1)))
        .filter(pl.col("month") < pl.col("key_month"))
        .join(finals.select("property_id", ly_date="stay_date", final="final_rooms"),
              on=["property_id", "ly_date"], how="inner")
        .join(levels.select("property_id", "month", "month_mean"), on=["property_id", "month"],
              how="inner")
        .join(shape.select("property_id", as_of="key_month", weekday="weekday",
                           weekday_factor="weekday_factor"),
              on=["property_id", "as_of", "weekday"], how="left")
        .select("property_id", "key_month", "occasion", "ly_date", "years_back", "as_of",
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
        as_of = nights.select("property_id", key_month="as_of").unique()
        nights = _saturated(nights.join(
            full_levels(finals, as_of, full_share).rename({"key_month": "as_of"}),
            on=["property_id", "as_of"], how="left"), by)
    return nights.filter(pl.col("years_back") == 1).select(
        "property_id", "key_month", "occasion", "ly_date", "full",
        # rounded: a float sum's last bits move with the order of its terms
        event_effect=pl.col("effect").clip(*EVENT_CLIP).round(9))


def _saturated(nights: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """nights (by, level, final, full) with effect: the m with sum min(full, m x level) =
    sum final over each group's nights (a full night sells no more however strong the
    occasion; a night without a full level is never full); every night full when the finals
    reach them all (m = the highest full / level x sum final / sum full); sum final / sum
    level when no night has a full level."""
    level, full = pl.col("level"), pl.col("full")
    cap = full.fill_null(float("inf"))
    total = pl.col("final").sum().over(by)
    # the nights in the order they fill as m grows: full / level, the larger level first
    ranked = nights.with_columns(t=cap / level).sort(
        [*by, "t", "level"], descending=[False] * (len(by) + 1) + [True]).with_columns(
        j=pl.int_range(pl.len()).over(by),
        above=(level.cum_sum() - level).over(by),
        capped=cap.cum_sum().shift(1, fill_value=0.0).over(by),
        prev=level.shift(1).over(by),
        prev_full=cap.shift(1).over(by),
        all_level=level.sum().over(by))
    # j nights capped (those that fill first), the rest at m_j x level
    m_j = (total - pl.col("capped")) / (pl.col("all_level") - pl.col("above"))
    valid = ((total - pl.col("capped") > 0) & (m_j * level < cap)
             & ((pl.col("j") == 0) | (m_j * pl.col("prev") >= pl.col("prev_full"))))
    chosen = pl.when(valid).then(m_j)
    every_full = pl.when(total > 0).then(
        total / cap.sum().over(by) * pl.col("t").max().over(by)).otherwise(0.0)
    return ranked.with_columns(
        effect=pl.when(full.is_null().all().over(by)).then(total / pl.col("all_level"))
        .otherwise(pl.coalesce(chosen.drop_nulls().first().over(by), every_full))
    ).drop("t", "j", "above", "capped", "prev", "prev_full", "all_level")
