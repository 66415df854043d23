"""Replace one property's rows of a mart table with a polars frame, in one transaction."""

from __future__ import annotations

import duckdb
import polars as pl

from pipelines.warehouse import transaction
from pipelines.warehouse._staging import _ArrowStream


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
                 rows: pl.DataFrame) -> int:
    """DELETE the property's rows of `mart.<table>` and INSERT `rows` (matched by column name;
    DuckDB casts to the table's types), all or nothing. Returns the rows written."""
    if rows.height and rows["property_id"].unique().to_list() != [property_id]:
        raise ValueError(f"mart.{table}: rows of another property than {property_id}")
    view = f"_mart_{table}_arrow"
    conn.register(view, _ArrowStream(rows))
    try:
        with transaction(conn):
            conn.execute(f"DELETE FROM mart.{table} WHERE property_id = ?", [property_id])
            if rows.height:
                conn.execute(f"INSERT INTO mart.{table} BY NAME SELECT * FROM {view}")
    finally:
        conn.unregister(view)
    return rows.height
