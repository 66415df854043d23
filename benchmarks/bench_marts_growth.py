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

import time
from datetime import timedelta

import duckdb
import polars as pl

from benchmarks import bench_marts as bm
from benchmarks.by_years import main_by_years
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pickup import pickup

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
    given = bm.inputs(1, days)
    rooms = bm.current_rooms(versions)
    started = time.perf_counter()
    otb_snapshots(versions, given.ranges, bm.TZ)
    pickup(versions, given.ranges, bm.WINDOWS, bm.TZ)
    bm.occupancy(rooms, given)
    return time.perf_counter() - started


def sql_build(versions: pl.DataFrame, days: int) -> float:
    con = duckdb.connect()
    bm.to_duckdb(con, versions=versions, ranges=bm.inputs(1, days).ranges)
    started = time.perf_counter()
    for sql in (bm.SQL_CHANGES, bm.SQL_OTB, bm.sql_pickup(), bm.SQL_OCCUPANCY):
        con.execute(sql)
    seconds = time.perf_counter() - started
    con.close()
    return seconds


def one_size(years: int) -> None:
    days = 365 * years
    versions = bm.synthetic_versions(1, years)
    at = pl.lit(bm.START + timedelta(days=days - 1)).cast(pl.Datetime("us")).dt.replace_time_zone(
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
    print(f"growth: years={years} peak_rss_mib={bm.peak_mib():.0f}")


def main() -> None:
    main_by_years("benchmarks.bench_marts_growth", __doc__.splitlines()[0], "growth", one_size)


if __name__ == "__main__":
    main()
