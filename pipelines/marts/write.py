"""Replace one property's rows of a mart table with a polars frame, in one transaction.

Only the difference is written: a row already stored with the same values stays, a stored row
the frame no longer holds (or holds with other values) is deleted by its rowid, a row of the
frame not stored is inserted; a frame holding the mart's key (pipelines/warehouse/keys.py)
twice is refused, nothing written. The comparison is made here in polars, not by
`pipelines.warehouse.write_difference` over a temp table as the core merges are: a year's mart
(200k rows) staged in a temp table does not fit the writer's 64 MiB, and DuckDB 2.0 joins such
a table (past one row group, in a transaction) to nothing (docs/scaling.md). After a sync most
of a property's history is unchanged, so a rebuild writes the snapshots the sync touched, not
three years of them (docs/scaling.md, "Marts against history and change"). The table ends
equal to the frame either way.

A snapshot mart may be rebuilt from a date (`Since`): the frame then holds the snapshots from
that date on, and only the stored rows from that date on are compared with it; the rows before
are kept. What the rows were computed from (snapshot_inputs) is stored with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from uuid import uuid4

import duckdb
import polars as pl

from pipelines.marts.read import stored_rows
from pipelines.warehouse import (
    KEYS,
    DuplicateKeyError,
    insert_frame,
    query_frame,
    registered,
    transaction,
)


@dataclass(frozen=True)
class Replaced:
    """What a replace did: the property's rows now in the table, and the rows written."""

    rows: int
    inserted: int
    deleted: int
    since: date | None = None
    """The first snapshot computed again; None when the whole mart was."""


@dataclass(frozen=True)
class Since:
    """The rows of a mart from a snapshot date on."""

    column: str
    """SQL over the mart's columns: the snapshot date of a row."""
    expr: pl.Expr
    """The same in polars."""
    start: date


def _exact(frame_type: pl.DataType, stored_type: pl.DataType) -> bool:
    """Whether every value of `frame_type` compares to the stored one as DuckDB would store it.
    A float stored as a decimal does not: polars and DuckDB round its halves differently."""
    if frame_type == stored_type or (frame_type.is_integer() and stored_type.is_integer()):
        return True
    if isinstance(frame_type, pl.Decimal) and isinstance(stored_type, pl.Decimal):
        return frame_type.scale <= stored_type.scale
    return (isinstance(frame_type, pl.Datetime) and isinstance(stored_type, pl.Datetime)
            and frame_type.time_unit == stored_type.time_unit)


