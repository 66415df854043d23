"""Study: the rooms forecast's bias by horizon and by method chosen (issue 49, s37: +3.5 to
+5.1 % at 90 days on the held-out 680-day draws).

For each warehouse given (a demo's, as tests/verify/band_replay.py reads it) and each hotel,
replays the forecast in use at every as-of date of the history at the backtest's horizons
(pipelines/forecast/logic/) and scores it on the last `--nights` nights realized beside the
simulator's level (core.sandbox_levels). Prints, per hotel and horizon, the bias (sum
(forecast - actual) / sum actual x 100) and WAPE of the forecast in use and of the level; per
horizon and method chosen the same; every method's own bias whether chosen or not; and for
`last_year_season` its parts against the level's (`--parts`): last year's month, the trend,
the night's shape (weekday, effect), in % of the level.

    uv run --locked --no-sync python -m tests.verify.bias_study DIR/warehouse.duckdb ...
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import (
    HORIZONS,
    METHODS,
    ForecastSettings,
    _as_of_dates,
    _errors,
    _finals,
    _otb,
    _pick,
    _realized,
    _season,
    choices,
    method_forecasts,
)
from pipelines.marts import read
from tests.verify.band_replay import _calendar, _inputs


def nights(path: Path, settings: ForecastSettings, last: int) -> pl.DataFrame:
    """Per hotel, horizon and realized night of the last `last`: the forecast in use and
    every method's, the chosen method, the actual and the level."""
    con, otb, rooms, codes, events = _inputs(path)
    parts = []
    try:
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            as_of = _as_of_dates(o)
            forecasts = method_forecasts(o, capacity, as_of, HORIZONS, settings, calendar)
            picked = _pick(forecasts, choices(_errors(forecasts, o), as_of, settings))
            realized = _realized(o)
            levels = read.sandbox_levels(con, pid)
            end = realized["stay_date"].max()
            parts.append(
                picked.join(realized, on=["property_id", "stay_date"], how="inner")
                .filter((pl.lit(end) - pl.col("stay_date")).dt.total_days() < last)
                .join(levels, on=["property_id", "stay_date"], how="left")
                .join(_level_months(levels), on=["property_id", "stay_date"], how="left")
                .select("property_id", "as_of_date", "stay_date", "days_before", "cap",
                        "rooms_otb", *METHODS, "rooms_forecast", "method", "rooms_actual",
                        "rooms_level", "month_level", "ly_month_level",
                        hotel=pl.lit(f"{path.parent.name} {code}"), code=pl.lit(code))
                .pipe(_level_parts, o))
    finally:
        con.close()
    return pl.concat(parts)


def _level_parts(pairs: pl.DataFrame, o: pl.DataFrame) -> pl.DataFrame:
    """`pairs` (property_id, as_of_date, stay_date, ...) with last_year_season's parts
    (methods._season, from the snapshots `o`): ly_mean (the mean final of D's month a year
    earlier), weekday_factor, trend."""
    levels, shape = _season(_finals(_otb(o)))
    return (
        pairs.lazy().with_columns(key_month=pl.col("as_of_date").dt.truncate("1mo"),
                           ly_month=pl.col("stay_date").dt.truncate("1mo").dt.offset_by("-1y"),
                           weekday=pl.col("stay_date").dt.weekday())
        .join(levels.rename({"month": "ly_month", "month_mean": "ly_mean"}),
              on=["property_id", "ly_month"], how="left")
        .join(shape, on=["property_id", "key_month", "weekday"], how="left")
        .drop("key_month", "ly_month", "weekday")
        .collect()
    )


def _level_months(levels: pl.DataFrame) -> pl.DataFrame:
    """property_id, stay_date, month_level (the mean level of the night's month),
    ly_month_level (of the same month a year earlier)."""
    month = pl.col("stay_date").dt.truncate("1mo")
    means = levels.group_by("property_id", month.alias("month")).agg(
        month_level=pl.col("rooms_level").mean())
    return (
        levels.select("property_id", "stay_date", month=month,
                      ly=month.dt.offset_by("-1y"))
        .join(means, on=["property_id", "month"], how="left")
        .join(means.rename({"month": "ly", "month_level": "ly_month_level"}),
              on=["property_id", "ly"], how="left")
        .select("property_id", "stay_date", "month_level", "ly_month_level")
    )


