"""DuckLake (SQLite catalog, local Parquet) against one DuckDB file + publish copy (issue 51).

    python ducklake_study.py main 1      # parts 1, 2, 4 at 1 hotel   (and: main 10)
    python ducklake_study.py conc 10     # part 3 on the warehouses `main 10` left
Run with duckdb==1.5.5 and the ducklake + sqlite_scanner extension wheels, nothing downloaded.
"""
import glob, os, shutil, statistics, subprocess, sys, time
import duckdb

CAT = os.environ.get("LAKE_CATALOG", "sqlite")  # or pg: PostgreSQL on 127.0.0.1:55432
ROOT = "/tmp/lake/run" + ("_pg" if CAT == "pg" else "")
PG = "postgres:dbname={db} host=127.0.0.1 port=55432 user=postgres"
EXT = sorted(glob.glob(os.path.join(os.path.dirname(duckdb.__file__), "..",
             "duckdb_extension_*", "extensions", "*", "*.duckdb_extension")))
GEN = """SELECT p::INT AS property_id, r::INT AS room_id, DATE '2023-01-01' + d::INT AS stay_date,
 (r % 4)::INT AS room_type_id, CASE WHEN hash(p,r,d) % 100 < 75 THEN 'sold' ELSE 'free' END AS status,
 ['BAR','NR','PKG'][(1 + hash(r,d) % 3)::BIGINT] AS rate_plan, ['web','ota','phone'][(1 + hash(d,r) % 3)::BIGINT] AS channel,
 ['leisure','business'][(1 + hash(p,d) % 2)::BIGINT] AS market, ['transient','group'][(1 + hash(r) % 2)::BIGINT] AS segment,
 (hash(p,r,d) % 1000000)::BIGINT AS booking_id, (1 + r % 3)::INT AS adults, (r % 2)::INT AS children,
 hash(p,r,d) % 100 < 75 AS is_occupied, hash(p,r,d) % 100 = 99 AS is_ooo, false AS is_comp,
 (80 + hash(p,r,d) % 200)::DECIMAL(12,2) AS revenue_room, (hash(d,p) % 40)::DECIMAL(12,2) AS revenue_fb,
 (hash(r,p) % 10)::DECIMAL(12,2) AS revenue_other, (80 + hash(p,r,d) % 250)::DECIMAL(12,2) AS total,
 (80 + hash(p,r,d) % 200)::DECIMAL(12,2) AS adr,
 TIMESTAMPTZ '2023-01-01 00:00:00+00' + to_days(d::INT) AS created_at, now() AS built_at
FROM range(1, {h} + 1) a(p), range(80) b(r), range(1095) c(d)"""
REPORT = """SELECT stay_date, count(*) FILTER (is_occupied) AS sold, sum(revenue_room) AS rev
 FROM {t} WHERE property_id = 1 AND stay_date >= DATE '2025-06-01' AND stay_date < DATE '2025-07-01'
 GROUP BY ALL ORDER BY ALL"""
NOTEBOOK = """SELECT property_id, date_trunc('month', stay_date) AS m, count(*) FILTER (is_occupied) AS sold,
 sum(total) AS total FROM {t} WHERE stay_date >= DATE '2025-01-01' AND stay_date < DATE '2026-01-01'
 GROUP BY ALL ORDER BY ALL"""


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def connect() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for p in EXT:
        c.execute(f"LOAD '{p}'")
    return c


def attach_lake(c, name: str, d: str, ro: bool = False) -> None:
    opt = ", READ_ONLY" if ro else ""
    cat = PG.format(db=os.path.basename(d)) if CAT == "pg" else f"sqlite:{d}/cat.sqlite"
    c.execute(f"ATTACH 'ducklake:{cat}' AS {name} (DATA_PATH '{d}/data/'{opt})")


def wchar() -> int:
    with open("/proc/self/io") as f:
        return int(next(x for x in f if x.startswith("wchar")).split()[1])


def publish(c, d: str) -> None:  # today's design: checkpoint, copy whole file, fsync, rename
    c.execute("CHECKPOINT w")
    tmp = f"{d}/read.duckdb.tmp"
    shutil.copyfile(f"{d}/w.duckdb", tmp)
    fd = os.open(tmp, os.O_RDONLY); os.fsync(fd); os.close(fd)
    os.replace(tmp, f"{d}/read.duckdb")


def replace(c, t: str, p: int, v: int, where: str = "") -> None:
    c.execute("BEGIN")
    c.execute(f"DELETE FROM {t} WHERE property_id = {p} {where}")
    c.execute(f"INSERT INTO {t} SELECT * REPLACE (revenue_room + {v} AS revenue_room, now() AS built_at)"
              f" FROM src WHERE property_id = {p} {where}")
    c.execute("COMMIT")


