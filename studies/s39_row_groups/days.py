"""s37 study (from 8543faf:benchmarks/study_publish_floor.py): what a publish's CHECKPOINT writes,
per table, after three runs; --repo picks the code tree (old / new), --keep keeps the warehouse.
Per run and table: rows written (deleted / inserted / updated, from rowid and row hashes),
the table's data blocks (pragma_storage_info) rewritten by the checkpoint."""
from __future__ import annotations

import argparse, os, resource, shutil, sys, tempfile, time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--db", type=Path)
parser.add_argument("--repo", type=Path, required=True)
parser.add_argument("--keep", type=Path, required=True)
parser.add_argument("--from", dest="src", type=Path, required=True, help="a kept study folder (sandbox.sqlite + warehouse.duckdb), copied")
parser.add_argument("--days", type=int, default=8)
parser.add_argument("--tables", action="store_true")
parser.add_argument("--nokey", default="", help="tables recreated without their primary key after the load")
parser.add_argument("--ckpt-after-sync", action="store_true", help="CHECKPOINT between sync and marts")
parser.add_argument("--threshold", default=None, help="SET checkpoint_threshold to this after connect")
args = parser.parse_args()
sys.path.insert(0, str(args.repo))

import httpx  # noqa: E402
from pipelines.ingest import Endpoint, SyncSettings, sync_property  # noqa: E402
from pipelines.marts import built_marts  # noqa: E402
from pipelines.warehouse import connect, publish  # noqa: E402
from pipelines.warehouse.patch import pieces  # noqa: E402
from pipelines.warehouse.publish import HEADER_BYTES  # noqa: E402
from sandbox.clock import SimulatedClock  # noqa: E402
from sandbox.http.server import serving_simulation  # noqa: E402
import pipelines  # noqa: E402
print("code from", Path(pipelines.__file__).parent)

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


def tables(conn):
    return [f"{s}.{t}" for s, t in conn.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY ALL").fetchall()]


def blocks(conn):
    out = {}
    for t in tables(conn):
        out[t] = {r[0] for r in conn.execute(
            f"SELECT DISTINCT block_id FROM pragma_storage_info('{t}') WHERE block_id >= 0").fetchall()}
    return out


def rowsig(conn):
    out = {}
    for t in tables(conn):
        if t.startswith(("core.", "mart.")):
            out[t] = dict(conn.execute(f"SELECT rowid, hash(x) FROM {t} x").fetchall())
    return out


def main() -> None:
    work = args.keep
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    warehouse = work / "warehouse.duckdb"
    db = work / "sandbox.sqlite"
    shutil.copyfile(args.src / "sandbox.sqlite", db)
    shutil.copyfile(args.src / "warehouse.duckdb", warehouse)
    settings = SyncSettings()
    with serving_simulation(db, 100_000_000, 100_000_000) as sandbox:
        endpoint = Endpoint("rome", sandbox.base_url, KEY, 10_000_000, 100_000)
        conn = connect(warehouse)
        try:
            pid = conn.execute("SELECT min(property_id) FROM core.property").fetchall()[0][0]
            last = publish(conn, warehouse)
            print(f"file {last.size / 2**20:.1f} MiB")
            totals = []
            for day in range(1, args.days + 1):
                httpx.post(f"{sandbox.root_url}/_sandbox/advance", json={"days": 1}, timeout=600).raise_for_status()
                b0 = blocks(conn)
                os.sync()
                run0 = _written()
                sync_property(endpoint, conn, f"day-{day}", settings, None)
                list(built_marts(conn, pid))
                io = _written()
                done = publish(conn, warehouse)
                total = _written() - run0
                b1 = blocks(conn)
                new = {t: len(b1[t] - b0.get(t, set())) for t in b1}
                top = sorted(((n, t) for t, n in new.items() if n > 1), reverse=True)[:6]
                totals.append(total)
                print(f"day {day}: wrote {total / 2**20:.2f} MiB (sync+marts {(io - run0) / 2**20:.2f}, publish {(_written() - io) / 2**20:.2f} of which the {done.how} {done.written / 2**20:.2f}), file {done.size / 2**20:.1f} MiB, "
                      f"data blocks new {sum(new.values())}: " + ", ".join(f"{t} {n}/{len(b0.get(t, ()))}" for n, t in top), flush=True)
                last = done
            print(f"mean {sum(totals) / len(totals) / 2**20:.2f} MiB, min {min(totals) / 2**20:.2f}, max {max(totals) / 2**20:.2f} over {len(totals)} days")
        finally:
            conn.close()


if __name__ == "__main__":
    main()
