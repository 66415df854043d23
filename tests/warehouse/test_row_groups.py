"""A writer lays the file out in row groups of ROW_GROUP_SIZE rows (DuckDB's default 122,880),
which DuckDB takes only as an ATTACH option, under the catalog name a plain open gives the file
(docs/scaling.md, "Row groups of 2,048 rows")."""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipelines.warehouse import connect, thread_cursor
from pipelines.warehouse.connection import ROW_GROUP_SIZE


def _row_groups(conn: duckdb.DuckDBPyConnection) -> list[int]:
    return [int(n) for (n,) in conn.execute(
        "SELECT max(count) FROM pragma_storage_info('main.t') GROUP BY row_group_id "
        "ORDER BY row_group_id").fetchall()]


def test_a_writer_writes_row_groups_of_2048_rows_under_the_files_own_name(
        tmp_path: Path) -> None:
    assert ROW_GROUP_SIZE == 2048
    path = tmp_path / "rome.duckdb"
    conn = connect(path)
    try:
        conn.execute("CREATE TABLE main.t AS SELECT range AS i FROM range(5000)")
        conn.execute("CHECKPOINT")
        assert _row_groups(conn) == [2048, 2048, 904]
        cursor = thread_cursor(conn)
        assert cursor.execute("SELECT current_database(), count(*) FROM t").fetchone() == (
            "rome", 5000)
        cursor.close()
    finally:
        conn.close()
    with duckdb.connect(str(path), read_only=True) as plain:  # as readers and the CLI open it
        assert plain.execute("SELECT current_database()").fetchone() == ("rome",)
        assert _row_groups(plain) == [2048, 2048, 904]


def test_a_writer_spills_beside_its_file_not_in_the_working_directory(tmp_path: Path) -> None:
    """DuckDB puts a file's spills in `<file>.tmp`, an in-memory database's in `.tmp` of the
    working directory: the writer's DuckDB is in memory, its spills stay beside the file."""
    path = tmp_path / "rome.duckdb"
    conn = connect(path)
    try:
        assert conn.execute("SELECT current_setting('temp_directory')").fetchone() == (
            f"{path.resolve()}.tmp",)
    finally:
        conn.close()