def level_parts(scored: pl.DataFrame, horizon: int) -> pl.DataFrame:
    """last_year_season against the simulator's level at `horizon`, on the nights it forecast,
    in parts that multiply to it, each in % above the level's own (level-weighted): last
    year's month (its mean final over its mean level), the trend (the method's over the
    level's, D's month over the month a year back) and the night's shape (the rest: weekday
    factor x event effect x the clip, over the level's night / its month's)."""
    lv, ly = pl.col("rooms_level"), pl.col("last_year_season")
    a = pl.col("ly_mean") / pl.col("ly_month_level")
    t = pl.col("trend").fill_null(1.0) / (pl.col("month_level") / pl.col("ly_month_level"))
    shape = (ly / (pl.col("ly_mean") * pl.col("trend").fill_null(1.0))) / (
        lv / pl.col("month_level"))

    def above(part: pl.Expr) -> pl.Expr:
        return ((part * lv).sum() / lv.sum() * 100 - 100).round(2)

    return (
        scored.filter(pl.col("days_before") == horizon, ly.is_not_null(),
                      pl.col("ly_month_level").is_not_null())
        .group_by("code", month=pl.col("stay_date").dt.truncate("1mo"))
        .agg(nights=pl.len(), total=above(ly / lv), ly_month=above(a), trend=above(t),
             shape=above(shape), mean_trend=pl.col("trend").mean().round(3),
             true_trend=(pl.col("month_level") / pl.col("ly_month_level")).mean().round(3))
        .sort("code", "month")
    )


def pct(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    return (num.sum() / den.sum() * 100).round(2)


def by_horizon(scored: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    miss = pl.col("rooms_forecast") - pl.col("rooms_actual")
    off = pl.col("rooms_level") - pl.col("rooms_actual")
    actual = pl.col("rooms_actual")
    return (
        scored.group_by(*by, "days_before")
        .agg(nights=pl.len(), bias_pct=pct(miss, actual), wape_pct=pct(miss.abs(), actual),
             floor_bias_pct=pct(off, actual), floor_wape_pct=pct(off.abs(), actual),
             vs_level_pct=pct(pl.col("rooms_forecast") - pl.col("rooms_level"),
                              pl.col("rooms_level")),
             at_cap_pct=((pl.col("rooms_forecast") >= pl.col("cap") - 1e-9).mean() * 100)
             .round(1))
        .with_columns(ratio=(pl.col("wape_pct") / pl.col("floor_wape_pct")).round(3))
        .sort(*by, "days_before")
    )


def every_method(scored: pl.DataFrame, horizon: int) -> pl.DataFrame:
    """Each method's bias and WAPE at `horizon` on the nights it forecast, chosen or not."""
    rows = []
    h = scored.filter(pl.col("days_before") == horizon)
    for m in METHODS:
        part = h.filter(pl.col(m).is_not_null())
        miss = pl.col(m) - pl.col("rooms_actual")
        rows.append(part.group_by("code").agg(
            method=pl.lit(m), nights=pl.len(),
            bias_pct=pct(miss, pl.col("rooms_actual")),
            wape_pct=pct(miss.abs(), pl.col("rooms_actual")),
            vs_level_pct=pct(pl.col(m) - pl.col("rooms_level"), pl.col("rooms_level"))))
    return pl.concat(rows).sort("code", "method")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--nights", type=int, default=364,
                        help="the last nights realized scored")
    parser.add_argument("--save", type=Path, help="write the scored nights to this parquet")
    args = parser.parse_args()
    settings = ForecastSettings()
    scored = pl.concat([nights(p, settings, args.nights) for p in args.warehouses])
    if args.save:
        scored.write_parquet(args.save)
    with pl.Config(tbl_rows=300, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, tbl_width_chars=220):
        print(f"the forecast in use, the last {args.nights} nights:")
        print(by_horizon(scored, ["hotel"]))
        print("by method chosen:")
        print(by_horizon(scored, ["code", "method"]).filter(pl.col("nights") >= 28))
        for h in (30, 90):
            print(f"every method at {h} days:")
            print(every_method(scored, h))
        print("last_year_season at 90 days against the level, by month, in parts:")
        print(level_parts(scored, 90))


if __name__ == "__main__":
    main()
