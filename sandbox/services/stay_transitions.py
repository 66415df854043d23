"""The operations on one room entry: confirm, cancel, assign a room, check in.

Each takes the room's row, refuses with an ApiError (422 for a move the state machine does
not list) and records its stay.* event. Callers hold the transaction; whole-reservation
operations run each room in a nested one so that a refused room leaves no trace.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from models.common import CancelledBy, ReservationStatus
from models.errors import ErrorCode
from models.events import EventType

from ..context import Ctx
from ..db import all_rows, iso, one, ts, update
from ..errors import conflict, rule_violation
from .availability import first_free_room, room_is_free
from .folios import open_folio, room_open_folio
from .reservation_view import room_code
from .state_machine import Trigger, transition
from .stay_store import night_prices, post_nights, reprice, stay_event, touch

S = ReservationStatus
NOT_CHANGEABLE = (S.CHECKED_OUT.value, S.CANCELLED.value)


def reload(conn: sqlite3.Connection, stay_id: int) -> sqlite3.Row:
    row = one(conn, "SELECT * FROM reservation_rooms WHERE id = ?", stay_id)
    assert row is not None
    return row


def confirm(ctx: Ctx, stay: sqlite3.Row) -> None:
    status = transition(stay["status"], Trigger.CONFIRM)
    update(ctx.conn, "reservation_rooms", stay["id"],
           {"status": status.value, "option_expires_on": None})
    clear_head_option(ctx, stay["reservation_id"])
    touch(ctx, stay["reservation_id"], [stay["id"]])
    stay_event(ctx, EventType.STAY_CONFIRMED, stay["id"])


def clear_head_option(ctx: Ctx, reservation_id: int) -> None:
    """The head's option_expires_on lasts while a room is in option."""
    left = one(ctx.conn, "SELECT 1 FROM reservation_rooms WHERE reservation_id = ? AND status = ?",
               reservation_id, S.OPTION.value)
    if left is None:
        ctx.conn.execute("UPDATE reservations SET option_expires_on = NULL WHERE id = ?",
                         (reservation_id,))


def cancel(ctx: Ctx, stay: sqlite3.Row, by: CancelledBy) -> None:
    status = transition(stay["status"], Trigger.CANCEL)
    update(ctx.conn, "reservation_rooms", stay["id"], {
        "status": status.value, "cancelled_by": by.value, "option_expires_on": None})
    clear_head_option(ctx, stay["reservation_id"])
    touch(ctx, stay["reservation_id"], [stay["id"]])
    stay_event(ctx, EventType.STAY_CANCELLED, stay["id"], by=by.value)


def assign(ctx: Ctx, stay: sqlite3.Row, room_id: int | None, *,
           allow_other_type: bool = False) -> bool:
    """Give the room entry a physical room; returns False when nothing changed.

    Without `room_id`: keep the room already assigned, else the first free room of the type
    (with `allow_other_type`, then of the other types in their order); none -> 409.
    """
    if stay["status"] in NOT_CHANGEABLE:
        raise rule_violation(f"the room is {stay['status']}: no room can be assigned",
                             field="status")
    first, departure = occupied_span(ctx, stay)
    if room_id is None:
        if stay["room_id"] is not None:
            return False
        room_id = _first_free(ctx, stay, first, departure, allow_other_type)
    else:
        if room_id == stay["room_id"]:
            return False
        check_room_free(ctx, room_id, first, departure, stay["id"])
    move_to(ctx, stay, room_id)
    return True


def occupied_span(ctx: Ctx, stay: sqlite3.Row) -> tuple[date, date]:
    """Nights a new room must be free: a checked-in guest only needs it from today on."""
    arrival, departure = date.fromisoformat(stay["arrival"]), date.fromisoformat(stay["departure"])
    if stay["status"] == S.CHECKED_IN.value:
        arrival = max(arrival, min(ctx.business_date(), departure))
    return arrival, departure


def check_room_free(ctx: Ctx, room_id: int, arrival: date, departure: date,
                    stay_id: int | None) -> None:
    room = one(ctx.conn, "SELECT code FROM rooms WHERE id = ? AND property_id = ?", room_id,
               ctx.property_id)
    if room is None:
        raise rule_violation(f"room {room_id} does not exist", field="room_id")
    if not room_is_free(ctx.conn, ctx.property_id, room_id, arrival, departure, stay_id):
        raise conflict(ErrorCode.ROOM_UNAVAILABLE,
                       f"room {room['code']} is not free for {arrival}..{departure}",
                       field="room_id")


