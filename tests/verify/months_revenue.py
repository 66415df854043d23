"""Study (one-off, issue 49): the months ahead's room revenue, as the flash and `pmsw report
forecast-months` show it, against what each month ended at (docs/flash.md, "How far to trust a
month").

For each warehouse given (a demo's, read as tests/verify/band_replay.py reads it) and each
hotel, as of every `--step`-th day S from a year after the first night to the end of the last
month closed: the month of S and the 3 after it that are closed, each expected as the flash
expects it (the nights before S as `mart.occupancy_daily` holds them, the others as
`forecast_daily` forecasts them as of S: the code checked out, the chosen method, rooms and
`room_revenue_forecast_net`), against how it ended. Prints per hotel and months ahead: months
scored, rooms and revenue WAPE and bias %, and the revenue bias in parts (% of the revenue):
`rooms` (the forecast less the same with the rooms the nights ended with on the books),
`price` (that less the books' revenue at the nights' end), `books` (the books at the nights'
end less the room revenue of `mart.occupancy_daily`).

    uv run --locked --no-sync python -m tests.verify.months_revenue DIR/warehouse.duckdb ...
"""

from __future__ import annotations

import argparse
from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import (
    ForecastSettings,
    _errors,
    _pick,
    _room_revenue,
    choices,
    method_forecasts,
    scored_forecasts,
)
from tests.verify.band_replay import _calendar, _inputs

MONTHS_AHEAD = 3


