"""s37 study (from 8543faf:benchmarks/study_publish_floor.py): what a publish's CHECKPOINT writes,
per table, after three runs; --repo picks the code tree (old / new), --keep keeps the warehouse.
Per run and table: rows written (deleted / inserted / updated, from rowid and row hashes),
the table's data blocks (pragma_storage_info) rewritten by the checkpoint."""
from __future__ import annotations

import argparse, resource, shutil, sys, tempfile, time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--db", type=Path, required=True)
parser.add_argument("--repo", type=Path, required=True)
parser.add_argument("--keep", type=Path, required=True)
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
    work.mkdir(parents=True, exist_ok=True)
    warehouse = work / "warehouse.duckdb"
    db = work / "sandbox.sqlite"
    shutil.copyfile(args.db, db)
    settings = SyncSettings()
    with serving_simulation(db, 100_000_000, 100_000_000) as sandbox:
        clock = sandbox.state.clock
        assert isinstance(clock, SimulatedClock)
        endpoint = Endpoint("rome", sandbox.base_url, KEY, 10_000_000, 100_000)
        conn = connect(warehouse)
        try:
            print("checkpoint_threshold", conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone())
            started = time.perf_counter()
            sync_property(endpoint, conn, "initial", settings, None)
            pid = conn.execute("SELECT min(property_id) FROM core.property").fetchall()[0][0]
            list(built_marts(conn, pid))
            print(f"initial load and marts {time.perf_counter() - started:.1f} s")
            for name in filter(None, args.nokey.split(",")):
                conn.execute(f"CREATE TABLE {name}_nokey AS SELECT * FROM {name}")
                conn.execute(f"DROP TABLE {name}")
                conn.execute(f"ALTER TABLE {name}_nokey RENAME TO {name.split('.')[1]}")
                print("without its key:", name)
            last = publish(conn, warehouse)
            last = publish(conn, warehouse)
            print(f"file {last.size:,} bytes ({last.size / 2**20:.1f} MiB)")
            print("core/mart rows:", conn.execute("SELECT sum(estimated_size) FROM duckdb_tables() WHERE schema_name IN ('core','mart')").fetchone(),
                  "raw rows:", conn.execute("SELECT count(*) FROM raw.payloads").fetchone())
            if args.threshold:
                conn.execute(f"SET checkpoint_threshold = '{args.threshold}'")
                print("checkpoint_threshold now", conn.execute("SELECT current_setting('checkpoint_threshold')").fetchone())
            runs: list[tuple[str, Callable[[], object], list[str] | None]] = [
                    ("nothing new", lambda: None, None),
                    ("hourly run", lambda: clock.advance(timedelta(hours=1)), HOURLY),
                    ("one-day incremental", lambda: httpx.post(
                        f"{sandbox.root_url}/_sandbox/advance", json={"days": 1},
                        timeout=600).raise_for_status(), None)]
            summary = []
            for name, before, streams in runs:
                before()
                b0, r0 = blocks(conn), rowsig(conn)
                c0 = resource.getrusage(resource.RUSAGE_SELF)
                run0 = _written()
                sync_property(endpoint, conn, name.replace(" ", "-"), settings, streams)
                if args.ckpt_after_sync:
                    conn.execute("CHECKPOINT")
                marts = {m: (w.inserted, w.deleted) for m, _, w in built_marts(conn, pid)}
                c1 = resource.getrusage(resource.RUSAGE_SELF)
                r1 = rowsig(conn)
                io = _written()
                done = publish(conn, warehouse)
                ck = _written() - io
                run_total = _written() - run0
                b1 = blocks(conn)
                size = conn.execute("SELECT used_blocks, free_blocks, total_blocks FROM pragma_database_size() WHERE database_name = current_database()").fetchone()
                changed, total = _differ(last.generation, done.generation)
                summary.append(f"| {name} | {done.size / 2**20:.1f} MiB | run wrote {run_total / 2**20:.2f} MiB (sync+marts {(run_total - ck) / 2**20:.2f}) | publish {ck / 2**20:.2f} MiB | {changed} of {total} "
                      f"({changed / total:.1%}) | {done.how} {done.written / 2**20:.2f} MiB | sync+marts CPU {c1.ru_utime+c1.ru_stime-c0.ru_utime-c0.ru_stime:.1f} s | used/free/total blocks {size} |")
                print(summary[-1])
                print("   table: rows deleted/inserted/updated | data blocks rewritten of before")
                data_new = 0
                for t in sorted(b1):
                    old, new = b0.get(t, set()), b1[t]
                    d = i = u = 0
                    if t in r1:
                        a, b = r0.get(t, {}), r1[t]
                        d = len(a.keys() - b.keys()); i = len(b.keys() - a.keys())
                        u = sum(1 for k in a.keys() & b.keys() if a[k] != b[k])
                    fresh = len(new - old)
                    data_new += fresh
                    if d or i or u or fresh:
                        print(f"   {t}: {d}/{i}/{u} | {fresh} of {len(old)} (now {len(new)})")
                print(f"   data blocks rewritten in all: {data_new}; marts (ins, del): "
                      + ", ".join(f"{m} {v}" for m, v in marts.items() if v != (0, 0)))
                last = done
            print("\n".join(summary))
        finally:
            conn.close()


if __name__ == "__main__":
    main()
