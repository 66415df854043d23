"""`pmsw report forecast`'s total row on a hand-built mart.forecast_daily in a real, migrated
warehouse: rooms and revenue add up; the nights' bands do not, so the total shows none."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from pipelines.reports.reports import Query, forecast
from pipelines.reports.warehouse import PropertyRow
from pipelines.warehouse.connection import connect


def test_the_total_adds_rooms_and_revenue_but_no_band(tmp_path: Path) -> None:
    """Three nights: on the books 10 + 20 + 30 = 60, forecast 12.50 + 22.25 + 31.00 = 65.75
    rooms, shown as whole rooms half-up (13, 22, 31; the total 65.75 -> 66), revenue
    1,000.00 + 2,000.50 + 3,000.25 = 6,000.75; bands 10-15, 20-25, 30-33 shown night by
    night, none on the total (their sum, 60 to 73, is no 80 % band of the sum)."""
    with connect(tmp_path / "w.duckdb") as conn:
        as_of = date(2026, 11, 28)
        nights = [(10, 12.50, 10.0, 15.0, 1000.00), (20, 22.25, 20.0, 25.0, 2000.50),
                  (30, 31.00, 30.0, 33.0, 3000.25)]
        conn.executemany(
            "INSERT INTO mart.forecast_daily (property_id, as_of_date, stay_date, days_before, "
            "rooms_otb, revenue_otb_net, rooms_forecast, rooms_low, rooms_high, "
            "room_revenue_forecast_net, method) VALUES (1, ?, ?, ?, ?, 0, ?, ?, ?, ?, "
            "'season_books')",
            [(as_of, as_of + timedelta(days=n), n, *night) for n, night in enumerate(nights)])
        prop = PropertyRow(1, "ROMA01", "Rome", "EUR", as_of)
        table = forecast(conn, Query(prop, as_of, as_of + timedelta(days=2)))
    assert [r[4:7] for r in table.rows] == [(13, 10, 15), (22, 20, 25), (31, 30, 33)]
    assert table.total is not None
    total = dict(zip(table.columns, table.total, strict=True))
    assert (total["rooms_otb"], total["rooms_forecast"], total["room_revenue_forecast_net"]) == (
        60, 66, Decimal("6000.75"))
    assert (total["rooms_low"], total["rooms_high"]) == ("", "")
    assert "the total has none" in table.title
