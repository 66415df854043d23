"""Does a DuckDB cursor per property thread cost memory? (issue 18, item 4)

    python -m benchmarks.bench_cursors [--threads 20] [--batches 20]

A group sync lands each property from its own thread on its own cursor of the one database
(`thread_cursor`), taking turns on the writer lock (`transaction`). The plan of an earlier
session was to take the fetching threads off DuckDB (one writer thread) to make memory flat.
This measures what that would save: N threads each land `batches` batches of 500 rows of
their own property and read them back, either each on its own cursor (as today) or all on the
one connection under the lock (what one writer would do); each case in its own child process,
its peak RSS. The baseline is the one connection; the ratio is own cursors / one connection.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from contextlib import nullcontext
from pathlib import Path

from .machine import describe, rss_mib

ROWS = 500


def child(mode: str, threads: int, batches: int) -> dict[str, float]:
    """One case in this process: peak RSS over the threads' landings (MiB)."""
    from pipelines.warehouse import connect, thread_cursor, transaction

    work = Path(tempfile.mkdtemp(prefix="pmsw-bench-cursors-"))
    conn = connect(work / "w.duckdb")
    conn.execute("CREATE TABLE t (p INTEGER, k INTEGER, v VARCHAR, PRIMARY KEY (p, k))")
    began = peak = rss_mib()
    shared = threading.Lock()  # the one connection serves one thread at a time
    peak_lock = threading.Lock()

    def land(prop: int) -> None:
        nonlocal peak
        cursor = thread_cursor(conn) if mode == "own cursor" else conn
        for batch in range(batches):
            values = ", ".join(f"({prop}, {batch * ROWS + i}, '{'x' * 200}')"
                               for i in range(ROWS))
            with shared if mode == "one connection" else nullcontext():
                with transaction(cursor):
                    cursor.execute(f"INSERT OR REPLACE INTO t VALUES {values}")
                cursor.execute("SELECT count(*), max(k) FROM t WHERE p = ?", [prop]).fetchall()
            with peak_lock:
                peak = max(peak, rss_mib())
        if cursor is not conn:
            cursor.close()

    workers = [threading.Thread(target=land, args=(p,)) for p in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    conn.close()
    return {"start": began, "peak": peak}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=20)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.threads, args.batches)))
        return
    machine = describe()
    print(f"machine: {machine['nproc']} cores, {machine['memory']}, load "
          f"{machine['load average at start (1/5/15 min)']}")
    print(f"\n{args.threads} threads x {args.batches} batches of {ROWS} rows each (their own "
          "property), landed and read back; peak RSS of a child process per case\n")
    print("| threads | landing on | RSS at start MiB | peak RSS MiB | growth MiB | "
          "growth vs one connection |")
    print("|---:|---|---:|---:|---:|---:|")
    for threads in (1, args.threads):
        figures = {}
        for mode in ("one connection", "own cursor"):
            done = subprocess.run(
                [sys.executable, "-m", "benchmarks.bench_cursors", "--child", mode,
                 "--threads", str(threads), "--batches", str(args.batches)],
                capture_output=True, text=True, check=True, env=os.environ.copy(),
                cwd=Path(__file__).resolve().parents[1])
            figures[mode] = json.loads(done.stdout.strip().splitlines()[-1])
        base = figures["one connection"]["peak"] - figures["one connection"]["start"]
        for mode, got in figures.items():
            growth = got["peak"] - got["start"]
            print(f"| {threads} | {mode} | {got['start']:.0f} | {got['peak']:.0f} | "
                  f"{growth:.0f} | {growth / base:.2f}x |")


if __name__ == "__main__":
    main()