def study(path: Path, step: int) -> pl.DataFrame:
    """One row per hotel, as-of date and month scored: k, actual and expected rooms and
    revenue, and the revenue parts."""
    con, otb, rooms, codes, events = _inputs(path)
    settings = ForecastSettings()
    rows = []
    try:
        daily = con.sql("SELECT property_id, stay_date, rooms_sold, "
                        "room_revenue_net::DOUBLE AS room_revenue_net "
                        "FROM mart.occupancy_daily").pl()
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            d = daily.filter(pl.col("property_id") == pid)
            first_night = o.filter(pl.col("stay_date") == pl.col("snapshot_date"),
                                   pl.col("rooms_otb") > 0)["stay_date"].min()
            last = o["snapshot_date"].max()
            assert isinstance(first_night, date)
            assert isinstance(last, date)
            last_closed = last.replace(day=1) - timedelta(days=1)
            start = max(first_night + timedelta(days=365), last - timedelta(days=360))
            dates = [last_closed - timedelta(days=k)
                     for k in range(0, (last_closed - start).days + 1, step)]
            wanted = pl.DataFrame({"property_id": [pid] * len(dates), "as_of_date": dates},
                                  schema={"property_id": pl.Int64, "as_of_date": pl.Date})
            errors = _errors(scored_forecasts(o, capacity, settings, calendar), o)
            ahead = list(range((MONTHS_AHEAD + 1) * 31 + 1))
            picked = _pick(method_forecasts(o, capacity, wanted, ahead, settings, calendar),
                           choices(errors, wanted, settings))
            finals = o.filter(pl.col("stay_date") == pl.col("snapshot_date")).select(
                "stay_date", final_rooms=pl.col("rooms_otb").cast(pl.Float64),
                final_revenue=pl.col("revenue_otb_net").cast(pl.Float64))
            nights = (
                picked.with_columns(revenue=_room_revenue())
                .join(finals, on="stay_date", how="left")
                .join(d.select("stay_date", "rooms_sold", "room_revenue_net"), on="stay_date",
                      how="left")
                .with_columns(month=pl.col("stay_date").dt.truncate("1mo"))
            )
            rooms_f, otb_ = pl.col("rooms_forecast"), pl.col("rooms_otb").cast(pl.Float64)
            otb_adr = pl.when(otb_ > 0).then(pl.col("revenue_otb") / otb_).otherwise(0.0)
            adr_more = pl.when(rooms_f > otb_).then(
                (pl.col("revenue") - pl.col("revenue_otb")) / (rooms_f - otb_)).otherwise(otb_adr)
            final = pl.col("final_rooms")
            at_final = pl.when(final >= otb_).then(
                pl.col("revenue_otb") + (final - otb_) * adr_more).otherwise(final * otb_adr)
            ahead_sums = nights.group_by("as_of_date", "month").agg(
                nights=pl.len(), unpriced=pl.col("revenue").is_null().sum(),
                rooms_ahead=rooms_f.sum(), revenue_ahead=pl.col("revenue").sum(),
                part_rooms=(pl.col("revenue") - at_final).sum(),
                part_price=(at_final - pl.col("final_revenue")).sum(),
                part_books=(pl.col("final_revenue") - pl.col("room_revenue_net")).sum(),
                part_books_rooms=(final - pl.col("rooms_sold")).sum())
            months = d.group_by(month=pl.col("stay_date").dt.truncate("1mo")).agg(
                actual_rooms=pl.col("rooms_sold").sum(),
                actual_revenue=pl.col("room_revenue_net").sum(), held=pl.len())
            for s in dates:
                before = d.filter(pl.col("stay_date") < s)
                for k in range(MONTHS_AHEAD + 1):
                    index = s.year * 12 + s.month - 1 + k
                    m = date(index // 12, index % 12 + 1, 1)
                    m_last = date((index + 1) // 12, (index + 1) % 12 + 1, 1) - timedelta(days=1)
                    if m_last > last_closed:
                        break
                    got = ahead_sums.filter(pl.col("as_of_date") == s, pl.col("month") == m)
                    end = months.filter(pl.col("month") == m)
                    if got.height == 0 or end.height == 0 or got["unpriced"][0] > 0 or \
                            got["nights"][0] < (m_last - max(m, s)).days + 1:
                        continue
                    closed = before.filter(pl.col("stay_date") >= m)
                    rows.append({
                        "hotel": f"{path.parent.name} {code}", "code": code, "as_of": s, "k": k,
                        "actual_rooms": float(end["actual_rooms"][0]),
                        "actual_revenue": float(end["actual_revenue"][0]),
                        "rooms": float(closed["rooms_sold"].sum()) + got["rooms_ahead"][0],
                        "revenue": float(closed["room_revenue_net"].sum())
                        + got["revenue_ahead"][0],
                        **{p: got[p][0] for p in ("part_rooms", "part_price", "part_books",
                                                   "part_books_rooms")}})
    finally:
        con.close()
    return pl.DataFrame(rows)


def table(rows: pl.DataFrame, by: str) -> pl.DataFrame:
    pct = 100 / pl.col("actual_revenue").sum()
    return rows.group_by(by, "k").agg(
        months=pl.len(),
        rooms_wape=((pl.col("rooms") - pl.col("actual_rooms")).abs().sum()
                    / pl.col("actual_rooms").sum() * 100).round(2),
        rooms_bias=((pl.col("rooms") - pl.col("actual_rooms")).sum()
                    / pl.col("actual_rooms").sum() * 100).round(2),
        revenue_wape=((pl.col("revenue") - pl.col("actual_revenue")).abs().sum() * pct).round(2),
        revenue_bias=((pl.col("revenue") - pl.col("actual_revenue")).sum() * pct).round(2),
        part_rooms=(pl.col("part_rooms").sum() * pct).round(2),
        part_price=(pl.col("part_price").sum() * pct).round(2),
        part_books=(pl.col("part_books").sum() * pct).round(2),
        books_rooms=(pl.col("part_books_rooms").sum() / pl.col("actual_rooms").sum() * 100)
        .round(2),
    ).sort(by, "k")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--step", type=int, default=3, help="days between as-of dates")
    args = parser.parse_args()
    rows = pl.concat([study(p, args.step) for p in args.warehouses])
    with pl.Config(tbl_rows=100, tbl_cols=20, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, tbl_width_chars=220):
        print(f"as of {rows['as_of'].min()} to {rows['as_of'].max()}, every {args.step} days")
        print(table(rows, "hotel"))
        print(table(rows, "code"))


if __name__ == "__main__":
    main()
