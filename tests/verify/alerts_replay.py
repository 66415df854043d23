"""Issue 49 item 4, measured: how many alerts fire a week per hotel and kind on a simulated year,
and how many pointed at a night that ended off its forecast (docs/alerts.md).

    python -m tests.verify.alerts_replay --seed 5 --data /tmp/alerts-s5
    python -m tests.verify.alerts_replay --warehouse /tmp/alerts-s5/w.duckdb

The first builds the warehouse with `pmsw demo`'s own code (both demo hotels, 400 days and one
daily sync to Sunday 27 December 2026, the seed given; 20 to 35 minutes on two loaded cores)
then measures; the second measures a warehouse so built. mart.alerts as the marts make it
(`alerts`, the stored mart.otb_snapshots and mart.pace, the calendar's STLY), replayed as of
each closed day of `--weeks` weeks from `--start` (default 12 weeks from Monday 28 September
2026 to Sunday 20 December, so that many nights alerted are over by the draw's end; the
nights before 20 November 2026 have no STLY, so the first weeks see fewer pace alerts), each
reading only the snapshots up to it.

Per hotel, kind and week: the alerts, as a revenue manager reads them (docs/alerts.md): the
nights alerted that week (on any of its days) per kind, consecutive nights one alert
(`stretch`, as `pmsw report alerts` makes them); beside them the mean nights alerted a week.

Then "right" as issue 49 defines it: each week's alerts whose nights are all over by the
warehouse's last snapshot, against the forecast in use (`forecast_daily`, the calendar of the
demo's events.yaml) made as of that week's first day, their nights summed: `off_pct` the
share that ended more than 10 % off that forecast. What it is worth: `every_pct`, the same
share of every run of as many consecutive nights (within 90 days of a week's first day,
alerted or not), and `floor_pct`, that of a forecast at the simulator's floor (each night's
level, core.sandbox_levels, capped at the hotel's rooms: the best a forecast of the level can
do). An alert beating `every_pct` points at the nights the forecast misses.

And per night, as before: each night alerted, against the forecast of the first day of the
week it first fired in: `off_pct`, `level_off_pct` (the level's), and `claim_pct` the share
that ended as the alert said (pace_below_stly: more than 10 % below last year's same night,
as mart.pace holds it; pickup_spike: more than 10 % above the forecast; over_capacity: at or
above the hotel's rooms), `(every night)` every night forecast.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import duckdb
import polars as pl

from pipelines.forecast import (
    AlertSettings,
    alerts,
    forecast_daily,
    property_calendars,
    stretch,
)
from tests.verify.band_replay import demo_events

REPO = Path(__file__).resolve().parents[2]
KINDS = ("pace_below_stly", "pickup_spike", "over_capacity")
ALL = "(all kinds)"
OFF = 0.10
BUILD = """
import sys
from datetime import date
from pathlib import Path
from pipelines.demo import DemoConfig, run_demo
warehouse = Path(sys.argv[1])
run_demo(DemoConfig(data_dir=warehouse.parent, warehouse=warehouse, days=400, daily_syncs=1,
                    seed=int(sys.argv[2]), end=date(2026, 12, 27), daily_close=False,
                    progress=False))
