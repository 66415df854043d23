"""Reading the warehouse into polars: one query, one frame."""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl


def query_frame(conn: duckdb.DuckDBPyConnection, sql: str,
                params: list[Any] | dict[str, Any]) -> pl.DataFrame:
    """The result of `sql` as a polars frame, column types kept even when it is empty.

    Read through Arrow (`.pl()`, pyarrow): `pl.DataFrame(relation)` on DuckDB 2.0 prints
    nanobind "leaked" lines at exit."""
    frame: pl.DataFrame = conn.query(sql, params=params).pl()  # the stubs type .pl() as Any
    return frame
