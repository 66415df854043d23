"""Marts against history and against change (issue 18, item 5).

The marts are rebuilt whole, per property, after each sync. This measures what that costs one
80-room property as its history grows (1, 2, 3 years; each size in its own process, its peak
RSS its own) and whether the cost depends on how much the sync changed (1 %, 10 %, 100 % of
the room entries given a new version). The figures are benchmarks/bench_marts.py's three
heaviest marts (otb_snapshots, pickup, occupancy_daily) on its synthetic history; each is
printed as a ratio to the same marts in DuckDB SQL in the same process.

    .venv/bin/python -m benchmarks.bench_marts_growth              # 1, 2 and 3 years
    .venv/bin/python -m benchmarks.bench_marts_growth --years 2    # one size, this process
"""

from __future__ import annotations

import tempfile
import time
from datetime import timedelta
from pathlib import Path

import duckdb
import polars as pl

from benchmarks.bench_marts import (
    ROOMS_PER_HOTEL,
    SQL_CHANGES,
    SQL_OCCUPANCY,
    SQL_OTB,
    START,
    TZ,
    WINDOWS,
    current_rooms,
    peak_mib,
    sql_pickup,
    synthetic_versions,
)
from benchmarks.by_years import main_by_years
from pipelines.marts.logic.occupancy import occupancy_daily
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pickup import pickup
from pipelines.marts.logic.stay_nights import stay_nights

CHANGES = (0.01, 0.10, 1.0)


def changed(versions: pl.DataFrame, share: float, at: pl.Expr) -> pl.DataFrame:
    """The history after a sync that gave `share` of the current room entries a new version
    (a 5 % price change) at instant `at`: the old version closed, the new one open."""
    current = versions.filter(pl.col("valid_to").is_null())
    touched = current.filter(pl.col("reservation_room_id").hash(7) % 1000 < int(share * 1000))
    ids = touched["reservation_room_id"]
    closed = touched.with_columns(valid_to=at)
    fresh = touched.with_columns(valid_from=at, total=(pl.col("total") * 105 / 100).cast(
        pl.Decimal(12, 2)))
    kept = versions.filter(~(pl.col("valid_to").is_null() & pl.col("reservation_room_id")
                             .is_in(ids.implode())))
    return pl.concat([kept, closed, fresh])


def polars_build(versions: pl.DataFrame, days: int) -> float:
    ranges = pl.DataFrame({"property_id": [1]}).with_columns(
        first_snapshot=pl.lit(START), last_snapshot=pl.lit(START + timedelta(days=days - 1)))
    rooms = current_rooms(versions)
    room_list = pl.DataFrame({"property_id": [1] * ROOMS_PER_HOTEL,
                              "room_id": list(range(1, ROOMS_PER_HOTEL + 1))}).with_columns(
        room_type_id=pl.lit(1, dtype=pl.Int64), sellable=pl.lit(True))
    props = ranges.select("property_id", business_date=pl.lit(START))
    lines = pl.DataFrame(schema={
        "property_id": pl.Int64, "folio_line_id": pl.Int64, "reservation_id": pl.Int64,
        "reservation_room_id": pl.Int64, "type": pl.String, "posted_on": pl.Date,
        "service_item_id": pl.Int64, "amount_gross": pl.Decimal(12, 2),
        "amount_net": pl.Decimal(12, 2)})
    items = pl.DataFrame(schema={"property_id": pl.Int64, "item_id": pl.Int64,
                                 "department": pl.String})
    avail = pl.DataFrame(schema={
        "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
        "room_type_id": pl.Int64, "total": pl.Int64, "out_of_order": pl.Int64})
    other = pl.DataFrame(schema={"property_id": pl.Int64, "date": pl.Date,
                                 "revenue_net": pl.Decimal(18, 2)})
    started = time.perf_counter()
    otb_snapshots(versions, ranges, TZ)
    pickup(versions, ranges, WINDOWS, TZ)
    occupancy_daily(stay_nights(rooms, props, lines, items), room_list, avail, props, other)
    return time.perf_counter() - started


def sql_build(versions: pl.DataFrame, days: int) -> float:
    ranges = pl.DataFrame({"property_id": [1]}).with_columns(
        first_snapshot=pl.lit(START), last_snapshot=pl.lit(START + timedelta(days=days - 1)))
    con = duckdb.connect()
    with tempfile.TemporaryDirectory() as tmp:
        for name, frame in (("versions", versions), ("ranges", ranges)):
            path = Path(tmp) / f"{name}.parquet"
            frame.write_parquet(path)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{path}')")
    started = time.perf_counter()
    for sql in (SQL_CHANGES, SQL_OTB, sql_pickup(), SQL_OCCUPANCY):
        con.execute(sql)
    seconds = time.perf_counter() - started
    con.close()
    return seconds


def one_size(years: int) -> None:
    days = 365 * years
    versions = synthetic_versions(1, years)
    at = pl.lit(START + timedelta(days=days - 1)).cast(pl.Datetime("us")).dt.replace_time_zone(
        "UTC")
    sql = sql_build(versions, days)
    polars_build(versions, days)  # a first run warms polars' caches; not counted
    full = polars_build(versions, days)
    print(f"growth: years={years} versions={versions.height} change=0 polars={full:.3f} "
          f"sql={sql:.3f} ratio={full / sql:.2f}")
    for share in CHANGES:
        after = changed(versions, share, at)
        seconds = polars_build(after, days)
        print(f"growth: years={years} versions={after.height} change={share:g} "
              f"polars={seconds:.3f} sql={sql:.3f} ratio={seconds / sql:.2f} "
              f"vs_unchanged={seconds / full:.2f}")
    print(f"growth: years={years} peak_rss_mib={peak_mib():.0f}")


def main() -> None:
    main_by_years("benchmarks.bench_marts_growth", __doc__.splitlines()[0], "growth", one_size)


if __name__ == "__main__":
    main()
