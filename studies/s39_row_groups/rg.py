import duckdb, sys, shutil
src = sys.argv[1]; dst = "/tmp/s39-rowgroup/rg_probe.duckdb"
shutil.copyfile(src, dst)
c = duckdb.connect(dst, read_only=True)
for t in sys.argv[2:]:
    rows = c.execute(f"select row_group_id, max(count) n, count(distinct block_id) filter (where block_id>=0) from pragma_storage_info('{t}') group by 1 order by 1").fetchall()
    print(t, len(rows), "row groups; rows:", [r[1] for r in rows])
