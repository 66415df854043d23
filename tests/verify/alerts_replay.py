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

Per hotel, kind and week: the nights alerted (a night counted once a week however many days
it fires). Then each night alerted in the span and over by the warehouse's last snapshot,
against the forecast in use (`forecast_daily`, the calendar of the demo's events.yaml) made as
of the first day of the week it first fired in: `off` the share that ended more than 10 %
off that forecast, `right` the share that ended as the alert said (pace_below_stly: more than
10 % below last year's same night, as mart.pace holds it; pickup_spike: more than 10 % above
the forecast; over_capacity: at or above the hotel's rooms). `(every night)`: the same
`off` for every night over within 90 days of a week's first day, alerted or not.
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
    load_events,
    property_calendars,
)

REPO = Path(__file__).resolve().parents[2]
KINDS = ("pace_below_stly", "pickup_spike", "over_capacity")
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
    conn = duckdb.connect(str(warehouse), read_only=True)
    try:
        return {
            "otb": conn.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, "
                            "revenue_otb_net FROM mart.otb_snapshots").pl(),
            "pace": conn.sql("SELECT * FROM mart.pace").pl(),
            "places": conn.sql("SELECT property_id::BIGINT AS property_id, code, country, "
                               "province FROM core.property").pl(),
            "rooms": conn.sql("SELECT property_id, count(*) FILTER (WHERE sellable) AS rooms, "
                              "count(*) AS rooms_available FROM core.rooms GROUP BY 1").pl(),
        }
    finally:
        conn.close()


def replay(data: dict[str, pl.DataFrame], start: date, weeks: int,
           settings: AlertSettings) -> pl.DataFrame:
    """mart.alerts as of each day of the span, with its week (0, 1, ...)."""
    days = [start + timedelta(days=d) for d in range(7 * weeks)]
    return pl.concat([
        alerts(data["otb"], data["pace"], data["rooms"], settings, as_of=day).with_columns(
            week=pl.lit((day - start).days // 7)) for day in days])


def weekly(fired: pl.DataFrame, weeks: int) -> pl.DataFrame:
    """code, alert, one column per week: the nights alerted that week."""
    counts = fired.group_by("code", "alert", "week").agg(nights=pl.col("stay_date").n_unique())
    grid = (fired.select("code").unique().join(pl.DataFrame({"alert": KINDS}), how="cross")
            .join(pl.DataFrame({"week": list(range(weeks))}, schema={"week": pl.Int32}),
                  how="cross"))
    return (grid.join(counts.with_columns(pl.col("week").cast(pl.Int32)),
                      on=["code", "alert", "week"], how="left")
            .with_columns(pl.col("nights").fill_null(0))
            .sort("code", "alert", "week")
            .group_by("code", "alert", maintain_order=True)
            .agg(per_week=pl.col("nights").cast(pl.String).str.join(" "),
                 mean=pl.col("nights").mean().round(1)))


def judged(fired: pl.DataFrame, data: dict[str, pl.DataFrame], start: date, weeks: int,
           calendar: pl.DataFrame) -> pl.DataFrame:
    """Each night alerted (per kind) that is over by the last snapshot, beside its final, the
    forecast made as of the first day of the week it first fired in, last year's night; and
    as alert `(every night)` each night over within 90 days of a week's first day, beside
    the forecast made that day: how often any night ends off its forecast."""
    otb = data["otb"]
    finals = otb.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "property_id", "stay_date", final=pl.col("rooms_otb").cast(pl.Float64))
    last = otb["snapshot_date"].max()
    first = (fired.group_by("property_id", "code", "alert", "stay_date")
             .agg(week=pl.col("week").min().cast(pl.Int32))
             .join(finals, on=["property_id", "stay_date"], how="inner")
             .filter(pl.col("stay_date") < last))
    forecasts = pl.concat([
        forecast_daily(otb, data["rooms"], as_of_date=start + timedelta(days=7 * w),
                       calendar=calendar)
        .filter(pl.col("days_before") <= 90)
        .select("property_id", "stay_date", "rooms_forecast", "capacity",
                week=pl.lit(w, dtype=pl.Int32))
        for w in range(weeks)])
    every = (forecasts.join(finals, on=["property_id", "stay_date"], how="inner")
             .filter(pl.col("stay_date") < last)
             .join(data["places"].select("property_id", "code"), on="property_id")
             .with_columns(alert=pl.lit("(every night)")))
    ly = (data["pace"].filter(pl.col("days_before") == 0)
          .select("property_id", "stay_date", ly_final="ly_actual_rooms_sold"))
    alerted = first.join(forecasts, on=["property_id", "stay_date", "week"], how="left")
    return pl.concat([alerted, every.select(alerted.columns)]).join(
        ly, on=["property_id", "stay_date"], how="left")


def shares(nights: pl.DataFrame) -> pl.DataFrame:
    """code, alert: nights judged, % ended more than 10 % off the forecast, % right."""
    f, end = pl.col("rooms_forecast"), pl.col("final")
    right = (pl.when(pl.col("alert") == "pace_below_stly")
             .then(end < (1 - OFF) * pl.col("ly_final"))
             .when(pl.col("alert") == "pickup_spike").then(end > (1 + OFF) * f)
             .when(pl.col("alert") == "over_capacity").then(end >= pl.col("capacity")))
    return (nights.with_columns(off=(end - f).abs() > OFF * f, right=right)
            .group_by("code", "alert")
            .agg(judged=pl.len(), off_pct=(pl.col("off").mean() * 100).round(1),
                 right_pct=(pl.col("right").mean() * 100).round(1))
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
    events = load_events(warehouse.parent / "demo" / "events.yaml")
    calendar = property_calendars(data["places"], date(2025, 1, 1), date(2027, 12, 31), events)
    print(shares(judged(fired, data, args.start, args.weeks, calendar)))


if __name__ == "__main__":
    main()
