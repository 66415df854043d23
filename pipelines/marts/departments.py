"""Revenue beyond rooms (docs/kpi.md, docs/flash.md): F&B and other revenue posted in a span
of days, and per room on the books at the night's end over the closed days before a date, the
rate the departments' forecast multiplies the rooms forecast by (the same basis). One
computation for the flash's actuals, the demo's budget, forecast-months' expected months, the
forecast history's departments (`keep_forecast`) and the backtest that scores them
(`recent_days`, mart.forecast_accuracy)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

import duckdb
import polars as pl

PER_ROOM_DAYS = 91
"""The closed days before the as-of (business) date whose F&B and other revenue per room
make the forecast of those departments (`revenue_per_room_final`)."""

_FNB = ("coalesce(sum(department_revenue_net) FILTER (WHERE department = 'food_beverage'), "
        "0)")
_OTHER = ("coalesce(sum(department_revenue_net) FILTER (WHERE is_revenue AND department NOT "
          "IN ('accommodation', 'food_beverage')), 0)")
"""food_beverage_revenue_net and other_revenue_net of mart.revenue_daily's rows summed."""


def revenue_beyond_rooms(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
                         last: date) -> tuple[Decimal, Decimal]:
    """food_beverage_revenue_net and other_revenue_net posted first..last (mart.revenue_daily,
    by posting date; docs/kpi.md)."""
    row = conn.execute(f"SELECT {_FNB}, {_OTHER} FROM mart.revenue_daily "
                       "WHERE property_id = ? AND date BETWEEN ? AND ?",
                       [pid, first, last]).fetchone()
    assert row is not None
    return Decimal(row[0]), Decimal(row[1])


RECENT_SCHEMA = pl.Schema({"as_of_date": pl.Date(), "nights": pl.Int64(),
                           "rooms_final": pl.Int64(), "posted": pl.Int64(),
                           "room_revenue_net": pl.Decimal(38, 2),
                           "food_beverage_revenue_net": pl.Decimal(38, 2),
                           "other_revenue_net": pl.Decimal(38, 2)})
"""`recent_days`' frame: per as-of date, the sums of its PER_ROOM_DAYS closed days."""


def recent_days(conn: duckdb.DuckDBPyConnection, pid: int, as_of: Sequence[date]
                ) -> pl.DataFrame:
    """For each date of `as_of`, the PER_ROOM_DAYS closed days before it (RECENT_SCHEMA): the
    nights mart.occupancy_daily holds of them, their rooms_final (rooms_sold +
    rooms_complimentary + no_shows: the rooms on the books at the night's end, the basis of
    `rooms_forecast`) and room revenue, the revenue rows posted in them (mart.revenue_daily,
    is_revenue) and their F&B and other revenue."""
    days = PER_ROOM_DAYS
    rows = conn.execute(
        "WITH a AS (SELECT DISTINCT unnest(?::DATE[]) AS as_of_date), "
        "o AS (SELECT as_of_date, count(*) AS nights, sum(rooms_sold + rooms_complimentary + "
        "no_shows) AS rooms_final, sum(room_revenue_net) AS room FROM a JOIN "
        "mart.occupancy_daily ON property_id = ? AND stay_date BETWEEN as_of_date - "
        f"{days} AND as_of_date - 1 GROUP BY as_of_date), "
        "r AS (SELECT as_of_date, count(*) FILTER (WHERE is_revenue) AS posted, "
        f"{_FNB} AS fnb, {_OTHER} AS other FROM a JOIN mart.revenue_daily ON property_id = ? "
        f"AND date BETWEEN as_of_date - {days} AND as_of_date - 1 GROUP BY as_of_date) "
        "SELECT as_of_date, coalesce(nights, 0), coalesce(rooms_final, 0), "
        "coalesce(posted, 0), coalesce(room, 0), coalesce(fnb, 0), coalesce(other, 0) "
        "FROM a LEFT JOIN o USING (as_of_date) LEFT JOIN r USING (as_of_date) "
        "ORDER BY as_of_date", [list(as_of), pid, pid]).fetchall()
    return pl.DataFrame(rows, schema=RECENT_SCHEMA, orient="row")


def revenue_per_room_final(conn: duckdb.DuckDBPyConnection, pid: int, as_of: date
                           ) -> tuple[Decimal, Decimal] | None:
    """F&B and other net revenue per room on the books at the night's end (rooms_final, the
    basis of `rooms_forecast`, which the rate multiplies: docs/kpi.md
    `food_beverage_per_room_final_net`) of the PER_ROOM_DAYS closed days before `as_of`
    (`recent_days`), exact; None when they had no room on the books, or when mart.revenue_daily
    holds no revenue posted in them (the warehouse has not read their folios: a first sync
    reads the reservations before the folios, docs/flash.md), which is no spend of 0.00. A
    guest eats and spends by the room night, so the nights ahead spend as the recent ones
    did."""
    row = recent_days(conn, pid, [as_of]).row(0, named=True)
    rooms = Decimal(row["rooms_final"])
    if not rooms or not row["posted"]:
        return None
    return row["food_beverage_revenue_net"] / rooms, row["other_revenue_net"] / rooms


NIGHTS_SCHEMA = pl.Schema({"stay_date": pl.Date(), "room_revenue_net": pl.Decimal(38, 2),
                           "food_beverage_revenue_net": pl.Decimal(38, 2),
                           "other_revenue_net": pl.Decimal(38, 2)})


def nights_revenue(conn: duckdb.DuckDBPyConnection, pid: int, nights: Sequence[date]
                   ) -> pl.DataFrame:
    """Each night of `nights` mart.occupancy_daily holds (NIGHTS_SCHEMA): its room revenue
    (mart.occupancy_daily, fees in) and the F&B and other revenue posted that date
    (mart.revenue_daily; 0.00 when nothing was): the revenue the flash reads of a day."""
    rows = conn.execute(
        f"SELECT o.stay_date, o.room_revenue_net, coalesce(r.fnb, 0), coalesce(r.other, 0) "
        f"FROM mart.occupancy_daily o LEFT JOIN (SELECT date, {_FNB} AS fnb, {_OTHER} AS "
        "other FROM mart.revenue_daily WHERE property_id = ? GROUP BY date) r "
        "ON r.date = o.stay_date WHERE o.property_id = ? AND o.stay_date IN (SELECT "
        "unnest(?::DATE[])) ORDER BY o.stay_date", [pid, pid, list(nights)]).fetchall()
    return pl.DataFrame(rows, schema=NIGHTS_SCHEMA, orient="row")