def move_to(ctx: Ctx, stay: sqlite3.Row, room_id: int | None) -> None:
    update(ctx.conn, "reservation_rooms", stay["id"], {"room_id": room_id})
    touch(ctx, stay["reservation_id"], [stay["id"]])
    if room_id is not None:
        stay_event(ctx, EventType.STAY_ROOM_ASSIGNED, stay["id"],
                   previous_room_id=stay["room_id"])


def _first_free(ctx: Ctx, stay: sqlite3.Row, arrival: date, departure: date,
                allow_other_type: bool) -> int:
    types = [stay["room_type_id"]]
    if allow_other_type:
        types += [row["id"] for row in all_rows(
            ctx.conn, "SELECT id FROM room_types WHERE property_id = ? AND is_virtual = 0 "
            "AND id <> ? ORDER BY sort, id", ctx.property_id, stay["room_type_id"])]
    for type_id in types:
        room_id = first_free_room(ctx.conn, ctx.property_id, type_id, arrival, departure,
                                  stay["id"])
        if room_id is not None:
            return room_id
    other = " or of another type" if allow_other_type else ""
    raise conflict(ErrorCode.ROOM_UNAVAILABLE,
                   f"no room of the type{other} is free for {arrival}..{departure}",
                   field="room_id")


def check_in(ctx: Ctx, stay: sqlite3.Row, charge_no_show: bool) -> None:
    """Spec table: confirmed -> checked_in when a room is assigned and arrival is today.

    Arrival in the past: `charge_no_show` charges each missed night (its price in stay_nights)
    on the room's open folio and keeps the arrival; otherwise arrival moves to the business
    date and the stay is priced again.
    """
    status = transition(stay["status"], Trigger.CHECK_IN)
    today = ctx.business_date()
    arrival, departure = date.fromisoformat(stay["arrival"]), date.fromisoformat(stay["departure"])
    if stay["room_id"] is None:
        raise rule_violation("no room is assigned: assign a room before check-in",
                             field="room_id")
    if arrival > today:
        raise rule_violation(f"arrival is {arrival}; check-in happens on the arrival date "
                             f"(business date {today})", field="arrival")
    if departure <= today:
        raise rule_violation(f"the stay ended on {departure}: it cannot be checked in",
                             field="departure")
    missed = 0
    if arrival < today:
        if charge_no_show:
            nights = night_prices(ctx.conn, stay["id"], arrival, today)
            missed = len(nights)
            post_nights(ctx, stay, _room_folio(ctx, stay), nights, "no-show")
            update(ctx.conn, "reservation_rooms", stay["id"], {"no_show": 1})
        else:
            update(ctx.conn, "reservation_rooms", stay["id"], {"arrival": iso(today)})
            reprice(ctx, stay["id"])
    update(ctx.conn, "reservation_rooms", stay["id"],
           {"status": status.value, "checked_in_at": ts(ctx.now())})
    touch(ctx, stay["reservation_id"], [stay["id"]])
    stay_event(ctx, EventType.STAY_CHECKED_IN, stay["id"], no_show_nights_charged=missed)


def _room_folio(ctx: Ctx, stay: sqlite3.Row) -> int:
    """The room's open folio, or a new one when none is open."""
    folio_id = room_open_folio(ctx.conn, stay["id"])
    if folio_id is not None:
        return folio_id
    return new_room_folio(ctx, stay, "Room")


def new_room_folio(ctx: Ctx, stay: sqlite3.Row, description: str) -> int:
    first = one(ctx.conn, "SELECT guest_id, guest_name FROM folios WHERE reservation_room_id = ? "
                "ORDER BY id LIMIT 1", stay["id"])
    code = room_code(ctx.conn, stay["room_id"])
    return open_folio(
        ctx.conn, ctx.property_id, reservation_id=stay["reservation_id"],
        reservation_room_id=stay["id"], guest_id=None if first is None else first["guest_id"],
        guest_name="" if first is None else first["guest_name"],
        description=f"{description} ({code})" if code else description, now=ctx.now())
