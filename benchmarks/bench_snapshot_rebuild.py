"""The snapshot marts after a sync: computed from the first changed day, against computed whole
(issue 18, item 5).

One synthetic 80-room property (bench_marts's history) at 1, 2 and 3 years, each size in its
own process (its peak RSS its own). Its snapshot marts (otb_snapshots, pickup, pace) are built
whole and stored, with their inputs, in a real warehouse file by the writer at its default
memory limit. Then a sync gives 1 %, 10 % or 100 % of the room entries a new version (a 5 %
price change, bench_marts_growth.changed) on the last day, or the accommodation VAT changes
from 10 to 22 % (every snapshot differs). From the same stored state the marts are rebuilt
twice, compute and write timed together:

- whole, the baseline in the same process: what every build did before this benchmark's
  commit (each mart computed whole, pace from the whole stored otb_snapshots, the rows that
  differ written by `replace_rows`);
- from the first changed day, as `pipelines.marts.build` now does: the day digests of the
  inputs (`pipelines.marts.logic.snapshot_inputs`) compared with the stored ones, the snapshots
  from the first changed day computed (pace from the stored otb_snapshots it needs), and only
  the stored rows from that day on compared and written (`replace_rows` with `Since`).

    .venv/bin/python -m benchmarks.bench_snapshot_rebuild              # 1, 2 and 3 years
    .venv/bin/python -m benchmarks.bench_snapshot_rebuild --years 2    # one size, here
"""

from __future__ import annotations

import tempfile
import time
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl

from benchmarks.bench_marts import HORIZON, START, TZ, WINDOWS, peak_mib, synthetic_versions
from benchmarks.bench_marts_growth import CHANGES, changed
from benchmarks.by_years import main_by_years
from pipelines.marts.build import SNAPSHOT_MARTS
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import STLY_DAYS, pace
from pipelines.marts.logic.pickup import pickup
from pipelines.marts.logic.snapshot_inputs import book_days, pace_inputs, rebuild_start, salted
from pipelines.marts.read import kept_inputs, mart
from pipelines.marts.write import replace_rows
from pipelines.warehouse import connect
from pipelines.warehouse.connection import writer_memory_limit

NO_ACTUALS = pl.DataFrame(schema={"property_id": pl.Int64, "stay_date": pl.Date,
                                  "rooms_sold": pl.Int64,
                                  "room_revenue_net": pl.Decimal(18, 2),
                                  "is_actual": pl.Boolean})


class History:
    """The property's room versions at one VAT, and what the marts build from them."""

    def __init__(self, versions: pl.DataFrame, days: int, vat_pct: int = 10) -> None:
        self.versions = versions
        self.vat = Decimal(vat_pct)
        self.ranges = pl.DataFrame({"property_id": [1]}).with_columns(
            first_snapshot=pl.lit(START), last_snapshot=pl.lit(START + timedelta(days=days - 1)))

    def inputs(self, name: str) -> pl.DataFrame:
        days = book_days(self.versions, self.ranges, TZ)
        settings = [TZ, self.vat, self.ranges.select("first_snapshot").rows(), HORIZON]
        if name == "pickup":
            settings.append(WINDOWS)
        return salted(days, [name, *settings])

    def build(self, conn: duckdb.DuckDBPyConnection, name: str,
              start: date | None) -> pl.DataFrame:
        if name == "otb_snapshots":
            return otb_snapshots(self.versions, self.ranges, TZ, self.vat, HORIZON, start)
        if name == "pickup":
            return pickup(self.versions, self.ranges, WINDOWS, TZ, self.vat, HORIZON, start)
        if start is None:
            return pace(mart(conn, "otb_snapshots", 1), NO_ACTUALS)
        stly = start - timedelta(days=STLY_DAYS)
        return pace(mart(conn, "otb_snapshots", 1, "snapshot_date >= ?", [stly]), NO_ACTUALS,
                    start)


def pace_now(conn: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    otb = kept_inputs(conn, "otb_snapshots", 1)
    assert otb is not None
    return pace_inputs(otb, NO_ACTUALS, HORIZON, STLY_DAYS)


def store_whole(conn: duckdb.DuckDBPyConnection, history: History) -> None:
    """The state after the previous sync: every mart built whole, stored with its inputs."""
    for name in SNAPSHOT_MARTS:
        inputs = pace_now(conn) if name == "pace" else history.inputs(name)
        replace_rows(conn, name, 1, history.build(conn, name, None), inputs=inputs)


def rebuild_whole(conn: duckdb.DuckDBPyConnection, history: History) -> int:
    computed = 0
    for name in SNAPSHOT_MARTS:
        rows = history.build(conn, name, None)
        replace_rows(conn, name, 1, rows)
        computed += rows.height
    return computed


def rebuild_from_changed_day(conn: duckdb.DuckDBPyConnection,
                             history: History) -> tuple[int, date | None]:
    computed, first = 0, None
    for name in SNAPSHOT_MARTS:
        now = pace_now(conn) if name == "pace" else history.inputs(name)
        start = rebuild_start(kept_inputs(conn, name, 1), now)
        rows = history.build(conn, name, start)
        since = None if start is None else SNAPSHOT_MARTS[name].since(start)
        replace_rows(conn, name, 1, rows, since=since, inputs=now)
        computed += rows.height
        first = start if name == "otb_snapshots" else first
    return computed, first


def one_size(years: int) -> None:
    days = 365 * years
    versions = synthetic_versions(1, years)
    at = pl.lit(START + timedelta(days=days - 1)).cast(pl.Datetime("us")).dt.replace_time_zone(
        "UTC")
    before = History(versions, days)
    afters = [(f"{share:g}", History(changed(versions, share, at), days)) for share in CHANGES]
    afters.append(("vat", History(versions, days, vat_pct=22)))
    with tempfile.TemporaryDirectory() as tmp:
        conn = connect(Path(tmp) / "warehouse.duckdb")
        try:
            store_whole(conn, before)
            stored = sum(int(conn.execute(f"SELECT count(*) FROM mart.{name}").fetchall()[0][0])
                         for name in SNAPSHOT_MARTS)
            for change, after in afters:
                conn.execute("CHECKPOINT")
                started = time.perf_counter()
                whole_rows = rebuild_whole(conn, after)
                whole = time.perf_counter() - started
                store_whole(conn, before)
                conn.execute("CHECKPOINT")
                started = time.perf_counter()
                part_rows, first = rebuild_from_changed_day(conn, after)
                part = time.perf_counter() - started
                store_whole(conn, before)
                print(f"snapshots: years={years} rows={stored} change={change} "
                      f"whole={whole:.3f} whole_computed={whole_rows} from_changed={part:.3f} "
                      f"computed={part_rows} first_day={first or 'all'} "
                      f"ratio={part / whole:.2f}")
        finally:
            conn.close()
    print(f"snapshots: years={years} peak_rss_mib={peak_mib():.0f} "
          f"writer_memory={writer_memory_limit()}")


def main() -> None:
    main_by_years("benchmarks.bench_snapshot_rebuild", __doc__.splitlines()[0], "snapshots",
                  one_size)


if __name__ == "__main__":
    main()
