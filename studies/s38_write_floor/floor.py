"""DuckDB's own floor: what a day's change (append ~750, delete + re-insert ~100) written into a
file of N rows costs at its CHECKPOINT; bytes from /proc/self/io, blocks from pragma_storage_info."""
from __future__ import annotations
import argparse, os, resource, shutil, time
from pathlib import Path
import duckdb

p = argparse.ArgumentParser()
p.add_argument("--shape", choices=["res", "pay"], default="res")
p.add_argument("--n", type=int, required=True)
p.add_argument("--rg", type=int, default=0, help="ATTACH ... (ROW_GROUP_SIZE rg); 0 = default")
p.add_argument("--chunks", type=int, default=1, help="load in this many appends, CHECKPOINT after each")
p.add_argument("--split", action="store_true", help="the change's deletes and inserts in their own transactions")
p.add_argument("--noorder", action="store_true", help="SET preserve_insertion_order = false")
p.add_argument("--days", type=int, default=3)
p.add_argument("--verbose", action="store_true")
p.add_argument("--pk", action="store_true", help="PRIMARY KEY (property_id, reservation_id)")
p.add_argument("--vacuum", type=int, default=-1, help="SET max_vacuum_tasks")
p.add_argument("--reopen", action="store_true", help="close and open the file again before each day")
p.add_argument("--spread", action="store_true", help="the ~100 changed rows from the whole table, not the last 5,000")
p.add_argument("--dir", type=Path, default=Path("/tmp/s38-floor/floor"))
a = p.parse_args()

def written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0

RES = """(property_id BIGINT, reservation_id BIGINT, arrival DATE, departure DATE, nights INTEGER,
 status VARCHAR, reservation_type VARCHAR, booker_id BIGINT, booker_kind VARCHAR, booker_name VARCHAR,
 booker_email VARCHAR, booker_phone VARCHAR, billing_party_id BIGINT, billing_party_kind VARCHAR,
 billing_party_name VARCHAR, booker_reference VARCHAR, booking_code VARCHAR, external_ref VARCHAR,
 channel VARCHAR, source VARCHAR, market VARCHAR, group_name VARCHAR, notes VARCHAR, voucher VARCHAR,
 option_expires_on DATE, rooms_count INTEGER, total DECIMAL(12,2), created_at TIMESTAMPTZ,
 updated_at TIMESTAMPTZ, last_seen_run VARCHAR, fetched_at TIMESTAMPTZ)"""
PAY = "(property_id BIGINT, stream VARCHAR, entity_id BIGINT, payload JSON, fetched_at TIMESTAMPTZ, run_id VARCHAR)"

def rows(lo: int, hi: int, gen: int, src: str = '') -> str:
    src = src or f'range({lo}, {hi}) r(i)'
    src = f'(SELECT i, (hash(i) % 1000000007)::BIGINT h FROM {src}) t'
    if a.shape == "res":
        return f"""SELECT 1, i, DATE '2025-01-01' + (i // 20)::INT + (h % 60)::INT, DATE '2025-01-01' + (i // 20)::INT + (h % 60)::INT + 1 + (h % 5)::INT,
 1 + (h % 5)::INT, ['confirmed','cancelled','checked_out','in_house'][1 + h % 4], 'individual', h % 100000,
 'person', 'Guest ' || (h % 100000), 'g' || (h % 100000) || '@example.com', '+39 06 ' || (h % 10000000),
 NULL, NULL, NULL, NULL, 'BK' || i, 'EXT-' || (h * 7), ['direct','ota','gds','phone'][1 + h % 4],
 ['web','booking','expedia','call'][1 + h % 4], ['leisure','corporate','group'][1 + h % 3], NULL,
 CASE WHEN h % 7 = 0 THEN 'late arrival ' || (h % 1000) END, NULL, NULL, 1, ((h % 200000) / 100.0)::DECIMAL(12,2),
 TIMESTAMPTZ '2025-01-01' + to_seconds(i * 137), TIMESTAMPTZ '2025-01-01' + to_seconds(i * 137 + {gen}),
 'run-' || (i // 750) || '-{gen}', TIMESTAMPTZ '2025-01-01' + to_seconds(i * 137 + {gen}) FROM {src}"""
    return f"""SELECT 1, ['reservations','folios','events','availability'][1 + h % 4], i,
 json_object('id', i, 'gen', {gen}, 'body', repeat(md5(i::VARCHAR), 36)), TIMESTAMPTZ '2025-01-01' + to_seconds(i * 137 + {gen}),
 'run-' || (i // 750) FROM {src}"""

