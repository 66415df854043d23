"""Four writers at once on a DuckLake with a PostgreSQL catalog: a table per property (delete +
insert), or one shared table written insert-only. python own_tables.py setup|run MODE"""
import os, subprocess, sys, time
os.environ["LAKE_CATALOG"] = "pg"
sys.path.insert(0, "/tmp/lake")
import duckdb
import ducklake_study as S

D = "/tmp/lake/run_pg/own/lakeown"

def setup() -> None:
    for sql in ("DROP DATABASE IF EXISTS lakeown", "CREATE DATABASE lakeown"):
        subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-p", "55432", "-U", "postgres", "-c", sql], check=True)
    subprocess.run(["rm", "-rf", "/tmp/lake/run_pg/own"]); os.makedirs(D + "/data")
    c = S.connect(); S.attach_lake(c, "l", D)
    c.execute(f"CREATE TEMP TABLE src AS {S.GEN.format(h=5)}")
    c.execute("CREATE TABLE l.shared AS SELECT * FROM src")
    for p in (2, 3, 4, 5):
        c.execute(f"CREATE TABLE l.mart_{p} AS SELECT * FROM src WHERE property_id = {p}")

def write(mode: str, p: int) -> None:
    c = S.connect(); S.attach_lake(c, "l", D)
    c.execute(f"CREATE TEMP TABLE src AS {S.GEN.format(h=5)} WHERE a.p = {p}")
    t0, tries, errs = time.perf_counter(), 0, set()
    while True:
        tries += 1
        try:
            if mode == "own":
                S.replace(c, f"l.mart_{p}", p, 7)
            else:
                c.execute("INSERT INTO l.shared SELECT * REPLACE (revenue_room + 7 AS revenue_room) FROM src")
            break
        except duckdb.Error as e:
            errs.add(" ".join(str(e).split())[:160])
            try: c.execute("ROLLBACK")
            except duckdb.Error: pass
            time.sleep(0.05)
    print(f"  {mode} p{p}: done {time.perf_counter() - t0:.2f} s after first try, {tries} attempts {sorted(errs)}", flush=True)

if __name__ == "__main__":
    if sys.argv[1] == "setup": setup()
    elif sys.argv[1] == "write": write(sys.argv[2], int(sys.argv[3]))
    else:
        for mode in ("own", "append"):
            solo = time.perf_counter(); subprocess.run([sys.executable, __file__, "write", mode, "2"], check=True)
            print(f"{mode}: one alone (process) {time.perf_counter() - solo:.2f} s; load {os.getloadavg()[0]:.2f}")
            t = time.perf_counter()
            ws = [subprocess.Popen([sys.executable, __file__, "write", mode, str(p)]) for p in (2, 3, 4, 5)]
            [w.wait() for w in ws]
            print(f"{mode}: four at once {time.perf_counter() - t:.2f} s (processes); load {os.getloadavg()[0]:.2f}", flush=True)