def _difference(stored: pl.DataFrame,
                rows: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """(rowids of the stored rows to delete, rows to insert), compared on every column of
    `rows` cast to the stored types; None when a column does not compare exactly (`_exact`)."""
    columns = rows.columns
    if not all(c in stored.schema and _exact(rows.schema[c], stored.schema[c])
               for c in columns):
        return None
    typed = rows.select(pl.col(c).cast(stored.schema[c]) for c in columns)
    kept = stored.select(columns)
    stale = stored.join(typed, on=columns, how="anti", nulls_equal=True).select("rowid")
    new = typed.with_row_index("_row").join(kept, on=columns, how="anti", nulls_equal=True)
    fresh = rows.select(pl.all().gather(new["_row"]))  # as built: DuckDB casts on insert
    return stale, fresh


def _typed(conn: duckdb.DuckDBPyConnection, table: str, rows: pl.DataFrame) -> pl.DataFrame:
    """`rows` cast by DuckDB to the types of `mart.<table>`'s columns, as its INSERT would cast
    them (a float to a decimal rounded DuckDB's way), so that they compare exactly."""
    types = dict(conn.execute("SELECT column_name, data_type FROM duckdb_columns() "
                              "WHERE schema_name = 'mart' AND table_name = ?", [table]).fetchall())
    select = ", ".join(f'CAST("{c}" AS {types[c]}) AS "{c}"' if c in types else f'"{c}"'
                       for c in rows.columns)
    with registered(conn, f"_typed_{table}_arrow", rows) as view:
        return query_frame(conn, f"SELECT {select} FROM {view}", [])


def _unique(table: str, rows: pl.DataFrame) -> None:
    """Refuse `rows` holding the key of `mart.<table>` twice (`DuplicateKeyError`)."""
    key = list(KEYS.get(f"mart.{table}", ()))
    if not key or not rows.height:
        return
    twice = rows.filter(pl.struct(key).is_duplicated()).select(key).head(1)
    if twice.height:
        held = ", ".join(str(v) for v in twice.row(0))
        raise DuplicateKeyError(f"mart.{table}: two new rows hold the key ({', '.join(key)}) = "
                                f"({held}); nothing written")


def write_difference(conn: duckdb.DuckDBPyConnection, table: str, rows: pl.DataFrame,
                     scope: str, params: list[object], derived: str = "") -> tuple[int, int]:
    """Make the stored rows of `mart.<table>` in `scope` (SQL over its columns, `params` its
    `?`) equal `rows`, writing only the difference, compared on the columns of `rows` (the
    others, `derived` select expressions as `insert_frame` takes them, filled on insert only).
    A column that does not compare exactly (`_exact`: a float stored as a decimal) is compared
    as DuckDB casts it (`_typed`). Stale rows are deleted by rowid; `rows` holding the mart's
    key twice are refused before anything is written (the key covers the property and the
    snapshot date, so no stored row out of the scope can hold a key of `rows`). Joins the
    caller's transaction; (rows inserted, rows deleted)."""
    _unique(table, rows)
    difference = None
    if rows.width:
        stored = query_frame(conn, f"SELECT rowid, * FROM mart.{table} WHERE {scope}", params)
        difference = (_difference(stored, rows)
                      or _difference(stored, _typed(conn, table, rows)))
    if difference is not None:
        stale, fresh = difference
        if stale.height:
            with registered(conn, f"_stale_{table}_arrow", stale) as view:
                conn.execute(f"DELETE FROM mart.{table} WHERE rowid IN (SELECT rowid FROM {view})")
        deleted = stale.height
    else:
        deleted = conn.execute(f"DELETE FROM mart.{table} WHERE {scope}", params).fetchall()[0][0]
        fresh = rows
    if fresh.height:
        insert_frame(conn, f"mart.{table}", fresh, derived)
    return fresh.height, deleted


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                 rows: pl.DataFrame, run_id: str | None = None, since: Since | None = None,
                 inputs: pl.DataFrame | None = None) -> Replaced:
    """Make the property's rows of `mart.<table>` (those from `since` on, when given) equal
    `rows` (matched by column name; DuckDB casts to the table's types), record the build in
    meta.mart_builds (`run_id`, default a fresh id) and `inputs` (day, digest) in
    meta.mart_inputs, all or nothing; only the rows that differ are written
    (`write_difference`)."""
    if rows.height and rows["property_id"].unique().to_list() != [property_id]:
        raise ValueError(f"mart.{table}: rows of another property than {property_id}")
    if since is not None and rows.height and not rows.select(
            (since.expr >= since.start).all()).item():
        raise ValueError(f"mart.{table}: rows before {since.start} in a rebuild from it")
    scope = "property_id = ?"
    params: list[object] = [property_id]
    if since is not None:
        scope = f"{scope} AND ({since.column}) >= ?"
        params.append(since.start)
    with transaction(conn):
        inserted, deleted = write_difference(conn, table, rows, scope, params)
        total = stored_rows(conn, table, property_id)
        conn.execute(
            "INSERT OR REPLACE INTO meta.mart_builds (property_id, mart, run_id, built_at, rows) "
            "VALUES (?, ?, ?, now(), ?)",
            [property_id, table, run_id or f"mart-{uuid4().hex}", total])
        _record_inputs(conn, table, property_id, inputs)
    return Replaced(rows=total, inserted=inserted, deleted=deleted,
                    since=None if since is None else since.start)


def _record_inputs(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                   inputs: pl.DataFrame | None) -> None:
    """Make the mart's rows of meta.mart_inputs `inputs` (none when None), writing only the
    days whose digest changed."""
    days = (inputs if inputs is not None else pl.DataFrame(
        schema={"day": pl.Date, "digest": pl.UInt64})).select("day", "digest")
    with registered(conn, f"_inputs_{table}_arrow", days) as view:
        conn.execute(f"DELETE FROM meta.mart_inputs t WHERE property_id = ? AND mart = ? AND "
                     f"NOT EXISTS (SELECT 1 FROM {view} n WHERE n.day = t.day "
                     "AND n.digest = t.digest)", [property_id, table])
        conn.execute(f"INSERT INTO meta.mart_inputs SELECT ?, ?, day, digest FROM {view} n "
                     "WHERE NOT EXISTS (SELECT 1 FROM meta.mart_inputs t WHERE t.property_id = ? "
                     "AND t.mart = ? AND t.day = n.day)", [property_id, table, property_id, table])
