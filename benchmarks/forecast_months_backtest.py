"""Where the months landed: `pmsw report forecast-months` backtested.

The months view says how each month ahead is expected to end: its closed nights as
mart.occupancy_daily holds them, the others from mart.forecast_daily (pipelines/reports/
periods.py). This replays it on a warehouse's history: as of every `--step`th day S of the
scored range (each with the forecast `forecast_daily` makes as of S from the snapshots up to
S, so nothing after S is read), the expected rooms sold and net room revenue of the month of S
and of the `--months` after it, against how each month ended (mart.occupancy_daily over the
whole month, as the report shows a closed month). Beside it, three month forecasts a revenue
manager makes without a model, each from what was known as of S:

- `last_year_pickup`: the closed nights actual, the nights ahead on the books plus what the
  nights 364 days earlier still picked up from the same days before (rooms and revenue), the
  revenue manager's classic month forecast;
- `last_year`: the same calendar month a year earlier as it ended (the months view's
  "last year" columns);
- `on_books`: the closed nights actual and the nights ahead as they stand on the books (no
  pickup: how much of the month is still to come).

Per warehouse, hotel and months ahead k (0 = the as-of date's month): the month-forecasts
scored, WAPE (sum |expected - actual| / sum actual) and bias (sum (expected - actual) / sum
actual) in %, of rooms sold and of net room revenue; with several warehouses, their mean.

Then the forecast's revenue bias split in three parts that add up to it (% of the actual
revenue), over the nights still ahead as of S (the closed nights are actual on both sides):

- `rooms`: the forecast's revenue less what the same forecast gives with the rooms the nights
  ended with on the books (`forecast_daily`'s revenue is the books' revenue plus the rooms
  still to come at its ADR of them: that ADR, on the rooms that did come);
- `price`: that revenue less the books' revenue at the nights' end: the ADR of the rooms
  still to come, against what they paid;
- `books_vs_sold`: the books' revenue at the nights' end less the room revenue
  mart.occupancy_daily shows (no-shows, complimentary rooms, rates changed at the desk).
The scored months are those wholly closed by the last snapshot; the as-of dates begin a year
after the first night the warehouse holds (the forecast's last-year methods and the
`last_year` month need a year of nights).

    python -m benchmarks.forecast_months_backtest \
        --warehouse /tmp/seeds/seed-{1,2,3}/warehouse.read.duckdb
"""

from __future__ import annotations

import argparse
import time
from datetime import date, timedelta

import duckdb
import polars as pl

from benchmarks.forecast_accuracy_table import read_warehouse
from pipelines.forecast.logic import methods as fx

METHODS = ("forecast", "last_year_pickup", "last_year", "on_books")
MEASURES = ("rooms", "revenue")


def read(path: str) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, dict[int, str]]:
    """mart.otb_snapshots, the sellable rooms and the property codes (`read_warehouse`), and
    mart.occupancy_daily (rooms sold, net room revenue)."""
    otb, rooms, codes = read_warehouse(path)
    con = duckdb.connect(path, read_only=True)
    try:
        daily = con.sql("SELECT property_id, stay_date, rooms_sold, "
                        "room_revenue_net::DOUBLE AS room_revenue_net "
                        "FROM mart.occupancy_daily").pl()
    finally:
        con.close()
    return otb, rooms, daily, codes


