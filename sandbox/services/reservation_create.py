"""POST /reservations: the creation rules of the spec, in one transaction.

Order of the checks: malformed combinations (400) first, then `external_ref` (409, so that a
repeated creation always answers with the reservation already made), classifications,
parties, and per room: past arrival, price (rate engine), the physical room (409), the type's
availability (422 unless `force`). Choices are listed in docs/sandbox.md (Reservations).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

from models.common import PartyKind, ReservationStatus, ReservationType
from models.errors import ErrorCode
from models.events import EventType
from models.reservations import ReservationCreate, RoomRequest, Unit

from ..context import Ctx
from ..db import insert, iso, one, to_cents, transaction, ts
from ..errors import ApiError, conflict, invalid_request, rule_violation
from .availability import room_is_free, type_has_rooms
from .events import record_event
from .folios import open_folio
from .guests import create_guest, guest_exists
from .pricing import price_stay
from .reservation_checks import check_classifications, check_external_ref, check_party
from .reservation_view import room_code, stay_rows
from .stay_guests import place
from .stay_store import store_price


@contextmanager
def under(prefix: str) -> Iterator[None]:
    """Name a refusal's field inside a nested shape (`departure` -> `rooms[0].departure`)."""
    try:
        yield
    except ApiError as error:
        if error.field:
            error.field = f"{prefix}.{error.field}"
        raise


def create_reservation(ctx: Ctx, body: ReservationCreate) -> tuple[int, list[str]]:
    """Create the reservation; returns its id and the warnings (forced overbookings)."""
    _check_shape(body)
    today = ctx.business_date()
    if body.option_expires_on is not None and body.option_expires_on < today:
        raise rule_violation("option_expires_on is in the past", field="option_expires_on")
    warnings: list[str] = []
    with transaction(ctx.conn):
        check_external_ref(ctx.conn, ctx.property_id, body.external_ref or "")
        check_classifications(ctx.conn, ctx.property_id, {
            "source": body.source, "channel": body.channel, "market": body.market,
        }, creating=True)
        booker_id = _booker(ctx, body)
        if body.billing_party_id is not None:
            check_party(ctx.conn, ctx.property_id, body.billing_party_id, "billing_party_id")
        booked = sum(req.quantity for req in body.rooms)
        now = ts(ctx.now())
        reservation_id = insert(ctx.conn, "reservations", {
            "property_id": ctx.property_id,
            "type": (ReservationType.GROUP if booked > 1 or body.group_name
                     else ReservationType.INDIVIDUAL).value,
            "booker_id": booker_id, "billing_party_id": body.billing_party_id,
            "booker_reference": body.booker_reference or "",
            "booking_code": body.booking_code or "", "external_ref": body.external_ref or "",
            "channel": body.channel or "", "source": body.source or "",
            "market": body.market or "", "group_name": body.group_name or "",
            "notes": body.notes or "", "voucher": body.voucher or "",
            "option_expires_on": iso(body.option_expires_on) if body.option_expires_on else None,
            "created_at": now, "updated_at": now,
        })
        stay_ids: list[int] = []
        for index, request in enumerate(body.rooms):
            if request.arrival < today:
                raise rule_violation(f"arrival {request.arrival} is before the business date "
                                     f"{today}", field=f"rooms[{index}].arrival")
            for unit_index in range(request.quantity):
                unit = request.units[unit_index] if request.units else None
                stay_ids.append(_book_room(ctx, reservation_id, body, index, request,
                                           unit_index, unit, warnings))
        _place_guests(ctx, body, booker_id, stay_ids)
        for number, stay_id in enumerate(stay_ids, start=1):
            _open_room_folio(ctx, reservation_id, stay_id, booker_id, number)
        rooms = stay_rows(ctx.conn, reservation_id)
        record_event(ctx.conn, ctx.property_id, EventType.RESERVATION_CREATED, reservation_id, {
            "status": body.status, "arrival": min(room["arrival"] for room in rooms),
            "departure": max(room["departure"] for room in rooms),
            "rooms": stay_ids, "external_ref": body.external_ref or "",
        }, ctx.now())
    return reservation_id, warnings


