"""Guests placed in a room of a reservation (placements): list, add, remove.

Choices (docs/sandbox.md, Reservations): `is_main` is as sent (default false); marking a guest
main takes the mark from the room's previous main guest (at most one main guest per room); a
guest is placed at most once per room; guests cannot be placed in or removed from a room
cancelled or checked out. Placing or removing a guest is a change of the room: its
`updated_at` and the reservation's move, and a `stay.updated` event with `changed: ["guests"]`
is recorded.
"""

from __future__ import annotations

from models.common import ReservationStatus
from models.events import EventType
from models.guests import StayGuestAdd
from models.reservations import StayGuest

from ..context import Ctx
from ..db import insert, one, transaction, ts
from ..errors import invalid_request, not_found, rule_violation
from .guests import create_guest, guest_exists
from .reservation_view import stay_guest_models, stay_row
from .stay_store import stay_event, touch

CLOSED = (ReservationStatus.CANCELLED.value, ReservationStatus.CHECKED_OUT.value)


def place(ctx: Ctx, stay_id: int, guest_id: int, *, is_main: bool, field: str = "guest_id") -> int:
    """Place an archive guest in the room entry; returns the placement id."""
    if one(ctx.conn, "SELECT 1 FROM stay_guests WHERE reservation_room_id = ? AND guest_id = ?",
           stay_id, guest_id) is not None:
        raise rule_violation(f"guest {guest_id} is already placed in this room", field=field)
    if is_main:
        ctx.conn.execute("UPDATE stay_guests SET is_main = 0 WHERE reservation_room_id = ?",
                         (stay_id,))
    return insert(ctx.conn, "stay_guests", {
        "reservation_room_id": stay_id, "guest_id": guest_id, "is_main": int(is_main),
        "created_at": ts(ctx.now()),
    })


def list_guests(ctx: Ctx, reservation_id: int, stay_id: int) -> list[StayGuest]:
    stay_row(ctx.conn, ctx.property_id, reservation_id, stay_id)
    return stay_guest_models(ctx.conn, stay_id)


def add_guest(ctx: Ctx, reservation_id: int, stay_id: int, body: StayGuestAdd) -> list[StayGuest]:
    if (body.guest_id is None) == (body.guest is None):
        raise invalid_request("send either guest_id or guest", field="guest_id")
    with transaction(ctx.conn):
        stay = stay_row(ctx.conn, ctx.property_id, reservation_id, stay_id)
        _check_open(stay["status"])
        if body.guest_id is not None:
            if not guest_exists(ctx.conn, ctx.property_id, body.guest_id):
                raise rule_violation(f"guest {body.guest_id} is not in the archive of the "
                                     "property", field="guest_id")
            guest_id = body.guest_id
        else:
            assert body.guest is not None
            fields = body.guest.model_dump(mode="json", exclude_none=True)
            for name in ("first_name", "last_name"):
                if not str(fields.get(name) or "").strip():
                    raise rule_violation(f"a new guest needs {name}", field=f"guest.{name}")
            guest_id = create_guest(ctx.conn, ctx.property_id, fields, ctx.now())
        place(ctx, stay_id, guest_id, is_main=body.is_main)
        _changed(ctx, reservation_id, stay_id)
    return stay_guest_models(ctx.conn, stay_id)


def remove_guest(ctx: Ctx, reservation_id: int, stay_id: int,
                 placement_id: int) -> list[StayGuest]:
    with transaction(ctx.conn):
        stay = stay_row(ctx.conn, ctx.property_id, reservation_id, stay_id)
        if one(ctx.conn, "SELECT 1 FROM stay_guests WHERE id = ? AND reservation_room_id = ?",
               placement_id, stay_id) is None:
            raise not_found(f"guest placement {placement_id} of room {stay_id}")
        _check_open(stay["status"])
        ctx.conn.execute("DELETE FROM stay_guests WHERE id = ?", (placement_id,))
        _changed(ctx, reservation_id, stay_id)
    return stay_guest_models(ctx.conn, stay_id)


def _check_open(status: str) -> None:
    if status in CLOSED:
        raise rule_violation(f"the room is {status}: its guests cannot change", field="status")


def _changed(ctx: Ctx, reservation_id: int, stay_id: int) -> None:
    touch(ctx, reservation_id, [stay_id])
    stay_event(ctx, EventType.STAY_UPDATED, stay_id, changed=["guests"])
