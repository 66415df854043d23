"""PATCH /reservations/{id}/rooms/{rid} (StayPatch): change a room entry and price it again.

Rules (spec, StayPatch and States rule 2; choices in docs/sandbox.md, Reservations):
- a room checked out or cancelled cannot be changed (422, field status);
- a checked-in room keeps its arrival (422, field arrival), its departure can move but not
  before the business date, and it cannot lose its room (`clear_room`);
- a new arrival of a room not checked in cannot be before the business date;
- `room_id` moves to that room: it must be free on the nights still to come (409
  `room_unavailable`); new dates with a room assigned need that room free on them (409);
- new dates or type need the type (of the assigned room, else the requested one) available
  (422, field room_type_id: StayPatch has no `force`);
- `brackets` replaces every child; `clear_offer`, `clear_price_override`, `clear_room` take the
  value away and cannot come with a value for the same field (400);
- the price is computed again by the rate engine and every night rewritten in stay_nights.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from models.common import ReservationStatus
from models.events import EventType
from models.reservations import StayPatch

from ..context import Ctx
from ..db import iso, one, to_cents, transaction, update
from ..errors import invalid_request, rule_violation
from .availability import type_has_rooms
from .reservation_view import stay_row
from .stay_store import price_row, stay_event, store_price, touch
from .stay_transitions import NOT_CHANGEABLE, check_room_free, occupied_span, reload

S = ReservationStatus
PAIRS = (("room_id", "clear_room"), ("offer_id", "clear_offer"),
         ("price_override", "clear_price_override"))


def patch_stay(ctx: Ctx, reservation_id: int, stay_id: int, body: StayPatch) -> None:
    sent = {name for name in body.model_fields_set if getattr(body, name) is not None}
    for value_field, clear_field in PAIRS:
        if value_field in sent and getattr(body, clear_field):
            raise invalid_request(f"{value_field} and {clear_field} exclude each other",
                                  field=clear_field)
    with transaction(ctx.conn):
        stay = stay_row(ctx.conn, ctx.property_id, reservation_id, stay_id)
        if stay["status"] in NOT_CHANGEABLE:
            raise rule_violation(f"the room is {stay['status']}: it cannot be changed",
                                 field="status")
        changes = _changes(body, sent, stay)
        if not changes:
            return
        _check_dates(ctx, stay, changes)
        if stay["status"] == S.CHECKED_IN.value and "room_id" in changes \
                and changes["room_id"] is None:
            raise rule_violation("a checked-in room cannot lose its room", field="clear_room")
        # Price and check references before writing: a refusal names the field sent.
        priced = price_row(ctx.conn, ctx.property_id, {**dict(stay), **changes})
        if changes.get("room_id") is not None and one(
                ctx.conn, "SELECT 1 FROM rooms WHERE id = ? AND property_id = ?",
                changes["room_id"], ctx.property_id) is None:
            raise rule_violation(f"room {changes['room_id']} does not exist", field="room_id")
        update(ctx.conn, "reservation_rooms", stay_id, changes)
        store_price(ctx.conn, stay_id, priced)
        after = reload(ctx.conn, stay_id)
        _check_room_and_type(ctx, after, changes)
        touch(ctx, reservation_id, [stay_id])
        stay_event(ctx, EventType.STAY_UPDATED, stay_id, changed=sorted(
            "price_override" if key == "price_override_cents" else key for key in changes))
        if changes.get("room_id") is not None:
            stay_event(ctx, EventType.STAY_ROOM_ASSIGNED, stay_id,
                       previous_room_id=stay["room_id"])


def _changes(body: StayPatch, sent: set[str], stay: Any) -> dict[str, Any]:
    """Column -> new value, only for values that differ from the row."""
    wanted: dict[str, Any] = {}
    for name in ("arrival", "departure"):
        if name in sent:
            wanted[name] = iso(getattr(body, name))
    for name in ("adults", "arrival_time", "notes", "room_type_id", "rate_plan_id", "offer_id",
                 "room_id"):
        if name in sent:
            wanted[name] = getattr(body, name)
    if "brackets" in sent:
        assert body.brackets is not None
        wanted["brackets"] = json.dumps({str(k): v for k, v in body.brackets.items() if v})
    if "discount_pct" in sent:
        wanted["discount_pct"] = str(body.discount_pct)
    if "price_override" in sent:
        assert body.price_override is not None
        wanted["price_override_cents"] = to_cents(body.price_override)
    if body.clear_offer:
        wanted["offer_id"] = None
    if body.clear_price_override:
        wanted["price_override_cents"] = None
    if body.clear_room:
        wanted["room_id"] = None
    changes = {key: value for key, value in wanted.items() if value != stay[key]}
    if "brackets" in changes and json.loads(changes["brackets"]) == json.loads(stay["brackets"]):
        del changes["brackets"]
    return changes


def _check_dates(ctx: Ctx, stay: Any, changes: dict[str, Any]) -> None:
    today = ctx.business_date()
    if "arrival" in changes:
        if stay["status"] == S.CHECKED_IN.value:
            raise rule_violation("the room is checked in: its arrival cannot change",
                                 field="arrival")
        if date.fromisoformat(changes["arrival"]) < today:
            raise rule_violation(f"arrival cannot be before the business date {today}",
                                 field="arrival")
    if ("departure" in changes and stay["status"] == S.CHECKED_IN.value
            and date.fromisoformat(changes["departure"]) < today):
        raise rule_violation(f"departure cannot be before the business date {today}",
                             field="departure")


def _check_room_and_type(ctx: Ctx, after: Any, changes: dict[str, Any]) -> None:
    dates_changed = "arrival" in changes or "departure" in changes
    first, departure = occupied_span(ctx, after)
    if after["room_id"] is not None and ("room_id" in changes or dates_changed):
        check_room_free(ctx, after["room_id"], first, departure, after["id"])
    if dates_changed or "room_type_id" in changes:
        counted = after["room_type_id"]
        if after["room_id"] is not None:
            room = one(ctx.conn, "SELECT room_type_id FROM rooms WHERE id = ?", after["room_id"])
            assert room is not None
            counted = room["room_type_id"]
        if not type_has_rooms(ctx.conn, ctx.property_id, counted, first, departure,
                              exclude_stay_ids=[after["id"]]):
            raise rule_violation("the room type has no room left for the new stay",
                                 field="room_type_id")
