"""connect() brings a warehouse up to the shipped schema once, then opens it without writing
(pipelines.warehouse.schema; sql/migrations/0017_schema_state.sql)."""

from __future__ import annotations

import os
from pathlib import Path

from pipelines.warehouse import connect
from pipelines.warehouse.schema import shipped_fingerprint


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def test_an_up_to_date_warehouse_is_opened_without_a_write(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    connect(path).close()
    before = _stamp(path)
    os.utime(path, ns=(before[0] - 10**9, before[0] - 10**9))  # any write would move it again
    connect(path).close()
    assert _stamp(path) == (before[0] - 10**9, before[1])
    assert not path.with_name("w.duckdb.wal").exists()


def test_a_stale_fingerprint_reapplies_the_views(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with connect(path) as conn:
        view = conn.execute("SELECT view_name FROM duckdb_views() WHERE schema_name = 'mart' "
                            "AND NOT internal ORDER BY view_name LIMIT 1").fetchone()
        assert view is not None
        conn.execute(f"DROP VIEW mart.{view[0]}")
    with connect(path) as conn:  # fingerprint unchanged: the dropped view stays dropped
        assert conn.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?",
                            [view[0]]).fetchone() == (0,)
        conn.execute("UPDATE meta.schema_state SET fingerprint = 'older code'")
    with connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?",
                            [view[0]]).fetchone() == (1,)
        assert conn.execute("SELECT fingerprint FROM meta.schema_state").fetchall() == [
            (shipped_fingerprint(),)]
