"""Study (issue 51, "No write that costs in proportion to the warehouse's size"): what a publish
must write at least, on a real year of the 80-room hotel. Kept in git history, not in make bench.

    .venv/bin/python benchmarks/study_publish_floor.py --db hotel365.sqlite

DB: a sandbox simulated beforehand (`pmsw sandbox simulate --days 365`). Served in process on
its simulated clock, loaded into a new warehouse (marts built, published twice so both read
copy generations exist), then three runs as `pmsw sync` makes them: a sync with nothing new, an
hourly run (the clock one hour on), a one-day incremental (the sandbox lives a day). After each,
the marts of the property and a publish. Per run: the file's size; the bytes this process wrote
during the publish (the meta.published commit and the CHECKPOINT: /proc/self/io write_bytes);
the pieces (12 KiB header, 256 KiB blocks) that differ between the copy just published and the
one before it, compared byte by byte; and what the publish wrote into the generation.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipelines.ingest import Endpoint, SyncSettings, sync_property  # noqa: E402
from pipelines.marts import build_marts  # noqa: E402
from pipelines.warehouse import connect, publish  # noqa: E402
from pipelines.warehouse.patch import pieces  # noqa: E402
from pipelines.warehouse.publish import HEADER_BYTES  # noqa: E402
from sandbox.clock import SimulatedClock  # noqa: E402
from sandbox.http.server import serving_simulation  # noqa: E402

KEY = "sbx_test_all_scopes"
HOURLY = ["reference", "events", "reservations", "folios", "pos_ledger"]
BLOCK = 262144


def _written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


def _differ(old: Path, new: Path) -> tuple[int, int]:
    a, b = old.read_bytes(), new.read_bytes()
    spans = pieces(len(b), HEADER_BYTES, BLOCK)
    return sum(1 for o, n in spans if a[o:o + n] != b[o:o + n]), len(spans)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="study_publish_"))
    warehouse = work / "warehouse.duckdb"
    settings = SyncSettings()
    with serving_simulation(args.db, 100_000_000, 100_000_000) as sandbox:
        clock = sandbox.state.clock
        assert isinstance(clock, SimulatedClock)
        endpoint = Endpoint("rome", sandbox.base_url, KEY, 10_000_000, 100_000)
        conn = connect(warehouse)
        try:
            started = time.perf_counter()
            sync_property(endpoint, conn, "initial", settings, None)
            pid = conn.execute("SELECT min(property_id) FROM core.property").fetchall()[0][0]
            build_marts(conn, pid)
            print(f"initial load and marts {time.perf_counter() - started:.1f} s")
            last = publish(conn, warehouse)
            last = publish(conn, warehouse)
            print(f"year's file {last.size:,} bytes ({last.size / 2**20:.1f} MiB)")
            runs: list[tuple[str, Callable[[], object], list[str] | None]] = [
                    ("nothing new", lambda: None, None),
                    ("hourly run", lambda: clock.advance(timedelta(hours=1)), HOURLY),
                    ("one-day incremental", lambda: httpx.post(
                        f"{sandbox.root_url}/_sandbox/advance", json={"days": 1},
                        timeout=600).raise_for_status(), None)]
            print("| run | file | written by the writer in the publish (commit + CHECKPOINT) "
                  "| pieces differing from the copy before | patch wrote | publish s | "
                  "publish CPU-s |")
            for name, before, streams in runs:
                before()
                sync_property(endpoint, conn, name.replace(" ", "-"), settings, streams)
                build_marts(conn, pid)
                io, cpu = _written(), resource.getrusage(resource.RUSAGE_SELF)
                children = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = publish(conn, warehouse)
                after, after_children = (resource.getrusage(resource.RUSAGE_SELF),
                                         resource.getrusage(resource.RUSAGE_CHILDREN))
                seconds_cpu = (after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
                               + after_children.ru_utime + after_children.ru_stime
                               - children.ru_utime - children.ru_stime)
                assert done.generation is not None
                assert last.generation is not None
                changed, total = _differ(last.generation, done.generation)
                print(f"| {name} | {done.size / 2**20:.1f} MiB | "
                      f"{(_written() - io) / 2**20:.2f} MiB | {changed} of {total} "
                      f"({changed / total:.1%}) | {done.how} {done.written / 2**20:.2f} MiB | "
                      f"{done.seconds:.3f} | {seconds_cpu:.3f} |")
                last = done
        finally:
            conn.close()


if __name__ == "__main__":
    main()
