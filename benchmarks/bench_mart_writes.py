"""Writing the marts after a sync: only what changed, against replacing a property's rows whole
(issue 18, item 5).

One synthetic 80-room property (bench_marts's history) at 1, 2 and 3 years, each size in its
own process (its peak RSS its own). Its three largest marts (otb_snapshots, pickup, pace) are
built by the transforms and stored in a real warehouse file by the writer at its default memory
limit. Then a sync gives 1 %, 10 % or 100 % of the room entries a new version (a 5 % price
change, bench_marts_growth.changed) on the last day, or the accommodation VAT changes from 10
to 22 % (every revenue differs: the most a rebuild can write). The marts are built again and
written twice from the same stored state: by `pipelines.marts.replace_rows` (the rows that
changed) and, as the baseline in the same process, by the former whole replace (DELETE the
property's rows, INSERT every row). Transform time is not counted here (bench_marts_growth
measures it).

    .venv/bin/python -m benchmarks.bench_mart_writes              # 1, 2 and 3 years
    .venv/bin/python -m benchmarks.bench_mart_writes --years 2    # one size, this process
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl

from benchmarks.bench_marts import START, TZ, WINDOWS, peak_mib, synthetic_versions
from benchmarks.bench_marts_growth import CHANGES, changed
from benchmarks.by_years import main_by_years
from pipelines.marts import replace_rows
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import pace
from pipelines.marts.logic.pickup import pickup
from pipelines.warehouse import connect, insert_frame, transaction
from pipelines.warehouse.connection import writer_memory_limit

Marts = dict[str, pl.DataFrame]


def build(versions: pl.DataFrame, days: int, vat_pct: int = 10) -> Marts:
    ranges = pl.DataFrame({"property_id": [1]}).with_columns(
        first_snapshot=pl.lit(START), last_snapshot=pl.lit(START + timedelta(days=days - 1)))
    otb = otb_snapshots(versions, ranges, TZ, Decimal(vat_pct))
    return {"otb_snapshots": otb, "pickup": pickup(versions, ranges, WINDOWS, TZ,
                                                   Decimal(vat_pct)),
            "pace": pace(otb)}


def replace_whole(conn: duckdb.DuckDBPyConnection, table: str, rows: pl.DataFrame) -> int:
    """The baseline: the write every mart build did before pipelines.marts.write diffed."""
    with transaction(conn):
        conn.execute(f"DELETE FROM mart.{table} WHERE property_id = 1")
        insert_frame(conn, f"mart.{table}", rows)
    return rows.height


def replace_changed(conn: duckdb.DuckDBPyConnection, table: str, rows: pl.DataFrame) -> int:
    written = replace_rows(conn, table, 1, rows)
    return written.inserted + written.deleted


def timed(conn: duckdb.DuckDBPyConnection, marts: Marts,
          write: Callable[[duckdb.DuckDBPyConnection, str, pl.DataFrame], int]
          ) -> tuple[float, int]:
    conn.execute("CHECKPOINT")
    started = time.perf_counter()
    rows = sum(write(conn, table, frame) for table, frame in marts.items())
    return time.perf_counter() - started, rows


def one_size(years: int) -> None:
    days = 365 * years
    versions = synthetic_versions(1, years)
    at = pl.lit(START + timedelta(days=days - 1)).cast(pl.Datetime("us")).dt.replace_time_zone(
        "UTC")
    before = build(versions, days)
    with tempfile.TemporaryDirectory() as tmp:
        conn = connect(Path(tmp) / "warehouse.duckdb")
        try:
            timed(conn, before, replace_whole)
            stored = sum(f.height for f in before.values())
            afters = [(f"{share:g}", build(changed(versions, share, at), days))
                      for share in CHANGES]
            afters.append(("vat", build(versions, days, vat_pct=22)))  # every revenue differs
            for change, after in afters:
                whole, whole_rows = timed(conn, after, replace_whole)
                timed(conn, before, replace_whole)
                diff, diff_rows = timed(conn, after, replace_changed)
                timed(conn, before, replace_whole)
                print(f"writes: years={years} rows={stored} change={change} "
                      f"whole={whole:.3f} whole_rows={whole_rows} changed={diff:.3f} "
                      f"changed_rows={diff_rows} ratio={diff / whole:.2f}")
        finally:
            conn.close()
    print(f"writes: years={years} peak_rss_mib={peak_mib():.0f} "
          f"writer_memory={writer_memory_limit()}")


def main() -> None:
    main_by_years("benchmarks.bench_mart_writes", __doc__.splitlines()[0], "writes", one_size)


if __name__ == "__main__":
    main()
