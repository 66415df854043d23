"""Replace one property's rows of a mart table with a polars frame, in one transaction."""

from __future__ import annotations

import duckdb
import polars as pl

from pipelines.warehouse import insert_frame, transaction


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                 rows: pl.DataFrame) -> int:
    """DELETE the property's rows of `mart.<table>` and INSERT `rows` (matched by column name;
    DuckDB casts to the table's types), all or nothing. Returns the rows written."""
    if rows.height and rows["property_id"].unique().to_list() != [property_id]:
        raise ValueError(f"mart.{table}: rows of another property than {property_id}")
    with transaction(conn):
        conn.execute(f"DELETE FROM mart.{table} WHERE property_id = ?", [property_id])
        if rows.height:
            insert_frame(conn, f"mart.{table}", rows)
    return rows.height
