"""(Re)create the analyst views of `sql/views/` (CREATE OR REPLACE VIEW), in file order.

Views hold no data, so unlike migrations they are simply replaced: the files are the truth.
`connect()` applies them after the migrations. Before the views, the reference table
`mart.departments` is refilled from `pipelines.vocabulary.departments.DEPARTMENTS`, so the SQL
reads the departments from the same definition as the marts and the reports.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipelines.vocabulary import DEPARTMENTS
from pipelines.warehouse.migrate import sql_dir
from pipelines.warehouse.transaction import transaction


def view_files(folder: Path | None = None) -> list[Path]:
    folder = folder if folder is not None else sql_dir() / "views"
    return sorted(folder.glob("*.sql")) if folder.is_dir() else []


def apply_views(conn: duckdb.DuckDBPyConnection, folder: Path | None = None) -> list[str]:
    """Create or replace every view of `folder` (default `sql/views/`) in one transaction;
    return the file names applied."""
    files = view_files(folder)
    with transaction(conn):
        write_departments(conn)
        for path in files:
            conn.execute(path.read_text(encoding="utf-8"))
    return [path.name for path in files]


def write_departments(conn: duckdb.DuckDBPyConnection) -> None:
    """Replace the rows of mart.departments with DEPARTMENTS (when the table exists)."""
    found = conn.execute("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'mart' "
                         "AND table_name = 'departments'").fetchone()
    if not found or not found[0]:
        return
    conn.execute("DELETE FROM mart.departments")
    conn.executemany("INSERT INTO mart.departments VALUES (?, ?, ?, ?)",
                     [(d.code, d.label, d.is_revenue, d.position) for d in DEPARTMENTS])
