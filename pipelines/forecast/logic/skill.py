"""How much better than the same night last year each method forecast, with a 90 % interval.

The skill of a method against `last_year` over the nights both forecast (same horizon):
1 - sum |error| / sum |error of last_year|, in %. 91 nights are few: a hotel's luck over a
quarter moves the figure by several points, so the mart gives the interval the nights allow,
by the delete-a-week jackknife. The nights are cut into weeks counted back from the property's
last scored night (13 weeks of 7 nights for 91 nights; a week holds every weekday once). With
theta_i the skill without week i and n weeks, the standard error is
sqrt((n - 1) / n x sum (theta_i - mean theta_i)^2) and the interval theta +- 1.645 x SE.
Weeks, not nights, are left out because the errors of nights close together move together
(one week's event, one month's level). Errors that move together over a whole month are
still counted as if independent across its weeks; on six draws of the demo hotels the
standard error matched the spread of the figure from draw to draw
(docs/forecast-history.md, `forecast_seeds`).
docs/forecast.md, "How sure the figures are".
"""

from __future__ import annotations

import polars as pl

REFERENCE = "last_year"
Z_90 = 1.6449
"""Two-sided 90 % quantile of the normal distribution."""
WEEK_DAYS = 7
MIN_WEEKS = 4
"""Fewest weeks with nights both forecast for a figure and its interval: over fewer, one
week's luck is the figure (a hotel's first nights with a last year, say), and a jackknife of
them says little."""
SKILL_COLUMNS = ("better_than_last_year_pct", "better_than_last_year_low_pct",
                 "better_than_last_year_high_pct")
GROUP = ["property_id", "horizon_days", "method"]


def skill(scored: pl.DataFrame) -> pl.DataFrame:
    """property_id, horizon_days, method and SKILL_COLUMNS (rounded to 2 decimals) for every
    method but last_year that shares a night with it. scored: backtest errors (property_id,
    stay_date, horizon_days, method, rooms_forecast, rooms_actual) of the nights scored.
    Null skill when last_year's errors sum to 0 or below MIN_WEEKS weeks; null interval when
    leaving a week out leaves last_year no error."""
    error = (pl.col("rooms_forecast") - pl.col("rooms_actual")).abs()
    nights = scored.select(
        "property_id", "horizon_days", "method", "stay_date", abs_error=error,
        week=(pl.col("stay_date").max().over("property_id") - pl.col("stay_date"))
        .dt.total_days() // WEEK_DAYS,
    )
    reference = nights.filter(method=REFERENCE).select(
        "property_id", "horizon_days", "stay_date", reference_error="abs_error")
    weeks = (
        nights.filter(pl.col("method") != REFERENCE)
        .join(reference, on=["property_id", "horizon_days", "stay_date"], how="inner")
        .group_by(*GROUP, "week")
        .agg(a=pl.col("abs_error").sum(), b=pl.col("reference_error").sum())
    )
    total_a, total_b = pl.col("a").sum().over(GROUP), pl.col("b").sum().over(GROUP)
    left_out = (
        weeks.with_columns(
            n=pl.len().over(GROUP),
            theta=pl.when(total_b > 0).then(1 - total_a / total_b),
            theta_i=pl.when(total_b - pl.col("b") > 0)
            .then(1 - (total_a - pl.col("a")) / (total_b - pl.col("b"))),
        )
    )
    spread = ((pl.col("theta_i") - pl.col("theta_i").mean()) ** 2).sum()
    se = ((pl.col("n").first() - 1) / pl.col("n").first() * spread).sqrt()
    weeks_ok = pl.col("n").first() >= MIN_WEEKS
    interval_ok = weeks_ok & pl.col("theta_i").is_not_null().all()
    theta = pl.when(weeks_ok).then(pl.col("theta").first())
    return (
        left_out.group_by(GROUP)
        .agg(
            theta=theta,
            low=pl.when(interval_ok).then(theta - Z_90 * se),
            high=pl.when(interval_ok).then(theta + Z_90 * se),
        )
        .select(*GROUP, *[(pl.col(c) * 100).round(2).alias(name)
                          for c, name in zip(("theta", "low", "high"), SKILL_COLUMNS,
                                             strict=True)])
        .sort(GROUP)
    )
