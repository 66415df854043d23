"""Keep the nights of a forecast build that a later flash compares with in
mart.forecast_history (which ones: pipelines/forecast/logic/history.py). Called inside the
transaction that replaces mart.forecast_daily, so the two are written all or nothing; an
as-of date built again replaces its own kept rows, earlier ones stay."""

from __future__ import annotations

import duckdb
import polars as pl

from pipelines.forecast.logic import kept_nights
from pipelines.warehouse import insert_frame, transaction


def keep_forecast(conn: duckdb.DuckDBPyConnection, property_id: int,
                  forecast: pl.DataFrame) -> int:
    """Keep the property's nights of `forecast` (mart.forecast_daily's rows as built, one
    as-of date); the rows kept."""
    if not forecast.height:
        return 0
    as_of = forecast["as_of_date"].min()
    with transaction(conn):
        earlier = conn.execute(
            "SELECT count(*) FROM mart.forecast_history WHERE property_id = ? AND "
            "as_of_date < ?", [property_id, as_of]).fetchone()
        assert earlier is not None
        rows = kept_nights(forecast, first_kept=not earlier[0])
        conn.execute("DELETE FROM mart.forecast_history WHERE property_id = ? AND "
                     "as_of_date = ?", [property_id, as_of])
        if rows.height:
            insert_frame(conn, "mart.forecast_history", rows, "now() AS kept_at")
    return rows.height
