"""Compare two warehouses table by table (core.*, mart.*, raw.*): equal rows, with and without
the columns naming the run or the fetch time."""
import sys
import duckdb

SEEN = {"last_seen_run", "fetched_at", "run_id"}
SKIP = {"kept_at"}  # wall clock of a build (mart.forecast_history)
a, b = sys.argv[1], sys.argv[2]
conn = duckdb.connect()
conn.execute(f"ATTACH '{a}' AS a (READ_ONLY)")
conn.execute(f"ATTACH '{b}' AS b (READ_ONLY)")
conn.execute("SET TimeZone = 'UTC'")
tables = conn.execute("SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = 'a' "
                      "AND schema_name IN ('core', 'mart', 'raw') ORDER BY ALL").fetchall()
bad = 0
for s, t in tables:
    cols = [c for (c,) in conn.execute("SELECT column_name FROM duckdb_columns() WHERE database_name='a' "
            "AND schema_name=? AND table_name=? ORDER BY column_index", [s, t]).fetchall()]
    keep = [c for c in cols if c not in SEEN | SKIP]
    sel = ", ".join(f'"{c}"' for c in keep)
    n_a = conn.execute(f"SELECT count(*) FROM a.{s}.{t}").fetchone()[0]
    n_b = conn.execute(f"SELECT count(*) FROM b.{s}.{t}").fetchone()[0]
    d1 = conn.execute(f"SELECT count(*) FROM (SELECT {sel} FROM a.{s}.{t} EXCEPT ALL SELECT {sel} FROM b.{s}.{t})").fetchone()[0]
    d2 = conn.execute(f"SELECT count(*) FROM (SELECT {sel} FROM b.{s}.{t} EXCEPT ALL SELECT {sel} FROM a.{s}.{t})").fetchone()[0]
    seen = [c for c in cols if c in SEEN]
    full = ", ".join(f'"{c}"' for c in cols if c not in SKIP)
    s1 = conn.execute(f"SELECT count(*) FROM (SELECT {full} FROM a.{s}.{t} EXCEPT ALL SELECT {full} FROM b.{s}.{t})").fetchone()[0] if seen else 0
    status = "equal" if d1 == d2 == 0 and n_a == n_b else "DIFFER"
    bad += status != "equal"
    print(f"{s}.{t}: {n_a} / {n_b} rows, {status}; rows differing only in {seen}: {s1}" if seen else f"{s}.{t}: {n_a} / {n_b} rows, {status}")
print("tables differing:", bad)