def timed(f) -> float:
    t = time.perf_counter(); f(); return time.perf_counter() - t


def dirbytes(d: str) -> int:
    return sum(os.path.getsize(os.path.join(a, n)) for a, _, ns in os.walk(d) for n in ns)


def main(h: int) -> None:
    base = f"{ROOT}/h{h}"
    shutil.rmtree(base, ignore_errors=True)
    for s in ("file", "lake", "lakep"):
        os.makedirs(f"{base}/{s}/data")
    for db in ("lake", "lakep") if CAT == "pg" else ():
        for sql in (f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}"):
            subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-p", "55432", "-U", "postgres", "-c", sql], check=True)
    c = connect()
    c.execute(f"CREATE TEMP TABLE src AS {GEN.format(h=h)}")
    c.execute(f"ATTACH '{base}/file/w.duckdb' AS w")
    c.execute("CREATE TABLE w.mart AS SELECT * FROM src")
    publish(c, f"{base}/file")
    attach_lake(c, "lake", f"{base}/lake")
    attach_lake(c, "lakep", f"{base}/lakep")
    c.execute("CREATE TABLE lake.mart AS SELECT * FROM src")
    c.execute("CREATE TABLE lakep.mart AS SELECT * FROM src LIMIT 0")
    c.execute("ALTER TABLE lakep.mart SET PARTITIONED BY (property_id)")
    c.execute("INSERT INTO lakep.mart SELECT * FROM src")
    rows = c.execute("SELECT count(*) FROM src").fetchone()[0]
    print(f"## {h} hotel(s): {rows:,} rows x 22 columns; file {os.path.getsize(f'{base}/file/w.duckdb'):,} B,"
          f" lake data {dirbytes(f'{base}/lake/data'):,} B, partitioned {dirbytes(f'{base}/lakep/data'):,} B; load {load()}")
    # 1. mart write: replace property 1's rows (5 rounds, medians)
    fw, fp, lk, lp = [], [], [], []
    for v in range(1, 6):
        fw.append(timed(lambda: replace(c, "w.mart", 1, v)))
        fp.append(timed(lambda: publish(c, f"{base}/file")))
        lk.append(timed(lambda: replace(c, "lake.mart", 1, v)))
        lp.append(timed(lambda: replace(c, "lakep.mart", 1, v)))
    m = statistics.median
    ft = [a + b for a, b in zip(fw, fp)]
    print(f"1 mart write ({h} h): file write {m(fw):.3f} s + publish {m(fp):.3f} s = {m(ft):.3f} s;"
          f" lake {m(lk):.3f} s ({m(lk)/m(ft):.2f}x); lake partitioned {m(lp):.3f} s ({m(lp)/m(ft):.2f}x); load {load()}")
    # 2. report and notebook queries on the read copy vs a lake snapshot attached read-only
    for name, q in (("report", REPORT), ("notebook", NOTEBOOK)):
        res = {k: ([], [], None) for k in ("file", "lake", "lakep")}
        for _ in range(5):  # rounds interleaved: file, lake, lakep
            for s in res:
                if s == "file":
                    t = time.perf_counter(); r = duckdb.connect(f"{base}/file/read.duckdb", read_only=True)
                else:  # extensions loaded before the clock (timed apart below)
                    r = connect(); t = time.perf_counter(); attach_lake(r, "l", f"{base}/{s}", ro=True)
                tab = "mart" if s == "file" else "l.mart"
                out = r.execute(q.format(t=tab)).fetchall()
                res[s][0].append(time.perf_counter() - t)
                res[s][1].append(timed(lambda: r.execute(q.format(t=tab)).fetchall()))
                res[s] = (res[s][0], res[s][1], out); r.close()
        assert res["file"][2] == res["lake"][2] == res["lakep"][2], name
        f = [m(res["file"][0]), m(res["file"][1])]
        print(f"2 {name} ({h} h): attach+query / query again: file {f[0]:.4f} / {f[1]:.4f} s; " + "; ".join(
            f"{s} {m(res[s][0]):.4f} / {m(res[s][1]):.4f} s ({m(res[s][0])/f[0]:.2f}x / {m(res[s][1])/f[1]:.2f}x)"
            for s in ("lake", "lakep")) + f"; load {load()}")
    print(f"2 loading the two extensions in a new connection: {m([timed(connect) for _ in range(5)]):.4f} s;"
          f" opening the file read-only: {m([timed(lambda: duckdb.connect(f'{base}/file/read.duckdb', read_only=True).close()) for _ in range(5)]):.4f} s")
    # 4. bytes written for one day's rows of one property (80 rows), 3 rounds
    day = "AND stay_date = DATE '2025-06-15'"
    for rnd in range(3):
        b0 = wchar(); replace(c, "w.mart", 1, 10 + rnd, day); c.execute("CHECKPOINT w"); b1 = wchar()
        publish(c, f"{base}/file"); b2 = wchar()
        out = [f"file {b1-b0:,} B + publish {b2-b1:,} B = {b2-b0:,} B"]
        for s in ("lake", "lakep"):
            d0, k0, b0 = dirbytes(f"{base}/{s}/data"), (os.path.getsize(f"{base}/{s}/cat.sqlite") if CAT != "pg" else 0), wchar()
            replace(c, f"{s}.mart", 1, 10 + rnd, day)
            b1, d1, k1 = wchar(), dirbytes(f"{base}/{s}/data"), (os.path.getsize(f"{base}/{s}/cat.sqlite") if CAT != "pg" else 0)
            out.append(f"{s} {b1-b0:,} B written (data dir +{d1-d0:,} B, catalog +{k1-k0:,} B)")
        print(f"4 one day's 80 rows ({h} h) round {rnd+1}: " + "; ".join(out) + f"; load {load()}")
    c.close()


