"""GET /reservations: filters, sort and paging.

Filters on rooms (arrival_*, departure_*, stay_on, status, room_id) match a reservation when at
least one of its rooms matches (spec, Filters of GET /reservations); `q` is a part of the
booker's, a placed guest's or the group's name, case-insensitive; `external_ref`,
`booking_code` and `voucher` are exact. `created_since` and `updated_since` are inclusive
(`>=`); `updated_since` reads the head's `updated_at`, which every change of the head or of a
room moves. Every sort ends on `id` so that paging is stable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from models.common import ReservationStatus
from models.reservations import Reservation

from ..context import Ctx
from ..db import all_rows, iso, one, ts
from .reservation_view import reservation_from_rows, stay_rows

_ARRIVAL = ("COALESCE((SELECT MIN(s.arrival) FROM reservation_rooms s WHERE s.reservation_id = "
            "r.id AND s.status <> 'cancelled'), (SELECT MIN(s.arrival) FROM reservation_rooms s "
            "WHERE s.reservation_id = r.id))")
"""The head's arrival (rooms not cancelled; all rooms when every one is cancelled)."""

SORTS = {
    "arrival": f"{_ARRIVAL} ASC, r.id ASC",
    "arrival_desc": f"{_ARRIVAL} DESC, r.id DESC",
    "created_desc": "r.created_at DESC, r.id DESC",
    "updated_desc": "r.updated_at DESC, r.id DESC",
}


@dataclass(frozen=True)
class ReservationFilters:
    arrival_from: date | None = None
    arrival_to: date | None = None
    departure_from: date | None = None
    departure_to: date | None = None
    stay_on: date | None = None
    created_since: datetime | None = None
    updated_since: datetime | None = None
    status: ReservationStatus | None = None
    room_id: int | None = None
    external_ref: str | None = None
    booking_code: str | None = None
    voucher: str | None = None
    q: str | None = None


def _where(ctx: Ctx, f: ReservationFilters) -> tuple[str, list[Any]]:
    clauses = ["r.property_id = ?"]
    params: list[Any] = [ctx.property_id]
    room: list[str] = []
    room_params: list[Any] = []
    for value, sql in (
        (f.arrival_from, "s.arrival >= ?"), (f.arrival_to, "s.arrival <= ?"),
        (f.departure_from, "s.departure >= ?"), (f.departure_to, "s.departure <= ?"),
    ):
        if value is not None:
            room.append(sql)
            room_params.append(iso(value))
    if f.stay_on is not None:
        room.append("s.arrival <= ? AND s.departure > ?")
        room_params += [iso(f.stay_on), iso(f.stay_on)]
    if f.status is not None:
        room.append("s.status = ?")
        room_params.append(f.status.value)
    if f.room_id is not None:
        room.append("s.room_id = ?")
        room_params.append(f.room_id)
    if room:
        # One room must match every room filter at once.
        clauses.append("EXISTS (SELECT 1 FROM reservation_rooms s WHERE s.reservation_id = r.id "
                       f"AND {' AND '.join(room)})")
        params += room_params
    for text, column in ((f.external_ref, "external_ref"), (f.booking_code, "booking_code"),
                          (f.voucher, "voucher")):
        if text is not None:
            clauses.append(f"r.{column} = ?")
            params.append(text)
    if f.created_since is not None:
        clauses.append("r.created_at >= ?")
        params.append(ts(f.created_since))
    if f.updated_since is not None:
        clauses.append("r.updated_at >= ?")
        params.append(ts(f.updated_since))
    if f.q:
        pattern = f"%{_escape(f.q.strip().lower())}%"
        clauses.append(
            "(LOWER(r.group_name) LIKE ? ESCAPE '\\' "
            "OR EXISTS (SELECT 1 FROM guests b WHERE b.id = r.booker_id "
            "AND LOWER(b.display_name) LIKE ? ESCAPE '\\') "
            "OR EXISTS (SELECT 1 FROM reservation_rooms s JOIN stay_guests p ON "
            "p.reservation_room_id = s.id JOIN guests g ON g.id = p.guest_id "
            "WHERE s.reservation_id = r.id AND LOWER(g.display_name) LIKE ? ESCAPE '\\'))")
        params += [pattern] * 3
    return " AND ".join(clauses), params


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class ReservationsPage:
    data: list[Reservation]
    page: int
    page_size: int
    total: int
    pages: int


def list_reservations(ctx: Ctx, filters: ReservationFilters, sort: str, page: int,
                      page_size: int) -> ReservationsPage:
    """One page; `pages` is 0 when nothing matches. Items carry rooms, not guests or folios."""
    where, params = _where(ctx, filters)
    count = one(ctx.conn, f"SELECT COUNT(*) AS n FROM reservations r WHERE {where}", *params)
    total = int(count["n"]) if count is not None else 0
    heads = all_rows(ctx.conn, f"SELECT r.* FROM reservations r WHERE {where} "
                     f"ORDER BY {SORTS[sort]} LIMIT ? OFFSET ?",
                     *params, page_size, (page - 1) * page_size)
    data = [reservation_from_rows(ctx.conn, head, stay_rows(ctx.conn, head["id"]), detail=False)
            for head in heads]
    return ReservationsPage(data, page, page_size, total, math.ceil(total / page_size))
