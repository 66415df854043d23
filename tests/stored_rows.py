"""The rows a test reads from a DuckDB file (a warehouse or its read copy), opened read-only for
the one statement and closed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb


def stored_rows(path: Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(path), read_only=True) as conn:
        return conn.execute(sql, list(params)).fetchall()
