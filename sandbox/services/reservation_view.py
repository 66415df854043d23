"""Reading reservations: rows by id (404 outside the property) and the Reservation shape.

Choices (docs/sandbox.md, Reservations): the head's arrival/departure span the rooms not
cancelled (all rooms when every room is cancelled); `total` sums the rooms not cancelled; the
list shape leaves `guests` and `folios` out (absent, not null), the detail carries both.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from models.common import CancelledBy, RatePlanRef, ReservationStatus, ReservationType, RoomRef
from models.reservations import Reservation, ReservationRoom, StayGuest

from ..db import all_rows, from_cents, one
from ..errors import not_found
from .folios import folio_refs
from .guests import party_model
from .state_machine import reservation_status


def reservation_row(conn: sqlite3.Connection, property_id: int, reservation_id: int) -> sqlite3.Row:
    row = one(conn, "SELECT * FROM reservations WHERE id = ? AND property_id = ?",
              reservation_id, property_id)
    if row is None:
        raise not_found(f"reservation {reservation_id}")
    return row


def stay_row(conn: sqlite3.Connection, property_id: int, reservation_id: int,
             stay_id: int) -> sqlite3.Row:
    """A room entry of the reservation; 404 when the reservation or the entry is not there."""
    reservation_row(conn, property_id, reservation_id)
    row = one(conn, "SELECT * FROM reservation_rooms WHERE id = ? AND reservation_id = ?",
              stay_id, reservation_id)
    if row is None:
        raise not_found(f"room {stay_id} of reservation {reservation_id}")
    return row


def stay_rows(conn: sqlite3.Connection, reservation_id: int) -> list[sqlite3.Row]:
    return all_rows(conn, "SELECT * FROM reservation_rooms WHERE reservation_id = ? ORDER BY id",
                    reservation_id)


def room_code(conn: sqlite3.Connection, room_id: int | None) -> str:
    if room_id is None:
        return ""
    row = one(conn, "SELECT code FROM rooms WHERE id = ?", room_id)
    return "" if row is None else str(row["code"])


def stay_guest_models(conn: sqlite3.Connection, stay_id: int) -> list[StayGuest]:
    rows = all_rows(
        conn, "SELECT p.id, p.guest_id, p.is_main, g.display_name, g.fields FROM stay_guests p "
        "JOIN guests g ON g.id = p.guest_id WHERE p.reservation_room_id = ? "
        "ORDER BY p.is_main DESC, p.id", stay_id)
    guests = []
    for row in rows:
        fields: dict[str, Any] = json.loads(row["fields"])
        birth = fields.get("birth_date")
        guests.append(StayGuest(
            id=row["id"], guest_id=row["guest_id"], is_main=bool(row["is_main"]),
            name=row["display_name"], first_name=fields.get("first_name"),
            last_name=fields.get("last_name"), email=fields.get("email"),
            nationality=fields.get("nationality"),
            birth_date=date.fromisoformat(birth) if birth else None,
        ))
    return guests


def _room_model(conn: sqlite3.Connection, row: sqlite3.Row, refs: _Refs,
                detail: bool) -> ReservationRoom:
    arrival, departure = date.fromisoformat(row["arrival"]), date.fromisoformat(row["departure"])
    values: dict[str, Any] = {
        "id": row["id"], "status": ReservationStatus(row["status"]),
        "arrival": arrival, "departure": departure, "nights": (departure - arrival).days,
        "arrival_time": row["arrival_time"], "adults": row["adults"],
        "brackets": {int(k): v for k, v in json.loads(row["brackets"]).items()},
        "room_type": refs.room_type(row["room_type_id"]), "room": refs.room(row["room_id"]),
        "rate_plan": refs.rate_plan(row["rate_plan_id"]), "offer_id": row["offer_id"],
        "discount_pct": Decimal(row["discount_pct"]),
        "price_override": None if row["price_override_cents"] is None
        else from_cents(row["price_override_cents"]),
        "option_expires_on": _date(row["option_expires_on"]),
        "cancelled_by": CancelledBy(row["cancelled_by"]) if row["cancelled_by"] else None,
        "checked_in_at": _ts(row["checked_in_at"]), "checked_out_at": _ts(row["checked_out_at"]),
        "notes": row["notes"], "total": from_cents(row["total_cents"]),
        "updated_at": _ts(row["updated_at"]),
    }
    if detail:
        values["guests"] = stay_guest_models(conn, row["id"])
    # Built from a dict of the fields set, so `guests` stays unset (absent) in the list shape.
    return ReservationRoom(**values)


def reservation_model(conn: sqlite3.Connection, property_id: int, reservation_id: int, *,
                      detail: bool = True) -> Reservation:
    head = reservation_row(conn, property_id, reservation_id)
    return reservation_from_rows(conn, head, stay_rows(conn, reservation_id), detail=detail)


def reservation_from_rows(conn: sqlite3.Connection, head: sqlite3.Row, rooms: list[sqlite3.Row],
                          *, detail: bool) -> Reservation:
    refs = _Refs(conn)
    live = [room for room in rooms if room["status"] != ReservationStatus.CANCELLED.value]
    span = live or rooms
    arrival = min(date.fromisoformat(room["arrival"]) for room in span)
    departure = max(date.fromisoformat(room["departure"]) for room in span)
    values: dict[str, Any] = {
        "id": head["id"], "arrival": arrival, "departure": departure,
        "nights": (departure - arrival).days,
        "status": reservation_status(room["status"] for room in rooms),
        "type": ReservationType(head["type"]),
        "booker": party_model(conn, head["booker_id"]),
        "billing_party": party_model(conn, head["billing_party_id"]),
        "booker_reference": head["booker_reference"], "booking_code": head["booking_code"],
        "external_ref": head["external_ref"], "channel": head["channel"],
        "source": head["source"], "market": head["market"], "group_name": head["group_name"],
        "notes": head["notes"], "voucher": head["voucher"],
        "option_expires_on": _date(head["option_expires_on"]),
        "rooms": [_room_model(conn, room, refs, detail) for room in rooms],
        "total": from_cents(sum(room["total_cents"] for room in live)),
        "created_at": _ts(head["created_at"]), "updated_at": _ts(head["updated_at"]),
    }
    if detail:
        values["folios"] = folio_refs(conn, head["id"])
    return Reservation(**values)


class _Refs:
    """Small cache of room type, room and rate plan references while shaping a page."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._types: dict[int, RoomRef] = {}
        self._rooms: dict[int, RoomRef] = {}
        self._plans: dict[int, RatePlanRef] = {}

    def room_type(self, type_id: int) -> RoomRef:
        if type_id not in self._types:
            row = one(self.conn, "SELECT id, code FROM room_types WHERE id = ?", type_id)
            assert row is not None
            self._types[type_id] = RoomRef(id=row["id"], code=row["code"])
        return self._types[type_id]

    def room(self, room_id: int | None) -> RoomRef | None:
        if room_id is None:
            return None
        if room_id not in self._rooms:
            row = one(self.conn, "SELECT id, code FROM rooms WHERE id = ?", room_id)
            assert row is not None
            self._rooms[room_id] = RoomRef(id=row["id"], code=row["code"])
        return self._rooms[room_id]

    def rate_plan(self, plan_id: int | None) -> RatePlanRef | None:
        if plan_id is None:
            return None
        if plan_id not in self._plans:
            row = one(self.conn, "SELECT id, code, name FROM rate_plans WHERE id = ?", plan_id)
            assert row is not None
            self._plans[plan_id] = RatePlanRef(id=row["id"], code=row["code"], name=row["name"])
        return self._plans[plan_id]


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _ts(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