def month_first(day: date, ahead: int = 0) -> date:
    index = day.year * 12 + day.month - 1 + ahead
    return date(index // 12, index % 12 + 1, 1)


def month_last(first: date) -> date:
    return month_first(first, 1) - timedelta(days=1)


def as_of_dates(otb: pl.DataFrame, daily: pl.DataFrame, step: int) -> tuple[list[date], date]:
    """Every `step`th day back from the last closed month's end, to a year after the first
    night mart.occupancy_daily holds (so the forecast has its last-year methods, as on the
    nights #17 scores, and each month its same month a year earlier); and that month's end."""
    first, last = daily["stay_date"].min(), otb["snapshot_date"].max()
    assert isinstance(first, date)
    assert isinstance(last, date)
    last_closed = month_first(last) - timedelta(days=1)
    start = first + timedelta(days=365)
    days = []
    day = last_closed
    while day >= start:
        days.append(day)
        day -= timedelta(days=step)
    return sorted(days), last_closed


def _sum(frame: pl.DataFrame, first: date, last: date, rooms: str, revenue: str
         ) -> tuple[float, float]:
    part = frame.filter(pl.col("stay_date").is_between(first, last))
    return float(part[rooms].sum()), float(part[revenue].sum())


def month_forecasts(as_of: date, ahead: pl.DataFrame, daily: pl.DataFrame, otb: pl.DataFrame,
                    months: int, last_closed: date) -> list[dict[str, object]]:
    """One row per month k = 0..months of as_of (wholly closed by last_closed): the actual
    month and each of METHODS' expected month, rooms and revenue. `ahead`: forecast_daily as
    of as_of; `daily`, `otb`: one property's."""
    year_ago = as_of - timedelta(days=364)
    then = otb.filter(pl.col("snapshot_date") == year_ago).select(
        stay_date=pl.col("stay_date") + pl.duration(days=364),
        ly_rooms_then="rooms_otb", ly_revenue_then=pl.col("revenue_otb_net").cast(pl.Float64))
    ended = otb.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        stay_date=pl.col("stay_date") + pl.duration(days=364),
        ly_rooms_final="rooms_otb", ly_revenue_final=pl.col("revenue_otb_net").cast(pl.Float64))
    finals = otb.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "stay_date", final_rooms="rooms_otb",
        final_revenue=pl.col("revenue_otb_net").cast(pl.Float64))
    nights = ahead.join(then, on="stay_date", how="left").join(ended, on="stay_date",
                                                                how="left").join(
        finals, on="stay_date", how="left").with_columns(
        ly_rooms=pl.col("rooms_otb") + pl.col("ly_rooms_final") - pl.col("ly_rooms_then"),
        ly_revenue=pl.col("revenue_otb_net").cast(pl.Float64) + pl.col("ly_revenue_final")
        - pl.col("ly_revenue_then"),
        revenue_otb=pl.col("revenue_otb_net").cast(pl.Float64))
    rows: list[dict[str, object]] = []
    for k in range(months + 1):
        first = month_first(as_of, k)
        last = month_last(first)
        if last > last_closed:
            break
        actual = _sum(daily, first, last, "rooms_sold", "room_revenue_net")
        closed = _sum(daily, first, as_of - timedelta(days=1), "rooms_sold",
                      "room_revenue_net")
        rest = nights.filter(pl.col("stay_date").is_between(max(first, as_of), last))
        if rest.height < (last - max(first, as_of)).days + 1:
            continue  # the forecast does not reach the month's end
        ly_first = first.replace(year=first.year - 1)
        expected = {
            "forecast": ("rooms_forecast", "room_revenue_forecast_net"),
            "last_year_pickup": ("ly_rooms", "ly_revenue"),
            "on_books": ("rooms_otb", "revenue_otb"),
        }
        row: dict[str, object] = {"as_of": as_of, "k": k, "month": first,
                                  "actual_rooms": actual[0], "actual_revenue": actual[1],
                                  **revenue_parts(rest, daily)}
        for method, (rooms, revenue) in expected.items():
            missing = rest[rooms].null_count() > 0
            row[f"{method}_rooms"] = None if missing else closed[0] + float(rest[rooms].sum())
            row[f"{method}_revenue"] = None if missing else \
                closed[1] + float(rest[revenue].sum())
        ly = _sum(daily, ly_first, month_last(ly_first), "rooms_sold", "room_revenue_net")
        held = daily.filter(pl.col("stay_date").is_between(ly_first, month_last(ly_first)))
        whole = held.height == (month_last(ly_first) - ly_first).days + 1
        row["last_year_rooms"] = ly[0] if whole else None
        row["last_year_revenue"] = ly[1] if whole else None
        rows.append(row)
    return rows


