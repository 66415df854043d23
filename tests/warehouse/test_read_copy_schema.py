"""A reader never queries a read copy of another schema than its code's (docs/operations.md,
"After an upgrade"): the copy published before an upgrade lacks what the new code reads (a
report failed with DuckDB's binder error on a column added since). open_read_copy refuses it
in one line that says what to do; `pmsw warehouse publish` brings it up to date."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.warehouse import WarehouseSchemaError, connect, open_read_copy, publish
from pipelines.warehouse.migrate import discover, migrate, sql_dir

LATEST = discover()[-1].version
BEFORE = discover()[-2].version
"""The migration before the last (numbers may skip one another branch holds)."""


def _older_warehouse(tmp_path: Path) -> Path:
    """A warehouse and its read copy as the code before the last migration left them."""
    older = tmp_path / "older_migrations"
    older.mkdir()
    for path in sorted((sql_dir() / "migrations").glob("*.sql"))[:-1]:
        shutil.copy(path, older / path.name)
    path = tmp_path / "w.duckdb"
    with duckdb.connect(str(path)) as conn:
        migrate(conn, older)
        publish(conn, path)
    return path


def test_a_copy_of_an_older_schema_is_refused_until_published(tmp_path: Path) -> None:
    path = _older_warehouse(tmp_path)
    copy = path.with_name("w.read.duckdb")
    said = (f"the read copy {copy} was written by an older pms-warehouse (migration "
            f"{BEFORE}; this one's is {LATEST}): `pmsw warehouse publish` brings it up to "
            "date, and so does the next sync")
    with pytest.raises(WarehouseSchemaError) as refused:
        open_read_copy(path)
    assert str(refused.value) == said

    runner = CliRunner()
    report = runner.invoke(main, ["report", "occupancy", "--warehouse", str(path)])
    assert report.exit_code == 1
    assert report.stderr == f"Error: {said}\n"
    info = runner.invoke(main, ["warehouse", "info", "--warehouse", str(path)])
    assert info.exit_code == 0, info.stderr
    assert info.stdout.rstrip().endswith(said)

    done = runner.invoke(main, ["warehouse", "publish", "--warehouse", str(path)])
    assert done.exit_code == 0, done.stderr
    with open_read_copy(path) as conn:
        assert conn.execute("SELECT max(version) FROM meta.schema_migrations").fetchone() == (
            LATEST,)
    report = runner.invoke(main, ["report", "occupancy", "--warehouse", str(path)])
    assert "holds no property yet" in report.stderr  # past the schema: the empty warehouse


def test_a_copy_of_a_newer_schema_says_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with connect(path) as conn:
        conn.execute("INSERT INTO meta.schema_migrations VALUES (?, 'a_later_one.sql', '', "
                     "current_timestamp)", [LATEST + 1])
        conn.execute("UPDATE meta.schema_state SET fingerprint = 'newer code'")
        publish(conn, path)
    with pytest.raises(WarehouseSchemaError) as refused:
        open_read_copy(path)
    assert str(refused.value).endswith(
        f"was written by a newer pms-warehouse (migration {LATEST + 1}; this one knows up to "
        f"{LATEST}): upgrade this one")