def writer(kind: str, h: int, p: int, rounds: int) -> None:
    base, waited, tries, errs = f"{ROOT}/h{h}", 0.0, 0, set()
    c = connect()  # extensions and this property's new rows made before the clock
    c.execute(f"CREATE TEMP TABLE src AS {GEN.format(h=h)} WHERE a.p = {p}")
    if kind != "file":
        attach_lake(c, "l", f"{base}/{kind}")
    t0 = time.perf_counter()
    for v in range(rounds):
        while True:
            t = time.perf_counter(); tries += 1
            try:
                if kind == "file":
                    c.execute(f"ATTACH '{base}/file/w.duckdb' AS w")
                    replace(c, "w.mart", p, 100 + v); publish(c, f"{base}/file"); c.execute("DETACH w")
                else:
                    replace(c, "l.mart", p, 100 + v)
                break
            except duckdb.Error as e:
                waited += time.perf_counter() - t; errs.add(" ".join(str(e).split())[:230])
                for undo in ("ROLLBACK", "DETACH w"):
                    try: c.execute(undo)
                    except duckdb.Error: pass
                if not any(k in str(e).lower() for k in ("lock", "conflict")):
                    raise
                time.sleep(0.05)
    print(f"  writer {kind} p{p}: {rounds} write(s) done {time.perf_counter()-t0:.2f} s after its first try,"
          f" {tries} attempts, {waited:.2f} s in failed ones {sorted(errs)}", flush=True)


def reader(kind: str, h: int, stop: str) -> None:
    base, lat, fails, errs = f"{ROOT}/h{h}", [], 0, set()
    if kind != "file":
        c = connect(); attach_lake(c, "l", f"{base}/{kind}", ro=True)
    while not os.path.exists(stop):
        t = time.perf_counter()
        try:
            if kind == "file":
                c = duckdb.connect(f"{base}/file/read.duckdb", read_only=True)
                c.execute(REPORT.format(t="mart")).fetchall(); c.close()
            else:
                c.execute(REPORT.format(t="l.mart")).fetchall()
        except duckdb.Error as e:
            fails += 1; errs.add(str(e)[:120])
        lat.append(time.perf_counter() - t)
    print(f"  reader {kind}: {len(lat)} queries, {fails} failed, median {statistics.median(lat):.4f} s,"
          f" max {max(lat):.4f} s {sorted(errs)}", flush=True)


def conc(h: int) -> None:
    me = [sys.executable, __file__]
    for kind in ("file", "lake", "lakep"):
        stop = f"{ROOT}/stop"
        if os.path.exists(stop):
            os.remove(stop)
        solo = timed(lambda: subprocess.run(me + ["writer", kind, str(h), "1", "1"], check=True))
        rd = subprocess.Popen(me + ["reader", kind, str(h), stop])
        time.sleep(1)
        t = time.perf_counter()
        ws = [subprocess.Popen(me + ["writer", kind, str(h), str(p), "1"]) for p in (2, 3, 4, 5)]
        codes = [w.wait() for w in ws]
        wall = time.perf_counter() - t
        open(stop, "w").close(); rd.wait()
        print(f"3 {kind} ({h} h): one writer alone {solo:.2f} s (process incl.); 4 at once {wall:.2f} s"
              f" = {wall/solo:.2f}x one alone; exit codes {codes}; load {load()}", flush=True)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "main": main(int(a[1]))
    elif a[0] == "conc": conc(int(a[1]))
    elif a[0] == "writer": writer(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif a[0] == "reader": reader(a[1], int(a[2]), a[3])
