"""Replace one property's rows of a mart table with a polars frame, in one transaction."""

from __future__ import annotations

from uuid import uuid4

import duckdb
import polars as pl

from pipelines.warehouse import insert_frame, transaction


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                 rows: pl.DataFrame, run_id: str | None = None) -> int:
    """DELETE the property's rows of `mart.<table>` and INSERT `rows` (matched by column name;
    DuckDB casts to the table's types), and record the build in meta.mart_builds (`run_id`,
    default a fresh id), all or nothing. Returns the rows written."""
    if rows.height and rows["property_id"].unique().to_list() != [property_id]:
        raise ValueError(f"mart.{table}: rows of another property than {property_id}")
    with transaction(conn):
        conn.execute(f"DELETE FROM mart.{table} WHERE property_id = ?", [property_id])
        if rows.height:
            insert_frame(conn, f"mart.{table}", rows)
        conn.execute(
            "INSERT OR REPLACE INTO meta.mart_builds (property_id, mart, run_id, built_at) "
            "VALUES (?, ?, ?, now())", [property_id, table, run_id or f"mart-{uuid4().hex}"])
    return rows.height