def _check_shape(body: ReservationCreate) -> None:
    if body.party_id is not None and body.new_party is not None:
        raise invalid_request("send either party_id or new_party, not both", field="new_party")
    if body.option_expires_on is not None and body.status != ReservationStatus.OPTION.value:
        raise rule_violation("option_expires_on applies only to status option",
                             field="option_expires_on")
    for index, request in enumerate(body.rooms):
        where = f"rooms[{index}]"
        if request.units is not None and len(request.units) != request.quantity:
            raise invalid_request(f"{where}.units holds {len(request.units)} entries; quantity "
                                  f"is {request.quantity} (one unit per room booked)",
                                  field=f"{where}.units")
        if request.room_id is not None and request.quantity > 1:
            raise invalid_request("room_id books one room: with quantity above 1 give each "
                                  "unit its room_id", field=f"{where}.room_id")
        if (request.room_id is not None and request.units
                and request.units[0].room_id not in (None, request.room_id)):
            raise invalid_request("room_id and units[0].room_id differ",
                                  field=f"{where}.units[0].room_id")


def _booker(ctx: Ctx, body: ReservationCreate) -> int | None:
    """Spec, Creation rules 1: an existing party or a new one (no booker at all is allowed)."""
    if body.party_id is not None:
        check_party(ctx.conn, ctx.property_id, body.party_id, "party_id")
        return body.party_id
    if body.new_party is None:
        return None
    fields = body.new_party.model_dump(mode="json", exclude_none=True)
    with under("new_party"):
        return create_guest(ctx.conn, ctx.property_id, fields, ctx.now())


def _book_room(ctx: Ctx, reservation_id: int, body: ReservationCreate, index: int,
               request: RoomRequest, unit_index: int, unit: Unit | None,
               warnings: list[str]) -> int:
    where = f"rooms[{index}]"
    override = None if request.price_override is None else to_cents(request.price_override)
    with under(where):
        priced = price_stay(
            ctx.conn, ctx.property_id, room_type_id=request.room_type_id,
            arrival=request.arrival, departure=request.departure, adults=request.adults,
            brackets=dict(request.brackets), rate_plan_id=request.rate_plan_id,
            offer_id=request.offer_id, discount_pct=request.discount_pct,
            price_override_cents=override)
    room_id = request.room_id
    room_field = f"{where}.room_id"
    if unit is not None and unit.room_id is not None:
        room_id, room_field = unit.room_id, f"{where}.units[{unit_index}].room_id"
    counted_type = request.room_type_id
    if room_id is not None:
        counted_type = _free_room_type(ctx, room_id, request.arrival, request.departure,
                                       room_field)
    if not type_has_rooms(ctx.conn, ctx.property_id, counted_type, request.arrival,
                          request.departure):
        message = (f"room type {_type_code(ctx.conn, counted_type)} has no room left for "
                   f"{request.arrival}..{request.departure}")
        if not body.force:
            raise rule_violation(f"{message}; send force to overbook",
                                 field=f"{where}.room_type_id")
        warnings.append(f"overbooking: {message}")
    now = ts(ctx.now())
    stay_id = insert(ctx.conn, "reservation_rooms", {
        "reservation_id": reservation_id, "property_id": ctx.property_id,
        "status": body.status, "arrival": iso(request.arrival),
        "departure": iso(request.departure),
        "arrival_time": request.arrival_time or _check_in_time(ctx),
        "adults": request.adults,
        "brackets": json.dumps({str(k): v for k, v in request.brackets.items()}),
        "room_type_id": request.room_type_id, "room_id": room_id,
        "rate_plan_id": priced.rate_plan_id, "offer_id": request.offer_id,
        "discount_pct": str(request.discount_pct or 0), "price_override_cents": override,
        "option_expires_on": iso(body.option_expires_on) if body.option_expires_on else None,
        "notes": request.notes or "", "created_at": now, "updated_at": now,
    })
    store_price(ctx.conn, stay_id, priced)
    return stay_id


