"""Publishing the read copy against a plain copy of the same bytes (issue 15, Benchmark).

    python -m benchmarks.bench_publish --warehouse data/warehouse.duckdb   # e.g. the demo's
    python -m benchmarks.bench_publish --hotels 10 --years 3               # synthetic history

The warehouse is copied to a scratch folder first (the one given is never touched). Prints the
seconds of `pipelines.warehouse.publish` (record meta.published, CHECKPOINT, copy the bytes,
fsync, rename; or COPY FROM DATABASE for a warehouse in a newer storage format, `how`)
beside `shutil.copyfile` of the same file plus os.sync() in the same process, each the median
of 3 alternating runs, their ratio (goal: at most 2), and the extra disk the read copy takes.
The synthetic size lands benchmarks/bench_marts.py's room-night versions of `hotels` hotels
over `years` years in a table of its own, so the bytes are a multi-year history's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import polars as pl

from benchmarks.bench_marts import synthetic_versions
from benchmarks.machine import describe
from pipelines.warehouse import connect, insert_frame, publish


def _synthetic(path: Path, hotels: int, years: int) -> None:
    versions = synthetic_versions(hotels, years)
    conn = connect(path)
    try:
        conn.execute("CREATE SCHEMA IF NOT EXISTS bench")
        columns = ", ".join(f'"{name}" {"BIGINT" if dtype.is_integer() else "VARCHAR"}'
                            for name, dtype in versions.schema.items())
        conn.execute(f"CREATE TABLE bench.room_night_versions ({columns})")
        insert_frame(conn, "bench.room_night_versions",
                     versions.cast({n: pl.String for n, t in versions.schema.items()
                                    if not t.is_integer()}))
        conn.execute("CHECKPOINT")
    finally:
        conn.close()
    print(f"synthetic warehouse: {versions.height:,} room-night versions of {hotels} hotel(s) "
          f"x {years} year(s)")


REPEATS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, help="An existing warehouse to publish.")
    parser.add_argument("--hotels", type=int, default=10)
    parser.add_argument("--years", type=int, default=3)
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory(prefix="bench-publish-") as scratch:
        path = Path(scratch) / "warehouse.duckdb"
        if args.warehouse is not None:
            shutil.copyfile(args.warehouse, path)
            print(f"warehouse: a copy of {args.warehouse}")
        else:
            _synthetic(path, args.hotels, args.years)
        size = path.stat().st_size
        plains, publishes = [], []
        conn = connect(path)
        try:
            for _ in range(REPEATS):
                started = time.perf_counter()
                shutil.copyfile(path, Path(scratch) / "plain.duckdb")
                os.sync()
                plains.append(time.perf_counter() - started)
                done = publish(conn, path)
                publishes.append(done.seconds)
        finally:
            conn.close()
        plain, seconds = statistics.median(plains), statistics.median(publishes)
        print(f"warehouse {size / 2**20:,.1f} MiB; median of {REPEATS}: plain copy {plain:.3f} s; "
              f"publish ({done.how}) {seconds:.3f} s; ratio {seconds / plain:.2f} (goal <= 2); "
              f"read copy {done.size / 2**20:,.1f} MiB extra disk ({done.size / size:.2f} x the "
              "file)")

if __name__ == "__main__":
    main()
