"""Availability by room type and night, and whether a physical room is free.

Spec formula (Availability and quote): available = rooms of the type on sale, minus stays
(counted on the type of the assigned room, or the requested type when none is assigned), minus
rooms out of order. "On sale" = sellable rooms of non-virtual types; a stay is any room entry not
cancelled and occupies the nights arrival <= night < departure; a block occupies the nights
from_date <= night < to_date and counts only sellable rooms. `available` goes negative only
through a forced overbooking.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from ..db import all_rows


@dataclass(frozen=True)
class DayCount:
    night: date
    total: int
    occupied: int
    out_of_order: int
    available: int


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _storable(record_id: int) -> bool:
    """Whether the id fits an SQLite integer (a larger one belongs to no record)."""
    return -(2**63) <= record_id < 2**63


def type_availability(
    conn: sqlite3.Connection,
    property_id: int,
    first_night: date,
    end: date,
    room_type_ids: Sequence[int] | None = None,
    *,
    exclude_stay_ids: Sequence[int] = (),
) -> dict[int, list[DayCount]]:
    """Counts for every night of [first_night, end), per room type id in `sort` order.

    Without `room_type_ids`: every non-virtual type of the property. `exclude_stay_ids` leaves
    those stays out (a stay being moved does not compete with itself).
    """
    if room_type_ids is None:
        types = [row["id"] for row in all_rows(
            conn, "SELECT id FROM room_types WHERE property_id = ? AND is_virtual = 0 "
            "ORDER BY sort, id", property_id)]
    else:
        types = [t for t in room_type_ids if _storable(t)]
    span = max((end - first_night).days, 0)
    nights = [first_night + timedelta(days=n) for n in range(span)]
    occupied = {t: [0] * span for t in types}
    blocked = {t: [0] * span for t in types}
    totals = dict.fromkeys(types, 0)
    if not types or not nights:
        return {t: [] for t in types}

    for row in all_rows(
        conn, f"SELECT r.room_type_id, COUNT(*) AS n FROM rooms r JOIN room_types t "
        f"ON t.id = r.room_type_id WHERE r.property_id = ? AND r.sellable = 1 "
        f"AND t.is_virtual = 0 AND r.room_type_id IN ({_marks(types)}) GROUP BY r.room_type_id",
        property_id, *types):
        totals[row["room_type_id"]] = row["n"]

    start_iso, end_iso = first_night.isoformat(), end.isoformat()
    stays = all_rows(
        conn, "SELECT s.id, s.arrival, s.departure, COALESCE(r.room_type_id, s.room_type_id) "
        "AS type_id FROM reservation_rooms s LEFT JOIN rooms r ON r.id = s.room_id "
        "WHERE s.property_id = ? AND s.status <> 'cancelled' AND s.arrival < ? "
        "AND s.departure > ?", property_id, end_iso, start_iso)
    excluded = set(exclude_stay_ids)
    for stay in stays:
        if stay["id"] in excluded or stay["type_id"] not in occupied:
            continue
        _count_nights(occupied[stay["type_id"]], first_night, span,
                      date.fromisoformat(stay["arrival"]), date.fromisoformat(stay["departure"]))

    # One row per blocked room and night, so overlapping blocks of a room count it once.
    per_room: dict[int, tuple[int, list[int]]] = {}
    for block in all_rows(
        conn, "SELECT b.room_id, r.room_type_id, b.from_date, b.to_date FROM room_blocks b "
        "JOIN rooms r ON r.id = b.room_id WHERE b.property_id = ? AND r.sellable = 1 "
        "AND b.from_date < ? AND b.to_date > ?", property_id, end_iso, start_iso):
        if block["room_type_id"] not in blocked:
            continue
        _, marks = per_room.setdefault(block["room_id"], (block["room_type_id"], [0] * span))
        _count_nights(marks, first_night, span, date.fromisoformat(block["from_date"]),
                      date.fromisoformat(block["to_date"]))
    for type_id, marks in per_room.values():
        for n, mark in enumerate(marks):
            blocked[type_id][n] += min(mark, 1)

    return {
        t: [DayCount(night, totals[t], occupied[t][n], blocked[t][n],
                     totals[t] - occupied[t][n] - blocked[t][n])
            for n, night in enumerate(nights)]
        for t in types
    }


def _count_nights(counts: list[int], first_night: date, span: int, start: date,
                  end: date) -> None:
    lo = max((start - first_night).days, 0)
    hi = min((end - first_night).days, span)
    for n in range(lo, hi):
        counts[n] += 1


def type_has_rooms(
    conn: sqlite3.Connection,
    property_id: int,
    room_type_id: int,
    arrival: date,
    departure: date,
    needed: int = 1,
    exclude_stay_ids: Sequence[int] = (),
) -> bool:
    """Whether `needed` more rooms of the type fit on every night of [arrival, departure)."""
    if not _storable(room_type_id):
        return False
    days = type_availability(conn, property_id, arrival, departure, [room_type_id],
                             exclude_stay_ids=exclude_stay_ids)[room_type_id]
    return all(day.available >= needed for day in days)


_FREE = (
    "r.sellable = 1"
    " AND NOT EXISTS (SELECT 1 FROM room_blocks b WHERE b.room_id = r.id"
    " AND b.from_date < :departure AND b.to_date > :arrival)"
    " AND NOT EXISTS (SELECT 1 FROM reservation_rooms s WHERE s.room_id = r.id"
    " AND s.status <> 'cancelled' AND s.arrival < :departure AND s.departure > :arrival"
    " AND s.id IS NOT :exclude)"
)
"""A room is free: sellable, not out of order, and no other stay not cancelled holds it."""


def room_is_free(
    conn: sqlite3.Connection,
    property_id: int,
    room_id: int,
    arrival: date,
    departure: date,
    exclude_stay_id: int | None = None,
) -> bool:
    """Whether the room (of this property) is free for every night of [arrival, departure)."""
    if not _storable(room_id):
        return False
    row = conn.execute(
        f"SELECT r.id FROM rooms r WHERE r.id = :room AND r.property_id = :property AND {_FREE}",
        {"room": room_id, "property": property_id, "arrival": arrival.isoformat(),
         "departure": departure.isoformat(), "exclude": exclude_stay_id},
    ).fetchone()
    return row is not None


def first_free_room(
    conn: sqlite3.Connection,
    property_id: int,
    room_type_id: int,
    arrival: date,
    departure: date,
    exclude_stay_id: int | None = None,
) -> int | None:
    """The free room of the type with the lowest id, or None."""
    if not _storable(room_type_id):
        return None
    row = conn.execute(
        f"SELECT r.id FROM rooms r WHERE r.property_id = :property AND r.room_type_id = :type "
        f"AND {_FREE} ORDER BY r.id LIMIT 1",
        {"type": room_type_id, "property": property_id, "arrival": arrival.isoformat(),
         "departure": departure.isoformat(), "exclude": exclude_stay_id},
    ).fetchone()
    return None if row is None else int(row["id"])

