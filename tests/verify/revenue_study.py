"""Study (one-off, issue 49): the night's room revenue forecast against the night's revenue.

    uv run --locked --no-sync python -m tests.verify.revenue_study DIR/warehouse.duckdb ...

Replays, for each warehouse and hotel, the forecast in use (`chosen`, as the backtest and
mart.forecast_daily make it, the calendar of DIR/demo/events.yaml) at every backtest horizon
for the last `--nights` nights realized, and prints per hotel and horizon the WAPE and bias
(% of the actual) of:

- `rooms`: rooms_forecast against the rooms on the books at the night's end;
- `mart`: room_revenue_forecast_net against room_revenue_net of mart.occupancy_daily (the
  metrics layer's figure: the nights sold and the fees posted that date);
- `books`: the same forecast against the revenue on the books at the night's end
  (mart.otb_snapshots at D), the forecast's own basis;
- `adr`: the revenue forecast with the rooms taken as they ended (only the ADR judged)
  against the books at the night's end: what benchmarks/forecast_adr.py scored at cc7b716.

and the bias split in parts, % of room_revenue_net, summing to `mart`'s bias: `d_rooms`
(the rooms' error priced: forecast - forecast with the rooms as they ended), `d_adr` (the ADR
of the rooms still to come: that - the books at the night's end), `d_books` (the books at
the night's end - the nights' revenue of the metrics), `d_fees` (- the fees posted).
"""

from __future__ import annotations

import argparse
from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.forecast.logic.methods import (
    HORIZONS,
    ForecastSettings,
    _errors,
    _pick,
    _realized,
    _room_revenue,
    choices,
    scored_forecasts,
)
from pipelines.warehouse.frames import query_frame
from tests.verify.band_replay import _calendar, _inputs


def replay(path: Path, nights: int, settings: ForecastSettings,
           young: int | None = None, end: date | None = None) -> pl.DataFrame:
    """One row per hotel, horizon and night: the forecast in use and what the night ended.
    `young`: only the snapshots of the last `young` days (a warehouse that young); `end`:
    only the snapshots up to that date (the warehouse as it was then)."""
    con, otb, rooms, codes, events = _inputs(path)
    if end is not None:
        otb = otb.filter(pl.col("snapshot_date") <= end)
    if young is not None:
        start = otb["snapshot_date"].max() - timedelta(days=young - 1)  # type: ignore[operator]
        otb = otb.filter(pl.col("snapshot_date") >= start, pl.col("stay_date") >= start)
    out = []
    try:
        for pid, code in sorted(codes.items()):
            o = otb.filter(pl.col("property_id") == pid)
            capacity = rooms.filter(pl.col("property_id") == pid)
            calendar = _calendar(con, pid, o, events)
            scored = scored_forecasts(o, capacity, settings, calendar)
            errors = _errors(scored, o)
            as_of = scored.select("property_id", "as_of_date").unique()
            in_use = _pick(scored, choices(errors, as_of, settings)).filter(
                pl.col("days_before").is_in(list(HORIZONS)))
            realized = _realized(o)
            last = realized["stay_date"].max()
            ends = o.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
                "property_id", "stay_date",
                revenue_final=pl.col("revenue_otb_net").cast(pl.Float64))
            metrics = query_frame(
                con, "SELECT property_id, stay_date, room_revenue_net::DOUBLE AS room_revenue_net, "
                "room_revenue_nights_net::DOUBLE AS nights_net, "
                "room_revenue_fees_net::DOUBLE AS fees_net, rooms_sold, rooms_complimentary, "
                "no_shows FROM mart.occupancy_daily WHERE property_id = ?", [pid])
            at_end = pl.col("rooms_actual").cast(pl.Float64)
            out.append(
                in_use.join(realized, on=["property_id", "stay_date"], how="inner")
                .filter((pl.lit(last) - pl.col("stay_date")).dt.total_days() < nights)
                .with_columns(forecast=_room_revenue())
                .with_columns(pl.col("rooms_forecast").alias("rooms_kept"))
                .with_columns(rooms_forecast=at_end)
                .with_columns(rooms_exact=_room_revenue())
                .with_columns(rooms_forecast=pl.col("rooms_kept"))
                .join(ends, on=["property_id", "stay_date"], how="left")
                .join(metrics, on=["property_id", "stay_date"], how="left")
                .select("as_of_date", "stay_date", "days_before", "method", "rooms_otb",
                        "revenue_otb", "pickup_adr", "rooms_forecast", "rooms_actual",
                        "forecast", "rooms_exact", "revenue_final", "room_revenue_net",
                        "nights_net", "fees_net", "rooms_sold", "rooms_complimentary",
                        "no_shows", hotel=pl.lit(f"{path.parent.name} {code}"))
            )
            print(path, code, "replayed", flush=True)
    finally:
        con.close()
    return pl.concat(out)


def table(rows: pl.DataFrame) -> pl.DataFrame:
    """Per hotel and horizon: WAPE / bias % of each measure, and the bias split in parts."""
    def pct(e: pl.Expr, base: str) -> pl.Expr:
        return (e.sum() / pl.col(base).sum() * 100).round(2)
    priced = rows.drop_nulls("forecast")
    return (
        priced.group_by("hotel", "days_before")
        .agg(
            nights=pl.len(),
            rooms_wape=pct((pl.col("rooms_forecast") - pl.col("rooms_actual")).abs(),
                           "rooms_actual"),
            rooms_bias=pct(pl.col("rooms_forecast") - pl.col("rooms_actual"), "rooms_actual"),
            mart_wape=pct((pl.col("forecast") - pl.col("room_revenue_net")).abs(),
                          "room_revenue_net"),
            mart_bias=pct(pl.col("forecast") - pl.col("room_revenue_net"), "room_revenue_net"),
            books_wape=pct((pl.col("forecast") - pl.col("revenue_final")).abs(),
                           "revenue_final"),
            books_bias=pct(pl.col("forecast") - pl.col("revenue_final"), "revenue_final"),
            adr_wape=pct((pl.col("rooms_exact") - pl.col("revenue_final")).abs(),
                         "revenue_final"),
            adr_bias=pct(pl.col("rooms_exact") - pl.col("revenue_final"), "revenue_final"),
            d_rooms=pct(pl.col("forecast") - pl.col("rooms_exact"), "room_revenue_net"),
            d_adr=pct(pl.col("rooms_exact") - pl.col("revenue_final"), "room_revenue_net"),
            d_books=pct(pl.col("revenue_final") - pl.col("nights_net"), "room_revenue_net"),
            d_fees=pct(-pl.col("fees_net"), "room_revenue_net"),
        )
        .sort("hotel", "days_before")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    parser.add_argument("--nights", type=int, default=91, help="the last nights realized")
    parser.add_argument("--young", type=int,
                        help="only the snapshots of the last YOUNG days (a young history)")
    parser.add_argument("--end", type=date.fromisoformat,
                        help="only the snapshots up to this date")
    parser.add_argument("--save", type=Path, help="write the rows to this parquet file")
    args = parser.parse_args()
    settings = ForecastSettings(backtest_days=max(args.nights, 91))
    rows = pl.concat([replay(p, args.nights, settings, args.young, args.end)
                      for p in args.warehouses])
    if args.save:
        rows.write_parquet(args.save)
    with pl.Config(tbl_rows=200, tbl_cols=30, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True, tbl_width_chars=250):
        print(table(rows))


if __name__ == "__main__":
    main()
