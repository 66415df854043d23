"""Bulk staging of Python rows into DuckDB temp tables through Arrow (no row-by-row INSERT).

Rows become a polars frame, which DuckDB reads through the Arrow C stream interface (no
pyarrow needed). Decimals travel as exact decimal strings and JSON as text; the INSERT into
the typed core table casts them, so no float ever touches an amount.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
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


@contextmanager
def registered(conn: duckdb.DuckDBPyConnection, view: str,
                frame: pl.DataFrame) -> Iterator[str]:
    """`frame` as DuckDB view `view` for the block. A statement that failed inside it has
    aborted the transaction, and unregistering would then raise over the statement's own
    error (the one the user must see, e.g. out of memory), so that error is the one raised."""
    conn.register(view, _ArrowStream(frame))
    try:
        yield view
    except BaseException:
        with suppress(duckdb.Error):
            conn.unregister(view)
        raise
    conn.unregister(view)


def stage(conn: duckdb.DuckDBPyConnection, name: str, schema: Schema,
          rows: Sequence[Mapping[str, Any]]) -> int:
    """(Re)create temp table `name` holding `rows` with the column types of `schema`."""
    frame = frame_of(schema, rows)
    with registered(conn, f"{name}_arrow", frame) as view:
        conn.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {view}")
    return frame.height


def insert_frame(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame,
                 derived: str = "") -> int:
    """INSERT `frame` into `table`, columns matched by name (DuckDB casts to the table's
    types), plus the `derived` select expressions (e.g. `f(x) AS y`) over the frame's columns.
    Joins the caller's transaction. Returns the rows inserted.

    Straight from the Arrow stream, with no temp table between: DuckDB writes a large insert's
    row groups to the file as they fill, where a temp table would hold every row in the
    writer's capped memory until the insert ends (docs/operations.md, "A writer's memory")."""
    extra = f", {derived}" if derived else ""
    with registered(conn, f"_insert_{table.replace('.', '_')}_arrow", frame) as view:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT *{extra} FROM {view}")
    return frame.height


def frame_of(schema: Schema, rows: Sequence[Mapping[str, Any]]) -> pl.DataFrame:
    """`rows` as a polars frame with the column types of `schema`."""
    return pl.DataFrame({col: [row[col] for row in rows] for col in schema}, schema=dict(schema))


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
