"""Keep the nights of a forecast build that a later flash compares with in
mart.forecast_history (which ones: pipelines/forecast/logic/history.py). Called inside the
transaction that replaces mart.forecast_daily, so the two are written all or nothing; an
as-of date built again replaces its own kept rows, earlier ones stay, and writes only the
nights whose forecast changed (a night kept again equal keeps its row and its `kept_at`: a
sync with nothing new writes no row here). Each kept night keeps
the departments' forecast too (F&B and other: its rooms x their revenue per room on the books at
the night's end of the closed days before the as-of date, `revenue_per_room_final`)."""

from __future__ import annotations

from datetime import date

import duckdb
import polars as pl

from pipelines.forecast.logic import kept_nights, with_departments
from pipelines.marts.departments import revenue_per_room_final
from pipelines.marts.write import write_difference
from pipelines.warehouse import transaction


def keep_forecast(conn: duckdb.DuckDBPyConnection, property_id: int,
                  forecast: pl.DataFrame) -> int:
    """Keep the property's nights of `forecast` (mart.forecast_daily's rows as built, one
    as-of date); the rows kept."""
    if not forecast.height:
        return 0
    as_of = forecast["as_of_date"].min()
    if not isinstance(as_of, date):
        raise ValueError(f"forecast history: as_of_date {as_of!r} is no date")
    with transaction(conn):
        earlier = conn.execute(
            "SELECT count(*) FROM mart.forecast_history WHERE property_id = ? AND "
            "as_of_date < ?", [property_id, as_of]).fetchone()
        assert earlier is not None
        rows = with_departments(kept_nights(forecast, first_kept=not earlier[0]),
                                revenue_per_room_final(conn, property_id, as_of))
        write_difference(conn, "forecast_history", rows, "property_id = ? AND as_of_date = ?",
                         [property_id, as_of], "now() AS kept_at")
    return rows.height