def blocks(c) -> set[int]:
    return {r[0] for r in c.execute("SELECT DISTINCT block_id FROM pragma_storage_info('w.t') WHERE block_id >= 0").fetchall()}

a.dir.mkdir(parents=True, exist_ok=True)
f = a.dir / f"{a.shape}_{a.n}_{a.rg}_{a.chunks}_{int(a.split)}_{int(a.noorder)}.duckdb"
for x in (f, Path(str(f) + ".wal")):
    x.unlink(missing_ok=True)
c = duckdb.connect()
c.execute("SET threads = 1")
if a.vacuum >= 0:
    c.execute(f"SET max_vacuum_tasks = {a.vacuum}")
if a.noorder:
    c.execute("SET preserve_insertion_order = false")
opt = f" (ROW_GROUP_SIZE {a.rg})" if a.rg else ""
c.execute(f"ATTACH '{f}' AS w{opt}")
c.execute(f"CREATE TABLE w.t {(RES[:-1] + ', PRIMARY KEY (property_id, reservation_id))') if a.pk else RES if a.shape == 'res' else PAY}")
step = -(-a.n // a.chunks)
for lo in range(0, a.n, step):
    c.execute(f"INSERT INTO w.t {rows(lo, min(a.n, lo + step), 0)}")
    c.execute("CHECKPOINT w")
size0 = f.stat().st_size
rgs = c.execute("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('w.t')").fetchone()[0]
print("  load done", flush=True) if a.verbose else None
nxt = a.n
out = []
for day in range(1, a.days + 1):
    if a.reopen:
        c.close(); c = duckdb.connect(); c.execute('SET threads = 1'); a.vacuum >= 0 and c.execute(f'SET max_vacuum_tasks = {a.vacuum}'); c.execute(f"ATTACH '{f}' AS w{opt}")
    b0 = blocks(c)
    os.sync()
    w0 = written()
    if a.shape == "res":
        # ~100 recent reservations changed: deleted and inserted again, then ~750 new ones
        ids = f"SELECT reservation_id FROM w.t WHERE reservation_id >= {0 if a.spread else nxt - 5000} AND hash(reservation_id + {day}) % {max(50, (nxt if a.spread else 5000) // 100)} = 0 LIMIT 100"
        changed = [r[0] for r in c.execute(ids).fetchall()]
        inlist = ",".join(map(str, changed)) or "-1"
        stmts = [f"DELETE FROM w.t WHERE reservation_id IN ({inlist})",
                 f"INSERT INTO w.t {rows(0, 0, day, f'(SELECT unnest([{inlist}]) i) r')}",
                 f"INSERT INTO w.t {rows(nxt, nxt + 750, day)}"]
    else:
        stmts = [f"INSERT INTO w.t {rows(nxt, nxt + 750, day)}"]
    if a.split:
        for s in stmts:
            c.execute(s)
    else:
        c.execute("BEGIN")
        for s in stmts:
            c.execute(s)
        c.execute("COMMIT")
    nxt += 750
    c.execute("CHECKPOINT w")
    wb = written() - w0
    b1 = blocks(c)
    out.append((wb, len(b1 - b0), len(b0)))
    if a.verbose:
        print('  day', day, c.execute("SELECT row_group_id, count(DISTINCT block_id), max(count) FROM pragma_storage_info('w.t') WHERE column_id = 1 GROUP BY 1 ORDER BY 1").fetchall())
# a scan's cost: every column read, CPU-seconds
r0 = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(5):
    c.execute("SELECT count(*), sum(hash(COLUMNS(*))) FROM w.t").fetchall()
r1 = resource.getrusage(resource.RUSAGE_SELF)
scan = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) / 5
size1 = f.stat().st_size
days = f"mean {sum(o[0] for o in out) / len(out) / 2**20:.2f} max {max(o[0] for o in out) / 2**20:.2f} MiB, blocks new mean {sum(o[1] for o in out) / len(out):.1f} max {max(o[1] for o in out)}; " + " ".join(f"{wb / 2**20:.2f}" for wb, new, old in out)
print(f"{a.shape} N={a.n} rg={a.rg or 122880} chunks={a.chunks} split={int(a.split)} noorder={int(a.noorder)} spread={int(a.spread)} reopen={int(a.reopen)} vacuum={a.vacuum} pk={int(a.pk)} "
      f"| file {size0 / 2**20:.1f} -> {size1 / 2**20:.1f} MiB | row groups {rgs} | days: {days} | scan {scan * 1000:.0f} ms CPU", flush=True)
c.close()
for x in (f, Path(str(f) + ".wal")):
    x.unlink(missing_ok=True)
