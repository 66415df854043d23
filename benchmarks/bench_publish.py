"""Publishing the read copy against a plain copy of the same bytes (issues 15 and 51, Benchmark).

    python -m benchmarks.bench_publish --warehouse data/warehouse.duckdb   # e.g. the demo's
    python -m benchmarks.bench_publish --mib 60                            # a year-sized file

The warehouse is copied to a scratch folder first (the one given is never touched). It is
published twice (both read copy generations then exist), then per case, `nothing changed`
(a publish right after the last) and `one day changed` (a day of synthetic payloads appended,
a day of room-night versions inserted and as many closed), REPEATS alternating runs of the
publish (`pipelines.warehouse.publish`: record meta.published, CHECKPOINT, patch the spare
generation, swap the link; `how` says when it copied or rewrote instead) and of
`shutil.copyfile` of the file plus its fsync, in the same process. Prints per case the bytes
the publish wrote into the read copy, the median seconds and CPU-seconds (this process and its
children) of each, the ratio of the publish to the plain copy, and the disk the read copy
takes. The synthetic file holds benchmarks/bench_marts.py's room-night versions of one hotel
over a year plus payloads that do not compress, a year of days, up to --mib MiB (a property's
year is mostly its raw payloads: docs/scaling.md, "Bytes per property-year").
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl

from benchmarks.bench_marts import synthetic_versions
from benchmarks.machine import describe
from pipelines.warehouse import Published, connect, insert_frame, publish

REPEATS = 3
DAYS = 365
PAYLOAD = " || ".join(f"md5((i * 16 + {n})::VARCHAR)" for n in range(16))
"""512 characters of hex digits a row: what DuckDB cannot shrink much, as JSON barely is."""


def _synthetic(path: Path, mib: int) -> None:
    versions = synthetic_versions(1, 1)
    with connect(path) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS bench")
        columns = ", ".join(f'"{name}" {"BIGINT" if dtype.is_integer() else "VARCHAR"}'
                            for name, dtype in versions.schema.items())
        conn.execute(f"CREATE TABLE bench.room_night_versions ({columns})")
        insert_frame(conn, "bench.room_night_versions",
                     versions.cast({n: pl.String for n, t in versions.schema.items()
                                    if not t.is_integer()}))
        conn.execute("CREATE TABLE bench.payloads (day INTEGER, i BIGINT, body VARCHAR)")
        per_day = max(1, mib * 2**20 // 500 // DAYS)  # 512 hex digits, as DuckDB stores them
        for day in range(DAYS):
            _payloads(conn, day, per_day)
        conn.execute("CHECKPOINT")
    print(f"synthetic warehouse: {versions.height:,} room-night versions of 1 hotel x 1 year, "
          f"{per_day * DAYS:,} payloads of 512 characters ({per_day:,} a day x {DAYS} days)")


def _payloads(conn: duckdb.DuckDBPyConnection, day: int, rows: int) -> None:
    first = day * rows
    conn.execute(f"INSERT INTO bench.payloads SELECT {day}, i, {PAYLOAD} "
                 f"FROM range({first}, {first + rows}) t(i)")


def _one_day(conn: duckdb.DuckDBPyConnection) -> None:
    """A day's payloads appended; a day's share of the versions inserted and as many of the
    newest closed (an update, as a sync's upsert of changed bookings)."""
    row = conn.execute("SELECT max(day) + 1, count(*) // count(DISTINCT day) "
                       "FROM bench.payloads").fetchone()
    if row is not None and row[0] is not None:
        _payloads(conn, int(row[0]), int(row[1]))
        conn.execute("INSERT INTO bench.room_night_versions SELECT * FROM "
                     "bench.room_night_versions USING SAMPLE 0.27 PERCENT (reservoir, 1)")
        conn.execute("UPDATE bench.room_night_versions SET valid_to = valid_from "
                     "WHERE reservation_room_id > (SELECT max(reservation_room_id) - 30 "
                     "FROM bench.room_night_versions)")


def _cpu() -> float:
    own, children = (resource.getrusage(resource.RUSAGE_SELF),
                     resource.getrusage(resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    work()
    return time.perf_counter() - wall, _cpu() - cpu


def _timed_publish(conn: duckdb.DuckDBPyConnection, path: Path
                   ) -> tuple[float, float, Published]:
    wall, cpu = time.perf_counter(), _cpu()
    done = publish(conn, path)
    return time.perf_counter() - wall, _cpu() - cpu, done


def _plain_copy(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    fd = os.open(target, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, help="An existing warehouse to publish.")
    parser.add_argument("--mib", type=int, default=60,
                        help="Size of the synthetic warehouse (default 60: a property-year).")
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory(prefix="bench-publish-") as scratch:
        path = Path(scratch) / "warehouse.duckdb"
        if args.warehouse is not None:
            shutil.copyfile(args.warehouse, path)
            print(f"warehouse: a copy of {args.warehouse}")
        else:
            _synthetic(path, args.mib)
        with connect(path) as conn:
            publish(conn, path)
            publish(conn, path)
            cases: list[tuple[str, Callable[[duckdb.DuckDBPyConnection], None]]] = [
                ("nothing changed", lambda _: None), ("one day changed", _one_day)]
            for case, change in cases:
                plains, publishes, written, hows = [], [], [], []
                for _ in range(REPEATS):
                    plains.append(_timed(lambda: _plain_copy(path, Path(scratch) / "plain")))
                    change(conn)
                    seconds, cpu, done = _timed_publish(conn, path)
                    publishes.append((seconds, cpu))
                    written.append(done.written)
                    hows.append(done.how)
                size = path.stat().st_size
                plain = statistics.median(s for s, _ in plains)
                seconds = statistics.median(s for s, _ in publishes)
                print(f"{case}: warehouse {size / 2**20:,.1f} MiB; publish ({'/'.join(hows)}) "
                      f"wrote {' / '.join(f'{w:,}' for w in written)} bytes "
                      f"({statistics.median(written) / size:.1%} of the file); median of "
                      f"{REPEATS}: plain copy {plain:.3f} s, "
                      f"{statistics.median(c for _, c in plains):.3f} CPU-s; publish "
                      f"{seconds:.3f} s, {statistics.median(c for _, c in publishes):.3f} "
                      f"CPU-s; ratio {seconds / plain:.2f} (goal <= 2)")
            print(f"read copy: two generations, {2 * size / 2**20:,.1f} MiB of disk (2 x the "
                  "file)")


if __name__ == "__main__":
    main()