"""


def build(data: Path, seed: int) -> Path:
    """The warehouse of a 400-day draw of the demo hotels, `pmsw demo`'s code in a process of
    its own (it sets its own environment)."""
    warehouse = data / "w.duckdb"
    data.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-c", BUILD, str(warehouse), str(seed)], cwd=REPO,
                   check=True)
    return warehouse


def _read(warehouse: Path) -> dict[str, pl.DataFrame]:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        return {
            "otb": conn.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, "
                            "revenue_otb_net FROM mart.otb_snapshots").pl(),
            "pace": conn.sql("SELECT * FROM mart.pace").pl(),
            "places": conn.sql("SELECT property_id::BIGINT AS property_id, code, country, "
                               "province FROM core.property").pl(),
            "rooms": conn.sql("SELECT property_id, count(*) FILTER (WHERE sellable) AS rooms, "
                              "count(*) AS rooms_available FROM core.rooms GROUP BY 1").pl(),
            "levels": conn.sql("SELECT property_id::BIGINT AS property_id, stay_date, "
                               "rooms_level FROM core.sandbox_levels").pl(),
        }


def replay(data: dict[str, pl.DataFrame], start: date, weeks: int,
           settings: AlertSettings) -> pl.DataFrame:
    """mart.alerts as of each day of the span, with its week (0, 1, ...)."""
    days = [start + timedelta(days=d) for d in range(7 * weeks)]
    return pl.concat([
        alerts(data["otb"], data["pace"], data["rooms"], settings, as_of=day).with_columns(
            week=pl.lit((day - start).days // 7)) for day in days])


def stretches(fired: pl.DataFrame) -> pl.DataFrame:
    """The alerts of each week: the nights alerted that week (any of its days) per hotel and
    kind, consecutive nights one alert (`stretch`, as the report makes them): property_id,
    code, alert, week, n, first, last, nights."""
    return (fired.select("property_id", "code", "alert", pl.col("week").cast(pl.Int32),
                         "stay_date").unique()
            .with_columns(n=stretch("property_id", "alert", "week"))
            .group_by("property_id", "code", "alert", "week", "n")
            .agg(first=pl.col("stay_date").min(), last=pl.col("stay_date").max(),
                 nights=pl.len()))


def weekly(fired: pl.DataFrame, weeks: int) -> pl.DataFrame:
    """code, alert (and `(all kinds)`, the hotel's), one figure per week: the alerts
    (stretches) that week, the mean and most of the weeks' alerts, the mean nights alerted."""
    counts = stretches(fired).group_by("code", "alert", "week").agg(
        alerts=pl.len(), nights=pl.col("nights").sum())
    counts = pl.concat([counts, counts.group_by("code", "week").agg(
        alert=pl.lit(ALL), alerts=pl.col("alerts").sum(), nights=pl.col("nights").sum())
        .select(counts.columns)])
    grid = (fired.select("code").unique()
            .join(pl.DataFrame({"alert": [*KINDS, ALL]}), how="cross")
            .join(pl.DataFrame({"week": list(range(weeks))}, schema={"week": pl.Int32}),
                  how="cross"))
    return (grid.join(counts, on=["code", "alert", "week"], how="left")
            .with_columns(pl.col("alerts", "nights").fill_null(0))
            .sort("code", "alert", "week")
            .group_by("code", "alert", maintain_order=True)
            .agg(alerts_per_week=pl.col("alerts").cast(pl.String).str.join(" "),
                 alerts=pl.col("alerts").mean().round(1),
                 max_week=pl.col("alerts").max(),
                 nights=pl.col("nights").mean().round(1)))


def forecasts_made(data: dict[str, pl.DataFrame], start: date, weeks: int,
                   calendar: pl.DataFrame) -> pl.DataFrame:
    """The forecast in use made as of each week's first day, nights up to 90 days ahead that
    are over by the last snapshot, beside each night's final and the simulator's level:
    property_id, stay_date, week, rooms_forecast, capacity, final, rooms_level, ly_final."""
    otb = data["otb"]
    finals = otb.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "property_id", "stay_date", final=pl.col("rooms_otb").cast(pl.Float64))
    ly = (data["pace"].filter(pl.col("days_before") == 0)
          .select("property_id", "stay_date", ly_final="ly_actual_rooms_sold"))
    return (pl.concat([
        forecast_daily(otb, data["rooms"], as_of_date=start + timedelta(days=7 * w),
                       calendar=calendar)
        .filter(pl.col("days_before") <= 90)
        .select("property_id", "stay_date", "rooms_forecast", "capacity",
                week=pl.lit(w, dtype=pl.Int32))
        for w in range(weeks)])
        .join(finals, on=["property_id", "stay_date"], how="inner")
        .filter(pl.col("stay_date") < otb["snapshot_date"].max())
        .join(data["levels"], on=["property_id", "stay_date"], how="left")
        .with_columns(rooms_level=pl.min_horizontal("rooms_level", "capacity"))
        .join(ly, on=["property_id", "stay_date"], how="left"))


def _off(made: str, ended: str = "final") -> pl.Expr:
    """Ended more than 10 % off `made` (a forecast, or the simulator's level)."""
    return (pl.col(ended) - pl.col(made)).abs() > OFF * pl.col(made)


def nights_judged(fired: pl.DataFrame, made: pl.DataFrame,
                  places: pl.DataFrame) -> pl.DataFrame:
    """code, alert: each night alerted that is over, against the forecast of the first day of
    the week it first fired in, and `(every night)` every night forecast: nights judged, %
    ended more than 10 % off the forecast (`off_pct`), % more than 10 % off the simulator's
    level (`level_off_pct`, what a forecast at the floor misses), % right as its kind claims
    (pace_below_stly: ended more than 10 % below last year's night; pickup_spike: more than
    10 % above the forecast; over_capacity: at or above the hotel's rooms)."""
    first = (fired.group_by("property_id", "code", "alert", "stay_date")
             .agg(week=pl.col("week").min().cast(pl.Int32)))
    alerted = first.join(made, on=["property_id", "stay_date", "week"], how="inner")
    every = made.join(places.select("property_id", "code"), on="property_id").with_columns(
        alert=pl.lit("(every night)"))
    end, f = pl.col("final"), pl.col("rooms_forecast")
    claim = (pl.when(pl.col("alert") == "pace_below_stly")
             .then(end < (1 - OFF) * pl.col("ly_final"))
             .when(pl.col("alert") == "pickup_spike").then(end > (1 + OFF) * f)
             .when(pl.col("alert") == "over_capacity").then(end >= pl.col("capacity")))
    return (pl.concat([alerted, every.select(alerted.columns)])
            .with_columns(off=_off("rooms_forecast"), level_off=_off("rooms_level"),
                          claim=claim)
            .group_by("code", "alert")
            .agg(judged=pl.len(), off_pct=(pl.col("off").mean() * 100).round(1),
                 level_off_pct=(pl.col("level_off").mean() * 100).round(1),
                 claim_pct=(pl.col("claim").mean() * 100).round(1))
            .sort("code", "alert"))


