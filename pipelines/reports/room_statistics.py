"""The Manager Flash's room statistics of a period (docs/kpi.md, "Room statistics"): each a
sum of its one definition in mart.occupancy_daily (by stay date, or the date of arrival or
departure), the reservations made, from mart.booking_outcomes (firm bookings, by the
local date made), and the cancellations made, from mart.v_cancellations_made (room entries the
guest cancelled, by the local date their status became cancelled)."""

from __future__ import annotations

from datetime import date

import duckdb

ROOM_STATISTICS = ("arrivals", "departures", "rooms_in_house", "persons", "no_shows",
                   "walk_ins", "rooms_out_of_order", "rooms_complimentary", "rooms_house_use",
                   "reservations_made", "cancellations_made")
"""The rows, in the order OPERA's Manager Flash has them."""
_FROM_OCCUPANCY = ROOM_STATISTICS[:9]


def room_statistics(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
                    last: date) -> dict[str, int]:
    """The sums of the days first..last (inclusive)."""
    sums = ", ".join(f"coalesce(sum({c}), 0)" for c in _FROM_OCCUPANCY)
    row = conn.execute(f"SELECT {sums} FROM mart.occupancy_daily WHERE property_id = ? AND "
                       "stay_date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    made = conn.execute("SELECT count(*) FROM mart.booking_outcomes WHERE property_id = ? AND "
                        "is_booking AND booked_on BETWEEN ? AND ?", [pid, first, last]).fetchone()
    cancelled = conn.execute("SELECT count(*) FROM mart.v_cancellations_made WHERE property_id "
                             "= ? AND cancelled_on BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert row is not None
    assert made is not None
    assert cancelled is not None
    out: dict[str, int] = {c: int(v) for c, v in zip(_FROM_OCCUPANCY, row, strict=True)}
    out.update(reservations_made=int(made[0]), cancellations_made=int(cancelled[0]))
    return out