def revenue_parts(rest: pl.DataFrame, daily: pl.DataFrame) -> dict[str, float]:
    """The forecast's revenue error over the nights `rest` (forecast_daily's rows joined to
    their final books: final_rooms, final_revenue) in three parts adding up to it (the
    module's docstring): part_rooms, part_price, part_books_vs_sold."""
    otb = pl.col("rooms_otb").cast(pl.Float64)
    rooms, final = pl.col("rooms_forecast"), pl.col("final_rooms").cast(pl.Float64)
    revenue = pl.col("room_revenue_forecast_net").cast(pl.Float64)
    otb_adr = pl.when(otb > 0).then(pl.col("revenue_otb") / otb).otherwise(0.0)
    # forecast_daily: revenue_otb + (rooms - otb) x the ADR of the rooms to come, when
    # rooms >= otb; rooms x the books' ADR below them
    adr_more = pl.when(rooms > otb).then((revenue - pl.col("revenue_otb")) / (rooms - otb)
                                         ).otherwise(otb_adr)
    at_final = pl.when(final >= otb).then(pl.col("revenue_otb") + (final - otb) * adr_more
                                          ).otherwise(final * otb_adr)
    sums = rest.join(daily.select("stay_date", "room_revenue_net"), on="stay_date",
                     how="left").select(
        part_rooms=(revenue - at_final).sum(),
        part_price=(at_final - pl.col("final_revenue")).sum(),
        part_books_vs_sold=(pl.col("final_revenue") - pl.col("room_revenue_net")).sum())
    return {k: float(v) for k, v in sums.row(0, named=True).items()}


def scores(rows: pl.DataFrame) -> pl.DataFrame:
    """Per hotel, months ahead and method: months scored, WAPE and bias % of rooms and
    revenue."""
    parts = []
    for method in METHODS:
        both = rows.drop_nulls([f"{method}_rooms", f"{method}_revenue"])
        parts.append(both.group_by("hotel", "k").agg(
            pl.lit(method).alias("method"), pl.len().alias("months"),
            *[((pl.col(f"{method}_{m}") - pl.col(f"actual_{m}")).abs().sum()
               / pl.col(f"actual_{m}").sum() * 100).round(2).alias(f"{m}_wape_pct")
              for m in MEASURES],
            *[((pl.col(f"{method}_{m}") - pl.col(f"actual_{m}")).sum()
               / pl.col(f"actual_{m}").sum() * 100).round(2).alias(f"{m}_bias_pct")
              for m in MEASURES]))
    return pl.concat(parts).sort("hotel", "k", pl.col("method").replace_strict(
        {m: i for i, m in enumerate(METHODS)}, return_dtype=pl.Int32))


PARTS = ("rooms", "price", "books_vs_sold")


def revenue_split(rows: pl.DataFrame) -> pl.DataFrame:
    """Per hotel and months ahead: the forecast's revenue bias and its parts, in % of the
    actual revenue of the months scored."""
    both = rows.drop_nulls(["forecast_rooms", "forecast_revenue"])
    actual = pl.col("actual_revenue").sum()
    return both.group_by("hotel", "k").agg(
        pl.len().alias("months"),
        ((pl.col("forecast_revenue") - pl.col("actual_revenue")).sum() / actual * 100)
        .round(2).alias("revenue_bias_pct"),
        *[(pl.col(f"part_{p}").sum() / actual * 100).round(2).alias(f"{p}_pct")
          for p in PARTS]).sort("hotel", "k")


