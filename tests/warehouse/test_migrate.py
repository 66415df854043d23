"""The migration runner and the schema it builds (issue 5, Warehouse: applied automatically and
idempotently, with COMMENT ON for every table and column; every table carries property_id)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse.connection import connect
from pipelines.warehouse.migrate import MigrationError, discover, migrate, sql_dir

SCHEMAS = ("raw", "core", "meta")


def _tables(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    return [(str(s), str(t)) for s, t in conn.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() "
        "WHERE schema_name IN ('raw', 'core', 'meta') ORDER BY 1, 2").fetchall()]


def test_migrate_twice_applies_nothing_the_second_time(tmp_path: Path) -> None:
    db_path = tmp_path / "fresh.duckdb"
    with connect(db_path) as conn:
        names = [str(n) for (n,) in conn.execute(
            "SELECT name FROM meta.schema_migrations ORDER BY version").fetchall()]
        assert names == [m.name for m in discover()]
        before = _tables(conn)

    with duckdb.connect(str(db_path)) as again:
        assert migrate(again) == []
        assert _tables(again) == before


def test_every_table_and_column_has_a_comment(conn: duckdb.DuckDBPyConnection) -> None:
    missing_tables = conn.execute(
        "SELECT schema_name || '.' || table_name FROM duckdb_tables() "
        "WHERE schema_name IN ('raw', 'core', 'meta') AND (comment IS NULL OR comment = '')"
    ).fetchall()
    missing_columns = conn.execute(
        "SELECT schema_name || '.' || table_name || '.' || column_name FROM duckdb_columns() "
        "WHERE schema_name IN ('raw', 'core', 'meta') AND (comment IS NULL OR comment = '')"
    ).fetchall()
    assert missing_tables == []
    assert missing_columns == []


def test_every_table_but_the_schema_logs_has_property_id(
        conn: duckdb.DuckDBPyConnection) -> None:
    without = conn.execute(
        "SELECT t.schema_name || '.' || t.table_name FROM duckdb_tables() t "
        "WHERE t.schema_name IN ('raw', 'core', 'meta') AND NOT EXISTS ("
        "  SELECT 1 FROM duckdb_columns() c WHERE c.schema_name = t.schema_name "
        "  AND c.table_name = t.table_name AND c.column_name = 'property_id')").fetchall()
    assert sorted(without) == [("meta.schema_migrations",), ("meta.schema_state",)]


def test_money_columns_are_decimal_12_2(conn: duckdb.DuckDBPyConnection) -> None:
    """ARCHITECTURE, Money: amounts are decimals; the brief fixes DECIMAL(12,2)."""
    money = ("total", "price", "unit_price", "charges", "payments", "balance", "discount",
             "amount_gross", "amount_net", "price_override")
    rows = conn.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() "
        "WHERE schema_name = 'core' AND list_contains(?, column_name) "
        "AND table_name <> 'availability'", [list(money)]).fetchall()
    assert rows
    assert {(t, c): d for t, c, d in rows if d != "DECIMAL(12,2)"} == {}


def test_timestamps_are_timestamptz(conn: duckdb.DuckDBPyConnection) -> None:
    naive = conn.execute(
        "SELECT schema_name, table_name, column_name FROM duckdb_columns() "
        "WHERE schema_name IN ('raw', 'core', 'meta') AND data_type LIKE 'TIMESTAMP%' "
        "AND data_type <> 'TIMESTAMP WITH TIME ZONE'").fetchall()
    assert naive == []


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(sql_dir() / "migrations", folder)
    (folder / "9999_broken.sql").write_text(
        "CREATE TABLE core.half_done (property_id BIGINT);\nTHIS IS NOT SQL;\n")
    with duckdb.connect(str(tmp_path / "w.duckdb")) as conn:
        with pytest.raises(duckdb.ParserException):
            migrate(conn, folder)
        last = max(m.version for m in discover())  # every real migration applied, the broken not
        assert conn.execute("SELECT max(version) FROM meta.schema_migrations").fetchone() == (last,)
        assert ("core", "half_done") not in _tables(conn)


def test_an_applied_migration_that_changed_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(sql_dir() / "migrations", folder)
    with duckdb.connect(str(tmp_path / "w.duckdb")) as conn:
        migrate(conn, folder)
        first = sorted(folder.glob("0001_*.sql"))[0]
        first.write_text(first.read_text() + "\n-- edited\n")
        with pytest.raises(MigrationError, match=r"0001_.*changed after it was applied"):
            migrate(conn, folder)


def test_misnamed_migration_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "1_x.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"1_x\.sql"):
        discover(tmp_path)
