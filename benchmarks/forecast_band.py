"""How often the forecast's 80 % band holds the night, per hotel and horizon (issue 49, item 2).

Reads mart.otb_snapshots and core.rooms of each warehouse given (a demo's, e.g. `pmsw demo
--seed 7 --warehouse DIR/warehouse.duckdb`; its read copy when there is one) and replays the
backtest of the code checked out (pipelines/forecast/logic/methods.py), one property at a
time as the marts build them. Prints per hotel and horizon, over the last 91 nights realized,
the share of nights whose actual rooms fell inside the chosen forecast's band (the
calibrated band, docs/forecast.md) and its mean width in rooms, beside the band it replaced
(the chosen method's own recent errors, else the curve nights' spread: the calibration
switched off), and the pooled share over every warehouse given.

    uv run --locked --no-sync python -m benchmarks.forecast_band DIR/warehouse.duckdb
"""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import polars as pl

from pipelines.forecast.logic.methods import CHOSEN, ForecastSettings, backtest, scored_forecasts

BANDS = {"calibrated": ForecastSettings(),
         "before": ForecastSettings(band_min_nights=10**9)}
"""The band measured, and the one it replaced (no calibration ever has enough nights)."""


def read_warehouse(path: Path) -> tuple[pl.DataFrame, pl.DataFrame, dict[int, str]]:
    """mart.otb_snapshots, the sellable rooms (and every room) per property and the codes,
    from the read copy when there is one."""
    read = path.with_name(path.stem + ".read.duckdb")
    con = duckdb.connect(str(read if read.exists() else path), read_only=True)
    try:
        otb = con.sql("SELECT property_id, snapshot_date, stay_date, rooms_otb, revenue_otb_net "
                      "FROM mart.otb_snapshots").pl()
        codes = {int(pid): str(code) for pid, code in
                 con.sql("SELECT property_id, code FROM core.property").fetchall()}
        rooms = con.sql("SELECT property_id, count(*) FILTER (WHERE sellable)::BIGINT AS rooms, "
                        "count(*)::BIGINT AS rooms_available FROM core.rooms GROUP BY 1").pl()
    finally:
        con.close()
    return otb, rooms, codes


def band_rows(path: Path) -> pl.DataFrame:
    """One row per hotel, band and backtest night of the chosen forecast: hotel, band,
    horizon_days, inside (the actual within the band, bounds included), width (rooms)."""
    otb, rooms, codes = read_warehouse(path)
    parts = []
    for pid in sorted(codes):
        o = otb.filter(pl.col("property_id") == pid)
        cap = rooms.filter(pl.col("property_id") == pid)
        scored = scored_forecasts(o, cap, BANDS["calibrated"])
        for band, settings in BANDS.items():
            parts.append(
                backtest(o, cap, settings, scored=scored).filter(method=CHOSEN).select(
                    "horizon_days", hotel=pl.lit(codes[pid]), band=pl.lit(band),
                    inside=pl.col("rooms_actual").is_between(pl.col("rooms_low"),
                                                             pl.col("rooms_high")),
                    width=pl.col("rooms_high") - pl.col("rooms_low")))
    return pl.concat(parts)


def table(rows: pl.DataFrame) -> str:
    """Markdown: per hotel (and pooled) and horizon, nights, % inside and mean width of each
    band."""
    pooled = rows.with_columns(hotel=pl.lit("all"))
    cells = (
        pl.concat([rows, pooled])
        .group_by("hotel", "horizon_days", "band")
        .agg(nights=pl.len(), pct=pl.col("inside").mean() * 100, width=pl.col("width").mean())
        .sort("hotel", "horizon_days", "band")
    )
    lines = ["| hotel | h | nights | calibrated: % inside (width) | before: % inside (width) |",
             "|---|---:|---:|---:|---:|"]
    for (hotel, horizon), group in cells.group_by("hotel", "horizon_days",
                                                  maintain_order=True):
        by = {r["band"]: r for r in group.iter_rows(named=True)}
        new, old = by["calibrated"], by["before"]
        lines.append(f"| {hotel} | {horizon} | {new['nights']} | {new['pct']:.1f} "
                     f"({new['width']:.1f}) | {old['pct']:.1f} ({old['width']:.1f}) |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouses", nargs="+", type=Path)
    args = parser.parse_args()
    print(table(pl.concat([band_rows(path) for path in args.warehouses])))


if __name__ == "__main__":
    main()
