"""Open the warehouse: a DuckDB file, the session in UTC, migrations and views applied."""

from __future__ import annotations

from pathlib import Path

import duckdb

from .migrate import migrate
from .views import apply_views

DEFAULT_PATH = Path("data/warehouse.duckdb")


def connect(
    path: str | Path = DEFAULT_PATH, *, read_only: bool = False
) -> duckdb.DuckDBPyConnection:
    """Connect to the warehouse file (created with its folder when missing) and migrate it.

    The session time zone is UTC, so TIMESTAMPTZ values read back and casts to DATE are UTC
    whatever the machine's zone. A read-only connection is not migrated.
    """
    target = Path(path)
    if not read_only and str(path) != ":memory:":
        target.parent.mkdir(parents=True, exist_ok=True)
    conn = duckdb.connect(str(path), read_only=read_only)
    conn.execute("SET TimeZone = 'UTC'")
    if not read_only:
        migrate(conn)
        apply_views(conn)
    return conn
