"""Bulk staging of Python rows into DuckDB temp tables through Arrow (no row-by-row INSERT).

Rows become a polars frame, which DuckDB reads through the Arrow C stream interface (no
pyarrow needed). Decimals travel as exact decimal strings and JSON as text; the INSERT into
the typed core table casts them, so no float ever touches an amount.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

import duckdb
import polars as pl

INT = pl.Int64
STR = pl.String
BOOL = pl.Boolean
DATE = pl.Date
TS = pl.Datetime("us", "UTC")
DEC = pl.String
"""Decimals are staged as exact strings and cast by DuckDB on insert."""
JSON = pl.String

Schema = Mapping[str, Any]


class _ArrowStream:
    """Expose a polars frame to DuckDB's replacement scans via `__arrow_c_stream__` only."""

    def __init__(self, frame: pl.DataFrame) -> None:
        self._frame = frame

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self._frame.__arrow_c_stream__(requested_schema)


def stage(conn: duckdb.DuckDBPyConnection, name: str, schema: Schema,
          rows: Sequence[Mapping[str, Any]]) -> int:
    """(Re)create temp table `name` holding `rows` with the column types of `schema`."""
    columns = {col: [row[col] for row in rows] for col in schema}
    frame = pl.DataFrame(columns, schema=dict(schema))
    view = f"{name}_arrow"
    conn.register(view, _ArrowStream(frame))
    try:
        conn.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {view}")
    finally:
        conn.unregister(view)
    return frame.height


def insert_frame(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> int:
    """INSERT `frame` into `table`, columns matched by name (DuckDB casts to the table's
    types). Joins the caller's transaction. Returns the rows inserted."""
    view = f"_insert_{table.replace('.', '_')}_arrow"
    conn.register(view, _ArrowStream(frame))
    try:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM {view}")
    finally:
        conn.unregister(view)
    return frame.height


def drop(conn: duckdb.DuckDBPyConnection, *names: str) -> None:
    for name in names:
        conn.execute(f"DROP TABLE IF EXISTS temp.{name}")


def dec(value: Decimal | None) -> str | None:
    """An exact decimal string (never scientific notation), or None."""
    return None if value is None else format(value, "f")


def to_json(value: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, so equal values give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def require_aware(value: datetime, field: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{field} must carry a time zone (server time, e.g. the HTTP Date header)")
    return value
