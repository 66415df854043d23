"""Replace one property's rows of a mart table with a polars frame, in one transaction.

Only the difference is written (`pipelines.warehouse.write_difference`): a row already stored
with the same values stays, a stored row the frame no longer holds (or holds with other
values) is deleted, a row of the frame not stored is inserted; rows holding the mart's key
twice are refused. After a sync most
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
from pipelines.warehouse import registered, transaction, write_difference


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


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                 rows: pl.DataFrame, run_id: str | None = None, since: Since | None = None,
                 inputs: pl.DataFrame | None = None) -> Replaced:
    """Make the property's rows of `mart.<table>` (those from `since` on, when given) equal
    `rows` (matched by column name; DuckDB casts to the table's types), record the build in
    meta.mart_builds (`run_id`, default a fresh id) and `inputs` (day, digest) in
    meta.mart_inputs, all or nothing; only the rows that differ are written
    (`write_difference`: rows holding the mart's key twice are refused, nothing written)."""
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
        inserted, deleted = write_difference(conn, f"mart.{table}", rows, scope, params)
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
