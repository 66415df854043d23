"""The accuracy table of docs/forecast.md from a warehouse, straight from the forecast code.

Reads mart.otb_snapshots and the sellable rooms of core.rooms (as pipelines/marts/build.py
does), runs `forecast.backtest` and `forecast.accuracy` of the code checked out (not the
mart.forecast_accuracy the warehouse holds, which is that of the code that built it) and
prints, per hotel and horizon, the WAPE % (MAE rooms) over the last 91 nights realized of
`chosen`, `season_books`, `last_year_season` and `last_year`, how much lower the chosen
method's error is than last year's with its 90 % interval (mart.forecast_accuracy's
better_than_last_year columns, as `pmsw report forecast-accuracy` gives them), the nights
scored (in brackets those of `season_books`, fewer when it had too few training nights: its
WAPE is then over those nights only), and the share of them inside the chosen forecast's band
(band_coverage_pct).

    python -m benchmarks.forecast_accuracy_table --warehouse data/warehouse.read.duckdb
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import duckdb
import polars as pl

from pipelines.forecast.logic import methods as fx

COLUMNS = (fx.CHOSEN, "season_books", "last_year_season", "last_year")


def tables(otb: pl.DataFrame, rooms: pl.DataFrame,
           settings: fx.ForecastSettings) -> pl.DataFrame:
    """mart.forecast_accuracy of every property of `otb`, one property at a time (as the
    marts build it)."""
    parts = [fx.accuracy(fx.backtest(otb.filter(pl.col("property_id") == pid),
                                     rooms.filter(pl.col("property_id") == pid), settings),
                         settings)
             for pid in sorted(set(otb["property_id"]))]
    return pl.concat(parts)


def markdown(table: pl.DataFrame, codes: dict[int, str]) -> str:
    lines = []
    for pid in sorted(set(table["property_id"])):
        rows = table.filter(pl.col("property_id") == pid)
        first, last = str(rows["first_night"].min()), str(rows["last_night"].max())
        lines += ["", f"{codes[pid]}: WAPE % (MAE rooms), nights {first} to {last}", "",
                  "| horizon | " + " | ".join(COLUMNS)
                  + " | chosen vs last_year [90 % interval] | nights (season_books) "
                  "| chosen: nights inside its band |",
                  "|---:|" + "---:|" * (len(COLUMNS) + 3)]
        for h in fx.HORIZONS:
            cell = {r["method"]: r for r in rows.filter(horizon_days=h).iter_rows(named=True)}
            shown = [f"{cell[m]['wape_pct']:.2f} ({cell[m]['mae_rooms']:.2f})" if m in cell
                     else "-" for m in COLUMNS]
            chosen = cell.get(fx.CHOSEN)
            better = "-" if chosen is None or chosen["better_than_last_year_pct"] is None else (
                f"{chosen['better_than_last_year_pct']:+.1f} %" + (
                    "" if chosen["better_than_last_year_low_pct"] is None else
                    f" [{chosen['better_than_last_year_low_pct']:+.1f}, "
                    f"{chosen['better_than_last_year_high_pct']:+.1f}]"))
            books = cell.get("season_books")
            nights = "-" if chosen is None else str(chosen["forecasts"]) + (
                "" if books is None else f" ({books['forecasts']})")
            band = "-" if chosen is None or chosen["band_coverage_pct"] is None else \
                f"{chosen['band_coverage_pct']:.1f} %"
            lines.append(f"| {h} | " + " | ".join(shown) + f" | {better} | {nights} | {band} |")
    return "\n".join(lines)


def read_warehouse(path: str) -> tuple[pl.DataFrame, pl.DataFrame, dict[int, str]]:
    """mart.otb_snapshots, the sellable rooms (and every room) per property and the codes."""
    con = duckdb.connect(path, read_only=True)
    try:
        otb = con.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, revenue_otb_net "
                      "FROM mart.otb_snapshots").pl()
        codes = dict(con.sql("SELECT property_id, code FROM core.property").fetchall())
        rooms = con.sql("SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT AS rooms, "
                        "count(*)::BIGINT AS rooms_available FROM core.rooms GROUP BY 1").pl()
    finally:
        con.close()
    return otb, rooms, codes


def each_property(paths: list[str],
                  rows: Callable[[pl.DataFrame, pl.DataFrame], pl.DataFrame],
                  ) -> tuple[pl.DataFrame, dict[int, str]]:
    """`rows(otb, rooms)` of every property of every warehouse, one property at a time (as
    the marts build them), pooled; with the property codes."""
    parts, codes = [], {}
    for path in paths:
        otb, rooms, names = read_warehouse(path)
        codes.update(names)
        parts += [rows(otb.filter(pl.col("property_id") == pid),
                       rooms.filter(pl.col("property_id") == pid)) for pid in sorted(names)]
    return pl.concat(parts), codes


def pooled_main(description: str,
                rows: Callable[[pl.DataFrame, pl.DataFrame], pl.DataFrame],
                table: Callable[[pl.DataFrame, dict[int, str]], str]) -> None:
    """The command line of a benchmark that pools `rows` over `--warehouse W [W ...]`
    (`each_property`) and prints `table` of them."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--warehouse", required=True, nargs="+", help="warehouses the demo made")
    args = parser.parse_args()
    started = time.perf_counter()
    pooled, codes = each_property(args.warehouse, rows)
    print(table(pooled, codes))
    print(f"\n{time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", required=True, help="a warehouse the demo made")
    args = parser.parse_args()
    otb, rooms, codes = read_warehouse(args.warehouse)
    started = time.perf_counter()
    table = tables(otb, rooms, fx.ForecastSettings())
    print(markdown(table, codes).lstrip("\n"))
    print(f"\nbacktest + accuracy: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
