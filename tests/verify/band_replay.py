"""Study: how often the forecast's 80 % bands hold, on demo warehouses (issue 49, item 2).

For each warehouse given (a demo's, e.g. `pmsw demo --seed 13 --days 560 --daily-syncs 7
--end 2026-11-23 --warehouse DIR/warehouse.duckdb`; its read copy when there is one; the
hotels' events from DIR/demo/events.yaml as the demo's marts read them) and each hotel,
replays the code checked out (pipelines/forecast/logic/) and prints:

- **nights**: per horizon, the % of the last 91 nights realized inside the chosen forecast's
  band (what `pmsw report forecast-accuracy` shows as band_coverage_pct) and its mean width,
  pooled over hotels and warehouses; and `--spread` more nights of the same replay (the band
  as it was made for each of the nights before them), to show how far the coverage of one
  block of 91 nights moves from block to block: the lowest, highest and standard deviation of
  the coverage of every run of 91 consecutive nights; then, given several, each alone.
- **months**: the month's band (month_band.py, mart.forecast_daily month_rooms_low / _high)
  as of every `--step`-th day of the `--days` before the last snapshot, for each month from
  the as-of date's on (up to 3 after it) that is over by the last snapshot: the % of such
  (as-of date, month) whose rooms still to come (the month's nights from the as-of date on)
  ended inside, by months ahead (0: the as-of date's own month), with the number of distinct
  hotel-months behind each figure.

    uv run --locked --no-sync python -m tests.verify.band_replay DIR/warehouse.duckdb ...

A measurement of the band goal, kept beside alerts_replay (docs/forecast.md, "How often
the band holds").
"""

from __future__ import annotations

import argparse
from datetime import date, timedelta
from pathlib import Path

import duckdb
import polars as pl

from pipelines.forecast import Event, load_events, property_calendars
from pipelines.forecast.logic.methods import (
    CHOSEN,
    HORIZONS,
    ForecastSettings,
    _errors,
    _in_use_errors,
    _pick,
    _realized,
    backtest,
    choices,
    method_forecasts,
    scored_forecasts,
)
from pipelines.forecast.logic.month_band import month_bands
from pipelines.marts import read

BLOCK = 91
"""Nights of one backtest block (ForecastSettings.backtest_days)."""
MONTHS_AHEAD = 3
"""The months after the as-of date's whose band is measured."""


def _inputs(path: Path) -> tuple[duckdb.DuckDBPyConnection, pl.DataFrame, pl.DataFrame,
                                 dict[int, str], tuple[Event, ...]]:
    copy = path.with_name(path.stem + ".read.duckdb")
    con = duckdb.connect(str(copy if copy.exists() else path), read_only=True)
    otb = con.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, revenue_otb_net "
                  "FROM mart.otb_snapshots").pl()
    codes = {int(pid): str(code) for pid, code in
             con.sql("SELECT property_id, code FROM core.property").fetchall()}
    rooms = con.sql("SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT AS rooms, "
                    "count(*)::BIGINT AS rooms_available FROM core.rooms GROUP BY 1").pl()
    return con, otb, rooms, codes, tuple(demo_events(path))


def demo_events(warehouse: Path) -> list[Event]:
    """The simulator's events of the demo that built `warehouse` (its demo/events.yaml). A
    warehouse copied without that folder is refused: read with no events, the forecast and
    the events' weeks would be another study's, silently."""
    path = warehouse.parent / "demo" / "events.yaml"
    if not path.exists():
        raise SystemExit(f"{path}: missing; copy the demo's folder with its warehouse")
    return load_events(path)


def _calendar(con: duckdb.DuckDBPyConnection, pid: int, otb: pl.DataFrame,
              events: tuple[Event, ...]) -> pl.DataFrame:
    first, last = otb["snapshot_date"].min(), otb["snapshot_date"].max()
    assert isinstance(first, date)
    assert isinstance(last, date)
    return property_calendars(read.place(con, pid), first, last + timedelta(days=400), events)


