"""The departments' forecast scored (docs/forecast.md, "The departments' forecast, scored"):
each night the backtest's chosen forecast scored (as of S, h days ahead), F&B and other revenue
forecast as the flash and forecast-months make it, its rooms x the department's revenue per
room on the books at the night's end of the 91 closed days before S (docs/kpi.md
`food_beverage_per_room_final_net`), and total revenue its room revenue + those two; beside a
baseline that reads no forecast, the mean revenue a day of the same 91 days. Both against the
night's revenue as the flash reads it: rooms by night, F&B and other by posting date."""

from __future__ import annotations

import polars as pl

from pipelines.forecast.logic.methods import CHOSEN, DEPARTMENTS


def department_errors(errors: pl.DataFrame, recent: pl.DataFrame,
                      nights: pl.DataFrame) -> pl.DataFrame:
    """`errors` (`backtest`: property_id, as_of_date, stay_date, method, rooms_forecast,
    room_revenue_forecast, ...) with, for each of DEPARTMENTS, its forecast, baseline and
    actual, on the `chosen` rows (the forecast in use, which the flash's departments take).
    The room revenue's forecast is the backtest's room_revenue_forecast (as
    mart.forecast_daily prices it), its baseline the mean room revenue a day of the same days
    (null without a rate, as the others': that night is not scored).
    `recent`: property_id and `pipelines.marts.departments.recent_days` of each as-of date
    (its 91 closed days' nights, rooms_final, revenue rows posted, room, F&B and other
    revenue); `nights`: property_id, stay_date, room_revenue_net, food_beverage_revenue_net,
    other_revenue_net of each night. A forecast is null when its 91 days had no room on the
    books or no revenue posted (no rate: the flash has none either), or, for the total, when
    its room revenue is not priced; the baseline is null with it, so both are scored on the
    same nights."""
    room, fnb, other = DEPARTMENTS[:3]
    rooms = pl.col("rooms_final").cast(pl.Float64)
    rated = (rooms > 0) & (pl.col("posted") > 0)
    days = pl.col("nights").cast(pl.Float64)
    window = recent.select(
        "property_id", "as_of_date",
        **{f"{d}_rate": pl.when(rated).then(pl.col(f"{d}_net").cast(pl.Float64) / rooms)
           for d in (fnb, other)},
        **{f"{d}_mean": pl.when(rated).then(pl.col(f"{d}_net").cast(pl.Float64) / days)
           for d in (room, fnb, other)})
    actual = nights.select(
        "property_id", "stay_date",
        **{f"{d}_actual": pl.col(f"{d}_net").cast(pl.Float64)
           for d in (room, fnb, other)})
    in_use = pl.col("method") == CHOSEN
    return (
        errors.join(window, on=["property_id", "as_of_date"], how="left")
        .join(actual, on=["property_id", "stay_date"], how="left")
        .with_columns(**{f"{d}_forecast": pl.when(in_use).then(
                             pl.col("rooms_forecast") * pl.col(f"{d}_rate"))
                         for d in (fnb, other)},
                      **{f"{d}_baseline": pl.when(in_use).then(pl.col(f"{d}_mean"))
                         for d in (fnb, other)},
                      room_revenue_baseline=pl.when(pl.col("room_revenue_forecast")
                                                    .is_not_null())
                      .then(pl.col("room_revenue_mean")))
        .with_columns(
            total_revenue_forecast=pl.col("room_revenue_forecast")
            + pl.col(f"{fnb}_forecast") + pl.col(f"{other}_forecast"),
            total_revenue_baseline=pl.when(pl.col("room_revenue_forecast").is_not_null())
            .then(pl.col("room_revenue_mean") + pl.col(f"{fnb}_mean") + pl.col(f"{other}_mean")),
            total_revenue_actual=pl.col("room_revenue_actual") + pl.col(f"{fnb}_actual")
            + pl.col(f"{other}_actual"))
        .drop("room_revenue_mean", *[f"{d}_{k}" for d in (fnb, other) for k in ("rate", "mean")])
    )