Column = tuple[str, str, str]
"""A markdown column: its header, the table's column, the format of its cells."""
SCORE_COLUMNS: tuple[Column, ...] = (
    ("hotel", "hotel", "s"), ("months ahead", "k", "d"), ("method", "method", "s"),
    ("months scored", "months", "d"), ("rooms WAPE %", "rooms_wape_pct", ".2f"),
    ("rooms bias %", "rooms_bias_pct", "+.2f"), ("revenue WAPE %", "revenue_wape_pct", ".2f"),
    ("revenue bias %", "revenue_bias_pct", "+.2f"))
SPLIT_COLUMNS: tuple[Column, ...] = (
    ("hotel", "hotel", "s"), ("months ahead", "k", "d"), ("months scored", "months", "d"),
    ("revenue bias %", "revenue_bias_pct", "+.2f"), ("rooms part %", "rooms_pct", "+.2f"),
    ("price part %", "price_pct", "+.2f"), ("books vs sold part %", "books_vs_sold_pct", "+.2f"))


def markdown(table: pl.DataFrame, columns: tuple[Column, ...] = SCORE_COLUMNS) -> str:
    lines = ["| " + " | ".join(head for head, _, _ in columns) + " |",
             "|" + "|".join("---" if cell == "s" else "---:" for _, _, cell in columns) + "|"]
    lines += ["| " + " | ".join(format(r[key], cell) for _, key, cell in columns) + " |"
              for r in table.iter_rows(named=True)]
    return "\n".join(lines)


def backtest(path: str, step: int, months: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The scores of one warehouse (`scores`) and the forecast's revenue split
    (`revenue_split`)."""
    otb, rooms, daily, codes = read(path)
    days, last_closed = as_of_dates(otb, daily, step)
    if not days:
        raise SystemExit(f"{path}: no as-of date a year after the first night with a whole "
                         f"month closed after it (months closed to {last_closed})")
    print(f"{path}: {len(days)} as-of dates {days[0]} .. {days[-1]}, months closed to "
          f"{last_closed}", flush=True)
    settings = fx.ForecastSettings()
    rows: list[dict[str, object]] = []
    for pid, code in sorted(codes.items()):
        p_otb = otb.filter(pl.col("property_id") == pid)
        p_rooms = rooms.filter(pl.col("property_id") == pid)
        p_daily = daily.filter(pl.col("property_id") == pid)
        for as_of in days:
            ahead = fx.forecast_daily(p_otb, p_rooms, as_of_date=as_of, settings=settings)
            rows += [{"hotel": code, **row} for row in month_forecasts(
                as_of, ahead, p_daily, p_otb, months, last_closed)]
    frame = pl.DataFrame(rows)
    return scores(frame), revenue_split(frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True, nargs="+",
                        help="one or more warehouses (draws of the demo): each, then the mean")
    parser.add_argument("--step", type=int, default=1, help="days between as-of dates")
    parser.add_argument("--months", type=int, default=3, help="months after the as-of month")
    args = parser.parse_args()
    started = time.perf_counter()
    tables, splits = [], []
    for path in args.warehouse:
        table, split = backtest(path, args.step, args.months)
        tables.append(table)
        splits.append(split)
        print(markdown(table) + "\n", flush=True)
        print("The forecast's revenue bias in parts\n\n" + markdown(split, SPLIT_COLUMNS) + "\n",
              flush=True)
    if len(tables) > 1:
        mean = pl.concat(tables).group_by("hotel", "k", "method", maintain_order=True).agg(
            pl.col("months").sum(), pl.col("^.*_pct$").mean())
        print(f"Mean of the {len(tables)} warehouses (months scored: their sum)\n")
        print(markdown(mean) + "\n")
        parts = pl.concat(splits).group_by("hotel", "k", maintain_order=True).agg(
            pl.col("months").sum(), pl.col("^.*_pct$").mean())
        print("The forecast's revenue bias in parts, mean\n\n" + markdown(parts, SPLIT_COLUMNS))
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