def _windows(made: pl.DataFrame, length: int) -> pl.DataFrame:
    """Every run of `length` consecutive nights of a week's forecast, summed: property_id,
    whether it ended more than 10 % off the forecast, and off the level."""
    summed = ("rooms_forecast", "final", "rooms_level")
    runs = (made.sort("property_id", "week", "stay_date")
            .with_columns(run=stretch("property_id", "week"))
            .with_columns(pl.col(c).rolling_sum(length).over("property_id", "week", "run")
                          for c in summed)
            .drop_nulls(list(summed)))
    return runs.select("property_id", off=_off("rooms_forecast"), level_off=_off("rooms_level"),
                       alert_nights=pl.lit(length, dtype=pl.UInt32))


def alerts_judged(fired: pl.DataFrame, made: pl.DataFrame) -> pl.DataFrame:
    """code, alert: each week's alerts (stretches) whose nights are all over, against the
    forecast of that week's first day, summed over its nights: alerts judged, % right as issue
    49 defines it (its nights ended more than 10 % off their forecast, `off_pct`), and what
    any run of as many consecutive nights does: % off the forecast (`every_pct`, the base
    rate) and % off the simulator's level (`floor_pct`, what a forecast at the floor
    misses)."""
    over = made.select("property_id", "stay_date", "week", "rooms_forecast", "final",
                       "rooms_level")
    alerts_over = (stretches(fired)
                   .with_columns(stay_date=pl.date_ranges("first", "last"))
                   .explode("stay_date")
                   .join(over, on=["property_id", "stay_date", "week"], how="left")
                   .group_by("property_id", "code", "alert", "week", "n")
                   .agg(pl.col("rooms_forecast", "final", "rooms_level").sum(),
                        alert_nights=pl.len(), whole=pl.col("final").is_not_null().all())
                   .filter(pl.col("whole")))
    lengths = sorted(set(alerts_over["alert_nights"].to_list()))
    base = pl.concat([_windows(made, n) for n in lengths]).group_by(
        "property_id", "alert_nights").agg(every=pl.col("off").mean(),
                                            floor=pl.col("level_off").mean())
    return (alerts_over.with_columns(off=_off("rooms_forecast"))
            .join(base, on=["property_id", "alert_nights"], how="left")
            .group_by("code", "alert")
            .agg(judged=pl.len(), nights=pl.col("alert_nights").mean().round(1),
                 off_pct=(pl.col("off").mean() * 100).round(1),
                 every_pct=(pl.col("every").mean() * 100).round(1),
                 floor_pct=(pl.col("floor").mean() * 100).round(1))
            .sort("code", "alert"))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--warehouse", type=Path, help="a warehouse built as --seed builds it")
    where.add_argument("--seed", type=int, help="build a 400-day draw of this seed first")
    ap.add_argument("--data", type=Path, help="where --seed builds (its w.duckdb)")
    ap.add_argument("--start", type=date.fromisoformat, default=date(2026, 9, 28))
    ap.add_argument("--weeks", type=int, default=12)
    ap.add_argument("--no-forecast", action="store_true",
                    help="the weekly counts only (the forecasts cost minutes)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="an AlertSettings field for this run (tuning), e.g. spike_z=3.5")
    args = ap.parse_args(argv)
    if args.seed is not None and args.data is None:
        ap.error("--data: where to build the seed's warehouse")
    warehouse = args.warehouse or build(args.data, args.seed)
    settings = AlertSettings()
    for item in args.set:
        name, value = item.split("=", 1)
        kind = type(getattr(settings, name))
        settings = replace(settings, **{name: kind(value)})
    data = _read(warehouse)
    fired = replay(data, args.start, args.weeks, settings).join(
        data["places"].select("property_id", "code"), on="property_id")
    pl.Config.set_tbl_rows(50)
    pl.Config.set_fmt_str_lengths(80)
    print(f"{warehouse}, as of {args.start} + {args.weeks} weeks, {settings}")
    print(weekly(fired, args.weeks))
    if args.no_forecast:
        return
    events = demo_events(warehouse)
    calendar = property_calendars(data["places"], date(2025, 1, 1), date(2027, 12, 31), events)
    made = forecasts_made(data, args.start, args.weeks, calendar)
    print("the alerts (stretches) judged:")
    print(alerts_judged(fired, made))
    print("the nights alerted judged:")
    print(nights_judged(fired, made, data["places"]))

if __name__ == "__main__":
    main()
