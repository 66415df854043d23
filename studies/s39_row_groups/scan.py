"""CPU of a marts build and of reading every core table, on two warehouse files side by side
(alternating, same process): the default row groups (main's study file) and 16384 (new's)."""
import resource, shutil, sys, time
from pathlib import Path
sys.path.insert(0, "/tmp/s39-rowgroup/new2048")
from pipelines.marts import built_marts
from pipelines.warehouse import connect

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime

days = sys.argv[1]; rounds = int(sys.argv[2])
conns = {}
for tree in sys.argv[3:]:
    dst = Path(f"/tmp/s39-rowgroup/scan_{tree}_{days}/warehouse.duckdb")
    shutil.rmtree(dst.parent, ignore_errors=True); dst.parent.mkdir(parents=True)
    shutil.copyfile(f"/tmp/s39-rowgroup/w_{tree}_{days}/warehouse.duckdb", dst)
    conns[tree] = connect(dst)
results = {t: {"marts": [], "scan": []} for t in conns}
for n in range(rounds):
    for tree, conn in conns.items():
        pid = conn.execute("SELECT min(property_id) FROM core.property").fetchone()[0]
        tables = [f"{s}.{t}" for s, t in conn.execute("SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name IN ('core', 'raw') ORDER BY ALL").fetchall()]
        c0 = cpu()
        for t in tables:
            conn.execute(f"SELECT * FROM {t}").to_arrow_table()
        c1 = cpu()
        list(built_marts(conn, pid, settings=None))
        c2 = cpu()
        results[tree]["scan"].append(c1 - c0); results[tree]["marts"].append(c2 - c1)
for tree, r in results.items():
    print(tree, days, "read every core/raw table CPU-s", [f"{x:.2f}" for x in r["scan"]], "median", f"{sorted(r['scan'])[len(r['scan'])//2]:.2f}",
          "| marts build CPU-s", [f"{x:.2f}" for x in r["marts"]], "median", f"{sorted(r['marts'])[len(r['marts'])//2]:.2f}")
