"""The calendar's effect on the forecast and the pace (docs/calendar.md, docs/forecast.md
"Holidays and events"): on demo warehouses, the same snapshots forecast with last year's night
364 days back (before) and aligned by the calendar (after: the property's public holidays and
the demo hotels' events, the simulator's: `pmsw sandbox simulate --events-file`).

Per warehouse and hotel:
- the chosen method's WAPE at every backtest horizon over the last 91 nights realized
  (mart.forecast_accuracy's figures), before and after, and at 30 days over the named nights
  alone (a holiday or event);
- as of --as-of (default 2026-11-28), the forecast of 24 and 25 December 2026 against the
  rooms they ended with (the warehouse must hold snapshots past them), and the
  `pace_below_stly` alerts on those nights as of the day before (the last closed date).

    python -m benchmarks.forecast_calendar --warehouse W [W ...] [--as-of 2026-11-28]
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import date, timedelta
from pathlib import Path

import duckdb
import polars as pl

from benchmarks.forecast_accuracy_table import read_warehouse
from pipelines.calendar import load_events, property_calendars
from pipelines.transforms import forecast as fx
from pipelines.transforms.alerts import alerts
from pipelines.transforms.pace import pace
from sandbox.simulator.events_file import write_events_file

NIGHTS = (date(2026, 12, 24), date(2026, 12, 25))


def calendar_of(path: str, otb: pl.DataFrame) -> pl.DataFrame:
    with tempfile.TemporaryDirectory() as folder:
        events_path = Path(folder) / "events.yaml"
        write_events_file(events_path, (1, 2))
        events = load_events(events_path)
    con = duckdb.connect(path, read_only=True)
    try:
        places = con.sql("SELECT property_id::BIGINT AS property_id, code, country, province "
                         "FROM core.property").pl()
    finally:
        con.close()
    first, last = otb["snapshot_date"].min(), otb["stay_date"].max()
    assert isinstance(first, date)
    assert isinstance(last, date)
    return property_calendars(places, first, last, events)


def occupancy(path: str) -> pl.DataFrame:
    con = duckdb.connect(path, read_only=True)
    try:
        found: pl.DataFrame = con.sql(
            "SELECT property_id, stay_date, rooms_sold, room_revenue_net, is_actual "
            "FROM mart.occupancy_daily").pl()
        return found
    finally:
        con.close()


def one_hotel(o: pl.DataFrame, cap: pl.DataFrame, occ: pl.DataFrame, cal: pl.DataFrame,
              as_of: date, code: str) -> None:
    s = fx.ForecastSettings()
    named = cal.filter(pl.col("ly_by_name")).select("property_id", "stay_date")
    print(f"\n{code}: chosen method's WAPE %, last 91 nights realized")
    rows = {}
    for label, calendar in (("before", None), ("after", cal)):
        errors = fx.backtest(o, cap, s, calendar=calendar)
        acc = fx.accuracy(errors, s).filter(pl.col("method") == fx.CHOSEN)
        rows[label] = dict(zip(acc["horizon_days"], acc["wape_pct"], strict=True))
        chosen30 = errors.filter(pl.col("method") == fx.CHOSEN, pl.col("horizon_days") == 30)
        on_named = chosen30.join(named,
                                 on=["property_id", "stay_date"], how="inner")
        miss = float((on_named["rooms_forecast"] - on_named["rooms_actual"]).abs().sum())
        total = float(on_named["rooms_actual"].sum())
        rows[label]["named30"] = round(miss / total * 100, 2) if total else float("nan")
        rows[label]["named_n"] = on_named.height
    print("  horizon  " + "  ".join(f"{h:>6}" for h in fx.HORIZONS) + "  named@30 (nights)")
    for label, r in rows.items():
        print(f"  {label:7}  " + "  ".join(f"{r.get(h, float('nan')):6.2f}" for h in fx.HORIZONS)
              + f"  {r['named30']:6.2f} ({r['named_n']})")
    finals = o.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "stay_date", final="rooms_otb")
    closed = as_of - timedelta(days=1)
    for label, calendar in (("before", None), ("after", cal)):
        daily = fx.forecast_daily(o, cap, as_of_date=as_of, settings=s, calendar=calendar)
        xmas = daily.filter(pl.col("stay_date").is_in(NIGHTS)).join(finals, on="stay_date",
                                                                     how="left")
        p = pace(o, occ, calendar=calendar)
        fired = alerts(o, p, cap, as_of=closed).filter(
            pl.col("stay_date").is_in(NIGHTS), pl.col("alert") == "pace_below_stly")
        for r in xmas.iter_rows(named=True):
            off = (r["rooms_forecast"] / r["final"] - 1) * 100 if r["final"] else float("nan")
            print(f"  {label:7} {r['stay_date']} as of {as_of}: otb {r['rooms_otb']}, forecast "
                  f"{r['rooms_forecast']:.2f} ({r['method']}), ended {r['final']}: "
                  f"{off:+.1f} %")
        print(f"  {label:7} pace_below_stly as of {closed} on 24-25 Dec: "
              + (", ".join(f"{d} {v}" for d, v in zip(fired['stay_date'], fired['message'],
                                                       strict=True)) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", nargs="+", required=True)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 28))
    args = parser.parse_args()
    for path in args.warehouse:
        otb, rooms, codes = read_warehouse(path)
        occ = occupancy(path)
        cal = calendar_of(path, otb)
        print(f"== {path}")
        for pid in sorted(codes):
            one_hotel(otb.filter(pl.col("property_id") == pid),
                      rooms.filter(pl.col("property_id") == pid),
                      occ.filter(pl.col("property_id") == pid),
                      cal.filter(pl.col("property_id") == pid), args.as_of, codes[pid])


if __name__ == "__main__":
    main()
