"""The read copy for other tools (issue 15, items 7 and the notebook test).

- `pmsw export parquet DIR` writes every mart.* table as Parquet partitioned by property; read
  back with polars (hive partitioning) each table equals the read copy's, row for row.
  PMSW_EXPORT_PARQUET=DIR makes every publish (here the one that ends `pmsw sync`) export.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.warehouse import open_read_copy

from .conftest import World, run


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns, nulls_last=True) if frame.height else frame


def _assert_export_equals_read_copy(world: World, folder: Path) -> dict[str, int]:
    """Every mart table of the read copy, read back from `folder`; {table: rows}."""
    conn = open_read_copy(world.warehouse)
    try:
        tables = [(str(n), bool(p)) for n, p in conn.execute(
            "SELECT t.table_name, bool_or(c.column_name = 'property_id') FROM duckdb_tables() t "
            "JOIN duckdb_columns() c USING (database_name, schema_name, table_name) "
            "WHERE t.database_name = 'warehouse' AND t.schema_name = 'mart' "
            "GROUP BY 1 ORDER BY 1").fetchall()]
        expected = {name: conn.sql(f'SELECT * FROM mart."{name}"').pl() for name, _ in tables}
    finally:
        conn.close()
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == \
        [name for name, _ in tables]
    counts: dict[str, int] = {}
    for name, partitioned in tables:
        want = expected[name]
        files = sorted((folder / name).rglob("*.parquet"))
        if not want.height:
            assert files == [], name
            counts[name] = 0
            continue
        if partitioned:
            ids = sorted(want["property_id"].unique().to_list())
            assert sorted(p.name for p in (folder / name).iterdir()) == \
                [f"property_id={i}" for i in ids], name
            got = pl.read_parquet(folder / name / "**" / "*.parquet", hive_partitioning=True)
        else:
            got = pl.read_parquet(files)
        got = got.select(want.columns)
        assert got.schema == want.schema, name
        assert _sorted(got).equals(_sorted(want)), name
        counts[name] = want.height
    return counts


def test_export_parquet_writes_every_mart_by_property_and_polars_reads_back_the_copy(
        world: World, tmp_path: Path) -> None:
    folder = tmp_path / "parquet"
    done = run(["export", "parquet", str(folder)], world.env)
    assert done.returncode == 0, done.stderr[-3000:]
    counts = _assert_export_equals_read_copy(world, folder)
    assert counts["occupancy_daily"] > 0
    assert counts["stay_nights"] > 0
    assert f"{len(counts)} mart tables exported to {folder}" in done.stdout

    again = run(["export", "parquet", str(folder)], world.env)  # overwrites, adds nothing
    assert again.returncode == 0, again.stderr[-3000:]
    assert _assert_export_equals_read_copy(world, folder) == counts


def test_every_publish_exports_when_pmsw_export_parquet_is_set(
        world: World, tmp_path: Path) -> None:
    folder = tmp_path / "on-publish"
    before = run(["export", "parquet", str(tmp_path / "before")], world.env)
    assert before.returncode == 0, before.stderr[-3000:]
    old = pl.read_parquet(tmp_path / "before" / "stay_nights" / "**" / "*.parquet",
                          hive_partitioning=True).height
    world.advance()
    synced = run(["sync", "--no-progress"], {**world.env, "PMSW_EXPORT_PARQUET": str(folder)})
    assert synced.returncode == 0, synced.stderr[-3000:]
    counts = _assert_export_equals_read_copy(world, folder)
    assert counts["stay_nights"] > old  # the day's bookings: the export is of the new copy
