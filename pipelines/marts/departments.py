"""Revenue beyond rooms (docs/kpi.md, docs/flash.md): F&B and other revenue posted in a span
of days, and per room on the books at the night's end over the closed days before a date, the
rate the departments' forecast multiplies the rooms forecast by (the same basis). One
computation for the flash's actuals, the demo's budget, forecast-months' expected months and
the forecast history's departments (`keep_forecast`)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import duckdb

PER_ROOM_DAYS = 91
"""The closed days before the as-of (business) date whose F&B and other revenue per room
make the forecast of those departments (`revenue_per_room_final`)."""


def revenue_beyond_rooms(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
                         last: date) -> tuple[Decimal, Decimal]:
    """food_beverage_revenue_net and other_revenue_net posted first..last (mart.revenue_daily,
    by posting date; docs/kpi.md)."""
    row = conn.execute(
        "SELECT coalesce(sum(department_revenue_net) FILTER (WHERE department = "
        "'food_beverage'), 0), coalesce(sum(department_revenue_net) FILTER (WHERE is_revenue "
        "AND department NOT IN "
        "('accommodation', 'food_beverage')), 0) FROM mart.revenue_daily "
        "WHERE property_id = ? AND date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert row is not None
    return Decimal(row[0]), Decimal(row[1])


def revenue_per_room_final(conn: duckdb.DuckDBPyConnection, pid: int, as_of: date
                           ) -> tuple[Decimal, Decimal] | None:
    """F&B and other net revenue (posting date, mart.revenue_daily) per room on the books at
    the night's end, rooms_final = rooms_sold + rooms_complimentary + no_shows of
    mart.occupancy_daily: the basis of `rooms_forecast`, which the rate multiplies (docs/kpi.md
    `food_beverage_per_room_final_net`), on the PER_ROOM_DAYS closed days before `as_of`; None
    when they had no room on the books, or when mart.revenue_daily holds no revenue posted in
    them (the warehouse has not read their folios: a first sync reads the reservations before
    the folios, docs/flash.md), which is no spend of 0.00. A guest eats and spends by the room
    night, so the nights ahead spend as the recent ones did."""
    first, last = as_of - timedelta(days=PER_ROOM_DAYS), as_of - timedelta(days=1)
    row = conn.execute(
        "SELECT coalesce(sum(rooms_sold + rooms_complimentary + no_shows), 0), (SELECT "
        "count(*) FROM mart.revenue_daily WHERE property_id = ? AND date BETWEEN ? AND ? AND "
        "is_revenue) FROM mart.occupancy_daily WHERE property_id = ? AND stay_date BETWEEN ? "
        "AND ?", [pid, first, last, pid, first, last]).fetchone()
    assert row is not None
    rooms = Decimal(row[0])
    if not rooms or not row[1]:
        return None
    fnb, other = revenue_beyond_rooms(conn, pid, first, last)
    return fnb / rooms, other / rooms