def study(path: Path, spread: int, days: int, step: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(nights, months) of one warehouse: nights: hotel (its folder and code: runs and months
    are per warehouse and hotel), horizon_days, stay_date, inside, width; months: hotel,
    as_of_date, month, ahead, inside, width."""
    con, otb, rooms, codes, events = _inputs(path)
    settings = ForecastSettings(backtest_days=BLOCK + spread)
    nights, months = [], []
    with con:
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            scored = scored_forecasts(o, capacity, settings, calendar)
            banded = backtest(o, capacity, settings, scored=scored).filter(method=CHOSEN)
            nights.append(banded.select(
                "horizon_days", "stay_date", hotel=pl.lit(f"{path.parent.name} {code}"),
                inside=pl.col("rooms_actual").is_between(pl.col("rooms_low"),
                                                         pl.col("rooms_high")),
                width=pl.col("rooms_high") - pl.col("rooms_low")))
            months.append(_months(o, capacity, calendar, scored, settings, days, step)
                          .with_columns(hotel=pl.lit(f"{path.parent.name} {code}")))
    return pl.concat(nights), pl.concat(months)


def _months(o: pl.DataFrame, capacity: pl.DataFrame, calendar: pl.DataFrame,
            scored: pl.DataFrame, settings: ForecastSettings, days: int,
            step: int) -> pl.DataFrame:
    """The month's band as forecast_daily makes it, as of every `step`-th day of the `days`
    before the last snapshot, beside how each month over by then ended."""
    last = o["snapshot_date"].max()
    assert isinstance(last, date)
    errors = _errors(scored, o)
    in_use = _pick(scored, choices(errors, scored.select("property_id", "as_of_date").unique(),
                                   settings))
    calibration = _in_use_errors(in_use, o)
    pid = int(o["property_id"][0])
    dates = [last - timedelta(days=k) for k in range(1, days, step)]
    wanted = pl.DataFrame({"property_id": [pid] * len(dates), "as_of_date": dates},
                          schema={"property_id": pl.Int64, "as_of_date": pl.Date})
    ahead = list(range(MONTHS_AHEAD * 31 + 31))
    picked = _pick(method_forecasts(o, capacity, wanted, ahead, settings, calendar),
                   choices(errors, wanted, settings))
    bands = month_bands(picked, calibration, HORIZONS, settings.band_days, settings.interval,
                        settings.band_min_nights)
    month = pl.col("stay_date").dt.truncate("1mo")
    ended = (
        picked.select("property_id", "as_of_date", "stay_date", "rooms_forecast")
        .join(_realized(o), on=["property_id", "stay_date"], how="left")
        .group_by("property_id", "as_of_date", month.alias("month"))
        .agg(nights=pl.len(), realized=pl.col("rooms_actual").is_not_null().sum(),
             actual=pl.col("rooms_actual").sum(), last_night=pl.col("stay_date").max())
        .filter(pl.col("last_night") == pl.col("month").dt.month_end(),
                pl.col("realized") == pl.col("nights"))
    )
    return ended.join(bands, on=["property_id", "as_of_date", "month"]).select(
        "as_of_date", "month",
        ahead=(pl.col("month").dt.year() - pl.col("as_of_date").dt.year()) * 12
        + pl.col("month").dt.month().cast(pl.Int32)
        - pl.col("as_of_date").dt.month().cast(pl.Int32),
        inside=pl.col("actual").is_between(pl.col("month_rooms_low"),
                                           pl.col("month_rooms_high")),
        width=pl.col("month_rooms_high") - pl.col("month_rooms_low"))


def nights_table(nights: pl.DataFrame) -> pl.DataFrame:
    """Per horizon: the pooled % inside over each hotel's last BLOCK nights and its width,
    then the spread of the coverage of every run of BLOCK consecutive nights."""
    last = nights.group_by("hotel").agg(end=pl.col("stay_date").max())
    tagged = nights.join(last, on="hotel").with_columns(
        recent=(pl.col("end") - pl.col("stay_date")).dt.total_days() < BLOCK)
    runs = (
        tagged.sort("stay_date")
        .with_columns(run=pl.col("inside").cast(pl.Float64).rolling_mean(BLOCK)
                      .over("hotel", "horizon_days") * 100)
        .drop_nulls("run")
        .group_by("horizon_days")
        .agg(runs=pl.len(), run_low=pl.col("run").min().round(1),
             run_high=pl.col("run").max().round(1), run_sd=pl.col("run").std().round(1))
    )
    return (
        tagged.filter("recent").group_by("horizon_days")
        .agg(nights=pl.len(), inside_pct=(pl.col("inside").mean() * 100).round(1),
             width_rooms=pl.col("width").mean().round(1))
        .join(runs, on="horizon_days", how="left").sort("horizon_days")
    )


def months_table(months: pl.DataFrame) -> pl.DataFrame:
    return (
        months.filter(pl.col("ahead") <= MONTHS_AHEAD).group_by("ahead")
        .agg(cases=pl.len(), months=pl.struct("hotel", "month").n_unique(),
             inside_pct=(pl.col("inside").mean() * 100).round(1),
             width_rooms=pl.col("width").mean().round(1))
        .sort("ahead")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--spread", type=int, default=BLOCK,
                        help="nights before the last 91 replayed for the block-to-block spread")
    parser.add_argument("--days", type=int, default=200,
                        help="as-of dates of the month's band: within these days before the end")
    parser.add_argument("--step", type=int, default=2, help="every step-th day of them")
    args = parser.parse_args()
    results = [study(path, args.spread, args.days, args.step) for path in args.warehouses]
    with pl.Config(tbl_rows=50, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True):
        print("nights:", ", ".join(str(p) for p in args.warehouses))
        print(nights_table(pl.concat([n for n, _ in results])))
        for path, (each, _) in zip(args.warehouses, results, strict=True):
            if len(results) > 1:
                print(f"nights: {path} alone")
                print(nights_table(each))
        print("months:")
        print(months_table(pl.concat([m for _, m in results])))


if __name__ == "__main__":
    main()
