"""PATCH /reservations/{id}: only the fields sent change (spec, ReservationPatch).

Choices (docs/sandbox.md, Reservations): `null` on a text field clears it (as `""`); `null` on
`booker_id` / `billing_party_id` takes the party away; `option_expires_on` `""` or `null` clears
it, a date sets it on the head and on every room still in option (refused when no room is in
option, or when the date is before the business date); `group_name` set makes the reservation a
`group`. A PATCH that changes nothing records no event and leaves `updated_at` alone.
"""

from __future__ import annotations

from typing import Any

from models.common import ReservationStatus, ReservationType
from models.events import EventType
from models.reservations import ReservationPatch

from ..context import Ctx
from ..db import all_rows, iso, one, transaction, update
from ..errors import rule_violation
from .events import record_event
from .reservation_checks import check_classifications, check_external_ref, check_party
from .reservation_view import reservation_row
from .stay_store import touch

TEXT = ("booker_reference", "booking_code", "channel", "external_ref", "group_name", "market",
        "notes", "source", "voucher")


def patch_reservation(ctx: Ctx, reservation_id: int, body: ReservationPatch) -> None:
    sent = body.model_fields_set
    with transaction(ctx.conn):
        head = reservation_row(ctx.conn, ctx.property_id, reservation_id)
        changes: dict[str, Any] = {}
        for name in TEXT:
            if name in sent:
                value = getattr(body, name) or ""
                if value != head[name]:
                    changes[name] = value
        check_classifications(ctx.conn, ctx.property_id,
                              {k: changes[k] for k in ("source", "channel", "market")
                               if k in changes}, creating=False)
        if "external_ref" in changes:
            check_external_ref(ctx.conn, ctx.property_id, changes["external_ref"],
                               reservation_id)
        for name in ("booker_id", "billing_party_id"):
            if name in sent:
                party = getattr(body, name)
                if party is not None:
                    check_party(ctx.conn, ctx.property_id, party, name)
                if party != head[name]:
                    changes[name] = party
        if "option_expires_on" in sent:
            _option(ctx, reservation_id, head["option_expires_on"], body, changes)
        if "group_name" in changes:
            changes["type"] = _type(ctx, reservation_id, changes["group_name"])
        if not changes:
            return
        update(ctx.conn, "reservations", reservation_id, changes)
        touch(ctx, reservation_id)
        record_event(ctx.conn, ctx.property_id, EventType.RESERVATION_UPDATED, reservation_id,
                     {"changed": sorted(k for k in changes if k != "type")}, ctx.now())


def _option(ctx: Ctx, reservation_id: int, current: str | None, body: ReservationPatch,
            changes: dict[str, Any]) -> None:
    expires = body.option_expires_on or None
    value = None if expires is None else iso(expires)
    if value == current:
        return
    if value is not None:
        if expires is not None and expires < ctx.business_date():
            raise rule_violation("option_expires_on is in the past", field="option_expires_on")
        in_option = one(ctx.conn, "SELECT COUNT(*) AS n FROM reservation_rooms WHERE "
                        "reservation_id = ? AND status = ?", reservation_id,
                        ReservationStatus.OPTION.value)
        if in_option is None or not in_option["n"]:
            raise rule_violation("no room of the reservation is in option",
                                 field="option_expires_on")
    ids = [row["id"] for row in all_rows(
        ctx.conn, "SELECT id FROM reservation_rooms WHERE reservation_id = ? AND status = ?",
        reservation_id, ReservationStatus.OPTION.value)]
    for stay_id in ids:
        update(ctx.conn, "reservation_rooms", stay_id, {"option_expires_on": value})
    touch(ctx, reservation_id, ids)
    changes["option_expires_on"] = value


def _type(ctx: Ctx, reservation_id: int, group_name: str) -> str:
    head = reservation_row(ctx.conn, ctx.property_id, reservation_id)
    if head["type"] == ReservationType.ALLOTMENT.value:
        return str(head["type"])
    rooms = one(ctx.conn, "SELECT COUNT(*) AS n FROM reservation_rooms WHERE reservation_id = ?",
                reservation_id)
    several = rooms is not None and rooms["n"] > 1
    return (ReservationType.GROUP if group_name or several else ReservationType.INDIVIDUAL).value
