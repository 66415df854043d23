"""A few rows of a table, for the run's metadata (never a secret: core tables hold none)."""

from __future__ import annotations

from typing import Any

import duckdb


def preview(conn: duckdb.DuckDBPyConnection, sql: str, params: list[Any],
            limit: int = 5) -> list[dict[str, Any]]:
    cursor = conn.execute(f"{sql} LIMIT {int(limit)}", params)
    names = [d[0] for d in cursor.description or []]
    return [{n: (v if isinstance(v, int | float | str | bool) or v is None else str(v))
             for n, v in zip(names, row, strict=True)} for row in cursor.fetchall()]