def _free_room_type(ctx: Ctx, room_id: int, arrival: date, departure: date, field: str) -> int:
    """The type of a requested physical room, refusing a room not free (409)."""
    room = one(ctx.conn, "SELECT room_type_id, code FROM rooms WHERE id = ? AND property_id = ?",
               room_id, ctx.property_id)
    if room is None:
        raise rule_violation(f"room {room_id} does not exist", field=field)
    if not room_is_free(ctx.conn, ctx.property_id, room_id, arrival, departure):
        raise conflict(ErrorCode.ROOM_UNAVAILABLE,
                       f"room {room['code']} is not free for {arrival}..{departure}", field=field)
    return int(room["room_type_id"])


def _place_guests(ctx: Ctx, body: ReservationCreate, booker_id: int | None,
                  stay_ids: list[int]) -> None:
    """The booker as main guest of the first room (booker_is_guest), then the units' guests.

    In a room without a main guest, the first guest placed becomes the main guest.
    """
    prop = one(ctx.conn, "SELECT booker_is_guest FROM properties WHERE id = ?", ctx.property_id)
    assert prop is not None
    booker_is_guest = (bool(prop["booker_is_guest"]) if body.booker_is_guest is None
                       else body.booker_is_guest)
    if booker_is_guest and booker_id is not None:
        booker = one(ctx.conn, "SELECT kind FROM guests WHERE id = ?", booker_id)
        if booker is not None and booker["kind"] == PartyKind.PRIVATE.value:
            place(ctx, stay_ids[0], booker_id, is_main=True)
    position = 0
    for index, request in enumerate(body.rooms):
        for unit_index, unit in enumerate(request.units or [None] * request.quantity):
            stay_id = stay_ids[position]
            position += 1
            if unit is None:
                continue
            for guest_index, guest in enumerate(unit.guests):
                where = f"rooms[{index}].units[{unit_index}].guests[{guest_index}]"
                if guest.party_id is not None:
                    if not guest_exists(ctx.conn, ctx.property_id, guest.party_id):
                        raise rule_violation(f"party {guest.party_id} is not in the archive",
                                             field=f"{where}.party_id")
                    if guest.party_id == booker_id and _placed(ctx, stay_id, booker_id):
                        continue
                    guest_id = guest.party_id
                else:
                    with under(where):
                        guest_id = create_guest(ctx.conn, ctx.property_id, guest.model_dump(
                            exclude={"party_id"}, exclude_none=True), ctx.now())
                has_main = one(ctx.conn, "SELECT 1 FROM stay_guests WHERE reservation_room_id"
                               " = ? AND is_main = 1", stay_id) is not None
                place(ctx, stay_id, guest_id, is_main=not has_main, field=f"{where}.party_id")


def _placed(ctx: Ctx, stay_id: int, guest_id: int) -> bool:
    return one(ctx.conn, "SELECT 1 FROM stay_guests WHERE reservation_room_id = ? AND "
               "guest_id = ?", stay_id, guest_id) is not None


def _open_room_folio(ctx: Ctx, reservation_id: int, stay_id: int, booker_id: int | None,
                     number: int) -> None:
    """One open folio per room entry, held by the room's main guest (else the booker)."""
    main = one(ctx.conn, "SELECT g.id, g.display_name FROM stay_guests p JOIN guests g ON "
               "g.id = p.guest_id WHERE p.reservation_room_id = ? ORDER BY p.is_main DESC, p.id "
               "LIMIT 1", stay_id)
    if main is None and booker_id is not None:
        main = one(ctx.conn, "SELECT id, display_name FROM guests WHERE id = ?", booker_id)
    stay = one(ctx.conn, "SELECT room_id FROM reservation_rooms WHERE id = ?", stay_id)
    assert stay is not None
    code = room_code(ctx.conn, stay["room_id"])
    open_folio(ctx.conn, ctx.property_id, reservation_id=reservation_id,
               reservation_room_id=stay_id, guest_id=None if main is None else main["id"],
               guest_name="" if main is None else main["display_name"],
               description=f"Room {number}" + (f" ({code})" if code else ""), now=ctx.now())


def _check_in_time(ctx: Ctx) -> str:
    row = one(ctx.conn, "SELECT check_in_time FROM properties WHERE id = ?", ctx.property_id)
    assert row is not None
    return str(row["check_in_time"])


def _type_code(conn: sqlite3.Connection, type_id: int) -> str:
    row = one(conn, "SELECT code FROM room_types WHERE id = ?", type_id)
    return str(type_id) if row is None else str(row["code"])
