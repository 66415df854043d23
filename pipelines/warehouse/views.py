"""(Re)create the analyst views of `sql/views/` (CREATE OR REPLACE VIEW), in file order.

Views hold no data, so unlike migrations they are simply replaced: the files are the truth.
`connect()` applies them after the migrations.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from .migrate import sql_dir
from .transaction import transaction


def view_files(folder: Path | None = None) -> list[Path]:
    folder = folder if folder is not None else sql_dir() / "views"
    return sorted(folder.glob("*.sql")) if folder.is_dir() else []


def apply_views(conn: duckdb.DuckDBPyConnection, folder: Path | None = None) -> list[str]:
    """Create or replace every view of `folder` (default `sql/views/`) in one transaction;
    return the file names applied."""
    files = view_files(folder)
    with transaction(conn):
        for path in files:
            conn.execute(path.read_text(encoding="utf-8"))
    return [path.name for path in files]
