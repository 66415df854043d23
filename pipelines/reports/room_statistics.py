"""The Manager Flash's room statistics of a period (docs/kpi.md, "Room statistics"): each a
sum of its one definition in mart.occupancy_daily (by stay date, or the date of arrival or
departure), and the reservations made, from mart.booking_outcomes (firm bookings, by the
local date made)."""

from __future__ import annotations

from datetime import date

import duckdb

ROOM_STATISTICS = ("arrivals", "departures", "rooms_in_house", "persons", "no_shows",
                   "walk_ins", "rooms_out_of_order", "rooms_complimentary", "rooms_house_use",
                   "reservations_made", "cancellations_made")
"""The rows, in the order OPERA's Manager Flash has them."""
_FROM_OCCUPANCY = ROOM_STATISTICS[:9]
NOT_BUILT = {"cancellations_made": "cancellations_made: not shown, the warehouse keeps no "
                                   "date of cancellation yet"}
"""The statistics the warehouse cannot give yet, each with why (said in the flash's title)."""


def room_statistics(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
                    last: date) -> dict[str, int | None]:
    """The sums of the days first..last (inclusive); a statistic not built is None."""
    sums = ", ".join(f"coalesce(sum({c}), 0)" for c in _FROM_OCCUPANCY)
    row = conn.execute(f"SELECT {sums} FROM mart.occupancy_daily WHERE property_id = ? AND "
                       "stay_date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    made = conn.execute("SELECT count(*) FROM mart.booking_outcomes WHERE property_id = ? AND "
                        "is_booking AND booked_on BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert row is not None
    assert made is not None
    out: dict[str, int | None] = {c: int(v) for c, v in zip(_FROM_OCCUPANCY, row, strict=True)}
    out.update(reservations_made=int(made[0]), cancellations_made=None)
    return out
